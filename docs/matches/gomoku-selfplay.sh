#!/usr/bin/env bash
# Gomoku freestyle 15x15 from the empty board: full time (1 s) always Black,
# a tenth of the time (0.1 s) White; one arena call per game keeps the colours.
cd "$(dirname "$0")/.."
for i in $(seq ${2:-1} ${1:-40}); do
  ./matches/arena-090e72b -variant gomoku -rule freestyle \
    -engine cmd=./matches/tengen-090e72b name=full st=1 \
    -engine cmd=./matches/tengen-090e72b name=tenth st=0.1 \
    -each proto=gomocup timemargin=100 -games 1 -rounds 1 \
    -pgnout matches/selfplay/g$i.sgf -jsonout matches/selfplay/g$i.json > matches/selfplay/g$i.log 2>&1
  tail -1 matches/selfplay/g$i.log
done
