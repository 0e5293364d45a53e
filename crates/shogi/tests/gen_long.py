"""Generates crates/shogi/tests/tsume_long.txt: long random tsume problems
labelled by cshogi's DfPn, for the solver tests and the same-time
benchmark (scripts/tsume_bench.py).

Random mates are rare beyond 15 plies, so each problem is grown: a random
set-up as in gen_tsume.py but wider (the gote king on ranks 1-5, 1-4 sente
and 0-5 gote pieces within three squares of it, 1-5 pieces in sente's
hand, the rest in gote's hand) that cshogi mates in 5+ plies, then random
changes (move a piece near the king, put one of gote's hand pieces on the
board for either side, take a piece off, pass a piece between the hands,
promote or unpromote) kept while cshogi.DfPn(63, 100000) still mates and
its line does not get shorter. Set-ups with a dead piece, two pawns on a
file or the gote king in check are refused. A position is kept once
cshogi's line (replayed with cshogi: legal checks, mate at the end) is at
least a target length drawn from [min_len, max_len] and its label is at
least min_label. The label is the smallest odd depth limit at which
DfPn(depth, 1000000) still proves the mate, lowered two plies at a time
from the line's length (an upper bound on the shortest mate, as in
tsume.txt; cshogi's depth limit is loose by up to two plies).
Run: python3 crates/shogi/tests/gen_long.py [count] [seconds] [seed] [min_len] [max_len] [min_label] [seeds] > out.txt
(defaults 20, 1800, 20261126, 25, 41, 21), then keep the lines that
`tsume --check --file out.txt` prints.

Random set-ups grow slowly (about two problems an hour). With `seeds` (a
problem file such as tsume_hard.txt), each climb starts instead from one
of its mates, drawn at random (a problem is kept only when a change has
just made it longer, so seeds shorter than `min_len` never come back
unchanged). Tried once (tsume_hard.txt, seed 20261127, 20 minutes): no
problem; most changes of a 15-19-ply mate leave cshogi without a mate
within CLIMB_NODES, and the climb goes stale.
"""
import os
import random
import sys
import time

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_hard import pv_is_mate  # noqa: E402

NODES = 1_000_000
CLIMB_NODES = 100_000
FULL = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
PROMO = {"P", "L", "N", "S", "B", "R"}


def random_position(rng):
    board = {}
    kf, kr = rng.randint(1, 9), rng.randint(1, 5)
    board[(kf, kr)] = "k"
    counts = dict(FULL)

    def take():
        kinds = [k for k, n in counts.items() for _ in range(n)]
        k = rng.choice(kinds)
        counts[k] -= 1
        return k

    def place(upper, spread):
        k = take()
        for _ in range(20):
            f = min(9, max(1, kf + rng.randint(-spread, spread)))
            r = min(9, max(1, kr + rng.randint(-spread, spread + 1)))
            if (f, r) not in board:
                promoted = k in PROMO and rng.random() < 0.25
                letter = k if upper else k.lower()
                board[(f, r)] = ("+" if promoted else "") + letter
                return
        counts[k] += 1

    for _ in range(rng.randint(1, 4)):
        place(True, 3)
    for _ in range(rng.randint(0, 5)):
        place(False, 3)
    hand_b = [take() for _ in range(rng.randint(1, 5))]
    hand_w = [k for k, n in counts.items() for _ in range(n)]
    return unparse(board, hand_b, hand_w)


def label(sfen, min_len):
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception:
        return None
    if b.is_check() or b.is_game_over():
        return None
    d = cshogi.DfPn(63, NODES)
    if not d.search(b):
        return None
    pv = d.get_pv(b)
    if len(pv) < min_len or not pv_is_mate(sfen, pv):
        return None
    best = len(pv)
    depth = best - 2
    while depth >= 1 and cshogi.DfPn(depth, NODES).search(b):
        best = depth
        depth -= 2
    return best, len(pv)


def parse(sfen):
    """SFEN -> (board {(file, rank): piece}, sente hand, gote hand)."""
    rows, _, hands, _ = sfen.split()
    board = {}
    for r, row in enumerate(rows.split("/"), 1):
        f, plus = 9, ""
        for ch in row:
            if ch.isdigit():
                f -= int(ch)
            elif ch == "+":
                plus = "+"
            else:
                board[(f, r)] = plus + ch
                f -= 1
                plus = ""
    hb, hw = [], []
    n = ""
    for ch in hands if hands != "-" else "":
        if ch.isdigit():
            n += ch
        else:
            (hb if ch.isupper() else hw).extend([ch.upper()] * int(n or 1))
            n = ""
    return board, hb, hw


