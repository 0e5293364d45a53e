"""GTP conformance of `tengen` for Go, driven like a real controller.

A small GTP client (spawn, send, read until the blank line, check `=`/`?`
and the echoed id) talks to the engine; the same client drives GNU Go for
short games scored by our own Tromp-Taylor scorer (sgfmill replays them).
"""
import os
import queue
import re
import subprocess
import tempfile
import threading
import time

import pytest
from sgfmill import boards, sgf

from conftest import debian_game

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    """A GTP controller over a child process's pipes."""

    def __init__(self, argv):
        self.p = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def readline(self, timeout=60):
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise EOFError("engine closed stdout")
        return line

    def send_raw(self, text):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def response(self, timeout=60):
        """Reads one response: returns (ok, id, text)."""
        line = self.readline(timeout)
        while line.strip() == "":  # controllers skip blank lines between
            line = self.readline(timeout)
        assert line[0] in "=?", f"not a response: {line!r}"
        m = re.match(r"^([=?])(\d*)(?: (.*))?$", line)
        assert m, f"bad response head {line!r}"
        body = [m.group(3) or ""]
        while True:
            nxt = self.readline(timeout)
            if nxt == "":
                break
            body.append(nxt)
        return m.group(1) == "=", (int(m.group(2)) if m.group(2) else None), "\n".join(body).strip()

    def cmd(self, text, timeout=60):
        self.send_raw(text + "\n")
        return self.response(timeout)

    def ok(self, text, timeout=60):
        ok, _, body = self.cmd(text, timeout)
        assert ok, f"{text!r} failed: {body}"
        return body

    def fail(self, text):
        ok, _, body = self.cmd(text)
        assert not ok, f"{text!r} should fail, got {body!r}"
        return body

    def close(self):
        try:
            self.send_raw("quit\n")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


@pytest.fixture
def eng(tengen_bin):
    g = Gtp([tengen_bin, "--protocol", "gtp"])
    g.ok("tengen-threads 1")
    g.ok("level 1")
    yield g
    g.close()


def test_framing_ids_comments_and_blank_lines(tengen_bin):
    g = Gtp([tengen_bin])  # detected from the first command
    g.send_raw("1 protocol_version\n")
    assert g.readline() == "=1 2"
    assert g.readline() == ""
    # No id: no id in the reply, and the space is always written.
    g.send_raw("boardsize 9\n")
    assert g.readline() == "= "
    assert g.readline() == ""
    # Comments, blank lines, CR and control characters are dropped.
    g.send_raw("# a comment line\n\n   \n\t\n2 na\x01me\r\n")
    assert g.readline() == "=2 tengen"
    assert g.readline() == ""
    g.send_raw("play\tblack E5   # comment is stripped\n")
    assert g.response() == (True, None, "")
    assert g.cmd("5 play white E5") == (False, 5, "illegal move")
    # Names are case-sensitive, arguments are not.
    assert g.cmd("7 PLAY b c3") == (False, 7, "unknown command")
    assert g.cmd("8 play B c3") == (True, 8, "")
    assert g.cmd("-5 name")[0] is False  # -5 is not an id: unknown command
    assert g.cmd("10 frobnicate") == (False, 10, "unknown command")
    # Pipelined commands are answered in order.
    g.send_raw("11 name\n12 version\n13 protocol_version\n")
    assert [g.response()[1] for _ in range(3)] == [11, 12, 13]
    assert g.cmd("99 quit") == (True, 99, "")
    assert g.p.wait(timeout=10) == 0


def test_admin_commands(eng):
    assert eng.ok("protocol_version") == "2"
    assert eng.ok("name") == "tengen"
    assert eng.ok("version")
    cmds = eng.ok("list_commands").split("\n")
    standard = (
        "protocol_version name version known_command list_commands quit boardsize "
        "clear_board komi fixed_handicap place_free_handicap set_free_handicap play "
        "genmove undo time_settings time_left final_score final_status_list loadsgf "
        "reg_genmove showboard is_legal all_legal captures color list_stones countlib "
        "findlib last_move move_history estimate_score final_status top_moves printsgf "
        "echo cputime level gg-undo set_random_seed get_random_seed kgs-genmove_cleanup "
        "kgs-time_settings restricted_genmove lz-analyze kata-analyze gogui-analyze_commands "
        "gogui-interrupt"
    ).split()
    for c in standard:
        assert c in cmds, c
        assert eng.ok(f"known_command {c}") == "true"
    assert eng.ok("known_command nonsense") == "false"
    assert eng.ok("echo hello   world") == "hello world"
    assert float(eng.ok("cputime")) >= 0.0
    eng.ok("set_random_seed 42")
    assert eng.ok("get_random_seed") == "42"
    analyze = eng.ok("gogui-analyze_commands").split("\n")
    assert all(len(x.split("/")) >= 3 for x in analyze)
    assert eng.ok("gogui_analyze_commands").split("\n") == analyze


