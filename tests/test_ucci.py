"""UCCI conformance: tengen driven the way xiangqi GUIs drive it.

Transcript tests for every UCCI command, a run under cchess's UcciEngine
client, and a game against Fairy-Stockfish (UCCI mode) with every move
checked by pyffish.
"""
import subprocess
import time

import pytest

from conftest import LineEngine, debian_game

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


Engine = LineEngine


def terminator(line):
    return line.startswith("bestmove") or line == "nobestmove"


@pytest.fixture
def eng(tengen_bin):
    e = Engine([tengen_bin])
    e.send("ucci")
    e.until(lambda l: l == "ucciok")
    e.send("setoption usemillisec true")
    yield e
    e.close()


def legal_iccs(fen, moves=()):
    """Legal moves by pyffish (ranks 1..10), in ICCS (ranks 0..9)."""
    import pyffish
    def to_uci(m):
        return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)
    def to_iccs(m):
        # a10a9 style: letters split the two points.
        i = 1
        while m[i].isdigit():
            i += 1
        return "%s%d%s%d" % (m[0], int(m[1:i]) - 1, m[i], int(m[i + 1:]) - 1)
    return {to_iccs(m) for m in pyffish.legal_moves("xiangqi", fen, [to_uci(x) for x in moves])}


def bestmove(lines):
    last = lines[-1].split()
    assert last[0] == "bestmove", lines[-1]
    return last[1], last


# --- handshake and idle commands -------------------------------------------

def test_handshake_lists_id_options_and_ucciok(tengen_bin):
    e = Engine([tengen_bin])
    # CRLF, as the cchess client sends it.
    e.proc.stdin.write("ucci\r\n")
    e.proc.stdin.flush()
    lines = e.until(lambda l: l == "ucciok")
    assert lines[0].startswith("id name tengen")
    opts = {l.split()[1]: l for l in lines if l.startswith("option ")}
    assert opts["usemillisec"] == "option usemillisec type check default false"
    for name in ["batch", "debug", "ponder", "hashsize", "threads", "newgame",
                 "idle", "pruning", "knowledge", "randomness", "style", "drawmoves"]:
        assert name in opts, name
    # Options we do not vary list their single supported value.
    assert opts["pruning"] == "option pruning type combo var large default large"
    assert not any(" name " in l for l in opts.values()), "UCCI options have no name keyword"
    e.send("isready")
    assert e.recv() == "readyok"
    e.send("quit")
    assert e.recv() == "bye"
    assert e.proc.wait(timeout=5) == 0


def test_unknown_commands_and_options_are_survived(eng):
    for line in ["xyzzy", "setoption usebook false", "setoption bookfiles a.obk;b.obk",
                 "setoption name Hash value 32", "setoption idle large", "go sideways 3",
                 "position", "position fen", "\t", "ponderhit", "banmoves zz99"]:
        eng.send(line)
    eng.send("isready")
    lines = eng.until(lambda l: l == "readyok")
    assert not any(terminator(l) for l in lines)
    # A combo set to a value we do not support says so.
    assert any("idle" in l and l.startswith("info message") for l in lines)


def test_stop_while_idle_answers_nobestmove(eng):
    eng.send("stop")
    assert eng.recv() == "nobestmove"


# --- position, go, bestmove -------------------------------------------------

def test_go_depth_gives_info_and_a_legal_bestmove(eng):
    eng.send("position fen %s moves h2e2 h9g7" % START)
    eng.send("go depth 5")
    lines = eng.until(terminator)
    infos = [l for l in lines if l.startswith("info depth")]
    assert infos and all(" score " in l and " pv " in l for l in infos)
    assert "cp" not in infos[-1].split(), "UCCI scores have no cp keyword"
    assert any(l.startswith("info time ") and " nodes " in l for l in lines)
    m, _ = bestmove(lines)
    assert m in legal_iccs(START, ["h2e2", "h9g7"])


def test_position_startpos_and_uppercase_moves(eng):
    eng.send("position startpos moves H2E2")
    eng.send("go depth 3")
    m, _ = bestmove(eng.until(terminator))
    assert m in legal_iccs(START, ["h2e2"])


