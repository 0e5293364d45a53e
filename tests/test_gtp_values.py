"""GNU Go's move-valuation commands in tengen (crates/engine/src/gtp/values.rs):
`all_move_values`, `move_probabilities`, `move_uncertainty`,
`experimental_score`. tengen answers them from its own search (visit
shares, win rates, the mean final margin), not from GNU Go's valuation,
so what is compared with GNU Go 3.8 is the format, the errors and, on
game positions, the most probable move after `reg_genmove`; the rest are
invariants:

- the probabilities sum to 1, name legal points only, in GNU Go's board
  order (rows from the top), and the uncertainty is their entropy;
- after `genmove` the most probable point is the move played;
- none of the commands changes the game.
"""
import math
import re

from conftest import needs_gnugo
from test_gtp_unconditional import COLUMNS, Tally, game_positions

# Least share of positions where both engines' most probable move is the
# same (measured: docs/go.md).
TOP_MOVE = 0.20

VALUE_LINE = re.compile(r"^[A-HJ-T](\d |\d\d) \d+\.\d\d$")
PROB_LINE = re.compile(r"^[A-HJ-T]\d{1,2} [01]\.\d{4}$")


def order_key(v):
    return (-int(v[1:]), COLUMNS.index(v[0]))


def probabilities(e):
    ok, text = e.cmd("move_probabilities")
    assert ok
    lines = [line for line in text.split("\n") if line.strip()]
    for line in lines:
        assert PROB_LINE.match(line), line
    return [(line.split()[0], float(line.split()[1])) for line in lines]


def state(e):
    return [e.cmd(c) for c in ("showboard", "move_history", "captures black",
                               "captures white")]


@needs_gnugo
def test_errors_and_format_match_gnugo(pair):
    t, g = pair
    for line in ["boardsize 9", "clear_board", "komi 7", "play b E5", "play w C3",
                 "experimental_score", "experimental_score x", "experimental_score E5",
                 "experimental_score pass"] + [f"known_command {c}" for c in (
                     "all_move_values", "move_probabilities", "move_uncertainty",
                     "experimental_score")]:
        assert t.cmd(line) == g.cmd(line), line
    assert t.cmd("tengen-playouts 2000") == (True, "")
    for e in pair:
        assert e.cmd("reg_genmove b")[0]
        ok, text = e.cmd("all_move_values")
        assert ok and text
        for line in text.split("\n"):
            assert VALUE_LINE.match(line), line
        probs = probabilities(e)
        assert probs
        ok, text = e.cmd("move_uncertainty")
        assert ok and re.match(r"^\d+\.\d{4}$", text), text
        for c in ("black", "white"):
            ok, text = e.cmd(f"experimental_score {c}")
            assert ok and re.match(r"^-?\d+\.\d$", text), text


@needs_gnugo
def test_invariants_and_no_state_change(pair):
    t, _ = pair
    assert t.cmd("tengen-threads 1") == (True, "")
    assert t.cmd("tengen-playouts 1500") == (True, "")
    checked = 0
    for k, stop in game_positions(pair, 6):
        tag = f"game {k} move {stop}"
        to_move = "white" if t.cmd("move_history")[1].split()[:1] == ["black"] else "black"
        before = state(t)
        probs = probabilities(t)  # no search yet for this position: one now
        assert state(t) == before, tag
        if not probs:
            # Only pass was searched (the end of a game).
            assert t.cmd("move_uncertainty") == (True, "0.0000"), tag
            continue
        names = [v for v, _ in probs]
        assert names == sorted(names, key=order_key), (tag, names)
        assert abs(sum(p for _, p in probs) - 1.0) < 0.0005 * len(probs) + 1e-9, (tag, probs)
        for v, _ in probs:
            assert t.cmd(f"is_legal {to_move} {v}") == (True, "1"), (tag, v)
        bits = float(t.cmd("move_uncertainty")[1])
        entropy = -sum(p * math.log2(p) for _, p in probs if p > 0)
        assert abs(bits - entropy) < 0.002 * len(probs) + 0.001, (tag, bits, entropy)
        values = [line for line in t.cmd("all_move_values")[1].split("\n") if line.strip()]
        assert {line.split()[0] for line in values} <= set(names), tag
        assert all(0 < float(line.split()[1]) <= 100 for line in values), tag
        for c in ("black", "white"):
            assert t.cmd(f"experimental_score {c}")[0]
        assert state(t) == before, tag
        # After a genmove the values are those of its search: the most
        # probable point is the move it played.
        ok, move = t.cmd(f"genmove {to_move}")
        assert ok
        if move.lower() not in ("pass", "resign"):
            probs = probabilities(t)
            best = max(probs, key=lambda x: x[1])[0]
            assert best == move.upper(), (tag, move, probs)
            checked += 1
    assert checked >= 4


@needs_gnugo
def test_top_move_against_gnugo(pair):
    """The most probable move after `reg_genmove` of the side to move, in
    both engines, on game positions: a judgement, agreement on a share."""
    t, g = pair
    assert t.cmd("tengen-threads 1") == (True, "")
    assert t.cmd("tengen-playouts 3000") == (True, "")
    # GNU Go seeds its move randomness from the clock otherwise.
    for e in pair:
        assert e.cmd("set_random_seed 1") == (True, "")
    tally = Tally()
    for k, stop in game_positions(pair, 20):
        if stop == 60 or stop > 60:
            continue
        to_move = "white" if g.cmd("move_history")[1].split()[:1] == ["black"] else "black"
        best = []
        for e in pair:
            assert e.cmd(f"reg_genmove {to_move}")[0]
            probs = probabilities(e)
            best.append(max(probs, key=lambda x: x[1])[0] if probs else "PASS")
        if best[1] == "PASS":
            # GNU Go valued no move (it passes): nothing to compare.
            continue
        tally.count("top_move", best[0] == best[1],
                    f"game {k} move {stop}: tengen {best[0]}, gnugo {best[1]}")
    tally.check({"top_move": TOP_MOVE}, "top_move", 10)
