#!/usr/bin/env bash
# Runs many cargo-fuzz targets at once, one process per target, on a
# machine that has the cores but no Rust toolchain (session 40 ran it on
# the lent device machine: `bash .fz/run.sh 470`, then 290). Everything it
# needs travels in an ignored `.fz/` folder of the checkout:
#   .fz/asan.txz, .fz/none.txz  the targets built by `cargo +nightly fuzz
#                               build` (ASan) and `... -s none`, stripped,
#                               each set as a tar.xz with its folder name
#   .fz/corpus.tgz              fuzz/corpus/TARGET for each target
#                               (`tar czf .fz/corpus.tgz -C fuzz corpus/T ...`)
#   .fz/targets                 the target names, on one line
#   .fz/run.sh                  this script
# It falls back to the uninstrumented builds when an ASan binary does not
# start. Out, in $OUT: new.tgz (the corpus files and crash artifacts the
# runs wrote) and dlogs.tgz (each fuzzer's log and a `.rc` file with its
# exit code, wall seconds and the shell's `times`: children's user and
# system CPU on the second line). Back here, each target's finds are
# merged into a minimised corpus with the same binary's `-merge=1` and a
# line per run is appended to fuzz/runs.log (docs/reliability.md,
# "Session 40").
#
#   bash .fz/run.sh SECONDS
set -u
secs=${1:-480}
nproc; grep -m1 'model name' /proc/cpuinfo; date -u +%FT%TZ
mkdir -p /tmp/fz && python3 -c "import tarfile; [tarfile.open('.fz/'+k+'.txz').extractall('/tmp/fz') for k in ('asan','none')]" || exit 1
mkdir -p fuzz && tar xzf .fz/corpus.tgz -C fuzz || exit 1
cd fuzz
kind=asan
if ! /tmp/fz/asan/gtp_response -runs=2 corpus/gtp_response >/tmp/probe.log 2>&1; then
  tail -5 /tmp/probe.log; kind=none
fi
echo "binaries: $kind"
mkdir -p dlogs art
touch /tmp/stamp; sleep 1
for t in $(cat ../.fz/targets); do
  (
    s=$(date +%s)
    /tmp/fz/$kind/$t -artifact_prefix=art/$t- -max_total_time=$secs -print_final_stats=1 corpus/$t >dlogs/$t.log 2>&1
    rc=$?
    e=$(date +%s)
    echo "rc=$rc wall=$((e - s))" >dlogs/$t.rc
    times >>dlogs/$t.rc
  ) &
done
wait
date -u +%FT%TZ
find corpus art -newer /tmp/stamp -type f > /tmp/new.list
wc -l < /tmp/new.list
tar czf $OUT/new.tgz -T /tmp/new.list
tar czf $OUT/dlogs.tgz dlogs
for f in dlogs/*.rc; do echo "$f $(tr '\n' ' ' < $f)"; done
echo kind=$kind
