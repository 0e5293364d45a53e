#!/bin/bash
# timed screen: tengen variants at 0.1 s a move vs Rapfi (classical) at 3,000 nodes, 200 screen openings x 2
cd /work/main
for t in "$@"; do
  n=$(echo $t | tr , _)
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/g-tune.sh arg=$t name=t-$n st=0.25 timemargin=50 \
    -engine cmd=tools/gomoku-opponents/bin/pbrain-rapfi name=rapfi-5000 option.max_node=5000 st=1 \
    -each proto=gomocup -games 2 -rounds 300 -concurrency 1 \
    -openings file=tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt format=moves order=sequential start=201 \
    -pgnout matches/gU-$n.sgf -jsonout matches/gU-$n.json > matches/gU-$n.log 2>&1
done
