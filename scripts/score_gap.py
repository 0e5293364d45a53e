#!/usr/bin/env python3
"""How one engine's scores in an arena chess match compare with its
opponent's, and with the results.

    python3 scripts/score_gap.py MATCH.pgn ENGINE_NAME

The arena writes each move's score in its comment (`{+0.60/15 0.279s}`),
from White's point of view. For every pair of consecutive moves by the two
engines, both scores are turned to ENGINE_NAME's point of view; the
script prints, by stretch of the game, the mean and median of
(ENGINE's score - opponent's score), and for each engine a calibration
table: ENGINE's mean game score over the positions where that engine's
score fell in each band (plies up to 80). Mate scores and scores beyond
five pawns are left out.
"""
import re
import statistics
import sys

import chess.pgn

SCORE = re.compile(r"([+-]?\d+\.\d+)/")


def pairs(path, me):
    """(ply, my score, opponent's score, my game score) per pair of moves."""
    rows = []
    with open(path) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return rows
            white = g.headers.get("White") == me
            if not white and g.headers.get("Black") != me:
                continue
            res = {"1-0": 1.0, "0-1": 0.0}.get(g.headers.get("Result"), 0.5)
            mine_result = res if white else 1.0 - res
            prev = None
            for ply, node in enumerate(g.mainline(), 1):
                m = SCORE.match(node.comment)
                if not m:
                    prev = None
                    continue
                v = float(m.group(1))
                v = v if white else -v  # my point of view
                mover_is_me = (node.parent.board().turn == chess.WHITE) == white
                if prev is not None and prev[0] != mover_is_me:
                    mine, theirs = (v, prev[1]) if mover_is_me else (prev[1], v)
                    if abs(mine) < 5 and abs(theirs) < 5:
                        rows.append((ply, mine, theirs, mine_result))
                prev = (mover_is_me, v)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, me = sys.argv[1], sys.argv[2]
    rows = pairs(path, me)
    if not rows:
        sys.exit(f"no scored moves of {me} in {path}")
    print(f"{len(rows)} pairs of consecutive scored moves")
    for lo, hi in [(0, 20), (20, 40), (40, 60), (60, 100), (100, 1000)]:
        d = [a - b for p, a, b, _ in rows if lo <= p < hi]
        if d:
            print(f"plies {lo}-{hi}: {len(d)} pairs, {me} minus opponent: "
                  f"mean {statistics.mean(d):+.2f}, median {statistics.median(d):+.2f}")
    bands = [(-9, -2), (-2, -1), (-1, -0.5), (-0.5, -0.2), (-0.2, 0.2), (0.2, 0.5), (0.5, 1), (1, 2), (2, 9)]
    for name, i in [(me, 1), ("opponent", 2)]:
        print(f"{name}'s score (from {me}'s side, plies <= 80) -> {me}'s game score")
        for lo, hi in bands:
            r = [row[3] for row in rows if lo <= row[i] < hi and row[0] <= 80]
            if r:
                print(f"  {lo:+5.1f} .. {hi:+5.1f}: {len(r):5d} positions, {statistics.mean(r):.3f}")


if __name__ == "__main__":
    main()
