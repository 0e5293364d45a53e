#!/bin/bash
# Two pinned builds of tengen against each other at a time control: for
# search and time-management changes, whose worth fixed-node screens
# cannot show. The openings of the Fairy-Stockfish matches
# (data/openings/chess-8ply.epd) in a different order, colours swapped,
# two games at a time (run it with nothing else timed on the machine),
# resumable with the same command.
#
#   bash scripts/chess_tc_screen.sh NEW_COMMIT OLD_COMMIT OUT [TC] [ROUNDS]
#
# Session 31's screen of the node-share time scaling:
#   bash scripts/chess_tc_screen.sh e21994ef 6edf5ee3 docs/matches/chess-tm-effort-e21994ef 5+0.05 100
# (that run was started by hand with the same arena arguments and the
# two builds copied beside each other; OUT.{pgn,json} are its records).
set -euo pipefail
new=${1:?usage: chess_tc_screen.sh NEW_COMMIT OLD_COMMIT OUT [TC] [ROUNDS]}
old=${2:?usage: chess_tc_screen.sh NEW_COMMIT OLD_COMMIT OUT [TC] [ROUNDS]}
out=${3:?usage: chess_tc_screen.sh NEW_COMMIT OLD_COMMIT OUT [TC] [ROUNDS]}
tc=${4:-5+0.05}
rounds=${5:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/pinned_build.sh
source scripts/chess_match_args.sh
pinned_build "$old" screen
old_bin=$bin
pinned_build "$new" screen
chess_match_args "$tc" 3030 "$rounds" "$out"
exec "$arena" \
    -engine cmd="$bin" name="new-$new" \
    -engine cmd="$old_bin" name="old-$old" \
    "${match_args[@]}"
