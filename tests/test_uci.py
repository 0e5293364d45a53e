"""UCI conformance: tengen driven by python-chess (a strict client) and by
raw transcripts, the way GUIs drive it."""
import subprocess
import threading
import time
import queue

import chess
import chess.engine
import pytest


class Raw:
    """A bare UCI session over pipes, with timed reads."""

    def __init__(self, binary, *args):
        self.p = subprocess.Popen(
            [binary, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def expect(self, predicate, timeout=10.0):
        """Reads until a line satisfies predicate; returns (line, seen)."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; saw {seen[-20:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise AssertionError(f"timed out; saw {seen[-20:]}")
            if line is None:
                raise AssertionError(f"engine exited; saw {seen[-20:]}")
            seen.append(line)
            if predicate(line):
                return line, seen

    def quiet_for(self, seconds, predicate):
        """True if no line satisfying predicate arrives within seconds."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return True
            if line is None or predicate(line):
                return False

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()


@pytest.fixture
def raw(tengen_bin):
    r = Raw(tengen_bin)
    r.send("uci")
    r.expect(lambda l: l == "uciok")
    yield r
    r.close()


@pytest.fixture
def engine(tengen_bin):
    e = chess.engine.SimpleEngine.popen_uci([tengen_bin])
    yield e
    e.quit()


def is_bestmove(line):
    return line.startswith("bestmove")


def test_handshake_lists_the_standard_options(engine):
    assert engine.id["name"].startswith("tengen")
    for name in [
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "Clear Hash",
        "Move Overhead",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "UCI_LimitStrength",
        "UCI_Elo",
        "UCI_AnalyseMode",
    ]:
        assert name in engine.options, name


def test_plays_a_legal_game_against_itself(engine):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < 60:
        result = engine.play(board, chess.engine.Limit(time=0.03))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_analyse_with_multipv_3(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    assert len(infos) == 3
    firsts = {info["pv"][0] for info in infos}
    assert len(firsts) == 3
    for info in infos:
        assert "score" in info and info["depth"] >= 1
        assert all(m in board.legal_moves for m in info["pv"][:1])
    # Ranked best first.
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_multipv_larger_than_legal_moves_reports_what_exists(engine):
    board = chess.Board("7k/8/8/8/8/8/6PP/7K w - - 0 1")  # few legal moves
    n = board.legal_moves.count()
    infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=50)
    assert len(infos) == n


def test_ponder_then_ponderhit(raw):
    raw.send("position startpos moves e2e4 e7e5")
    raw.send("go ponder wtime 2000 btime 2000 winc 0 binc 0")
    assert raw.quiet_for(0.5, is_bestmove), "bestmove while pondering"
    raw.send("ponderhit")
    line, _ = raw.expect(is_bestmove, timeout=5)
    move = line.split()[1]
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(move) in board.legal_moves


def test_ponder_miss_with_stop_still_answers_once(raw):
    raw.send("position startpos moves d2d4")
    raw.send("go ponder wtime 5000 btime 5000")
    assert raw.quiet_for(0.3, is_bestmove)
    raw.send("stop")
    raw.expect(is_bestmove, timeout=2)
    assert raw.quiet_for(0.5, is_bestmove), "a second bestmove"


def test_infinite_waits_for_stop_even_with_mate_found(raw):
    # Mate in one: the search finishes instantly but must hold bestmove.
    raw.send("position fen 6k1/5ppp/8/8/8/8/8/R6K w - - 0 1")
    raw.send("go infinite")
    assert raw.quiet_for(1.0, is_bestmove)
    raw.send("isready")
    raw.expect(lambda l: l == "readyok", timeout=0.5)
    t = time.monotonic()
    raw.send("stop")
    line, _ = raw.expect(is_bestmove, timeout=2)
    assert time.monotonic() - t < 0.5
    assert line.split()[1] == "a1a8"


def test_isready_and_stop_answered_within_100ms_during_search(raw):
    raw.send("position startpos")
    raw.send("go infinite")
    time.sleep(0.3)
    t = time.monotonic()
    raw.send("isready")
    raw.expect(lambda l: l == "readyok", timeout=2)
    assert time.monotonic() - t < 0.1
    t = time.monotonic()
    raw.send("stop")
    raw.expect(is_bestmove, timeout=2)
    assert time.monotonic() - t < 0.1


def test_quit_during_search_exits_within_a_second(tengen_bin):
    r = Raw(tengen_bin)
    r.send("uci")
    r.expect(lambda l: l == "uciok")
    r.send("position startpos")
    r.send("go infinite")
    time.sleep(0.2)
    t = time.monotonic()
    r.send("quit")
    r.p.wait(timeout=5)
    assert time.monotonic() - t < 1.0
    assert r.p.returncode == 0


def test_chess960_game_from_a_non_standard_start(engine):
    board = chess.Board.from_chess960_pos(123)
    assert board.fen() != chess.STARTING_FEN
    castled = False
    while not board.is_game_over(claim_draw=True) and board.ply() < 50:
        result = engine.play(board, chess.engine.Limit(time=0.03))
        assert result.move in board.legal_moves
        castled |= board.is_castling(result.move)
        board.push(result.move)


def test_chess960_castling_notation_is_king_takes_rook(raw):
    raw.send("setoption name UCI_Chess960 value true")
    # Only castling king-side is sensible: king g1? use a position where
    # castling is legal and the rest is blocked.
    raw.send("position fen 4k3/8/8/8/8/8/PPPPPPPP/RN2K2R w KQ - 0 1")
    raw.send("go perft 1")
    _, seen = raw.expect(lambda l: l.startswith("Nodes searched"))
    moves = {l.split(":")[0] for l in seen if ":" in l and not l.startswith("Nodes")}
    assert "e1h1" in moves and "e1g1" not in moves
    raw.send("setoption name UCI_Chess960 value false")
    raw.send("go perft 1")
    _, seen = raw.expect(lambda l: l.startswith("Nodes searched"))
    moves = {l.split(":")[0] for l in seen if ":" in l and not l.startswith("Nodes")}
    assert "e1g1" in moves and "e1h1" not in moves


def test_go_perft_prints_divide_and_total(raw):
    raw.send("position startpos")
    raw.send("go perft 3")
    line, seen = raw.expect(lambda l: l.startswith("Nodes searched"))
    assert line == "Nodes searched: 8902"
    divide = [l for l in seen if ": " in l and not l.startswith("Nodes")]
    assert len(divide) == 20
    assert sum(int(l.split(": ")[1]) for l in divide) == 8902


def test_illegal_move_rejects_the_whole_position_command(raw):
    raw.send("position startpos moves e2e4")
    raw.send("position startpos moves d2d4 d7d5 e1e3")
    line, _ = raw.expect(lambda l: l.startswith("info string"))
    assert "e1e3" in line
    raw.send("go depth 3")
    line, _ = raw.expect(is_bestmove)
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
        "k7/8/8/8/8/8/8/KQ5P w - - 0 1",  # pawn on rank 1
        "k7/1Q6/8/8/8/8/8/K7 w - - 0 1",  # side not to move in check
        "kk6/8/8/8/8/8/8/K7 w - - 0 1",
        "garbage",
    ],
)
def test_malformed_fen_keeps_the_previous_position(raw, fen):
    raw.send("position startpos moves g1f3")
    raw.send(f"position fen {fen}")
    line, _ = raw.expect(lambda l: l.startswith("info string"))
    assert "fen" in line.lower()
    raw.send("go depth 2")
    line, _ = raw.expect(is_bestmove)
    board = chess.Board()
    board.push_uci("g1f3")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves


