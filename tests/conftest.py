"""Shared fixtures for the conformance tests that drive the built binaries.

The binaries come from `target/release` (built by scripts/test.sh) unless
TENGEN_BIN / TENGEN_ARENA_BIN / TENGEN_TSUME_BIN point elsewhere.
"""
import os
import pathlib
import shutil

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


@pytest.fixture(scope="session")
def shared_testdata():
    return SHARED / "testdata"
