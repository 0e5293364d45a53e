#!/usr/bin/env python3
"""Tsume solving at the same wall-clock budget: tengen's df-pn (the
`tsume` example of crates/shogi) beside cshogi's DfPn.

Every problem gets the same budget in both. tengen takes a time limit
(`--ms`). cshogi's DfPn has no time limit and holds the GIL while it
searches, so it cannot be stopped by a timer: it gets a node cap equal to
the budget times its own node rate, measured first on the same problems
(a 200,000-node run of each), and a solve counts only if it also finished
within the budget. tengen's time includes shortening the mate it found (see
`--shorten` of the example; `--tengen-args "--shorten 0"` gives the first
mate line found, as cshogi does). Every mate line of both is replayed with cshogi (legal
moves, every attacker move a check, mate at the end).

  python3 scripts/tsume_bench.py --bin /work/target-dfpn/release/examples/tsume \\
      --budget 1 10 crates/shogi/tests/tsume.txt crates/shogi/tests/tsume_hard.txt

The solvers take turns problem by problem, so a loaded machine slows both
alike. tengen's example runs as one process per binary and budget that is
sent the problems one at a time (`--stdin`, after solving two small
positions of its own, `--warm`), as cshogi runs in this process: both are
timed warm, as an engine answers one `go mate` after another, not through
a fresh process's first pass through its code and memory (a mate in one
took 60-70 us that way against 10-20 us warm). Several --bin binaries are
compared in the same run. The summary gives, per solver, the mates found
within the budget, those among mates labelled --long plies or more, and
the median time to a mate over all mate problems (an unsolved problem
counts as never solved), in milliseconds to the microsecond. With
--repeat N a problem that every solver solves in under 50 ms is solved up
to N times by each, interleaved, and each keeps its quickest run: single
runs of tens of microseconds on a shared machine vary by 2x and more.
"""
import argparse
import statistics
import subprocess
import sys
import time

import cshogi


def problems(path):
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        sfen, _, label = line.partition(" ;")
        out.append((sfen, label))
    return out


def is_mate_line(sfen, usi_moves):
    b = cshogi.Board(sfen)
    for i, u in enumerate(usi_moves):
        m = b.move_from_usi(u)
        if not m or not b.is_legal(m):
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return len(usi_moves) % 2 == 1 and b.is_game_over()


_SOLVERS = {}


