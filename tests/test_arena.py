"""Conformance tests for tengen-arena: real engines (Stockfish, Glaurung,
GNU Go), a deliberately broken engine, records read back by python-chess
and sgfmill, the JSON summary, and config errors that name the wrong field."""
import io
import json
import os
import re
import subprocess
import sys
import time

import chess
import chess.pgn
import pytest
from sgfmill import boards, sgf

from conftest import ROOT, debian_game

BROKEN = str(ROOT / "tests" / "broken_engine.py")
STOCKFISH = debian_game("stockfish")
GLAURUNG = debian_game("glaurung")


def weak_stockfish(name="sf"):
    return ["-engine", "cmd=" + STOCKFISH, "name=" + name, "option.Skill Level=0",
            "option.Threads=1", "option.Hash=8"]


def broken(mode, after=0):
    return ["-engine", "cmd=" + sys.executable, "arg=" + BROKEN, "arg=" + mode,
            "arg=%d" % after, "name=broken-" + mode]


def run_arena(arena_bin, tmp_path, args, timeout=240):
    pgn = tmp_path / "games.pgn"
    summary = tmp_path / "summary.json"
    cmd = [arena_bin] + args + ["-pgnout", str(pgn), "-jsonout", str(summary)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    games = []
    with open(pgn) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            games.append(g)
    return proc.stdout, games, json.loads(summary.read_text())


def check_game_is_legal(game):
    """python-chess replays every move; the result agrees with the board."""
    assert not game.errors, game.errors
    board = game.board()
    for move in game.mainline_moves():
        assert board.is_legal(move)
        board.push(move)
    if board.is_checkmate():
        assert game.headers["Result"] == ("0-1" if board.turn == chess.WHITE else "1-0")
    if board.is_stalemate() or board.is_insufficient_material():
        assert game.headers["Result"] == "1/2-1/2"
    return board


@pytest.mark.skipif(not (STOCKFISH and GLAURUNG), reason="needs stockfish and glaurung")
def test_stockfish_vs_glaurung_pgn_reads_back(arena_bin, tmp_path):
    out, games, summary = run_arena(arena_bin, tmp_path, weak_stockfish() + [
        "-engine", "cmd=" + GLAURUNG, "name=glaurung",
        "-each", "tc=4+0.1", "-games", "2", "-openings", "plies=4", "-srand", "11",
        "-concurrency", "2", "-maxmoves", "60"])
    assert len(games) == 2
    enc = summary["encounters"][0]
    assert enc["games"] == 2 and enc["wins"] + enc["draws"] + enc["losses"] == 2
    # The pair shares its opening with colours swapped.
    first = [g for g in games if g.headers["White"] == "sf"][0]
    second = [g for g in games if g.headers["White"] == "glaurung"][0]
    book = lambda g: [n.move for n in g.mainline() if n.comment == "book"]
    assert book(first) == book(second) and len(book(first)) == 4
    for g in games:
        check_game_is_legal(g)
        assert g.headers["TimeControl"] == "4+0.1"
        assert g.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
    assert "Score of sf vs glaurung" in out and "Elo difference" in out


def faults(summary, name):
    """The summary's fault counts of one engine, zeros left out."""
    [f] = [f for f in summary["faults"] if f["engine"] == name]
    return {k: v for k, v in f.items() if k != "engine" and v}


@pytest.mark.parametrize("mode,verdict,termination,kind", [
    ("illegal", "makes an illegal move", "rules infraction", "illegal"),
    ("crash", "disconnects", "abandoned", "crash"),
    ("hang", "loses on time", "time forfeit", "time"),
    ("slow", "loses on time", "time forfeit", "time"),
    ("nomove", "claims to have no move", "rules infraction", "false_claim"),
])
def test_broken_engine_gets_the_right_verdict(arena_bin, tmp_path, mode, verdict, termination,
                                              kind):
    # Two games: the broken engine loses both, so it was restarted (or
    # recovered) after the first fault and the match carried on.
    out, games, summary = run_arena(arena_bin, tmp_path, broken(mode, after=2) + broken("good")[:-1] + [
        "name=good", "-each", "tc=1+0.1", "timemargin=100", "-games", "2"])
    assert len(games) == 2
    for g in games:
        loser_white = g.headers["White"] == "broken-" + mode
        assert g.headers["Result"] == ("0-1" if loser_white else "1-0"), (g.headers, out)
        assert g.headers["Termination"] == termination
        final = g.end().comment if g.end().comment else ""
        assert verdict in final, final
        check_game_is_legal(g)
        # The faulty move itself is not in the record: two good moves each.
        plies = len(list(g.mainline_moves()))
        assert plies == (4 if loser_white else 5), plies
    enc = summary["encounters"][0]
    assert (enc["wins"], enc["losses"]) == (0, 2)
    assert all(verdict in r["reason"] for r in summary["games"])
    # The soak's tally: two faults of that kind, none for the good engine.
    assert faults(summary, "broken-" + mode) == {kind: 2, "total": 2}
    assert faults(summary, "good") == {}


def test_garbage_output_is_not_a_fault_and_transcript(arena_bin, tmp_path):
    transcript = tmp_path / "transcript.txt"
    out, games, summary = run_arena(arena_bin, tmp_path, broken("garbage") + broken("good")[:-1] + [
        "name=good", "-each", "tc=2+0.1", "-games", "2", "-maxmoves", "15", "-debug", str(transcript)])
    for g in games:
        check_game_is_legal(g)
        assert "illegal" not in g.end().comment and "protocol" not in g.end().comment
    lines = transcript.read_text(errors="replace").splitlines()
    # "<ms> <engine>#<worker> <direction> <text>", both ways, garbage kept.
    assert any(l.split()[1:3] == ["broken-garbage#1", ">"] and l.endswith("uci") for l in lines)
    assert any("< bestmove" in l for l in lines) and any("junk" in l for l in lines)
    assert all(l.split()[0].isdigit() for l in lines)


def test_sprt_stops_the_match(arena_bin, tmp_path):
    # A random mover against itself-with-illegal moves loses every game:
    # the SPRT accepts H0 (elo <= 0) for the loser long before 400 games.
    out, games, summary = run_arena(arena_bin, tmp_path, broken("illegal", after=0) + broken("good")[:-1] + [
        "name=good", "-each", "tc=2+0.1", "-games", "2", "-rounds", "200",
        "-sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05", "model=pentanomial"])
    assert summary["sprt"]["verdict"] == "H0"
    assert summary["sprt"]["llr"] <= summary["sprt"]["lower"]
    assert len(games) < 400
    assert "H0 was accepted" in out


def test_toml_config_and_bad_fields(arena_bin, tmp_path):
    cfg = tmp_path / "match.toml"
    cfg.write_text(f"""
games = 2
maxmoves = 10
pgnout = "{tmp_path / 'toml.pgn'}"
[each]
tc = "2+0.1"
[[engine]]
name = "a"
cmd = "{sys.executable}"
args = ["{BROKEN}", "good"]
[[engine]]
name = "b"
cmd = "{sys.executable}"
args = ["{BROKEN}", "good"]
""")
    proc = subprocess.run([arena_bin, "-config", str(cfg)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "toml.pgn").read_text()
    games = [chess.pgn.read_game(io.StringIO(t)) for t in text.split("\n\n[Event")[0:1]]
    assert games[0].headers["Termination"] == "adjudication"
    # Progress goes to stderr (a plain line: stderr is a pipe here), the
    # results to stdout, and neither gets the other's lines.
    assert "progress: 2/2 games, a vs b" in proc.stderr, proc.stderr
    assert "about 0s left" in proc.stderr and "progress:" not in proc.stdout
    assert "Finished game 2" in proc.stdout and "Finished game" not in proc.stderr

    good = cfg.read_text()
    cfg.write_text(good.replace('tc = "2+0.1"', 'tc = "2+x"'))
    proc = subprocess.run([arena_bin, "-config", str(cfg)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "each.tc" in proc.stderr, proc.stderr
    # Unknown keys and wrong types are refused by the reader, with the line.
    lines = good.splitlines()
    tcc = lines.index('name = "b"') + 1
    for bad, want in [(good.replace('name = "b"', 'name = "b"\ntcc = "1"'),
                       ["line %d" % (tcc + 1), "unknown field `tcc`"]),
                      (good.replace("games = 2", 'games = "two"'),
                       ["line 2", 'invalid type: string "two", expected u32']),
                      (good.replace("maxmoves = 10", "maxmoves = 10\nspeed = 3"),
                       ["line 4", "unknown field `speed`"])]:
        cfg.write_text(bad)
        proc = subprocess.run([arena_bin, "-config", str(cfg)], capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2 and all(w in proc.stderr for w in want), proc.stderr

    proc = subprocess.run([arena_bin, "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1", "-games", "many"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "-games" in proc.stderr
    proc = subprocess.run([arena_bin, "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tcc=1"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "engine[2].tcc" in proc.stderr


# --- Go over GTP ---------------------------------------------------------

GNUGO = debian_game("gnugo")


def area_score(board, size):
    """Tromp-Taylor area: stones plus empty regions reaching one colour only."""
    score = {"b": 0, "w": 0}
    seen = set()
    for r in range(size):
        for c in range(size):
            colour = board.get(r, c)
            if colour:
                score[colour] += 1
            elif (r, c) not in seen:
                region, borders, stack = [], set(), [(r, c)]
                seen.add((r, c))
                while stack:
                    p = stack.pop()
                    region.append(p)
                    for q in ((p[0] + 1, p[1]), (p[0] - 1, p[1]), (p[0], p[1] + 1), (p[0], p[1] - 1)):
                        if 0 <= q[0] < size and 0 <= q[1] < size:
                            qc = board.get(*q)
                            if qc:
                                borders.add(qc)
                            elif q not in seen:
                                seen.add(q)
                                stack.append(q)
                if len(borders) == 1:
                    score[borders.pop()] += len(region)
    return score["b"] - score["w"]


# --- Shogi over USI ---------------------------------------------------------

FAIRY = debian_game("fairy-stockfish")


@pytest.mark.skipif(not FAIRY, reason="needs fairy-stockfish")
@pytest.mark.parametrize("ext", ["csa", "kif"])
def test_fairy_stockfish_shogi_records_read_back(arena_bin, tmp_path, ext):
    import cshogi
    import cshogi.CSA as CSA
    import cshogi.KIF as KIF
    fsf = lambda skill: ["-engine", "cmd=" + FAIRY, "name=fsf-%d" % skill, "option.Skill Level=%d" % skill]
    out, summary = tmp_path / ("games." + ext), tmp_path / "s.json"
    proc = subprocess.run(
        [arena_bin, "-variant", "shogi"] + fsf(0) + fsf(3)
        + ["-each", "proto=usi", "tc=2+b0.5", "option.Move Overhead=250", "option.Threads=1",
           "timemargin=200", "-games", "2", "-maxmoves", "60", "-openings", "plies=2", "-srand", "9",
           "-pgnout", str(out), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    text = out.read_text()
    if ext == "csa":
        records = [CSA.Parser.parse_str("V2.2" + p)[0] for p in text.split("V2.2") if p.strip()]
    else:
        records = [KIF.Parser.parse_str(p) for p in text.split("# ---- tengen-arena ----") if p.strip()]
    assert len(records) == 2
    by_names = {(g["first"], g["second"]): g for g in data["games"]}
    for rec in records:
        board = cshogi.Board()
        for m in rec.moves:
            assert board.is_legal(m)
            board.push(m)
        game = by_names[tuple(rec.names)]
        assert len(rec.moves) == game["plies"]
        expected = {"1-0": cshogi.BLACK_WIN, "0-1": cshogi.WHITE_WIN, "1/2-1/2": cshogi.DRAW}[game["result"]]
        assert rec.win == expected, (rec.endgame, game)
        if "checkmated" in game["reason"]:
            assert board.is_game_over()


# --- Xiangqi over UCCI -------------------------------------------------------


def split_pgn(text, first_tag):
    return [first_tag + p if i else p for i, p in enumerate(text.split("\n\n" + first_tag)) if p.strip()]


@pytest.mark.skipif(not FAIRY, reason="needs fairy-stockfish")
@pytest.mark.parametrize("protos", [("ucci", "ucci"), ("uci", "uci"), ("uci", "ucci")])
def test_tengen_vs_fairy_stockfish_xiangqi_pgn(arena_bin, tengen_bin, tmp_path, protos):
    """UCCI moves are ICCS (ranks 0..9); xiangqi over UCI (UCI_Variant)
    counts ranks 1..10: the arena converts, the referee sees ICCS."""
    import cchess
    out, summary = tmp_path / "games.pgn", tmp_path / "s.json"
    transcript = tmp_path / "t.log"
    short = ["tc=2+0.1", "-maxmoves", "20"] if protos == ("ucci", "ucci") else ["tc=2+0.05"]
    proc = subprocess.run(
        [arena_bin, "-variant", "xiangqi",
         "-engine", "cmd=" + tengen_bin, "name=tengen", "proto=" + protos[0],
         "-engine", "cmd=" + FAIRY, "name=fsf", "option.Skill Level=0", "proto=" + protos[1],
         "-each", "timemargin=1000"] + short + ["-games", "2",
         "-openings", "plies=2", "-srand", "5", "-pgnout", str(out), "-jsonout", str(summary),
         "-debug", str(transcript)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    log = transcript.read_text()
    for r in data["games"]:
        for fault in ("illegal", "disconnects", "protocol", "on time", "could not start"):
            assert fault not in r["reason"], r
    if protos[0] == "uci":
        assert "tengen#1 > setoption name UCI_Variant value xiangqi" in log
        if protos == ("uci", "ucci"):
            assert "adjudication" not in "".join(r["reason"] for r in data["games"])
        # Engines over UCI see and send ranks 1..10 (b10c8), never rank 0.
        uci_lines = [l for l in log.splitlines() if "tengen#1 > position" in l]
        assert uci_lines and not any(" " + f + "0" in l for l in uci_lines for f in "abcdefghi")
    games = split_pgn(out.read_text(), "[Game")
    assert len(games) == 2
    for n, text in enumerate(games):
        path = tmp_path / ("one%d.pgn" % n)
        path.write_text(text)
        g = cchess.read_from_pgn(str(path))
        assert g.info["variant"] == "xiangqi" and g.info["format"] == "ICCS"
        moves = g.dump_iccs_moves()[0] if g.dump_iccs_moves() else []
        # cchess stops at the first move it finds illegal: all were read.
        assert len(moves) == int(g.info["plycount"])
        record = [r for r in data["games"] if (r["first"], r["second"]) == (g.info["red"], g.info["black"])][0]
        assert record["result"] == g.info["result"] and record["plies"] == len(moves)
        assert record["reason"] == g.info["terminationdetails"]


# --- Gomoku over Gomocup -----------------------------------------------------


def has_five(stones, colour):
    own = {p for c, p in stones if c == colour}
    for (r, c) in own:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all((r + k * dr, c + k * dc) in own for k in range(5)):
                return True
    return False


@pytest.mark.parametrize("variant,proto", [("gomoku", "gomocup"), ("renju", "agi")])
def test_tengen_gomocup_self_play_sgf(arena_bin, tengen_bin, tmp_path, variant, proto):
    out, summary = tmp_path / "games.sgf", tmp_path / "s.json"
    proc = subprocess.run(
        [arena_bin, "-variant", variant, "-engine", "cmd=" + tengen_bin, "name=t1",
         "-engine", "cmd=" + tengen_bin, "name=t2", "-each", "proto=" + proto, "tc=5+0.1",
         "timemargin=1000", "-games", "2", "-openings", "plies=2", "-srand", "3",
         "-pgnout", str(out), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    assert data["protocols"] == [proto, proto]
    for r in data["games"]:
        for fault in ("illegal", "disconnects", "protocol", "on time", "foul"):
            assert fault not in r["reason"], r
    records = [t for t in out.read_text().split("(;") if t.strip()]
    assert len(records) == 2
    for text, result in zip(records, data["games"]):
        game = sgf.Sgf_game.from_bytes(("(;" + text).encode())
        root = game.get_root()
        assert root.get("GM") == 4 and game.get_size() == 15
        assert root.get("RU") == ("renju" if variant == "renju" else "freestyle")
        moves = [n.get_move() for n in game.get_main_sequence()[1:] if n.get_move()[0]]
        points = [p for _, p in moves]
        assert len(set(points)) == len(points) == result["plies"]
        assert [c for c, _ in moves] == (["b", "w"] * 200)[: len(moves)]
        if "makes five" in result["reason"]:
            winner = "b" if result["result"] == "1-0" else "w"
            assert has_five(moves, winner) and moves[-1][0] == winner


def test_gomocup_node_limit_reaches_the_brain(arena_bin, tengen_bin, tmp_path):
    """`nodes=` without a clock: the brain gets `INFO max_node` and a turn
    time that does not end its search (`timeout_turn 0` means "as fast
    as possible"), so the same match played twice is the same game."""
    runs = []
    for k in range(2):
        out, log = tmp_path / f"g{k}.sgf", tmp_path / f"wire{k}.log"
        proc = subprocess.run(
            [arena_bin, "-variant", "gomoku",
             "-engine", "cmd=" + tengen_bin, "name=t1", "-engine", "cmd=" + tengen_bin, "name=t2",
             "-each", "proto=gomocup", "nodes=4000", "-games", "2", "-openings", "plies=3",
             "-srand", "9", "-pgnout", str(out), "-debug", str(log)],
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr + proc.stdout
        wire = log.read_text()
        assert "> INFO max_node 4000" in wire
        assert "> INFO timeout_turn 600000" in wire and "> INFO timeout_match 0" in wire
        assert not re.search(r"> INFO (timeout_turn|time_left) 0\b", wire)
        runs.append([[n.get_move() for n in g.get_main_sequence()[1:]] for g in sgf_games(out)])
    assert len(runs[0]) == 2 and all(len(g) > 6 for g in runs[0])
    assert runs[0] == runs[1]


def test_gomocup_turn_time_is_sent_once_a_game(arena_bin, tengen_bin, tmp_path):
    """With a fixed turn time (`st=`) a brain gets `INFO timeout_turn` and
    `INFO timeout_match` once a game, before its first move, not again
    before every move: some brains (Rapfi 0.43) mistake an `INFO` line
    that comes in while they finish a move for a command of its own."""
    out, log = tmp_path / "g.sgf", tmp_path / "wire.log"
    proc = subprocess.run(
        [arena_bin, "-variant", "gomoku",
         "-engine", "cmd=" + tengen_bin, "name=t1", "-engine", "cmd=" + tengen_bin, "name=t2",
         "-each", "proto=gomocup", "st=0.1", "timemargin=500", "-games", "2",
         "-openings", "plies=3", "-srand", "9", "-pgnout", str(out), "-debug", str(log)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    wire = log.read_text()
    moves = [n.get_move() for g in sgf_games(out) for n in g.get_main_sequence()[1:]
             if n.get_move()[0]]
    asks = len(re.findall(r"> (BEGIN|TURN|BOARD)\b", wire))
    turns = len(re.findall(r"> INFO timeout_turn 100\b", wire))
    matches = len(re.findall(r"> INFO timeout_match 0\b", wire))
    # Two games, two brains: four first moves, each after the clock.
    assert len(moves) > 12 and asks > 8
    assert turns == matches == 4, (turns, matches, asks)


def test_gomoku_openings_from_a_gomocup_offsets_file(arena_bin, tengen_bin, tmp_path):
    """Three-stone openings as centre offsets (Gomocup's layout), each
    played twice with colours swapped."""
    book = tmp_path / "openings.txt"
    book.write_text("# x,y offsets from the centre\n0,0, 1,0, 1,1\n0,0, 1,1, -1,1\n")
    out, summary = tmp_path / "games.sgf", tmp_path / "s.json"
    proc = subprocess.run(
        [arena_bin, "-variant", "gomoku",
         "-engine", "cmd=" + tengen_bin, "name=t1", "-engine", "cmd=" + tengen_bin, "name=t2",
         "-each", "proto=gomocup", "tc=2+0.05", "timemargin=1000", "-games", "4",
         "-openings", "file=" + str(book), "format=gomocup",
         "-pgnout", str(out), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    games = sgf_games(out)
    assert len(games) == 4
    centre = (7, 7)
    expected = [[(0, 0), (1, 0), (1, 1)], [(0, 0), (1, 1), (-1, 1)]]
    for n, game in enumerate(games):
        root = game.get_root()
        seq = game.get_main_sequence()[1:]
        book_moves = [nd.get_move() for nd in seq if nd.has_property("C") and nd.get("C") == "book"]
        # sgfmill rows count from the bottom; Gomocup's y from the top.
        placed = [(col - centre[0], (14 - row) - centre[1]) for _, (row, col) in book_moves]
        assert placed == expected[n // 2], (n, placed)
        assert [c for c, _ in book_moves] == ["b", "w", "b"]
        players = (root.get("PB"), root.get("PW"))
        assert players == (("t1", "t2") if n % 2 == 0 else ("t2", "t1"))
    for r in json.loads(summary.read_text())["games"]:
        for fault in ("illegal", "disconnects", "protocol", "on time"):
            assert fault not in r["reason"], r
    bad = tmp_path / "bad.txt"
    bad.write_text("0,0, 9,0\n")
    proc = subprocess.run([arena_bin, "-variant", "gomoku", "-engine", "cmd=" + tengen_bin,
                           "-engine", "cmd=" + tengen_bin, "-each", "proto=gomocup", "tc=1",
                           "-openings", "file=" + str(bad), "format=gomocup"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "line 1: offset 9,0 is off the 15x15 board" in proc.stderr


def test_gomoku_swap2_opening(arena_bin, tengen_bin, tmp_path):
    """Gomocup's swap2: the first engine places three stones, the other
    swaps, adds one or adds two and hands back the choice; the record's
    Black is whoever ended up with Black."""
    out, summary, log = tmp_path / "games.sgf", tmp_path / "s.json", tmp_path / "t.log"
    proc = subprocess.run(
        [arena_bin, "-variant", "gomoku", "-rule", "standard", "-swap2",
         "-engine", "cmd=" + tengen_bin, "name=t1", "-engine", "cmd=" + tengen_bin, "name=t2",
         "-each", "proto=gomocup", "tc=2+0.05", "timemargin=1000", "-games", "2",
         "-pgnout", str(out), "-jsonout", str(summary), "-debug", str(log)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    for r in data["games"]:
        for fault in ("illegal", "disconnects", "protocol", "on time", "fails the swap2"):
            assert fault not in r["reason"], r
    text = log.read_text()
    assert "> SWAP2BOARD" in text and "> DONE" in text
    games = sgf_games(out)
    assert len(games) == 2
    for game, r in zip(games, data["games"]):
        root = game.get_root()
        assert (root.get("PB"), root.get("PW")) == (r["first"], r["second"])
        book = [n for n in game.get_main_sequence()[1:]
                if n.has_property("C") and n.get("C") == "book"]
        assert len(book) in (3, 4, 5, 6), len(book)
        colours = [n.get_move()[0] for n in game.get_main_sequence()[1:] if n.get_move()[0]]
        assert colours == (["b", "w"] * 200)[: len(colours)]
    # A broken config says what is wrong.
    proc = subprocess.run([arena_bin, "-swap2", "-engine", "cmd=x", "-engine", "cmd=y",
                           "-each", "tc=1"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "swap2 opening is for gomoku" in proc.stderr


# --- tengen against the reference engines -------------------------------------


@pytest.mark.skipif(not STOCKFISH, reason="needs stockfish")
def test_tengen_vs_stockfish_chess(arena_bin, tengen_bin, tmp_path):
    out, games, summary = run_arena(arena_bin, tmp_path, [
        "-engine", "cmd=" + tengen_bin, "name=tengen", "option.Hash=16"] + weak_stockfish() + [
        "-each", "tc=3+0.05", "timemargin=1000", "-games", "2", "-maxmoves", "40",
        "-openings", "plies=4", "-srand", "2"])
    assert len(games) == 2
    for g in games:
        check_game_is_legal(g)
        assert "illegal" not in g.end().comment and "disconnects" not in g.end().comment
    assert summary["encounters"][0]["games"] == 2


@pytest.mark.skipif(not GNUGO, reason="needs gnugo")
def test_tengen_vs_gnugo_9x9(arena_bin, tengen_bin, tmp_path):
    out_sgf, summary = tmp_path / "games.sgf", tmp_path / "s.json"
    proc = subprocess.run(
        [arena_bin, "-variant", "go", "-boardsize", "9", "-komi", "7",
         "-engine", "cmd=" + tengen_bin, "name=tengen",
         "-engine", "cmd=" + GNUGO, "arg=--mode", "arg=gtp", "arg=--level", "arg=1",
         "arg=--capture-all-dead", "arg=--positional-superko", "name=gnugo",
         "-each", "proto=gtp", "tc=5+0.1", "timemargin=1000", "-games", "2", "-maxmoves", "40",
         "-pgnout", str(out_sgf), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    for r in data["games"]:
        assert "illegal" not in r["reason"] and "disconnects" not in r["reason"], r
    records = [t for t in out_sgf.read_text().split("(;") if t.strip()]
    for text in records:
        game = sgf.Sgf_game.from_bytes(("(;" + text).encode())
        board = boards.Board(9)
        for colour, point in (n.get_move() for n in game.get_main_sequence()[1:]):
            if colour and point:
                board.play(point[0], point[1], colour)


def sgf_games(path):
    return [sgf.Sgf_game.from_bytes(("(;" + t).encode())
            for t in path.read_text().split("(;") if t.strip()]


def replay_go(game, size):
    """The final board (sgfmill plays the captures) and each move's comment."""
    board = boards.Board(size)
    comments = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        if colour and point:
            board.play(point[0], point[1], colour)
        comments.append(node.get("C") if node.has_property("C") else "")
    return board, comments


def remove_dead(board, reason):
    """Takes the agreed dead stones named in the reason off the board."""
    if "dead stone" in reason.split(":")[0]:
        for v in reason.split(": ", 1)[1].split():
            row, col = int(v[1:]) - 1, "ABCDEFGHJ".index(v[0])
            assert board.get(row, col) is not None, v
            board.board[row][col] = None


def result_of(margin):
    return "0" if margin == 0 else ("B+%g" % margin if margin > 0 else "W+%g" % -margin)


def gnugo_plain(level, name):
    """GNU Go without --capture-all-dead: it passes with dead stones on the
    board. The arena rules by positional superko, and so must it."""
    return ["-engine", "cmd=" + GNUGO, "arg=--mode", "arg=gtp", "arg=--level", "arg=%d" % level,
            "arg=--positional-superko", "name=" + name]


@pytest.mark.skipif(not GNUGO, reason="needs gnugo")
def test_go_cleanup_phase_tengen_vs_gnugo_without_capture_all_dead(arena_bin, tengen_bin, tmp_path):
    # A komi of 30 keeps tengen (White) from resigning, so the game is
    # played out to passes with GNU Go's dead stones on the board; the
    # engines disagree on them and a clean-up phase decides.
    out_sgf, summary = tmp_path / "games.sgf", tmp_path / "s.json"
    transcript = tmp_path / "t.log"
    proc = subprocess.run(
        [arena_bin, "-variant", "go", "-boardsize", "9", "-komi", "30"] + gnugo_plain(1, "gnugo")
        + ["-engine", "cmd=" + tengen_bin, "name=tengen",
           "-each", "proto=gtp", "tc=10+0.1", "timemargin=1000", "-games", "1",
           "-pgnout", str(out_sgf), "-jsonout", str(summary), "-debug", str(transcript)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    reason = json.loads(summary.read_text())["games"][0]["reason"]
    log = transcript.read_text()
    assert "final_status_list dead" in log
    [game] = sgf_games(out_sgf)
    board, comments = replay_go(game, 9)
    result = game.get_root().get("RE")
    if "agreement" in reason:
        remove_dead(board, reason)
        assert result == result_of(area_score(board, 9) - 30), (result, reason)
    else:
        assert "after the clean-up phase" in reason, reason
        assert "kgs-genmove_cleanup" in log
        # The phase starts after two passes and ends with two more.
        start = [i for i, c in enumerate(comments) if c.startswith("clean-up phase")]
        assert len(start) == 1, comments
        moves = [n.get_move() for n in game.get_main_sequence()[1:]]
        assert moves[start[0] - 1][1] is None and moves[start[0] - 2][1] is None
        assert moves[-2][1] is None and moves[-3][1] is None
        assert len(moves) - 1 >= start[0] + 2
        assert result == result_of(area_score(board, 9) - 30), (result, reason)


@pytest.mark.skipif(not GNUGO, reason="needs gnugo")
def test_go_handicap_games(arena_bin, tengen_bin, tmp_path):
    # -handicap 2: both engines place Black's stones on the fixed points
    # (the arena checks their replies), White moves first, and the SGF
    # carries HA and AB. Each engine takes Black once.
    out_sgf, summary = tmp_path / "h.sgf", tmp_path / "h.json"
    transcript = tmp_path / "h.log"
    proc = subprocess.run(
        [arena_bin, "-variant", "go", "-boardsize", "9", "-komi", "0.5", "-handicap", "2",
         "-gocleanup", "off"] + gnugo_plain(0, "gnugo")
        + ["-engine", "cmd=" + tengen_bin, "name=tengen", "initstr=tengen-playouts 300",
           "-each", "proto=gtp", "tc=30+0.5", "-games", "2", "-openings", "plies=1",
           "-srand", "3", "-pgnout", str(out_sgf), "-jsonout", str(summary),
           "-debug", str(transcript)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    assert data["encounters"][0]["games"] == 2
    log = transcript.read_text()
    # Each engine places the stones once a game.
    assert log.count("fixed_handicap 2") >= 4, log[:2000]
    games = sgf_games(out_sgf)
    assert len(games) == 2
    for game, record in zip(games, data["games"]):
        root = game.get_root()
        assert root.get("HA") == 2 and game.get_komi() == 0.5
        black, white, _ = root.get_setup_stones()
        # C3 and G7 as sgfmill's (row, column) from the bottom.
        assert black == {(2, 2), (6, 6)} and not white
        colours = [n.get_move()[0] for n in game.get_main_sequence()[1:] if n.get_move()[0]]
        assert colours == ["w", "b"] * (len(colours) // 2) + ["w"] * (len(colours) % 2)
        assert "illegal" not in record["reason"], record
        if "by Tromp-Taylor area scoring after two passes" in record["reason"]:
            board = boards.Board(9)
            board.apply_setup(black, white, set())
            for node in game.get_main_sequence()[1:]:
                colour, point = node.get_move()
                if colour and point:
                    board.play(point[0], point[1], colour)
            assert root.get("RE") == result_of(area_score(board, 9) - 0.5)


def test_go_handicap_refusals(arena_bin, tengen_bin):
    base = ["-engine", "cmd=" + tengen_bin, "name=a", "-engine", "cmd=" + tengen_bin, "name=b",
            "-each", "proto=gtp", "tc=1+0.1"]
    for extra, words in [
        (["-variant", "chess", "-handicap", "2"], "handicap stones are for Go"),
        (["-variant", "go", "-boardsize", "9", "-handicap", "1"], "no fixed handicap of 1"),
        (["-variant", "go", "-handicap", "10"], "no fixed handicap of 10"),
        (["-variant", "go", "-handicap", "x"], "not a valid number"),
    ]:
        proc = subprocess.run([arena_bin] + extra + base, capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode != 0 and words in proc.stderr, (extra, proc.stderr)


@pytest.mark.skipif(not GNUGO, reason="needs gnugo")
def test_go_dead_stones_agreed_gnugo_vs_gnugo_and_cleanup_off(arena_bin, tmp_path):
    # Two copies of one GNU Go name the same dead stones: they are removed
    # and the board scored by area without a clean-up phase. Both modes
    # run at once, from the same opening.
    procs = {}
    for mode in ("on", "off"):
        out_sgf, summary = tmp_path / ("g%s.sgf" % mode), tmp_path / ("s%s.json" % mode)
        procs[mode] = subprocess.Popen(
            [arena_bin, "-variant", "go", "-boardsize", "9", "-komi", "7", "-gocleanup", mode]
            + gnugo_plain(0, "g1") + gnugo_plain(0, "g2")
            + ["-each", "proto=gtp", "tc=30+0.5", "-games", "1", "-openings", "plies=3",
               "-srand", "7", "-pgnout", str(out_sgf), "-jsonout", str(summary)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for mode in ("on", "off"):
        out_sgf, summary = tmp_path / ("g%s.sgf" % mode), tmp_path / ("s%s.json" % mode)
        stdout, stderr = procs[mode].communicate(timeout=300)
        assert procs[mode].returncode == 0, stderr + stdout
        data = json.loads(summary.read_text())
        assert data["game"] == "go" and data["encounters"][0]["games"] == 1
        reason = data["games"][0]["reason"]
        [game] = sgf_games(out_sgf)
        root = game.get_root()
        assert root.get("GM") == 1 and root.get("FF") == 4
        assert game.get_size() == 9 and game.get_komi() == 7
        colours = [n.get_move()[0] for n in game.get_main_sequence()[1:] if n.get_move()[0]]
        assert colours == ["b", "w"] * (len(colours) // 2) + ["b"] * (len(colours) % 2)
        board, _ = replay_go(game, 9)
        result = root.get("RE")
        if mode == "off":
            assert "by Tromp-Taylor area scoring after two passes" in reason, reason
            assert result == result_of(area_score(board, 9) - 7)
            continue
        assert "after two passes and agreement" in reason, reason
        remove_dead(board, reason)
        assert result == result_of(area_score(board, 9) - 7), (result, reason)


def ponder_searches(log, name):
    """Follows one engine's pondering in the transcript. Every `go ponder`
    ends in `ponderhit` or in `stop` whose bestmove is thrown away before
    the next `position`. Returns the searches that made moves, in order:
    (seconds from `go`/`ponderhit` to `bestmove`, seconds from `go ponder`
    to `bestmove` or None when it was not a ponderhit)."""
    searches, state, t_start, t_ponder = [], None, 0, 0
    for raw in log.splitlines():
        parts = raw.strip().split(" ", 3)
        if len(parts) < 4 or parts[1] != name + "#1":
            continue
        stamp, line = int(parts[0]), parts[2] + " " + parts[3]
        if line.startswith("> go ponder"):
            assert state is None, line
            state, t_ponder = "pondering", stamp
        elif line == "> ponderhit":
            assert state == "pondering"
            state, t_start = "hit", stamp
        elif line == "> stop" and state == "pondering":
            state = "stopped"
        elif line.startswith("< bestmove") and state == "stopped":
            state = None
        elif line.startswith("> go"):
            assert state is None, line
            state, t_start = "search", stamp
        elif line.startswith("< bestmove") and state in ("search", "hit"):
            searches.append(((stamp - t_start) / 1000,
                             (stamp - t_ponder) / 1000 if state == "hit" else None))
            state = None
        elif line.startswith("> position"):
            assert state is None, "position while pondering: " + line
    return searches


@pytest.mark.parametrize("variant,proto", [("chess", "uci"), ("shogi", "usi"),
                                           ("xiangqi", "ucci")])
def test_tengen_vs_tengen_pondering(arena_bin, tengen_bin, tmp_path, variant, proto):
    out, summary, log = tmp_path / "games.rec", tmp_path / "s.json", tmp_path / "t.log"
    proc = subprocess.run(
        [arena_bin, "-variant", variant,
         "-engine", "cmd=" + tengen_bin, "name=p1", "ponder=on", "option.Hash=16",
         "-engine", "cmd=" + tengen_bin, "name=p2", "ponder=on", "option.Hash=16",
         "-each", "proto=" + proto, "tc=5+0.1", "timemargin=1000", "-games", "1",
         "-maxmoves", "16" if variant == "chess" else "10", "-openings", "plies=2", "-srand", "9",
         "-pgnout", str(out), "-jsonout", str(summary), "-debug", str(log)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    for r in data["games"]:
        for fault in ("illegal", "disconnects", "protocol", "on time", "could not start"):
            assert fault not in r["reason"], r
    text = log.read_text()
    option = {"uci": "setoption name Ponder value true",
              "usi": "setoption name USI_Ponder value true"}.get(proto)
    if option:
        assert option in text
    searches = {name: ponder_searches(text, name) for name in ("p1", "p2")}
    hits = [s for v in searches.values() for s in v if s[1] is not None]
    assert hits and "> stop" in text, searches
    if variant != "chess":
        return
    # The clock runs only on the engine's own turn: each move's time in
    # the record is the time from `go` (or `ponderhit`) to `bestmove`,
    # never the time it pondered before.
    with open(out) as f:
        game = chess.pgn.read_game(f)
    check_game_is_legal(game)
    recorded = {"p1": [], "p2": []}
    for node in game.mainline():
        if node.comment != "book":
            mover = game.headers["White"] if not node.turn() else game.headers["Black"]
            recorded[mover].append(float(re.search(r"(\d+\.\d+)s", node.comment).group(1)))
    for name in ("p1", "p2"):
        assert len(recorded[name]) == len(searches[name]), (recorded, searches)
        for secs, (own, pondered) in zip(recorded[name], searches[name]):
            assert abs(secs - own) <= 0.1, (secs, own)
            if pondered is not None and pondered - own > 0.3:
                assert secs < pondered - 0.15, (secs, pondered)


# --- schedules and opening books ---------------------------------------------


def test_round_robin_gauntlet_and_epd_book(arena_bin, tmp_path):
    book = tmp_path / "book.epd"
    fens = ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2"]
    book.write_text("\n".join(f + ' bm e4; id "x";' for f in fens) + "\n")
    good = lambda name: broken("good")[:-1] + ["name=" + name]
    out, games, summary = run_arena(arena_bin, tmp_path, good("a") + good("b") + good("c") + [
        "-each", "tc=2+0.1", "-games", "2", "-rounds", "2", "-maxmoves", "4", "-concurrency", "2",
        "-openings", "file=" + str(book), "format=epd", "order=sequential"])
    # Three pairings, two rounds of a game pair each.
    assert len(games) == 12 and len(summary["encounters"]) == 3
    for enc in summary["encounters"]:
        assert enc["games"] == 4 and sum(enc["pentanomial"]) == 2
    starts = {}
    for g in games:
        check_game_is_legal(g)
        assert g.headers["SetUp"] == "1" and g.headers["FEN"] in fens
        key = (frozenset((g.headers["White"], g.headers["Black"])), g.headers["Round"])
        starts.setdefault(key, set()).add(g.headers["FEN"])
    # Each game pair (same engines, same round) shares its opening.
    assert all(len(s) == 1 for s in starts.values())

    out, games, summary = run_arena(arena_bin, tmp_path, good("a") + good("b") + good("c") + [
        "-tournament", "gauntlet", "-each", "tc=2+0.1", "-games", "2", "-maxmoves", "3"])
    assert len(games) == 4
    assert all("a" in (g.headers["White"], g.headers["Black"]) for g in games)


def test_pgn_opening_book(arena_bin, tmp_path):
    book = tmp_path / "book.pgn"
    book.write_text('[Event "a"]\n\n1. e4 {main} e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 *\n\n'
                    '[Event "b"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. e4 Kd7 *\n')
    good = lambda name: broken("good")[:-1] + ["name=" + name]
    out, games, summary = run_arena(arena_bin, tmp_path, good("a") + good("b") + [
        "-each", "tc=2+0.1", "-games", "2", "-rounds", "2", "-maxmoves", "3",
        "-openings", "file=" + str(book), "format=pgn"])
    assert len(games) == 4
    for g in games:
        check_game_is_legal(g)
        book_moves = [n.san() for n in g.mainline() if n.comment == "book"]
        if g.headers.get("FEN"):
            assert g.headers["FEN"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" and book_moves == ["e4", "Kd7"]
        else:
            assert book_moves == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


# --- tengen against itself, and over USI ---------------------------------------


@pytest.mark.parametrize("variant,proto,tc,ext", [
    ("chess", "uci", "3+0.05", "pgn"),
    ("xiangqi", "ucci", "3+0.05", "pgn"),
    ("shogi", "usi", "3+b0.2", "csa"),
    ("go", "gtp", "5+0.1", "sgf"),
])
def test_tengen_vs_tengen_in_every_alpha_beta_and_go_protocol(arena_bin, tengen_bin, tmp_path,
                                                               variant, proto, tc, ext):
    out, summary = tmp_path / ("games." + ext), tmp_path / "s.json"
    extra = ["-boardsize", "9"] if variant == "go" else []
    proc = subprocess.run(
        [arena_bin, "-variant", variant] + extra
        + ["-engine", "cmd=" + tengen_bin, "name=t1", "-engine", "cmd=" + tengen_bin, "name=t2",
           "-each", "proto=" + proto, "tc=" + tc, "timemargin=1000", "-games", "2",
           "-maxmoves", "24" if variant == "shogi" else "40", "-openings", "plies=2", "-srand", "4",
           "-pgnout", str(out), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    assert len(data["games"]) == 2
    for g in data["games"]:
        # Whatever the result, no verdict may blame the protocol or the rules.
        for bad in ("illegal", "disconnect", "protocol", "on time", "crash"):
            assert bad not in g["reason"].lower(), g
    text = out.read_text()
    if variant == "chess":
        games = [chess.pgn.read_game(io.StringIO(p)) for p in split_pgn(text, "[Event")]
        assert len(games) == 2
        for g in games:
            check_game_is_legal(g)
    elif variant == "shogi":
        import cshogi
        import cshogi.CSA as CSA
        records = [CSA.Parser.parse_str("V2.2" + p)[0] for p in text.split("V2.2") if p.strip()]
        assert len(records) == 2
        for rec in records:
            board = cshogi.Board()
            for m in rec.moves:
                assert board.is_legal(m)
                board.push(m)
    elif variant == "go":
        records = [t for t in text.split("(;") if t.strip()]
        assert len(records) == 2
        for t in records:
            game = sgf.Sgf_game.from_bytes(("(;" + t).encode())
            assert game.get_size() == 9


@pytest.mark.skipif(not FAIRY, reason="needs fairy-stockfish")
def test_tengen_vs_fairy_stockfish_shogi_over_usi(arena_bin, tengen_bin, tmp_path):
    import cshogi
    import cshogi.CSA as CSA
    out, summary = tmp_path / "games.csa", tmp_path / "s.json"
    proc = subprocess.run(
        [arena_bin, "-variant", "shogi", "-engine", "cmd=" + tengen_bin, "name=tengen",
         "-engine", "cmd=" + FAIRY, "name=fsf", "option.Skill Level=0", "option.Threads=1",
         "-each", "proto=usi", "tc=3+b0.3", "timemargin=1000", "-games", "2", "-maxmoves", "24",
         "-openings", "plies=2", "-srand", "6", "-pgnout", str(out), "-jsonout", str(summary)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(summary.read_text())
    for g in data["games"]:
        assert "illegal" not in g["reason"] and "disconnect" not in g["reason"], g
    records = [CSA.Parser.parse_str("V2.2" + p)[0] for p in out.read_text().split("V2.2") if p.strip()]
    assert len(records) == 2
    for rec in records:
        board = cshogi.Board()
        for m in rec.moves:
            assert board.is_legal(m)
            board.push(m)


def _book_moves(game):
    """The opening plies the arena marked as book, and who had White."""
    book = []
    node = game
    while node.variations:
        node = node.variations[0]
        if node.comment != "book":
            break
        book.append(node.move.uci())
    return game.headers["White"], tuple(book)


def test_resume_after_kill_loses_and_repeats_nothing(arena_bin, tmp_path):
    """`kill -9` mid-match, then the same command line with -resume: every
    game finished before the kill is kept byte for byte, the rest are
    played with the same openings and colours as an uninterrupted run, and
    the record and the JSON hold each game exactly once."""
    games_n = 60

    def command(d, *extra):
        return [arena_bin] + broken("good")[:-1] + ["name=a"] + broken("good")[:-1] + [
            "name=b", "-each", "tc=5+0.1", "-games", "2", "-rounds", str(games_n // 2),
            "-maxmoves", "25", "-openings", "plies=3", "-srand", "7",
            "-pgnout", str(d / "g.pgn"), "-jsonout", str(d / "s.json")] + list(extra)

    def read_pgn(path):
        with open(path) as f:
            return [g for g in iter(lambda: chess.pgn.read_game(f), None)]

    ref = tmp_path / "ref"
    ref.mkdir()
    proc = subprocess.run(command(ref), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    expected = [_book_moves(g) for g in read_pgn(ref / "g.pgn")]
    assert len(expected) == games_n and len(set(expected)) > 10

    run = tmp_path / "run"
    run.mkdir()
    journal = run / "g.pgn.journal"
    arena = subprocess.Popen(command(run), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        if journal.exists() and len(journal.read_text().splitlines()) > 6:
            break
        time.sleep(0.002)
    arena.kill()
    arena.wait()
    lines = journal.read_text().splitlines()
    finished = [json.loads(l) for l in lines[1:] if l.endswith("}")]
    assert 5 <= len(finished) < games_n, "the kill came too late to test anything"
    kept = (run / "g.pgn").read_bytes()[: finished[-1]["record_end"]]
    # The summary written so far is whole and counts the journalled games
    # (or one fewer: the arena may die between the two writes).
    partial = json.loads((run / "s.json").read_text())
    assert len(partial["games"]) in (len(finished) - 1, len(finished))

    proc = subprocess.run(command(run, "-resume"), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    assert f"Resuming: {len(finished)} of {games_n} games already played" in proc.stdout
    data = (run / "g.pgn").read_bytes()
    assert data.startswith(kept)
    games = read_pgn(run / "g.pgn")
    assert len(games) == games_n
    for g in games:
        check_game_is_legal(g)
    # Game k of the resumed run (record order is game order with one
    # worker) has the reference's opening and colours.
    assert [_book_moves(g) for g in games] == expected
    summary = json.loads((run / "s.json").read_text())
    assert sorted(g["game"] for g in summary["games"]) == list(range(1, games_n + 1))
    enc = summary["encounters"][0]
    assert enc["games"] == games_n == enc["wins"] + enc["draws"] + enc["losses"]
    results = [g.headers["Result"] for g in games]
    assert [g["result"] for g in summary["games"]] == results

    # A finished match resumes to nothing new; another match is refused.
    proc = subprocess.run(command(run, "-resume"), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and len(read_pgn(run / "g.pgn")) == games_n
    proc = subprocess.run(command(run, "-resume", "-maxmoves", "26"), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0 and "different match" in proc.stderr
    assert len(read_pgn(run / "g.pgn")) == games_n


@pytest.mark.parametrize("mode,why", [
    ("startcrash", "the engine exited"),
    ("nohandshake", "timed out"),
])
def test_engine_that_never_starts_loses_every_game(arena_bin, tmp_path, mode, why):
    out, games, summary = run_arena(arena_bin, tmp_path, broken(mode) + broken("good")[:-1] + [
        "name=good", "-each", "tc=2+0.1", "handshake=1000", "-games", "4"], timeout=120)
    assert len(games) == 4
    for g in games:
        loser_white = g.headers["White"] == "broken-" + mode
        assert g.headers["Result"] == ("0-1" if loser_white else "1-0")
        assert g.headers["Termination"] == "abandoned"
        assert "could not start" in g.comment and why in g.comment, g.comment
    assert summary["encounters"][0]["losses"] == 4
    assert faults(summary, "broken-" + mode) == {"start": 4, "total": 4}


@pytest.mark.parametrize("mode", ["flood", "partial"])
def test_flooding_and_split_lines_are_not_faults(arena_bin, tmp_path, mode):
    """Megabytes of output a move (and a 4 MB line), or replies that
    arrive in pieces: neither is a fault, and the games end normally."""
    out, games, summary = run_arena(arena_bin, tmp_path, broken(mode, after=1) + broken("good")[:-1] + [
        "name=good", "-each", "tc=20+0.2", "-games", "2", "-maxmoves", "8"])
    assert len(games) == 2
    for g in games:
        check_game_is_legal(g)
        assert g.headers["Termination"] == "adjudication", (g.headers, g.end().comment)
    assert summary["encounters"][0]["draws"] == 2
    assert faults(summary, "broken-" + mode) == {}


def test_engine_that_ignores_stop_and_ponderhit_loses_on_time(arena_bin, tmp_path):
    out, games, summary = run_arena(arena_bin, tmp_path, broken("ignorestop") + ["ponder=on"]
                                    + broken("good")[:-1] + ["name=good", "-each", "tc=2+0.1",
                                                             "-games", "2"], timeout=120)
    assert len(games) == 2
    for g in games:
        loser_white = g.headers["White"] == "broken-ignorestop"
        assert g.headers["Result"] == ("0-1" if loser_white else "1-0")
        assert g.headers["Termination"] == "time forfeit"


def test_hanging_engine_behind_a_wrapper_leaves_no_process(arena_bin, tmp_path):
    """The engine runs under `sh -c` (as many wrapper scripts do), so the
    arena's child is the shell: killing the hung engine must kill the
    process group, not only the shell, or the real engine lives on."""
    marker = "marker-%d-%s" % (os.getpid(), tmp_path.name)
    wrapper = "%s %s hang 1 %s; true" % (sys.executable, BROKEN, marker)
    out, games, summary = run_arena(arena_bin, tmp_path, [
        "-engine", "cmd=sh", "arg=-c", "arg=" + wrapper, "name=wrapped"] + broken("good")[:-1] + [
        "name=good", "-each", "tc=1+0.1", "timemargin=100", "-games", "2"], timeout=120)
    assert len(games) == 2
    assert all(g.headers["Termination"] == "time forfeit" for g in games)
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    for pid in left:
        os.kill(int(pid), 9)
    assert not left, "the wrapped engine outlived the arena"
