"""The Rapfi self-play data script's own logic (no Rapfi needed): five
detection, score conversion and the seeded openings."""

import importlib.util
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location(
    "gomoku_rapfi_selfplay", ROOT / "scripts" / "gomoku_rapfi_selfplay.py"
)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)

OPENINGS = ROOT / "tools" / "gomoku-opponents" / "openings" / "freestyle15-4ply-screen.txt"


def test_five_in_every_direction_and_overlines_count_in_freestyle():
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        stones = {(5 + k * dx, 7 + k * dy): 0 for k in range(5)}
        assert sp.five(stones, 5 + 2 * dx, 7 + 2 * dy)
    four = {(k, 3): 0 for k in range(4)}
    assert not sp.five(four, 0, 3)
    broken = {(0, 0): 0, (1, 0): 0, (2, 0): 1, (3, 0): 0, (4, 0): 0, (5, 0): 0}
    assert not sp.five(broken, 4, 0)
    six = {(k, 9): 1 for k in range(6)}
    assert sp.five(six, 5, 9)


def test_scores_are_doubled_clamped_and_proofs_marked():
    assert sp.score_value("207") == (414, None)
    assert sp.score_value("-15000") == (-20_000, None)
    assert sp.score_value("+M7") == (sp.PROVEN_OUT, True)
    assert sp.score_value("-M40") == (-sp.PROVEN_OUT, False)
    assert sp.score_value(None) == (0, None)


def test_openings_are_seeded_legal_and_without_a_five():
    lines = [l.strip() for l in open(OPENINGS) if l.strip()]
    for i in range(200):
        a = sp.opening(random.Random(i), lines)
        assert a == sp.opening(random.Random(i), lines)
        assert 4 <= len(a) <= 6
        assert len(set(a)) == len(a)
        assert all(0 <= x < sp.SIZE and 0 <= y < sp.SIZE for x, y in a)
        board = {q: k % 2 for k, q in enumerate(a)}
        assert not any(sp.five(board, *q) for q in a)
