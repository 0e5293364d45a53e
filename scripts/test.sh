#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine with the Rust toolchain:
# installs what the tests need, then runs the Rust and the Python tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  need=()
  # chromium and a CJK font for the browser GUI's tests (tests/test_gui.py);
  # xboard, xvfb and the CECP engines for tests/test_cecp.py.
  for pkg in stockfish gnuchess glaurung fairy-stockfish gnugo phalanx fairymax gnushogi xboard xvfb xauth chromium fonts-wqy-microhei; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi
python3 -m pip install -q --disable-pip-version-check -r tests/requirements.txt

cargo fmt --all -- --check
cargo clippy --release --all-targets -- -D warnings
cargo build --release
cargo build --release -p tengen-shogi --example tsume
cargo test --release --workspace
python3 -m pytest -q tests