def test_setup_commands_and_errors(eng):
    assert eng.fail("boardsize 1") == "unacceptable size"
    assert eng.fail("boardsize 26") == "unacceptable size"
    assert eng.fail("boardsize x") == "syntax error"
    eng.ok("boardsize 25")
    assert eng.ok("query_boardsize") == "25"
    eng.ok("play b Z25")
    eng.ok("boardsize 19")  # clears the board
    assert eng.ok("list_stones black") == ""
    eng.ok("komi -3.5")
    assert eng.ok("get_komi") == "-3.5"
    assert eng.fail("komi abc") == "syntax error"
    eng.ok("komi 7.5")
    # Fixed handicap (GNU Go's placement).
    assert set(eng.ok("fixed_handicap 2").split()) == {"D4", "Q16"}
    assert eng.fail("fixed_handicap 2") == "board not empty"
    assert eng.ok("get_handicap") == "2"
    eng.ok("clear_board")
    assert set(eng.ok("fixed_handicap 9").split()) == set(
        "D4 Q16 D16 Q4 K10 D10 Q10 K4 K16".split()
    )
    eng.ok("clear_board")
    assert eng.fail("fixed_handicap 1") == "invalid number of stones"
    assert eng.fail("fixed_handicap 10") == "invalid number of stones"
    assert eng.fail("fixed_handicap") == "syntax error"
    eng.ok("boardsize 9")
    assert set(eng.ok("fixed_handicap 5").split()) == set("C3 G7 C7 G3 E5".split())
    eng.ok("clear_board")
    free = eng.ok("place_free_handicap 3").split()
    assert len(set(free)) == 3
    assert sorted(eng.ok("list_stones black").split()) == sorted(free)
    assert eng.fail("place_free_handicap 3") == "board not empty"
    eng.ok("clear_board")
    assert eng.fail("place_free_handicap 1") == "invalid number of stones"
    assert eng.fail("set_free_handicap C3") == "bad vertex list"
    assert eng.fail("set_free_handicap C3 C3") == "bad vertex list"
    assert eng.fail("set_free_handicap C3 pass") == "bad vertex list"
    assert eng.fail("set_free_handicap C3 Z99") == "syntax error"
    eng.ok("set_free_handicap C3 G7")
    assert eng.ok("list_stones black") == "C3 G7"
    # Setup stones cannot be undone.
    assert eng.fail("undo") == "cannot undo"


