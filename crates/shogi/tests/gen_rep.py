"""Finds tsume problems whose answer needs a sound treatment of repetition
(crates/shogi/tests/tsume_rep.txt), checked with cshogi.

Random set-ups (gen_tsume.py's and gen_long.py's, without dead pieces or
two pawns on a file) are solved by tengen's `tsume` example three ways:
soundly, with `--repetition store-anyway` (a disproof that rests on a
repetition of the path is stored as final: the graph-history interaction
left unhandled) and with `--repetition ignore` (no repetition test, so a
cycle runs on to the ply cap). Kept:

- `rep-mate`: the sound solver mates, the store-anyway one answers no mate
  (a disproof made on one path, through a repetition there, was wrong on
  another). cshogi's DfPn(63, 2M) must prove the mate with a line that
  cshogi replays; the label is cshogi's depth label as in tsume.txt.
- `rep-nomate`: the sound solver proves no mate, the ignoring one cannot
  within its nodes (every attempt can go on checking: perpetual check,
  which loses for the attacker, or a cycle). cshogi's DfPn(63, 2M) must
  end without a mate before its node cap.

Random set-ups rarely need the graph-history treatment to be mated; with
`seeds` (a problem file such as tsume_hard.txt) the candidates are also
seeds' mates changed by one to three of gen_long.py's random changes.

With `pairs` after the seeds file, it looks instead for a rep-mate in
two solves sharing a table: for each seed A, the positions B two and four
plies below it (check, reply) that the sound solver mates but that a
store-anyway solve of A leaves disproven (`<B> ;<label> ;after <A>`).

Run: python3 crates/shogi/tests/gen_rep.py <tsume example> [count per kind] [seconds] [seed] [seeds [pairs]] > out.txt
(the committed file: see its header)
"""
import os
import random
import subprocess
import sys
import tempfile
import time

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_hard import pv_is_mate  # noqa: E402
import gen_long  # noqa: E402
import gen_tsume  # noqa: E402

CSHOGI_NODES = 2_000_000


def run(binary, sfens, *extra):
    """tengen's answer per SFEN: 'nomate', 'timeout' or the mate length."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("".join(f"{s} ;?\n" for s in sfens))
        f.flush()
        out = subprocess.run([binary, "--file", f.name, "--shorten", "0"] + list(extra),
                             capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        head, sfen, _ = line.split(";")
        res[sfen] = head.split()[1]
    return res


def usable(sfen):
    if sfen.count("k") != 1 or not gen_long.sane(gen_long.parse(sfen)[0]):
        return False
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception:
        return False
    return not b.is_check() and not b.is_game_over() and not gen_long.gote_in_check(sfen)


def cshogi_mate_label(sfen):
    b = cshogi.Board(sfen)
    d = cshogi.DfPn(63, CSHOGI_NODES)
    if not d.search(b) or not pv_is_mate(sfen, d.get_pv(b)):
        return None
    for depth in range(1, 64, 2):
        if cshogi.DfPn(depth, CSHOGI_NODES).search(b):
            return depth
    return None


def cshogi_nomate(sfen):
    b = cshogi.Board(sfen)
    d = cshogi.DfPn(63, CSHOGI_NODES)
    return not d.search(b) and d.searched_node < CSHOGI_NODES


def children(sfen, plies):
    """The attacker-to-move positions `plies` (2 or 4) plies below
    `sfen`: a check, then any reply, and so on."""
    out = []

    def walk(b, left):
        if left == 0:
            out.append(b.sfen())
            return
        for m in list(b.legal_moves):
            b.push(m)
            if left % 2 == 1 or b.is_check():
                walk(b, left - 1)
            b.pop()

    walk(cshogi.Board(sfen), plies)
    return sorted(set(out))


def pairs(binary, seeds, want, end):
    """`rep-mate` in two solves: a position B that a solve of A, storing
    disproofs whatever path they rest on, leaves disproven in the table
    (B was met under A and led back to a position of that path), although
    B is mate: the next solve, from B, then answers no mate."""
    got = 0
    for a in seeds:
        if time.time() > end or got >= want:
            break
        bs = [b for b in children(a, 2) + children(a, 4)[:300] if usable(b)]
        if not bs:
            continue
        sound = run(binary, bs, "--nodes", "200000")
        naive = run(binary, bs, "--nodes", "200000", "--after", a, "--repetition", "store-anyway")
        for b in bs:
            if sound.get(b, "").isdigit() and naive.get(b) == "nomate":
                lab = cshogi_mate_label(b)
                if lab is not None:
                    got += 1
                    print(f"{b} ;{lab} ;after {a}", flush=True)
                    print(f"# rep-mate after a solve of {a}", file=sys.stderr, flush=True)
                    break


def main():
    binary = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 600
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 20261126)
    seeds = []
    if len(sys.argv) > 5:
        seeds = [line.split(" ;")[0] for line in open(sys.argv[5])
                 if line.strip() and not line.startswith("#") and "nomate" not in line]
    end = time.time() + seconds
    if len(sys.argv) > 6 and sys.argv[6] == "pairs":
        pairs(binary, seeds, want, end)
        return
    got = {"rep-mate": 0, "rep-nomate": 0}
    tried = 0
    while time.time() < end and min(got.values()) < want:
        batch = []
        while len(batch) < 200:
            if seeds and rng.random() < 0.8:
                s = rng.choice(seeds)
                for _ in range(rng.randint(1, 3)):
                    s = gen_long.mutate(rng, s) or s
            else:
                gen = gen_tsume if rng.random() < 0.5 else gen_long
                s = gen.random_position(rng)
            if usable(s):
                batch.append(s)
        tried += len(batch)
        sound = run(binary, batch, "--nodes", "100000")
        naive = run(binary, batch, "--nodes", "100000", "--repetition", "store-anyway")
        nomates = [s for s in batch if sound.get(s) == "nomate"]
        ignore = run(binary, nomates, "--nodes", "300000", "--repetition", "ignore") if nomates else {}
        for s in batch:
            a = sound.get(s)
            if a and a.isdigit() and naive.get(s) == "nomate" and got["rep-mate"] < want:
                lab = cshogi_mate_label(s)
                if lab is not None:
                    got["rep-mate"] += 1
                    print(f"{s} ;{lab}", flush=True)
                    print(f"# rep-mate: tengen {a} plies, cshogi label {lab}", file=sys.stderr)
            if a == "nomate" and ignore.get(s) == "timeout" and got["rep-nomate"] < want:
                if cshogi_nomate(s):
                    got["rep-nomate"] += 1
                    print(f"{s} ;nomate", flush=True)
                    print("# rep-nomate", file=sys.stderr)
        print(f"# {tried} tried, {got}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
