#!/usr/bin/env bash
# Builds pbrain-gabor: the gomoku AI of KDE's Bovo (Pelladi Gabor's
# alpha-beta, GPL-2.0-or-later) behind a Gomocup front-end written for
# tengen (pbrain_gabor.cpp). Nothing of Bovo is kept in this repository:
# the sources come from BOVO_SRC (a Bovo checkout or unpacked tarball) or
# are cloned from KDE's git at a fixed tag.
#
#   tools/gomoku-opponents/gabor/build.sh [OUTDIR]   (default: tools/gomoku-opponents/bin)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../bin}
tag=${BOVO_TAG:-v22.12.3}
mkdir -p "$out"
src=${BOVO_SRC:-}
if [ -z "$src" ]; then
    src=$(mktemp -d)/bovo
    git clone --quiet --depth 1 --branch "$tag" https://invent.kde.org/games/bovo.git "$src" ||
        git clone --quiet --depth 1 --branch "$tag" https://github.com/KDE/bovo.git "$src"
fi
ai=$src/ai/gabor
for f in ai_interface.cpp ai_impl.cpp node.cpp standing.cpp; do
    [ -f "$ai/$f" ] || { echo "build.sh: $ai/$f missing (is BOVO_SRC a Bovo checkout?)" >&2; exit 1; }
done
# -DNDEBUG: the AI's asserts are debugging aids (one has a side effect
# only meant for debug builds). The Qt containers it uses come from the
# small stand-ins in qtshim/, so Qt is not needed.
${CXX:-g++} -std=c++17 -O2 -DNDEBUG -w -I"$here/qtshim" -I"$ai" \
    "$here/pbrain_gabor.cpp" "$ai/ai_interface.cpp" "$ai/ai_impl.cpp" "$ai/node.cpp" "$ai/standing.cpp" \
    -o "$out/pbrain-gabor"
echo "built $out/pbrain-gabor"
