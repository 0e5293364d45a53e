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
"""
import argparse
import subprocess
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


def run_tengen(binary, path, budget, extra):
    out = subprocess.run([binary, "--file", path, "--ms", str(int(budget * 1000))] + extra,
                         capture_output=True, text=True, check=True).stdout
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="tengen's tsume example binary")
    ap.add_argument("--budget", type=float, nargs="+", default=[1.0, 10.0])
    ap.add_argument("--calib-nodes", type=int, default=200_000)
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--tengen-args", default="",
                    help="more options for the tsume example, e.g. '--shorten 0'")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    sets = {p: problems(p) for p in a.files}

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

    for budget in a.budget:
        cap = int(rate * budget)
        for path, ps in sets.items():
            mates = [p for p in ps if p[1] != "nomate"]
            tg = run_tengen(a.bin, path, budget, a.tengen_args.split())
            rows = []
            for sfen, label in ps:
                rows.append((sfen, label, tg.get(sfen, ("skip", 0.0, 0)),
                             run_cshogi(sfen, cap)))
            t_solved = [r for r in rows if isinstance(r[2][0], int) and r[2][1] <= budget * 1.05]
            c_solved = [r for r in rows if isinstance(r[3][0], int) and r[3][1] <= budget]
            both = [r for r in rows if r in t_solved and r in c_solved]
            t_nomate = sum(1 for r in rows if r[2][0] == "nomate")
            print(f"\n{path}: {len(mates)} mate problems, {len(ps) - len(mates)} no-mate; "
                  f"budget {budget:g} s (cshogi node cap {cap:,})")
            print(f"  solved (mate found within budget): tengen {len(t_solved)}, cshogi {len(c_solved)}; "
                  f"tengen proved {t_nomate} no-mate")
            print(f"  time over all problems: tengen {sum(r[2][1] for r in rows):.2f} s, "
                  f"cshogi {sum(r[3][1] for r in rows):.2f} s")
            if both:
                tl = sum(r[2][0] for r in both)
                cl = sum(r[3][0] for r in both)
                shorter = sum(1 for r in both if r[2][0] < r[3][0])
                longer = sum(1 for r in both if r[2][0] > r[3][0])
                print(f"  solved by both: {len(both)}; time on them tengen {sum(r[2][1] for r in both):.2f} s, "
                      f"cshogi {sum(r[3][1] for r in both):.2f} s; total mate plies tengen {tl}, cshogi {cl} "
                      f"(tengen shorter on {shorter}, longer on {longer})")
            if a.detail:
                for sfen, label, t, c in rows:
                    print(f"    {label:>7}  tengen {str(t[0]):>7} {t[1]:7.3f}s  "
                          f"cshogi {str(c[0]):>7} {c[1]:7.3f}s {c[2]:>9}n  {sfen}")


if __name__ == "__main__":
    main()