def test_bad_position_keeps_the_previous_one(eng):
    # Black to move after h2e2; then three bad commands change nothing.
    eng.send("position startpos moves h2e2")
    eng.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w - - 0 1")
    eng.send("position startpos moves h2e2 h2e2")
    eng.send("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    eng.send("go depth 2")
    lines = eng.until(terminator)
    msgs = [l for l in lines if l.startswith("info message")]
    assert len(msgs) == 3, lines
    assert "ranks" in msgs[0] and "legal" in msgs[1] and "check" in msgs[2]
    m, _ = bestmove(lines)
    assert m in legal_iccs(START, ["h2e2"]), "still black to move after h2e2"


def test_go_time_in_milliseconds_and_in_seconds(tengen_bin, eng):
    eng.send("position startpos")
    t = time.time()
    eng.send("go time 2000 increment 0")
    bestmove(eng.until(terminator, timeout=5))
    assert time.time() - t < 2.0
    # Without usemillisec the unit is seconds: `time 2` is two seconds.
    e = Engine([tengen_bin])
    try:
        e.send("ucci")
        e.until(lambda l: l == "ucciok")
        e.send("position startpos")
        t = time.time()
        e.send("go time 2 movestogo 1")
        bestmove(e.until(terminator, timeout=5))
        spent = time.time() - t
        assert 0.05 < spent < 2.5, spent
    finally:
        e.close()


def test_go_nodes_and_movestogo_and_opptime(eng):
    eng.send("position startpos")
    eng.send("go nodes 3000")
    bestmove(eng.until(terminator))
    eng.send("go time 60000 movestogo 30 opptime 60000 oppmovestogo 30")
    bestmove(eng.until(terminator, timeout=10))


def test_go_infinite_waits_for_stop_and_answers_isready(eng):
    eng.send("position startpos")
    eng.send("go infinite")
    eng.silent_for(0.6)
    eng.send("isready")
    lines = eng.until(lambda l: l == "readyok", timeout=2)
    assert not any(terminator(l) for l in lines)
    eng.silent_for(0.3)
    eng.send("stop")
    lines = eng.until(terminator, timeout=2)
    m, _ = bestmove(lines)
    assert m in legal_iccs(START)
    # Exactly one terminator per go: nothing more comes.
    eng.send("isready")
    assert eng.until(lambda l: l == "readyok")[-1] == "readyok"


def test_go_depth_infinite_is_infinite(eng):
    eng.send("position startpos")
    eng.send("go depth infinite")
    eng.silent_for(0.4)
    eng.send("stop")
    bestmove(eng.until(terminator, timeout=2))


def test_ponder_then_ponderhit(eng):
    eng.send("position startpos moves h2e2 h9g7")
    eng.send("go ponder time 3000 increment 0")
    # The clock does not run while pondering: no bestmove on its own.
    eng.silent_for(1.0)
    eng.send("ponderhit")
    t = time.time()
    m, _ = bestmove(eng.until(terminator, timeout=5))
    assert time.time() - t < 2.5
    assert m in legal_iccs(START, ["h2e2", "h9g7"])


def test_ponder_then_stop(eng):
    eng.send("position startpos moves h2e2 h9g7")
    eng.send("go ponder time 300000 increment 2000")
    eng.silent_for(0.5)
    t = time.time()
    eng.send("stop")
    bestmove(eng.until(terminator, timeout=2))
    assert time.time() - t < 1.0
    # The GUI then sends the real position and a new go.
    eng.send("position startpos moves h2e2 b9c7")
    eng.send("go time 1000")
    m, _ = bestmove(eng.until(terminator))
    assert m in legal_iccs(START, ["h2e2", "b9c7"])


def test_banmoves(eng):
    legal = sorted(legal_iccs(START))
    keep = "i0i1"
    eng.send("position startpos")
    eng.send("banmoves " + " ".join(m for m in legal if m != keep))
    eng.send("go depth 4")
    assert bestmove(eng.until(terminator))[0] == keep
    # A new position clears the bans.
    eng.send("position startpos")
    eng.send("go depth 4")
    assert bestmove(eng.until(terminator))[0] != keep
    # Everything banned: nobestmove.
    eng.send("position startpos")
    eng.send("banmoves " + " ".join(legal))
    eng.send("go depth 4")
    assert eng.until(terminator)[-1] == "nobestmove"
    # A ban list with an illegal move is rejected whole.
    eng.send("position startpos")
    eng.send("banmoves h2e2 h2h8")
    eng.send("go depth 1")
    lines = eng.until(terminator)
    assert any(l.startswith("info message") and "banmoves" in l for l in lines)


LOSING = "3k5/9/9/9/9/9/9/9/r8/4K4 w - - 0 1"   # red: general alone vs rook
WINNING = "3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1"   # black: general alone vs rook


def test_go_draw_is_accepted_only_when_worse(eng):
    eng.send("position fen " + LOSING)
    eng.send("go draw depth 6")
    _, words = bestmove(eng.until(terminator))
    assert "draw" in words
    eng.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1")
    eng.send("go draw depth 6")
    _, words = bestmove(eng.until(terminator))
    assert "draw" not in words


def test_ponderhit_draw_offer(eng):
    eng.send("position fen " + LOSING)
    eng.send("go ponder time 1000")
    eng.silent_for(0.3)
    eng.send("ponderhit draw")
    _, words = bestmove(eng.until(terminator, timeout=5))
    assert "draw" in words


def test_resigns_when_mated_by_force(eng):
    # Black general d9 alone; red rooks mate in a few.
    eng.send("position fen 3k5/9/9/9/9/9/9/9/RR7/4K4 b - - 0 1")
    eng.send("go depth 8")
    _, words = bestmove(eng.until(terminator))
    assert words[-1] == "resign"


def test_no_legal_move_gives_nobestmove(eng):
    eng.send("position fen 3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22")
    eng.send("go depth 5")
    assert eng.until(terminator)[-1] == "nobestmove"
    eng.send("go depth 0")
    assert eng.until(terminator)[-1] == "nobestmove"


def test_go_depth_zero_prints_static_eval(eng):
    eng.send("position startpos")
    eng.send("go depth 0")
    lines = eng.until(terminator)
    assert lines[-1] == "nobestmove"
    assert lines[0].startswith("info depth 0 score ")


def test_probe_and_pophash(eng):
    eng.send("probe startpos")
    assert eng.recv() == "pophash"
    eng.send("position startpos")
    eng.send("go depth 5")
    m, _ = bestmove(eng.until(terminator))
    eng.send("probe fen " + START)
    words = eng.recv().split()
    assert words[:3] == ["pophash", "bestmove", m]
    assert "lowerbound" in words and "upperbound" in words and "depth" in words
    # The positions along the principal variation are known too.
    pv = [l for l in eng.log if l.startswith("< info depth 5 ")][-1].split(" pv ")[1].split()
    eng.send("probe startpos moves " + pv[0])
    words = eng.recv().split()
    assert words[:3] == ["pophash", "bestmove", pv[1]], (words, pv)
    eng.send("probe fen garbage")
    lines = eng.until(lambda l: l.startswith("pophash"))
    assert lines[-1] == "pophash"
    # Answered while thinking too.
    eng.send("go infinite")
    eng.send("probe startpos moves h2e2")
    assert eng.until(lambda l: l.startswith("pophash"), timeout=2)
    eng.send("stop")
    bestmove(eng.until(terminator))


def test_go_perft(eng):
    eng.send("position startpos")
    eng.send("go perft 3")
    lines = eng.until(lambda l: l.startswith("Nodes searched"))
    assert lines[-1] == "Nodes searched: 79666"
    counts = [l for l in lines if ": " in l and not l.startswith("Nodes")]
    assert len(counts) == 44


def test_newgame_and_options(eng):
    for cmd in ["setoption hashsize 32", "setoption threads 2", "setoption newgame",
                "setoption ponder true", "setoption debug on", "setoption drawmoves 50",
                "setoption style normal"]:
        eng.send(cmd)
    eng.send("position startpos")
    eng.send("go depth 4")
    bestmove(eng.until(terminator))
    # Debug mode reports ignored commands.
    eng.send("frobnicate")
    assert eng.recv().startswith("info message")


def test_long_search_reports_currmove(eng):
    eng.send("position startpos")
    eng.send("go infinite")
    # The engine names the root move it is on once a search has run a
    # second; when the next root move starts depends on the machine's
    # load, so wait for it (bounded) rather than for a fixed time.
    seen = eng.until(lambda l: l.startswith("info currmove "), timeout=15)
    assert all(l.startswith("info") for l in seen), seen
    eng.send("stop")
    lines = eng.until(terminator)
    assert lines
    assert any(l.startswith("< info currmove ") for l in eng.log)


def test_batch_mode_reads_after_bestmove(eng):
    eng.send("setoption batch true")
    eng.send("position startpos")
    eng.send("go depth 6")
    eng.send("isready")
    lines = eng.until(lambda l: l == "readyok", timeout=10)
    kinds = [l.split()[0] for l in lines if not l.startswith("info")]
    assert kinds == ["bestmove", "readyok"], lines
    # A search that cannot end on its own still listens in batch mode.
    eng.send("go infinite")
    eng.silent_for(0.3)
    eng.send("stop")
    bestmove(eng.until(terminator, timeout=3))


def test_quit_while_thinking_exits_at_once(tengen_bin):
    e = Engine([tengen_bin])
    e.send("ucci")
    e.until(lambda l: l == "ucciok")
    e.send("position startpos")
    e.send("go infinite")
    time.sleep(0.3)
    t = time.time()
    e.send("quit")
    e.until(lambda l: l == "bye", timeout=2)
    assert e.proc.wait(timeout=2) == 0
    assert time.time() - t < 1.5


def test_repetition_rules_in_search(eng):
    # Red has checked twice with the rook; repeating h8h9 would be a
    # forbidden perpetual check, and Red is winning anyway.
    eng.send("position fen 3k5/9/9/9/9/9/9/9/9/5K1R1 w - - 0 1 moves h0h9 d9d8 h9h8 d8d9")
    eng.send("go depth 6")
    m, _ = bestmove(eng.until(terminator))
    assert m != "h8h9"


def test_garbage_never_kills_it(eng):
    import random
    rnd = random.Random(7)
    words = ["go", "position", "fen", "startpos", "moves", "banmoves", "probe", "depth",
             "time", "ponder", "draw", "h2e2", "9", "-1", "setoption", "ponderhit", "w"]
    for _ in range(300):
        line = " ".join(rnd.choice(words) for _ in range(rnd.randint(0, 6)))
        if line.startswith("go") or "quit" in line:
            continue
        eng.send(line)
    eng.send("stop")
    eng.send("isready")
    eng.until(lambda l: l == "readyok", timeout=10)


# --- real clients -------------------------------------------------------------

def test_cchess_ucci_client(tengen_bin):
    from cchess.engine import UcciEngine
    e = UcciEngine()
    assert e.load(tengen_bin)
    try:
        assert e.wait_for_ready(timeout=10)
        e.set_option("hashsize", 16)
        fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        assert e.go_from(fen, {"depth": 5})
        deadline = time.time() + 20
        move = None
        while time.time() < deadline and move is None:
            action = e.get_action()
            if action and action.get("action") == "bestmove":
                move = action["move"]
            elif action and action.get("action") == "dead":
                pytest.fail("engine reported no move")
            else:
                time.sleep(0.02)
        assert move in legal_iccs(START), move
    finally:
        e.quit()


def uci_ranks(m):
    return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)


