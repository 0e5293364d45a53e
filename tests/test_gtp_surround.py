"""GNU Go's surround commands in tengen (crates/go/src/surround.rs,
crates/engine/src/gtp/surround.rs), against GNU Go 3.8.

- errors and the reply format identical;
- a hand-made position (a stone in the middle of four third-line stones)
  answered identically on every point;
- agreement on game positions from docs/matches: the share of equal
  answers is the test, and the disagreements are printed.
"""

from conftest import needs_gnugo
from test_gtp_unconditional import Tally, game_positions, setup

COLUMNS = "ABCDEFGHJ"

# Least shares (measured on the first 20 games, `does_surround` on the
# first 5: see docs/go.md).
THRESHOLDS = {"is_surrounded": 0.75, "surround_map": 0.47, "does_surround": 0.90}


@needs_gnugo
def test_errors_and_format_match_gnugo(pair):
    t, g = pair
    lines = [
        "boardsize 9", "clear_board", "play b E5", "play w C7", "play w G7", "play w C3",
        "play w G3",
        "is_surrounded", "is_surrounded pass", "is_surrounded Z9", "is_surrounded A1",
        "is_surrounded E5", "is_surrounded E5 x",
        "does_surround", "does_surround A1", "does_surround pass E5", "does_surround A1 pass",
        "does_surround E5 E5", "does_surround A1 A2", "does_surround C7 E5", "does_surround A1 E5",
        "surround_map", "surround_map E5", "surround_map E5 pass", "surround_map A1 A1",
        "surround_map E5 E5", "surround_map E5 A9", "surround_map E5 A8", "surround_map C7 C7",
        "known_command is_surrounded", "known_command does_surround",
        "known_command surround_map",
    ]
    for line in lines:
        assert t.cmd(line) == g.cmd(line), line
    assert {"is_surrounded", "does_surround", "surround_map"} <= set(t.cmd("list_commands")[1].split())


@needs_gnugo
def test_hand_made_position(pair):
    t, g = pair
    setup(pair, [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . O . . . O . .",
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . . . . . .",
        ". . O . . . O . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ])
    for v in ["E5", "C7", "G3"]:
        assert t.cmd(f"is_surrounded {v}") == g.cmd(f"is_surrounded {v}"), v
    for y in range(9, 0, -1):
        for x in COLUMNS:
            for line in [f"surround_map E5 {x}{y}", f"does_surround {x}{y} E5"]:
                assert t.cmd(line) == g.cmd(line), line


@needs_gnugo
def test_game_positions(pair):
    t, g = pair
    tally = Tally()
    count = tally.count
    for k, stop in game_positions(pair, 20):
        tag = f"game {k} move {stop}"
        # Every GNU Go dragon, asked at its origin.
        for line in g.cmd("dragon_status")[1].split("\n"):
            v = line.split(":")[0]
            rt, rg = t.cmd(f"is_surrounded {v}"), g.cmd(f"is_surrounded {v}")
            assert rt[0] and rt[1] in ("0", "1", "2"), (tag, v, rt)
            count("is_surrounded", rt == rg, f"{tag} is_surrounded {v}: tengen {rt[1]}, gnugo {rg[1]}")
            points = [f"{x}{y}" for y in range(9, 0, -1) for x in COLUMNS]
            if rt == rg and rg[1] != "0":
                for p in points:
                    a, b = t.cmd(f"surround_map {v} {p}"), g.cmd(f"surround_map {v} {p}")
                    count("surround_map", a == b, f"{tag} surround_map {v} {p}: tengen {a[1]}, gnugo {b[1]}")
            if k < 5:
                for p in points:
                    a, b = t.cmd(f"does_surround {p} {v}"), g.cmd(f"does_surround {p} {v}")
                    if b[0]:
                        count("does_surround", a == b, f"{tag} does_surround {p} {v}: tengen {a[1]}, gnugo {b[1]}")
    tally.check(THRESHOLDS, "is_surrounded", 300)
