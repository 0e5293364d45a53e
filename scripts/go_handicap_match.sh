#!/usr/bin/env bash
# Handicap games through the arena's -handicap: tengen against GNU Go 3.8
# (level 10) or Pachi 12.90 without networks (8,000 playouts a move, built
# by tools/go-opponents/pachi/build.sh), one side keeping Black, the
# handicap side, in every game (-noswap), one game at a time (run two of
# these side by side, one per core, on an otherwise idle machine: the
# clock counts). Random opening plies after the stones make the games
# differ, and the same SRAND gives two runs the same openings (paired
# comparison). Resumable: the same command continues a stopped run.
# Records: docs/matches/NAME.{sgf,json}.
#
#   bash scripts/go_handicap_match.sh BIN NAME GAMES SRAND 'tengen GTP lines|...'
#
# OPP (gnugo or pachi), TENGEN (white: tengen gives the stones; black:
# tengen takes them), SIZE (9), HANDICAP (2), KOMI (0.5), ST (seconds a
# move, 1) and PLIES (random opening plies, 2) in the environment change
# the setting. Session 43's dynamic komi screens (9x9, two stones):
#   bash scripts/go_handicap_match.sh matches/tengen-dk go9-h2-dk-on 40 431 'tengen-dynamic_komi on'
#   bash scripts/go_handicap_match.sh matches/tengen-dk go9-h2-dk-off 40 431 'tengen-dynamic_komi off'
#   OPP=pachi TENGEN=black bash scripts/go_handicap_match.sh matches/tengen-dk go9-h2b-pachi-dk-on 40 432 'tengen-dynamic_komi on'
#   OPP=pachi TENGEN=black bash scripts/go_handicap_match.sh matches/tengen-dk go9-h2b-pachi-dk-off 40 432 'tengen-dynamic_komi off'
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 name=$2 games=$3 srand=$4 lines=${5:-}
me=(-engine "cmd=$bin" "name=tengen" "initstr=tengen-threads 1")
IFS='|' read -ra parts <<<"$lines"
for line in "${parts[@]}"; do
  line=$(echo "$line" | sed 's/^ *//; s/ *$//')
  [ -n "$line" ] && me+=("initstr=$line")
done
case "${OPP:-gnugo}" in
  gnugo) opp=(-engine cmd=/usr/games/gnugo arg=--mode arg=gtp arg=--level arg=10 arg=--chinese-rules
               arg=--capture-all-dead arg=--positional-superko name=gnugo-3.8-l10) ;;
  pachi) opp=(-engine cmd=tools/go-opponents/bin/pachi arg=-D arg=-t arg==8000 arg=threads=1
               name=pachi-12.90-8k) ;;
  *) echo "OPP: gnugo or pachi" >&2; exit 2 ;;
esac
# -noswap: the first engine keeps Black.
case "${TENGEN:-white}" in
  white) engines=("${opp[@]}" "${me[@]}") ;;
  black) engines=("${me[@]}" "${opp[@]}") ;;
  *) echo "TENGEN: white or black" >&2; exit 2 ;;
esac
exec ./target/release/tengen-arena -variant go -boardsize "${SIZE:-9}" -komi "${KOMI:-0.5}" \
  -handicap "${HANDICAP:-2}" -noswap "${engines[@]}" \
  -each proto=gtp st="${ST:-1}" timemargin=500 -games "$games" -openings plies="${PLIES:-2}" \
  -srand "$srand" -concurrency 1 -recover -resume \
  -pgnout "docs/matches/$name.sgf" -jsonout "docs/matches/$name.json"
