"""Chess rules through the `tengen legal` / `tengen perft` subcommands,
checked against python-chess (an independent implementation) and the
reference perft counts in ../shared/testdata/chess/perft.epd."""
import pathlib
import random
import subprocess

import chess
import pytest

SHARED = pathlib.Path(__file__).resolve().parent.parent.parent / "shared"


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    assert "panicked" not in p.stderr, p.stderr
    return p


def legal(binary, fen, moves=(), chess960=False):
    args = ["legal", "--game", "chess", "--position", fen]
    if moves:
        args += ["--moves", *moves]
    if chess960:
        args.append("--chess960")
    p = run(binary, *args)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert lines and lines[-1].startswith("result: "), p.stdout
    return set(lines[:-1]), lines[-1][len("result: "):]


def expected_result(board):
    if board.is_checkmate():
        return ("white" if board.turn == chess.BLACK else "black") + " checkmate"
    if board.is_stalemate():
        return "draw stalemate"
    if board.is_insufficient_material():
        return "draw insufficient material"
    if board.halfmove_clock >= 100:
        return "draw fifty-move rule"
    if board.is_repetition(3):
        return "draw threefold repetition"
    return "ongoing"


@pytest.mark.parametrize("seed", range(4))
def test_random_games_match_python_chess(tengen_bin, seed):
    rng = random.Random(seed)
    board = chess.Board()
    played = []
    while True:
        if len(played) % 7 == 0 or board.is_game_over(claim_draw=True):
            moves, result = legal(tengen_bin, chess.STARTING_FEN, played)
            want = {m.uci() for m in board.legal_moves}
            assert moves == want, f"after {played}"
            assert result == expected_result(board), f"after {played}"
        if board.is_game_over(claim_draw=True) or len(played) >= 400:
            break
        # Prefer captures now and then so games reach endings.
        caps = [m for m in board.legal_moves if board.is_capture(m)]
        m = rng.choice(caps if caps and rng.random() < 0.4 else list(board.legal_moves))
        board.push(m)
        played.append(m.uci())


@pytest.mark.parametrize(
    "fen,moves,result",
    [
        (chess.STARTING_FEN, ["f2f3", "e7e5", "g2g4", "d8h4"], "black checkmate"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", [], "draw stalemate"),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", [], "draw insufficient material"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", [], "draw fifty-move rule"),
        (
            chess.STARTING_FEN,
            ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"],
            "draw threefold repetition",
        ),
        (chess.STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8"], "ongoing"),
    ],
)
def test_game_end(tengen_bin, fen, moves, result):
    assert legal(tengen_bin, fen, moves)[1] == result


def test_chess960_castling_is_king_takes_rook(tengen_bin):
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    board = chess.Board(fen, chess960=True)
    for _ in range(3):
        moves, _ = legal(tengen_bin, fen, chess960=True)
        assert moves == {board.uci(m, chess960=True) for m in board.legal_moves}
        m = random.Random(len(moves)).choice(list(board.legal_moves))
        board.push(m)
        fen = board.fen(shredder=True)
    start = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    moves, _ = legal(tengen_bin, start, chess960=True)
    assert {"e1h1", "e1a1"} <= moves and "e1g1" not in moves
    moves, _ = legal(tengen_bin, start)
    assert {"e1g1", "e1c1"} <= moves


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "\u00e9\u00e9 w - - 0 1",
    ],
)
def test_bad_fen_is_a_clean_error(tengen_bin, fen):
    p = run(tengen_bin, "legal", "--game", "chess", "--position", fen)
    assert p.returncode != 0
    assert p.stderr.strip()


def test_illegal_move_is_a_clean_error(tengen_bin):
    p = run(tengen_bin, "legal", "--game", "chess", "--moves", "e2e5")
    assert p.returncode != 0
    assert "e2e5" in p.stderr


def perft_cases(limit):
    for line in (SHARED / "testdata/chess/perft.epd").read_text().splitlines():
        fields = [f.strip() for f in line.split(" ;")]
        counts = [int(f.split()[1]) for f in fields[1:] if f.startswith("D")]
        chess960 = "variant chess960" in fields
        name = next(f[3:] for f in fields if f.startswith("id "))
        depth = max(d + 1 for d, n in enumerate(counts) if n <= limit or d == 0)
        yield pytest.param(fields[0], depth, counts[depth - 1], chess960, id=name)


@pytest.mark.parametrize("fen,depth,count,chess960", list(perft_cases(200_000)))
def test_perft_subcommand(tengen_bin, fen, depth, count, chess960):
    args = ["perft", "--game", "chess", "--position", fen, "--depth", str(depth)]
    if chess960:
        args.append("--chess960")
    p = run(tengen_bin, *args)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout.split()[-1]) == count
