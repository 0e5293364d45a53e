#!/usr/bin/env python3
"""Replays the first PLIES moves of game GAME (1-based) of an SGF record
(plain or .gz, games one after another) into tengen over GTP, then sends
the extra GTP lines and prints every answer that is not empty, e.g. the
session-39 check that tengen no longer passes where the 19x19 build
`03e64f556` first passed:

    python3 scripts/go_replay.py docs/matches/go19-gnugo-03e64f55.sgf.gz 1 29 \\
        "tengen-playouts 8000" "reg_genmove w" "reg_genmove w" "reg_genmove w"

TENGEN names the binary (target/release/tengen).
"""
import gzip
import os
import re
import subprocess
import sys

from go_pattern_data import sgf_to_gtp  # scripts/ is on sys.path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main(record, game, plies, extra):
    opener = gzip.open if record.endswith(".gz") else open
    with opener(record, "rt") as f:
        games = re.split(r"\n(?=\(;)", f.read().strip())
    text = games[game - 1]
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    komi = re.search(r"KM\[([-\d.]+)\]", text)
    moves = re.findall(r";([BW])\[([a-z]*)\]", text)[:plies]
    lines = [f"boardsize {size}", "clear_board", f"komi {komi.group(1) if komi else 7.5}",
             "tengen-threads 1"]
    lines += [f"play {c} {sgf_to_gtp(m, size)}" for c, m in moves]
    binary = os.environ.get("TENGEN", os.path.join(ROOT, "target/release/tengen"))
    out = subprocess.run([binary, "--protocol", "gtp"], text=True, capture_output=True,
                         input="\n".join(lines + list(extra) + ["quit"]) + "\n").stdout
    answers = [a.strip() for a in out.split("\n\n") if a.strip() not in ("", "=")]
    print("\n".join(answers))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
