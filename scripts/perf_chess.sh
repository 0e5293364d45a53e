#!/usr/bin/env bash
# Speed figures for docs/performance.md: tengen beside Stockfish in the same
# run, interleaved, single-threaded; the best of N runs of each.
#   bash scripts/perf_chess.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
tengen=./target/release/tengen
sf=/usr/games/stockfish
best() { sort -n | head -1; }
t_perft=(); s_perft=(); t_bench=(); s_bench=()
for _ in $(seq "$runs"); do
  s=$(date +%s.%N); n=$($tengen perft --game chess --position startpos --depth 6); e=$(date +%s.%N)
  [ "$n" = 119060324 ] || { echo "tengen perft(6) = $n, expected 119060324"; exit 1; }
  t_perft+=("$(echo "$e - $s" | bc)")
  s=$(date +%s.%N); printf 'position startpos\ngo perft 6\nquit\n' | $sf | grep -q 'Nodes searched: 119060324'; e=$(date +%s.%N)
  s_perft+=("$(echo "$e - $s" | bc)")
  t_bench+=("$($tengen bench | awk '/Nodes\/second/ {print $3}')")
  s_bench+=("$($sf bench 2>&1 | awk '/Nodes\/second/ {print $3}')")
done
tp=$(printf '%s\n' "${t_perft[@]}" | best); sp=$(printf '%s\n' "${s_perft[@]}" | best)
tb=$(printf '%s\n' "${t_bench[@]}" | sort -n | tail -1); sb=$(printf '%s\n' "${s_bench[@]}" | sort -n | tail -1)
echo "perft(6) startpos: tengen ${tp}s, stockfish ${sp}s, speed ratio tengen/stockfish $(echo "scale=2; $sp / $tp" | bc)"
echo "bench nps: tengen $tb, stockfish $sb, ratio $(echo "scale=2; $tb / $sb" | bc)"
