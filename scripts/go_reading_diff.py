#!/usr/bin/env python3
"""Differential check of tengen's tactical reader against GNU Go 3.8.

Random positions (random legal moves on an NxN board, the same `play`
sequence sent to both engines); for every string with at most three
liberties both are asked `attack`, `defend` and (two liberties)
`ladder_attack`; the result codes are compared, and every answer's move is
checked by the other engine (`does_attack` / `does_defend`).

    python3 scripts/go_reading_diff.py [--positions 40] [--size 9] [--seed 1]
        [--tengen target/release/tengen] [--gnugo /usr/games/gnugo] [-v]
"""
import argparse
import random
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        head = self.p.stdout.readline()
        while head.strip() == "":
            head = self.p.stdout.readline()
            if head == "":
                raise EOFError(line)
        body = [head.rstrip("\n")]
        while True:
            nxt = self.p.stdout.readline()
            if nxt in ("\n", ""):
                break
            body.append(nxt.rstrip("\n"))
        text = "\n".join(body)
        return text[0] == "=", text[1:].strip()

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def vertex(x, y):
    return f"{COLUMNS[x]}{y + 1}"


def random_position(rng, size, moves):
    """A list of (colour, vertex) that GNU Go accepted."""
    return [(rng.choice("bw") if rng.random() < 0.1 else "bw"[i % 2],
             vertex(rng.randrange(size), rng.randrange(size))) for i in range(moves)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tengen", default="target/release/tengen")
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    stats = run(args.positions, args.size, args.seed, args.tengen, args.gnugo, args.v)
    for k, (agree, total) in stats.items():
        if k.startswith("_"):
            continue
        print(f"{k:14s} {agree:5d}/{total:5d} agree ({100.0 * agree / max(total, 1):.1f}%)")
    for line in stats.get("_disagreements", ([], 0))[0][:40]:
        print("  ", line)
    return 0


def run(positions, size, seed, tengen, gnugo, verbose=False):
    rng = random.Random(seed)
    t = Gtp([tengen, "--protocol", "gtp"])
    g = Gtp([gnugo, "--mode", "gtp", "--chinese-rules"])
    stats = {"attack": [0, 0], "defend": [0, 0], "ladder_attack": [0, 0],
             "attack_move": [0, 0], "defend_move": [0, 0]}
    dis = []
    for n in range(positions):
        for e in (t, g):
            e.cmd(f"boardsize {size}")
            e.cmd("clear_board")
        played = []
        for c, v in random_position(rng, size, rng.randrange(size * size // 3, size * size * 2 // 3)):
            ok, _ = g.cmd(f"play {c} {v}")
            if ok:
                okt, _ = t.cmd(f"play {c} {v}")
                assert okt, f"tengen refused play {c} {v} after {played}"
                played.append(f"{c} {v}")
        seen = set()
        _, stones = g.cmd("worm_stones")
        for line in stones.split("\n"):
            worm = line.split()
            if not worm or worm[0] in seen:
                continue
            seen.update(worm)
            s = worm[0]
            _, libs = g.cmd(f"countlib {s}")
            if int(libs) > 3:
                continue
            where = f"pos {n} [{' '.join(played)}] {s}"
            for name in ("attack", "defend") + (("ladder_attack",) if libs == "2" else ()):
                okg, rg = g.cmd(f"{name} {s}")
                okt, rt = t.cmd(f"{name} {s}")
                stats[name][1] += 1
                cg, ct = rg.split()[0], rt.split()[0]
                if cg == ct:
                    stats[name][0] += 1
                else:
                    dis.append(f"{name} {s}: gnugo {rg!r} tengen {rt!r}; {where}")
                # Our move, judged by GNU Go (when both say the side succeeds).
                if name != "ladder_attack" and cg != "0" and ct != "0" and len(rt.split()) > 1:
                    mv = rt.split()[1]
                    if mv == "PASS":
                        continue
                    check = "does_attack" if name == "attack" else "does_defend"
                    # GNU Go's does_* answer 0 for a string that is dead (or
                    # safe) anyway: judge only where its own move passes.
                    own = rg.split()[1] if len(rg.split()) > 1 else "PASS"
                    if own == "PASS" or g.cmd(f"{check} {own} {s}")[1] == "0":
                        continue
                    _, rc = g.cmd(f"{check} {mv} {s}")
                    stats[name + "_move"][1] += 1
                    if rc != "0":
                        stats[name + "_move"][0] += 1
                    else:
                        dis.append(f"{check} {mv} {s}: gnugo says 0 (tengen {name} {rt!r}); {where}")
        if verbose:
            print(n, {k: v for k, v in stats.items()}, file=sys.stderr)
    t.close()
    g.close()
    out = {k: tuple(v) for k, v in stats.items()}
    out["_disagreements"] = (dis, 0)
    return out


if __name__ == "__main__":
    sys.exit(main())
