#!/usr/bin/env python3
"""Training data for Go's learned move patterns (`crates/go/src/gammas.rs`).

Two subcommands:

selfplay: GNU Go plays itself (one process plays both colours) from a few
random opening moves, and each finished game is appended to an SGF file,
one game per line, so a run can be stopped and resumed at any time:

    nice -n 19 python3 scripts/go_pattern_data.py selfplay --size 9 \\
        --level 8 --games 200 --out /work/go-data/gnugo9.sgf [--seed 1]

The random opening moves (`--opening 2..6` plies by default on 9x9, 4..10
on 19x19) are recorded in the root's `GC[opening N]`; the fitter does not
learn from them.

export: turns SGF files (plain or .gz, one or many games each) into the
fitter's line format, keeping as training targets only the moves of the
players whose PB/PW name contains `--player` (every move when empty):

    python3 scripts/go_pattern_data.py export --player gnugo \\
        --out /work/go-data/train9.txt /work/go-data/gnugo9.sgf docs/matches/go9-*.sgf.gz

One line per game: `size komi learn skip move...` with `learn` one of B,
W, BW (whose moves are targets), `skip` the number of opening moves that
are not, and moves as GTP vertices (`pass` for a pass). Games with setup
stones (handicap) are left out. Opening moves (the arena's, marked
`C[book]`, or the self-play's `GC[opening N]`) are not targets.
"""
import argparse
import gzip
import os
import random
import re
import subprocess
import sys
import time

# The GTP client and the vertex letters of the reading comparison script.
from go_reading_diff import COLUMNS, Gtp  # noqa: E402  (scripts/ is on sys.path)

SGF_COLUMNS = "abcdefghijklmnopqrstuvwxy"


def gtp_to_sgf(v, size):
    """GTP vertex to SGF point ('' for pass)."""
    if v.lower() == "pass":
        return ""
    x = COLUMNS.index(v[0].upper())
    y = int(v[1:]) - 1
    return SGF_COLUMNS[x] + SGF_COLUMNS[size - 1 - y]


def sgf_to_gtp(s, size):
    if s == "" or (size <= 19 and s == "tt"):
        return "pass"
    x = SGF_COLUMNS.index(s[0])
    y = size - 1 - SGF_COLUMNS.index(s[1])
    return f"{COLUMNS[x]}{y + 1}"


def play_one(gtp, rng, size, komi, opening, max_moves):
    """One self-play game: (moves as (colour, vertex), opening plies, result)."""
    gtp.cmd(f"boardsize {size}")
    gtp.cmd("clear_board")
    gtp.cmd(f"komi {komi}")
    gtp.cmd(f"set_random_seed {rng.randrange(1 << 30)}")
    moves = []
    colour = "B"
    # Random opening plies, away from the first line.
    want = rng.randint(*opening)
    tries = 0
    while len(moves) < want and tries < 200:
        tries += 1
        lo = 1 if size >= 9 else 0
        v = f"{COLUMNS[rng.randrange(lo, size - lo)]}{rng.randrange(lo, size - lo) + 1}"
        ok, _ = gtp.cmd(f"play {colour} {v}")
        if ok:
            moves.append((colour, v))
            colour = "W" if colour == "B" else "B"
    skip = len(moves)
    passes = 0
    result = "?"
    while len(moves) < max_moves:
        ok, v = gtp.cmd(f"genmove {colour}")
        if not ok:
            break
        if v.lower() == "resign":
            result = ("W" if colour == "B" else "B") + "+R"
            break
        moves.append((colour, v))
        passes = passes + 1 if v.lower() == "pass" else 0
        if passes >= 2:
            ok, s = gtp.cmd("final_score")
            result = s if ok else "?"
            break
        colour = "W" if colour == "B" else "B"
    return moves, skip, result


def selfplay(a):
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    done = 0
    if os.path.exists(a.out):
        with open(a.out) as f:
            done = sum(1 for line in f if line.startswith("(;"))
    rng = random.Random(a.seed * 1_000_003 + done)
    opening = tuple(a.opening) if a.opening else ((2, 6) if a.size <= 9 else (4, 10))
    argv = [a.gnugo, "--mode", "gtp", "--level", str(a.level), "--chinese-rules"]
    gtp = Gtp(argv)
    name = f"gnugo-3.8-l{a.level}"
    try:
        while done < a.games:
            t = time.time()
            moves, skip, result = play_one(gtp, rng, a.size, a.komi, opening, a.size * a.size * 3)
            body = "".join(f";{c}[{gtp_to_sgf(v, a.size)}]" for c, v in moves)
            line = (f"(;GM[1]FF[4]SZ[{a.size}]KM[{a.komi}]RU[Chinese]PB[{name}]PW[{name}]"
                    f"RE[{result}]GC[opening {skip}]{body})\n")
            with open(a.out, "a") as f:
                f.write(line)
            done += 1
            print(f"game {done}: {len(moves)} moves, {result}, {time.time() - t:.0f} s",
                  file=sys.stderr, flush=True)
    finally:
        gtp.close()


def games_in(path):
    """Each game's SGF text in a file holding one or many."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        text = f.read()
    # Game trees start at "(;" at the top level; the records this project
    # writes have no variations, so a split is enough.
    return [("(;" + g).strip() for g in text.split("(;")[1:]]


def prop(text, key):
    m = re.search(r"(?<![A-Z])" + key + r"\[([^\]]*)\]", text)
    return m.group(1) if m else None


def export(a):
    out = open(a.out, "w")
    kept = 0
    for path in a.files:
        for g in games_in(path):
            if prop(g, "AB") is not None or prop(g, "AW") is not None or prop(g, "HA") not in (None, "0"):
                continue
            size = int(prop(g, "SZ") or 19)
            komi = float(prop(g, "KM") or 0)
            learn = ""
            for c in "BW":
                who = prop(g, "P" + c) or ""
                if a.player.lower() in who.lower():
                    learn += c
            if not learn:
                continue
            gc = prop(g, "GC") or ""
            m = re.search(r"opening (\d+)", gc)
            skip = int(m.group(1)) if m else 0
            nodes = re.findall(r";\s*([BW])\[([a-z]{0,2})\]((?:\s*[A-Z]+\[[^\]]*\])*)", g)
            moves = [sgf_to_gtp(v, size) for _, v, _ in nodes]
            # The arena marks its opening moves C[book].
            book = 0
            while book < len(nodes) and "C[book]" in nodes[book][2]:
                book += 1
            skip = max(skip, book)
            if len(moves) <= skip:
                continue
            out.write(f"{size} {komi} {learn} {skip} {' '.join(moves)}\n")
            kept += 1
    out.close()
    print(f"{kept} games written to {a.out}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("selfplay")
    s.add_argument("--size", type=int, default=9)
    s.add_argument("--komi", type=float, default=7.0)
    s.add_argument("--level", type=int, default=8)
    s.add_argument("--games", type=int, default=100, help="total games wanted in --out")
    s.add_argument("--opening", type=int, nargs=2, help="random plies, min max")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--gnugo", default="/usr/games/gnugo")
    s.add_argument("--out", required=True)
    e = sub.add_parser("export")
    e.add_argument("--player", default="gnugo")
    e.add_argument("--out", required=True)
    e.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.cmd == "selfplay":
        selfplay(a)
    else:
        export(a)


if __name__ == "__main__":
    main()
