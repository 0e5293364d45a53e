#!/usr/bin/env python3
"""Thinking time per move from a tengen-arena SGF record (plain or .gz).

    python3 scripts/sgf_time_use.py MATCH.sgf[.gz] [MARGIN]

The arena writes each move's time as its comment (`C[0.123s]`; `book`
for opening moves). For each engine this prints its moves, the mean and
largest time, and, for Canadian overtime (`OT[0+cN/P]`: N stones in P
seconds, the Go soak's control), the largest sum over one period (the
engine's N moves since its clock was last reset) and how many periods
went past P, with the games they were in (past P + MARGIN seconds when
MARGIN, the arena's `timemargin` in seconds, is given: those lost on
time).
"""
import gzip
import re
import sys

GAME = re.compile(r"\(;FF")
PLAYER = re.compile(r"P([BW])\[([^\]]*)\]")
MOVE = re.compile(r";([BW])\[[a-z]*\]C\[([\d.]+)s\]")
CANADIAN = re.compile(r"OT\[[\d.]+\+c(\d+)/([\d.]+)\]")


def main(path, margin=0.0):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read()
    starts = [m.start() for m in GAME.finditer(text)]
    stats = {}
    for n, (a, b) in enumerate(zip(starts, starts[1:] + [len(text)]), start=1):
        game = text[a:b]
        names = dict(PLAYER.findall(game))
        canadian = CANADIAN.search(game)
        period = {}
        for colour, secs in MOVE.findall(game):
            name = names.get(colour, colour)
            s = stats.setdefault(name, {"moves": 0, "sum": 0.0, "max": 0.0,
                                        "period_max": 0.0, "over": []})
            t = float(secs)
            s["moves"] += 1
            s["sum"] += t
            s["max"] = max(s["max"], t)
            if canadian:
                stones, limit = int(canadian.group(1)), float(canadian.group(2))
                used, count = period.get(name, (0.0, 0))
                used, count = used + t, count + 1
                if count == stones:
                    s["period_max"] = max(s["period_max"], used)
                    if used > limit + margin:
                        s["over"].append((n, round(used, 3)))
                    used, count = 0.0, 0
                period[name] = (used, count)
    for name, s in stats.items():
        line = (f"{name}: {s['moves']} moves, mean {s['sum'] / max(s['moves'], 1):.3f} s, "
                f"largest {s['max']:.3f} s")
        if s["period_max"]:
            line += (f"; largest period {s['period_max']:.3f} s, "
                     f"{len(s['over'])} periods over the limit {s['over'][:20]}")
        print(line)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
