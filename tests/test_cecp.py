"""CECP (xboard/WinBoard protocol): tengen driven by raw transcripts (one
or more per command, edit and analyze mode included), by python-chess's
XBoard client, and tengen-arena driving CECP engines (Phalanx, Fairy-Max,
MaxQi, GNU Shogi) with records read back."""
import io
import json
import shutil
import re
import subprocess
import time

import chess
import chess.engine
import chess.pgn
import pytest

from conftest import LineEngine, debian_game

FEATURES = ("ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 sigterm=0 "
            "reuse=1 analyze=1 colors=0 name=1 nps=1 memory=1 smp=1 exclude=1 debug=1").split()
THINKING = re.compile(r"^(\d+) (-?\d+) (\d+) (\d+)(?: (.*))?$")
MOVE = re.compile(r"^move (\S+)$")


class Xb(LineEngine):
    """A CECP session: `xboard`, `protover 2`, features read."""

    def __init__(self, binary, *args, hello=True):
        super().__init__([binary, *args])
        self.features = []
        if hello:
            self.send("xboard")
            self.send("protover 2")
            self.features = self.until(lambda l: l == "feature done=1")

    def move(self, timeout=20.0):
        """The engine's next move, skipping thinking output."""
        lines = self.until(lambda l: MOVE.match(l) or l == "resign", timeout)
        m = MOVE.match(lines[-1])
        return m.group(1) if m else None

    def sync(self, n=1, timeout=20.0):
        """Sends `ping n` and returns every line before `pong n`."""
        self.send("ping %d" % n)
        return self.until(lambda l: l == "pong %d" % n, timeout)[:-1]

    def quiet(self, seconds):
        """No line at all (thinking output included) for `seconds`."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except Exception:
                return
            raise AssertionError("unexpected '%s'; transcript:\n%s" % (line, "\n".join(self.log[-30:])))


@pytest.fixture
def xb(tengen_bin):
    engines = []

    def start(*args, **kw):
        e = Xb(tengen_bin, *args, **kw)
        engines.append(e)
        return e

    yield start
    for e in engines:
        e.close()


def legal_after(moves, fen=chess.STARTING_FEN, chess960=False):
    board = chess.Board(fen, chess960=chess960)
    for m in moves:
        board.push(board.parse_xboard(m))
    return board


# --- start-up ------------------------------------------------------------------


def test_protover_features_in_order(xb):
    e = xb()
    f = e.features
    assert f[0] == "feature done=0" and f[-1] == "feature done=1"
    joined = " ".join(f)
    for item in FEATURES:
        assert item in joined.split(), item
    assert 'myname="tengen ' in joined
    assert 'variants="normal,fischerandom,xiangqi,shogi"' in joined
    options = [l for l in f if l.startswith("feature option=")]
    # One-word names: python-chess reads the first word as the name.
    assert 'feature option="MoveOverhead -spin 30 0 5000"' in options
    assert 'feature option="ClearHash -button"' in options
    # The GUI's answers are taken silently.
    e.send("accepted ping")
    e.send("rejected san")
    assert e.sync() == []


@pytest.mark.parametrize("name", ["xboard", "cecp"])
def test_protocol_flag_without_first_line(xb, name):
    e = xb("--protocol", name, hello=False)
    e.send("protover 2")
    lines = e.until(lambda l: l == "feature done=1")
    assert lines[0] == "feature done=0"


def test_errors_never_crash_and_never_half_apply(xb):
    e = xb()
    for bad, reason in [("frobnicate 3", "unknown command"), ("level 40 x 0", "base time"), ("level y 5 0", "moves per period"),
                        ("sd", "needs a value"), ("time soon", "expects a number"),
                        ("usermove", "needs a move"), ("variant crazyhouse", "unsupported variant"),
                        ("option Bogus=1", "")]:
        e.send(bad)
        line = e.recv()
        assert line.startswith("Error (") and line.endswith(bad), line
        assert reason in line, line
    e.send("new")
    e.send("force")
    e.send("usermove e2e5")
    assert e.recv().startswith("Illegal move (") and e.log[-1].endswith(": e2e5")
    e.send("usermove e2e4")  # still legal: the bad move changed nothing
    e.send("usermove e7e5")
    assert e.sync() == []
    e.send("setboard 8/8/8 w - - 0 1")
    assert e.recv().startswith("tellusererror Illegal position")
    e.send("usermove g1f3")  # the old position stands
    assert e.sync(2) == []


# --- game commands ---------------------------------------------------------------


def test_new_then_usermove_engine_answers_as_black(xb):
    e = xb()
    e.send("new")
    e.send("st 0.2")
    e.send("usermove e2e4")
    reply = e.move()
    board = legal_after(["e2e4", reply])
    assert board.turn == chess.WHITE


def test_force_go_playother(xb):
    e = xb()
    e.send("new")
    e.send("st 0.2")
    e.send("force")
    e.send("usermove e2e4")
    e.send("usermove e7e5")
    e.quiet(0.6)  # force mode: moves are only applied
    e.send("go")
    m1 = e.move()
    moves = ["e2e4", "e7e5", m1]
    legal_after(moves)
    # playother: the engine takes the side not on move and waits.
    e.send("force")
    e.send("usermove b8c6" if legal_after(moves).is_legal(chess.Move.from_uci("b8c6")) else "usermove g8f6")
    moves.append(e.log[-1].split()[2])
    e.send("force")
    e.send("playother")
    e.quiet(0.6)
    board = legal_after(moves)
    reply = next(m for m in board.legal_moves)
    e.send("usermove " + board.xboard(reply))
    moves.append(board.xboard(reply))
    legal_after(moves + [e.move()])


def test_move_now_and_ping_after_the_move(xb):
    e = xb()
    e.send("new")
    e.send("st 30")
    e.send("go")
    time.sleep(0.3)
    t0 = time.time()
    e.send("?")
    m = e.move(timeout=5)
    assert time.time() - t0 < 3
    legal_after([m])
    # A ping during a search is answered after the move.
    e.send("force")
    e.send("new")
    e.send("st 0.5")
    e.send("go")
    e.send("ping 9")
    lines = e.until(lambda l: l == "pong 9")
    assert any(MOVE.match(l) for l in lines), lines


def test_hard_ponders_on_the_expected_reply(xb):
    e = xb()
    e.send("new")
    e.send("hard")
    e.send("post")
    e.send("st 0.4")
    e.send("usermove e2e4")
    ours = e.move()
    # Pondering: thinking output with no command sent, its pv legal after
    # the expected reply.
    pondered = e.until(lambda l: THINKING.match(l), timeout=5)
    assert THINKING.match(pondered[-1])
    # A ping is answered at once, without a move.
    pre = e.sync(3, timeout=2)
    assert not any(MOVE.match(l) for l in pre), pre
    e.send("hint")
    hint = [l for l in e.sync(4) if l.startswith("Hint: ")]
    assert len(hint) == 1, hint
    reply = hint[0].split()[1]
    line = THINKING.match(pondered[-1]).group(5).split()
    legal_after(["e2e4", ours, reply] + line)
    # The GUI plays the expected reply: the ponder search becomes our move.
    t0 = time.time()
    e.send("usermove " + reply)
    second = e.move(timeout=5)
    assert time.time() - t0 < 3
    board = legal_after(["e2e4", ours, reply, second])
    # Another reply than the expected one: the ponder search is dropped
    # and the answer is a legal move in the real position.
    e.until(lambda l: THINKING.match(l), timeout=5)
    e.send("hint")
    expected = [l for l in e.sync(5) if l.startswith("Hint: ")][0].split()[1]
    other = next(m.xboard() for m in board.legal_moves if m.xboard() != expected)
    e.send("usermove " + other)
    third = e.move(timeout=5)
    legal_after(["e2e4", ours, reply, second, other, third])
    # `easy`: the ponder search stops, and no thinking on the
    # opponent's time after our next move (thinking output still on).
    e.send("easy")
    e.sync(6)
    e.quiet(0.5)
    e.send("force")
    e.send("new")
    e.send("st 0.3")
    e.send("usermove d2d4")
    e.move()
    e.quiet(1.0)


def test_clock_level_time_otim(xb):
    e = xb()
    e.send("new")
    e.send("level 0 0:02 0")
    e.send("time 150")
    e.send("otim 150")
    t0 = time.time()
    e.send("go")
    legal_after([e.move(timeout=5)])
    assert time.time() - t0 < 1.5
    e.send("new")
    e.send("level 40 5 0")
    e.send("st 0.3")  # st wins over level
    t0 = time.time()
    e.send("go")
    e.move()
    assert time.time() - t0 < 2


def test_sd_and_post_thinking_lines(xb):
    e = xb()
    e.send("new")
    e.send("post")
    e.send("sd 3")
    e.send("go")
    lines = e.until(lambda l: MOVE.match(l))
    thinking = [THINKING.match(l) for l in lines if THINKING.match(l)]
    assert thinking and max(int(t.group(1)) for t in thinking) <= 3
    for t in thinking:
        legal_after(t.group(5).split())  # the pv is legal from the start
    e.send("new")
    e.send("nopost")
    e.send("sd 2")
    e.send("go")
    assert len(e.until(lambda l: MOVE.match(l))) == 1


def test_nps_node_clock(xb):
    e = xb()
    e.send("new")
    e.send("nps 2000")
    e.send("st 1")
    e.send("post")
    e.send("go")
    lines = e.until(lambda l: MOVE.match(l))
    nodes = [int(THINKING.match(l).group(4)) for l in lines if THINKING.match(l)]
    assert nodes and max(nodes) <= 2000 + 1024


def test_mate_claim_and_result(xb):
    e = xb()
    e.send("new")
    e.send("force")
    e.send("setboard 7k/8/6K1/8/8/8/Q7/8 w - - 0 1")
    e.send("st 1")
    e.send("go")
    lines = e.until(lambda l: l.startswith("1-0"))
    m = [MOVE.match(l).group(1) for l in lines if MOVE.match(l)][-1]
    board = legal_after([m], "7k/8/6K1/8/8/8/Q7/8 w - - 0 1")
    assert board.is_checkmate()
    assert lines[-1] == "1-0 {White mates}"
    # `result` ends the game: moves are applied but not answered.
    e.send("result 1-0 {White mates}")
    assert e.sync() == []


def test_resign_when_mated(xb):
    e = xb()
    e.send("new")
    e.send("force")
    # Black to move, mate in one against it whatever it does.
    e.send("setboard 6rk/6pp/8/8/8/8/8/K5QR b - - 0 1")
    e.send("sd 6")
    e.send("go")
    lines = e.until(lambda l: MOVE.match(l) or l == "resign")
    assert lines[-1] == "resign" or MOVE.match(lines[-1])


def test_draw_offer_only_when_worse(xb):
    e = xb()
    e.send("new")
    e.send("force")
    # Black, a queen down (but far from mated), is to move.
    e.send("setboard rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3")
    e.send("st 0.3")
    e.send("go")
    e.move()
    e.send("draw")
    assert "offer draw" in e.sync()
    e.send("new")
    e.send("st 0.3")
    e.send("go")
    e.move()
    e.send("draw")
    assert "offer draw" not in e.sync(2)


def test_undo_remove_hint_bk(xb):
    e = xb()
    e.send("new")
    e.send("force")
    e.send("undo")
    assert e.recv() == "Error (no move to take back): undo"
    e.send("usermove e2e4")
    e.send("undo")
    e.send("usermove e2e4")  # legal again: the pawn is back
    e.send("usermove e7e5")
    e.send("remove")
    e.send("usermove e2e4")
    assert e.sync() == []
    e.send("st 0.3")
    e.send("go")  # Black
    e.move()
    e.send("hint")
    e.send("bk")
    lines = e.sync(2)
    assert "" in lines  # bk's text ends with a blank line
    hints = [l for l in lines if l.startswith("Hint: ")]
    assert len(hints) <= 1


def test_information_and_resource_commands(xb):
    e = xb()
    for line in ["new", "random", "hard", "easy", "name Fairy-Max 5.0", "rating 2000 1800",
                 "computer", "ics -", "memory 32", "cores 2", "egtpath syzygy /nowhere",
                 "option MoveOverhead=50", "option ClearHash", "option Resign=0",
                 "accepted myname", "post", "nopost", "pause", "resume"]:
        e.send(line)
    assert e.sync() == []
    e.send("option MoveOverhead=99999")
    assert e.recv().startswith("Error (")
    e.send("st 0.2")
    e.send("go")
    legal_after([e.move()])


# --- edit mode -----------------------------------------------------------------------


def test_edit_mode_builds_a_position(xb):
    e = xb()
    e.send("new")
    e.send("force")
    for line in ["edit", "#", "Kg6", "Qa7", "c", "Kh8", "."]:
        e.send(line)
    assert e.sync() == []
    e.send("st 1")
    e.send("go")
    lines = e.until(lambda l: l.startswith("1-0"))
    m = [MOVE.match(l).group(1) for l in lines if MOVE.match(l)][-1]
    assert legal_after([m], "7k/Q7/6K1/8/8/8/8/8 w - - 0 1").is_checkmate()


def test_edit_mode_refuses_bad_lines_and_positions(xb):
    e = xb()
    e.send("new")
    e.send("force")
    e.send("edit")
    e.send("Kz9")
    assert e.recv().startswith("Error (")
    e.send("#")
    e.send("Pa4")
    e.send(".")  # no kings: refused, the old position stays
    assert e.recv().startswith("tellusererror Illegal position")
    e.send("usermove e2e4")
    assert e.sync() == []
    # `x` clears a square, castling rights follow the pieces.
    e.send("new")
    e.send("force")
    for line in ["edit", "xf1", "xg1", "."]:
        e.send(line)
    e.send("usermove e1g1")
    assert e.sync(2) == []


# --- analyze mode ----------------------------------------------------------------------


def test_analyze_mode(xb):
    e = xb()
    e.send("new")
    e.send("force")
    e.send("post")
    e.send("analyze")
    lines = e.until(lambda l: THINKING.match(l) and int(THINKING.match(l).group(1)) >= 3)
    assert not any(MOVE.match(l) for l in lines)
    # A move during analysis: the analysis goes on from the new position.
    e.send("usermove e2e4")
    time.sleep(0.3)
    e.send(".")
    stat = e.until(lambda l: l.startswith("stat01:"))
    e.send("ping 1")
    later = e.until(lambda l: l == "pong 1")
    time.sleep(0.5)
    pvs = [THINKING.match(l).group(5) for l in stat + later if THINKING.match(l)]
    first = chess.Board()
    first.push_uci("e2e4")
    # Lines printed after the move are from Black's view.
    assert any(p and first.is_legal(chess.Move.from_uci(p.split()[0])) for p in pvs)
    # exclude/include: only e7e5 may be analysed.
    e.send("exclude all")
    e.send("include e7e5")
    e.send("ping 2")
    e.until(lambda l: l == "pong 2")
    lines = e.until(lambda l: THINKING.match(l) and int(THINKING.match(l).group(1)) >= 2)
    assert THINKING.match(lines[-1]).group(5).split()[0] == "e7e5"
    e.send("include all")
    e.send("undo")  # back to the start position, still analysing
    e.send("exit")
    e.send("ping 3")
    e.until(lambda l: l == "pong 3")
    e.quiet(0.5)


# --- variants in XBoard's notation -----------------------------------------------------------


def test_xiangqi_in_xboard_coordinates(xb):
    e = xb()
    e.send("new")
    e.send("variant xiangqi")
    e.send("st 0.3")
    e.send("usermove h2e2")  # Red's central cannon, ranks 0-9
    reply = e.move()
    assert re.fullmatch(r"[a-i][0-9][a-i][0-9]", reply), reply
    e.send("force")
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
    e.send("usermove b0c2")  # a horse, in XBoard's letters above
    e.send("usermove h9g7")
    assert e.sync() == []
    e.send("usermove a0a5")  # the rook is blocked by its own pawn on a3
    assert e.recv().startswith("Illegal move")


def test_shogi_in_xboard_coordinates(xb):
    import cshogi
    e = xb()
    e.send("new")
    e.send("variant shogi")
    e.send("st 0.3")
    e.send("usermove c3c4")  # 7g7f
    reply = e.move()
    assert re.fullmatch(r"[a-i][1-9][a-i][1-9][+]?|[PLNSGBR]@[a-i][1-9]", reply), reply
    board = cshogi.Board()
    board.push_usi("7g7f")
    usi = "%d%s%d%s" % (9 - (ord(reply[0]) - 97), chr(97 + 9 - int(reply[1])),
                        9 - (ord(reply[2]) - 97), chr(97 + 9 - int(reply[3]))) + reply[4:]
    assert board.is_legal(board.move_from_usi(usi)), (reply, usi)
    # XBoard's FEN: holdings in brackets, `w` for Sente; a drop as P@e5.
    e.send("force")
    e.send("setboard lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL[Pp] w 0 1")
    e.send("usermove P@e5")
    e.send("usermove P@e4")
    assert e.sync() == []
    e.send("usermove P@e6")  # no pawn left in hand
    assert e.recv().startswith("Illegal move")


def test_fischer_random_castling(xb):
    e = xb()
    e.send("new")
    e.send("variant fischerandom")
    e.send("force")
    fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
    e.send("setboard " + fen)
    # King f1 and rook g1 side by side: O-O puts the king on g1, the rook on f1.
    for m in ["e2e4", "e7e5"]:
        e.send("usermove " + m)
    e.send("usermove O-O")
    assert e.sync() == []
    board = chess.Board(fen, chess960=True)
    for m in ["e2e4", "e7e5"]:
        board.push_uci(m)
    board.push(board.parse_xboard("O-O"))
    e.send("st 0.3")
    e.send("go")
    m = e.move()
    board.push(board.parse_xboard(m))


# --- python-chess's XBoard client ------------------------------------------------------------


def test_python_chess_plays_analyses_and_pings(tengen_bin):
    engine = chess.engine.SimpleEngine.popen_xboard([tengen_bin])
    try:
        assert engine.id["name"].startswith("tengen")
        board = chess.Board()
        for _ in range(8):
            result = engine.play(board, chess.engine.Limit(time=0.1))
            assert result.move in board.legal_moves
            board.push(result.move)
            if board.is_game_over():
                break
        engine.ping()
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        assert info["depth"] >= 4 and info["pv"][0] in board.legal_moves
        assert "score" in info
        mate = chess.Board("7k/8/6K1/8/8/8/Q7/8 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=3))
        assert info["score"].white().mate() == 1
        clock = engine.play(chess.Board(), chess.engine.Limit(white_clock=3, black_clock=3,
                                                              white_inc=0.1, black_inc=0.1))
        assert clock.move in chess.Board().legal_moves
        engine.configure({"MoveOverhead": 40})
    finally:
        engine.quit()


def test_python_chess_chess960_game(tengen_bin):
    engine = chess.engine.SimpleEngine.popen_xboard([tengen_bin])
    try:
        board = chess.Board.from_chess960_pos(518 - 100)
        castled = False
        for _ in range(24):
            result = engine.play(board, chess.engine.Limit(time=0.05))
            assert result.move in board.legal_moves
            castled |= board.is_castling(result.move)
            board.push(result.move)
            if board.is_game_over():
                break
        assert board.chess960
    finally:
        engine.quit()


# --- tengen-arena driving CECP engines --------------------------------------------------------

PHALANX = debian_game("phalanx")
FAIRYMAX = debian_game("fairymax")
MAXQI = debian_game("maxqi")
GNUSHOGI = debian_game("gnushogi")


def arena(arena_bin, tmp_path, args, out_name, timeout=200, slow_opponent=False):
    """Runs a match; tengen never faults, nor (bar its own clock handling
    with `slow_opponent`) does the other engine."""
    out, summary, log = tmp_path / out_name, tmp_path / "s.json", tmp_path / "t.log"
    proc = subprocess.run([arena_bin] + args + ["-pgnout", str(out), "-jsonout", str(summary),
                                                "-debug", str(log)],
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    for r in data["games"]:
        loser = {"1-0": r["second"], "0-1": r["first"]}.get(r["result"])
        faults = ["illegal", "disconnects", "protocol", "could not start", "refused", "no move"]
        if loser == "tengen" or not slow_opponent:
            faults.append("on time")
        for fault in faults:
            assert fault not in r["reason"], (r, log.read_text()[-3000:])
    return out.read_text(), data, log.read_text()


@pytest.mark.parametrize("other", [p for p in [PHALANX, FAIRYMAX] if p])
def test_arena_chess_over_cecp(arena_bin, tengen_bin, tmp_path, other):
    text, data, log = arena(arena_bin, tmp_path, [
        "-engine", "cmd=" + tengen_bin, "name=tengen",
        "-engine", "cmd=" + other, "name=other",
        "-each", "proto=xboard", "tc=2+0.05", "timemargin=500", "-games", "2",
        "-maxmoves", "50", "-openings", "plies=2", "-srand", "3"], "games.pgn")
    assert "tengen#1 > protover 2" in log and "other#" in log
    import io
    f = io.StringIO(text)
    games = []
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    assert len(games) == 2
    for g in games:
        assert not g.errors
        board = g.board()
        for m in g.mainline_moves():
            assert board.is_legal(m)
            board.push(m)
        if board.is_checkmate():
            assert g.headers["Result"] == ("0-1" if board.turn == chess.WHITE else "1-0")


@pytest.mark.skipif(not MAXQI, reason="needs maxqi (Debian fairymax)")
def test_arena_xiangqi_over_cecp(arena_bin, tengen_bin, tmp_path):
    text, data, log = arena(arena_bin, tmp_path, [
        "-variant", "xiangqi",
        "-engine", "cmd=" + tengen_bin, "name=tengen",
        "-engine", "cmd=" + MAXQI, "name=maxqi",
        "-each", "proto=xboard", "tc=2+0.05", "timemargin=500", "-games", "2",
        "-maxmoves", "40", "-openings", "plies=2", "-srand", "4"], "games.pgn")
    assert "variant xiangqi" in log
    assert len(data["games"]) == 2
    for r in data["games"]:
        assert r["plies"] >= 3


@pytest.mark.skipif(not GNUSHOGI, reason="needs gnushogi")
def test_arena_shogi_over_cecp(arena_bin, tengen_bin, tmp_path):
    import cshogi
    import cshogi.CSA as CSA
    text, data, log = arena(arena_bin, tmp_path, [
        "-variant", "shogi",
        "-engine", "cmd=" + tengen_bin, "name=tengen",
        "-engine", "cmd=" + GNUSHOGI, "name=gnushogi",
        # GNU Shogi spends its whole clock on one move under `level 0`:
        # a moves-per-period control keeps it quick.
        "-each", "proto=xboard", "tc=40/10", "timemargin=1000", "-games", "2",
        "-maxmoves", "12", "-openings", "plies=2", "-srand", "4"], "games.csa",
        slow_opponent=True)
    assert "tengen#1 > variant shogi" in log
    # tengen speaks XBoard's coordinates, GNU Shogi (version 1) its own.
    assert re.search(r"tengen#\d > usermove [a-i][1-9][a-i][1-9]", log)
    records = [CSA.Parser.parse_str("V2.2" + p)[0] for p in text.split("V2.2") if p.strip()]
    assert len(records) == 2
    for rec in records:
        board = cshogi.Board()
        for m in rec.moves:
            assert board.is_legal(m)
            board.push(m)
        assert len(rec.moves) >= 3


# --- a real XBoard under Xvfb ------------------------------------------------------------------

XBOARD = debian_game("xboard")
XVFB_RUN = shutil.which("xvfb-run")


def xboard_match(tengen_bin, tmp_path, opponent, variant, pgn, games=2, tc="0:05"):
    """A two-game XBoard match (tengen first, `opponent` second), with
    XBoard's saved PGN and its debug log."""
    settings = tmp_path / "xboard.ini"
    debug = tmp_path / "xboard-debug.txt"
    cmd = [XVFB_RUN, "-a", XBOARD, "-variant", variant,
           "-fcp", tengen_bin, "-fd", str(tmp_path), "-scp", opponent, "-sd", str(tmp_path),
           "-mm", "-mg", str(games), "-tc", tc, "-inc", "0.05", "-adjudicateDrawMoves", "60",
           "-sgf", str(pgn), "-popupExitMessage", "false", "-xponder",
           "-settingsFile", str(settings), "-saveSettingsFile", str(settings),
           "-saveSettingsOnExit", "false", "-debug", "-nameOfDebugFile", str(debug)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    log = debug.read_text(errors="replace")
    # tengen never refused a command or a move, and XBoard took all of its.
    ours = [l for l in log.splitlines() if re.search(r"<(first|second) ?:", l)
            and (opponent == tengen_bin or "<first" in l)]
    assert ours and not any("Error (" in l or "Illegal move" in l for l in ours), ours[-20:]
    return pgn.read_text(), log


def pgn_games(text, first_tag="[Event"):
    return [first_tag + p if i else p for i, p in enumerate(text.split("\n\n" + first_tag)) if p.strip()]


@pytest.mark.skipif(not (XBOARD and XVFB_RUN and FAIRYMAX), reason="needs xboard, xvfb and fairymax")
def test_xboard_chess_match_against_fairymax(tengen_bin, tmp_path):
    text, log = xboard_match(tengen_bin, tmp_path, FAIRYMAX, "normal", tmp_path / "games.pgn")
    f = io.StringIO(text)
    games = []
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    assert len(games) == 2
    assert [g.headers["White"].split()[0] for g in games] == ["tengen", "Fairy-Max"]
    for g in games:
        assert not g.errors
        board = g.board()
        for m in g.mainline_moves():
            assert board.is_legal(m)
            board.push(m)
        assert g.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        if board.is_checkmate():
            assert g.headers["Result"] == ("0-1" if board.turn == chess.WHITE else "1-0")
    assert ">first : protover 2" in log or "protover 2" in log


@pytest.mark.skipif(not (XBOARD and XVFB_RUN and MAXQI), reason="needs xboard, xvfb and maxqi")
def test_xboard_xiangqi_match_against_maxqi(tengen_bin, tmp_path):
    import cchess
    text, log = xboard_match(tengen_bin, tmp_path, MAXQI, "xiangqi", tmp_path / "xq.pgn")
    games = pgn_games(text)
    assert len(games) == 2
    assert re.search(r">first : variant xiangqi", log)
    for n, g in enumerate(games):
        assert '[Variant "xiangqi"]' in g
        assert re.search(r'\[Result "(1-0|0-1|1/2-1/2)"\]', g)
        # The moves tengen sent were XBoard's coordinates (ICCS, ranks 0-9)
        # and XBoard replayed every one of them into its record.
    ours = re.findall(r"<first : move (\S+)", log)
    assert ours and all(re.fullmatch(r"[a-i][0-9][a-i][0-9]", m) for m in ours)
    # Replay the engines' moves of each game with cchess's rules.
    for game_moves in split_by_new(log):
        board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
        for mv in game_moves:
            assert board.is_valid_iccs_move(mv), (mv, game_moves)
            board.move_iccs(mv)
            board.next_turn()


def split_by_new(log):
    """The moves both engines played, per game, in order, from XBoard's
    debug log (`move X` from an engine; a game starts at `>first : new`)."""
    games, cur = [], None
    for line in log.splitlines():
        if re.search(r">first : new$", line):
            cur = []
            games.append(cur)
        m = re.search(r"<(first|second) ?: move (\S+)", line)
        if m and cur is not None:
            cur.append(m.group(2))
    return [g for g in games if g]


def xboard_shogi_to_usi(m):
    sq = lambda f, r: "%d%s" % (9 - (ord(f) - 97), chr(97 + 9 - int(r)))
    if m[1] == "@":
        return m[0] + "*" + sq(m[2], m[3])
    return sq(m[0], m[1]) + sq(m[2], m[3]) + ("+" if m.endswith("+") else "")


@pytest.mark.skipif(not (XBOARD and XVFB_RUN), reason="needs xboard and xvfb")
def test_xboard_shogi_game_tengen_vs_tengen(tengen_bin, tmp_path):
    """XBoard checks every move's legality itself (testLegality is on by
    default): a shogi game between two tengens must go through with no
    move refused on either side, in XBoard's coordinates."""
    import cshogi
    text, log = xboard_match(tengen_bin, tmp_path, tengen_bin, "shogi", tmp_path / "s.pgn",
                             games=1, tc="0:02")
    assert '[Variant "shogi"]' in text
    assert re.search(r'\[Result "(1-0|0-1|1/2-1/2)"\]', text)
    games = split_by_new(log)
    assert len(games) == 1 and len(games[0]) >= 10
    board = cshogi.Board()
    for m in games[0]:
        assert re.fullmatch(r"[a-i][1-9][a-i][1-9][+]?|[PLNSGBR]@[a-i][1-9]", m), m
        usi = xboard_shogi_to_usi(m)
        assert board.is_legal(board.move_from_usi(usi)), (m, usi)
        board.push_usi(usi)
