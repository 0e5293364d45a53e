#!/bin/bash
# gomoku variants vs Rapfi-3000, 200 screen openings x 2 colours
cd /work/main
for t in "$@"; do
  n=$(echo $t | tr , _)
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/g-tune.sh arg=$t name=t-$n option.max_node=30000 \
    -engine cmd=tools/gomoku-opponents/bin/pbrain-rapfi name=rapfi-3000 option.max_node=3000 \
    -each proto=gomocup st=120 -games 2 -rounds 200 -concurrency 1 \
    -openings file=tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt format=moves order=sequential \
    -pgnout matches/gS-$n.sgf -jsonout matches/gS-$n.json > matches/gS-$n.log 2>&1
done
