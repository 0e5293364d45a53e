#!/bin/bash
cd /work/main
for rn in 3000 10000; do
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/tengen-g-base name=base option.max_node=30000 \
    -engine cmd=tools/gomoku-opponents/bin/pbrain-rapfi name=rapfi-$rn option.max_node=$rn \
    -each proto=gomocup st=120 -games 2 -rounds 20 -concurrency 1 \
    -openings file=tools/gomoku-opponents/openings/freestyle15-4ply.txt format=moves order=sequential \
    -pgnout matches/gr-$rn.sgf -jsonout matches/gr-$rn.json > matches/gr-$rn.log 2>&1
done
