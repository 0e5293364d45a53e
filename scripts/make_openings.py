#!/usr/bin/env python3
"""Balanced chess openings for matches: random legal plies from the start
position, kept when Stockfish (depth 12) scores them within a margin.

    python3 scripts/make_openings.py --count 200 --plies 8 --seed 1 > data/openings/chess-8ply.epd
"""
import argparse
import random

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=int, default=60, help="max |cp| for the side to move")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seen = set()
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        while len(seen) < args.count:
            board = chess.Board()
            for _ in range(args.plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over():
                continue
            epd = board.epd()
            if epd in seen:
                continue
            info = sf.analyse(board, chess.engine.Limit(depth=12))
            cp = info["score"].relative.score()
            if cp is None or abs(cp) > args.margin:
                continue
            seen.add(epd)
            print(epd, flush=True)
    finally:
        sf.quit()


if __name__ == "__main__":
    main()
