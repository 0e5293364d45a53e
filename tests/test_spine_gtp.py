"""Issue 18 for GTP, AGI and Gomocup: no search on the input thread, and
the deviations from the specifications found there, each as a transcript
that failed before its fix.

GNU Go 3.8 (`/usr/games/gnugo --mode gtp`) is the reference where the GTP
specification leaves room: `gg_genmove`/`restricted_genmove` name a move
without playing it, and `loadsgf FILE VERTEX` loads the position before the
first move at that vertex.
"""
import time

import pytest
from sgfmill import sgf

from conftest import debian_game
from test_agi import Agi
from test_gtp import Gtp


@pytest.fixture
def eng(tengen_bin):
    g = Gtp([tengen_bin, "--protocol", "gtp"])
    g.ok("tengen-threads 1")
    g.ok("level 1")
    yield g
    g.close()


def _quit_during_genmove(eng, genmove):
    eng.ok("boardsize 19")
    eng.ok("clear_board")
    eng.ok("time_settings 3600 0 0")  # an hour of sudden death: a long think
    eng.ok("level 100")
    eng.send_raw(f"1 {genmove}\n")
    time.sleep(0.5)  # the search is under way
    t = time.time()
    eng.send_raw("2 quit\n")
    ok, i, _ = eng.response(timeout=30)
    # The move comes first (responses stay in order), then the quit.
    assert ok and i == 1
    assert eng.response(timeout=10) == (True, 2, "")
    eng.p.wait(timeout=5)
    return time.time() - t


def test_quit_ends_a_long_genmove_at_once(eng):
    assert _quit_during_genmove(eng, "genmove b") < 0.5


def test_quit_ends_a_streaming_genmove_at_once(eng):
    # kata-genmove_analyze streams info lines and then `play <move>`.
    eng.ok("boardsize 19")
    eng.ok("clear_board")
    eng.ok("time_settings 3600 0 0")
    eng.ok("level 100")
    eng.send_raw("1 kata-genmove_analyze b 10\n")
    assert eng.readline(timeout=10) == "=1"
    assert eng.readline(timeout=10).startswith("info move ")  # streaming
    t = time.time()
    eng.send_raw("2 quit\n")
    line = eng.readline(timeout=10)
    while line.startswith("info "):
        line = eng.readline(timeout=10)
    assert line.startswith("play ")
    assert eng.readline(timeout=10) == ""
    assert eng.response(timeout=10) == (True, 2, "")
    eng.p.wait(timeout=5)
    assert time.time() - t < 0.5


def test_commands_sent_during_genmove_wait_their_turn(eng):
    # Reading on during a search must not reorder or answer early.
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.ok("tengen-playouts 20000")
    eng.send_raw("1 genmove b\n2 list_stones black\n3 name\n")
    ok, i, mv = eng.response(timeout=60)
    assert ok and i == 1
    assert eng.response(timeout=10) == (True, 2, mv.upper())
    assert eng.response(timeout=10) == (True, 3, "tengen")


def test_printsgf_keeps_setup_stones(eng, tmp_path):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.ok("gogui-setup b C3 b G7 w E5")
    eng.ok("play w D4")
    game = sgf.Sgf_game.from_string(eng.ok("printsgf"))
    root = game.get_root()
    blacks, whites, _ = root.get_setup_stones()
    assert blacks == {(2, 2), (6, 6)} and whites == {(4, 4)}
    assert root.get("PL") == "w"
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert moves == [("w", (3, 3))]
    # And back: the same stones after loading what we wrote.
    path = tmp_path / "setup.sgf"
    eng.ok(f"printsgf {path}")
    eng.ok("clear_board")
    assert eng.ok(f"loadsgf {path}") == "black"
    assert eng.ok("list_stones black") == "C3 G7"
    assert eng.ok("list_stones white") == "D4 E5"


def test_printsgf_keeps_stones_set_up_by_loadsgf(eng, tmp_path):
    path = tmp_path / "ab.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg]AW[ee]PL[W];W[dd];B[ef])")
    assert eng.ok(f"loadsgf {path}") == "white"
    game = sgf.Sgf_game.from_string(eng.ok("printsgf"))
    blacks, whites, _ = game.get_root().get_setup_stones()
    assert blacks == {(6, 2), (2, 6)} and whites == {(4, 4)}
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert moves == [("w", (5, 3)), ("b", (3, 4))]


