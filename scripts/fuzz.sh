#!/usr/bin/env bash
# Runs cargo-fuzz targets one after another, each for SECONDS, keeping the
# corpus in fuzz/corpus/<target> so that later runs start where earlier
# ones stopped, minimises it after a clean run (`cargo fuzz cmin`: the
# smallest set of inputs with the same coverage, which is what the
# repository keeps and `cargo test -p tengen-fuzzing` replays), and
# appends one summary line per run to fuzz/runs.log:
#   date commit target seconds runs corpus-size cpu result
# (seconds: how long the fuzzer ran, which is less than SECONDS when it
# found a crash; corpus-size: files after the minimisation; cpu: the CPU
# seconds, user and system, the fuzzer used, which is less than its
# seconds when it shared the machine; runs before 2026-11-26 evening did
# not record it).
#
#   bash scripts/fuzz.sh 600                  # every target, 10 minutes each
#   bash scripts/fuzz.sh 600 uci_command ...  # only these
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -uo pipefail
cd "$(dirname "$0")/../fuzz"

secs=${1:-600}
shift || true
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

mkdir -p corpus logs

for t in "${targets[@]}"; do
  cargo +nightly fuzz build "$t" >/dev/null 2>&1 || { echo "$t: build failed" >&2; exit 1; }
  commit=$(git rev-parse --short HEAD)
  mkdir -p "corpus/$t"
  log="logs/$t.log"
  start=$(date +%s)
  /usr/bin/time -f '%U %S' -o "$log.time" \
    cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  cpu=$(awk 'END { printf "%d", $1 + $2 }' "$log.time")
  ran=$(($(date +%s) - start))
  runs=$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [ $rc -eq 0 ]; then
    result=ok
    cargo +nightly fuzz cmin "$t" "corpus/$t" >"logs/$t.cmin.log" 2>&1 || echo "$t: cmin failed" >&2
  else
    result="crash(rc=$rc)"
  fi
  size=$(find "corpus/$t" -type f | wc -l)
  line="$(date -u +%FT%TZ) $commit $t ${ran}s runs=${runs:-?} corpus=$size cpu=${cpu}s $result"
  echo "$line" | tee -a runs.log
done
