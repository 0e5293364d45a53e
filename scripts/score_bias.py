#!/usr/bin/env python3
"""Whether tengen's chess scores lean toward the side to move, against
Stockfish's: positions sampled from an arena match (plies 10-120, 2% of
them, seed 5), each searched by tengen (5,000 nodes) and by Stockfish
(200,000 nodes, one thread); prints the mean and median of (tengen's
score - Stockfish's) from the side to move, by who moves, the
least-squares scale and the correlation. Mates and scores beyond 15 pawns
are left out.

    python3 scripts/score_bias.py MATCH.pgn POSITIONS [TENGEN] [STOCKFISH]
"""
import random
import statistics
import sys

import chess
import chess.engine
import chess.pgn


def sample(path, count):
    rng = random.Random(5)
    fens = []
    with open(path) as f:
        while len(fens) < count:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            board = g.board()
            for ply, move in enumerate(g.mainline_moves()):
                board.push(move)
                if 10 <= ply <= 120 and rng.random() < 0.02 and not board.is_game_over():
                    fens.append(board.fen())
    return fens[:count]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fens = sample(sys.argv[1], int(sys.argv[2]))
    tengen = chess.engine.SimpleEngine.popen_uci([sys.argv[3] if len(sys.argv) > 3 else "target/release/tengen"])
    stockfish = chess.engine.SimpleEngine.popen_uci(sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish")
    tengen.configure({"Hash": 16})
    stockfish.configure({"Threads": 1, "Hash": 16})
    rows = []
    try:
        for fen in fens:
            board = chess.Board(fen)
            t = tengen.analyse(board, chess.engine.Limit(nodes=5000))["score"].relative.score(mate_score=3000)
            s = stockfish.analyse(board, chess.engine.Limit(nodes=200000))["score"].relative.score(mate_score=3000)
            if abs(t) < 1500 and abs(s) < 1500:
                rows.append((board.turn, t, s))
    finally:
        tengen.quit()
        stockfish.quit()
    d = [t - s for _, t, s in rows]
    print(f"{len(rows)} positions: tengen - Stockfish from the side to move, "
          f"mean {statistics.mean(d):+.1f} cp, median {statistics.median(d):+.1f}")
    for colour, name in [(chess.WHITE, "White"), (chess.BLACK, "Black")]:
        dd = [t - s for c, t, s in rows if c == colour]
        if dd:
            print(f"  {name} to move: {len(dd)}, mean {statistics.mean(dd):+.1f}, median {statistics.median(dd):+.1f}")
    scale = sum(t * s for _, t, s in rows) / sum(s * s for _, _, s in rows)
    corr = statistics.correlation([t for _, t, _ in rows], [s for _, _, s in rows])
    print(f"least-squares scale tengen/Stockfish {scale:.2f}, correlation {corr:.2f}")


if __name__ == "__main__":
    main()