def test_play_undo_and_queries(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    for mv in ["b E5", "w E6", "w D5", "w F5"]:
        eng.ok(f"play {mv}")
    assert eng.ok("countlib E5") == "1"
    assert eng.ok("findlib E5") == "E4"
    assert eng.fail("countlib A1") != ""
    assert eng.ok("is_legal b E4") == "1"
    eng.ok("play w E4")
    assert eng.ok("captures white") == "1"
    assert eng.ok("color E5") == "empty"
    assert eng.ok("color E4") == "white"
    assert eng.ok("is_legal b E5") == "0"  # suicide
    assert eng.fail("play b E5") == "illegal move"
    assert eng.fail("play b E4") == "illegal move"  # occupied
    assert eng.fail("play b") == "syntax error"
    assert eng.fail("play x E4") == "syntax error"
    assert eng.fail("play b K5") == "syntax error"  # off a 9x9 board
    assert eng.ok("last_move") == "white E4"
    hist = eng.ok("move_history").split("\n")
    assert hist[0] == "white E4" and hist[-1] == "black E5" and len(hist) == 5
    assert "E5" not in eng.ok("all_legal black").split()
    assert eng.ok("accuratelib b J9") == "H9 J8"  # a list, as GNU Go 3.8
    eng.ok("undo")
    assert eng.ok("color E5") == "black"
    assert eng.ok("captures white") == "0"
    eng.ok("gg-undo 2")
    assert eng.ok("list_stones white") == "E6"
    assert eng.fail("gg-undo 5") == "cannot undo"
    eng.ok("play b pass")
    assert eng.ok("last_move") == "black pass"
    board = eng.ok("showboard")
    assert "\n\n" not in board and "A B C D E F G H J" in board


def test_ko_and_superko_rules(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    # Send two, return one: illegal under positional superko (default).
    for mv in "b A2, w B2, b A3, w C2, b B1, w D1, b C1, w A1".split(", "):
        eng.ok(f"play {mv}")
    assert eng.ok("is_legal b B1") == "0"
    assert eng.fail("play b B1") == "illegal move"
    eng.ok("tengen-ko_rule situational")
    assert eng.ok("is_legal b B1") == "1"
    eng.ok("tengen-ko_rule simple")
    assert eng.ok("is_legal b B1") == "1"
    eng.ok("tengen-ko_rule positional")
    assert eng.fail("tengen-ko_rule nonsense") == "syntax error"


def test_genmove_undo_and_reg_genmove(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    v = eng.ok("reg_genmove b")
    assert re.fullmatch(r"[A-HJ][1-9]|pass", v, re.I)
    assert eng.ok("list_stones black") == ""  # not played
    v = eng.ok("genmove b")
    assert eng.ok("list_stones black") == v
    assert eng.ok("last_move") == f"black {v}"
    eng.ok("undo")
    assert eng.ok("list_stones black") == ""
    assert eng.fail("genmove x") == "syntax error"
    # restricted_genmove only picks from the list, or passes when no
    # listed move is worth playing (GNU Go 3.8 answers PASS to this one on
    # the empty board)...
    assert eng.ok("restricted_genmove w A1 J9") in ("A1", "J9", "pass")
    # ...and takes a listed move that captures four stones.
    for line in ["play b D5", "play w C5", "play b D6", "play w C6",
                 "play b E5", "play w E4", "play b E6", "play w D4",
                 "play b B9", "play w F5", "play b A9", "play w F6",
                 "play b A8", "play w D7", "play b B8"]:
        eng.ok(line)
    assert eng.ok("countlib D5") == "1"
    assert eng.ok("restricted_genmove w A1 E7 J9") == "E7"
    assert eng.ok("list_stones white").split().count("E7") == 0  # not played
    # After two passes genmove still answers a legal move or pass.
    eng.ok("clear_board")
    eng.ok("play b pass")
    eng.ok("play w pass")
    v = eng.ok("genmove b")
    assert v != "resign"


def test_gogui_interrupt_ends_a_long_genmove(eng):
    # GoGui: `gogui-interrupt` is known, then a `# interrupt` comment line
    # while a command runs makes it answer now. A command sent during the
    # search is still answered, in order, after the genmove.
    assert eng.ok("gogui-interrupt") == ""
    eng.ok("boardsize 19")
    eng.ok("clear_board")
    eng.ok("level 100")  # 200,000 playouts: many seconds on 19x19
    t = time.time()
    eng.send_raw("1 genmove b\n")
    time.sleep(0.5)
    eng.send_raw("2 name\n")
    eng.send_raw("# interrupt\n")
    ok, i, mv = eng.response(timeout=30)
    assert ok and i == 1 and re.fullmatch(r"[A-HJ-T]\d{1,2}|pass", mv, re.I), mv
    assert time.time() - t < 5.0
    assert eng.response(timeout=10) == (True, 2, "tengen")
    assert eng.cmd("3 name") == (True, 3, "tengen")  # nothing lost or doubled
    assert eng.ok("list_stones black") == mv.upper()
    # The same line outside a command is only a comment.
    eng.send_raw("# interrupt\n")
    assert eng.ok("name") == "tengen"
    eng.ok("level 1")


def test_fixed_playouts_override_the_clock(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    assert eng.ok("tengen-playouts") == "0"
    eng.ok("tengen-playouts 300")
    assert eng.ok("tengen-playouts") == "300"
    # A 5 s byo-yomi would take seconds; 300 playouts answer at once.
    eng.ok("time_settings 0 5 1")
    t = time.time()
    eng.ok("genmove b")
    assert time.time() - t < 2.0
    eng.ok("tengen-playouts 0")
    t = time.time()
    eng.ok("genmove w")
    assert time.time() - t > 2.0  # the clock rules again
    eng.ok("tengen-playouts 300")
    assert eng.fail("tengen-playouts x") == "syntax error"
    eng.ok("tengen-playouts 0")
    assert eng.ok("tengen-playouts") == "0"
    eng.ok("time_settings 0 0 0")


def test_gogui_and_katago_setup_commands(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    assert eng.ok("gogui-title").startswith("tengen")
    eng.ok("gogui-setup b C3 w G7 b E5")
    assert eng.ok("list_stones black") == "C3 E5"
    assert eng.ok("list_stones white") == "G7"
    assert eng.fail("undo") == "cannot undo"  # setup stones are no moves
    # All or nothing: a bad vertex, an occupied point, a doubled point.
    assert eng.fail("gogui-setup b D4 w Z9") == "syntax error"
    assert eng.fail("gogui-setup b C3") == "illegal setup"
    assert eng.fail("gogui-setup b D4 w D4") == "illegal setup"
    assert eng.fail("gogui-setup b D4 w") == "syntax error"
    assert eng.ok("list_stones black") == "C3 E5"
    eng.ok("gogui-undo_setup")
    assert eng.ok("list_stones black") == ""
    assert eng.fail("gogui-undo_setup") == "cannot undo"
    eng.ok("play b D4")
    eng.ok("set_position w A1 b B2")
    assert eng.ok("list_stones black") == "B2"
    assert eng.ok("list_stones white") == "A1"
    eng.ok("set_position")
    assert eng.ok("list_stones black") == ""


def test_time_controls_are_accepted_and_respected(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    assert eng.fail("time_settings 10 0") == "syntax error"
    eng.ok("time_settings 0 2 1")  # Canadian: 2 s per move
    eng.ok("time_left b 2 1")
    t = time.time()
    eng.ok("genmove b", timeout=10)
    assert time.time() - t < 2.0
    eng.ok("time_settings 3 0 0")  # absolute 3 s
    eng.ok("time_left w 3 0")
    t = time.time()
    eng.ok("genmove w", timeout=10)
    assert time.time() - t < 1.5
    eng.ok("kgs-time_settings byoyomi 0 1 3")
    eng.ok("time_left b 1 3")
    t = time.time()
    eng.ok("genmove b", timeout=10)
    assert time.time() - t < 1.0
    eng.ok("kgs-time_settings canadian 0 5 5")
    eng.ok("kgs-time_settings absolute 60")
    eng.ok("kgs-time_settings none")
    assert eng.fail("kgs-time_settings weird 1") == "syntax error"
    assert eng.fail("time_left b x 0") == "syntax error"


def test_scoring_commands(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.ok("komi 7.5")
    # Black wall on column E, White on F; a lone dead white stone at B5,
    # hemmed in by Black's B3, C5, B7. (Status comes from a search's
    # ownership: with the 36 points around B5 open, runs differ on it
    # with either priors, while GNU Go's owl kills it with B7.)
    for y in range(1, 10):
        eng.ok(f"play b E{y}")
        eng.ok(f"play w F{y}")
    for line in ["play w B5", "play b C5", "play b B7", "play b B3"]:
        eng.ok(line)
    dead = eng.ok("final_status_list dead").split()
    assert dead == ["B5"]
    assert eng.ok("final_status B5") == "dead"
    assert eng.ok("final_status E5") == "alive"
    assert eng.ok("final_status A1") == "black_territory"
    assert eng.ok("final_status J1") == "white_territory"
    # 45 - 36 - 7.5 once B5 is removed, the GNU Go value of rules.jsonl.
    assert eng.ok("final_score") == "B+1.5"
    alive = eng.ok("final_status_list alive").split()
    assert "B5" not in alive and len(alive) == 21
    assert eng.ok("final_status_list seki") == ""
    assert eng.fail("final_status_list nonsense") == "syntax error"
    assert re.match(r"[BW]\+[\d.]+|0", eng.ok("estimate_score"))


# Seki positions (9x9, komi 7, top row first), each with the seki stones
# GNU Go 3.8 lists; the third is a false seki (Black's sacrifice at C2
# leaves White a dead bulky five) that both programs list no seki for.
SEKI_POSITIONS = [
    (
        [
            "X . . . . . X O .",
            ". . . . . . X O .",
            ". . . . . . X O .",
            ". . . . . . X O .",
            ". . . . . . X O .",
            "X X X X X X X O .",
            "O O O O O O X O .",
            "X X X X . O X O .",
            "X X X X . O X O .",
        ],
        "A1 B1 C1 D1 A2 B2 C2 D2 A3 B3 C3 D3 E3 F3 F2 F1",
    ),
    (
        [
            ". X . O . O X O .",
            "X X O O O O X O O",
            "O O O X X X X O .",
            "X X X X X X X O O",
            ". X . X . X X O .",
            "X X X X X X X O O",
            ". X . X . X X O .",
            "X X X X X X X O O",
            ". X . X . X X O .",
        ],
        "B9 A8 B8 D9 F9 C8 D8 E8 F8 A7 B7 C7",
    ),
    (
        [
            ". . . . . X O . .",
            ". . . . . X O . .",
            ". . . . . X O . .",
            ". . . . . X O . .",
            ". . . . . X O . .",
            "X X X X X X O . .",
            "O O O O X X O . .",
            "X X . O X X O . .",
            "X X . O X X O . .",
        ],
        "",
    ),
]


def _setup_diagram(gtp, rows):
    gtp.ok("boardsize 9")
    gtp.ok("clear_board")
    gtp.ok("komi 7")
    for r, row in enumerate(rows):
        for x, ch in enumerate(row.split()):
            if ch in "XO":
                gtp.ok(f"play {'b' if ch == 'X' else 'w'} {COLUMNS[x]}{9 - r}")


@pytest.mark.parametrize("rows,seki", SEKI_POSITIONS)
def test_seki_is_listed_and_never_dead(eng, rows, seki):
    _setup_diagram(eng, rows)
    want = sorted(seki.split())
    assert sorted(eng.ok("final_status_list seki").split()) == want
    dead = eng.ok("final_status_list dead").split()
    assert not set(dead) & set(want)
    alive = eng.ok("final_status_list alive").split()
    assert not set(alive) & set(want)
    for v in want[:2]:
        assert eng.ok(f"final_status {v}") == "seki"
    gnugo = debian_game("gnugo")
    if gnugo is None or not seki:
        return
    # The reference: GNU Go's own lists and score for the same position.
    ref = Gtp([gnugo, "--mode", "gtp", "--chinese-rules"])
    try:
        _setup_diagram(ref, rows)
        assert sorted(ref.ok("final_status_list seki").split()) == want
        assert ref.ok("final_status_list dead") == ""
        theirs = ref.ok("final_score")
    finally:
        ref.close()
    ours = eng.ok("final_score")
    assert ours[0] == theirs[0] and float(ours[2:]) == float(theirs[2:]), (ours, theirs)


RULES_CASES = [
    # A finished 5x5 game with one prisoner: territory B+4, area B+5.
    ("boardsize 5;komi 0;play b c1;play w a1;play b c2;play w d1;play b c3;play w d2;"
     "play b c4;play w d3;play b c5;play w d4;play b b1;play w d5;play b a2;play w pass;"
     "play b pass"),
    # Two handicap stones: White's bonus is N under Chinese rules (B+3),
    # none under Japanese (B+5).
    ("boardsize 5;komi 0;set_free_handicap c1 c2;play w d1;play b c3;play w d2;play b c4;"
     "play w d3;play b c5;play w d4;play b pass;play w d5;play b pass;play w pass"),
]


@pytest.mark.skipif(debian_game("gnugo") is None, reason="GNU Go is not installed")
@pytest.mark.parametrize("case", range(len(RULES_CASES) + 2))
def test_rules_and_final_score_match_gnugo(eng, case):
    """`kata-set-rules japanese` (territory, seki taxed) and `chinese`
    (area, White's bonus N) score as GNU Go does under its Japanese
    (default) and Chinese rules, on finished games and the two seki
    positions (the third has a dead group whose status the two engines
    judge differently, which is not a question of rules)."""
    for rules, flags in [("japanese", []), ("chinese", ["--chinese-rules"])]:
        ref = Gtp([debian_game("gnugo"), "--mode", "gtp"] + flags)
        try:
            for e in (eng, ref):
                e.ok("clear_board")
                if case < len(RULES_CASES):
                    for line in RULES_CASES[case].split(";"):
                        e.ok(line)
                else:
                    _setup_diagram(e, SEKI_POSITIONS[case - len(RULES_CASES)][0])
            eng.ok("kata-set-rules " + rules)
            ours, theirs = eng.ok("final_score"), ref.ok("final_score")
        finally:
            ref.close()
        assert ours[0] == theirs[0] and float(ours[2:] or 0) == float(theirs[2:] or 0), \
            (rules, ours, theirs)


def test_katago_rules_commands(eng):
    assert eng.ok("kata-get-rules") == (
        '{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA",'
        '"suicide":false,"tax":"NONE","whiteHandicapBonus":"0"}')
    eng.ok("kata-set-rules japanese")
    assert '"scoring":"TERRITORY"' in eng.ok("kata-get-rules")
    # The ko rule is the one tengen-ko_rule shows and plays.
    assert eng.ok("tengen-ko_rule") == "simple"
    eng.ok('kata-set-rules {"ko":"SITUATIONAL", "scoring":"AREA"}')
    assert eng.ok("tengen-ko_rule") == "situational"
    eng.ok("kata-set-rule whiteHandicapBonus N-1")
    assert '"whiteHandicapBonus":"N-1"' in eng.ok("kata-get-rules")
    before = eng.ok("kata-get-rules")
    for bad in ["kata-set-rules tromp-taylor", "kata-set-rules stone-scoring",
                "kata-set-rules klingon", 'kata-set-rules {"ko":', "kata-set-rule ko",
                "kata-set-rule tax MOST", "kata-set-rule hasButton true", "kgs-rules"]:
        assert eng.fail(bad)
        assert eng.ok("kata-get-rules") == before, bad
    eng.ok("kgs-rules new_zealand")
    assert '"ko":"SITUATIONAL"' in eng.ok("kata-get-rules")
    eng.ok("kgs-rules chinese")
    assert '"ko":"POSITIONAL","scoring":"AREA"' in eng.ok("kata-get-rules")
    # KataGo's rectangular_boardsize W H: W columns, H rows (also W:H,
    # and N for a square board, as KataGo takes them).
    eng.ok("rectangular_boardsize 7 7")
    assert eng.ok("query_boardsize") == "7"
    eng.ok("rectangular_boardsize 9 13")
    assert eng.ok("query_boardsize") == "9 13"
    eng.ok("rectangular_boardsize 13:9")
    assert eng.ok("query_boardsize") == "13 9"
    eng.ok("rectangular_boardsize 7")
    assert eng.ok("query_boardsize") == "7"
    assert eng.fail("rectangular_boardsize 9 26") == "unacceptable size"
    eng.fail("rectangular_boardsize x x")
    assert eng.ok("query_boardsize") == "7"
    # A new board size keeps the rules.
    eng.ok("boardsize 13")
    assert '"whiteHandicapBonus":"N"' in eng.ok("kata-get-rules")


def test_rectangular_board(eng, tmp_path):
    # KataGo's rectangular_boardsize 13 9: 13 columns (A..N, no I), 9 rows.
    eng.ok("rectangular_boardsize 13 9")
    assert eng.ok("query_boardsize") == "13 9"
    eng.ok("tengen-playouts 300")
    eng.ok("play b N9")
    eng.ok("play w A1")
    eng.fail("play w N10")
    eng.fail("play w O1")
    board = [l for l in eng.ok("showboard").splitlines() if l.strip()]
    assert board[0].split() == list("ABCDEFGHJKLMN")
    assert len(board) == 11
    assert board[1].split()[:1] == ["9"] and board[1].split()[13] == "X"
    assert board[9].split()[:2] == ["1", "O"]
    for colour in ["b", "w", "b", "w"]:
        mv = eng.ok(f"genmove {colour}")
        if mv.lower() not in ("pass", "resign"):
            assert mv[0] in "ABCDEFGHJKLMN" and 1 <= int(mv[1:]) <= 9, mv
            assert eng.ok(f"color {mv}") != "empty"
    assert re.fullmatch(r"0|[BW]\+\d+(\.\d+)?", eng.ok("final_score", 120))
    for v in eng.ok("final_status_list alive", 120).split():
        assert v[0] in "ABCDEFGHJKLMN" and 1 <= int(v[1:]) <= 9, v
    text = eng.ok("printsgf")
    assert "SZ[13:9]" in text
    path = tmp_path / "rect.sgf"
    path.write_text(text)
    eng.ok("boardsize 9")
    assert eng.ok("query_boardsize") == "9"
    eng.ok(f"loadsgf {path}")
    assert eng.ok("query_boardsize") == "13 9"
    assert eng.ok("color N9") == "black"
    eng.ok("clear_board")
    assert eng.ok("query_boardsize") == "13 9"
    assert set(eng.ok("fixed_handicap 4").split()) == {"D3", "K7", "D7", "K3"}
    # Orientations that would swap the sides are refused there.
    assert "13x9" in eng.fail("orientation 1")
    eng.ok("boardsize 19")
    assert eng.ok("query_boardsize") == "19"


def test_sgf_round_trip(eng, tmp_path):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.ok("komi 6.5")
    for mv in ["b C3", "w G7", "b pass", "w E5"]:
        eng.ok(f"play {mv}")
    text = eng.ok("printsgf")
    game = sgf.Sgf_game.from_string(text)
    assert game.get_size() == 9 and game.get_komi() == 6.5
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert moves == [("b", (2, 2)), ("w", (6, 6)), ("b", None), ("w", (4, 4))]
    path = tmp_path / "g.sgf"
    eng.ok(f"printsgf {path}")
    eng.ok("clear_board")
    assert eng.ok(f"loadsgf {path}") == "black"
    assert eng.ok("list_stones white") == "E5 G7"
    assert eng.ok("get_komi") == "6.5"
    # Up to move 3: the position before the third move (Black's pass).
    assert eng.ok(f"loadsgf {path} 3") == "black"
    assert eng.ok("move_history").split("\n") == ["white G7", "black C3"]
    assert eng.fail(f"loadsgf {tmp_path}/missing.sgf") == "cannot load file"
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[zz])")
    assert eng.fail(f"loadsgf {bad}") == "cannot load file"
    assert eng.ok("list_stones white") == "G7"  # unchanged by the failure


def _parse_info(line):
    """Splits an lz/kata info line into candidate dicts."""
    out = []
    for chunk in line.split("info ")[1:]:
        words = chunk.split()
        d = {}
        i = 0
        while i < len(words):
            k = words[i]
            if k in ("pv", "ownership"):
                j = i + 1
                while j < len(words) and words[j] not in ("ownership",):
                    j += 1
                d[k] = words[i + 1 : j]
                i = j
            else:
                d[k] = words[i + 1]
                i += 2
        out.append(d)
    return out


def test_lz_analyze_streams_until_input(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.send_raw("7 lz-analyze b 10\n")
    assert eng.readline() == "=7"
    infos = []
    deadline = time.time() + 10
    while len(infos) < 3 and time.time() < deadline:
        line = eng.readline()
        assert line.startswith("info move "), line
        infos.append(line)
    # Any input stops it: the next command is answered normally.
    eng.send_raw("8 name\n")
    tail = []
    while True:
        line = eng.readline()
        if line == "":
            break
        tail.append(line)
    assert all(t.startswith("info ") for t in tail)
    assert eng.response() == (True, 8, "tengen")
    cands = _parse_info(infos[-1])
    assert cands and all(
        set(c) >= {"move", "visits", "winrate", "prior", "lcb", "order", "pv"} for c in cands
    )
    for c in cands:
        assert 0 <= int(c["winrate"]) <= 10000
        assert c["pv"][0] == c["move"]
    assert [int(c["order"]) for c in cands] == list(range(len(cands)))
    # A bare empty line also stops it.
    eng.send_raw("lz-analyze 5\n")
    assert eng.readline() == "="
    eng.readline()
    eng.send_raw("\n")
    while eng.readline() != "":
        pass
    assert eng.cmd("9 protocol_version") == (True, 9, "2")


def test_kata_analyze_with_ownership(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.send_raw("kata-analyze w interval 10 ownership true\n")
    assert eng.readline() == "="
    line = eng.readline()
    eng.send_raw("name\n")
    while eng.readline() != "":
        pass
    assert eng.response() == (True, None, "tengen")
    cands = _parse_info(line)
    assert 0.0 <= float(cands[0]["winrate"]) <= 1.0
    assert "scoreLead" in cands[0]
    own = cands[-1]["ownership"]
    assert len(own) == 81 and all(-1.0 <= float(x) <= 1.0 for x in own)
    assert eng.fail("kata-analyze b interval x") == "syntax error"


def test_genmove_analyze(eng):
    eng.ok("boardsize 9")
    eng.ok("clear_board")
    eng.send_raw("3 lz-genmove_analyze b 10\n")
    assert eng.readline() == "=3"
    lines = []
    while True:
        line = eng.readline()
        if line == "":
            break
        lines.append(line)
    assert lines[-1].startswith("play ")
    mv = lines[-1].split()[1]
    assert eng.ok("list_stones black") == mv


def test_fuzzed_commands_never_break_framing(eng):
    import random

    rnd = random.Random(5)
    words = [
        "play", "genmove", "boardsize", "komi", "b", "w", "A1", "Z99", "pass",
        "-1", "3.5", "x", "fixed_handicap", "undo", "is_legal", "countlib",
        "final_status", "loadsgf", "set_free_handicap", "time_left", "9", "0",
        "gg-undo", "accuratelib", "list_stones", "restricted_genmove",
        "kata-set-rules", "kata-set-rule", "kata-get-rules", "kgs-rules", "japanese",
        "chinese", '{"ko":"SIMPLE"}', '{"ko":', "ko", "SITUATIONAL", "tax", "limit_search",
        "set_search_diamond", "set_search_limit", "reset_search_mask",
    ]
    eng.ok("boardsize 5")
    for i in range(300):
        cmd = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 4)))
        if cmd.startswith(("genmove", "restricted_genmove", "final_status")):
            continue  # slow but tested elsewhere
        ok, rid, _ = eng.cmd(f"{i} {cmd}")
        assert rid == i
    assert eng.ok("name") == "tengen"
    # Whatever the rules commands were sent, the rules read back whole.
    assert eng.ok("kata-get-rules").startswith('{"friendlyPassOk"')


# ---------------------------------------------------------------- GNU Go games


def _tromp_taylor(size, moves, komi):
    """Replays the game with sgfmill and scores it by area, every stone alive."""
    b = boards.Board(size)
    for colour, mv in moves:
        if mv is not None:
            b.play(mv[0], mv[1], colour)
    area = {"b": 0, "w": 0}
    seen = set()
    for r in range(size):
        for c in range(size):
            s = b.get(r, c)
            if s is not None:
                area[s] += 1
            elif (r, c) not in seen:
                region, border, stack = [], set(), [(r, c)]
                seen.add((r, c))
                while stack:
                    p = stack.pop()
                    region.append(p)
                    for q in ((p[0] + 1, p[1]), (p[0] - 1, p[1]), (p[0], p[1] + 1), (p[0], p[1] - 1)):
                        if 0 <= q[0] < size and 0 <= q[1] < size:
                            t = b.get(*q)
                            if t is None and q not in seen:
                                seen.add(q)
                                stack.append(q)
                            elif t is not None:
                                border.add(t)
                if len(border) == 1:
                    area[border.pop()] += len(region)
    return area["b"] - area["w"] - komi


def _vertex(v, size):
    if v.lower() == "pass":
        return None
    return (int(v[1:]) - 1, COLUMNS.index(v[0].upper()))


def _play_game(ours, theirs, tengen_black, size=9, komi=7.0, max_moves=200):
    for e in (ours, theirs):
        e.ok(f"boardsize {size}")
        e.ok("clear_board")
        e.ok(f"komi {komi}")
    moves = []
    colour = "b"
    passes = 0
    while passes < 2 and len(moves) < max_moves:
        mover, other = (ours, theirs) if (colour == "b") == tengen_black else (theirs, ours)
        v = mover.ok(f"genmove {colour}", timeout=120)
        if v.lower() == "resign":
            return moves, ("w" if colour == "b" else "b"), None
        ok, _, err = other.cmd(f"play {colour} {v}")
        assert ok, f"move {len(moves) + 1} {colour} {v} refused: {err}"
        moves.append((colour, _vertex(v, size)))
        passes = passes + 1 if v.lower() == "pass" else 0
        colour = "w" if colour == "b" else "b"
    score = _tromp_taylor(size, moves, komi)
    # Our own scorer must agree with the sgfmill replay.
    return moves, ("b" if score > 0 else "w"), score


def _our_score(tengen_bin, size, moves):
    """Tromp-Taylor result from `tengen legal` after the game's moves."""
    args = []
    for colour, mv in moves:
        v = "pass" if mv is None else f"{COLUMNS[mv[1]]}{mv[0] + 1}"
        args.append(f"{colour.upper()}:{v}")
    out = subprocess.run(
        [tengen_bin, "legal", "--game", "go", "--size", str(size), "--moves", *args],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    last = out.strip().split("\n")[-1]
    assert last.startswith("result: "), out
    return last


@pytest.mark.skipif(debian_game("gnugo") is None, reason="GNU Go is not installed")
def test_games_against_gnugo_to_both_passes(tengen_bin):
    gnugo = debian_game("gnugo")
    results = []
    for tengen_black in (True, False):
        ours = Gtp([tengen_bin, "--protocol", "gtp"])
        theirs = Gtp([gnugo, "--mode", "gtp", "--level", "1", "--chinese-rules"])
        try:
            ours.ok("tengen-threads 1")
            ours.ok("level 1")
            moves, winner, score = _play_game(ours, theirs, tengen_black, komi=7.5)
            assert len(moves) >= 10
            if score is not None:
                # Both passed: our scorer and the sgfmill replay agree.
                res = _our_score(tengen_bin, 9, moves)
                who = "black" if score > 0 else "white"
                assert res.startswith(f"result: {who} "), (res, score)
                assert res.endswith(f"{'B' if score > 0 else 'W'}+{abs(score):g}"), (res, score)
            results.append((tengen_black, winner, score, len(moves)))
        finally:
            ours.close()
            theirs.close()
    print(results)
    assert len(results) == 2


# ---------------------------------------------------------------- perft


def _py_perft(size, depth):
    """Independent perft on sgfmill boards: suicide illegal, positional
    superko, pass legal, two passes end the game."""

    def key(b):
        return tuple(b.get(r, c) for r in range(size) for c in range(size))

    def rec(b, colour, seen, passes, d):
        if passes >= 2:
            return 0
        moves = []
        for r in range(size):
            for c in range(size):
                if b.get(r, c) is not None:
                    continue
                nb = b.copy()
                nb.play(r, c, colour)
                if nb.get(r, c) is None:  # sgfmill lets stones suicide
                    continue
                k = key(nb)
                if k in seen:
                    continue
                moves.append((nb, k))
        moves.append((b, None))  # pass
        if d == 1:
            return len(moves)
        other = "w" if colour == "b" else "b"
        total = 0
        for nb, k in moves:
            if k is None:
                total += rec(b, other, seen, passes + 1, d - 1)
            else:
                total += rec(nb, other, seen | {k}, 0, d - 1)
        return total

    b = boards.Board(size)
    return rec(b, "b", {key(b)}, 0, depth)


@pytest.mark.parametrize("size,depth", [(2, 4), (2, 6), (3, 3), (3, 4), (4, 3)])
def test_perft_matches_an_independent_board(tengen_bin, size, depth):
    out = subprocess.run(
        [tengen_bin, "perft", "--game", "go", "--size", str(size), "--depth", str(depth)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert int(out.strip()) == _py_perft(size, depth)
