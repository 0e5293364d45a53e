#!/usr/bin/env python3
"""Balanced gomoku openings for tengen-arena (`-openings file=F format=moves`).

Each opening is N plies (black first) of random stones in the central
(2r+1)x(2r+1) square, kept when tengen, searching a fixed number of nodes
(so the set does not depend on the machine's load), scores the position
within +/- max-eval for the side to move and finds no forced win. Openings
equal under the board's eight symmetries are kept once. Output: one
opening per line, Gomocup `x,y` points in play order.

    make_openings.py --tengen target/release/tengen --size 15 --plies 4 --count 100 > open15.txt
"""
import argparse
import random
import subprocess
import sys


def canonical(moves, size):
    forms = []
    for t in range(8):
        out = []
        for x, y in moves:
            if t & 1:
                x = size - 1 - x
            if t & 2:
                y = size - 1 - y
            if t & 4:
                x, y = y, x
            out.append((x, y))
        # Stones of one colour are a set; the order of play inside a
        # colour does not change the position.
        forms.append((tuple(sorted(out[0::2])), tuple(sorted(out[1::2]))))
    return min(forms)


class Tengen:
    def __init__(self, path, size, nodes):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.size = size
        self.send(f"START {size}")
        self.expect_ok()
        self.send(f"INFO max_node {nodes}")
        self.send("INFO timeout_turn 600000")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def expect_ok(self):
        line = self.p.stdout.readline().strip()
        if line != "OK":
            sys.exit(f"make_openings: tengen answered {line!r}")

    def evaluate(self, moves):
        """Score for the side to move (tengen's DEBUG line)."""
        self.send("RESTART")
        self.expect_ok()
        self.send("BOARD")
        to_move = len(moves) % 2
        for i, (x, y) in enumerate(moves):
            self.send(f"{x},{y},{1 if i % 2 == to_move else 2}")
        self.send("DONE")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("make_openings: tengen exited")
            parts = line.split()
            if parts[:1] == ["DEBUG"] and "eval" in parts:
                score = int(parts[parts.index("eval") + 1])
            elif parts and parts[0] not in ("MESSAGE", "DEBUG"):
                return score

    def close(self):
        self.send("END")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tengen", required=True)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--radius", type=int, default=3)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--max-eval", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    engine = Tengen(a.tengen, a.size, a.nodes)
    c = a.size // 2
    seen = set()
    found = 0
    tried = 0
    while found < a.count and tried < a.count * 50:
        tried += 1
        moves = []
        while len(moves) < a.plies:
            p = (c + rng.randint(-a.radius, a.radius), c + rng.randint(-a.radius, a.radius))
            if p not in moves:
                moves.append(p)
        key = canonical(moves, a.size)
        if key in seen:
            continue
        seen.add(key)
        score = engine.evaluate(moves)
        if score is None or abs(score) > a.max_eval:
            continue
        print(" ".join(f"{x},{y}" for x, y in moves), flush=True)
        found += 1
    engine.close()
    print(f"make_openings: {found} openings from {tried} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
