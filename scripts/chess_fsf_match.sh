#!/bin/bash
# Issue 20's chess target match: tengen against Fairy-Stockfish 11.1
# (Debian's build, classical evaluation) at 10 s + 0.1 s, one thread and
# 16 MiB of hash each, the 200 openings and order of every earlier run
# (`chess-8ply.epd`, `-srand 2027`, each opening with both colours), two
# games at a time, resumable (the same line again continues the match).
#
#   bash scripts/chess_fsf_match.sh COMMIT NAME [NET] >> docs/matches/chess-fsf-NAME.log 2>&1
#
# tengen is built from the pinned COMMIT (scripts/pinned_build.sh), so a
# rebuild of the checkout changes nothing mid-match; NET, when given, is
# loaded with --eval-file instead of the build's built-in network. The
# records go straight into docs/matches/chess-fsf-NAME.{pgn,json}. Run it
# with nothing else timed on the machine; compare runs game by game with
# scripts/match_compare.py and time use with scripts/pgn_time_use.py.
set -euo pipefail
commit=${1:?usage: chess_fsf_match.sh COMMIT NAME [NET]}
name=${2:?usage: chess_fsf_match.sh COMMIT NAME [NET]}
net=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/pinned_build.sh
source scripts/chess_match_args.sh
pinned_build "$commit" fsf
eval_args=()
[ -n "$net" ] && eval_args=(arg=--eval-file "arg=$net")
chess_match_args 10+0.1 2027 100 "docs/matches/chess-fsf-$name"
exec "$arena" \
    -engine cmd="$bin" name="tengen-$name" "${eval_args[@]}" \
    -engine cmd=/usr/games/fairy-stockfish name=fsf-11.1 \
    "${match_args[@]}"
