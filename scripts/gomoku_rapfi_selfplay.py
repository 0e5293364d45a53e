#!/usr/bin/env python3
"""Rapfi's self-play games as data for the gomoku pattern tables.

    python3 scripts/gomoku_rapfi_selfplay.py --engine tools/gomoku-opponents/bin/pbrain-rapfi \
        --nodes 20000 --games 2000 --seed 1 \
        --openings tools/gomoku-opponents/openings/freestyle15-4ply-screen.txt \
        --out nnue-data/gomoku/rapfi-s1.txt [--shard 0/2]

Freestyle 15x15 only. Game `i` starts from an opening line of the file
(drawn by a generator seeded with the seed and `i`) plus 0-2 random
stones near the others, then Rapfi plays both sides at a fixed node count
(Gomocup `INFO max_node`), the whole position sent with `BOARD` before
each move. A game ends with a five, a full board, or a proven score in
Rapfi's report (`Eval +M7`: the side to move wins; `-M7`: it loses).

The output is `pattern_datagen`'s format, so `pattern_fit` reads it:

    <i> freestyle <B|W|D> <opening stones> | <x,y>@<score> ...

each move with Rapfi's score from the mover's view, converted to
tengen's scale (Rapfi reports 200 units a logit, tengen uses 400: x2); a
proven score is written as +-29,999 (beyond `PROVEN`, so the fit skips
it). Lines are appended and flushed; a rerun with the same file skips the
games already there (a cut last line is dropped), so a run is resumable;
`--shard k/n` plays only the games with `i % n == k`.
"""

import argparse
import os
import random
import re
import select
import subprocess
import sys
import time

SIZE = 15
EVAL = re.compile(r"\bEval ([+-]?M[0-9*]+|-?[0-9]+)")
PROVEN_OUT = 29_999


def five(stones, x, y):
    """Whether the stone at (x, y) makes five or more in a row (freestyle)."""
    c = stones[(x, y)]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while stones.get((x + s * k * dx, y + s * k * dy)) == c:
                n += 1
                k += 1
        if n >= 5:
            return True
    return False


class Rapfi:
    def __init__(self, cmd, nodes):
        self.p = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.buf = b""
        self.send(f"START {SIZE}")
        self.expect_ok()
        for line in (
            f"INFO max_node {nodes}",
            "INFO timeout_turn 600000",
            "INFO timeout_match 0",
            "INFO time_left 2147483647",
            "INFO rule 0",
            "INFO max_memory 67108864",
        ):
            self.send(line)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        # Our own line buffer over the pipe, so that `drain` can tell by
        # `select` whether anything is left.
        while b"\n" not in self.buf:
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError("Rapfi closed its output")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def expect_ok(self):
        while True:
            line = self.read()
            if line.startswith("OK"):
                return
            if line.startswith("ERROR"):
                raise RuntimeError(line)

    def best_move(self, moves):
        """Rapfi's move and score for the side to move after `moves`.

        Rapfi reads its input on another thread while it finishes a move:
        a BOARD sent the moment the answer arrives can be lost, its stones
        then coming back as unknown commands. So wait a little first, and
        when it happens all the same, drain the errors and send it again.
        """
        for _ in range(5):
            time.sleep(0.015)
            self.send("BOARD")
            me = len(moves) % 2
            for k, (x, y) in enumerate(moves):
                self.send(f"{x},{y},{1 if k % 2 == me else 2}")
            self.send("DONE")
            score = None
            while True:
                line = self.read()
                m = EVAL.search(line) if line.startswith("MESSAGE") else None
                if m:
                    score = m.group(1)
                elif re.fullmatch(r"[0-9]+,[0-9]+", line):
                    x, y = map(int, line.split(","))
                    return (x, y), score
                elif line.startswith("ERROR"):
                    self.drain()
                    break
        raise RuntimeError("Rapfi lost the BOARD command five times in a row")

    def drain(self):
        """Drops what Rapfi has written and writes until it is quiet for 0.5 s."""
        self.buf = b""
        while select.select([self.p.stdout], [], [], 0.5)[0]:
            if not os.read(self.p.stdout.fileno(), 65536):
                return

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def score_value(s):
    if s is None:
        return 0, None
    if "M" in s:
        return (PROVEN_OUT, True) if s.startswith("+") or s.startswith("M") else (-PROVEN_OUT, False)
    return max(-20_000, min(20_000, 2 * int(s))), None


def opening(rng, lines):
    stones = [tuple(map(int, p.split(","))) for p in rng.choice(lines).split()]
    taken = set(stones)
    for _ in range(rng.randrange(3)):
        near = sorted(
            {
                (x + dx, y + dy)
                for (x, y) in taken
                for dx in range(-2, 3)
                for dy in range(-2, 3)
                if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and (x + dx, y + dy) not in taken
            }
        )
        p = rng.choice(near)
        board = {q: k % 2 for k, q in enumerate(stones)}
        board[p] = len(stones) % 2
        if five(board, *p):
            break
        stones.append(p)
        taken.add(p)
    return stones


def play(engine, i, seed, lines):
    rng = random.Random(seed * 1_000_003 + i)
    moves = opening(rng, lines)
    start = list(moves)
    board = {q: k % 2 for k, q in enumerate(moves)}
    played = []
    winner = "D"
    while len(moves) < SIZE * SIZE:
        (x, y), s = engine.best_move(moves)
        if (x, y) in board or not (0 <= x < SIZE and 0 <= y < SIZE):
            raise RuntimeError(f"game {i}: Rapfi played an occupied or off-board {x},{y}")
        value, proven = score_value(s)
        mover = len(moves) % 2
        played.append(f"{x},{y}@{value}")
        moves.append((x, y))
        board[(x, y)] = mover
        if five(board, x, y):
            winner = "BW"[mover]
            break
        if proven is not None:
            winner = "BW"[mover] if proven else "BW"[1 - mover]
            break
    head = " ".join(f"{x},{y}" for x, y in start)
    return f"{i} freestyle {winner} {head} | {' '.join(played)}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openings", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shard", default="0/1")
    a = ap.parse_args()
    k, n = map(int, a.shard.split("/"))
    lines = [l.strip() for l in open(a.openings) if l.strip() and not l.startswith("#")]
    done = set()
    if os.path.exists(a.out):
        text = open(a.out).read()
        keep = text.rfind("\n") + 1
        if keep != len(text):
            with open(a.out, "w") as f:
                f.write(text[:keep])
        for line in text[:keep].splitlines():
            done.add(int(line.split()[0]))
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    engine = Rapfi([a.engine], a.nodes)
    written = 0
    try:
        with open(a.out, "a") as f:
            for i in range(a.games):
                if i % n != k or i in done:
                    continue
                f.write(play(engine, i, a.seed, lines))
                f.flush()
                written += 1
                if written % 100 == 0:
                    print(f"{written} games written", file=sys.stderr, flush=True)
    finally:
        engine.close()
    print(f"{written} games written to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
