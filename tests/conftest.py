"""Shared fixtures for the conformance tests that drive the built binaries.

The binaries come from `target/release` (built by scripts/test.sh) unless
TENGEN_BIN / TENGEN_ARENA_BIN / TENGEN_TSUME_BIN point elsewhere.
"""
import os
import pathlib
import queue
import shutil
import subprocess
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def _binary(env, name):
    path = os.environ.get(env) or str(TARGET / "release" / name)
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: run `cargo build --release` first")
    return path


@pytest.fixture(scope="session")
def tengen_bin():
    return _binary("TENGEN_BIN", "tengen")


@pytest.fixture(scope="session")
def tsume_bin():
    """The shogi crate's `tsume` example (`cargo build --release -p
    tengen-shogi --example tsume`, done by scripts/test.sh)."""
    return _binary("TENGEN_TSUME_BIN", "examples/tsume")


@pytest.fixture(scope="session")
def arena_bin():
    return _binary("TENGEN_ARENA_BIN", "tengen-arena")


def debian_game(name):
    """Path of a Debian engine (they live in /usr/games, off PATH)."""
    for d in ("/usr/games", "/usr/bin", "/usr/local/bin"):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return shutil.which(name)


GNUGO = debian_game("gnugo")
needs_gnugo = pytest.mark.skipif(GNUGO is None, reason="gnugo not installed")


@pytest.fixture
def pair(tengen_bin):
    """tengen and GNU Go 3.8, each over GTP (`scripts/go_reading_diff.py`),
    for the tests that send both the same lines."""
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import go_reading_diff
    t = go_reading_diff.Gtp([tengen_bin, "--protocol", "gtp"])
    g = go_reading_diff.Gtp([GNUGO, "--mode", "gtp"])
    yield t, g
    t.close()
    g.close()


@pytest.fixture(scope="session")
def shared_testdata():
    return SHARED / "testdata"


class LineEngine:
    """An engine process with a line reader thread and a transcript for
    failure messages (the UCI-family transcript tests share it)."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        self.log.append("> " + text)
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def recv(self, timeout=10.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no reply in %.1fs; transcript:\n%s" % (timeout, "\n".join(self.log[-40:])))
        if line is None:
            raise AssertionError("engine exited; transcript:\n" + "\n".join(self.log[-40:]))
        self.log.append("< " + line)
        return line

    def until(self, pred, timeout=10.0):
        """Lines up to and including the first one that `pred` accepts."""
        seen = []
        deadline = time.time() + timeout
        while True:
            line = self.recv(max(0.01, deadline - time.time()))
            seen.append(line)
            if pred(line):
                return seen

    def silent_for(self, seconds):
        """Asserts that no line but `info` arrives for `seconds`."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                return
            assert line is not None, "engine exited"
            self.log.append("< " + line)
            assert line.startswith("info"), "unexpected '%s'" % line

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