@pytest.mark.skipif(debian_game("fairy-stockfish") is None, reason="fairy-stockfish not installed")
def test_game_against_fairy_stockfish(tengen_bin):
    import pyffish
    fs = Engine([debian_game("fairy-stockfish")])
    us = Engine([tengen_bin])
    try:
        fs.send("ucci")
        fs.until(lambda l: l == "ucciok")
        fs.send("setoption UCI_Variant xiangqi")
        us.send("ucci")
        us.until(lambda l: l == "ucciok")
        us.send("setoption usemillisec true")
        moves = []
        result = None
        for ply in range(300):
            red = ply % 2 == 0
            eng = us if red else fs
            eng.send("isready")
            eng.until(lambda l: l == "readyok")
            cmd = "position fen %s" % START + (" moves " + " ".join(moves) if moves else "")
            eng.send(cmd)
            # Fairy-Stockfish is held to a shallow depth to keep the test short.
            eng.send("go time 10000 increment 100" if red else "go depth 3")
            lines = eng.until(terminator, timeout=30)
            words = lines[-1].split()
            legal = legal_iccs(START, moves)
            if words[0] == "nobestmove" or words[1] in ("(none)", "null", "resign"):
                assert not legal, "gave up with legal moves left"
                result = "no move for %s" % ("red" if red else "black")
                break
            assert words[1] in legal, "illegal move %s at ply %d" % (words[1], ply)
            moves.append(words[1])
            if "resign" in words:
                result = "resigned"
                break
            uci_moves = [uci_ranks(m) for m in moves]
            if not pyffish.legal_moves("xiangqi", START, uci_moves):
                result = "mate"
                break
            end, _ = pyffish.is_optional_game_end("xiangqi", START, uci_moves)
            if end:
                result = "repetition or move limit"
                break
        assert len(moves) >= 10
    finally:
        us.close()
        fs.close()