def run_tengen_one(binary, sfen, budget, extra):
    """One problem, sent to a tengen process kept open for this binary and
    budget (`--stdin`), so that the two solvers alternate problem by
    problem on a loaded machine and both solve warm, as an engine answers
    `go mate` after `go mate`."""
    key = (binary, budget, tuple(extra))
    p = _SOLVERS.get(key)
    if p is None:
        p = subprocess.Popen([binary, "--stdin", "--warm", "--ms", str(int(budget * 1000))] + extra,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        _SOLVERS[key] = p
    p.stdin.write(f"{sfen} ;?\n")
    p.stdin.flush()
    res = parse_tengen(p.stdout.readline())
    return res.get(sfen, ("skip", 0.0, 0))


def parse_tengen(out):
    res = {}
    for line in out.splitlines():
        head, sfen, pv = line.split(";")
        f = head.split()
        got, secs = f[1], float(f[4].rstrip("s"))
        moves = pv.split()
        ok = bool(moves) and is_mate_line(sfen, moves)
        if moves and not ok:
            print("tengen: BAD LINE", sfen, pv)
        res[sfen] = (len(moves) if ok else got, secs, int(f[2]))
    return res


def run_cshogi(sfen, nodes):
    b = cshogi.Board(sfen)
    d = cshogi.DfPn()
    d.set_max_search_node(nodes)
    t = time.perf_counter()
    found = d.search(b)
    pv = [cshogi.move_to_usi(m) for m in d.get_pv(b)] if found else []
    secs = time.perf_counter() - t
    if found and not is_mate_line(sfen, pv):
        print("cshogi: BAD LINE", sfen, pv)
        found = False
    return (len(pv) if found else "no"), secs, d.searched_node


# Problems solved quicker than this (by every solver) are repeated under
# --repeat: at tens of microseconds a run's time is mostly the machine's
# noise (another process taking the core, a cache flushed).
REPEAT_BELOW = 0.05


def median_time(times, n):
    """Median over `n` problems of the time to a mate, where `times`
    holds the solved ones (the unsolved count as never)."""
    if n == 0:
        return "-"
    t = sorted(times) + [float("inf")] * (n - len(times))
    m = statistics.median(t)
    return "never" if m == float("inf") else f"{m * 1000:.3f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, nargs="+",
                    help="tengen's tsume example binaries (several: compared in the same run)")
    ap.add_argument("--budget", type=float, nargs="+", default=[1.0, 10.0])
    ap.add_argument("--calib-nodes", type=int, default=200_000)
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--long", type=int, default=19,
                    help="label (plies) from which a mate counts as long in the summary")
    ap.add_argument("--tengen-args", default="",
                    help="more options for the tsume example, e.g. '--shorten 0'")
    ap.add_argument("--repeat", type=int, default=1,
                    help="solve each problem up to this many times per solver (interleaved) and keep "
                         f"each solver's quickest run; only problems whose runs all took under "
                         f"{REPEAT_BELOW * 1000:g} ms are repeated")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    sets = {p: problems(p) for p in a.files}
    names = [f"tengen{i}" if len(a.bin) > 1 else "tengen" for i in range(len(a.bin))]
    for n, b in zip(names, a.bin):
        if len(a.bin) > 1:
            print(f"{n}: {b}")

    # cshogi's node rate on these problems.
    nodes = secs = 0.0
    for ps in sets.values():
        for sfen, _ in ps:
            _, s, n = run_cshogi(sfen, a.calib_nodes)
            nodes += n
            secs += s
    rate = nodes / max(secs, 1e-9)
    print(f"cshogi DfPn node rate on these problems: {rate:,.0f} nodes/s "
          f"({nodes:,.0f} nodes in {secs:.1f} s, cap {a.calib_nodes:,} each)")

    extra = a.tengen_args.split()
    for budget in a.budget:
        cap = int(rate * budget)
        for path, ps in sets.items():
            # Problem by problem, the solvers one after the other, so that
            # the machine's load falls on both alike.
            rows = []
            for sfen, label in ps:
                ts = [run_tengen_one(b, sfen, budget, extra) for b in a.bin]
                c = run_cshogi(sfen, cap)
                # Repeats (interleaved, each solver keeping its quickest
                # run) only where a run is short enough for the machine's
                # noise to matter.
                for _ in range(a.repeat - 1):
                    if max([t[1] for t in ts] + [c[1]]) > REPEAT_BELOW:
                        break
                    ts = [min(t, run_tengen_one(b, sfen, budget, extra), key=lambda x: x[1])
                          for t, b in zip(ts, a.bin)]
                    c = min(c, run_cshogi(sfen, cap), key=lambda x: x[1])
                rows.append((sfen, label, ts, c))
            mates = [r for r in rows if r[1] != "nomate"]
            longs = [r for r in mates if r[1].isdigit() and int(r[1]) >= a.long]
            print(f"\n{path}: {len(mates)} mate problems ({len(longs)} labelled {a.long}+ plies), "
                  f"{len(ps) - len(mates)} no-mate; budget {budget:g} s (cshogi node cap {cap:,})")

            def solved(res):
                return isinstance(res[0], int) and res[1] <= budget * 1.05

            cols = [(n, (lambda r, i=i: r[2][i])) for i, n in enumerate(names)]
            cols.append(("cshogi", lambda r: r[3]))
            for n, get in cols:
                ok = [r for r in rows if solved(get(r))]
                ok_long = [r for r in longs if solved(get(r))]
                nomate = sum(1 for r in rows if get(r)[0] == "nomate")
                plies = sum(get(r)[0] for r in ok)
                print(f"  {n:>8}: solved {len(ok):>3}/{len(mates)}, long {len(ok_long)}/{len(longs)}, "
                      f"median time to mate {median_time([get(r)[1] for r in ok], len(mates))} "
                      f"(long: {median_time([get(r)[1] for r in ok_long], len(longs))}), "
                      f"time over all {sum(get(r)[1] for r in rows):.2f} s, "
                      f"mate plies {plies}" + (f", proved {nomate} no-mate" if n != "cshogi" else ""))
            for n, get in cols[:-1]:
                both = [r for r in rows if solved(get(r)) and solved(r[3])]
                if both:
                    tt = sum(get(r)[1] for r in both)
                    ct = sum(r[3][1] for r in both)
                    print(f"  solved by {n} and cshogi: {len(both)}; time {tt:.2f} s / {ct:.2f} s "
                          f"(ratio {tt / max(ct, 1e-9):.2f}); plies {sum(get(r)[0] for r in both)} / "
                          f"{sum(r[3][0] for r in both)}")
            if a.detail:
                for sfen, label, ts, c in rows:
                    tcol = "  ".join(f"{str(t[0]):>7} {t[1]:7.3f}s {t[2]:>9}n" for t in ts)
                    print(f"    {label:>7}  tengen {tcol}  "
                          f"cshogi {str(c[0]):>7} {c[1]:7.3f}s {c[2]:>9}n  {sfen}")
            sys.stdout.flush()
    for p in _SOLVERS.values():
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    main()
