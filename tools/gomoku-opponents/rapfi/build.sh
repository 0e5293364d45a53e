#!/usr/bin/env bash
# Builds pbrain-rapfi (Rapfi, dhbloo/rapfi, GPL-3.0: the Gomocup 2024
# winner) with its *classical* evaluation: pattern-code tables from
# dhbloo/rapfi-networks `classical/`, no neural network. One binary plays
# freestyle, standard (exact five) and renju (Gomocup `INFO rule`); the
# classical model file holds the tables of all three rules.
#
# Nothing of Rapfi is kept in this repository. Sources come from
#   RAPFI_SRC       a checkout (path) or git URL of dhbloo/rapfi
#                   (default https://github.com/dhbloo/rapfi.git)
#   RAPFI_NETWORKS  a checkout (path) or git URL of dhbloo/rapfi-networks
#                   (default https://github.com/dhbloo/rapfi-networks.git)
# A path may be a work tree or a bare git directory (then HEAD is used).
#
#   tools/gomoku-opponents/rapfi/build.sh [OUTDIR]   (default: tools/gomoku-opponents/bin)
#
# Produces OUTDIR/rapfi/pbrain-rapfi, OUTDIR/rapfi/config.toml (written
# here: one thread, Gomocup coordinates, 32 MiB hash, classical model) and
# OUTDIR/rapfi/model220723.bin, plus the launcher OUTDIR/pbrain-rapfi. Rapfi
# reads config.toml from its working directory or, failing that, from the
# directory of argv[0]; the launcher runs it by its full path.
#
# Uses cmake when it is installed, otherwise compiles the engine's core
# sources with g++ directly (serially; JOBS=n to run n compilers at once).
# MODEL=model210901.bin picks the older classical model.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../bin}
mkdir -p "$out/rapfi"
out=$(cd "$out" && pwd)
model=${MODEL:-model220723.bin}
jobs=${JOBS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# materialise SRC (path to a work tree, a bare repo, or a URL) into DEST;
# from a bare repository only the listed PATHS (all when none)
get_tree() {
    local src=$1 dest=$2
    shift 2
    if [ -d "$src" ] && [ -e "$src/.git" ] || [ -d "$src/Rapfi" ] || [ -d "$src/classical" ]; then
        cp -r "$src" "$dest"
    elif [ -d "$src" ] && git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null; then
        mkdir -p "$dest"
        git --git-dir="$src" archive HEAD "$@" | tar -x -C "$dest"
    else
        git clone --quiet --depth 1 "$src" "$dest"
    fi
}
get_tree "${RAPFI_SRC:-https://github.com/dhbloo/rapfi.git}" "$tmp/rapfi"
get_tree "${RAPFI_NETWORKS:-https://github.com/dhbloo/rapfi-networks.git}" "$tmp/networks" classical
src=$tmp/rapfi/Rapfi
[ -f "$src/main.cpp" ] || { echo "build.sh: $src/main.cpp missing (is RAPFI_SRC a rapfi checkout?)" >&2; exit 1; }
[ -f "$tmp/networks/classical/$model" ] || { echo "build.sh: classical/$model missing in RAPFI_NETWORKS" >&2; exit 1; }

if command -v cmake >/dev/null; then
    cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON >/dev/null
    cmake --build "$tmp/build" -j "$jobs" >/dev/null
    cp "$tmp/build/pbrain-rapfi" "$out/rapfi/pbrain-rapfi"
else
    # The core source list of Rapfi/CMakeLists.txt (CORE_SOURCES); the
    # command modules (tuning, self-play, database tools) are left out.
    sources="command/argutils.cpp command/benchmark.cpp command/command.cpp command/gomocup.cpp
        core/compressor.cpp core/hash.cpp core/iohelper.cpp core/utils.cpp core/platform.cpp core/version.cpp
        database/dbclient.cpp database/dbutils.cpp database/dbtypes.cpp database/yxdbstorage.cpp
        eval/eval.cpp eval/evaluator.cpp eval/mix9svqnnue.cpp eval/mix10nnue.cpp
        game/board.cpp game/movegen.cpp game/pattern.cpp
        search/hashtable.cpp search/movepick.cpp search/opening.cpp search/searchcommon.cpp
        search/searchoutput.cpp search/searchthread.cpp search/timecontrol.cpp
        search/ab/history.cpp search/ab/search.cpp search/mcts/node.cpp search/mcts/search.cpp
        config.cpp internalConfig.cpp main.cpp"
    defs="-DMULTI_THREADING -DNDEBUG"
    # SIMD as the CMake file would detect it on this host
    probe() { echo "#include <immintrin.h>
int main(){ $1; return 0; }" > "$tmp/p.cpp"; ${CXX:-g++} -march=native "$tmp/p.cpp" -o "$tmp/p" 2>/dev/null; }
    probe '__m128i a = _mm_setzero_si128(); (void)a;' && defs="$defs -DUSE_SSE"
    probe '__m256i a = _mm256_setzero_si256(); (void)a;' && defs="$defs -DUSE_AVX2"
    probe 'unsigned long long r = _pext_u64(0xFFFFULL, 0xAAULL); (void)r;' && defs="$defs -DUSE_BMI2"
    ext=$src/external
    inc="-I$ext/cpptoml/include -I$ext/cxxopts/include -I$ext/lz4/include -I$ext/simde/include"
    mkdir -p "$tmp/obj"
    objs=""
    n=0
    for f in $sources; do
        o=$tmp/obj/$(echo "$f" | tr / _).o
        objs="$objs $o"
        ${CXX:-g++} -std=c++17 -O3 -march=native -ffp-contract=off -w $defs $inc -c "$src/$f" -o "$o" &
        n=$((n + 1))
        if [ "$n" -ge "$jobs" ]; then wait -n; n=$((n - 1)); fi
    done
    for f in lz4_all.c xxhash.c; do
        o=$tmp/obj/$f.o
        objs="$objs $o"
        ${CC:-gcc} -O3 -march=native -w -I"$ext/lz4/include" -c "$ext/lz4/src/$f" -o "$o" &
        n=$((n + 1))
        if [ "$n" -ge "$jobs" ]; then wait -n; n=$((n - 1)); fi
    done
    wait
    ${CXX:-g++} -O3 -march=native $objs -o "$out/rapfi/pbrain-rapfi" -pthread
fi

cp "$tmp/networks/classical/$model" "$out/rapfi/$model"
cat > "$out/rapfi/config.toml" <<TOML
# written by tengen tools/gomoku-opponents/rapfi/build.sh
[requirement]
min_version = [0,41,1]

[general]
reload_config_each_move = false
clear_hash_after_config_loaded = false
default_thread_num = 1
message_mode = "brief"
coord_conversion_mode = "none"
default_candidate_range = "square3_line4"
memory_reserved_mb = 0
default_tt_size_kb = 32768

# classical evaluation only: no [model.evaluator] section, so no network
[model]
binary_file = "$model"

[search]
aspiration_window = true
num_iteration_after_mate = 24
num_iteration_after_singular_root = 24
max_search_depth = 99

[search.timectl]
match_space = 21.0
match_space_min = 7.0
average_branch_factor = 1.7
advanced_stop_ratio = 0.9
move_horizon = 64

[database]
enable_by_default = false
type = "yixindb"
url = "rapfi.db"
TOML
# a launcher beside the other opponents: Rapfi finds config.toml through
# argv[0]'s directory, which a symbolic link would not give it
printf '#!/bin/sh\nexec "%s/rapfi/pbrain-rapfi" "$@"\n' "$out" > "$out/pbrain-rapfi"
chmod +x "$out/pbrain-rapfi"
echo "built $out/rapfi/pbrain-rapfi (config $out/rapfi/config.toml, model $model)"
