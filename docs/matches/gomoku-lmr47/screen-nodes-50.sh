#!/bin/bash
# screen gomoku search variants against Rapfi (classical) at 3,000 nodes; tengen at 30,000
cd /work/main
for t in "$@"; do
  n=$(echo $t | tr , _)
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/g-tune.sh arg=$t name=t-$n option.max_node=30000 \
    -engine cmd=tools/gomoku-opponents/bin/pbrain-rapfi name=rapfi-3000 option.max_node=3000 \
    -each proto=gomocup st=120 -games 2 -rounds 50 -concurrency 1 \
    -openings file=tools/gomoku-opponents/openings/freestyle15-4ply.txt format=moves order=sequential \
    -pgnout matches/gs-$n.sgf -jsonout matches/gs-$n.json > matches/gs-$n.log 2>&1
done
