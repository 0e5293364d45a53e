#!/usr/bin/env bash
# Builds pbrain-pela: the brain that ships with Petr Lastovicka's Piskvork
# gomoku manager (version 7.9; VCF "try4" search plus a threat alpha-beta;
# freestyle, exact five, renju and caro), behind a Linux Gomocup front-end
# written for tengen (pbrain_pela_unix.cpp, compat/). Nothing of Piskvork is
# kept in this repository: its sources come from PISKVORK_SRC (a checkout)
# or are cloned from the author's public repository.
#
#   tools/gomoku-opponents/pela/build.sh [OUTDIR]   (default: tools/gomoku-opponents/bin)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../bin}
mkdir -p "$out"
src=${PISKVORK_SRC:-}
if [ -z "$src" ]; then
    src=$(mktemp -d)/Piskvork
    git clone --quiet --depth 1 https://github.com/plastovicka/Piskvork.git "$src"
fi
brain=$src/source/pbrain
for f in board.h piskcomp.cpp alfabeta.cpp pisktur.cpp; do
    [ -f "$brain/$f" ] || { echo "build.sh: $brain/$f missing (is PISKVORK_SRC a Piskvork checkout?)" >&2; exit 1; }
done
work=$(mktemp -d)
cp "$brain"/board.h "$brain"/piskcomp.cpp "$brain"/alfabeta.cpp "$brain"/pisktur.cpp "$work"/
# board.h names its header with a Windows path; ours is in compat/.
sed -i 's#^\#include ".*pisqpipe\.h"#\#include "pisqpipe.h"#' "$work/board.h"
# -DNDEBUG: the brain's asserts are debugging aids. -fpermissive: it
# passes string literals to char* parameters (print helpers it never calls here).
${CXX:-g++} -std=c++14 -O2 -DNDEBUG -fpermissive -w -I"$here/compat" -I"$work" \
    "$here/pbrain_pela_unix.cpp" "$work/piskcomp.cpp" "$work/alfabeta.cpp" "$work/pisktur.cpp" \
    -o "$out/pbrain-pela"
rm -rf "$work"
echo "built $out/pbrain-pela"
