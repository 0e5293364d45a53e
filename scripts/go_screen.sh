#!/usr/bin/env bash
# A Go setting against the same build without it, at fixed playouts (no
# clock, so the machine's load does not change the result and the screen
# may run beside niced work): 9x9, komi 7, 2 random opening plies each
# played twice with colours swapped, two games at a time, resumable (the
# same command continues a stopped run). Each side's GTP lines are
# separated by '|'; records go to nnue-data/matches/go-NAME.{sgf,json}.
#
#   bash scripts/go_screen.sh BIN NAME ROUNDS PLAYOUTS SRAND 'A lines' 'B lines'
#
# SIZE and KOMI in the environment change the board (default 9, komi 7),
# e.g. SIZE=19 KOMI=7.5 for a 19x19 screen.
#
# Session 38's learned-priors screen:
#   bash scripts/go_screen.sh matches/tengen-s38 priors 250 3000 381 \
#     'tengen-priors learned' 'tengen-priors hand'
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 name=$2 rounds=$3 playouts=$4 srand=$5
side() {
  local who=$1 lines=$2 line
  local args=(-engine "cmd=$bin" "name=$who" "initstr=tengen-threads 1" "initstr=tengen-playouts $playouts")
  IFS='|' read -ra parts <<<"$lines"
  for line in "${parts[@]}"; do
    line=$(echo "$line" | sed 's/^ *//; s/ *$//')
    [ -n "$line" ] && args+=("initstr=$line")
  done
  printf '%s\0' "${args[@]}"
}
mapfile -d '' a < <(side "$name" "$6")
mapfile -d '' b < <(side base "$7")
mkdir -p nnue-data/matches
./target/release/tengen-arena -variant go -boardsize "${SIZE:-9}" -komi "${KOMI:-7}" "${a[@]}" "${b[@]}" \
  -each proto=gtp nodes=1 -games 2 -rounds "$rounds" -openings plies=2 -srand "$srand" -repeat \
  -concurrency 2 -recover -resume \
  -pgnout "nnue-data/matches/go-$name.sgf" -jsonout "nnue-data/matches/go-$name.json"
