"""`EvalFile` over the protocols: a network file made by `tengen datagen`
and `tengen-train` is loaded with `setoption`, changes the search, and
`<empty>` brings the hand-made evaluation back; files that do not fit
the game are refused in the protocol's own way and change nothing."""
import os
import pathlib
import subprocess

import pytest

from conftest import _binary
from test_uci import Raw


def _train(tengen_bin, tmp, game, seed):
    data, net = tmp / f"{game}-data", tmp / f"{game}-net"
    subprocess.run([tengen_bin, "datagen", "--game", game, "--nodes", "300", "--games", "2",
                    "--out", str(data), "--seed", str(seed)],
                   check=True, capture_output=True, timeout=300)
    subprocess.run([_binary("TENGEN_TRAIN_BIN", "tengen-train"), "--data", str(data),
                    "--out", str(net), "--hidden", "16", "--epochs", "1", "--threads", "1"],
                   check=True, capture_output=True, timeout=300)
    path = net / "latest.nnue"
    assert path.exists()
    return str(path)


@pytest.fixture(scope="module")
def nets(tengen_bin, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nets")
    return {"chess": _train(tengen_bin, tmp, "chess", 1),
            "xiangqi": _train(tengen_bin, tmp, "xiangqi", 2)}


def _nodes(r, go="go depth 6"):
    """The node count of the last info line before bestmove, searched
    from a cleared table so that equal evaluations give equal counts."""
    r.send("ucinewgame")
    r.send("isready")
    r.expect(lambda l: l == "readyok")
    r.send("position startpos moves e2e4 e7e5 g1f3")
    r.send(go)
    _, seen = r.expect(lambda l: l.startswith("bestmove"), timeout=60)
    nodes = [l.split(" nodes ")[1].split()[0] for l in seen if " nodes " in l]
    assert nodes, seen
    return int(nodes[-1])


def test_uci_evalfile_loads_changes_the_search_and_goes_back(tengen_bin, nets):
    r = Raw(tengen_bin)
    try:
        r.send("uci")
        _, seen = r.expect(lambda l: l == "uciok")
        assert "option name EvalFile type string default <default>" in seen
        default = _nodes(r)
        r.send("setoption name EvalFile value <empty>")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "hand-made" in line, line
        hand = _nodes(r)
        assert hand != default, "chess has a built-in network, not the hand-made evaluation"
        r.send(f"setoption name EvalFile value {nets['chess']}")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "evaluation: network" in line and "3072 inputs" in line, line
        net = _nodes(r)
        assert net != hand, "the network did not change the search"
        # A xiangqi network in a chess session is refused; the chess
        # network stays.
        r.send(f"setoption name EvalFile value {nets['xiangqi']}")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "refused" in line, line
        assert _nodes(r) == net
        r.send("setoption name EvalFile value /no/such/file.nnue")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "refused" in line and "/no/such/file.nnue" in line, line
        assert _nodes(r) == net
        r.send("setoption name EvalFile value <empty>")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "hand-made" in line, line
        assert _nodes(r) == hand
        # `<default>` (what a GUI sends to reset) is the built-in evaluation.
        r.send("setoption name EvalFile value <default>")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "network built-in" in line, line
        assert _nodes(r) == default
    finally:
        r.close()


def test_ucci_evalfile_loads_a_xiangqi_network(tengen_bin, nets):
    r = Raw(tengen_bin)
    try:
        r.send("ucci")
        _, seen = r.expect(lambda l: l == "ucciok")
        assert "option evalfile type string default <default>" in seen
        r.send(f"setoption evalfile {nets['chess']}")
        line, _ = r.expect(lambda l: l.startswith("info"))
        assert "refused" in line, line
        r.send(f"setoption evalfile {nets['xiangqi']}")
        line, _ = r.expect(lambda l: l.startswith("info"))
        assert "evaluation: network" in line, line
        r.send("position startpos moves h2e2")
        r.send("go depth 4")
        line, _ = r.expect(lambda l: l.startswith("bestmove"), timeout=60)
        assert len(line.split()[1]) == 4
    finally:
        r.close()


def test_eval_file_flag_and_bench(tengen_bin, nets):
    """`--eval-file` with `bench` searches with the network (a different
    node count) and a bad file is an error with exit status 2."""
    def bench(*extra):
        out = subprocess.run([tengen_bin, *extra, "bench", "--game", "chess", "--depth", "4"],
                             capture_output=True, text=True, timeout=300)
        return out
    hand, net = bench("--eval-file", "<empty>"), bench("--eval-file", nets["chess"])
    assert hand.returncode == 0 and net.returncode == 0, (hand.stderr, net.stderr)
    sig = lambda o: [l for l in o.stdout.splitlines() if "nodes" in l.lower()][-1]
    assert sig(hand) != sig(net)
    bad = bench("--eval-file", os.devnull)
    assert bad.returncode != 0 and bad.stderr.strip()


@pytest.mark.parametrize("game,depth", [("chess", 4), ("xiangqi", 5), ("shogi", 6)])
def test_builtin_networks_and_the_flag_names_both_evaluations(tengen_bin, game, depth):
    """Chess, xiangqi and shogi search with their built-in networks unless told otherwise:
    `--eval-file <default>` searches as no flag does, `--eval-file
    <empty>` with the hand-made evaluation (other node counts), and the
    flag says what each game now evaluates with."""
    def bench(*extra):
        out = subprocess.run([tengen_bin, *extra, "bench", "--game", game, "--depth", str(depth)],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        # Node counts, not speeds: equal evaluations search equal trees.
        lines = out.stdout.splitlines()
        return [l for l in lines if "nodes" in l.lower() and "/second" not in l], out.stderr
    plain, _ = bench()
    default, said = bench("--eval-file", "<default>")
    assert ("chess evaluation: hand-made + residual network built-in (3072 inputs" in said
            and "xiangqi evaluation: hand-made + residual network built-in (7560 inputs" in said
            and "shogi evaluation: hand-made + residual network built-in (2344 inputs" in said), said
    hand, said_hand = bench("--eval-file", "<empty>")
    assert ("chess evaluation: hand-made; xiangqi evaluation: hand-made; "
            "shogi evaluation: hand-made") in said_hand, said_hand
    assert plain == default
    assert plain != hand


def test_ucci_empty_goes_back_to_the_hand_made_evaluation(tengen_bin):
    r = Raw(tengen_bin)
    try:
        r.send("ucci")
        r.expect(lambda l: l == "ucciok")
        r.send("setoption evalfile <empty>")
        line, _ = r.expect(lambda l: l.startswith("info"))
        assert "hand-made" in line and "network" not in line, line
        r.send("setoption evalfile <default>")
        line, _ = r.expect(lambda l: l.startswith("info"))
        assert "network built-in" in line, line
    finally:
        r.close()


SHOGI_NET = (pathlib.Path(__file__).resolve().parent.parent
             / "crates" / "shogi" / "nets" / "shogi-residual-h256-8ab3b86b.nnue")


def _usi_nodes(r, go="go depth 5"):
    r.send("usinewgame")
    r.send("isready")
    r.expect(lambda l: l == "readyok")
    r.send("position startpos moves 7g7f 3c3d 2g2f")
    r.send(go)
    _, seen = r.expect(lambda l: l.startswith("bestmove"), timeout=60)
    nodes = [l.split(" nodes ")[1].split()[0] for l in seen if " nodes " in l]
    assert nodes, seen
    return int(nodes[-1])


def test_usi_evalfile_refuses_other_games_and_loads_shogi_networks(tengen_bin, nets):
    """Shogi's `EvalFile` reads the shared network format: a chess or
    xiangqi network (or no file) is refused with the reason and the
    evaluation stays; `<empty>` is the hand-made evaluation; the built-in
    network's own file, loaded by path, searches as `<default>` does."""
    r = Raw(tengen_bin)
    try:
        r.send("usi")
        _, seen = r.expect(lambda l: l == "usiok")
        assert "option name EvalFile type string default <default>" in seen, seen
        default = _usi_nodes(r)
        for other, game in [(nets["chess"], "chess"), (nets["xiangqi"], "xiangqi")]:
            r.send(f"setoption name EvalFile value {other}")
            line, _ = r.expect(lambda l: l.startswith("info string"))
            assert "refused" in line and f"a {game} network, not a shogi one" in line, line
            assert _usi_nodes(r) == default
        r.send("setoption name EvalFile value /no/such/file.nnue")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "refused" in line and "/no/such/file.nnue" in line, line
        r.send("setoption name EvalFile value <empty>")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "hand-made" in line and "network" not in line, line
        hand = _usi_nodes(r)
        assert hand != default, "shogi has a built-in network, not the hand-made evaluation"
        r.send(f"setoption name EvalFile value {SHOGI_NET}")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "residual network" in line and "2344 inputs" in line and "8ab3b86b" in line, line
        assert _usi_nodes(r) == default
        r.send("setoption name EvalFile value <empty>")
        r.expect(lambda l: l.startswith("info string"))
        r.send("setoption name EvalFile value <default>")
        line, _ = r.expect(lambda l: l.startswith("info string"))
        assert "network built-in" in line, line
        assert _usi_nodes(r) == default
    finally:
        r.close()
