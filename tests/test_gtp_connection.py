"""GNU Go's `connect` / `disconnect` in tengen (crates/go/src/connection.rs),
against GNU Go 3.8.

- transcripts: errors, one string, a one-point jump: identical replies;
- agreement on random 9x9 positions: for every pair of strings of one
  colour that are close (a common liberty, or liberties that touch), both
  engines answer `connect` and `disconnect`; the result codes must agree
  on a stated share (connection reading is a judgement; the
  disagreements are printed).
"""
import random

import pytest

from conftest import GNUGO, needs_gnugo
from test_gtp_reading import go_reading_diff

COLUMNS = "ABCDEFGHJ"


@needs_gnugo
def test_errors_and_plain_answers_match_gnugo(pair):
    t, g = pair
    for line in ["boardsize 9", "clear_board", "play b C3", "play w D4", "play b E3",
                 "connect A1 Z1", "connect C3 D4", "disconnect C3 D4", "disconnect A1 C3",
                 "connect C3 A1", "connect C3", "disconnect C3", "connect", "connect C3 pass",
                 "play b C4", "connect C3 C4", "disconnect C4 C3", "connect C3 C3",
                 "known_command connect", "known_command disconnect",
                 "clear_board", "play b C3", "play b E3", "connect C3 E3"]:
        assert t.cmd(line) == g.cmd(line), line


def near(libs1, libs2):
    def touch(a, b):
        ca, cb = COLUMNS.index(a[0]), COLUMNS.index(b[0])
        return abs(ca - cb) + abs(int(a[1:]) - int(b[1:])) <= 1
    return any(touch(a, b) for a in libs1 for b in libs2)


def agreement(t, g, positions, seed):
    rng = random.Random(seed)
    stats = {"connect": [0, 0], "disconnect": [0, 0]}
    dis = []
    for n in range(positions):
        for e in (t, g):
            e.cmd("boardsize 9")
            e.cmd("clear_board")
        for c, v in go_reading_diff.random_position(rng, 9, rng.randrange(20, 45)):
            if g.cmd(f"play {c} {v}")[0]:
                assert t.cmd(f"play {c} {v}")[0]
        worms = []
        for color in ("black", "white"):
            for line in g.cmd(f"worm_stones {color}")[1].split("\n"):
                if line.split():
                    s = line.split()[0]
                    worms.append((color, s, g.cmd(f"findlib {s}")[1].split()))
        for i, (c1, s1, l1) in enumerate(worms):
            for c2, s2, l2 in worms[i + 1:]:
                if c1 != c2 or not near(l1, l2):
                    continue
                for name in ("connect", "disconnect"):
                    rt, rg = t.cmd(f"{name} {s1} {s2}"), g.cmd(f"{name} {s1} {s2}")
                    assert rt[0] and rg[0], (name, s1, s2, rt, rg)
                    stats[name][1] += 1
                    if rt[1].split()[0] == rg[1].split()[0]:
                        stats[name][0] += 1
                    else:
                        dis.append(f"pos {n} {name} {s1} {s2}: tengen {rt[1]!r}, gnugo {rg[1]!r}")
    return stats, dis


@needs_gnugo
def test_connection_codes_agree_with_gnugo(pair):
    t, g = pair
    stats, dis = agreement(t, g, 12, 5)
    for line in dis:
        print(line)
    share = {k: v[0] / max(v[1], 1) for k, v in stats.items()}
    print(stats, share)
    assert stats["connect"][1] >= 40
    assert share["connect"] >= THRESHOLD["connect"]
    assert share["disconnect"] >= THRESHOLD["disconnect"]


THRESHOLD = {"connect": 0.90, "disconnect": 0.75}
