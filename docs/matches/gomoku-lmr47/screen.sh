#!/bin/bash
# Session 47's gomoku screens: tengen variants (g-tune.sh TUNE, a build of
# c8becdc36 with tune.patch) against Rapfi 0.43 (classical) held to a node
# count, freestyle 15x15, each opening with both colours, one game at a time.
#   screen.sh PREFIX OPENINGS START ROUNDS RAPFI_NODES 'TENGEN_LIMIT' TUNE...
# TENGEN_LIMIT is 'option.max_node=30000 st=120' (fixed nodes) or
# 'st=0.25 timemargin=50' (timed). The runs of the session:
#   gs: screen.sh gs tools/gomoku-opponents/openings/freestyle15-4ply.txt 1 50 3000 'option.max_node=30000 st=120' TUNE...
#   gS: screen.sh gS tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt 1 200 3000 'option.max_node=30000 st=120' TUNE...
#   gT: screen.sh gT tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt 1 200 5000 'st=0.25 timemargin=50' TUNE...
#   gU: screen.sh gU tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt 201 300 5000 'st=0.25 timemargin=50' TUNE...
set -u
prefix=$1 openings=$2 start=$3 rounds=$4 rnodes=$5 limit=$6
shift 6
for t in "$@"; do
  n=$(echo "$t" | tr , _)
  # shellcheck disable=SC2086 # the limit is several arena words
  matches/arena -variant gomoku -rule freestyle \
    -engine cmd=matches/g-tune.sh arg="$t" name="t-$n" $limit \
    -engine cmd=tools/gomoku-opponents/bin/pbrain-rapfi name="rapfi-$rnodes" option.max_node="$rnodes" st=1 \
    -each proto=gomocup -games 2 -rounds "$rounds" -concurrency 1 \
    -openings file="$openings" format=moves order=sequential start="$start" \
    -pgnout "matches/$prefix-$n.sgf" -jsonout "matches/$prefix-$n.json" > "matches/$prefix-$n.log" 2>&1
done
