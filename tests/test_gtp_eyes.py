"""GNU Go's eye commands in tengen (crates/go/src/eyes.rs,
crates/engine/src/gtp/eyes.rs), against GNU Go 3.8.

- errors and the reply format (`eval_eye`'s `min max [attack defense]` or
  `-1`, `eye_data`'s and `half_eye_data`'s field blocks) identical;
- hand-made positions (a straight three, a half eye in the corner, dead
  stones inside an eye) answered identically;
- agreement on game positions from docs/matches: the share of equal
  answers is the test, and the disagreements are printed.

GNU Go's `eye_data` and `half_eye_data` print what its last analysis left
behind, so GNU Go is asked `eval_eye` (which analyses) after each new
position before they are compared; tengen always answers for the board.
"""

import pytest

from conftest import needs_gnugo
from test_gtp_unconditional import Tally, game_positions, setup

COLUMNS = "ABCDEFGHJ"

# Least shares (measured on the first 20 games: see docs/go.md).
THRESHOLDS = {
    "eval_eye": 0.85, "eval_eye_minmax": 0.86, "space": 0.93, "origin": 0.87,
    "esize": 0.75, "msize": 0.86, "value": 0.85, "marginal": 0.95,
    "neighbors": 0.92, "marginal_neighbors": 0.90,
    "half_eye_value": 0.93, "half_eye_type": 0.96,
}
EYE_FIELDS = ["origin", "esize", "msize", "value", "marginal", "neighbors", "marginal_neighbors"]


def fields(text):
    return dict((line.split(None, 1) + [""])[:2] for line in text.split("\n"))


@needs_gnugo
def test_errors_and_format_match_gnugo(pair):
    t, g = pair
    lines = [
        "boardsize 9", "clear_board", "play b E5",
        "eval_eye", "eval_eye pass", "eval_eye Z9", "eval_eye x", "eval_eye E5",
        "eval_eye E5 x", "eval_eye D5",
        "eye_data", "eye_data black", "eye_data E5", "eye_data x E5", "eye_data empty E5",
        "eye_data black Z9", "eye_data black pass", "eye_data b E5", "eye_data W D5 junk",
        "half_eye_data", "half_eye_data pass", "half_eye_data Z9", "half_eye_data x",
        "half_eye_data E5", "half_eye_data D5 x",
        "known_command eval_eye", "known_command eye_data", "known_command half_eye_data",
    ]
    for line in lines:
        assert t.cmd(line) == g.cmd(line), line
    assert {"eval_eye", "eye_data", "half_eye_data"} <= set(t.cmd("list_commands")[1].split())
    # The names are padded to 20 columns.
    t.p.stdin.write("eye_data black E5\n")
    t.p.stdin.flush()
    assert t.p.stdout.readline() == "= origin               PASS\n"


HAND_MADE = [
    # A straight three for Black in the corner (1122, vital point B9),
    # White's open board (2222).
    [". . . X O . . . .",
     "X X X X O . . . .",
     "O O O O . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . ."],
    # A half eye in the corner (A9, 0011, key point B8: White's capture
    # there is a ko) and a one-point eye at B8.
    [". X . . X O . . .",
     "X . X X X O . . .",
     "O X O O O . . . .",
     ". O . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . X .",
     ". . . . . . . . ."],
    # Dead black stones inside White's corner: one eye space of six
    # points for White (1122, vital point B9).
    [". . X O . . . . .",
     "X X X O . . . . .",
     "O O O . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . .",
     ". . . . . . . . ."],
]
HAND_POINTS = [["A9", "B9", "C9", "E5", "A7"], ["A9", "B8", "E5"], ["A9", "B9", "A8", "C9", "E5"]]


@needs_gnugo
@pytest.mark.parametrize("k", range(len(HAND_MADE)))
def test_hand_made_positions(pair, k):
    t, g = pair
    setup(pair, HAND_MADE[k])
    for v in HAND_POINTS[k]:
        # eval_eye first: it makes GNU Go analyse the new position.
        for line in [f"eval_eye {v}", f"eye_data black {v}", f"eye_data white {v}"]:
            assert t.cmd(line) == g.cmd(line), line
    assert t.cmd("half_eye_data A9") == g.cmd("half_eye_data A9")


def compare_position(t, g, count, tag):
    g.cmd("eval_eye A1")
    for y in range(9, 0, -1):
        for x in COLUMNS:
            v = f"{x}{y}"
            rt, rg = t.cmd(f"eval_eye {v}")[1], g.cmd(f"eval_eye {v}")[1]
            if rt != "-1" or rg != "-1":
                count("eval_eye", rt == rg, f"{tag} eval_eye {v}: tengen {rt}, gnugo {rg}")
                count("eval_eye_minmax", rt.split()[:2] == rg.split()[:2],
                      f"{tag} eval_eye {v} (min max): tengen {rt}, gnugo {rg}")
            for col in ("black", "white"):
                ft = fields(t.cmd(f"eye_data {col} {v}")[1])
                fg = fields(g.cmd(f"eye_data {col} {v}")[1])
                if ft["color"] == "empty" and fg["color"] == "empty":
                    continue
                count("space", ft["color"] == fg["color"],
                      f"{tag} eye_data {col} {v}: tengen {ft['color']}, gnugo {fg['color']}")
                if ft["color"] == fg["color"]:
                    for name in EYE_FIELDS:
                        count(name, ft[name] == fg[name],
                              f"{tag} eye_data {col} {v} {name}: tengen {ft[name]}, gnugo {fg[name]}")
            ht, hg = fields(t.cmd(f"half_eye_data {v}")[1]), fields(g.cmd(f"half_eye_data {v}")[1])
            if ht["value"] != "10.00" or hg["value"] != "10.00":
                count("half_eye_value", ht["value"] == hg["value"],
                      f"{tag} half_eye_data {v}: tengen {ht['value']}, gnugo {hg['value']}")
                count("half_eye_type", ht["type"] == hg["type"],
                      f"{tag} half_eye_data {v}: tengen {ht['type']}, gnugo {hg['type']}")


@needs_gnugo
def test_game_positions(pair):
    t, g = pair
    tally = Tally()
    count = tally.count
    for k, stop in game_positions(pair, 20):
        compare_position(t, g, count, f"game {k} move {stop}")
    tally.check(THRESHOLDS, "eval_eye", 2000)


@needs_gnugo
def test_orientation(pair):
    """Under every board orientation the replies (vertices moved back out)
    are GNU Go's."""
    t, g = pair
    for n in range(8):
        for e in pair:
            e.cmd("boardsize 9")
            assert e.cmd(f"orientation {n}") == (True, "")
            for m in "b A8,b B8,b C8,b D8,b D9,w A7,w B7,w C7,w D7,w E8,w E9,w F5".split(","):
                assert e.cmd(f"play {m}") == (True, ""), m
        for line in ["eval_eye A9", "eval_eye B9", "eye_data black A9", "eye_data white E5",
                     "eye_data black B9", "half_eye_data A9", "half_eye_data C9"]:
            assert t.cmd(line) == g.cmd(line), (n, line)
    for e in pair:
        e.cmd("orientation 0")
