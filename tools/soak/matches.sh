#!/usr/bin/env bash
# The reliability soak against real opponents (docs/reliability.md): one
# game's long match of tengen against its reference engine through
# tengen-arena, with every fault counted per side in the -jsonout summary
# ("faults": time, crash, protocol, illegal, false_claim, start, swap2).
#
#   bash tools/soak/matches.sh GAME [GAMES] [CONCURRENCY]
#     GAME: chess | xiangqi | shogi | go | gomoku    GAMES: 1000    CONCURRENCY: 2
#
# Resumable: the arena keeps a journal beside the record, so running the
# same line again, with the same GAMES (after a kill, or in a later session), plays only the
# games still missing; the summary counts all of them. Output goes to
# matches/soak/GAME.{pgn|sgf|csa,json}, the arena's log to GAME.log.
# Controls leave every engine at least 50 ms a move beyond its overhead.
# Needs a release build and the Debian engines (stockfish,
# fairy-stockfish, gnugo); gomoku builds pbrain-pela once with
# tools/gomoku-opponents/pela/build.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
game=${1:?usage: matches.sh GAME [GAMES] [CONCURRENCY]}
games=${2:-1000}
conc=${3:-2}
arena=$root/target/release/tengen-arena
out=$root/matches/soak
mkdir -p "$out"
# A copy of the engine, so a rebuild during a long soak changes nothing.
# TENGEN=PATH resumes a soak with the copy it started with (the journal
# names the engine's command, so a new copy would start a new match).
commit=$(git -C "$root" rev-parse --short HEAD)
tengen=${TENGEN:-$out/tengen-$commit}
[ -x "$tengen" ] || cp "$root/target/release/tengen" "$tengen"
rounds=$(( (games + 1) / 2 ))
common=(-games 2 -rounds "$rounds" -repeat -concurrency "$conc" -recover -resume -srand 1000)
case $game in
  chess)
    args=(-engine cmd="$tengen" name=tengen
          -engine cmd=/usr/games/stockfish name=stockfish option.Threads=1 option.Hash=16
          -each proto=uci tc=2+0.05 timemargin=100 -openings plies=4 -maxmoves 200)
    ext=pgn ;;
  xiangqi)
    args=(-variant xiangqi -engine cmd="$tengen" name=tengen
          -engine cmd=/usr/games/fairy-stockfish name=fairy-stockfish
          -each proto=ucci tc=2+0.05 timemargin=100 -openings plies=2 -maxmoves 200)
    ext=pgn ;;
  shogi)
    args=(-variant shogi -engine cmd="$tengen" name=tengen option.USI_Hash=16
          -engine cmd=/usr/games/fairy-stockfish name=fairy-stockfish option.UCI_Variant=shogi
          -each proto=usi tc=0+b0.3 timemargin=200 -openings plies=2 -maxmoves 300)
    ext=csa ;;
  go)
    # Canadian overtime, three stones a second (about 0.33 s a move): GTP
    # counts whole seconds, so the arena sends time_settings 0 1 3 and a
    # time_left before every move, which the soak then exercises too
    # (st=1 sends no time_left and takes three times as long).
    args=(-variant go -boardsize 9 -komi 7
          -engine cmd="$tengen" name=tengen initstr="tengen-threads 1"
          -engine cmd=/usr/games/gnugo arg=--mode arg=gtp arg=--level arg=1 arg=--chinese-rules
                  arg=--capture-all-dead arg=--positional-superko name=gnugo
          -each proto=gtp tc=0+c3/1 timemargin=300 -openings plies=2)
    ext=sgf ;;
  gomoku)
    pela=$root/tools/gomoku-opponents/bin/pbrain-pela
    [ -x "$pela" ] || bash "$root/tools/gomoku-opponents/pela/build.sh"
    args=(-variant gomoku -rule freestyle
          -engine cmd="$tengen" name=tengen
          -engine cmd="$pela" name=pela
          -each proto=gomocup st=0.3 timemargin=200 -openings plies=3)
    ext=sgf ;;
  *) echo "matches.sh: unknown game '$game'" >&2; exit 2 ;;
esac
"$arena" "${args[@]}" "${common[@]}" -event "soak $game" \
  -pgnout "$out/$game.$ext" -jsonout "$out/$game.json" 2>&1 | tee -a "$out/$game.log"
python3 - "$out/$game.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
print("games:", len(s["games"]))
for f in s["faults"]:
    kinds = ", ".join(f"{k} {v}" for k, v in f.items() if k not in ("engine", "total") and v)
    print(f"faults of {f['engine']}: {f['total']}" + (f" ({kinds})" if kinds else ""))
EOF