def test_printsgf_keeps_the_side_to_move_of_a_loaded_setup(eng, tmp_path):
    path = tmp_path / "pl.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]AB[cc][gg]AW[ee]PL[W])")
    assert eng.ok(f"loadsgf {path}") == "white"
    game = sgf.Sgf_game.from_string(eng.ok("printsgf"))
    assert game.get_root().get("PL") == "w"


def test_gg_genmove_and_restricted_genmove_do_not_play(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    mv = eng.ok("gg_genmove black")
    assert mv.lower() != "resign"
    assert eng.ok("list_stones black") == ""
    assert eng.ok("move_history") == ""
    # GNU Go takes a seed after the color.
    eng.ok("gg_genmove white 42")
    assert eng.ok("list_stones white") == ""
    mv = eng.ok("restricted_genmove white E5 D4")
    assert mv.upper() in ("E5", "D4")
    assert eng.ok("list_stones white") == ""
    assert eng.ok("move_history") == ""
    # genmove itself still plays.
    mv = eng.ok("genmove black")
    assert eng.ok("list_stones black") == mv.upper()


GNUGO = debian_game("gnugo")


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")
def test_gnugo_agrees_that_gg_genmove_does_not_play():
    g = Gtp([GNUGO, "--mode", "gtp"])
    try:
        g.ok("boardsize 9")
        g.ok("clear_board")
        g.ok("gg_genmove black")
        assert g.ok("list_stones black") == ""
        g.ok("restricted_genmove white E5 D4")
        assert g.ok("list_stones white") == ""
    finally:
        g.close()


SGF_FOR_VERTEX = "(;GM[1]FF[4]SZ[9]KM[6.5];B[cc];W[dd];B[ef];W[cg];B[gc])"


def _loadsgf_vertex(g, path):
    """What `loadsgf path VERTEX` answers for a few vertices."""
    seen = {}
    for v in ["D6", "E4", "A1", "c7"]:
        color = g.ok(f"loadsgf {path} {v}")
        seen[v] = (color, g.ok("move_history"))
    return seen


def test_loadsgf_with_a_vertex_stops_before_the_first_move_there(eng, tmp_path):
    path = tmp_path / "v.sgf"
    path.write_text(SGF_FOR_VERTEX)
    seen = _loadsgf_vertex(eng, path)
    # D6 is the second move: the position after B C7, White to play.
    assert seen["D6"] == ("white", "black C7")
    assert seen["E4"] == ("black", "white D6\nblack C7")
    # No move at A1: the whole record, Black's turn after W C3... B G7 last.
    assert seen["A1"][0] == "white" and seen["A1"][1].count("\n") == 4
    assert seen["c7"] == ("black", "")  # the first move: an empty board
    assert eng.fail(f"loadsgf {path} Z99") == "syntax error"
    assert eng.fail(f"loadsgf {path} nonsense") == "syntax error"
    if GNUGO is not None:
        g = Gtp([GNUGO, "--mode", "gtp"])
        try:
            assert _loadsgf_vertex(g, path) == seen
        finally:
            g.close()


def test_agi_go_search_with_every_candidate_taken_answers_00(tengen_bin):
    agi = Agi(tengen_bin)
    try:
        agi.send("AGI")
        agi.until("AGIOK")
        agi.send("POSITION MOVES 786869", "GO SEARCH 7868 TIME 1000")
        last = agi.until("BESTMOVE")[-1]
        assert last == "BESTMOVE 00"
        # One free candidate among taken ones: that one, never another.
        agi.send("GO SEARCH 78686A TIME 1000")
        assert agi.until("BESTMOVE")[-1].split()[1] == "6A"
        # INFINITE waits for STOP, then answers 00 as well.
        agi.send("GO SEARCH 7868 INFINITE")
        agi.no_line("BESTMOVE", wait=0.3)
        agi.send("STOP")
        assert agi.until("BESTMOVE")[-1] == "BESTMOVE 00"
    finally:
        agi.close()
