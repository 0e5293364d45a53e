#!/usr/bin/env python3
"""Do a chess shard's stored results agree with its stored scores?

    python3 scripts/chess_data_results.py SHARD.bin [LIMIT]

Reads up to LIMIT (default 2,000,000) 32-byte chess records of a
`tengen datagen` shard (format in docs/nnue.md, "Record format") and,
separately for White and Black to move, prints the result distribution
and the mean result (1 win, 0.5 draw, 0 loss, side to move's view) in
bands of the search score. Both sides' rows must rise with the score and
match each other: a result stored from the wrong side's view shows as a
falling or flat row.
"""
import sys

import numpy as np

HEADER = 16
RECORD = 32
BANDS = [(-10000, -300), (-300, -100), (-100, -30), (-30, 30), (30, 100), (100, 300), (300, 10000)]


def main(path, limit):
    raw = np.fromfile(path, dtype=np.uint8, offset=HEADER)
    raw = raw[: len(raw) // RECORD * RECORD].reshape(-1, RECORD)[:limit]
    score = raw[:, 24:26].copy().view("<i2").ravel().astype(np.int32)
    result = (raw[:, 26] & 3).astype(np.int32)
    black = raw[:, 26] >> 7
    for side, name in ((0, "White"), (1, "Black")):
        mine = black == side
        s, r = score[mine], result[mine]
        dist = np.bincount(r, minlength=3) / max(len(r), 1)
        print(f"{name} to move: {len(r)} positions, loss/draw/win {dist[0]:.3f}/{dist[1]:.3f}/{dist[2]:.3f}")
        for lo, hi in BANDS:
            band = (s >= lo) & (s < hi)
            if band.any():
                print(f"  score [{lo}, {hi}): {band.sum():8d} positions, mean result {r[band].mean() / 2:.3f}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 2_000_000)
