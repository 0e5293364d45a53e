#!/usr/bin/env python3
"""Thinking time and depth per move from a tengen-arena PGN (plain or .gz).

    python3 scripts/pgn_time_use.py MATCH.pgn[.gz]

The arena writes `{score/depth seconds}` after every move. For each
engine this prints its moves, mean time and mean depth, then the mean
time over each stretch of ten moves (moves 81 on together), which is
where two time managers differ, and, for a Fischer control in the
`TimeControl` header (`base+increment`), the median and mean clock each
engine had left at the end of its games (time it never used).
`scripts/usi_time_use.py` does the same from a USI transcript.
"""
import gzip
import re
import statistics
import sys

import chess.pgn

COMMENT = re.compile(r"/(\d+) ([\d.]+)s")
FISCHER = re.compile(r"([\d.]+)\+([\d.]+)")
STRETCHES = 9


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    times, depths, by_stretch, left = {}, {}, {}, {}
    with opener(path, "rt") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            names = (game.headers["White"], game.headers["Black"])
            used = {names[0]: [0.0, 0], names[1]: [0.0, 0]}
            for ply, node in enumerate(game.mainline()):
                m = COMMENT.search(node.comment)
                if not m:
                    continue
                who = names[ply % 2]
                t, d = float(m.group(2)), int(m.group(1))
                times.setdefault(who, []).append(t)
                depths.setdefault(who, []).append(d)
                stretch = min(ply // 2 // 10, STRETCHES - 1)
                by_stretch.setdefault((who, stretch), []).append(t)
                used[who][0] += t
                used[who][1] += 1
            control = FISCHER.fullmatch(game.headers.get("TimeControl", ""))
            if control:
                base, inc = float(control.group(1)), float(control.group(2))
                for who, (spent, moves) in used.items():
                    left.setdefault(who, []).append(base + inc * moves - spent)
    for who in times:
        print(f"{who}: {len(times[who])} moves, mean {statistics.mean(times[who]):.3f} s, "
              f"mean depth {statistics.mean(depths[who]):.1f}")
    for s in range(STRETCHES):
        label = f"moves {s * 10 + 1}-{s * 10 + 10}" if s < STRETCHES - 1 else f"moves {s * 10 + 1}-"
        cells = []
        for who in times:
            ts = by_stretch.get((who, s), [])
            if ts:
                cells.append(f"{who} {statistics.mean(ts):.3f} s ({len(ts)})")
        print(f"{label:12} " + "  ".join(cells))
    for who, ls in left.items():
        print(f"{who}: clock left at the end of a game, median {statistics.median(ls):.2f} s, "
              f"mean {statistics.mean(ls):.2f} s, least {min(ls):.2f} s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
