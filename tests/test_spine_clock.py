"""Issue 18, deviation 3: a zero main time with an increment.

USI (Shogidokoro's convention, shared/protocols/usi.md §3): the usable time
for this move is the time left plus the own increment, so `btime 0 binc
5000` leaves about five seconds. tengen used to answer in 49 ms. UCI adds
the increment after the move (cutechess, python-chess): `wtime 0` has
nothing left for this move, and the checklist says to clamp and still move.
"""
import time

from conftest import LineEngine


def expect(engine, prefix, timeout=15.0):
    return engine.until(lambda l: l.startswith(prefix), timeout)[-1]


def timed_go(engine, go):
    start = time.monotonic()
    engine.send(go)
    line = expect(engine, "bestmove")
    return line, time.monotonic() - start


def test_usi_increment_counts_for_this_move(tengen_bin):
    e = LineEngine([tengen_bin])
    try:
        e.send("usi")
        expect(e, "usiok")
        e.send("isready")
        expect(e, "readyok")
        e.send("position startpos")
        line, took = timed_go(e, "go btime 0 wtime 0 binc 5000 winc 5000")
        assert line.split()[1] not in ("resign", "win"), line
        assert 1.0 < took < 5.0, f"{line!r} after {took:.3f} s"
    finally:
        e.close()


def test_uci_zero_clock_still_moves_at_once(tengen_bin):
    e = LineEngine([tengen_bin])
    try:
        e.send("uci")
        expect(e, "uciok")
        e.send("isready")
        expect(e, "readyok")
        e.send("position startpos")
        line, took = timed_go(e, "go wtime 0 btime 0 winc 5000 binc 5000")
        assert line.split()[1] != "(none)", line
        assert took < 1.0, f"{line!r} after {took:.3f} s"
        # A small clock with a large increment: the increment is spent on
        # later moves, never past the 300 ms this move has (plus latency).
        line, took = timed_go(e, "go wtime 300 btime 300 winc 5000 binc 5000")
        assert took < 0.5, f"{line!r} after {took:.3f} s"
    finally:
        e.close()
