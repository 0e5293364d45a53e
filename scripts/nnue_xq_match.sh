#!/usr/bin/env bash
# Two xiangqi evaluations against each other, UCCI, one game at a time,
# openings of 4 random plies; PGN to nnue-data/matches/. VARIANT=chess
# plays chess instead (UCI, openings of 6 random plies, Hash 16), and
# CONCURRENCY=N plays N games at once (fixed-node screens only).
#   bash scripts/nnue_xq_match.sh NET_A NAME_A NET_B|hand NAME_B ROUNDS LIMIT SRAND [ARENA ARGS…]
# LIMIT is an arena limit such as nodes=5000 or tc=10+0.1 (a time control
# adds timemargin=100 and -recover). NET_A or NET_B `hand` plays the
# hand-made evaluation (`<empty>`). Uses the engine copy
# nnue-data/tengen-match (ENGINE=PATH for another), as scripts/nnue_match.sh.
set -u
cd "$(dirname "$0")/.."
a=$1 an=$2 b=$3 bn=$4 rounds=$5 limit=$6 srand=$7
mkdir -p nnue-data/matches
[ "$a" = hand ] && a='<empty>'
[ "$b" = hand ] && b='<empty>'
extra=()
case $limit in tc=*) extra=(timemargin=100) ;; esac
recover=()
case $limit in tc=*) recover=(-recover) ;; esac
nice=10
case $limit in tc=*) nice=0 ;; esac
tag=${limit/=/}
engine=${ENGINE:-nnue-data/tengen-match}
variant=${VARIANT:-xiangqi}
proto=ucci plies=4 prefix=xq
if [ "$variant" = chess ]; then
  proto=uci plies=6 prefix=chess
  extra+=(option.Hash=16)
fi
nice -n $nice ./target/release/tengen-arena -variant "$variant" \
  -engine cmd="$engine" name="$an" arg=--eval-file arg="$a" \
  -engine cmd="$engine" name="$bn" arg=--eval-file arg="$b" \
  -each proto=$proto "$limit" "${extra[@]}" -games 2 -rounds "$rounds" -concurrency "${CONCURRENCY:-1}" "${recover[@]}" \
  -openings plies=$plies -srand "$srand" -resign movecount=3 score=600 \
  -draw movenumber=60 movecount=8 score=10 \
  -pgnout "nnue-data/matches/$prefix-$an-$bn-$tag-s$srand.pgn" "${@:8}" 2>&1 | tail -5
