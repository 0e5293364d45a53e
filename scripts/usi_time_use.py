#!/usr/bin/env python3
"""Thinking time per move and final scores from a tengen-arena USI transcript.

    python3 scripts/usi_time_use.py TRANSCRIPT [ENGINE_PREFIX]

TRANSCRIPT is what `tengen-arena ... -debug FILE` wrote. For every engine
(named by the part of its arena name before the first '-') it prints how
many moves it played, its mean time from `go` to `bestmove`, and the mean
over each game's first 20 moves. For ENGINE_PREFIX (default "tengen") it
also sorts its games by result (`gameover win|lose|draw`) and by the last
score it reported in them: ahead (>= +300 cp), even, behind (<= -300 cp),
or a mate score.
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r"\s*(\d+) (\S+) ([<>]) (.*)")
SCORE = re.compile(r"score (cp|mate) (-?\d+)")


def bucket(score):
    if score is None:
        return "no score"
    kind, v = score
    if kind == "mate":
        return "mate for" if v > 0 else "mate against"
    if v >= 300:
        return "ahead >= 300"
    if v <= -300:
        return "behind <= -300"
    return "even"


def main(path, who):
    used = collections.defaultdict(list)
    early = collections.defaultdict(list)
    go_at, last, moves = {}, {}, collections.Counter()
    ends = []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            t, inst, way, msg = m.groups()
            t, eng = int(t), inst.split("-")[0]
            if way == ">" and msg.startswith("usinewgame"):
                moves[inst] = 0
                last.pop(inst, None)
            elif way == ">" and msg.startswith("go"):
                go_at[inst] = t
            elif way == "<" and msg.startswith("info") and " score " in msg:
                s = SCORE.search(msg)
                if s:
                    last[inst] = (s.group(1), int(s.group(2)))
            elif way == "<" and msg.startswith("bestmove") and inst in go_at:
                u = t - go_at.pop(inst)
                used[eng].append(u)
                moves[inst] += 1
                if moves[inst] <= 20:
                    early[eng].append(u)
            elif way == ">" and msg.startswith("gameover") and eng == who:
                ends.append((msg.split()[1], last.get(inst)))
    for eng, u in sorted(used.items()):
        print(f"{eng}: {len(u)} moves, mean {statistics.mean(u):.0f} ms, "
              f"first 20 moves of each game {statistics.mean(early[eng]):.0f} ms")
    for result in ("win", "lose", "draw"):
        games = [s for r, s in ends if r == result]
        if games:
            counts = collections.Counter(bucket(s) for s in games)
            print(f"{who} {result}: {len(games)} games, last score: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "tengen")
