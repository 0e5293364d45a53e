#!/bin/bash
# Issue 21's 100 games against GPSShogi (Debian `gpsshogi`, `gpsusi`) at
# byo-yomi 1 s, one game at a time, resumable across sessions and machines.
#
# The records are written straight into docs/matches/, so that committing
# them keeps the games already played; a later session runs this script
# again and `-resume` continues the same match (same openings, same
# pairing) from the journal. The tengen binary is built from a pinned
# commit, so every game of the match is played by the same program.
#
#   bash scripts/gps_match.sh >> docs/matches/shogi-gps-b1.log 2>&1
#
# Why these settings (docs/strength.md, "GPSShogi"): gpsusi keeps two
# threads busy even with Thread=1, so the games run one at a time with
# nothing else on the machine; it thinks up to the byo-yomi period with
# no margin option, so it gets 500 ms of margin (tengen 200 ms); its first
# start from a cold page cache takes about 10 s.
set -euo pipefail
commit=c2582db5
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/pinned_build.sh
pinned_build "$commit" gps
out=docs/matches/shogi-gps-b1
exec "$arena" -variant shogi \
    -engine cmd="$bin" name=tengen-$commit option.USI_Hash=64 option.MoveOverhead=50 timemargin=200 \
    -engine cmd=/usr/games/gpsusi name=gpsshogi option.Thread=1 timemargin=500 handshake=30000 \
    -each proto=usi tc=0+b1 -games 2 -rounds 50 -repeat -openings plies=2 -srand 5 \
    -concurrency 1 -maxmoves 400 -recover -resume -pgnout "$out.csa" -jsonout "$out.json"
