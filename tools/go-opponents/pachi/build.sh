#!/usr/bin/env bash
# Builds Pachi 12.90 (pasky/pachi) without its neural networks: Monte-Carlo
# tree search with its MM-learned patterns (patterns_mm.*) and its 19x19
# joseki dictionary, the strongest Pachi that needs no Caffe and no KataGo.
# Nothing of Pachi is kept in this repository: the sources come from
# PACHI_SRC (a checkout) or are cloned from the public repository, and are
# built here.
#
#   tools/go-opponents/pachi/build.sh [OUTDIR]   (default: tools/go-opponents/bin)
#
# Leaves OUTDIR/pachi-data/ (the binary and the data files it reads) and
# OUTDIR/pachi, a wrapper that points Pachi at that data (DATA_DIR) and
# passes its arguments on, e.g. for the arena:
#   -engine cmd=tools/go-opponents/bin/pachi arg=threads=1 name=pachi
# Needs make, gcc and g++ (no other libraries with DCNN=0).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../bin}
tag=${PACHI_TAG:-pachi-12.90}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${PACHI_SRC:-}" ]; then
    git clone --quiet "$PACHI_SRC" "$work/pachi"
else
    git clone --quiet https://github.com/pasky/pachi.git "$work/pachi"
fi
git -C "$work/pachi" checkout --quiet "$tag"
# DCNN=0: no Caffe networks; JOSEKIFIX=0 / BUILD_KATAGO=0: no KataGo
# joseki engine (it needs DCNN); GENERIC=1: no -march=native, so the
# binary runs on any x86-64 machine the arena may be copied to.
make -C "$work/pachi" -j"$(nproc)" DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 GENERIC=1 >"$work/make.log" 2>&1 \
    || { tail -30 "$work/make.log" >&2; echo "build.sh: Pachi did not build" >&2; exit 1; }
rm -rf "$out/pachi-data"
mkdir -p "$out/pachi-data"
cp "$work/pachi/pachi" "$work/pachi/patterns_mm.gamma" "$work/pachi/patterns_mm.spat" \
   "$work/pachi/joseki19.gtp" "$out/pachi-data/"
cat >"$out/pachi" <<'WRAP'
#!/bin/sh
# Pachi without networks, reading its patterns and joseki from pachi-data/.
data=$(dirname "$0")/pachi-data
DATA_DIR=$data exec "$data/pachi" "$@"
WRAP
chmod +x "$out/pachi"
echo "built $out/pachi ($("$out/pachi-data/pachi" --version 2>/dev/null | head -1))"
