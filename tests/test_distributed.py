"""The Ray driver (tools/distributed/tengen_ray.py) on a private local Ray
cluster: a sharded match merges to exactly the unsharded result, a shard
whose worker is killed is retried and resumes without losing or repeating
a game, and an SPRT stops the match and cancels the shards still running."""
import json
import re
import subprocess
import sys

from conftest import ROOT

BROKEN = str(ROOT / "tests" / "broken_engine.py")
DRIVER = str(ROOT / "tools" / "distributed" / "tengen_ray.py")


def engine(mode, name, after=0):
    return ["-engine", "cmd=" + sys.executable, "arg=" + BROKEN, "arg=" + mode,
            "arg=%d" % after, "name=" + name]


def match(mode="fixed", rounds=10):
    return engine(mode, "a") + engine(mode, "b") + [
        "-each", "tc=5+0.1", "-games", "2", "-rounds", str(rounds), "-maxmoves", "30",
        "-openings", "plies=4", "-srand", "3"]


def moves_only(pgn_text):
    """The record without the per-move clock figures, which vary."""
    return re.sub(r" [0-9.]+s\}", "}", pgn_text)


def unsharded(arena_bin, tmp_path, args):
    d = tmp_path / "whole"
    d.mkdir()
    proc = subprocess.run([arena_bin] + args + ["-pgnout", str(d / "g.pgn"),
                                                "-jsonout", str(d / "s.json")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return (d / "s.json").read_text(), moves_only((d / "g.pgn").read_text())


def sharded(arena_bin, tmp_path, args, shards=4, extra=()):
    d = tmp_path / "sharded"
    d.mkdir()
    cmd = [sys.executable, DRIVER, "--shards", str(shards), "--local-cpus", "2",
           "--arena", arena_bin] + list(extra) + ["--"] + args + [
        "-pgnout", str(d / "g.pgn"), "-jsonout", str(d / "s.json")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    return proc.stdout, (d / "s.json").read_text(), moves_only((d / "g.pgn").read_text())


def test_sharded_match_merges_to_the_unsharded_result(arena_bin, tmp_path):
    whole_json, whole_pgn = unsharded(arena_bin, tmp_path, match())
    out, json_text, pgn = sharded(arena_bin, tmp_path, match())
    assert "Merged 20 of 20 games from 4 shards" in out
    assert json_text == whole_json
    assert pgn == whole_pgn
    assert len(json.loads(json_text)["games"]) == 20


def test_killed_worker_is_retried_and_resumes(arena_bin, tmp_path):
    # The slow engines play the same moves as the quick ones, so the
    # unsharded quick run is the reference for every game.
    whole_json, whole_pgn = unsharded(arena_bin, tmp_path, match())
    out, json_text, pgn = sharded(arena_bin, tmp_path, match("fixedslow"),
                                  extra=["--kill-after", "1"])
    assert "fault injection: killed shard 1's worker" in out
    attempts = re.search(r"attempts per shard: 1:(\d+)", out)
    assert attempts and int(attempts.group(1)) >= 2, out
    summary = json.loads(json_text)
    assert sorted(g["game"] for g in summary["games"]) == list(range(1, 21))
    assert json_text == whole_json
    assert pgn == whole_pgn


def test_sprt_stops_the_sharded_match(arena_bin, tmp_path):
    args = engine("illegal", "bad", after=3) + engine("fixedslow", "good") + [
        "-each", "tc=5+0.1", "-games", "2", "-rounds", "200",
        "-sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05", "model=pentanomial"]
    out, json_text, _ = sharded(arena_bin, tmp_path, args)
    summary = json.loads(json_text)
    assert summary["sprt"]["verdict"] == "H0"
    assert "SPRT decided (H0): cancelled" in out
    assert len(summary["games"]) < 400
