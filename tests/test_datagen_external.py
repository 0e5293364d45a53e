"""`tengen datagen --engine`: an outside engine plays and scores the games.

The records must be positions of real games (legal, side to move not in
check), scored by the engine, the same whatever the thread count (game
`i` depends only on the seed and `i`, the engine starts each game with
`ucinewgame`), and a directory started with one engine is not resumed
with another. An engine that answers with an illegal move stops the run
with a message naming the move.
"""
import os
import struct
import subprocess
import sys

import chess
import pytest

from conftest import debian_game

STOCKFISH = debian_game("stockfish")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed")
HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def _datagen(tengen_bin, out, engine, threads, options=("Threads=1", "Hash=16"), games=6):
    cmd = [tengen_bin, "datagen", "--game", "chess", "--nodes", "300", "--games", str(games),
           "--threads", str(threads), "--seed", "5", "--out", str(out), "--engine", engine]
    for o in options:
        cmd += ["--engine-option", o]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def _records(out):
    recs = []
    for name in sorted(os.listdir(out)):
        if name.endswith(".bin"):
            data = open(os.path.join(out, name), "rb").read()
            assert data[:8] == b"TGNNDATA" and data[10] == 1 and data[11] == 32
            recs += [data[i:i + 32] for i in range(16, len(data), 32)]
    return recs


def _board(rec):
    occupancy = struct.unpack_from("<Q", rec, 0)[0]
    board = chess.Board(None)
    n = 0
    for sq in range(64):
        if occupancy >> sq & 1:
            code = rec[8 + n // 2] >> (4 * (n % 2)) & 15
            n += 1
            board.set_piece_at(sq, chess.Piece(KINDS[code & 7], code < 8))
    board.turn = not rec[26] & 0x80
    return board


@needs_stockfish
def test_stockfish_plays_and_scores_the_games(tengen_bin, tmp_path):
    two = _datagen(tengen_bin, tmp_path / "two", STOCKFISH, 2)
    assert two.returncode == 0, two.stderr
    assert "engine " + STOCKFISH in (tmp_path / "two" / "run.txt").read_text()
    recs = _records(tmp_path / "two")
    assert len(recs) > 100
    scores = []
    for rec in recs:
        board = _board(rec)
        assert board.is_valid() or board.status() == chess.STATUS_BAD_CASTLING_RIGHTS, board.fen()
        assert not board.is_check(), board.fen()
        scores.append(struct.unpack_from("<h", rec, 24)[0])
        assert rec[26] & 3 in (0, 1, 2)
    # Stockfish's scores, not a constant: they spread and are not all level.
    assert len(set(scores)) > 20
    assert max(abs(s) for s in scores) > 50
    # The same games on one thread: the same records (shards differ).
    one = _datagen(tengen_bin, tmp_path / "one", STOCKFISH, 1)
    assert one.returncode == 0, one.stderr
    assert sorted(_records(tmp_path / "one")) == sorted(recs)
    # Another engine setting in the same directory is refused.
    other = _datagen(tengen_bin, tmp_path / "two", STOCKFISH, 2, options=("Threads=1", "Hash=32"))
    assert other.returncode != 0
    assert "other settings" in other.stderr
    assert sorted(_records(tmp_path / "two")) == sorted(recs)


def _broken(tmp_path, mode, after):
    wrapper = tmp_path / (mode + ".sh")
    wrapper.write_text("#!/bin/sh\nexec %s %s %s %d\n" % (sys.executable, os.path.join(HERE, "broken_engine.py"), mode, after))
    wrapper.chmod(0o755)
    return str(wrapper)


def test_an_illegal_move_from_the_engine_stops_the_run(tengen_bin, tmp_path):
    r = _datagen(tengen_bin, tmp_path / "bad", _broken(tmp_path, "illegal", 3), 1, options=(), games=2)
    assert r.returncode != 0
    assert "is not a legal move" in r.stderr


def test_a_resignation_loses_the_game(tengen_bin, tmp_path):
    # The engine plays one move of each game, then resigns: the only
    # position kept (the first) was the winner's to move.
    r = _datagen(tengen_bin, tmp_path / "resign", _broken(tmp_path, "resign", 1), 1, options=(), games=8)
    assert r.returncode == 0, r.stderr
    recs = _records(tmp_path / "resign")
    assert recs
    assert all(rec[26] & 3 == 2 for rec in recs)