def test_unknown_commands_and_bad_options_change_nothing(raw):
    raw.send("xyzzy plugh")
    raw.expect(lambda l: l.startswith("info string"))
    raw.send("setoption name Hash value lots")
    raw.expect(lambda l: l.startswith("info string") and "Hash" in l)
    raw.send("setoption name NoSuchOption value 1")
    raw.expect(lambda l: l.startswith("info string") and "NoSuchOption" in l)
    raw.send("setoption name MultiPV value 100000")  # clamped, accepted
    raw.send("go depth x")
    raw.expect(lambda l: l.startswith("info string"))
    raw.send("isready")
    raw.expect(lambda l: l == "readyok")
    raw.send("position startpos")
    raw.send("go depth 3")
    raw.expect(is_bestmove)


def test_searchmoves_restricts_the_root(engine):
    board = chess.Board()
    result = engine.play(
        board, chess.engine.Limit(depth=6), root_moves=[chess.Move.from_uci("a2a3")]
    )
    assert result.move == chess.Move.from_uci("a2a3")


def test_mate_search_reports_mate(engine):
    # Mate in 2: a known two-mover.
    board = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 0")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    assert info["score"].relative.mate() == 2
    assert info["pv"][0] == chess.Move.from_uci("d5f6")


def test_wdl_only_when_asked(raw):
    raw.send("position startpos")
    raw.send("go depth 4")
    _, seen = raw.expect(is_bestmove)
    assert not any(" wdl " in l for l in seen)
    raw.send("setoption name UCI_ShowWDL value true")
    raw.send("go depth 4")
    _, seen = raw.expect(is_bestmove)
    wdl = [l for l in seen if " wdl " in l]
    assert wdl
    w, d, l = (int(x) for x in wdl[-1].split(" wdl ")[1].split()[:3])
    assert w + d + l == 1000


