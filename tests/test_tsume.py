"""tengen's tsume solver (the `tsume` example of crates/shogi) checked by
cshogi on crates/shogi/tests/tsume.txt and tsume_hard.txt: every mate line
is legal, every attacker move checks and it ends in mate; it is forced (for
every defender move of the line, each other legal reply is still mated, as
cshogi's DfPn proves); the defender resists longest (each other reply is
mated within the plies the line has left, by cshogi's depth-bounded DfPn,
whose bound is loose by up to two plies);
no mate is claimed where cshogi's label says nomate; on tsume.txt none is
longer than cshogi's depth label plus two (on the harder set the length is
only reported: tengen's bounded shortening does not always get there).

python3 -m pytest -q tests/test_tsume.py   (after `cargo build --release -p tengen-shogi
--example tsume`; TENGEN_TSUME_BIN names another build)
"""
import os
import subprocess

import cshogi
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["crates/shogi/tests/tsume.txt", "crates/shogi/tests/tsume_hard.txt"]


def solve_all(bin_path, path):
    out = subprocess.run([bin_path, "--file", os.path.join(ROOT, path), "--nodes", "2000000"],
                         capture_output=True, text=True, check=True, timeout=1200).stdout
    rows = []
    for line in out.splitlines():
        head, sfen, pv = line.split(";")
        label, got = head.split()[:2]
        rows.append((label.strip(), got, sfen, pv.split()))
    return rows


def mated_within(board, plies):
    """cshogi's DfPn, with `plies` as its depth limit, proves that the side
    to move (the attacker) mates. Its depth limit is not exact (it lets
    some mates two plies longer through), so this is the bound as cshogi
    draws it."""
    return cshogi.DfPn(plies, 2_000_000).search(board)


@pytest.mark.parametrize("path", FILES)
def test_mate_lines_are_forced_and_resist_longest(tsume_bin, path):
    rows = solve_all(tsume_bin, path)
    assert rows
    mates = 0
    for label, got, sfen, pv in rows:
        if label == "nomate":
            assert got in ("nomate", "timeout") or int(got) > 31, (sfen, got)
            continue
        assert pv, (sfen, got)
        if path.endswith("/tsume.txt"):
            assert len(pv) <= int(label) + 2, (sfen, len(pv), label)
        elif len(pv) > int(label) + 2:
            print(f"longer than cshogi's label + 2: {len(pv)} plies, label {label}: {sfen}")
        b = cshogi.Board(sfen)
        for i, u in enumerate(pv):
            m = b.move_from_usi(u)
            assert m and b.is_legal(m), (sfen, i, u)
            if i % 2 == 1:
                left = len(pv) - i - 1  # plies the line has after this reply
                for alt in b.legal_moves:
                    if alt == m:
                        continue
                    b.push(alt)
                    ok = mated_within(b, left) if left > 0 else b.is_game_over()
                    b.pop()
                    assert ok, (sfen, i, cshogi.move_to_usi(alt), "escapes or resists longer")
            b.push(m)
            if i % 2 == 0:
                assert b.is_check(), (sfen, i, u)
        assert b.is_game_over(), (sfen, pv)
        mates += 1
    assert mates >= 10


def test_stdin_mode_answers_each_problem_as_it_comes(tsume_bin):
    """`--stdin` (what scripts/tsume_bench.py drives) answers every line,
    one line each, in order, the same as `--file` does, and a line that
    does not read as a position is answered `error`, not skipped."""
    problems = [l for l in open(os.path.join(ROOT, FILES[0])) if l.strip() and not l.startswith("#")][:6]
    p = subprocess.Popen([tsume_bin, "--stdin", "--warm", "--nodes", "200000"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    got = []
    try:
        for line in problems + ["not a position ;x\n"]:
            p.stdin.write(line)
            p.stdin.flush()
            got.append(p.stdout.readline())
    finally:
        p.stdin.close()
        p.wait(timeout=60)
    assert len(got) == len(problems) + 1
    assert got[-1].split()[:2] == ["x", "error"], got[-1]
    for asked, answer in zip(problems, got):
        sfen = asked.split(" ;")[0]
        assert answer.split(";")[1] == sfen, (asked, answer)
        label, result = answer.split()[:2]
        if label == "nomate":
            assert result in ("nomate", "timeout"), answer
        else:
            assert result.isdigit(), answer