# --- tengen legal / perft --game xiangqi -------------------------------------------

def run_cli(tengen_bin, *args):
    return subprocess.run([tengen_bin, *args], capture_output=True, text=True, timeout=60)


def test_cli_legal_matches_pyffish(tengen_bin):
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", "--position", START, "--moves", *moves)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1] == "result: ongoing"
    assert set(lines[:-1]) == legal_iccs(START, moves)


def test_cli_legal_results(tengen_bin):
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", "--position",
                "3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22")
    assert r.stdout.splitlines() == ["result: white checkmate"]
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", "--position", "4k4/5P3/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert r.stdout.splitlines() == ["result: white stalemate"]
    checks = "h0h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9 h8h9".split()
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", "--position", "3k5/9/9/9/9/9/9/9/9/5K1R1 w - - 0 1",
                "--moves", *checks)
    assert r.stdout.splitlines()[-1] == "result: black perpetual-check"
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", "--position", "r2k5/9/9/9/9/9/9/9/9/5K2R w - - 119 80",
                "--moves", "i0i1")
    assert r.stdout.splitlines()[-1] == "result: draw move-limit"


def test_cli_perft_and_divide(tengen_bin):
    r = run_cli(tengen_bin, "perft", "--game", "xiangqi", "--position", "startpos", "--depth", "3")
    assert r.stdout.strip() == "79666"
    r = run_cli(tengen_bin, "perft", "--game", "xiangqi", "--position", "startpos", "--depth", "2", "--divide")
    lines = r.stdout.splitlines()
    assert lines[-1] == "Nodes searched: 1920"
    assert len([l for l in lines if ": " in l and not l.startswith("Nodes")]) == 44


