"""Gomocup (pbrain) conformance: drive `tengen` like a Gomocup manager and
referee the stones with the `renju` package (an independent port of the
Piskvork judge). Also checks `tengen legal --game gomoku` against that
judge on random renju positions."""
import queue
import random
import subprocess
import threading
import time

import pytest
from renju import RenjuBoard
from renju.check_forbid import get_foul_type


class Brain:
    def __init__(self, binary, *args):
        self.p = subprocess.Popen(
            [binary, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
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
            self.p.stdin.write(line + "\r\n")
        self.p.stdin.flush()

    def line(self, timeout=10.0):
        return self.q.get(timeout=timeout)

    def reply(self, timeout=10.0):
        """The next line that is not MESSAGE/DEBUG."""
        while True:
            line = self.line(timeout)
            if line is None or not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def replies_until_move(self, timeout=30.0):
        """All lines up to and including the first that is not MESSAGE/DEBUG."""
        got = []
        while True:
            line = self.line(timeout)
            assert line is not None, f"brain exited; saw {got}"
            got.append(line)
            if not line.startswith(("MESSAGE", "DEBUG")):
                return got

    def silent(self, wait=0.3):
        try:
            line = self.q.get(timeout=wait)
        except queue.Empty:
            return True
        pytest.fail(f"unexpected output {line!r}")

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=3)
        except Exception:
            self.p.kill()


def xy(text):
    x, y = text.split(",")
    return int(x), int(y)


@pytest.fixture
def brain(tengen_bin):
    b = Brain(tengen_bin)
    yield b
    b.close()


def test_transcript_covers_every_command(brain):
    brain.send("START 15")
    assert brain.reply() == "OK"
    brain.send(
        "INFO timeout_turn 500",
        "INFO timeout_match 60000",
        "INFO max_memory 83886080",
        "INFO rule 4",
        "INFO game_type 1",
        "INFO folder /tmp",
        "INFO some_unknown_key 7",
    )
    brain.silent()  # INFO is never answered
    brain.send("ABOUT")
    about = brain.reply()
    assert 'name="tengen"' in about and 'version="' in about and 'author="' in about
    brain.send("INFO time_left 60000", "BEGIN")
    first = xy(brain.reply())
    assert first == (7, 7)
    brain.send("TURN 8,8")
    mv = xy(brain.reply())
    assert mv not in [(7, 7), (8, 8)] and all(0 <= c < 15 for c in mv)
    brain.send("TAKEBACK %d,%d" % mv)
    assert brain.reply() == "OK"
    brain.send("TAKEBACK 8,8")
    assert brain.reply() == "OK"
    brain.send("TURN 8,8")
    mv2 = xy(brain.reply())
    assert mv2 not in [(7, 7), (8, 8)]
    # PLAY imposes a move: echoed.
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("BEGIN")
    xy(brain.reply())
    brain.send("TURN 0,0")
    xy(brain.reply())
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("BOARD", "7,7,1", "6,8,2", "DONE")
    mv = xy(brain.reply())
    assert mv not in [(7, 7), (6, 8)]
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("BOARD", "7,7,2", "DONE")
    assert xy(brain.reply()) != (7, 7)
    brain.send("PLAY 3,3")
    assert brain.reply() == "3,3"
    brain.send("RECTSTART 20,10")
    assert brain.reply() == "OK"
    brain.send("BEGIN")
    x, y = xy(brain.reply())
    assert 0 <= x < 20 and 0 <= y < 10
    brain.send("TURN 19,9")
    x, y = xy(brain.reply())
    assert (x, y) != (19, 9) and 0 <= x < 20 and 0 <= y < 10
    brain.send("START 20")
    assert brain.reply() == "OK"
    brain.send("SWAP2BOARD", "DONE")
    three = brain.reply().split()
    assert len(three) == 3 and len({xy(p) for p in three}) == 3
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("SWAP2BOARD", "9,9", "10,9", "11,11", "DONE")
    ans = brain.reply()
    assert swap2_answer_ok(ans, [(9, 9), (10, 9), (11, 11)], max_points=2)
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("SWAP2BOARD", "9,9", "10,9", "11,11", "9,10", "9,11", "DONE")
    ans = brain.reply()
    assert ans == "SWAP" or xy(ans) not in [(9, 9), (10, 9), (11, 11), (9, 10), (9, 11)]
    brain.send("END")
    assert brain.p.wait(timeout=2) == 0


def swap2_answer_ok(ans, taken, max_points):
    """SWAP, or up to `max_points` distinct free points."""
    if ans == "SWAP":
        return True
    pts = [xy(p) for p in ans.split()]
    return 1 <= len(pts) <= max_points and len(set(pts)) == len(pts) and not set(pts) & set(taken)


def test_swap2_second_player_may_add_two_stones(brain):
    # Facing three stones the brain swaps, plays the fourth stone, or adds
    # stones four and five (white, black) and leaves the colour choice to
    # the opponent; the game then goes on from a BOARD like any other.
    brain.send("START 15", "INFO timeout_turn 1500")
    assert brain.reply() == "OK"
    brain.send("SWAP2BOARD", "DONE")
    own = [xy(p) for p in brain.reply().split()]
    openings = [own, [(7, 7), (8, 7), (5, 9)], [(7, 7), (7, 8), (9, 6)]]
    two = 0
    for three in openings:
        brain.send("RESTART")
        assert brain.reply() == "OK"
        brain.send("SWAP2BOARD", *[f"{x},{y}" for x, y in three], "DONE")
        ans = brain.reply()
        assert swap2_answer_ok(ans, three, max_points=2), ans
        if len(ans.split()) != 2:
            continue
        two += 1
        five = three + [xy(p) for p in ans.split()]
        # The opponent keeps black (stones 1, 3, 5): we are white, to move.
        brain.send("BOARD", *[f"{x},{y},{2 if i % 2 == 0 else 1}" for i, (x, y) in enumerate(five)], "DONE")
        mv = xy(brain.reply())
        assert mv not in five and 0 <= mv[0] < 15 and 0 <= mv[1] < 15
    print(f"two-stone answers: {two} of {len(openings)}")


def test_errors_keep_the_state(brain):
    brain.send("TURN 7,7")
    assert brain.reply().startswith("ERROR")  # no START yet
    brain.send("START 4")
    assert brain.reply().startswith("ERROR")
    brain.send("START 33")
    assert brain.reply().startswith("ERROR")
    brain.send("START 32")
    assert brain.reply() == "OK"
    brain.send("START 15")
    assert brain.reply() == "OK"
    brain.send("INFO timeout_turn 200", "BEGIN")
    assert xy(brain.reply()) == (7, 7)
    brain.send("TURN 7,7")
    assert brain.reply().startswith("ERROR")
    brain.send("TURN 15,3")
    assert brain.reply().startswith("ERROR")
    brain.send("TURN 3")
    assert brain.reply().startswith("ERROR")
    brain.send("BOARD", "1,1,1", "1,1,2", "DONE")
    assert brain.reply().startswith("ERROR")
    brain.send("BOARD", "1,1,7", "DONE")
    assert brain.reply().startswith("ERROR")
    brain.send("TAKEBACK 0,0")
    assert brain.reply().startswith("ERROR")
    brain.send("YXSHOWFORBID")
    assert brain.reply().startswith("UNKNOWN")
    brain.send("SWAP2BOARD", "1,1", "DONE")
    assert brain.reply().startswith("ERROR")
    # The board is still the one with the centre stone only.
    brain.send("TURN 8,8")
    assert xy(brain.reply()) not in [(7, 7), (8, 8)]


def test_node_and_depth_limits(brain):
    # Yixin's INFO max_node / max_depth (as Rapfi and Yixin-Board send
    # them): the move no longer depends on the clock, so the same position
    # gets the same answer, and the search stays within the limit.
    def think(*info):
        brain.send("RESTART")
        assert brain.reply() == "OK"
        # Off the opening book (no black stone at the centre), so it searches.
        brain.send(*info, "BOARD", "6,6,1", "7,7,2", "7,5,1", "5,7,2", "DONE")
        lines = brain.replies_until_move()
        debug = next(l for l in lines if l.startswith("DEBUG depth"))
        words = debug.split()
        return int(words[words.index("nodes") + 1]), int(words[2]), lines[-1]

    brain.send("START 15", "INFO timeout_turn 30000")
    assert brain.reply() == "OK"
    n1, _, m1 = think("INFO max_node 4000")
    n2, _, m2 = think("INFO max_node 4000")
    assert (n1, m1) == (n2, m2)
    assert n1 <= 4000 * 11 // 10
    n3, _, _ = think("INFO max_node 40000")
    assert n3 > n1
    _, d, _ = think("INFO max_node 0", "INFO max_depth 2")
    assert d <= 2
    # max_node 0 and max_depth 0 lift the limits again: the clock rules.
    brain.send("INFO max_depth 0", "INFO timeout_turn 200")
    _, d, _ = think()
    assert d >= 1


def test_an_opening_of_the_book_is_answered_without_a_search(brain):
    # 15x15 freestyle from the empty board: the book's first move, no node
    # searched; a position off the book (no black stone at the centre) is
    # searched as before.
    brain.send("START 15", "INFO timeout_turn 5000", "INFO rule 0")
    assert brain.reply() == "OK"
    t = time.time()
    brain.send("BEGIN")
    lines = brain.replies_until_move()
    assert time.time() - t < 1.0
    debug = next(l for l in lines if l.startswith("DEBUG depth"))
    assert debug.split()[1:3] == ["depth", "0"] and " nodes 0 " in debug, debug
    x, y = xy(lines[-1])
    assert 0 <= x < 15 and 0 <= y < 15
    brain.send("RESTART")
    assert brain.reply() == "OK"
    brain.send("INFO max_node 3000", "BOARD", "6,6,1", "7,7,2", "DONE")
    debug = next(l for l in brain.replies_until_move() if l.startswith("DEBUG depth"))
    assert " nodes 0 " not in debug, debug


def test_turn_time_is_kept(brain):
    # Generous slack: the machine running the tests may be heavily loaded.
    # Without a limit the brain would think 5 s (its default) per move.
    brain.send("START 15", "INFO timeout_turn 300", "INFO rule 0")
    assert brain.reply() == "OK"
    brain.send("BEGIN")
    brain.reply()
    for mv in ["8,8", "6,9", "10,4"]:
        t = time.time()
        brain.send("TURN " + mv)
        brain.reply()
        assert time.time() - t < 0.3 + 2.0
    brain.send("INFO timeout_turn 0")
    t = time.time()
    brain.send("TURN 2,2")
    brain.reply()
    assert time.time() - t < 2.0
    brain.send("INFO timeout_turn 10000", "INFO time_left -5")
    t = time.time()
    brain.send("TURN 12,12")
    brain.reply()
    assert time.time() - t < 2.0


def test_end_while_thinking_exits_quickly(tengen_bin):
    b = Brain(tengen_bin)
    b.send("START 20", "INFO timeout_turn 30000", "INFO timeout_match 0")
    assert b.reply() == "OK"
    b.send("BOARD", "10,10,1", "11,11,2", "9,11,1", "12,12,2", "DONE")
    time.sleep(0.3)
    t = time.time()
    b.send("END")
    assert b.p.wait(timeout=2) == 0
    assert time.time() - t < 2.0


def test_stop_makes_it_move_now(tengen_bin):
    b = Brain(tengen_bin)
    b.send("START 20", "INFO timeout_turn 30000")
    assert b.reply() == "OK"
    b.send("BOARD", "10,10,1", "11,11,2", "9,11,1", "12,12,2", "DONE")
    time.sleep(0.3)
    t = time.time()
    b.send("YXSTOP")
    xy(b.reply())
    assert time.time() - t < 2.0
    b.close()


def referee_game(tengen_bin, rule_bits, rule_name, brains_first_black=True, turn_ms=100, max_moves=120):
    """Two brain processes play each other; the renju judge referees."""
    a, b = Brain(tengen_bin), Brain(tengen_bin)
    board = RenjuBoard(board_size=15, rule=rule_name)
    try:
        for br in (a, b):
            br.send("START 15", f"INFO timeout_turn {turn_ms}", f"INFO rule {rule_bits}")
            assert br.reply() == "OK"
        a.send("BEGIN")
        mv = xy(a.reply())
        status, reason = board.play_move(*mv)
        side, other = b, a
        moves = 1
        while str(status.name) == "ONGOING" and moves < max_moves:
            side.send("TURN %d,%d" % mv)
            mv = xy(side.reply())
            status, reason = board.play_move(*mv)
            side, other = other, side
            moves += 1
        return status.name, str(reason), moves
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("bits,name", [(0, "freestyle"), (1, "standard"), (4, "renju")])
def test_self_play_game_is_legal_and_decisive(tengen_bin, bits, name):
    status, reason, moves = referee_game(tengen_bin, bits, name)
    # Every move was accepted by the judge, and no game ended by a foul.
    assert status in ("BLACK_WIN", "WHITE_WIN", "ONGOING", "DRAW")
    if status != "ONGOING":
        assert "five" in reason.lower(), reason


def test_beats_a_random_neighbour_player_without_fouls(tengen_bin):
    rng = random.Random(7)
    wins = 0
    for game in range(2):
        br = Brain(tengen_bin)
        board = RenjuBoard(board_size=15, rule="renju")
        try:
            br.send("START 15", "INFO timeout_turn 100", "INFO rule 4")
            assert br.reply() == "OK"
            br.send("BEGIN")  # the brain is black
            mv = xy(br.reply())
            status, reason = board.play_move(*mv)
            taken = {mv}
            while status.name == "ONGOING":
                # Random stone next to an existing one.
                cands = sorted(
                    {(x + dx, y + dy) for (x, y) in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
                    - taken
                )
                cands = [c for c in cands if 0 <= c[0] < 15 and 0 <= c[1] < 15]
                reply = rng.choice(cands)
                status, reason = board.play_move(*reply)
                taken.add(reply)
                if status.name != "ONGOING":
                    break
                br.send("TURN %d,%d" % reply)
                mv = xy(br.reply())
                status, reason = board.play_move(*mv)
                taken.add(mv)
            assert status.name == "BLACK_WIN", (status, reason, board.get_pos())
            wins += 1
        finally:
            br.close()
    assert wins == 2


def _legal_set(tengen_bin, moves):
    out = subprocess.run(
        [tengen_bin, "legal", "--game", "gomoku", "--rule", "renju", "--moves", *["%d,%d" % m for m in moves]],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    assert lines[-2] == "result:" or out.stdout.strip().splitlines()[-1].startswith("result:")
    pts = {xy(l) for l in out.stdout.splitlines() if "," in l and not l.startswith("result")}
    return pts, out.stdout.strip().splitlines()[-1]


def _grid(moves):
    grid = [[0] * 15 for _ in range(15)]
    for i, (x, y) in enumerate(moves):
        grid[x][y] = 1 if i % 2 == 0 else 2
    return grid


def test_legal_agrees_with_the_judge_on_random_renju_games(tengen_bin):
    rng = random.Random(2024)
    checked = 0
    forbidden_seen = 0
    for game in range(12):
        board = RenjuBoard(board_size=15, rule="renju")
        moves = []
        while len(moves) < 44:
            grid = _grid(moves)
            black = len(moves) % 2 == 0
            if len(moves) >= 12 and len(moves) % 8 in (0, 5):
                expected = {
                    (x, y)
                    for x in range(15)
                    for y in range(15)
                    if not grid[x][y] and (not black or get_foul_type(grid, x, y) == 0)
                }
                got, result = _legal_set(tengen_bin, moves)
                assert result == "result: ongoing"
                assert got == expected, (moves, sorted(got ^ expected))
                checked += 1
                if black:
                    forbidden_seen += 225 - len(moves) - len(expected)
            # Dense play near the centre makes forbidden shapes appear.
            while True:
                mv = (7 + rng.randint(-3, 3), 7 + rng.randint(-3, 3))
                if grid[mv[0]][mv[1]] == 0 and (not black or get_foul_type(grid, *mv) == 0):
                    break
                if len(moves) > 40:
                    mv = next((x, y) for x in range(15) for y in range(15) if grid[x][y] == 0)
                    if not black or get_foul_type(grid, *mv) == 0:
                        break
            status, _ = board.play_move(*mv)
            moves.append(mv)
            if status.name != "ONGOING":
                break
    assert checked >= 30
    assert forbidden_seen > 0


def test_legal_reports_results_and_errors(tengen_bin):
    run = lambda *a: subprocess.run([tengen_bin, "legal", "--game", "gomoku", *a], capture_output=True, text=True)
    r = run("--rule", "renju", "--moves", "0,0", "1,0", "0,1", "1,1", "0,2", "1,2", "0,3", "1,3", "0,4")
    assert r.stdout.strip().splitlines() == ["result: black five"]
    r = run("--rule", "standard", "--black", "0,0 1,0 2,0 3,0 4,0 5,0", "--white", "7,7", "--to-move", "white")
    assert r.stdout.strip().splitlines()[-1] == "result: ongoing"
    r = run("--rule", "freestyle", "--black", "0,0 1,0 2,0 3,0 4,0 5,0", "--white", "7,7", "--to-move", "white")
    assert r.stdout.strip().splitlines()[-1] == "result: black five"
    for bad in (["--moves", "0,0", "0,0"], ["--moves", "15,0"], ["--rule", "caro"], ["--size", "40"], ["--moves", "a,b"]):
        r = run(*bad)
        assert r.returncode == 2 and r.stderr.startswith("tengen:"), bad
    r = subprocess.run(
        [tengen_bin, "perft", "--game", "gomoku", "--size", "5", "--depth", "2"], capture_output=True, text=True
    )
    assert "Nodes searched: 600" in r.stdout


def test_found_win_is_announced_and_played(brain):
    brain.send("START 15", "INFO timeout_turn 1000")
    assert brain.reply() == "OK"
    brain.send("BOARD", "6,7,1", "7,7,1", "8,7,1", "0,0,2", "0,14,2", "14,0,2", "DONE")
    lines = []
    while True:
        line = brain.line()
        lines.append(line)
        if not line.startswith(("MESSAGE", "DEBUG")):
            break
    assert any(l.startswith("MESSAGE") and "win" in l for l in lines), lines
    assert xy(lines[-1]) in [(5, 7), (9, 7)]  # the straight four


def test_random_garbage_never_kills_the_brain(tengen_bin):
    rng = random.Random(99)
    words = ["START", "TURN", "BOARD", "DONE", "INFO", "TAKEBACK", "PLAY", "SWAP2BOARD", "RESTART", "RECTSTART"]
    b = Brain(tengen_bin)
    b.send("START 15", "INFO timeout_turn 30")
    assert b.reply() == "OK"
    for _ in range(300):
        parts = [rng.choice(words)] if rng.random() < 0.7 else []
        for _ in range(rng.randint(0, 3)):
            parts.append(rng.choice(["7,7", "-1,3", "99999999999,1", "3,3,1", "a,b", "15,15", "0,0", "é", ",", "20"]))
        b.send(" ".join(parts))
    b.send("DONE", "START 15", "ABOUT")
    # Drain until the brain answers the final ABOUT.
    while True:
        line = b.line(timeout=60)
        assert line is not None, "the brain died"
        if line.startswith('name="'):
            break
    b.send("BEGIN")
    assert xy(b.reply()) == (7, 7)
    b.close()
