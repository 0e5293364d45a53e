#!/usr/bin/env bash
# CPU time of `tengen bench` for several builds, interleaved so that the
# machine's load falls on all of them alike; prints each build's median
# and its speed ratio to the first build, and fails if the builds do not
# search the same number of nodes (a change meant only for speed must
# not change the tree).
#
#   bash scripts/bench_compare.sh GAME RUNS BIN_BEFORE BIN_AFTER [BIN...]
set -euo pipefail
game=${1:?usage: bench_compare.sh GAME RUNS BIN...}
runs=${2:?usage: bench_compare.sh GAME RUNS BIN...}
shift 2
[ $# -ge 2 ] || { echo "give at least two builds" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$runs"); do
    for bin in "$@"; do
        perf stat -x, -e task-clock -o "$out.perf" "$bin" bench --game "$game" > "$out.bench"
        nodes=$(awk '/Nodes searched/ {print $NF}' "$out.bench")
        ms=$(awk -F, '/task-clock/ {print $1}' "$out.perf")
        echo "$bin $nodes $ms" >> "$out"
    done
done
rm -f "$out.perf" "$out.bench"
python3 - "$out" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    bin, nodes, ms = line.split()
    runs.setdefault(bin, []).append((int(nodes), float(ms)))
signatures = {n for r in runs.values() for n, _ in r}
base = None
for bin, r in runs.items():
    median = statistics.median(ms for _, ms in r)
    base = base or median
    each = " ".join(f"{ms:.0f}" for _, ms in r)
    print(f"{bin:40} nodes {r[0][0]:>10,}  median {median:8.1f} ms  speed x{base / median:.3f}  ({each})")
if len(signatures) != 1:
    sys.exit(f"node counts differ: {sorted(signatures)}")
PY
