#!/bin/bash
# Issue 20's reported chess matches: tengen against Ethereal 12 or
# Stockfish 15.1 (Debian's builds) at 10 s + 0.1 s, one thread each, the
# 200 openings and order of the Fairy-Stockfish matches (`-srand 2027`),
# two games at a time, resumable across sessions and machines.
#
#   bash scripts/chess_ref_match.sh ethereal  >> docs/matches/chess-ethereal12-b0fd2216.log 2>&1
#   bash scripts/chess_ref_match.sh stockfish >> docs/matches/chess-sf15-b0fd2216.log 2>&1
#
# As in scripts/gps_match.sh, the records go straight into docs/matches/
# (a commit keeps the games played so far; the ignored `matches/` is lost
# when a session's machine changes), `-resume` continues the same match
# from the journal, and tengen is built from a pinned commit (the one
# whose built-in network is `b0fd2216`), so every game is played by the
# same program. Run it with nothing else timed on the machine.
set -euo pipefail
commit=8173d546
opponent=${1:?usage: chess_ref_match.sh ethereal|stockfish}
case "$opponent" in
    ethereal) cmd=/usr/games/ethereal-chess; name=ethereal-12; out=docs/matches/chess-ethereal12-b0fd2216 ;;
    stockfish) cmd=/usr/games/stockfish; name=stockfish-15.1; out=docs/matches/chess-sf15-b0fd2216 ;;
    *) echo "unknown opponent $opponent (ethereal or stockfish)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/pinned_build.sh
source scripts/chess_match_args.sh
pinned_build "$commit" ref
chess_match_args 10+0.1 2027 100 "$out"
exec "$arena" \
    -engine cmd="$bin" name=tengen-b0fd \
    -engine cmd="$cmd" name="$name" option.Threads=1 \
    "${match_args[@]}"
