"""AGI conformance: a project-written GUI harness (no AGI GUI exists here)
sends the draft's commands and checks the replies; renju legality of the
engine's moves is judged by the `renju` package."""
import queue
import subprocess
import threading
import time

import pytest
from renju.check_forbid import get_foul_type


class Agi:
    def __init__(self, binary):
        self.p = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.q = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\r\n"))
        self.q.put(None)

    def send(self, *lines):
        for line in lines:
            self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def line(self, timeout=10.0):
        return self.q.get(timeout=timeout)

    def until(self, prefix, timeout=15.0):
        """Lines up to and including the first starting with `prefix`."""
        got = []
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.01, end - time.time()))
            assert line is not None, f"engine exited; saw {got}"
            got.append(line)
            if line.startswith(prefix):
                return got

    def no_line(self, prefix, wait=0.5):
        end = time.time() + wait
        while time.time() < end:
            try:
                line = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                return
            assert line is None or not line.startswith(prefix), line

    def close(self):
        if self.p.poll() is None:
            try:
                self.send("QUIT")
                self.p.wait(timeout=3)
            except Exception:
                self.p.kill()


@pytest.fixture
def agi(tengen_bin):
    e = Agi(tengen_bin)
    yield e
    e.close()


def point(hexpair):
    """AGI point -> Gomocup (x, y)."""
    return int(hexpair[1], 16) - 1, int(hexpair[0], 16)


def stones(moves):
    return [moves[i : i + 2] for i in range(0, len(moves), 2)]


def bestmove(lines):
    last = lines[-1].split()
    assert last[0] == "BESTMOVE"
    return last


def test_handshake_and_the_drafts_example(agi):
    agi.send("AGI")
    lines = agi.until("AGIOK")
    assert lines[0].startswith("ID NAME tengen")
    assert lines[1].startswith("ID AUTHOR ")
    assert lines[2] == "OPTION OWNBOOK TRUE PONDER TRUE"
    agi.send("SETRULE FORBIDDEN", "SETOPTION OWNBOOK OFF", "ISREADY")
    assert agi.until("READYOK") == ["READYOK"]  # SETRULE/SETOPTION are silent
    agi.send("POSITION MOVES 78685A69", "GO TIME 3000")
    lines = agi.until("BESTMOVE")
    assert any(l.startswith("INFO DEPTH") for l in lines)
    assert any(l.startswith("INFO SEARCH ") for l in lines)
    bm = bestmove(lines)
    move = bm[1]
    assert len(move) == 2 and move not in stones("78685A69")
    if len(bm) == 4:
        assert bm[2] == "PONDER" and bm[3] != move
    agi.send("DOMOVE " + move, "GO PONDER")
    time.sleep(0.3)
    agi.send("ISREADY")
    agi.until("READYOK")  # answered while pondering
    reply = "89" if move != "89" else "8A"
    agi.send("DOMOVE " + reply)
    agi.no_line("BESTMOVE", 0.5)  # the ponder search never answers
    agi.send("GO TIME 2900")
    bm = bestmove(agi.until("BESTMOVE"))
    assert bm[1] not in stones("78685A69") + [move, reply]
    agi.send("QUIT")
    assert agi.until("BYE")[-1] == "BYE"
    assert agi.p.wait(timeout=2) == 0


def mirrored(points):
    """AGI points reflected left to right (column c becomes 16 - c)."""
    return "".join(
        points[i] + "%X" % (16 - int(points[i + 1], 16)) for i in range(0, len(points), 2)
    )


