"""GNU Go's `orientation` / `query_orientation` in tengen, against GNU Go 3.8.

Under orientation n every vertex is moved by one of the board's eight
symmetries on the way in and back on the way out, and the game lives in
the moved frame: `showboard` draws that (internal) board. The same lines
go to `tengen` and to `gnugo --mode gtp`; replies must be identical where
the answer is not a judgement (lists that tengen orders differently from
GNU Go even without an orientation, `list_stones`, are compared as sets).
"""
import os
import random
import re
import tempfile

import pytest

from conftest import GNUGO, needs_gnugo


STONES = [("b", "B3"), ("w", "C7"), ("b", "C6"), ("w", "D6"), ("b", "D7"),
          ("w", "E7"), ("b", "C8"), ("w", "A1"), ("b", "A2"), ("w", "G2")]


def grid(text):
    """The stones of a `showboard` drawing, row by row (GNU Go's hoshi
    marks `+` read as empty points; the captures lines are ignored)."""
    rows = []
    for line in text.split("\n"):
        m = re.match(r"^\s*(\d+) ((?:[.+XO] )+)\d+", line)
        if m:
            rows.append(m.group(2).replace("+", ".").split())
    return rows


def both(pair, line):
    t, g = pair
    return t.cmd(line), g.cmd(line)


def same(pair, line):
    rt, rg = both(pair, line)
    assert rt == rg, f"{line!r}: tengen {rt!r}, gnugo {rg!r}"
    return rt


@needs_gnugo
def test_errors_and_queries_match_gnugo(pair):
    for line in ["boardsize 9", "query_orientation", "orientation", "orientation x",
                 "orientation 8", "orientation -1", "orientation 99999999999",
                 "query_orientation", "orientation 4294967297", "query_orientation",
                 "orientation 1.5", "orientation +2", "query_orientation",
                 "orientation 03", "query_orientation", "orientation -0",
                 "query_orientation", "known_command orientation",
                 "known_command query_orientation"]:
        same(pair, line)


@needs_gnugo
@pytest.mark.parametrize("n", range(8))
def test_every_orientation_matches_gnugo(pair, n):
    t, g = pair
    same(pair, "boardsize 9")
    # A stone before the orientation: `orientation` clears the board.
    same(pair, "play b E5")
    assert same(pair, f"orientation {n}") == (True, "")
    assert same(pair, "color E5") == (True, "empty")
    assert same(pair, "query_orientation") == (True, str(n))
    for c, v in STONES:
        same(pair, f"play {c} {v}")
    # The drawing is the internal board, stone for stone.
    rt, rg = both(pair, "showboard")
    assert grid(rt[1]) == grid(rg[1]) and len(grid(rt[1])) == 9
    for line in ["color B3", "color G2", "color J9", "countlib C6", "findlib C6",
                 "findlib A1", "worm_stones", "worm_stones black", "move_history",
                 "last_move", "is_legal w A3", "accuratelib b B2",
                 "accurate_approxlib w D8", "attack A1", "defend C7",
                 "does_attack B1 A1", "trymove b B1", "color A1", "popgo",
                 "color A1", "undo", "color G2", "last_move", "captures black"]:
        same(pair, line)
    for c in ("black", "white"):
        rt, rg = both(pair, f"list_stones {c}")
        assert rt[0] and sorted(rt[1].split()) == sorted(rg[1].split()), (rt, rg)
    # A move chosen by each engine is an empty point of the outside board,
    # and is then found there.
    for e in (t, g):
        ok, mv = e.cmd("genmove b")
        assert ok
        if mv.lower() not in ("pass", "resign"):
            assert e.cmd(f"color {mv}") == (True, "black"), mv
        e.cmd("undo")
    # Handicap points come out in the outside frame.
    same(pair, "boardsize 7")
    same(pair, "clear_board")
    assert same(pair, "query_orientation") == (True, str(n))
    # (tengen lists them in its own order, also without an orientation.)
    for line in ("fixed_handicap 3", "list_stones black"):
        rt, rg = both(pair, line)
        assert rt[0] and sorted(rt[1].split()) == sorted(rg[1].split()), (line, rt, rg)


@needs_gnugo
@pytest.mark.parametrize("n", [1, 4])
def test_loadsgf_reads_the_outside_frame(pair, n):
    t, g = pair
    rng = random.Random(n)
    moves = []
    for c, v in STONES:
        moves.append(f";{c.upper()}[{'abcdefghi'[ord(v[0]) - ord('A')]}{'abcdefghi'[9 - int(v[1:])]}]")
    sgf = "(;GM[1]FF[4]SZ[9]KM[5.5]" + "".join(moves) + ")"
    with tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False) as f:
        f.write(sgf)
    try:
        same(pair, f"orientation {n}")
        assert same(pair, f"loadsgf {f.name}")[0]
        for c in ("black", "white"):
            rt, rg = both(pair, f"list_stones {c}")
            assert sorted(rt[1].split()) == sorted(rg[1].split()) != [], (rt, rg)
        rt, rg = both(pair, "showboard")
        assert grid(rt[1]) == grid(rg[1])
        same(pair, "move_history")
        # Up to a vertex (the outside frame's).
        same(pair, f"loadsgf {f.name} {rng.choice(STONES[3:])[1]}")
        same(pair, "move_history")
    finally:
        os.unlink(f.name)
