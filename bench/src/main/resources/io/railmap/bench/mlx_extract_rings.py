"""MLX's own ring search, timed: MlxRingBench runs this with the pinned MLX's python.

Reads a connectivity matrix as JSON on standard input (a list of n lists of n cable counts, as
make_connectivity_matrix in mlx/_distributed_utils/config.py builds it), runs that file's
extract_rings on it, and prints one JSON line:
  seconds  the time extract_rings took (time.perf_counter), interpreter start and import excluded
  rings    how many rings it returned
  full     whether its first ring passes every node (check_valid_ring's test)
  ring     that first ring, the node indices in order (what configure_ring and configure_jaccl_ring use)
  width    its cable count as extract_rings gives it: the fewest cables between neighbours on it
"""

import json
import sys
import time

from mlx._distributed_utils.config import extract_rings

connectivity = json.load(sys.stdin)
start = time.perf_counter()
rings = extract_rings(connectivity)
seconds = time.perf_counter() - start
full = len(rings) > 0 and len(rings[0][0]) == len(connectivity)
ring, width = rings[0] if full else ([], 0)
print(json.dumps({"seconds": seconds, "rings": len(rings), "full": full, "ring": ring, "width": width}), flush=True)
