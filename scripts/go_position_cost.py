#!/usr/bin/env python3
"""CPU cost of a Go setting on fixed positions: one `genmove` of 5,000
playouts, one thread, in each of 60 positions of the Go soak's record
(moves 12, 24 and 36 of every third of its first 60 games), and the user
CPU seconds tengen took. Extra arguments are GTP lines sent first:

    python3 scripts/go_position_cost.py                           # defaults
    python3 scripts/go_position_cost.py "tengen-priors learned"

Unlike scripts/go_playout_cost.sh, which plays one game from the empty
board (so two settings play different games), every setting searches the
same positions here. TENGEN names the binary (target/release/tengen).
"""
import gzip
import os
import re
import resource
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RECORD = os.path.join(ROOT, "docs/soak/soak-go.sgf.gz")
COLUMNS = "ABCDEFGHJ"


def vertex(m):
    if m == "":
        return "pass"
    return COLUMNS[ord(m[0]) - 97] + str(9 - (ord(m[1]) - 97))


def script(extra):
    text = gzip.open(RECORD, "rt").read()
    games = re.split(r"\n(?=\(;FF)", text)
    lines = ["boardsize 9", "komi 7", "tengen-threads 1", "tengen-playouts 5000", *extra]
    for game in games[:60:3]:
        moves = re.findall(r";([BW])\[([a-z]*)\]", game)
        for k in (12, 24, 36):
            if len(moves) <= k:
                continue
            lines.append("clear_board")
            lines += [f"play {c} {vertex(m)}" for c, m in moves[:k]]
            lines.append(f"genmove {moves[k][0].lower()}")
    return "\n".join(lines + ["quit"]) + "\n"


def main(extra):
    binary = os.environ.get("TENGEN", os.path.join(ROOT, "target/release/tengen"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run([binary, "--game", "go"], input=script(extra), text=True,
                         capture_output=True, check=True).stdout
    used = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    failed = [l for l in out.splitlines() if l.startswith("?")]
    if failed:
        sys.exit(f"GTP errors: {failed[:3]}")
    print(f"{used:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
