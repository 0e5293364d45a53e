"""Generates crates/shogi/tests/tsume_hard.txt: longer random tsume problems
(9 plies or more) labelled by cshogi's DfPn, for the same-time benchmark
(scripts/tsume_bench.py).

Positions come from gen_tsume.py's random set-ups. A position is kept when
cshogi.DfPn(63, 400000) proves a mate whose principal variation, replayed
with cshogi, is a legal mate of 9 plies or more. The label is the smallest
odd depth limit at which DfPn proves the mate (as in tsume.txt: an upper
bound on the shortest mate). Positions our own SFEN parser rejects are
dropped afterwards by the benchmark's `check` pass.
Run: python3 crates/shogi/tests/gen_hard.py [count] [seconds] [seed] > out.txt
(the committed file: seeds 20261123 and 7, 840 and 480 s, filtered by
`tsume --check`)
"""
import os
import random
import sys
import time

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_tsume import random_position  # noqa: E402


def pv_is_mate(sfen, pv):
    b = cshogi.Board()
    b.set_sfen(sfen)
    for i, m in enumerate(pv):
        if not b.is_legal(m):
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return len(pv) % 2 == 1 and b.is_game_over()


def label(sfen):
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception:
        return None
    if b.is_check() or b.is_game_over():
        return None
    d = cshogi.DfPn(63, 400_000)
    if not d.search(b):
        return None
    pv = d.get_pv(b)
    if len(pv) < 9 or not pv_is_mate(sfen, pv):
        return None
    for depth in range(1, 64, 2):
        if cshogi.DfPn(depth, 400_000).search(b):
            return depth
    return None


def main():
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 600
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261123)
    end = time.time() + seconds
    got = 0
    print("# Longer tsume problems labelled by cshogi 1.1.0's DfPn (plies: smallest DfPn")
    print("# depth limit that proves the mate). Made by gen_hard.py in this directory.")
    while got < want and time.time() < end:
        sfen = random_position(rng)
        if sfen.count("k") != 1:
            continue
        n = label(sfen)
        if n is None:
            continue
        got += 1
        print(f"{sfen} ;{n}", flush=True)


if __name__ == "__main__":
    main()
