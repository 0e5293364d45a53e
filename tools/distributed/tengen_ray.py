#!/usr/bin/env python3
"""Run one tengen-arena match as N shards on a Ray cluster and merge them.

    python3 tools/distributed/tengen_ray.py --shards 8 [--address auto] \\
        -- -engine cmd=./tengen name=new ... -games 2 -rounds 500 \\
           -pgnout games.pgn -jsonout summary.json

Everything after `--` is the arena's own command line for the whole match.
Each shard is one Ray task that runs `tengen-arena ... -shard I/N -resume`
on whichever worker Ray picks, and streams its journal and record to an
actor on the head (`ShardStore`) as games finish. The driver merges what
the actor holds with `tengen-arena ... -merge` once a second: that prints
progress and, for an SPRT, tells when the test has decided, at which point
the remaining shards are cancelled. A task whose worker dies is retried by
Ray (on any worker); it first writes back the journal and record the actor
holds for its shard, so `-resume` continues it and no finished game is
played twice or lost. See docs/distributed.md.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import ray

# Arena options the driver sets per shard; the user's values are dropped.
OWN_OPTIONS = {"-pgnout", "-recordout", "-jsonout", "-resume", "-shard", "-merge"}


def split_outputs(args):
    """The match's arguments without the output and shard options, and the
    final record and summary paths."""
    rest, pgn, summary, i = [], None, None, 0
    while i < len(args):
        a = args[i]
        j = i + 1
        while j < len(args) and not (args[j].startswith("-") and len(args[j]) > 1
                                     and not _is_number(args[j])):
            j += 1
        if a in OWN_OPTIONS:
            if a in ("-pgnout", "-recordout") and j > i + 1:
                pgn = args[i + 1]
            if a == "-jsonout" and j > i + 1:
                summary = args[i + 1]
        else:
            rest.extend(args[i:j])
        i = j
    return rest, pgn, summary


def _is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def binaries(arena, args):
    """The arena and every engine command that is a file on this machine,
    with their hashes: every worker must run the same ones."""
    found = {arena: file_hash(arena)}
    for a in args:
        if a.startswith("cmd="):
            path = shutil.which(a[4:]) or a[4:]
            if os.path.isfile(path):
                found[a[4:]] = file_hash(path)
    return found


@ray.remote
class ShardStore:
    """What each shard has finished: its journal text and record bytes,
    the number of attempts, and the pid running it now."""

    def __init__(self, n):
        self.journal = [b""] * (n + 1)
        self.record = [b""] * (n + 1)
        self.attempts = [0] * (n + 1)
        self.pid = [None] * (n + 1)

    def start(self, i, pid):
        self.attempts[i] += 1
        self.pid[i] = pid
        return self.journal[i], self.record[i]

    def push(self, i, journal, record):
        # A journal only grows; an older copy arriving late is ignored.
        if len(journal) >= len(self.journal[i]):
            self.journal[i], self.record[i] = journal, record

    def state(self):
        return self.journal, self.record, self.attempts, self.pid


def _die_with_parent():
    # The arena must not outlive the worker that runs it (a killed worker
    # is retried elsewhere, and two copies of a shard must never run).
    import ctypes
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@ray.remote
def run_shard(i, n, arena, args, hashes, store):
    for name, want in hashes.items():
        path = shutil.which(name) or name
        if not os.path.isfile(path) or file_hash(path) != want:
            raise RuntimeError(f"worker {os.uname().nodename}: '{name}' is missing or differs "
                               f"from the driver's (sha256 {want[:12]}...)")
    journal, record = ray.get(store.start.remote(i, os.getpid()))
    work = tempfile.mkdtemp(prefix=f"tengen-shard{i}-")
    pgn = os.path.join(work, "shard.pgn")
    summary = os.path.join(work, "shard.json")
    if journal:
        with open(pgn + ".journal", "wb") as f:
            f.write(journal)
        with open(pgn, "wb") as f:
            f.write(record)
    cmd = [arena] + args + ["-shard", f"{i}/{n}", "-pgnout", pgn, "-jsonout", summary, "-resume"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_die_with_parent)
    sent = len(journal)

    def push():
        nonlocal sent
        try:
            with open(pgn + ".journal", "rb") as f:
                text = f.read()
        except FileNotFoundError:
            return
        # Only whole lines: the record holds at least what they vouch for.
        text = text[: text.rfind(b"\n") + 1]
        if len(text) > sent:
            try:
                with open(pgn, "rb") as f:
                    rec = f.read()
            except FileNotFoundError:
                # The journal's header line comes before the first game's
                # record: nothing to send until the record exists.
                return
            ray.get(store.push.remote(i, text, rec))
            sent = len(text)

    while proc.poll() is None:
        time.sleep(0.2)
        push()
    push()
    err = proc.stderr.read().decode(errors="replace")
    shutil.rmtree(work, ignore_errors=True)
    if proc.returncode != 0:
        raise RuntimeError(f"shard {i}/{n}: tengen-arena exited with {proc.returncode}: {err}")
    return i


def merge(arena, args, n, journals, records, outdir, pgn, summary):
    """Writes the shards' files into `outdir` and merges them into the
    final outputs; returns the summary as JSON, or None when no shard has
    started yet."""
    header = next((j.split(b"\n", 1)[0] for j in journals[1:] if j), None)
    if header is None:
        return None
    paths = []
    for i in range(1, n + 1):
        path = os.path.join(outdir, f"shard{i}of{n}.pgn")
        journal = journals[i]
        if not journal:
            # Not started: a journal of no games under the shard's header.
            h = json.loads(header)
            h["shard"] = [i, n]
            journal = (json.dumps(h) + "\n").encode()
        with open(path + ".journal", "wb") as f:
            f.write(journal)
        with open(path, "wb") as f:
            f.write(records[i])
        paths.append(path + ".journal")
    outputs = []
    if pgn:
        outputs += ["-pgnout", pgn]
    outputs += ["-jsonout", summary]
    proc = subprocess.run([arena] + args + ["-merge"] + paths + outputs,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("merge failed: " + proc.stderr)
    with open(summary) as f:
        return json.load(f), proc.stdout


def progress_line(s, total):
    parts = []
    for e in s["encounters"]:
        elo = e["elo"]
        err = (e["elo_upper"] - elo) if elo is not None and e["elo_upper"] is not None else None
        parts.append("%s vs %s %d-%d-%d Elo %s" % (
            e["engine"], e["opponent"], e["wins"], e["losses"], e["draws"],
            "%+.1f +/- %.1f" % (elo, err) if err is not None else "n/a"))
    line = "games %d/%d  %s" % (len(s["games"]), total, "; ".join(parts))
    if s["sprt"]:
        p = s["sprt"]
        line += "  SPRT llr %.2f [%.2f, %.2f] %s" % (p["llr"], p["lower"], p["upper"], p["verdict"])
    return line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shards", type=int, required=True)
    ap.add_argument("--address", default=None,
                    help="Ray cluster address (`auto` for the local `ray start` cluster); "
                         "default: a private local cluster")
    ap.add_argument("--arena", default=None, help="tengen-arena binary (default: target/release)")
    ap.add_argument("--cpus-per-shard", type=float, default=1.0,
                    help="CPUs a shard task reserves (its -concurrency)")
    ap.add_argument("--local-cpus", type=int, default=None,
                    help="CPUs of the private local cluster (default: all)")
    ap.add_argument("--max-retries", type=int, default=3)
    ap.add_argument("--kill-after", type=int, default=None, metavar="GAMES",
                    help="fault injection for tests: kill shard 1's worker once it has "
                         "finished GAMES games (once)")
    ap.add_argument("arena_args", nargs=argparse.REMAINDER)
    opts = ap.parse_args(argv)
    args = opts.arena_args[1:] if opts.arena_args[:1] == ["--"] else opts.arena_args
    args, pgn, summary = split_outputs(args)
    if not summary and not pgn:
        ap.error("the match needs -pgnout or -jsonout")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    arena = os.path.abspath(opts.arena or os.path.join(root, "target", "release", "tengen-arena"))
    n = opts.shards
    if n < 1:
        ap.error("--shards must be at least 1")
    base = pgn or summary
    outdir = base + ".shards"
    os.makedirs(outdir, exist_ok=True)
    summary = summary or os.path.join(outdir, "merged.json")

    if opts.address:
        ray.init(address=opts.address, log_to_driver=False)
    else:
        ray.init(num_cpus=opts.local_cpus, include_dashboard=False, log_to_driver=False)
    hashes = binaries(arena, args)
    store = ShardStore.remote(n)
    tasks = {
        run_shard.options(num_cpus=opts.cpus_per_shard, max_retries=opts.max_retries,
                          retry_exceptions=False).remote(i, n, arena, args, hashes, store): i
        for i in range(1, n + 1)
    }
    pending = list(tasks)
    killed = False
    failed = None
    last = ""
    result = None
    while pending:
        done, pending = ray.wait(pending, timeout=1.0, num_returns=len(pending))
        for ref in done:
            try:
                ray.get(ref)
            except Exception as e:  # a shard that cannot run at all
                failed = e
        journals, records, attempts, pids = ray.get(store.state.remote())
        merged = merge(arena, args, n, journals, records, outdir, pgn, summary)
        if merged is None:
            continue
        result, text = merged
        total = int(text.split(" of ", 1)[1].split()[0]) if " of " in text else 0
        line = progress_line(result, total)
        if line != last:
            print(line, flush=True)
            last = line
        if (opts.kill_after is not None and not killed and pids[1]
                and journals[1].count(b"\n") - 1 >= opts.kill_after):
            os.kill(pids[1], signal.SIGKILL)
            killed = True
            print("fault injection: killed shard 1's worker (pid %d)" % pids[1], flush=True)
        if failed is not None:
            break
        if result["sprt"] and result["sprt"]["verdict"] != "continue":
            for ref in pending:
                ray.cancel(ref, force=True)
            print("SPRT decided (%s): cancelled %d running shard(s)"
                  % (result["sprt"]["verdict"], len(pending)), flush=True)
            pending = []
    journals, records, attempts, pids = ray.get(store.state.remote())
    merged = merge(arena, args, n, journals, records, outdir, pgn, summary)
    if merged:
        print(merged[1], end="", flush=True)
    print("attempts per shard: " + " ".join("%d:%d" % (i, attempts[i]) for i in range(1, n + 1)),
          flush=True)
    ray.shutdown()
    if failed is not None:
        print("tengen_ray: %s" % failed, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
