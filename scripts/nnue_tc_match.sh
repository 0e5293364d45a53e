#!/usr/bin/env bash
# A network against the hand-made evaluation (`<empty>`) at a time control, one game
# at a time, openings of 8 random plies; PGN and JSON to nnue-data/matches/.
#   bash scripts/nnue_tc_match.sh NET.nnue NAME ROUNDS TC SRAND
# Uses the engine copy nnue-data/tengen-match (ENGINE=PATH for another), as
# scripts/nnue_match.sh.
set -u
cd "$(dirname "$0")/.."
net=$1 name=$2 rounds=$3 tc=$4 srand=$5
mkdir -p nnue-data/matches
engine=${ENGINE:-nnue-data/tengen-match}
./target/release/tengen-arena \
  -engine cmd="$engine" name="$name" arg=--eval-file arg="$net" \
  -engine cmd="$engine" name=hand arg=--eval-file arg="<empty>" \
  -each proto=uci tc="$tc" option.Hash=16 timemargin=100 -games 2 -rounds "$rounds" -concurrency 1 \
  -openings plies=8 -srand "$srand" \
  -resign movecount=3 score=600 -draw movenumber=40 movecount=8 score=10 -recover \
  -pgnout "nnue-data/matches/$name-tc$tc-s$srand.pgn" -jsonout "nnue-data/matches/$name-tc$tc-s$srand.json" "${@:6}" 2>&1 | tail -6
