"""The Go tree's priors over GTP: `tengen-priors learned|hand` switches
between the learned move strengths (crates/go/src/gammas.rs) and the
hand-made rules, for A/B matches; the learned ones are the default since
session 39 (docs/go.md, "The player")."""

import pytest

from test_gtp import Gtp


@pytest.fixture
def eng(tengen_bin):
    g = Gtp([tengen_bin, "--protocol", "gtp"])
    g.ok("tengen-threads 1")
    g.ok("tengen-playouts 1000")
    yield g
    g.close()


def genmoves(eng, colors):
    """Each colour in turn gets a move that is neither a pass nor a
    resignation."""
    for color in colors:
        move = eng.ok(f"genmove {color}")
        assert move.lower() not in ("resign", "pass"), (color, move)


def test_priors_switch_and_both_play(eng):
    assert eng.ok("known_command tengen-priors") == "true"
    assert eng.ok("tengen-priors") == "learned"
    assert eng.fail("tengen-priors sometimes") == "syntax error"
    eng.ok("boardsize 9")
    for mode in ["hand", "learned"]:
        eng.ok(f"tengen-priors {mode}")
        assert eng.ok("tengen-priors") == mode
        eng.ok("clear_board")
        # White's D5 E5 are in atari (Black C5 D4 D6 E4 E6); extending to
        # F5 gives them three liberties. The learned priors find it at 1000
        # playouts; the hand-made ones (measured: G5) need not.
        for line in ["play b C5", "play w D5", "play b D4", "play w E5",
                     "play b D6", "play w G7", "play b E4", "play w G3",
                     "play b E6"]:
            eng.ok(line)
        assert eng.ok("countlib D5") == "1"
        move = eng.ok("genmove w")
        if mode == "learned":
            assert move == "F5"
        else:
            assert move.lower() != "resign"


@pytest.mark.parametrize(
    "switch", ["tengen-playout_ladders", "tengen-playout_twolibs", "tengen-playout_nakade",
              "tengen-playout_gammas", "tengen-widening"]
)
def test_playout_switches(eng, switch):
    # Playout policy switches (crates/go/src/playout.rs: ladder-aware
    # escapes, on by default; two-liberty fights and nakade fills, off by
    # default) and the tree's progressive widening (mcts.rs, off by
    # default), for A/B matches.
    assert eng.ok(f"known_command {switch}") == "true"
    assert eng.fail(switch) == "syntax error"
    assert eng.fail(f"{switch} maybe") == "syntax error"
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    for line in ["play b E5", "play w D5", "play b E4", "play w F5"]:
        eng.ok(line)
    for mode in ["on", "off"]:
        eng.ok(f"{switch} {mode}")
        genmoves(eng, "b")
        eng.ok("undo")


def test_prior_bonus(eng):
    # Virtual wins added to the learned priors (crates/go/src/mcts.rs,
    # prior_bonus), for A/B matches: by default 300 on 13x13 and up and 0
    # below; a bad count is refused and changes nothing; `default` goes
    # back; a game plays with a count set.
    assert eng.ok("known_command tengen-prior_bonus") == "true"
    for size, bonus in [(19, "300"), (13, "300"), (9, "0")]:
        eng.ok(f"boardsize {size}")
        assert eng.ok("tengen-prior_bonus") == bonus
    for bad in ["-1", "many", "1e3", "100001", "4294967295"]:
        assert eng.fail(f"tengen-prior_bonus {bad}") == "syntax error"
        assert eng.ok("tengen-prior_bonus") == "0"
    eng.ok("tengen-prior_bonus 150")
    assert eng.ok("tengen-prior_bonus") == "150"
    eng.ok("clear_board")
    genmoves(eng, "bwbw")
    eng.ok("boardsize 19")
    assert eng.ok("tengen-prior_bonus") == "150"
    eng.ok("tengen-prior_bonus default")
    assert eng.ok("tengen-prior_bonus") == "300"


def test_extra_komi_follows_the_handicap_and_the_moves(eng):
    # Dynamic komi in handicap games (crates/go/src/mcts.rs,
    # `dynamic_komi`): when switched on (off by default: it lost games on
    # 9x9, docs/strength.md), Black's search counts each handicap stone as
    # 7 points of komi for White at the start, falling linearly to nothing
    # over 200 moves on 19x19 (scaled by area elsewhere); White's search
    # gets none. `tengen-dynamic_komi` reports the extra komi Black's
    # search would use.
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
    genmoves(eng, "bwbw")
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
