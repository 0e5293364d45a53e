#!/usr/bin/env bash
# Search speed with a network against the hand-made evaluation, beside
# Stockfish in the same run: interleaved, single-threaded, best of N runs
# of each, for docs/performance.md.
#   bash scripts/perf_nnue.sh NET.nnue [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
net=${1:?usage: perf_nnue.sh NET.nnue [runs]}
runs=${2:-3}
tengen=./target/release/tengen
sf=/usr/games/stockfish
nps() { awk '/Nodes\/second/ {print $3}'; }
hand=(); withnet=(); stock=()
for _ in $(seq "$runs"); do
  hand+=("$($tengen --eval-file "<empty>" bench --game chess 2>/dev/null | nps)")
  withnet+=("$($tengen --eval-file "$net" bench --game chess 2>/dev/null | nps)")
  stock+=("$($sf bench 2>&1 | nps)")
done
top() { printf '%s\n' "$@" | sort -n | tail -1; }
h=$(top "${hand[@]}"); n=$(top "${withnet[@]}"); s=$(top "${stock[@]}")
echo "bench nps (best of $runs): hand-made $h, network $n ($net), stockfish $s"
echo "ratios: network/hand $(echo "scale=2; $n / $h" | bc), hand/stockfish $(echo "scale=2; $h / $s" | bc), network/stockfish $(echo "scale=2; $n / $s" | bc)"