@pytest.mark.parametrize("args", [
    ["--position", "rnbakabnr/9/9 w"],
    ["--position", "startpos", "--moves", "h2e3"],
    ["--position", "startpos", "--moves", "zz"],
    ["--position", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"],
])
def test_cli_bad_input_exits_2(tengen_bin, args):
    r = run_cli(tengen_bin, "legal", "--game", "xiangqi", *args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("tengen:")


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_random_command_streams_keep_it_alive(eng, seed):
    """Valid and broken commands in random order, searches included: the
    engine keeps answering and never prints a move it was not asked for."""
    import random
    rnd = random.Random(seed)
    cmds = ["position startpos", "position startpos moves h2e2 h9g7", "position fen " + LOSING,
            "position fen 3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22", "position fen junk",
            "banmoves h2e2", "banmoves a0a1 i0i1", "banmoves zz", "go depth 2", "go nodes 500",
            "go time 30 increment 5", "go ponder time 50", "go draw depth 1", "go infinite",
            "go depth 0", "ponderhit", "ponderhit draw", "stop", "probe startpos",
            "setoption hashsize 8", "setoption newgame", "go perft 1", "go depth x", ""]
    gos = stops = 0
    for _ in range(150):
        c = rnd.choice(cmds)
        gos += c.startswith("go") and "perft" not in c and c != "go depth x"
        stops += c == "stop"
        eng.send(c)
    eng.send("stop")
    eng.send("isready")
    # The only isready of the stream: everything before it has been read.
    eng.until(lambda l: l == "readyok", timeout=60)
    terminators = sum(1 for l in eng.log if l.startswith("< ") and terminator(l[2:]))
    assert gos > 10
    # One per go, plus at most one `nobestmove` per stop that found us idle.
    assert gos <= terminators <= gos + stops + 1, (gos, stops, terminators)
