#!/bin/bash
# Two tengen builds against each other at fixed nodes in chess (for search
# changes: at fixed nodes the machine's load does not matter, so it may
# run beside other work): random 6-ply openings with colours swapped, two
# games at a time, the adjudication of scripts/nnue_xq_match.sh, each
# build with its built-in network; PGN to nnue-data/matches/.
#
#   bash scripts/chess_node_screen.sh NEW_BIN NEW_NAME OLD_BIN OLD_NAME ROUNDS NODES SRAND
#
# Session 34's ProbCut screen:
#   bash scripts/chess_node_screen.sh /tmp/tengen-pc170 pc170 /tmp/tengen-base base 1000 10000 343
set -euo pipefail
cd "$(dirname "$0")/.."
a=$1 an=$2 b=$3 bn=$4 rounds=$5 nodes=$6 srand=$7
mkdir -p nnue-data/matches
./target/release/tengen-arena -variant chess \
  -engine cmd="$a" name="$an" -engine cmd="$b" name="$bn" \
  -each proto=uci nodes="$nodes" option.Hash=16 -games 2 -rounds "$rounds" -concurrency 2 \
  -openings plies=6 -srand "$srand" -resign movecount=3 score=600 \
  -draw movenumber=60 movecount=8 score=10 \
  -pgnout "nnue-data/matches/chess-$an-$bn-n$nodes-s$srand.pgn" 2>&1 | tail -5
