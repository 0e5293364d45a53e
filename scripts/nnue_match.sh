#!/usr/bin/env bash
# A network against the hand-made evaluation at fixed nodes, one game at
# a time, openings of 8 random plies; PGN to nnue-data/matches/.
#   bash scripts/nnue_match.sh NET.nnue NAME ROUNDS NODES SRAND
# With PAUSE_PID set, that process (a datagen run) is stopped for the
# match and continued after it, so the machine runs one job at a time.
# Uses a copy of the engine at nnue-data/tengen-match (make it with
# `cp target/release/tengen nnue-data/tengen-match`) so rebuilding the
# tree does not change the binary mid-match.
set -u
cd "$(dirname "$0")/.."
net=$1 name=$2 rounds=$3 nodes=$4 srand=$5
mkdir -p nnue-data/matches
[ -n "${PAUSE_PID:-}" ] && kill -STOP "$PAUSE_PID"
nice -n 10 ./target/release/tengen-arena \
  -engine cmd=nnue-data/tengen-match name="$name" arg=--eval-file arg="$net" \
  -engine cmd=nnue-data/tengen-match name=hand arg=--eval-file arg="<empty>" \
  -each proto=uci nodes="$nodes" option.Hash=16 -games 2 -rounds "$rounds" -concurrency 1 \
  -openings plies=8 -srand "$srand" \
  -resign movecount=3 score=600 -draw movenumber=40 movecount=8 score=10 \
  -pgnout "nnue-data/matches/$name-n$nodes-s$srand.pgn" 2>&1 | tail -5
[ -n "${PAUSE_PID:-}" ] && kill -CONT "$PAUSE_PID"
