#!/usr/bin/env python3
"""Does one tengen process keep a flat memory over many games?

    python3 tools/soak/memory.py --game chess --games 1000 --out docs/soak/

One engine process plays GAMES self-play games over the game's own
protocol (UCI, UCCI, USI, GTP, Gomocup), with the protocol's new-game
command between games (`ucinewgame`, `usinewgame`, `clear_board`,
`RESTART`, and UCCI's `setoption newgame`). Moves come
from short fixed-size searches whose size varies from game to game so the
games differ. After every game, and the next new-game command (unless
`--sample end`), the process's resident memory (VmRSS) is read from /proc. Results: OUT/memory-GAME.csv (game, rss_kib) and, when
matplotlib is installed, OUT/memory-GAME.png; the last line printed is
the verdict: median RSS of the last 100 games against the first 100.
The hash table is allocated once at start, so it counts once.
"""
import argparse
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Engine:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, pred, timeout=60.0):
        deadline = time.time() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            if line is None:
                raise RuntimeError("the engine exited")
            if pred(line):
                return line

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def quit(self, word):
        try:
            self.send(word)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def bestmove(e, position, go):
    e.send(position)
    e.send(go)
    try:
        # UCCI's answer when the side to move has no move.
        line = e.until(lambda l: l.startswith("bestmove") or l == "nobestmove")
        return line.split()[1] if line.startswith("bestmove") else "(none)"
    except queue.Empty:
        raise RuntimeError("no bestmove in 60 s after:\n%s\n%s" % (position, go)) from None


def play_ucifam(e, game, g, plies):
    """One self-play game in the UCI family; returns its length."""
    moves = []
    size = 100 + 37 * (g % 11)
    e.send({"chess": "ucinewgame", "shogi": "usinewgame",
            "xiangqi": "setoption newgame"}[game])
    for _ in range(plies):
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        mv = bestmove(e, pos, "go nodes %d" % size)
        if mv in ("(none)", "0000", "resign", "win", "nullmove"):
            break
        moves.append(mv)
    return len(moves)


def play_gtp(e, g, plies):
    def cmd(text):
        e.send(text)
        reply = e.until(lambda l: l.startswith("=") or l.startswith("?"))
        e.until(lambda l: l == "")
        return reply
    cmd("clear_board")
    cmd("tengen-playouts %d" % (200 + 50 * (g % 7)))
    passes, n = 0, 0
    for i in range(plies):
        mv = cmd("genmove " + "bw"[i % 2])[1:].strip().lower()
        n += 1
        if mv == "resign":
            break
        passes = passes + 1 if mv == "pass" else 0
        if passes == 2:
            break
    return n


def new_game(e, game):
    """The protocol's new-game command, answered, so that the sample
    that follows sees what the engine keeps between games, not the
    search state of the game just played (Go keeps its tree for the next
    move until the board is cleared)."""
    if game == "go":
        e.send("clear_board")
        e.until(lambda l: l.startswith("="))
        e.until(lambda l: l == "")
    elif game == "gomoku":
        e.send("RESTART")
        e.until(lambda l: l == "OK")
    else:
        e.send({"chess": "ucinewgame", "shogi": "usinewgame",
                "xiangqi": "setoption newgame"}[game])
        e.send("isready")
        e.until(lambda l: l == "readyok")


def five(stones, x, y):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            k = 1
            while (x + sign * k * dx, y + sign * k * dy) in stones:
                n += 1
                k += 1
        if n >= 5:
            return True
    return False


def play_gomocup(e, g, plies):
    """The engine plays both sides: each move is asked for with `BOARD`,
    the side to move's stones marked as its own."""
    e.send("RESTART")
    e.until(lambda l: l == "OK")
    e.send("INFO timeout_turn %d" % (20 + 5 * (g % 7)))
    stones = [set(), set()]
    n = 0
    for i in range(plies):
        me, other = stones[i % 2], stones[1 - i % 2]
        lines = ["BOARD"] + ["%d,%d,1" % p for p in sorted(me)] + \
            ["%d,%d,2" % p for p in sorted(other)] + ["DONE"]
        e.send("\n".join(lines))
        mv = e.until(lambda l: "," in l and l.replace(",", "").isdigit())
        x, y = map(int, mv.split(","))
        me.add((x, y))
        n += 1
        if five(me, x, y):
            break
    return n


