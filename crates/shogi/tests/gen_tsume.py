"""Generates crates/shogi/tests/tsume.txt: random tsume positions labelled
by cshogi's df-pn solver (an independent program).

The label is the smallest odd depth limit at which DfPn proves a mate
(an upper bound on the shortest mate: the depth-limited search is not
exact). For each random position (gote king near its back rank, a few sente
attackers, a few gote defenders, some pieces in sente's hand, the rest in
gote's hand, no sente king) the shortest mate length is the smallest odd
depth at which cshogi.DfPn with that depth limit finds a mate; positions
where DfPn finds no mate within 31 plies and 300k nodes are labelled nomate.
Run: python3 crates/shogi/tests/gen_tsume.py <tengen binary> > crates/shogi/tests/tsume.txt
"""
import random
import subprocess
import sys
import cshogi

TENGEN = sys.argv[1] if len(sys.argv) > 1 else "tengen"

FULL = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
PROMO = {"P", "L", "N", "S", "B", "R"}


def random_position(rng):
    board = {}
    kf, kr = rng.randint(1, 9), rng.randint(1, 3)
    board[(kf, kr)] = "k"
    counts = dict(FULL)

    def take():
        kinds = [k for k, n in counts.items() for _ in range(n)]
        k = rng.choice(kinds)
        counts[k] -= 1
        return k

    def place(upper, near, spread):
        k = take()
        for _ in range(20):
            f = min(9, max(1, near[0] + rng.randint(-spread, spread)))
            r = min(9, max(1, near[1] + rng.randint(-spread, spread + 1)))
            if (f, r) not in board:
                promoted = k in PROMO and rng.random() < 0.25
                letter = k if upper else k.lower()
                board[(f, r)] = ("+" if promoted else "") + letter
                return
        counts[k] += 1

    for _ in range(rng.randint(2, 5)):
        place(True, (kf, kr), 2)
    for _ in range(rng.randint(0, 3)):
        place(False, (kf, kr), 2)
    hand_b = [take() for _ in range(rng.randint(1, 3))]
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

    def hand(letters, lower):
        out = ""
        for k in "RBGSNLP":
            n = letters.count(k)
            if n:
                out += (str(n) if n > 1 else "") + (k.lower() if lower else k)
        return out

    hand_w = [k for k, n in counts.items() for _ in range(n)]
    h = hand(hand_b, False) + hand(hand_w, True)
    return "/".join(rows) + " b " + (h or "-") + " 1"


def shortest(sfen):
    board = cshogi.Board()
    try:
        board.set_sfen(sfen)
    except Exception:
        return None
    if board.is_check() or board.is_game_over():
        return None
    full = cshogi.DfPn(31, 300_000)
    if not full.search(board):
        return "nomate"
    for depth in range(1, 32, 2):
        d = cshogi.DfPn(depth, 300_000)
        if d.search(board):
            return depth
    return None


def main():
    rng = random.Random(20261122)
    want = {1: 4, 3: 5, 5: 5, 7: 5, 9: 4, 11: 3, 13: 3, "nomate": 6}
    got = {k: 0 for k in want}
    lines = []
    tries = 0
    while any(got[k] < want[k] for k in want) and tries < 200000:
        tries += 1
        sfen = random_position(rng)
        if sfen.count("k") != 1:
            continue
        # Our own parser rejects illegal set-ups (nifu, dead pieces, the
        # gote king already in check); cshogi would take some of them.
        ok = subprocess.run([TENGEN, "legal", "--game", "shogi", "--position", sfen],
                            capture_output=True).returncode == 0
        if not ok:
            continue
        n = shortest(sfen)
        key = n if n in want else (13 if isinstance(n, int) and n > 13 else None)
        if key is None or got[key] >= want[key]:
            continue
        got[key] += 1
        print(f"{sfen} ;{n}", flush=True)


if __name__ == "__main__":
    main()
