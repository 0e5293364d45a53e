#!/bin/sh
# usage: g-tune.sh TUNE [engine args]
t=$1; shift
TENGEN_GOMOKU_TUNE=$t exec matches/tengen-g-tune "$@"
