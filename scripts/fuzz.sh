#!/usr/bin/env bash
# Runs cargo-fuzz targets one after another, each for SECONDS, keeping the
# corpus in fuzz/corpus/<target> so that later runs start where earlier
# ones stopped, minimises it after a clean run (libFuzzer's merge, as `cargo fuzz cmin`: the
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
#   bash scripts/fuzz.sh 600 chess_fen=1800 uci_command  # chess_fen for 1800
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

mkdir -p corpus logs artifacts

# Build every target first and then run the built binaries directly:
# `cargo fuzz run` and `cargo fuzz cmin` rebuild whenever a source file
# changed, and on a machine where others edit the crates a long run spent
# most of an hour rebuilding (2026-11-26). The commit recorded is the one
# the binaries were built from.
# One `cargo fuzz build` for all targets: a build per target recompiled
# the crates again whenever someone had edited one in between (under
# `nice` beside others' work, a quarter of an hour per target).
commit=$(git rev-parse --short HEAD)
cargo +nightly fuzz build >logs/build.log 2>&1 || { tail -20 logs/build.log >&2; echo "build failed" >&2; exit 1; }
bindir=target/$(rustc -vV | sed -n 's/^host: //p')/release

for item in "${targets[@]}"; do
  # TARGET=SECONDS runs that target for its own time (what a target still
  # lacks of its CPU-hour), so one queue per core covers a whole session.
  t=${item%%=*}
  s=$secs
  [[ $item == *=* ]] && s=${item#*=}
  bin=$bindir/$t
  mkdir -p "corpus/$t" "artifacts/$t"
  log="logs/$t.log"
  start=$(date +%s)
  /usr/bin/time -f '%U %S' -o "$log.time" \
    "$bin" -artifact_prefix="artifacts/$t/" -max_total_time="$s" -print_final_stats=1 \
    "corpus/$t" >"$log" 2>&1
  rc=$?
  cpu=$(awk 'END { printf "%d", $1 + $2 }' "$log.time")
  ran=$(($(date +%s) - start))
  runs=$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [ $rc -eq 0 ]; then
    result=ok
    # Minimise: merge the corpus into an empty directory, which keeps the
    # smallest set of inputs with the same coverage (what `cargo fuzz cmin`
    # does, without its rebuild).
    min="target/cmin/$t"
    rm -rf "$min" && mkdir -p "$min"
    if "$bin" -merge=1 "$min" "corpus/$t" >"logs/$t.cmin.log" 2>&1 && [ -n "$(ls -A "$min")" ]; then
      rm -rf "corpus/$t" && mv "$min" "corpus/$t"
    else
      rm -rf "$min"
      echo "$t: cmin failed" >&2
    fi
  else
    result="crash(rc=$rc)"
  fi
  size=$(find "corpus/$t" -type f | wc -l)
  line="$(date -u +%FT%TZ) $commit $t ${ran}s runs=${runs:-?} corpus=$size cpu=${cpu}s $result"
  echo "$line" | tee -a runs.log
done
