"""The browser GUI watching a `tengen-arena` run started outside it, and
engine options set from the page, in Chromium through Playwright (the
same page helper, browser and checks as tests/test_gui.py: no console
error, no request off 127.0.0.1).

Watching: the server's configuration names the arena's `-live` file; the
test attaches from the page first, then starts a short match of tengen
against itself at fixed nodes from here, and sees the moves arrive live,
the next game take over and the standing the arena wrote. The moves
shown are the arena's record's.

Options: tengen's announced options are listed and a value out of range
is refused with a message; a small UCI engine written here reports the
option value it got as its search depth, so the value set on the page is
seen taking effect in its analysis. With `--settings` they outlive a
restart of the server.
"""
import json
import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import TARGET
from test_gui import Page, browser  # noqa: F401  (the browser fixture)

NODES = 3000

# A UCI engine whose `Depth` option is the depth it reports: what the page
# sets is seen in its analysis lines.
TOY = textwrap.dedent(
    """
    import sys
    import time
    import chess
    opts = {"Depth": "3"}
    board = chess.Board()
    pending = None
    def out(line):
        sys.stdout.write(line + "\\n")
        sys.stdout.flush()
    for raw in sys.stdin:
        t = raw.split()
        if not t:
            continue
        if t[0] == "uci":
            out("id name toy")
            out("option name Depth type spin default 3 min 1 max 40")
            out("option name Style type combo default solid var solid var wild")
            out("option name Note type string default <empty>")
            out("option name Delay type spin default 0 min 0 max 1000")
            out("uciok")
        elif t[0] == "isready":
            out("readyok")
        elif t[0] == "setoption" and "value" in t:
            i = t.index("value")
            opts[" ".join(t[2:i])] = " ".join(t[i + 1:])
        elif t[0] == "position":
            board = chess.Board()
            if "moves" in t:
                for m in t[t.index("moves") + 1:]:
                    board.push_uci(m)
        elif t[0] == "go":
            time.sleep(int(opts.get("Delay", "0")) / 1000)
            moves = sorted(m.uci() for m in board.legal_moves)
            for k, m in enumerate(moves[:2]):
                out(f"info depth {opts['Depth']} multipv {k + 1} score cp {10 - k} nodes 100 pv {m}")
            if "infinite" in t:
                pending = moves[0]
            else:
                out(f"bestmove {moves[0]}")
        elif t[0] == "stop" and pending:
            out(f"bestmove {pending}")
            pending = None
        elif t[0] == "quit":
            break
    """
)