def unparse(board, hb, hw):
    rows = []
    for r in range(1, 10):
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = board.get((f, r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    h = ""
    for letters, lower in ((hb, False), (hw, True)):
        for k in "RBGSNLP":
            c = letters.count(k)
            if c:
                h += (str(c) if c > 1 else "") + (k.lower() if lower else k)
    return "/".join(rows) + " b " + (h or "-") + " 1"


def sane(board):
    """No dead piece, no two unpromoted pawns of a side on a file."""
    files = set()
    for (f, r), p in board.items():
        if p in ("P", "L") and r == 1 or p == "N" and r <= 2:
            return False
        if p in ("p", "l") and r == 9 or p == "n" and r >= 8:
            return False
        if p in ("P", "p"):
            if (p, f) in files:
                return False
            files.add((p, f))
    return True


def mutate(rng, sfen):
    board, hb, hw = parse(sfen)
    (kf, kr), = [sq for sq, p in board.items() if p == "k"]
    near = [(f, r) for f in range(max(1, kf - 3), min(9, kf + 3) + 1)
            for r in range(max(1, kr - 3), min(9, kr + 4) + 1) if (f, r) not in board]
    pieces = [sq for sq, p in board.items() if p != "k"]
    op = rng.randrange(6)
    if op == 0 and pieces and near:
        # Move a piece to an empty square near the king.
        sq = rng.choice(pieces)
        board[rng.choice(near)] = board.pop(sq)
    elif op == 1 and hw and near:
        # A piece from gote's hand onto the board, for either side.
        k = hw.pop(rng.randrange(len(hw)))
        promoted = k in PROMO and rng.random() < 0.25
        board[rng.choice(near)] = ("+" if promoted else "") + (k if rng.random() < 0.5 else k.lower())
    elif op == 2 and pieces:
        # A piece off the board into gote's hand.
        hw.append(board.pop(rng.choice(pieces)).lstrip("+").upper())
    elif op == 3 and hw:
        # Gote's piece into sente's hand.
        hb.append(hw.pop(rng.randrange(len(hw))))
    elif op == 4 and hb:
        # Sente's piece back to gote's hand.
        hw.append(hb.pop(rng.randrange(len(hb))))
    elif op == 5 and pieces:
        # Promote or unpromote a piece.
        sq = rng.choice(pieces)
        p = board[sq]
        if p.startswith("+"):
            board[sq] = p[1:]
        elif p.upper() in PROMO:
            board[sq] = "+" + p
    if not hb or not sane(board):
        return None
    return unparse(board, hb, hw)


def gote_in_check(sfen):
    """Whether the gote king stands in check (sente to move): illegal."""
    b = cshogi.Board()
    b.set_sfen(sfen.replace(" b ", " w ", 1))
    return b.is_check()


def mate_len(sfen, nodes):
    """cshogi's DfPn mate line length (checked), or None."""
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception:
        return None
    if b.is_check() or b.is_game_over() or gote_in_check(sfen):
        return None
    d = cshogi.DfPn(63, nodes)
    if not d.search(b):
        return None
    pv = d.get_pv(b)
    return len(pv) if pv_is_mate(sfen, pv) else None


def climb(rng, min_len, max_len, min_label, deadline, seeds=None):
    """A random mate (or one of `seeds`), then random changes that keep a
    mate at least as long (cshogi's line), until the line is `min_len` to
    `max_len` plies and the depth label at least `min_label`; returns
    (sfen, label, line)."""
    while time.time() < deadline:
        sfen = rng.choice(seeds) if seeds else random_position(rng)
        if sfen.count("k") != 1 or not sane(parse(sfen)[0]):
            continue
        n = mate_len(sfen, CLIMB_NODES if seeds else 50_000)
        if n is None or n < 5:
            continue
        stale = 0
        while stale < 300 and time.time() < deadline:
            cand = mutate(rng, sfen)
            if cand is None:
                continue
            m = mate_len(cand, CLIMB_NODES)
            if m is None or m < n or m > max_len:
                stale += 1
                continue
            stale = 0 if m > n else stale + 1
            grew = m > n
            sfen, n = cand, m
            if n >= min_len and grew:
                lab = label(sfen, min_len)
                if lab is not None and lab[0] >= min_label:
                    return sfen, lab[0], lab[1]
    return None


def main():
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1800
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261126)
    min_len = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    max_len = int(sys.argv[5]) if len(sys.argv) > 5 else 41
    min_label = int(sys.argv[6]) if len(sys.argv) > 6 else 21
    seeds = None
    if len(sys.argv) > 7:
        seeds = [line.split(" ;")[0] for line in open(sys.argv[7])
                 if line.strip() and not line.startswith("#") and "nomate" not in line]
    end = time.time() + seconds
    got = 0
    while got < want and time.time() < end:
        # Aim at a length drawn from the range, so that the set spreads.
        target = rng.randrange(min_len, max_len + 1, 2)
        found = climb(rng, target, max_len, min_label, end, seeds)
        if found is None:
            continue
        got += 1
        print(f"{found[0]} ;{found[1]}", flush=True)
        print(f"# cshogi PV {found[2]} plies", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
