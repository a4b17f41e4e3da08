"""An all_sum over MLX's ring backend, checked exactly on every rank: what railmap's lab runs through mlx.launch.

    mlx.launch --hostfile ring.json --python PYTHON -- examples/mlx/all_sum.py [--mib 64] [--iterations 3]

Every rank holds a float32 array of MIB MiB whose elements are its rank + 1; the sum over N ranks is
N(N+1)/2 in every element, exact in float32 for any N below 2^12. One all_sum warms the connections up,
then ITERATIONS timed ones follow, each timed with time.perf_counter around mx.eval (the clock MLX's own
benchmarks use). Each rank prints one JSON line:

    {"rank": 0, "size": 4, "bytes": 67108864, "iterations": 3, "seconds": [...], "best_s": ..., "gbps": ..., "exact": true}

gbps is the algorithm bandwidth of the best iteration: bytes / best_s, in GB/s (10^9 bytes per second).
The exit status is 1 on a rank whose result is not exact, 2 on a bad argument.
"""
import argparse
import json
import sys
import time

import mlx.core as mx


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=64, help="size of the array in MiB (default 64)")
    parser.add_argument("--iterations", type=int, default=3, help="timed all_sums after one warm-up (default 3)")
    args = parser.parse_args()
    if args.mib < 1 or args.iterations < 1:
        parser.error("--mib and --iterations must be at least 1")

    group = mx.distributed.init(backend="ring", strict=True)
    rank, size = group.rank(), group.size()
    elements = args.mib * 1024 * 1024 // 4
    x = mx.full((elements,), rank + 1, dtype=mx.float32)
    expected = size * (size + 1) / 2

    mx.eval(mx.distributed.all_sum(x))
    seconds = []
    exact = True
    for _ in range(args.iterations):
        start = time.perf_counter()
        y = mx.distributed.all_sum(x)
        mx.eval(y)
        seconds.append(time.perf_counter() - start)
        exact = exact and bool(mx.all(y == expected).item())

    best = min(seconds)
    print(json.dumps({"rank": rank, "size": size, "bytes": elements * 4, "iterations": args.iterations,
                      "seconds": [round(s, 6) for s in seconds], "best_s": round(best, 6),
                      "gbps": round(elements * 4 / best / 1e9, 3), "exact": exact}), flush=True)
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