def test_own_book_answers_an_opening_at_once_and_can_be_turned_off(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    # A renju opening (black centre, white above it, black two up and two
    # right): in the book, so the answer comes without a search, and the
    # mirrored opening gets the mirrored answer.
    answers = []
    for moves in ["78685A", mirrored("78685A")]:
        agi.send("POSITION MOVES " + moves, "GO TIME 3000")
        t = time.time()
        lines = agi.until("BESTMOVE")
        assert time.time() - t < 1.0, lines
        assert not any(l.startswith("INFO SEARCH ") for l in lines), lines
        move = bestmove(lines)[1]
        assert move not in stones(moves)
        answers.append(move)
    assert answers[1] == mirrored(answers[0])
    agi.send("SETOPTION OWNBOOK OFF", "POSITION MOVES 78685A", "GO TIME 1000")
    lines = agi.until("BESTMOVE")
    assert any(l.startswith("INFO SEARCH ") for l in lines)


def test_keywords_are_case_insensitive(agi):
    agi.send("agi")
    agi.until("AGIOK")
    agi.send("setrule unforbidden", "position statu 78695a moves 68", "isready")
    agi.until("READYOK")
    agi.send("go time 500")
    bm = bestmove(agi.until("BESTMOVE"))
    assert bm[1] not in ["78", "69", "5A", "68"]


def test_stop_and_infinite(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    agi.send("STOP", "ISREADY")  # STOP when idle: nothing
    assert agi.until("READYOK") == ["READYOK"]

    agi.send("POSITION MOVES 7868", "GO INFINITE")
    agi.no_line("BESTMOVE", 1.0)  # never on its own
    agi.send("ISREADY")
    agi.until("READYOK")
    t = time.time()
    agi.send("STOP")
    bm = bestmove(agi.until("BESTMOVE"))
    assert time.time() - t < 2.0
    assert bm[1] not in ["78", "68"]
    agi.send("STOP", "ISREADY")
    assert not any(l.startswith("BESTMOVE") for l in agi.until("READYOK"))
    # TIME INFINITE and a glued SEARCH list (the draft's example)
    agi.send("GO SEARCH 67596A6BINFINITE")
    time.sleep(0.3)
    agi.send("STOP")
    bm = bestmove(agi.until("BESTMOVE"))
    assert bm[1] in ["67", "59", "6A", "6B"]
    agi.send("GO TIME INFINITE")
    time.sleep(0.2)
    agi.send("STOP")
    bestmove(agi.until("BESTMOVE"))
    # Ponder ended by STOP: silent.
    agi.send("GO PONDER")
    time.sleep(0.2)
    agi.send("STOP", "ISREADY")
    # Ponder INFO lines may come, a BESTMOVE never.
    assert not any(l.startswith("BESTMOVE") for l in agi.until("READYOK"))
    agi.no_line("BESTMOVE", 0.5)


def test_time_zero_and_bare_go(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    agi.send("POSITION MOVES 78")
    t = time.time()
    agi.send("GO TIME 0")
    bestmove(agi.until("BESTMOVE"))
    assert time.time() - t < 2.0
    agi.send("GO")
    bestmove(agi.until("BESTMOVE", timeout=10))


def test_malformed_input_is_ignored(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    agi.send("POSITION MOVES 78")
    for bad in [
        "POSITION MOVES 786",
        "POSITION MOVES 7878",
        "POSITION MOVES 00",
        "POSITION MOVES F1",
        "DOMOVE 78",
        "DOMOVE",
        "SETRULE FOO",
        "GO TIME abc",
        "FROBNICATE",
    ]:
        agi.send(bad)
    agi.send("ISREADY")
    assert agi.until("READYOK") == ["READYOK"]
    agi.send("GO TIME 1000")
    bm = bestmove(agi.until("BESTMOVE"))
    assert bm[1] != "78"  # the position is still black 78, white to move
    assert agi.p.poll() is None


def test_quit_while_thinking(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    agi.send("POSITION MOVES 7868", "GO INFINITE")
    time.sleep(0.3)
    t = time.time()
    agi.send("QUIT")
    lines = agi.until("BYE")
    assert not any(l.startswith("BESTMOVE") for l in lines)
    assert agi.p.wait(timeout=2) == 0
    assert time.time() - t < 2.0


def test_swap_rules(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    # Without a swap rule CHANGE never appears.
    agi.send("SETRULE UNFORBIDDEN", "POSITION MOVES 78", "GO TIME 3000")
    assert bestmove(agi.until("BESTMOVE"))[1] != "CHANGE"
    # FIRSTCHANGE: after one black stone white may swap; the answer is
    # either CHANGE or a legal move.
    agi.send("SETRULE UNFORBIDDENFIRSTCHANGE", "POSITION MOVES 78", "GO TIME 3000")
    ans = bestmove(agi.until("BESTMOVE"))[1]
    assert ans == "CHANGE" or (len(ans) == 2 and ans != "78")
    # A centre stone in freestyle is a big advantage: take it.
    assert ans == "CHANGE"
    # THIRDCHANGE after three stones; not offered after two.
    agi.send("SETRULE FORBIDDEN THIRDCHANGE", "POSITION MOVES 787968", "GO TIME 3000")
    ans = bestmove(agi.until("BESTMOVE"))[1]
    assert ans == "CHANGE" or ans not in ["78", "79", "68"]
    agi.send("POSITION MOVES 7879", "GO TIME 1000")
    assert bestmove(agi.until("BESTMOVE"))[1] != "CHANGE"


def test_swap_decision_does_not_block_isready(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    # Three stones under THIRDCHANGE: white weighs the swap with a short
    # search (up to 1.5 s of a 45 s clock) on its own thread.
    agi.send("SETRULE UNFORBIDDEN THIRDCHANGE", "POSITION MOVES 787967", "GO TIME 45000", "ISREADY")
    got = agi.until("BESTMOVE")
    assert got[0] == "READYOK", got
    ans = bestmove(got)[1]
    assert ans == "CHANGE" or (len(ans) == 2 and ans not in ["78", "79", "67"])
    # STOP during the decision: exactly one BESTMOVE.
    agi.send("GO TIME 45000", "STOP", "ISREADY")
    got = agi.until("READYOK")
    assert sum(l.startswith("BESTMOVE") for l in got) == 1, got
    agi.no_line("BESTMOVE", wait=2.0)
    # A new position during the decision: its BESTMOVE comes first.
    agi.send("GO TIME 45000", "POSITION MOVES 78", "ISREADY")
    got = agi.until("READYOK")
    assert sum(l.startswith("BESTMOVE") for l in got) == 1, got
    agi.no_line("BESTMOVE", wait=2.0)


def test_fifth_move_offers(agi):
    agi.send("AGI")
    agi.until("AGIOK")
    agi.send("SETRULE FORBIDDEN FIVETWINE", "POSITION MOVES 78796867", "GO TIME 3000")
    ans = bestmove(agi.until("BESTMOVE"))[1]
    offers = stones(ans)
    assert len(offers) == 2 and offers[0] != offers[1]
    assert not set(offers) & set(stones("78796867"))
    agi.send("SETRULE FIVEMULITY", "GO TIME 3000")
    offers = stones(bestmove(agi.until("BESTMOVE"))[1])
    assert len(offers) >= 2 and len(set(offers)) == len(offers)
    # Other moves are single points.
    agi.send("POSITION MOVES 7879686759", "GO TIME 1000")
    assert len(bestmove(agi.until("BESTMOVE"))[1]) == 2


def test_black_never_plays_a_forbidden_point(agi):
    # Black 76 77 5A 69 (plus a far pair): 78 would be a double three.
    agi.send("AGI")
    agi.until("AGIOK")
    seq = ["76", "11", "77", "1F", "5A", "E1", "69", "EF"]
    agi.send("SETRULE FORBIDDEN", "POSITION MOVES " + "".join(seq), "GO TIME 2000")
    move = bestmove(agi.until("BESTMOVE"))[1]
    grid = [[0] * 15 for _ in range(15)]
    for i, s in enumerate(seq):
        x, y = point(s)
        grid[x][y] = 1 if i % 2 == 0 else 2
    x, y = point(move)
    assert grid[x][y] == 0
    assert get_foul_type(grid, x, y) == 0, move


def test_reports_a_found_win(agi):
    # Black to move with an open three and a crossing two: a VCF/VCT win.
    agi.send("AGI")
    agi.until("AGIOK")
    seq = ["77", "11", "78", "1F", "79", "E1"]
    agi.send("SETRULE UNFORBIDDEN", "POSITION MOVES " + "".join(seq), "GO TIME 3000")
    lines = agi.until("BESTMOVE")
    assert any(" WIN " in l + " " for l in lines if l.startswith("INFO")), lines
    move = bestmove(lines)[1]
    assert move in ["76", "7A"]  # the straight four


def test_random_garbage_never_kills_the_engine(agi):
    import random

    rng = random.Random(5)
    words = ["POSITION", "MOVES", "STATU", "GO", "SEARCH", "TIME", "DOMOVE", "SETRULE", "SETOPTION", "STOP", "PONDER"]
    agi.send("AGI")
    agi.until("AGIOK")
    for _ in range(300):
        parts = [rng.choice(words) for _ in range(rng.randint(1, 3))]
        parts.append(rng.choice(["78", "7", "00", "EF", "FF", "786", "é", "0", "123456", ""]))
        line = " ".join(parts)
        if line.startswith("GO") and "PONDER" not in line:
            continue  # a GO would owe a BESTMOVE; covered elsewhere
        agi.send(line)
    agi.send("STOP", "POSITION MOVES 78", "ISREADY")
    agi.until("READYOK", timeout=30)
    agi.send("GO TIME 500")
    bm = bestmove(agi.until("BESTMOVE", timeout=30))
    assert bm[1] != "78"
    assert agi.p.poll() is None
