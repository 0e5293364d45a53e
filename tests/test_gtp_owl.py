"""GNU Go's life-and-death commands in tengen (crates/go/src/owl.rs,
crates/go/src/combination.rs, crates/engine/src/gtp/owl.rs), against GNU
Go 3.8: `owl_attack`, `owl_defend`, `owl_does_attack`, `owl_does_defend`,
`analyze_semeai`, `tactical_analyze_semeai`, `combination_attack`,
`combination_defend`.

- errors and the reply format identical;
- hand-made positions (a semeai, a nakade) answered identically, also
  under every board orientation;
- agreement on game positions from docs/matches: the share of equal
  answers is the test, and the disagreements are printed.
"""
import pytest

from conftest import needs_gnugo
from test_gtp_unconditional import Tally, game_positions, setup

# Least shares (owl_attack and owl_defend measured on the first 20 games,
# the rest on the first 10: see docs/go.md).
THRESHOLDS = {
    "owl_attack": 0.90,
    "owl_attack_move": 0.50,
    "owl_defend": 0.92,
    "owl_defend_move": 0.53,
    "owl_does_attack": 0.84,
    "owl_does_defend": 0.86,
    "analyze_semeai": 0.76,
    "analyze_semeai_move": 0.45,
    "tactical_analyze_semeai": 0.48,
    "combination_attack": 0.95,
    "combination_defend": 0.95,
}

COMMANDS = ["owl_attack", "owl_defend", "owl_does_attack", "owl_does_defend",
            "analyze_semeai", "tactical_analyze_semeai", "combination_attack",
            "combination_defend"]


@needs_gnugo
def test_errors_and_format_match_gnugo(pair):
    t, g = pair
    lines = ["boardsize 9", "clear_board", "play b E5", "play w D5", "play w C3"]
    for name in ["owl_attack", "owl_defend"]:
        lines += [name, f"{name} pass", f"{name} Z9", f"{name} A1", f"{name} x"]
    for name in ["owl_does_attack", "owl_does_defend"]:
        lines += [name, f"{name} A1", f"{name} E5 D5", f"{name} pass D5", f"{name} A1 A2",
                  f"{name} A1 pass", f"{name} E5", f"{name} Z1 E5", f"{name} A1 x"]
    for name in ["analyze_semeai", "tactical_analyze_semeai"]:
        lines += [name, f"{name} E5", f"{name} A1 E5", f"{name} E5 A1", f"{name} pass E5",
                  f"{name} E5 pass", f"{name} E5 Z9"]
    for name in ["combination_attack", "combination_defend"]:
        lines += [name, f"{name} x", f"{name} E5", f"{name} b", f"{name} WHITE", f"{name} black x"]
    lines += [f"known_command {c}" for c in COMMANDS]
    for line in lines:
        assert t.cmd(line) == g.cmd(line), line
    assert set(COMMANDS) <= set(t.cmd("list_commands")[1].split())
    # GNU Go aborts on two dragons of one colour; tengen refuses.
    assert t.cmd("analyze_semeai E5 E5") == (False, "dragons must have different colors")


# A semeai (the white string has two liberties against the black
# string's corner of four) and a straight three on the edge.
SEMEAI = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X X . . .",
    "O O O O O X . . .",
    "X X X X O X X . .",
    ". . . X O . X . .",
    ". . . X O . X . .",
]
NAKADE = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "O O O O O O . . .",
    "X X X X X O . . .",
    "X . . . X O . . .",
]
HAND_MADE = [
    (SEMEAI, ["owl_attack E4", "owl_defend E4", "owl_attack A3", "owl_defend A3",
              "owl_does_attack F2 E4", "owl_does_defend F2 E4", "owl_does_attack B2 A3",
              "analyze_semeai A3 E4", "analyze_semeai E4 A3",
              "tactical_analyze_semeai A3 E4", "tactical_analyze_semeai E4 A3"]),
    (NAKADE, ["owl_attack A2", "owl_defend A2", "owl_does_attack C1 A2",
              "owl_does_defend C1 A2", "owl_does_defend B1 A2", "owl_does_attack B1 A2",
              "owl_attack F2", "owl_defend F2"]),
]


@needs_gnugo
@pytest.mark.parametrize("k", range(len(HAND_MADE)))
def test_hand_made_positions(pair, k):
    t, g = pair
    rows, lines = HAND_MADE[k]
    setup(pair, rows)
    for line in lines:
        assert t.cmd(line) == g.cmd(line), line


