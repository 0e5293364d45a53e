#!/usr/bin/env python3
"""Game-by-game comparison of matches played on the same openings.

    python3 scripts/match_compare.py NEW.json NEW_NAME [OLD.json OLD_NAME]...

Each file is a `tengen-arena -jsonout` summary of a match with the same
`-openings`, `-srand`, `-games` and `-rounds`, so that game N has the same
opening and colours in every run; NAME is tengen's engine name in that run.
(W-D-L, colours, pentanomial and faults of each run are in the arena's own
log and JSON.) For every OLD run this prints its score on the games both
played, how many games both runs won, how many only NEW won and only OLD
won, and a two-sided sign test on those last two counts.
"""
import json
import sys
from math import comb


def scores(path, name):
    """Game number -> tengen's score (1, 0.5, 0) in one run."""
    out = {}
    games = json.load(open(path))["games"]
    names = {g["first"] for g in games} | {g["second"] for g in games}
    if games and name not in names:
        sys.exit(f"{path}: no engine named {name!r} (its engines: {', '.join(sorted(names))})")
    for g in games:
        if g["result"] == "1/2-1/2":
            out[g["game"]] = 0.5
        else:
            out[g["game"]] = 1.0 if (g["result"] == "1-0") == (g["first"] == name) else 0.0
    return out


def sign_test(a, b):
    """Two-sided p of a split a:b under a fair coin."""
    n = a + b
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(comb(n, i) for i in range(min(a, b) + 1)) / 2**n)


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        sys.exit(__doc__)
    new = scores(argv[0], argv[1])
    for path, name in zip(argv[2::2], argv[3::2]):
        old = scores(path, name)
        games = [k for k in new if k in old]
        both = sum(new[k] == 1 and old[k] == 1 for k in games)
        only_new = sum(new[k] == 1 and old[k] < 1 for k in games)
        only_old = sum(new[k] < 1 and old[k] == 1 for k in games)
        print(f"{name}: {len(games)} games in common; scores {sum(new[k] for k in games)} (new) "
              f"and {sum(old[k] for k in games)} (old); won by both {both}, only by new {only_new}, "
              f"only by old {only_old}; sign test p = {sign_test(only_new, only_old):.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