def test_no_legal_move_answers_none(raw):
    raw.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    raw.send("go depth 3")
    line, _ = raw.expect(is_bestmove)
    assert line == "bestmove (none)"


def test_limit_strength_plays_legal_moves(engine):
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1400})
    board = chess.Board()
    for _ in range(10):
        result = engine.play(board, chess.engine.Limit(time=0.05))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_keeps_time_at_one_second_plus_hundredth(tengen_bin):
    """A game at 1 s + 0.01 s per side, clocks kept here: never flags."""
    engine = chess.engine.SimpleEngine.popen_uci([tengen_bin])
    try:
        board = chess.Board()
        clock = {chess.WHITE: 1.0, chess.BLACK: 1.0}
        inc = 0.01
        while not board.is_game_over(claim_draw=True) and board.ply() < 160:
            side = board.turn
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            t = time.monotonic()
            result = engine.play(board, limit)
            used = time.monotonic() - t
            clock[side] -= used
            assert clock[side] > 0, f"flagged at ply {board.ply()}"
            clock[side] += inc
            board.push(result.move)
    finally:
        engine.quit()


def test_crlf_and_tabs_are_tolerated(tengen_bin):
    p = subprocess.run(
        [tengen_bin],
        input="uci\r\n\tisready  \r\nposition startpos moves e2e4\rgo depth 2\r\n",
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert "uciok" in p.stdout and "readyok" in p.stdout
    assert "bestmove" in p.stdout


def test_unknown_protocol_flag_is_an_error(tengen_bin):
    p = subprocess.run([tengen_bin, "--protocol", "telnet"], capture_output=True, text=True, timeout=10)
    assert p.returncode == 2
    assert "telnet" in p.stderr


def test_legal_and_perft_subcommands(tengen_bin):
    p = subprocess.run(
        [tengen_bin, "legal", "--game", "chess", "--position", "startpos", "--moves", "f2f3", "e7e5", "g2g4", "d8h4"],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert p.returncode == 0
    assert p.stdout.strip().splitlines() == ["result: black checkmate"]
    p = subprocess.run(
        [tengen_bin, "perft", "--game", "chess", "--position", "startpos", "--depth", "4"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert p.stdout.strip() == "197281"
    p = subprocess.run(
        [tengen_bin, "legal", "--game", "chess", "--position", "not a fen"],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run(
        [tengen_bin, "legal", "--game", "chess", "--moves", "e2e5"],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert p.returncode == 2 and "e2e5" in p.stderr


def test_xiangqi_over_uci_with_uci_variant(raw):
    import pyffish

    raw.send("setoption name UCI_Variant value xiangqi")
    raw.send("isready")
    raw.expect(lambda l: l == "readyok")
    fen = pyffish.start_fen("xiangqi")
    moves = []
    for _ in range(6):
        raw.send("position startpos moves " + " ".join(moves))
        raw.send("go depth 3")
        line, _ = raw.expect(is_bestmove)
        move = line.split()[1]
        assert move in pyffish.legal_moves("xiangqi", fen, moves), (moves, move)
        moves.append(move)
    raw.send("position startpos moves " + " ".join(moves))
    raw.send("go perft 2")
    line, _ = raw.expect(lambda l: l.startswith("Nodes searched"))
    after = pyffish.legal_moves("xiangqi", fen, moves)
    expected = sum(len(pyffish.legal_moves("xiangqi", fen, moves + [m])) for m in after)
    assert line == f"Nodes searched: {expected}"


def test_xiangqi_over_uci_from_the_command_line(tengen_bin):
    import pyffish

    p = subprocess.run(
        [tengen_bin, "--game", "xiangqi"],
        input="uci\nposition startpos moves h3e3\ngo depth 3\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    best = [l for l in p.stdout.splitlines() if l.startswith("bestmove")]
    assert best, p.stdout
    fen = pyffish.start_fen("xiangqi")
    assert best[0].split()[1] in pyffish.legal_moves("xiangqi", fen, ["h3e3"])


def test_lazy_smp_threads_search_together(raw):
    raw.send("setoption name Threads value 2")
    raw.send("setoption name Hash value 32")
    raw.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    raw.send("go depth 9")
    line, seen = raw.expect(is_bestmove, timeout=60)
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves
    depths = [int(l.split()[2]) for l in seen if l.startswith("info depth") and " pv " in l]
    assert max(depths) == 9
    raw.send("setoption name Clear Hash")
    raw.send("ucinewgame")
    raw.send("isready")
    raw.expect(lambda l: l == "readyok")
