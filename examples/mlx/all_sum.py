"""One all_sum over MLX's TCP ring backend, checked exactly and timed; the script a lab run launches.

Run one copy per rank, under ``mlx.launch --backend ring`` or with MLX_HOSTFILE and MLX_RANK set
(MLX ``mlx/distributed/ring/ring.cpp``, ``init``). Every rank holds N MiB of float32, every element
rank + 1; after ``mx.distributed.all_sum`` every element must be size * (size + 1) / 2. Those are
integers below 2**24 for up to 5,791 ranks, so float32 holds every partial sum exactly, whatever
order the ring adds in, and the check is equality.

With --hold-s S, each rank keeps its group (and its process) S seconds after its line, before it exits:
a job that lives long enough for railmapd's rank scan (every 2 s) to see it running (docs/jobs.md).

Timing follows MLX's own benchmarks (``benchmarks/python/distributed_bench.py``, ``time_fn``):
``time.perf_counter`` around ``mx.eval`` of the operation, after a warm-up, the mean over the
iterations.

Prints one JSON line per rank on standard output:
  rank, size          this rank and the group's size
  bytes               the bytes of one rank's array (N MiB)
  iterations          the timed all_sums
  seconds             seconds per all_sum (mean over the iterations)
  algbw_gb_s          algorithm bandwidth in GB/s (10**9 bytes per second): bytes / seconds, the
                      size of the array reduced over the time one all_sum took, as nccl-tests'
                      "algbw"; not the bytes each link carried
  value, expected     the first element of the result and what every element must be
  exact               every element of the warm-up's and the last iteration's result equals expected

Exit codes: 0 exact; 1 a result differs from the expected sum (the line says exact false);
2 a bad argument; 3 the ring backend did not start (its message on standard error).
"""

import argparse
import json
import sys
import time

import mlx.core as mx

MIB = 1 << 20
FLOAT32_BYTES = 4
# The largest group whose sum 1 + 2 + ... + size stays below 2**24, float32's exact integer range.
MAX_EXACT_RANKS = 5791


def positive(text, most):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if value < 1 or value > most:
        raise argparse.ArgumentTypeError(f"{value} is outside 1 to {most}")
    return value


def arguments(argv):
    parser = argparse.ArgumentParser(
        prog="all_sum.py",
        description="An exact, timed mx.distributed.all_sum over MLX's ring backend; one JSON line per rank.",
    )
    parser.add_argument("--mib", type=lambda t: positive(t, 4096), default=64, metavar="N",
                        help="MiB of float32 per rank, 1 to 4096 (default 64)")
    parser.add_argument("--iterations", type=lambda t: positive(t, 100000), default=10, metavar="K",
                        help="timed all_sums after one warm-up, 1 to 100000 (default 10)")
    parser.add_argument("--hold-s", type=lambda t: positive(t, 3600), default=None, metavar="S",
                        help="seconds to stay running after printing, 1 to 3600 (default: exit at once)")
    return parser.parse_args(argv)


def exact(result, expected):
    return bool(mx.all(result == expected).item())


def main(argv):
    args = arguments(argv)
    try:
        group = mx.distributed.init(backend="ring", strict=True)
    except RuntimeError as e:
        print(f"all_sum.py: MLX's ring backend did not start: {e}", file=sys.stderr)
        print("all_sum.py: run it under mlx.launch --backend ring, or set MLX_HOSTFILE and MLX_RANK", file=sys.stderr)
        return 3
    rank, size = group.rank(), group.size()
    if size > MAX_EXACT_RANKS:
        print(f"all_sum.py: {size} ranks: the sum is exact in float32 for at most {MAX_EXACT_RANKS}", file=sys.stderr)
        return 2
    elements = args.mib * MIB // FLOAT32_BYTES
    x = mx.full((elements,), rank + 1, dtype=mx.float32)
    mx.eval(x)
    expected = size * (size + 1) // 2

    result = mx.distributed.all_sum(x, group=group)
    mx.eval(result)
    good = exact(result, expected)

    start = time.perf_counter()
    for _ in range(args.iterations):
        result = mx.distributed.all_sum(x, group=group)
        mx.eval(result)
    seconds = (time.perf_counter() - start) / args.iterations
    good = exact(result, expected) and good

    nbytes = elements * FLOAT32_BYTES
    print(json.dumps({
        "rank": rank,
        "size": size,
        "bytes": nbytes,
        "iterations": args.iterations,
        "seconds": seconds,
        "algbw_gb_s": nbytes / seconds / 1e9,
        "value": result[0].item(),
        "expected": expected,
        "exact": good,
    }), flush=True)
    if args.hold_s is not None:
        time.sleep(args.hold_s)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
