#!/usr/bin/env python3
"""How much each engine of an arena chess match loses per move, as
Stockfish 15.1 judges it.

    python3 scripts/move_loss.py MATCH.pgn[.gz] ENGINE_NAME [EVERY] [NODES] [CACHE.jsonl]

Every EVERY-th game (default 5, so the sample spreads over the openings)
is replayed and each position from ply 8 to 140 is scored by
/usr/games/stockfish at NODES nodes (default 100,000; one thread). For
each move, the change of that score from the mover's side (after minus
before, both capped at ±6 pawns, positions beyond ±4 pawns left out) is
the move's cost; the script prints each engine's mean cost by stretch of
the game and how many moves lost more than 30/60/100/200 cp. Scores are
appended to CACHE (default MATCH.moveloss.jsonl) one game per line, so a
stopped run continues where it was.

Stockfish 15.1's centipawns are its own (100 = a 50% chance of winning
at equal material), so compare the engines with each other, not with
another script's figures.
"""
import gzip
import json
import statistics
import sys
from collections import defaultdict

import chess
import chess.engine
import chess.pgn


def judge(path, me, every, nodes, cache):
    done = set()
    try:
        with open(cache) as f:
            done = {json.loads(line)["game"] for line in f}
    except FileNotFoundError:
        pass
    eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    eng.configure({"Threads": 1, "Hash": 64})
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f, open(cache, "a") as out:
        index = 0
        while (game := chess.pgn.read_game(f)) is not None:
            index += 1
            if index % every != 1 % every or index in done:
                continue
            board = game.board()
            rows = []
            for node in game.mainline():
                if 8 <= board.ply() <= 140:
                    info = eng.analyse(board, chess.engine.Limit(nodes=nodes))
                    white = info["score"].pov(chess.WHITE).score(mate_score=3000)
                    mover = game.headers["White" if board.turn == chess.WHITE else "Black"]
                    rows.append({"ply": board.ply(), "white": white, "mine": mover == me,
                                 "white_to_move": board.turn == chess.WHITE})
                board.push(node.move)
            out.write(json.dumps({"game": index, "rows": rows}) + "\n")
            out.flush()
    eng.quit()


def summarise(cache):
    cost = defaultdict(lambda: defaultdict(list))
    games = 0
    with open(cache) as f:
        for line in f:
            games += 1
            rows = json.loads(line)["rows"]
            for a, b in zip(rows, rows[1:]):
                if b["ply"] != a["ply"] + 1:
                    continue
                sign = 1 if a["white_to_move"] else -1
                before = max(-600, min(600, a["white"])) * sign
                after = max(-600, min(600, b["white"])) * sign
                if abs(before) > 400:
                    continue
                who = "engine" if a["mine"] else "opponent"
                cost[who][a["ply"] // 20 * 20].append(after - before)
                cost[who][None].append(after - before)
    print(f"{games} games")
    for who in ("engine", "opponent"):
        print(f"{who}: mean cost per move (cp, mover's side)")
        for start in sorted(k for k in cost[who] if k is not None) + [None]:
            ds = cost[who][start]
            stretch = "all" if start is None else f"plies {start}-{start + 19}"
            print(f"   {stretch:>14}: {statistics.mean(ds):+6.1f}  ({len(ds)} moves)")
        ds = cost[who][None]
        print("   moves losing more than 30/60/100/200 cp: "
              + " / ".join(str(sum(1 for d in ds if d < -t)) for t in (30, 60, 100, 200)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, me = sys.argv[1], sys.argv[2]
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
    cache = sys.argv[5] if len(sys.argv) > 5 else path + ".moveloss.jsonl"
    judge(path, me, every, nodes, cache)
    summarise(cache)


if __name__ == "__main__":
    main()
