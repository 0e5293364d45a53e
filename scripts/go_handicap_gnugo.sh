#!/usr/bin/env bash
# tengen as White giving GNU Go 3.8 (level 10, Black) handicap stones,
# through the arena's -handicap, one game at a time (run two of these
# side by side, one per core, on an otherwise idle machine: the clock
# counts). GNU Go keeps Black in every game (-noswap); random opening
# plies after the stones make the games differ, and the same SRAND gives
# two runs the same openings (paired comparison). Resumable: the same
# command continues a stopped run. Records: docs/matches/NAME.{sgf,json}.
#
#   bash scripts/go_handicap_gnugo.sh BIN NAME GAMES SRAND 'tengen GTP lines|...'
#
# SIZE (9), HANDICAP (2), KOMI (0.5), ST (seconds a move, 1) and PLIES
# (random opening plies, 2) in the environment change the setting.
# Session 43's dynamic komi screen (9x9, two stones):
#   bash scripts/go_handicap_gnugo.sh matches/tengen-dk go9-h2-dk-on 60 431 'tengen-dynamic_komi on'
#   bash scripts/go_handicap_gnugo.sh matches/tengen-dk go9-h2-dk-off 60 431 'tengen-dynamic_komi off'
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 name=$2 games=$3 srand=$4 lines=${5:-}
args=(-engine "cmd=$bin" "name=tengen" "initstr=tengen-threads 1")
IFS='|' read -ra parts <<<"$lines"
for line in "${parts[@]}"; do
  line=$(echo "$line" | sed 's/^ *//; s/ *$//')
  [ -n "$line" ] && args+=("initstr=$line")
done
exec ./target/release/tengen-arena -variant go -boardsize "${SIZE:-9}" -komi "${KOMI:-0.5}" \
  -handicap "${HANDICAP:-2}" -noswap \
  -engine cmd=/usr/games/gnugo arg=--mode arg=gtp arg=--level arg=10 arg=--chinese-rules \
  arg=--capture-all-dead arg=--positional-superko name=gnugo-3.8-l10 \
  "${args[@]}" \
  -each proto=gtp st="${ST:-1}" timemargin=500 -games "$games" -openings plies="${PLIES:-2}" \
  -srand "$srand" -concurrency 1 -recover -resume \
  -pgnout "docs/matches/$name.sgf" -jsonout "docs/matches/$name.json"
