#!/usr/bin/env bash
# CPU cost of a Go playout setting: 40 `genmove`s (20 a side) of 5,000
# playouts each from the empty 9x9 board, one thread, and the user CPU
# seconds they took. Each extra argument is one GTP line sent first,
# e.g. the playout switches of docs/go.md:
#
#   bash scripts/go_playout_cost.sh                                  # defaults
#   bash scripts/go_playout_cost.sh "tengen-playout_twolibs on"
#
# The two settings play different games, so compare several interleaved
# runs, not one.
set -euo pipefail
tengen=${TENGEN:-$(dirname "$0")/../target/release/tengen}
{
  printf 'boardsize 9\nkomi 7\ntengen-threads 1\ntengen-playouts 5000\n'
  for line in "$@"; do printf '%s\n' "$line"; done
  for _ in $(seq 20); do printf 'genmove b\ngenmove w\n'; done
  echo quit
} | { /usr/bin/time -f '%U' "$tengen" --game go >/dev/null; } 2>&1 | tail -1
