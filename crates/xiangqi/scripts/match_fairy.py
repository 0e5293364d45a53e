#!/usr/bin/env python3
"""tengen (UCCI) against Fairy-Stockfish (UCCI mode) at a Fischer time
control; every move checked and every game adjudicated by pyffish.

Usage: match_fairy.py TENGEN_BIN GAMES [BASE_S INC_S] [LOGFILE]

Openings: two random plies from the start position (seeded), each played
twice with colours swapped. Prints one line per game and W/D/L for tengen
with an Elo estimate (normal approximation, 95%).
"""
import math
import queue
import random
import subprocess
import sys
import threading
import time

import pyffish

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
FAIRY = "/usr/games/fairy-stockfish"
MAX_PLIES = 400
# Flag falls only this far past zero: the shared test machine stalls
# processes for hundreds of milliseconds at times.
GRACE_MS = 1000


class Engine:
    def __init__(self, argv, name):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.strip())
        self.q.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout):
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.001, end - time.time()))
            if line is None:
                raise RuntimeError(self.name + " exited")
            if pred(line):
                return line

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=3)
        except Exception:
            self.p.kill()


def uci(m):
    return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)


def iccs(m):
    i = 1
    while m[i].isdigit():
        i += 1
    return "%s%d%s%d" % (m[0], int(m[1:i]) - 1, m[i], int(m[i + 1:]) - 1)


def start_engines(tengen):
    us = Engine([tengen], "tengen")
    us.send("ucci")
    us.until(lambda l: l == "ucciok", 10)
    us.send("setoption usemillisec true")
    us.send("setoption hashsize 64")
    fs = Engine([FAIRY], "fairy")
    fs.send("ucci")
    fs.until(lambda l: l == "ucciok", 10)
    fs.send("setoption UCI_Variant xiangqi")
    fs.send("setoption Hash 64")
    return us, fs


def play(us, fs, opening, tengen_red, base_ms, inc_ms):
    """Returns (score for tengen 1/0.5/0, reason, plies)."""
    moves = list(opening)
    clocks = {True: base_ms, False: base_ms}  # True = tengen
    for e in (us, fs):
        e.send("setoption newgame" if e is us else "ucinewgame")
    while True:
        uci_moves = [uci(m) for m in moves]
        legal = {iccs(m) for m in pyffish.legal_moves("xiangqi", START, uci_moves)}
        red_to_move = len(moves) % 2 == 0
        ours = red_to_move == tengen_red
        if not legal:
            return (0.0 if ours else 1.0), "no legal move", len(moves)
        end, value = pyffish.is_optional_game_end("xiangqi", START, uci_moves)
        if end:
            if value == 0:
                return 0.5, "repetition/move limit", len(moves)
            win_for_mover = value > 0
            return (1.0 if win_for_mover == ours else 0.0), "perpetual", len(moves)
        if len(moves) >= MAX_PLIES:
            return 0.5, "ply limit", len(moves)
        e = us if ours else fs
        mine, theirs = clocks[ours], clocks[not ours]
        e.send("position fen %s%s" % (START, (" moves " + " ".join(moves)) if moves else ""))
        t = time.time()
        e.send("go time %d increment %d opptime %d oppincrement %d" % (max(mine, 0), inc_ms, max(theirs, 0), inc_ms))
        try:
            line = e.until(lambda l: l.startswith("bestmove") or l == "nobestmove", mine / 1000 + 5)
        except queue.Empty:
            return (0.0 if ours else 1.0), "hung", len(moves)
        spent = (time.time() - t) * 1000
        clocks[ours] = mine - spent + inc_ms
        if clocks[ours] < -GRACE_MS:
            return (0.0 if ours else 1.0), "time", len(moves)
        words = line.split()
        if words[0] == "nobestmove":
            return (0.0 if ours else 1.0), "gave up with legal moves", len(moves)
        if "resign" in words:
            return (0.0 if ours else 1.0), "resigned", len(moves)
        if words[1] not in legal:
            return (0.0 if ours else 1.0), "illegal move " + words[1], len(moves)
        moves.append(words[1])


def elo(score, n):
    if n == 0:
        return 0.0, 0.0
    p = min(max(score / n, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / p - 1), p


def main():
    tengen, games = sys.argv[1], int(sys.argv[2])
    base_ms = int(float(sys.argv[3]) * 1000) if len(sys.argv) > 3 else 10000
    inc_ms = int(float(sys.argv[4]) * 1000) if len(sys.argv) > 4 else 100
    rnd = random.Random(2026)
    w = d = l = 0
    scores = []
    us, fs = start_engines(tengen)
    opening = []
    for g in range(games):
        if g % 2 == 0:
            opening = []
            for _ in range(2):
                legal = pyffish.legal_moves("xiangqi", START, [uci(m) for m in opening])
                opening.append(iccs(rnd.choice(sorted(legal))))
        tengen_red = g % 2 == 0
        try:
            s, why, plies = play(us, fs, opening, tengen_red, base_ms, inc_ms)
        except RuntimeError as err:
            s, why, plies = (0.0 if "tengen" in str(err) else 1.0), str(err), 0
            us.close()
            fs.close()
            us, fs = start_engines(tengen)
        scores.append(s)
        w += s == 1.0
        d += s == 0.5
        l += s == 0.0
        n = w + d + l
        e, p = elo(w + d / 2, n)
        # Standard error of the mean score, mapped through the Elo curve.
        var = sum((x - p) ** 2 for x in scores) / n
        se = math.sqrt(var / n)
        lo, _ = elo(max(p - 1.96 * se, 1e-6) * n, n)
        hi, _ = elo(min(p + 1.96 * se, 1 - 1e-6) * n, n)
        print("game %3d %s tengen=%s %s after %d plies (%s) | W %d D %d L %d score %.1f%% Elo %+.0f [%+.0f, %+.0f]" % (
            g + 1, " ".join(opening), "red" if tengen_red else "black",
            {1.0: "win", 0.5: "draw", 0.0: "loss"}[s], plies, why, w, d, l, 100 * p, e, lo, hi), flush=True)
    us.close()
    fs.close()


if __name__ == "__main__":
    main()
