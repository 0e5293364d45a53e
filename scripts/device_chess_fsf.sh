#!/bin/bash
# Issue 20's chess match against Fairy-Stockfish 11.1 on a many-core
# machine (the device machine, 16 cores): the match of
# scripts/chess_fsf_match.sh (10 s + 0.1 s, one thread and 16 MiB of hash
# each, data/openings/chess-8ply.epd in the order of -srand 2027, each
# opening with both colours) with one game per core instead of two at a
# time. The binaries travel in DIR: tengen, tengen-arena and a copy of
# Debian's /usr/games/fairy-stockfish (it needs only libstdc++).
#
#   bash scripts/device_chess_fsf.sh DIR NAME CONCURRENCY ROUNDS OUT [NET]
#
# Writes OUT/machine.txt (cores, processor), OUT/bench.txt (each engine's
# own bench on that machine, one at a time, before the match: the speed
# ratio to compare with this machine's), OUT/load.txt (load average every
# 20 s) and the match's records OUT/chess-fsf-NAME.{log,pgn,json}.
# TC (default 10+0.1), SRAND (the openings order, default 2027) and LIMIT (seconds the match may run, default 540)
# come from the environment; a match cut off by LIMIT keeps every
# finished game (the arena writes each at once).
#
# Getting there (session 35): the device tool sends the checkout, at most
# 64 MiB counted on disk, and fuzz/corpus's 40,000 small files alone are
# over it. For the call, take the corpus out of the index and ignore it
# (`git rm -r -q --cached fuzz/corpus; echo /fuzz/corpus/ >>
# .git/info/exclude`), and put both back right after (`git reset -q HEAD
# -- fuzz/corpus`, delete the exclude line); carry the binaries stripped
# and packed (`tar cf - … | xz > .devpack/dv.tar.xz`, about 5 MB with a
# network) and unpack them there with Python's tarfile into DIR.
set -uo pipefail
dir=${1:?usage: device_chess_fsf.sh DIR NAME CONCURRENCY ROUNDS OUT [NET]}
name=${2:?} conc=${3:?} rounds=${4:?} out=${5:?} net=${6:-}
tc=${TC:-10+0.1}
srand=${SRAND:-2027}
limit=${LIMIT:-540}
cd "$(dirname "$0")/.."
mkdir -p "$out"
{
    echo "cores: $(nproc)"
    grep -m1 "model name" /proc/cpuinfo
    uname -r
    date -u
} >"$out/machine.txt"
eval_args=()
[ -n "$net" ] && eval_args=(arg=--eval-file "arg=$net")
bench_args=()
[ -n "$net" ] && bench_args=(--eval-file "$net")
"$dir/tengen" bench --game chess "${bench_args[@]}" >"$out/bench.txt" 2>&1
"$dir/fairy-stockfish" bench >>"$out/bench.txt" 2>&1
(while sleep 20; do cat /proc/loadavg; done) >"$out/load.txt" &
sampler=$!
timeout "$limit" "$dir/tengen-arena" \
    -engine cmd="$dir/tengen" name="tengen-$name" "${eval_args[@]}" \
    -engine cmd="$dir/fairy-stockfish" name=fsf-11.1 \
    -each proto=uci tc="$tc" timemargin=100 option.Hash=16 -games 2 -rounds "$rounds" -repeat \
    -openings file=data/openings/chess-8ply.epd format=epd order=random -srand "$srand" \
    -concurrency "$conc" -recover -resume -pgnout "$out/chess-fsf-$name.pgn" \
    -jsonout "$out/chess-fsf-$name.json" >"$out/chess-fsf-$name.log" 2>&1
echo "arena exit $?" >>"$out/chess-fsf-$name.log"
kill "$sampler"
tail -n 30 "$out/chess-fsf-$name.log"
