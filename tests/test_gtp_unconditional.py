"""GNU Go's `unconditional_status` in tengen (Benson's pass-alive analysis,
crates/go/src/benson.rs), against GNU Go 3.8.

- transcripts: errors and hand-made positions (two eyes, one eye, eyes
  shared by two chains, a dead stone inside an eye, a big enclosed region)
  answered identically for every point;
- agreement on real positions: the positions after 40 moves and at the end
  of 9x9 games from docs/matches (tengen against GNU Go level 10, played
  out to two passes under Tromp-Taylor rules, so most groups end
  pass-alive), every point asked of both engines; the share of equal
  answers is the test and the differences are printed.
"""
import collections
import gzip
import pathlib
import re

import pytest

from conftest import GNUGO, ROOT, needs_gnugo

COLUMNS = "ABCDEFGHJKLMNOPQRST"
GAMES = ROOT / "docs" / "matches" / "go9-gnugo-090e72b.sgf.gz"


def setup(pair, rows):
    """Plays the stones of a diagram (rows top-down) in both engines."""
    n = len(rows)
    count = 0
    for e in pair:
        e.cmd(f"boardsize {n}")
        e.cmd("clear_board")
    for i, row in enumerate(rows):
        for x, ch in enumerate(row.split()):
            if ch in "XO":
                v = f"{COLUMNS[x]}{n - i}"
                for e in pair:
                    assert e.cmd(f"play {'b' if ch == 'X' else 'w'} {v}") == (True, ""), v
                count += 1
    for e in pair:
        listed = e.cmd("list_stones black")[1].split() + e.cmd("list_stones white")[1].split()
        assert len(listed) == count, "a stone was captured while setting up"
    return [f"{COLUMNS[x]}{y + 1}" for y in range(n) for x in range(n)]


def compare(pair, points):
    t, g = pair
    same, diff = 0, []
    for v in points:
        rt, rg = t.cmd(f"unconditional_status {v}"), g.cmd(f"unconditional_status {v}")
        assert rt[0] and rg[0], (v, rt, rg)
        if rt == rg:
            same += 1
        else:
            diff.append(f"{v}: tengen {rt[1]}, gnugo {rg[1]}")
    return same, diff


POSITIONS = [
    # Two eyes, a dead stone in one of them, a big region above.
    [". . . . . . .",
     ". . . . . . .",
     ". . . O . . .",
     ". . . . . . .",
     ". . . . . . .",
     "X X X X X X X",
     ". X O . X . X"],
    # One eye: the second borders a chain that falls.
    [". . . . .",
     ". . . . .",
     "O O O O .",
     "X X X O .",
     ". X . X O"],
    # A lone stone and a wall sharing two eyes.
    [". . . . .",
     "O O O O O",
     "X X X X X",
     ". X . X .",
     "X . X X X"],
    # A white stone joins three points into a region A1 cannot use.
    [". . . . .",
     "O O O O O",
     "X X X X X",
     ". O . X .",
     "X . X X X"],
    # Both colours alive side by side.
    [". X O . O",
     "X X O O O",
     ". X O . O",
     "X X O O O",
     ". X O . O"],
]


@needs_gnugo
def test_errors_match_gnugo(pair):
    t, g = pair
    for line in ["boardsize 9", "clear_board", "unconditional_status",
                 "unconditional_status Z9", "unconditional_status pass",
                 "unconditional_status x", "unconditional_status E5",
                 "known_command unconditional_status"]:
        assert t.cmd(line) == g.cmd(line), line


@needs_gnugo
@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_hand_made_positions_match_gnugo(pair, k):
    points = setup(pair, POSITIONS[k])
    same, diff = compare(pair, points)
    assert diff == [], diff
    # Something in each of them is decided, so a reader that always said
    # `undecided` would not pass.
    answers = {pair[0].cmd(f"unconditional_status {v}")[1] for v in points}
    assert answers != {"undecided"} or k in (1, 3)


def games(limit):
    text = gzip.open(GAMES, "rt").read()
    for record in text.split("(;")[1:limit + 1]:
        moves = re.findall(r";([BW])\[([a-s]{0,2})\]", record)
        yield [(c.lower(), "pass" if not m else f"{COLUMNS[ord(m[0]) - 97]}{9 - (ord(m[1]) - 97)}")
               for c, m in moves]


def game_positions(pair, limit):
    """Plays the first `limit` games in both engines, from an empty board
    each time, to move 20, 40, 60 and the end; yields (game, moves) at
    each of those points."""
    for k, moves in enumerate(games(limit)):
        for stop in (20, 40, 60, len(moves)):
            if stop > len(moves):
                continue
            for e in pair:
                e.cmd("boardsize 9")
                e.cmd("clear_board")
            for c, v in moves[:stop]:
                assert all(e.cmd(f"play {c} {v}")[0] for e in pair), (k, c, v)
            yield k, stop


class Tally:
    """Agreement with GNU Go per kind of answer; the disagreements are
    kept to be printed."""

    def __init__(self):
        self.counts = collections.defaultdict(lambda: [0, 0])
        self.diffs = []

    def count(self, name, ok, text):
        self.counts[name][1] += 1
        self.counts[name][0] += ok
        if not ok:
            self.diffs.append(text)

    def check(self, thresholds, name, least):
        """Prints every disagreement and share; asserts that `name` was
        asked more than `least` times and each share in `thresholds`."""
        for d in self.diffs:
            print(d)
        for n, (agree, total) in self.counts.items():
            print(f"{n}: {agree}/{total} ({100.0 * agree / total:.1f}%)")
        assert self.counts[name][1] > least
        for n, share in thresholds.items():
            agree, total = self.counts[n]
            assert agree / total >= share, (n, agree, total)


@needs_gnugo
def test_agreement_on_game_positions(pair):
    t, g = pair
    total, agree, diffs, decided = 0, 0, [], 0
    for k, moves in enumerate(games(10)):
        for stop in (40, len(moves)):
            for e in pair:
                e.cmd("boardsize 9")
                e.cmd("clear_board")
            for c, v in moves[:stop]:
                assert t.cmd(f"play {c} {v}")[0] and g.cmd(f"play {c} {v}")[0], (k, c, v)
            points = [f"{COLUMNS[x]}{y + 1}" for y in range(9) for x in range(9)]
            same, diff = compare(pair, points)
            decided += sum(g.cmd(f"unconditional_status {v}")[1] != "undecided" for v in points)
            total += len(points)
            agree += same
            diffs += [f"game {k} move {stop}: {d}" for d in diff]
    for d in diffs:
        print(d)
    print(f"unconditional_status: {agree}/{total} equal, {decided} decided by GNU Go")
    # The test means something only if GNU Go decides many points.
    assert decided > total // 5
    assert agree / total >= 0.975
