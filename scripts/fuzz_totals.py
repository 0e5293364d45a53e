#!/usr/bin/env python3
"""Sums fuzz/runs.log per target: runs, seconds fuzzed, CPU seconds, executions, crashes.

Older lines have no `cpu=`; for them the CPU time is unknown and the
table counts it apart (the fuzzer's wall time is an upper bound).

    python3 scripts/fuzz_totals.py            # a markdown table
"""

import re
from collections import defaultdict
from pathlib import Path

LOG = Path(__file__).resolve().parent.parent / "fuzz" / "runs.log"
LINE = re.compile(r"^(\S+) (\S+) (\S+) (\d+)s runs=(\S+) corpus=(\d+) (?:cpu=(\d+)s )?(.*)$")


def main() -> None:
    totals = defaultdict(lambda: {"runs": 0, "secs": 0, "cpu": 0, "cpu_secs": 0, "execs": 0, "crashes": 0, "corpus": 0})
    for line in LOG.read_text().splitlines():
        m = LINE.match(line)
        if not m:
            continue
        _, _, target, secs, execs, corpus, cpu, result = m.groups()
        t = totals[target]
        t["runs"] += 1
        t["secs"] += int(secs)
        if cpu is not None:
            t["cpu"] += int(cpu)
            t["cpu_secs"] += int(secs)
        t["execs"] += int(execs) if execs.isdigit() else 0
        t["crashes"] += 0 if result == "ok" else 1
        t["corpus"] = int(corpus)
    print("| target | runs | fuzzed | of which CPU-timed: wall / CPU | executions | crashes |")
    print("|---|---|---|---|---|---|")
    for target in sorted(totals, key=lambda k: (-totals[k]["secs"], k)):
        t = totals[target]
        print(
            f"| `{target}` | {t['runs']} | {t['secs'] / 60:.1f} min | "
            f"{t['cpu_secs'] / 60:.1f} / {t['cpu'] / 60:.1f} min | "
            f"{t['execs']:,} | {t['crashes']} |"
        )
    secs = sum(t["secs"] for t in totals.values())
    cpu = sum(t["cpu"] for t in totals.values())
    done = sorted(k for k, t in totals.items() if t["cpu"] >= 3600)
    print(f"\n{len(totals)} targets, {secs / 3600:.1f} hours in all, {cpu / 3600:.1f} of them CPU-timed hours;"
          f" {len(done)} with a CPU-hour or more" + (f" ({', '.join(done)})" if done else ""))


if __name__ == "__main__":
    main()
