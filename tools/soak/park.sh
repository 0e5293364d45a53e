#!/usr/bin/env bash
# Keeps an unfinished soak (tools/soak/matches.sh) across machines: the
# arena's record, journal, summary and load samples live in the ignored
# matches/soak/, which a new machine does not have.
#
#   bash tools/soak/park.sh save GAME      # matches/soak/GAME.* -> docs/soak/parked/ (gzipped; commit them)
#   bash tools/soak/park.sh restore GAME   # docs/soak/parked/ -> matches/soak/, and the engine copy rebuilt
#
# `restore` also rebuilds the engine copy the journal names
# (matches/soak/tengen-COMMIT, from that commit, in a temporary worktree)
# when it is missing: the journal holds the engine's command line, so a
# resume must use the same path. Then resume with the command `save`
# printed (TENGEN=... bash tools/soak/matches.sh GAME GAMES CONCURRENCY).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:?usage: park.sh save|restore GAME}
game=${2:?usage: park.sh save|restore GAME}
live=$root/matches/soak
parked=$root/docs/soak/parked
case $game in
  chess | xiangqi) ext=pgn ;;
  shogi) ext=csa ;;
  go | gomoku) ext=sgf ;;
  *) echo "park.sh: unknown game '$game'" >&2; exit 2 ;;
esac
files=("$game.$ext" "$game.$ext.journal" "$game.json" "$game.load" "$game.log")

# The engine copy named in the journal's first line (`cmd: \"/…/tengen-COMMIT\"`).
engine_of() {
  head -n 1 "$1" | grep -a -o '/[^ "\\]*/tengen-[0-9a-f]*' | head -n 1
}

case $what in
  save)
    mkdir -p "$parked"
    for f in "${files[@]}"; do
      [ -f "$live/$f" ] && gzip -9 -c "$live/$f" >"$parked/$f.gz"
    done
    engine=$(engine_of "$live/$game.$ext.journal")
    played=$(grep -a -c '"game":' "$live/$game.$ext.journal" || true)
    echo "parked $game: $played games, engine $engine"
    echo "resume: TENGEN=$engine bash tools/soak/matches.sh $game GAMES CONCURRENCY"
    ;;
  restore)
    mkdir -p "$live"
    for f in "${files[@]}"; do
      [ -f "$parked/$f.gz" ] && gzip -d -c "$parked/$f.gz" >"$live/$f"
    done
    engine=$(engine_of "$live/$game.$ext.journal")
    if [ ! -x "$engine" ]; then
      commit=${engine##*tengen-}
      wt=$(mktemp -d)
      git -C "$root" worktree add -q --detach "$wt" "$commit"
      (cd "$wt" && cargo build --release -q -p tengen-engine)
      mkdir -p "$(dirname "$engine")"
      cp "$wt/target/release/tengen" "$engine"
      git -C "$root" worktree remove --force "$wt"
    fi
    echo "restored $game; engine $engine"
    ;;
  *) echo "park.sh: save or restore, not '$what'" >&2; exit 2 ;;
esac
