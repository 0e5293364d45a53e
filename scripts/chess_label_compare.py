#!/usr/bin/env python3
"""How far do two chess shards' scores of the same positions agree?

    python3 scripts/chess_label_compare.py SHARD_A.bin SHARD_B.bin [LIMIT]

For `tengen-relabel` output (B) against its input (A): records (format in
docs/nnue.md, "Record format") are matched by board, side to move and
move number among the first LIMIT (default 200,000) of each, since the
relabeller drops mate scores and so shifts the records. Prints how many
matched, the correlation of the two scores and B's least-squares slope on
A (both within ±1,000 centipawns), the median magnitudes and the mean
difference A − B.
"""
import math
import statistics
import struct
import sys

RECORD = 32
HEADER = 16


def read(path, limit):
    with open(path, "rb") as f:
        data = f.read(HEADER + RECORD * limit)[HEADER:]
    scores = {}
    for i in range(0, len(data) - RECORD + 1, RECORD):
        r = data[i:i + RECORD]
        key = r[:24] + bytes([r[26] & 0x80]) + r[28:30]
        scores[key] = struct.unpack("<h", r[24:26])[0]
    return scores


def main(a_path, b_path, limit):
    a, b = read(a_path, limit), read(b_path, limit)
    pairs = [(a[k], b[k]) for k in b if k in a]
    if not pairs:
        sys.exit("no position in both shards")
    near = [(x, y) for x, y in pairs if abs(x) < 1000 and abs(y) < 1000]
    mx = statistics.mean(x for x, _ in near)
    my = statistics.mean(y for _, y in near)
    cov = sum((x - mx) * (y - my) for x, y in near)
    corr = cov / math.sqrt(sum((x - mx) ** 2 for x, _ in near) * sum((y - my) ** 2 for _, y in near))
    slope = sum(x * y for x, y in near) / sum(x * x for x, _ in near)
    print(f"{len(pairs)} positions in both ({len(near)} within ±1,000)")
    print(f"correlation {corr:.3f}, B ≈ {slope:.2f} × A")
    print(f"median |A| {statistics.median(abs(x) for x, _ in pairs)}, "
          f"median |B| {statistics.median(abs(y) for _, y in pairs)}, "
          f"mean A − B {statistics.mean(x - y for x, y in pairs):.1f}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 200_000)
