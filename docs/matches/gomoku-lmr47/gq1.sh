#!/bin/bash
cd /work/main
for t in 1,3,14,10,8 2,3,20,14,10; do
  n=$(echo $t | tr , _)
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/g-tune.sh arg=$t name=tune-$n \
    -engine cmd=matches/tengen-g-base name=base \
    -each proto=gomocup st=120 option.max_node=30000 -games 2 -rounds 100 -concurrency 1 \
    -openings file=tools/gomoku-opponents/openings/freestyle15-4ply.txt format=moves order=sequential \
    -pgnout matches/g-$n.sgf -jsonout matches/g-$n.json > matches/g-$n.log 2>&1
done
