"""Dynamic komi in handicap games over GTP (crates/go/src/mcts.rs,
`dynamic_komi`): Black's search counts each handicap stone as 7 points of
komi for White at the start, falling linearly to nothing over 200 moves on
19x19 (scaled by area elsewhere) when switched on (off by default: it
lost games on 9x9, docs/strength.md); White's search gets none.
`tengen-dynamic_komi` reports the extra komi Black's search would use;
`on`/`off` switch it for A/B matches (docs/go.md, "The player")."""

import pytest

from test_gtp import Gtp


@pytest.fixture
def eng(tengen_bin):
    g = Gtp([tengen_bin, "--protocol", "gtp"])
    g.ok("tengen-threads 1")
    g.ok("tengen-playouts 300")
    yield g
    g.close()


def test_extra_komi_follows_the_handicap_and_the_moves(eng):
    assert eng.ok("known_command tengen-dynamic_komi") == "true"
    eng.ok("boardsize 19")
    eng.ok("komi 0.5")
    eng.ok("fixed_handicap 4")
    # Off by default.
    assert eng.ok("tengen-dynamic_komi") == "0"
    eng.ok("tengen-dynamic_komi on")
    assert eng.ok("tengen-dynamic_komi") == "28"
    # An even game: nothing.
    eng.ok("clear_board")
    assert eng.ok("tengen-dynamic_komi") == "0"
    eng.ok("fixed_handicap 4")
    assert eng.ok("tengen-dynamic_komi") == "28"
    # 28 * (1 - 1/200) after White's first move; the real komi is untouched.
    eng.ok("play w R14")
    assert eng.ok("tengen-dynamic_komi") == "27.86"
    assert eng.ok("get_komi") == "0.5"
    # The engine plays the handicap game from both sides and never resigns
    # while the extra komi is in force.
    for color in "bwbw":
        move = eng.ok(f"genmove {color}")
        assert move.lower() not in ("resign", "pass")
    eng.ok("tengen-dynamic_komi off")
    assert eng.ok("tengen-dynamic_komi") == "0"
    eng.ok("tengen-dynamic_komi on")
    assert eng.ok("tengen-dynamic_komi") == "27.3"
    for bad in ["yes", "1", "28"]:
        assert eng.fail(f"tengen-dynamic_komi {bad}") == "syntax error"
        assert eng.ok("tengen-dynamic_komi") == "27.3"
    # Free handicap counts as fixed does.
    eng.ok("clear_board")
    eng.ok("set_free_handicap D4 Q16 K10")
    assert eng.ok("tengen-dynamic_komi") == "21"
    # 9x9: two stones are 14 points over 200 * 81 / 361 (about 45) moves.
    eng.ok("boardsize 9")
    eng.ok("fixed_handicap 2")
    assert eng.ok("tengen-dynamic_komi") == "14"
    # White fills the top rows while Black passes: 45 moves in all.
    cols = "ABCDEFGHJ"
    white = [f"{c}{r}" for r in (9, 8) for c in cols] + [f"{c}7" for c in "ABCDE"]
    for k in range(45):
        eng.ok(f"play w {white[k // 2]}" if k % 2 == 0 else "play b pass")
        if k == 43:
            # 14 * (1 - 44 / 44.88): a quarter of a point left.
            assert eng.ok("tengen-dynamic_komi") == "0.27"
    assert eng.ok("tengen-dynamic_komi") == "0"
    eng.ok("clear_board")
    assert eng.ok("tengen-dynamic_komi") == "0"