@needs_gnugo
@pytest.mark.parametrize("n", range(1, 8))
def test_orientation(pair, n):
    """Under a board orientation the same questions, asked in the outside
    frame, get the same replies (moves moved back out)."""
    t, g = pair
    for rows, lines in HAND_MADE:
        for e in pair:
            assert e.cmd(f"orientation {n}") == (True, "")
        size = len(rows)
        for i, row in enumerate(rows):
            for x, ch in enumerate(row.split()):
                if ch in "XO":
                    v = f"{'ABCDEFGHJ'[x]}{size - i}"
                    for e in pair:
                        assert e.cmd(f"play {'b' if ch == 'X' else 'w'} {v}") == (True, "")
        for line in lines:
            rt, rg = t.cmd(line), g.cmd(line)
            if line.startswith(("owl_attack", "owl_defend", "analyze", "tactical")):
                # The codes agree; a move may be another one as good (ties
                # are broken in the internal frame's board order), so it
                # must do what it claims.
                words = 2 if "semeai" in line else 1
                assert rt[1].split()[:words] == rg[1].split()[:words], (n, line, rt, rg)
                move = rt[1].split()[-1]
                if line.startswith("owl") and move not in ("0", "PASS"):
                    does = line.replace("owl_", "owl_does_").replace(" ", f" {move} ", 1)
                    assert t.cmd(does) == (True, "1"), (n, line, rt, does)
            else:
                assert rt == rg, (n, line)


def neighbours(v):
    cols = "ABCDEFGHJ"
    x, y = cols.index(v[0]), int(v[1:])
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < 9 and 1 <= y + dy <= 9:
            yield f"{cols[x + dx]}{y + dy}"


@needs_gnugo
def test_game_positions(pair):
    t, g = pair
    tally = Tally()
    count = tally.count
    for k, stop in game_positions(pair, 20):
        tag = f"game {k} move {stop}"
        dragons = [line.split(":") for line in g.cmd("dragon_status")[1].split("\n")]
        owner, colour = {}, {}
        for v, status in dragons:
            colour[v] = g.cmd(f"color {v}")[1]
            for s in g.cmd(f"dragon_stones {v}")[1].split():
                owner[s] = v
        for v, status in dragons:
            status = status.strip()
            moves = set()
            for name in ["owl_attack", "owl_defend"]:
                rt, rg = t.cmd(f"{name} {v}"), g.cmd(f"{name} {v}")
                assert rt[0], (tag, name, v, rt)
                code_t, code_g = rt[1].split()[0], rg[1].split()[0]
                count(name, code_t == code_g,
                      f"{tag} {name} {v} ({status}): tengen {rt[1]}, gnugo {rg[1]}")
                if code_g != "0":
                    count(name + "_move", rt == rg,
                          f"{tag} {name} {v} move ({status}): tengen {rt[1]}, gnugo {rg[1]}")
                moves |= {r.split()[1] for r in (rt[1], rg[1]) if len(r.split()) > 1}
            # The moves either engine named, asked of both (first ten games).
            for m in sorted(moves - {"PASS"}) if k < 10 else []:
                for name in ["owl_does_attack", "owl_does_defend"]:
                    rt, rg = t.cmd(f"{name} {m} {v}"), g.cmd(f"{name} {m} {v}")
                    count(name, rt == rg,
                          f"{tag} {name} {m} {v} ({status}): tengen {rt[1]}, gnugo {rg[1]}")
        for c in ["black", "white"]:
            for name in ["combination_attack", "combination_defend"]:
                rt, rg = t.cmd(f"{name} {c}"), g.cmd(f"{name} {c}")
                count(name, rt == rg, f"{tag} {name} {c}: tengen {rt[1]}, gnugo {rg[1]}")
        if k >= 10:
            continue
        # Every ordered pair of touching dragons of opposite colours.
        pairs = sorted({(owner[s], owner[n]) for s in owner for n in neighbours(s)
                        if n in owner and colour[owner[n]] != colour[owner[s]]})
        for a, b in pairs:
            for name in ["analyze_semeai", "tactical_analyze_semeai"]:
                rt, rg = t.cmd(f"{name} {a} {b}"), g.cmd(f"{name} {a} {b}")
                assert rt[0] and len(rt[1].split()) == 3, (tag, name, a, b, rt)
                count(name, rt[1].split()[:2] == rg[1].split()[:2],
                      f"{tag} {name} {a} {b}: tengen {rt[1]}, gnugo {rg[1]}")
                if name == "analyze_semeai":
                    count(name + "_move", rt == rg,
                          f"{tag} {name} {a} {b} whole: tengen {rt[1]}, gnugo {rg[1]}")
    tally.check(THRESHOLDS, "owl_attack", 300)
