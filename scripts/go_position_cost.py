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

SIZE=19 in the environment measures 19x19 instead: one `genmove` of
2,000 playouts at moves 30, 60 and 90 of every third of the first 30
games of session 39's 19x19 priors screen (docs/matches/go19-priors-ab.sgf.gz),
komi 7.5.
"""
import gzip
import os
import re
import resource
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SIZE = int(os.environ.get("SIZE", "9"))
if SIZE == 19:
    RECORD = os.path.join(ROOT, "docs/matches/go19-priors-ab.sgf.gz")
    KOMI, PLAYOUTS, GAMES, PLIES = "7.5", 2000, slice(0, 30, 3), (30, 60, 90)
else:
    RECORD = os.path.join(ROOT, "docs/soak/soak-go.sgf.gz")
    KOMI, PLAYOUTS, GAMES, PLIES = "7", 5000, slice(0, 60, 3), (12, 24, 36)
COLUMNS = "ABCDEFGHJKLMNOPQRST"


def vertex(m):
    if m == "":
        return "pass"
    return COLUMNS[ord(m[0]) - 97] + str(SIZE - (ord(m[1]) - 97))


def script(extra):
    text = gzip.open(RECORD, "rt").read()
    games = re.split(r"\n(?=\(;FF)", text)
    lines = [f"boardsize {SIZE}", f"komi {KOMI}", "tengen-threads 1",
             f"tengen-playouts {PLAYOUTS}", *extra]
    for game in games[GAMES]:
        moves = re.findall(r";([BW])\[([a-z]*)\]", game)
        for k in PLIES:
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