@pytest.fixture(scope="module")
def setup(tengen_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("gui-live")
    toy = d / "toy.py"
    toy.write_text(TOY)
    cfg = d / "engines.toml"
    cfg.write_text(
        f'tengen = "{tengen_bin}"\ntengen_nodes = {NODES}\n'
        f'[[engine]]\nname = "toy"\ncommand = "{sys.executable}"\nargs = ["{toy}"]\n'
        'protocol = "uci"\ngames = ["chess"]\n'
        f'[[live]]\nname = "match"\nfile = "{d / "match.live"}"\n'
    )
    return d


def start_gui(setup):
    gui = os.environ.get("TENGEN_GUI_BIN") or str(TARGET / "release" / "tengen-gui")
    if not os.path.exists(gui):
        pytest.fail(f"{gui} is missing: run `cargo build --release` first")
    p = subprocess.Popen(
        [gui, "--port", "0", "--config", str(setup / "engines.toml"), "--settings", str(setup / "settings.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = p.stdout.readline()
    assert line.startswith("tengen-gui: http://127.0.0.1:"), line
    return p, line.split(": ", 1)[1].strip()


def stop_gui(p):
    p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()


@pytest.fixture(scope="module")
def server(setup):
    p, url = start_gui(setup)
    yield url
    stop_gui(p)


def live(tab):
    return tab.page.evaluate("[document.body.dataset.liveGame, document.body.dataset.liveDone]")


def test_watch_an_arena_match_started_outside_the_gui(browser, server, setup, tengen_bin, arena_bin):  # noqa: F811
    tab = Page(browser, server)
    other = Page(browser, server)
    arena = None
    try:
        assert not tab.page.is_hidden("#watch")
        assert tab.page.eval_on_selector_all("#feed option", "e => e.map(o => o.value)") == ["match"]
        tab.page.click("#attach")
        tab.page.wait_for_function("document.getElementById('live-box').hidden === false")
        assert "waiting for the arena" in tab.page.text_content("#live-title")
        pgn = setup / "match.pgn"
        arena = subprocess.Popen(
            [
                arena_bin,
                "-engine", f"cmd={tengen_bin}", "name=tengen-a",
                "-engine", f"cmd={tengen_bin}", "name=tengen-b",
                # Slow enough (tens of ms a move) to be watched move by move.
                # The clocks (60+1) travel in the live file too.
                "-each", "proto=uci", "nodes=20000", "tc=60+1",
                "-games", "2", "-maxmoves", "25",
                "-live", str(setup / "match.live"),
                "-pgnout", str(pgn),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        # Game 1 shows, and its moves arrive while it goes on.
        for t in (tab, other):
            t.page.wait_for_function("document.body.dataset.liveGame === '1'", timeout=30000)
        tab.page.wait_for_function(
            "Number(document.body.dataset.ply) >= 4 && document.body.dataset.result === ''", timeout=30000
        )
        seen = int(tab.body("ply"))
        tab.page.wait_for_function(
            f"Number(document.body.dataset.ply) > {seen} && document.body.dataset.liveGame === '1'", timeout=30000
        )
        assert "White: tengen-a · Black: tengen-b" in tab.page.text_content("#players")
        # The arena's clocks after each move, the side to move's running.
        for clock in ("#clock-top", "#clock-bottom"):
            assert re.search(r" — [01]:\d\d", tab.page.text_content(clock)), tab.page.text_content(clock)
        tab.shot("live")
        # The next game takes over with the colours swapped, and the
        # standing counts the first.
        for t in (tab, other):
            t.page.wait_for_function("document.body.dataset.liveGame === '2'", timeout=60000)
        tab.page.wait_for_function("document.body.dataset.liveDone === '1'", timeout=60000)
        assert "White: tengen-b · Black: tengen-a" in tab.page.text_content("#players")
        out, _ = arena.communicate(timeout=120)
        assert arena.returncode == 0
        for t in (tab, other):
            t.page.wait_for_function(
                "document.body.dataset.liveDone === '2' && document.body.dataset.result !== ''", timeout=30000
            )
        # The standing is the arena's own: its last score line.
        w, l, d = re.findall(r"Score of tengen-a vs tengen-b: (\d+) - (\d+) - (\d+)", out)[-1]
        row = tab.page.eval_on_selector_all("#standing tbody tr td", "e => e.map(x => x.textContent)")
        assert row[:4] == ["tengen-a vs tengen-b", w, l, d], row
        assert tab.page.text_content("#standing") == other.page.text_content("#standing")
        # The moves shown are those of the arena's record of game 2.
        record = pgn.read_text().split("[Event ")[2]
        sans = [m for m in re.sub(r"\{[^}]*\}", "", record.split("\n\n", 1)[1]).split()
                if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", m)]
        shown = tab.page.eval_on_selector_all("#moves li", "e => e.map(x => x.textContent)")
        assert shown == sans, (shown, sans)
        assert tab.body("result") in ("1-0", "0-1", "1/2-1/2")
        # Attached afresh after the run, the file is read from its start:
        # the last game and the final standing again.
        tab.page.click("#detach")
        tab.page.wait_for_function("document.getElementById('live-box').hidden === true")
        tab.page.click("#attach")
        tab.page.wait_for_function(
            "document.body.dataset.liveGame === '2' && document.body.dataset.liveDone === '2'"
            " && document.body.dataset.result !== ''",
            timeout=30000,
        )
        assert tab.page.eval_on_selector_all("#moves li", "e => e.map(x => x.textContent)") == sans
        # Starting a game of one's own stops watching.
        tab.new_game("chess", engine="", human="both")
        tab.page.wait_for_function("document.getElementById('live-box').hidden === true")
    finally:
        if arena and arena.poll() is None:
            arena.kill()
        other.close()
        tab.close()


def open_options(tab, engine):
    before = int(tab.body("optionsSeen") or 0)
    if not tab.page.evaluate("document.getElementById('options-box').open"):
        tab.page.click("#options-box summary")
    tab.page.select_option("#opt-engine", engine)
    tab.page.click("#opt-show")
    tab.page.wait_for_function(f"Number(document.body.dataset.optionsSeen || 0) > {before}", timeout=20000)


def set_option(tab, name, value):
    before = int(tab.body("optionsSeen") or 0)
    errors = int(tab.body("errors") or 0)
    row = f"#opt-table tr[data-option='{name}']"
    tab.page.fill(f"{row} input.opt-value", str(value))
    tab.page.click(f"{row} button.opt-set")
    tab.page.wait_for_function(
        f"Number(document.body.dataset.optionsSeen || 0) > {before}"
        f" || Number(document.body.dataset.errors || 0) > {errors}",
        timeout=20000,
    )


def test_engine_options_listed_checked_and_taking_effect(browser, server, setup):  # noqa: F811
    tab = Page(browser, server)
    try:
        tab.new_game("chess", engine="", human="both")
        # tengen's own options, as it announces them over UCI.
        open_options(tab, "tengen")
        names = tab.page.eval_on_selector_all("#opt-table tr", "e => e.map(x => x.dataset.option)")
        assert "Hash" in names and "MultiPV" in names, names
        assert "1..256" in tab.page.text_content("#opt-table tr[data-option='MultiPV'] .range")
        # Set by the GUI for each game: not offered.
        assert tab.page.is_disabled("#opt-table tr[data-option='UCI_Chess960'] .opt-value")
        # Out of range: refused with the reason, nothing kept.
        set_option(tab, "MultiPV", 999)
        assert "MultiPV: 999 is outside 1..256" in tab.page.text_content("#error")
        assert not tab.page.locator("#opt-table tr[data-option='MultiPV'].set").count()
        set_option(tab, "Hash", "lots")
        assert "not a whole number" in tab.page.text_content("#error")
        # A good value is kept (and shown as set).
        set_option(tab, "Hash", 32)
        tab.page.wait_for_selector("#opt-table tr[data-option='Hash'].set")
        assert tab.page.input_value("#opt-table tr[data-option='Hash'] .opt-value") == "32"
        # tengen still plays with it set.
        tab.new_game("chess", engine="tengen", human="first")
        tab.cg_move("e2", "e4")
        tab.wait_ply(2)

        # The toy engine reports its Depth option as the depth of its
        # lines: the default 3, then the 17 set on the page.
        tab.new_game("chess", engine="", human="both")
        tab.page.select_option("#an-engine", "toy")
        tab.page.click("#analyse")
        tab.page.wait_for_function("document.querySelectorAll('#lines tr.line').length >= 2")
        assert tab.page.eval_on_selector_all("#lines tr.line", "e => e.map(x => x.dataset.depth)") == ["3", "3"]
        tab.page.click("#stop")
        tab.page.wait_for_function("document.body.dataset.analysing === 'false'")
        open_options(tab, "toy")
        set_option(tab, "Depth", 41)
        assert "Depth: 41 is outside 1..40" in tab.page.text_content("#error")
        set_option(tab, "Depth", 17)
        tab.page.wait_for_selector("#opt-table tr[data-option='Depth'].set")
        tab.page.select_option("#opt-table tr[data-option='Style'] .opt-value", "wild")
        tab.page.click("#opt-table tr[data-option='Style'] button.opt-set")
        tab.page.wait_for_selector("#opt-table tr[data-option='Style'].set")
        tab.page.click("#analyse")
        tab.page.wait_for_function(
            "[...document.querySelectorAll('#lines tr.line')].map(x => x.dataset.depth).join() === '17,17'",
            timeout=20000,
        )
        tab.shot("options")
        tab.page.click("#stop")
        tab.page.wait_for_function("document.body.dataset.analysing === 'false'")
        # Bad messages sent by hand get an error each, never a panic.
        bad = [
            {"type": "set_option", "engine": "toy", "game": "chess", "name": "Depth", "value": "0"},
            {"type": "set_option", "engine": "toy", "game": "chess", "name": "Nope", "value": "1"},
            {"type": "set_option", "engine": "toy", "game": "chess", "name": "Note", "value": "a\nquit"},
            {"type": "set_option", "engine": "toy", "game": "chess", "name": "Style", "value": "mild"},
            {"type": "set_option", "engine": "nobody", "game": "chess", "name": "Depth", "value": "3"},
            {"type": "set_option", "engine": "toy", "game": "shogi", "name": "Depth", "value": "3"},
            {"type": "options", "engine": "tengen", "game": "go"},
            {"type": "attach", "feed": "/etc/passwd"},
            {"type": "detach"},
        ]
        got = tab.page.evaluate(
            """(bad) => new Promise(ok => {
                const ws = new WebSocket(`ws://${location.host}/ws`);
                ws.onopen = () => { for (const m of bad) ws.send(m); };
                const got = [];
                ws.onmessage = ev => {
                    const m = JSON.parse(ev.data);
                    if (m.type === 'error') { got.push(m.message); if (got.length === bad.length) { ws.close(); ok(got); } }
                };
            })""",
            [json.dumps(b) for b in bad],
        )
        assert "Depth: 0 is outside 1..40" in got[0]
        assert "no option 'Nope'" in got[1]
        assert "one line" in got[2]
        assert "not one of solid, wild" in got[3]
        assert "no engine is named 'nobody'" in got[4]
        assert "does not play shogi" in got[5]
        assert "without options" in got[6]
        assert "no arena run is named '/etc/passwd'" in got[7]
        assert "no arena run is being watched" in got[8]
    finally:
        tab.close()


def test_options_outlive_a_restart_with_settings(browser, setup):  # noqa: F811
    # The module's server wrote them to settings.json; a second server
    # reading that file offers them again.
    saved = json.loads((setup / "settings.json").read_text())
    assert saved["toy"]["uci"] == {"Depth": "17", "Style": "wild"}, saved
    assert saved["tengen"]["uci"] == {"Hash": "32"}, saved
    p, url = start_gui(setup)
    try:
        tab = Page(browser, url)
        try:
            open_options(tab, "toy")
            assert tab.page.input_value("#opt-table tr[data-option='Depth'] .opt-value") == "17"
            tab.page.click("#opt-table tr[data-option='Depth'] button.opt-reset")
            tab.page.wait_for_function(
                "!document.querySelector(\"#opt-table tr[data-option='Depth']\").classList.contains('set')"
            )
            assert json.loads((setup / "settings.json").read_text())["toy"]["uci"] == {"Style": "wild"}
        finally:
            tab.close()
    finally:
        stop_gui(p)


def test_match_finishes_the_game_in_progress_then_stops(browser, server):  # noqa: F811
    # "Finish the current game, then stop": a four-game match stops after
    # the game in progress (the test engine thinks 100 ms a move here).
    tab = Page(browser, server)
    try:
        tab.new_game("chess", engine="", human="both")
        open_options(tab, "toy")
        set_option(tab, "Delay", 100)
        tab.page.wait_for_selector("#opt-table tr[data-option='Delay'].set")
        tab.new_game("chess", engine="tengen", human="none", tc="", engine2="toy", games=4)
        first = tab.body("gameId")
        assert not tab.page.is_hidden("#finish")
        tab.page.click("#finish")
        tab.page.wait_for_function("document.getElementById('match').dataset.stopping === 'true'")
        assert "stopping after this game" in tab.page.text_content("#match-text")
        assert tab.page.is_hidden("#finish")
        tab.page.wait_for_function("document.getElementById('match').dataset.played === '1'", timeout=120000)
        time.sleep(2)
        # No second game: the finished one stays, counted.
        assert tab.body("gameId") == first and tab.body("result") != ""
        text = tab.page.text_content("#match-text")
        assert "game 1 of 4" in text and "stopped" in text, text
        assert tab.page.is_hidden("#finish")
    finally:
        tab.new_game("chess", engine="", human="both")
        tab.close()
