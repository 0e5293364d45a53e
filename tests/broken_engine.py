#!/usr/bin/env python3
"""A deliberately broken UCI chess engine for the arena's verdict tests.

Usage: broken_engine.py MODE [AFTER]
MODE is what goes wrong once AFTER good moves (default 0) have been played:
  good     never breaks: plays a random legal move (seeded, quick)
  illegal  answers with a move that is not legal
  crash    exits without answering `go`
  hang     never answers `go` and ignores `stop`
  slow     answers, but only after its clock has run out
  garbage  prints non-UTF-8 bytes and junk lines, then a legal move (not a fault)
  nomove   answers `bestmove (none)` in a position with legal moves
  resign   answers `bestmove resign` (a score first)
  startcrash   exits at start, before the handshake
  nohandshake  answers `uci` with its name but never `uciok`
  flood    before each move prints megabytes of `info` lines and one very
           long line (not a fault), then a legal move
  partial  writes its replies in pieces with pauses inside lines (not a fault)
  fixed    never breaks: plays a move chosen by a hash of the position, so
           the same game from the same opening every time
  fixedslow  as fixed, thinking 20 ms a move
  ignorestop   plays normally but never ends a `go ponder` or `go infinite`
           search: neither `stop` nor `ponderhit` gets an answer
"""
import hashlib
import random
import sys
import time

import chess

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
rng = random.Random(12345)
board = chess.Board()
moves_made = 0


def out(line):
    if mode == "partial" and moves_made > after:
        # Pieces of the line with pauses between them, as a pipe may
        # deliver them from a slow or buffered engine.
        for i in range(0, len(line), 3):
            sys.stdout.write(line[i : i + 3])
            sys.stdout.flush()
            time.sleep(0.002)
        sys.stdout.write("\n")
        sys.stdout.flush()
        return
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if mode == "startcrash":
    sys.exit(3)


def parse_position(tokens):
    b = chess.Board()
    i = 1
    if i < len(tokens) and tokens[i] == "fen":
        fen = " ".join(tokens[i + 1 : i + 7])
        b = chess.Board(fen)
        i += 7
    elif i < len(tokens) and tokens[i] == "startpos":
        i += 1
    if i < len(tokens) and tokens[i] == "moves":
        for m in tokens[i + 1 :]:
            b.push_uci(m)
    return b


def my_time(tokens):
    key = "wtime" if board.turn == chess.WHITE else "btime"
    if key in tokens:
        return int(tokens[tokens.index(key) + 1])
    if "movetime" in tokens:
        return int(tokens[tokens.index("movetime") + 1])
    return 1000


for raw in sys.stdin:
    tokens = raw.split()
    if not tokens:
        continue
    cmd = tokens[0]
    if cmd == "uci":
        out("id name broken-" + mode)
        out("id author tengen tests")
        if mode == "ignorestop":
            out("option name Ponder type check default false")
        if mode != "nohandshake":
            out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "ucinewgame":
        moves_made = 0
    elif cmd == "position":
        board = parse_position(tokens)
    elif cmd == "go" and mode == "ignorestop" and ("ponder" in tokens or "infinite" in tokens):
        for follow in sys.stdin:
            if follow.split()[:1] == ["quit"]:
                sys.exit(0)
    elif cmd == "go":
        legal = list(board.legal_moves)
        broken = moves_made >= after
        moves_made += 1
        if broken and mode == "illegal":
            # A move no piece can make: from an empty square if possible.
            empty = [s for s in chess.SQUARES if board.piece_at(s) is None]
            out("info depth 1 score cp 0")
            out("bestmove %s%s" % (chess.square_name(empty[0]), chess.square_name(empty[1])))
        elif broken and mode == "crash":
            sys.exit(3)
        elif broken and mode == "hang":
            while True:
                time.sleep(1)
        elif broken and mode == "slow":
            time.sleep(my_time(tokens) / 1000.0 + 0.6)
            out("bestmove " + legal[0].uci())
        elif broken and mode == "nomove":
            out("bestmove (none)")
        elif broken and mode == "resign":
            out("info depth 1 score cp -500")
            out("bestmove resign")
        elif broken and mode == "flood":
            chunk = "".join("info depth %d nodes %d score cp 0 pv %s\n" % (d, d * 1000, legal[0].uci())
                            for d in range(1000))
            for _ in range(200):
                sys.stdout.write(chunk)
            sys.stdout.write("info string " + "x" * 4_000_000 + "\n")
            out("bestmove " + rng.choice(legal).uci())
        else:
            if broken and mode == "garbage":
                sys.stdout.buffer.write(b"\xff\xfe junk \x00 line\n")
                out("info depth nonsense score cp x pv")
                out("bestmove")
            out("info depth 1 score cp 0 pv " + legal[0].uci())
            mv = rng.choice(legal)
            if mode in ("fixed", "fixedslow"):
                if mode == "fixedslow":
                    time.sleep(0.02)
                digest = hashlib.sha256(board.fen().encode()).digest()
                ordered = sorted(legal, key=lambda m: m.uci())
                mv = ordered[int.from_bytes(digest[:4], "big") % len(ordered)]
            if mode == "ignorestop":
                board.push(mv)
                replies = list(board.legal_moves)
                if replies:
                    out("bestmove %s ponder %s" % (mv.uci(), rng.choice(replies).uci()))
                    continue
            out("bestmove " + mv.uci())
    elif cmd == "quit":
        break
