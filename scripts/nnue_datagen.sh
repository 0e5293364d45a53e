#!/usr/bin/env bash
# Starts (or resumes) the chess self-play data run of docs/nnue.md in the
# background: one thread, nice 10, output in nnue-data/chess-n5000-s1
# (ignored by git), progress in nnue-data/chess-n5000-s1.out. A run that
# was killed resumes where its logs say, without repeating a game.
# Runs a copy of the engine (nnue-data/tengen-datagen) so rebuilding the
# tree does not replace the binary under it; the copy is refreshed only
# when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p nnue-data
if pgrep -f "tengen-datagen datagen --game chess" >/dev/null; then
  echo "already running: $(pgrep -af 'tengen-datagen datagen --game chess')"
  exit 0
fi
[ -x nnue-data/tengen-datagen ] || cp target/release/tengen nnue-data/tengen-datagen
cd nnue-data
nohup nice -n 10 ./tengen-datagen datagen --game chess --threads 1 --nodes 5000 \
  --games 1000000 --seed 1 --out chess-n5000-s1 >> chess-n5000-s1.out 2>&1 &
echo "started pid $!"
