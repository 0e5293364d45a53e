#!/usr/bin/env bash
# Gomoku freestyle 15x15 from the empty board: full time (1 s) always Black,
# a tenth of the time (0.1 s) White; one arena call per game keeps the colours
# (the arena has no option to stop swapping them).
#   docs/matches/gomoku-selfplay.sh [LAST [FIRST]]   (games FIRST..LAST, default 1..40)
# ARENA and TENGEN name the binaries (the 2026-11-23 run used copies of
# build 090e72b in matches/); records go to matches/selfplay/.
set -euo pipefail
cd "$(dirname "$0")/../.."
arena=${ARENA:-target/release/tengen-arena}
tengen=${TENGEN:-target/release/tengen}
mkdir -p matches/selfplay
for i in $(seq "${2:-1}" "${1:-40}"); do
  "$arena" -variant gomoku -rule freestyle \
    -engine cmd="$tengen" name=full st=1 \
    -engine cmd="$tengen" name=tenth st=0.1 \
    -each proto=gomocup timemargin=100 -games 1 -rounds 1 \
    -pgnout "matches/selfplay/g$i.sgf" -jsonout "matches/selfplay/g$i.json" > "matches/selfplay/g$i.log" 2>&1
  grep Finished "matches/selfplay/g$i.log" || echo "game $i: no result (see matches/selfplay/g$i.log)"
done
