#!/usr/bin/env python3
"""Seconds a Gomocup engine takes for START, then its first and second
moves at `INFO timeout_turn MS` (session 47's first-move time loss).

    python3 first_move.py ENGINE [MS]
"""
import subprocess
import sys
import time


def answer(p):
    while True:
        line = p.stdout.readline().strip()
        if not line.startswith(("DEBUG", "MESSAGE")):
            return line


def main(engine, ms):
    p = subprocess.Popen([engine, "--protocol", "gomocup"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    t = time.time()
    p.stdin.write("START 15\n")
    print("START", answer(p), f"{time.time() - t:.3f} s")
    p.stdin.write(f"INFO timeout_turn {ms}\nINFO rule 0\n")
    for i, cmd in enumerate(["BOARD\n7,9,1\n8,8,2\n10,5,1\n6,6,2\nDONE\n", "TURN 9,9\n"]):
        t = time.time()
        p.stdin.write(cmd)
        print(f"move {i + 1}", answer(p), f"{time.time() - t:.3f} s")
    p.stdin.write("END\n")
    p.wait()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 250)