SETUP = {
    "chess": (["--protocol", "uci"], ["uci"], "uciok", "quit"),
    "xiangqi": (["--protocol", "ucci"], ["ucci"], "ucciok", "quit"),
    "shogi": (["--protocol", "usi"], ["usi"], "usiok", "quit"),
    "go": (["--protocol", "gtp"], ["boardsize 9", "komi 7"], None, "quit"),
    "gomoku": (["--protocol", "gomocup"], ["START 15"], "OK", "END"),
}


def plot(csv, png, game):
    """The RSS curve of a CSV this tool wrote, as a PNG (needs matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    with open(csv) as f:
        rows = [line.split(",") for line in f.read().splitlines()[1:]]
    games = [int(r[0]) for r in rows]
    mib = [int(r[1]) / 1024 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.plot(games, mib, linewidth=0.8)
    ax.set_xlabel("game")
    ax.set_ylabel("resident memory (MiB)")
    ax.set_title("tengen %s: one process, %d games" % (game, len(rows)))
    ax.set_ylim(0, max(mib) * 1.25)
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(SETUP), required=True)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--plies", type=int, default=120, help="longest game")
    ap.add_argument("--hash", type=int, default=16, help="hash table MiB")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "tengen"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "soak"))
    ap.add_argument("--sample", choices=("between", "end"), default="between",
                    help="read RSS after the next new-game command (default: what the "
                         "engine keeps between games) or right after the last move")
    ap.add_argument("--replot", action="store_true",
                    help="only draw OUT/memory-GAME.png again from its CSV")
    opts = ap.parse_args()
    if opts.replot:
        plot(os.path.join(opts.out, "memory-%s.csv" % opts.game),
             os.path.join(opts.out, "memory-%s.png" % opts.game), opts.game)
        return
    args, hello, ok, bye = SETUP[opts.game]
    e = Engine([opts.engine] + args)
    for line in hello:
        e.send(line)
    if ok:
        e.until(lambda l: l == ok)
    if opts.game == "chess":
        e.send("setoption name Hash value %d" % opts.hash)
    elif opts.game == "shogi":
        e.send("setoption name USI_Hash value %d" % opts.hash)
    elif opts.game == "xiangqi":
        e.send("setoption hashsize %d" % opts.hash)
    if opts.game in ("chess", "shogi", "xiangqi"):
        e.send("isready")
        e.until(lambda l: l == "readyok")
    if opts.game == "go":
        for _ in hello:
            e.until(lambda l: l == "")
    os.makedirs(opts.out, exist_ok=True)
    csv = os.path.join(opts.out, "memory-%s.csv" % opts.game)
    rss = []
    start = time.time()
    with open(csv, "w") as f:
        f.write("game,rss_kib,plies\n")
        for g in range(opts.games):
            if opts.game == "go":
                n = play_gtp(e, g, opts.plies)
            elif opts.game == "gomoku":
                n = play_gomocup(e, g, min(opts.plies, 100))
            else:
                n = play_ucifam(e, opts.game, g, opts.plies)
            if opts.sample == "between":
                new_game(e, opts.game)
            rss.append(e.rss_kib())
            f.write("%d,%d,%d\n" % (g + 1, rss[-1], n))
            f.flush()
            if (g + 1) % 50 == 0:
                print("%s: %d games, rss %d KiB, %.0f s" % (opts.game, g + 1, rss[-1],
                                                             time.time() - start), flush=True)
    e.quit(bye)
    k = min(100, len(rss) // 2) or 1
    first, last = statistics.median(rss[:k]), statistics.median(rss[-k:])
    plot(csv, os.path.join(opts.out, "memory-%s.png" % opts.game), opts.game)
    change = (last - first) / first * 100
    print("%s: %d games in %.0f s; median RSS first %d games %d KiB, last %d games %d KiB "
          "(%+.1f%%): %s" % (opts.game, len(rss), time.time() - start, k, first, k, last, change,
                             "flat" if abs(change) <= 5 else "NOT flat"))


if __name__ == "__main__":
    main()
