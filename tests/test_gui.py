"""The browser GUI (`tengen-gui`) in a real Chromium, driven by Playwright.

One server for the module (`--port 0`, a test config with tengen at fixed
nodes); each test starts its game from the page's own form and plays by
clicking the board. Every request the page makes must go to 127.0.0.1
and the console must stay free of errors. Screenshots go to a temporary
folder, or to the folder `TENGEN_GUI_SHOTS` names
(`TENGEN_GUI_SHOTS=docs/gui` refreshes the ones docs/gui.md shows), so a
test run leaves the checkout as it found it.

Needs Debian's `chromium` (/usr/bin/chromium) and the Playwright version
pinned in requirements.txt; `playwright install` is never run.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import ROOT, TARGET

playwright_sync = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = pathlib.Path(
    os.environ.get("TENGEN_GUI_SHOTS")
    or pathlib.Path(tempfile.gettempdir()) / "tengen-gui-shots"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NODES = 3000


@pytest.fixture(scope="module")
def server(tengen_bin, tmp_path_factory):
    gui = os.environ.get("TENGEN_GUI_BIN") or str(TARGET / "release" / "tengen-gui")
    if not os.path.exists(gui):
        pytest.fail(f"{gui} is missing: run `cargo build --release` first")
    cfg = tmp_path_factory.mktemp("gui") / "engines.toml"
    broken = ROOT / "tests" / "broken_engine.py"
    outside = "".join(
        f'[[engine]]\nname = "{name}"\ncommand = "{sys.executable}"\n'
        f'args = ["{broken}", "{mode}"]\nprotocol = "uci"\ngames = ["chess"]\n'
        for name, mode in [("sleepy", "hang"), ("crashy", "crash"), ("quick", "fixed"), ("quick2", "good")]
    )
    # An opening book for matches (the page picks it by name).
    book = cfg.parent / "lines.pgn"
    book.write_text(
        '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "b"]\n\n1. d4 d5 2. c4 *\n'
    )
    books = f'[[book]]\nname = "lines"\nfile = "{book}"\nformat = "pgn"\ngames = ["chess"]\n'
    cfg.write_text(
        f'tengen = "{tengen_bin}"\ntengen_nodes = {NODES}\n'
        '[tengen_options]\nHash = "16"\n' + outside + books
    )
    p = subprocess.Popen(
        [gui, "--port", "0", "--config", str(cfg)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = p.stdout.readline()
    assert line.startswith("tengen-gui: http://127.0.0.1:"), line
    url = line.split(": ", 1)[1].strip()
    yield url
    p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with playwright_sync.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A tab on the GUI that records console errors and stray requests."""

    def __init__(self, browser, url):
        self.url = url
        # Playwright evaluates its wait conditions with eval, which the
        # page's Content-Security-Policy forbids: the test context bypasses it.
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)
        self.page = self.ctx.new_page()
        self.errors = []
        self.offsite = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.ctx.route("**/*", self._route)
        self.page.goto(url)
        self.page.wait_for_function("document.body.dataset.connected === 'true'")
        self.page.wait_for_function("document.getElementById('game').options.length > 0")

    def _console(self, msg):
        if msg.type == "error":
            self.errors.append(msg.text)

    def _route(self, route):
        u = route.request.url
        if u.startswith("http://127.0.0.1:") or u.startswith("ws://127.0.0.1:") or u.startswith("data:"):
            route.continue_()
        else:
            self.offsite.append(u)
            route.abort()

    def body(self, key):
        return self.page.evaluate(f"document.body.dataset[{json.dumps(key)}]")

    def new_game(self, game, engine="tengen", human="first", tc="60+1", size=None, position=None, engine2=None, games=None):
        p = self.page
        old = self.body("gameId")
        p.select_option("#game", game)
        p.select_option("#engine", engine)
        p.select_option("#human", human)
        p.fill("#tc", tc)
        if size is not None:
            p.fill("#size", str(size))
        if position is not None:
            p.fill("#position", str(position))
        if engine2 is not None:
            p.select_option("#engine2", engine2)
        if games is not None:
            p.fill("#games", str(games))
        p.click("#start")
        p.wait_for_function(
            f"document.body.dataset.gameId !== {json.dumps(old)} && document.body.dataset.game === {json.dumps(game)}"
        )

    def wait_ply(self, n, timeout=20000):
        self.page.wait_for_function(
            f"Number(document.body.dataset.ply) >= {n} && document.body.dataset.thinking === 'false'",
            timeout=timeout,
        )

    def square(self, key, width, height):
        """The page coordinates of a chessgroundx square (`e2`, `h:`)."""
        box = self.page.locator("cg-board").bounding_box()
        x = ord(key[0]) - ord("a")
        y = "123456789:".index(key[1])
        flipped = self.page.evaluate("document.querySelector('.cg-wrap').classList.contains('orientation-black')")
        if flipped:
            x, y = width - 1 - x, height - 1 - y
        sx = box["width"] / width
        sy = box["height"] / height
        return box["x"] + (x + 0.5) * sx, box["y"] + (height - 1 - y + 0.5) * sy

    def click_square(self, key, width=8, height=8):
        x, y = self.square(key, width, height)
        self.page.mouse.click(x, y)

    def cg_move(self, orig, dest, width=8, height=8):
        self.click_square(orig, width, height)
        self.click_square(dest, width, height)

    def click_vertex(self, x, y):
        self.page.click(f".shudan-vertex[data-x='{x}'][data-y='{y}']")

    def moves(self):
        """The main line's moves (variations are not in it)."""
        return self.page.eval_on_selector_all("#moves > li[data-wire]", "els => els.map(e => e.dataset.wire)")

    def variations(self):
        """The variations' moves in the move list, in its order."""
        return self.page.eval_on_selector_all("#moves .var-move", "els => els.map(e => e.dataset.wire)")

    def load_text(self, text):
        old = self.body("gameId")
        self.page.fill("#record", text)
        self.page.click("#load")
        self.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")

    def save_text(self, fmt=None):
        """Saves in `fmt` (`kif`, `""` for the game's usual format; none:
        as the form stands)."""
        if fmt is not None:
            self.page.select_option("#format", fmt)
        self.page.evaluate("delete document.body.dataset.saved")
        self.page.click("#save")
        self.page.wait_for_function("document.body.dataset.saved !== undefined")
        return self.page.input_value("#record")

    def fen(self):
        return self.page.evaluate("document.body.dataset.fen")

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))

    def close(self):
        assert self.errors == [], self.errors
        assert self.offsite == [], self.offsite
        self.ctx.close()


@pytest.fixture
def tab(browser, server):
    t = Page(browser, server)
    yield t
    t.close()


def test_chess_click_move_engine_answer_and_illegal_snap_back(tab):
    tab.new_game("chess")
    # An illegal move (e2-e5) is not taken: the board stays at ply 0.
    tab.cg_move("e2", "e5")
    time.sleep(0.3)
    assert tab.body("ply") == "0"
    assert tab.page.locator("cg-board piece").count() == 32
    # A legal one is, and tengen answers at fixed nodes.
    tab.cg_move("e2", "e4")
    tab.wait_ply(2)
    moves = tab.moves()
    assert moves[0] == "e2e4" and len(moves) == 2
    assert tab.page.locator("#moves li").first.text_content() == "e4"
    # The clock ran and shows minutes:seconds.
    assert ":" in tab.page.text_content("#clock-bottom")
    tab.shot("chess")
    # Take back removes the engine's answer and our move.
    tab.page.click("#undo")
    tab.page.wait_for_function("document.body.dataset.ply === '0'")


BAD_MESSAGES = [
    '{"type":"move","wire":"e2e5","ply":0}',
    '{"type":"move","wire":"e2e4","ply":7}',
    '{"type":"launch","cmd":"sh"}',
    "not json",
    "{}",
    '{"type":"move","wire":"e2e4","ply":-1}',
    '{"type":"vertex","x":99,"y":99,"ply":0}',
    '{"type":"view","ply":99}',
    '{"type":"dead","x":0,"y":0}',
    '{"type":"score"}',
    '{"type":"mate","engine":"tengen"}',
    '{"type":"analyse","engine":"nobody"}',
    '{"type":"undo"}',
    '{"type":"new","game":"go","size":1}',
    '{"type":"new","game":"chess960","position":960}',
    '{"type":"new","game":"chess","engine":"nobody"}',
    '{"type":"new","game":"chess","tc":"abc"}',
    '{"type":"new","game":"chess","human":"none"}',
    '{"type":"save","format":"sgf"}',
    '{"type":"load","text":"+7700FU"}',
    '{"type":"load","text":""}',
    '{"type":"swap","choice":"black"}',
    '{"type":"swap","choice":"purple"}',
    '{"type":"new","game":"chess","opening":"swap2"}',
    '{"type":"new","game":"chess","engine":"tengen","human":"none","book":"nobook"}',
    '{"type":"new","game":"chess","engine":"tengen","book":"lines"}',
    '{"type":"new","game":"xiangqi","engine":"tengen","human":"none","book":"lines"}',
    '{"type":"promote","node":7}',
    '{"type":"delete","node":7}',
    '{"type":"view","ply":0,"node":9}',
    '{"type":"move","wire":"e2e4","ply":0,"node":5,"variation":true}',
    '{"type":"move","wire":"e2e5","ply":0,"variation":true}',
    '{"type":"new","game":"chess","engine":"tengen","human":"none","engines":["tengen","quick","quick"]}',
    '{"type":"new","game":"chess","engine":"tengen","human":"first","engines":["tengen","quick","quick2"]}',
    '{"type":"new","game":"go","engine":"tengen","human":"none","engines":["tengen","quick","quick2"]}',
]


def test_server_refuses_bad_messages_sent_by_hand(tab):
    tab.new_game("chess", engine="", human="both")
    errors_before = int(tab.body("errors") or 0)
    got = tab.page.evaluate(
        """(bad) => new Promise(ok => {
            const ws = new WebSocket(`ws://${location.host}/ws`);
            ws.onopen = () => {
                for (const m of bad) ws.send(m);
                ws.send(new Uint8Array([1, 2, 3]));
            };
            const got = [];
            ws.onmessage = ev => {
                const m = JSON.parse(ev.data);
                if (m.type === 'error') { got.push(m.message); if (got.length === bad.length + 1) { ws.close(); ok(got); } }
            };
        })""",
        BAD_MESSAGES,
    )
    assert len(got) == len(BAD_MESSAGES) + 1
    assert "illegal move e2e5" in got[0]
    # Nothing changed, the page saw none of it, and the server still answers.
    assert tab.body("ply") == "0"
    assert int(tab.body("errors") or 0) == errors_before
    tab.cg_move("e2", "e4")
    tab.wait_ply(1)


def test_xiangqi_click_move_and_engine_answer(tab):
    tab.new_game("xiangqi")
    # The cannon's centre opening h2e2 (ICCS), clicked on the 9x10 board.
    tab.cg_move("h3", "e3", 9, 10)
    tab.wait_ply(2)
    assert tab.moves()[0] == "h2e2"
    # A horse move through a blocked leg is not taken.
    tab.cg_move("b1", "d2", 9, 10)
    time.sleep(0.3)
    assert tab.body("ply") == "2"
    tab.shot("xiangqi")


def test_xiangqi_tenth_rank_as_second_player(tab):
    # Playing Black: tengen (Red) opens, and our pieces stand on the tenth
    # rank (ICCS 9, chessgroundx ':'), shown at the bottom.
    tab.new_game("xiangqi", human="second")
    tab.wait_ply(1)
    tab.cg_move("h:", "g8", 9, 10)
    tab.wait_ply(3)
    assert tab.moves()[1] == "h9g7"


def test_shogi_click_move_and_promotion_choice(tab):
    tab.new_game("shogi")
    tab.cg_move("c3", "c4", 9, 9)  # 7g7f
    tab.wait_ply(2)
    assert tab.moves()[0] == "7g7f"
    tab.shot("shogi")


def test_go_click_stone_pass_and_capture(tab):
    tab.new_game("go", size=9)
    tab.click_vertex(4, 4)
    tab.wait_ply(2)
    assert tab.moves()[0] == "E5"
    # A click on an occupied point does nothing.
    tab.click_vertex(4, 4)
    time.sleep(0.3)
    assert tab.body("ply") == "2"
    tab.shot("go")


def test_go_two_humans_capture_and_scoring(tab):
    tab.new_game("go", engine="", size=5)
    # Black surrounds White's stone at A5 (top-left corner) and takes it.
    for x, y in [(1, 0), (0, 0), (0, 1)]:
        n = int(tab.body("ply"))
        tab.click_vertex(x, y)
        tab.wait_ply(n + 1)
    assert tab.moves() == ["B5", "A5", "A4"]
    assert tab.page.locator(".shudan-vertex[data-x='0'][data-y='0'].shudan-sign_0").count() == 1
    # A White stone inside Black's area, then two passes.
    tab.click_vertex(3, 3)
    tab.wait_ply(4)
    tab.page.click("#pass")
    tab.wait_ply(5)
    tab.page.click("#pass")
    tab.page.wait_for_selector("#accept:not([hidden])")
    # Counting every stone alive: B has 24 minus... the status shows the count.
    alive = tab.page.text_content("#status")
    # The White stone is marked dead by a click; the count changes.
    tab.click_vertex(3, 3)
    tab.page.wait_for_function(f"document.getElementById('status').textContent !== {json.dumps(alive)}")
    assert tab.page.locator(".shudan-vertex[data-x='3'][data-y='3'].shudan-dimmed").count() == 1
    assert "B+17.5" in tab.page.text_content("#status")
    tab.page.click("#accept")
    tab.page.wait_for_function("document.body.dataset.result !== ''")
    assert "B+17.5 by area scoring (1 dead stone marked)" in tab.page.text_content("#status")
    assert tab.body("result") == "1-0"


def test_gomoku_click_and_move_numbers(tab):
    tab.new_game("gomoku", size=15)
    tab.click_vertex(7, 7)
    tab.wait_ply(2)
    assert tab.moves()[0] == "7,7"
    assert tab.page.locator(".shudan-vertex[data-x='7'][data-y='7']").get_attribute("title") == "1"
    tab.shot("gomoku")


def _place(tab, points):
    for mv in points:
        n = int(tab.body("ply"))
        tab.click_vertex(*mv)
        tab.page.wait_for_function(f"Number(document.body.dataset.ply) > {n}")


def _free_points(tab, n):
    """`n` empty points of the board shown, nearest the centre first."""
    pts = tab.page.eval_on_selector_all(
        ".shudan-vertex.shudan-sign_0", "e => e.map(v => [Number(v.dataset.x), Number(v.dataset.y)])"
    )
    pts.sort(key=lambda p: (p[0] - 7) ** 2 + (p[1] - 7) ** 2)
    return [tuple(p) for p in pts[:n]]


def test_gomoku_swap2_with_a_person_and_an_engine_on_either_side(tab):
    # You place the three stones; tengen (SWAP2BOARD) swaps, plays White,
    # or places two more and hands the choice back.
    tab.page.select_option("#game", "gomoku")
    tab.page.select_option("#opening", "swap2")
    tab.new_game("gomoku", tc="st=0.5", size=15)
    assert tab.body("swap") == "place3"
    assert "place three stones" in tab.page.text_content("#swap-text")
    _place(tab, [(7, 7), (8, 7), (7, 9)])
    tab.page.wait_for_function(
        "['', 'choose2'].includes(document.body.dataset.swap) && document.body.dataset.thinking === 'false'",
        timeout=30000,
    )
    assert tab.body("result") == ""
    if tab.body("swap") == "choose2":
        # Five stones: you choose; placing more is no choice now.
        assert int(tab.body("ply")) == 5
        assert tab.page.locator("#swap-choices button[data-choice='place2']").count() == 0
        tab.page.click("#swap-choices button[data-choice='white']")
        tab.page.wait_for_function("document.body.dataset.swap === ''")
        assert "White: You" in tab.page.text_content("#players")
    # After the opening the game goes on as usual: your stone is answered.
    tab.page.wait_for_function("document.body.dataset.thinking === 'false'", timeout=30000)
    n = int(tab.body("ply"))
    mine = "White: You" if n % 2 == 1 else "Black: You"
    assert mine in tab.page.text_content("#players")
    _place(tab, _free_points(tab, 1))
    tab.wait_ply(n + 2)
    assert tab.body("swap") == ""
    tab.shot("swap2")

    # tengen places the three stones; you place two more and hand the
    # choice back; tengen chooses.
    tab.page.select_option("#opening", "swap2")
    tab.new_game("gomoku", human="second", tc="st=0.5", size=15)
    tab.page.wait_for_function("document.body.dataset.swap === 'choose'", timeout=30000)
    assert int(tab.body("ply")) == 3
    choices = tab.page.eval_on_selector_all("#swap-choices button", "e => e.map(b => b.dataset.choice)")
    assert choices == ["black", "white", "place2"]
    # A stone before the choice is refused.
    free = _free_points(tab, 2)
    tab.click_vertex(*free[0])
    tab.page.wait_for_function("document.getElementById('error').textContent.includes('choose a colour')")
    assert tab.body("ply") == "3"
    tab.page.click("#swap-choices button[data-choice='place2']")
    tab.page.wait_for_function("document.body.dataset.swap === 'place2'")
    _place(tab, free)
    tab.page.wait_for_function(
        "document.body.dataset.swap === '' && document.body.dataset.thinking === 'false'", timeout=30000
    )
    assert tab.body("result") == ""
    players = tab.page.text_content("#players")
    assert "You" in players and "tengen" in players
    assert len(tab.moves()) >= 5


def test_gomoku_swap1_two_people_and_swap2_engine_against_itself(tab):
    tab.page.select_option("#game", "gomoku")
    tab.page.select_option("#opening", "swap1")
    tab.new_game("gomoku", engine="", human="both", tc="", size=15)
    _place(tab, [(7, 7), (8, 8), (6, 8)])
    assert tab.body("swap") == "choose"
    choices = tab.page.eval_on_selector_all("#swap-choices button", "e => e.map(b => b.dataset.choice)")
    assert choices == ["black", "white"]
    tab.page.click("#swap-choices button[data-choice='black']")
    tab.page.wait_for_function("document.body.dataset.swap === ''")
    # White's fourth stone, then take back: it goes, the opening stays.
    _place(tab, [(9, 9)])
    assert tab.moves() == ["7,7", "8,8", "6,8", "9,9"]
    tab.page.click("#undo")
    tab.page.wait_for_function("document.body.dataset.ply === '3'")
    tab.page.click("#undo")
    tab.page.wait_for_function("document.getElementById('error').textContent.includes('opening')")
    assert tab.body("ply") == "3"
    # swap1 with an engine deciding is refused (Gomocup has no swap1).
    old = tab.body("gameId")
    tab.page.select_option("#engine", "tengen")
    tab.page.select_option("#human", "first")
    tab.page.click("#start")
    tab.page.wait_for_function("document.getElementById('error').textContent.includes('swap1')")
    assert tab.body("gameId") == old
    # tengen against itself: both sides of swap2 by SWAP2BOARD.
    tab.page.select_option("#opening", "swap2")
    tab.new_game("gomoku", human="none", tc="st=0.3", size=15)
    tab.page.wait_for_function(
        "document.body.dataset.swap === '' && Number(document.body.dataset.ply) >= 5", timeout=60000
    )
    assert tab.body("result") == ""
    tab.page.select_option("#opening", "")
    tab.new_game("gomoku", engine="", human="both", size=15)


def test_renju_forbidden_point_refused(tab):
    tab.new_game("renju", engine="", size=15)
    # Black builds a double three at 7,7 (two open threes crossing there).
    for mv in [(5, 7), (0, 0), (6, 7), (0, 2), (7, 5), (0, 4), (7, 6), (0, 6)]:
        n = int(tab.body("ply"))
        tab.click_vertex(*mv)
        tab.wait_ply(n + 1)
    # The point is marked forbidden, and a click there is refused.
    assert tab.page.locator(".shudan-vertex[data-x='7'][data-y='7']").get_attribute("title") == "forbidden"
    tab.click_vertex(7, 7)
    tab.page.wait_for_function("document.getElementById('error').textContent.includes('forbidden')")
    assert tab.body("ply") == "8"
    tab.shot("renju")


@pytest.mark.parametrize("game", ["chess", "xiangqi", "shogi"])
def test_analysis_lines_arrows_depth_and_stop(tab, game):
    tab.new_game(game, engine="", human="both")
    tab.page.fill("#multipv", "3")
    tab.page.click("#analyse")
    tab.page.wait_for_function("document.querySelectorAll('#lines tr.line').length >= 2")
    d1 = max(int(d) for d in tab.page.eval_on_selector_all("#lines tr.line", "e => e.map(x => x.dataset.depth)"))
    tab.page.wait_for_function(
        f"Math.max(...[...document.querySelectorAll('#lines tr.line')].map(x => Number(x.dataset.depth))) > {d1}",
        timeout=20000,
    )
    tab.page.wait_for_function("document.querySelectorAll('svg.cg-shapes line').length >= 2")
    assert tab.page.locator("#evalbar").get_attribute("data-cp") is not None
    # The PV is in the game's notation.
    pv = tab.page.text_content("#lines tr.line td:last-child")
    marks = {"chess": None, "xiangqi": "进平退", "shogi": "▲"}[game]
    if marks:
        assert any(m in pv for m in marks), pv
    tab.shot("analysis" if game == "chess" else f"analysis-{game}")
    tab.page.click("#stop")
    tab.page.wait_for_function("document.body.dataset.analysing === 'false'")
    assert "stopped" in tab.page.text_content("#an-status")


def test_shogi_promotion_choice_and_drop(tab):
    tab.new_game("shogi", engine="")
    for orig, dest in [("c3", "c4"), ("g7", "g6")]:  # 7g7f 3c3d
        n = int(tab.body("ply"))
        tab.cg_move(orig, dest, 9, 9)
        tab.wait_ply(n + 1)
    # The bishop takes on 2b: promote or not is asked.
    tab.cg_move("b2", "h8", 9, 9)
    tab.page.wait_for_selector("#choice button")
    labels = tab.page.eval_on_selector_all("#choice button", "b => b.map(x => x.dataset.wire)")
    assert sorted(labels) == ["8h2b", "8h2b+"]
    tab.page.click("#choice button[data-wire='8h2b+']")
    tab.wait_ply(3)
    # chessgroundx redraws on the next animation frame.
    tab.page.wait_for_selector("cg-board piece.pb-piece")
    tab.cg_move("g9", "h8", 9, 9)  # 3a2b takes the horse back
    tab.wait_ply(4)
    # Sente has a bishop in hand and drops it on 5e.
    tab.page.click(".pocket.bottom piece.b-piece")
    tab.click_square("e5", 9, 9)
    tab.wait_ply(5)
    assert tab.moves()[-1] == "B*5e"
    tab.page.wait_for_selector("cg-board piece.b-piece.white")
    tab.shot("shogi-drop")


def test_chess960_castling_by_king_onto_rook(tab):
    # Start 192: BBQNRKNR. After Ng1-f3 the king (f1) castles short by
    # moving onto its rook (h1): king g1, rook f1.
    tab.new_game("chess960", engine="", human="both", position=192)
    assert tab.page.locator("cg-board piece.k-piece.white").count() == 1
    for orig, dest in [("g1", "f3"), ("a7", "a6")]:
        n = int(tab.body("ply"))
        tab.cg_move(orig, dest)
        tab.wait_ply(n + 1)
    tab.cg_move("f1", "h1")
    tab.wait_ply(3)
    assert tab.moves()[-1] == "f1h1"
    assert tab.page.locator("#moves li").last.text_content() == "O-O"
    tab.shot("chess960")


def test_sleeping_engine_loses_on_time(tab):
    tab.new_game("chess", engine="sleepy", tc="2+0")
    tab.cg_move("e2", "e4")
    tab.page.wait_for_function("document.body.dataset.result !== ''", timeout=15000)
    assert tab.body("result") == "1-0"
    assert "loses on time" in tab.page.text_content("#status")


def test_crashing_engine_is_reported(tab):
    tab.new_game("chess", engine="crashy")
    tab.cg_move("e2", "e4")
    tab.page.wait_for_function("document.body.dataset.result !== ''", timeout=15000)
    assert "crashed" in tab.page.text_content("#status")
    assert "crashed" in tab.page.text_content("#error")
    # A console error would fail the test: the page reports, never throws.


def test_reload_restores_the_game(tab):
    tab.new_game("chess")
    tab.cg_move("d2", "d4")
    tab.wait_ply(2)
    before = tab.moves()
    tab.page.reload()
    tab.page.wait_for_function("document.body.dataset.ply === '2'")
    assert tab.moves() == before
    tab.page.wait_for_function("document.querySelectorAll('cg-board piece').length === 32")


def test_engine_against_engine_seen_identically_in_two_tabs(browser, server, tab):
    other = Page(browser, server)
    try:
        tab.new_game("chess", engine="quick", human="none", tc="")
        for t in (tab, other):
            t.page.wait_for_function("document.body.dataset.result !== ''", timeout=60000)
        assert tab.moves() == other.moves()
        assert len(tab.moves()) > 10
        assert tab.body("result") == other.body("result")
        assert tab.page.text_content("#status") == other.page.text_content("#status")
    finally:
        other.close()


def _save_and_load(tab, fmt=None):
    print_it = os.environ.get("SHOW_RECORDS")
    """Saves the record, loads it back as a new game; returns both
    move lists and the record text."""
    before = tab.moves()
    if fmt:
        tab.page.select_option("#format", fmt)
    tab.page.evaluate("delete document.body.dataset.saved")
    tab.page.click("#save")
    tab.page.wait_for_function("document.body.dataset.saved !== undefined")
    text = tab.page.input_value("#record")
    old = tab.body("gameId")
    tab.page.click("#load")
    tab.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")
    if print_it:
        print(text)
    return before, tab.moves(), text


def test_records_saved_and_loaded_back_equal(tab):
    # Chess: PGN.
    tab.new_game("chess")
    for orig, dest in [("e2", "e4")]:
        tab.cg_move(orig, dest)
    tab.wait_ply(2)
    before, after, text = _save_and_load(tab)
    assert "[White \"You\"]" in text and before == after and len(after) == 2
    assert tab.body("game") == "chess"
    # Shogi: CSA, with a promotion and a drop.
    tab.new_game("shogi", engine="")
    for orig, dest in [("c3", "c4"), ("g7", "g6"), ("b2", "h8")]:
        n = int(tab.body("ply"))
        tab.cg_move(orig, dest, 9, 9)
        if orig == "b2":
            tab.page.click("#choice button[data-wire='8h2b+']")
        tab.wait_ply(n + 1)
    before, after, text = _save_and_load(tab)
    assert "+8822UM" in text and before == after == ["7g7f", "3c3d", "8h2b+"]
    # KIF too, and a KIF file in Shift_JIS read from disk.
    before, after, text = _save_and_load(tab, "kif")
    assert "２二角成(88)" in text and before == after
    old = tab.body("gameId")
    tab.page.set_input_files(
        "#file", files=[{"name": "game.kif", "mimeType": "text/plain", "buffer": text.encode("shift_jis")}]
    )
    tab.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")
    assert tab.moves() == before
    tab.page.select_option("#format", "")
    # Go: SGF.
    tab.new_game("go", engine="", size=9)
    for x, y in [(2, 2), (6, 6)]:
        n = int(tab.body("ply"))
        tab.click_vertex(x, y)
        tab.wait_ply(n + 1)
    before, after, text = _save_and_load(tab)
    assert "SZ[9]" in text and before == after == ["C7", "G3"]
    # A FEN pasted by hand.
    tab.page.fill("#record", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    old = tab.body("gameId")
    tab.page.click("#load")
    tab.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")
    tab.page.wait_for_function("document.querySelectorAll('cg-board piece').length === 3")
    # Nonsense is refused with a message and changes nothing.
    tab.page.fill("#record", "this is not a record")
    old = tab.body("gameId")
    tab.page.click("#load")
    tab.page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert tab.body("gameId") == old


def _analyse_a_while(tab):
    tab.page.fill("#multipv", "2")
    tab.page.click("#analyse")
    tab.page.wait_for_function(
        "document.querySelectorAll('#lines tr.line').length >= 1"
        " && document.querySelector('#lines tr.line td:last-child').textContent.trim().includes(' ')",
        timeout=20000,
    )
    tab.page.click("#stop")
    tab.page.wait_for_function("document.body.dataset.analysing === 'false'")


def test_records_carry_engine_pvs_and_analysis_and_load_back_equal(tab):
    import re

    # Chess: tengen's PV in its move's comment, in SAN from its move;
    # the analysis line of the position as a comment of its own.
    tab.new_game("chess")
    tab.cg_move("e2", "e4")
    tab.wait_ply(2)
    reply = tab.page.locator("#moves li").nth(1).text_content()
    _analyse_a_while(tab)
    before, after, text = _save_and_load(tab)
    assert before == after and len(after) == 2
    assert re.search(r"\{[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s " + re.escape(reply) + r" \S+", text), text
    assert re.search(r"\{tengen analysis [+-](\d+\.\d\d|M\d+)/\d+: \S+ \S+", text), text
    # Shogi: Floodgate's '** lines in CSA, ShogiGUI's comments in KIF.
    tab.new_game("shogi")
    tab.cg_move("c3", "c4", 9, 9)
    tab.wait_ply(2)
    _analyse_a_while(tab)
    before, after, text = _save_and_load(tab)
    assert before == after and len(after) == 2
    floodgate = [l for l in text.splitlines() if l.startswith("'** ")]
    assert len(floodgate) >= 2, text
    assert all(re.fullmatch(r"'\*\* -?\d+( [+-]\d{4}[A-Z]{2})+", l) for l in floodgate), floodgate
    tab.new_game("shogi")
    tab.cg_move("c3", "c4", 9, 9)
    tab.wait_ply(2)
    _analyse_a_while(tab)
    before, after, text = _save_and_load(tab, "kif")
    tab.page.select_option("#format", "")
    assert before == after and len(after) == 2
    assert re.search(r"^\*\*対局 時間 \d\d:\d\d\.\d 深さ \d+ 評価値 -?\d+ 読み筋 △\S+ ▲", text, re.M), text
    assert re.search(r"^\*\*解析 0 候補1 深さ \d+ ノード \d+ 評価値 -?\d+ 読み筋 ▲", text, re.M), text
    # Go: the analysis in the node's C[].
    tab.new_game("go", engine="", human="both", size=9)
    tab.click_vertex(4, 4)
    tab.wait_ply(1)
    _analyse_a_while(tab)
    before, after, text = _save_and_load(tab)
    assert before == after == ["E5"]
    assert re.search(r"C\[[\d.]+s\ntengen analysis \d+\.\d% ", text), text


def test_go_analysis_candidates_and_ownership(tab):
    tab.new_game("go", engine="", human="both", size=9)
    tab.click_vertex(4, 4)
    tab.wait_ply(1)
    tab.page.fill("#multipv", "3")
    tab.page.click("#analyse")
    tab.page.wait_for_function("document.querySelectorAll('#lines tr.line').length >= 2", timeout=20000)
    n1 = max(int(d) for d in tab.page.eval_on_selector_all("#lines tr.line", "e => e.map(x => x.dataset.nodes)"))
    tab.page.wait_for_function(
        f"Math.max(...[...document.querySelectorAll('#lines tr.line')].map(x => Number(x.dataset.nodes))) > {n1}",
        timeout=20000,
    )
    # Candidates carry their winrate on the board; ownership shades it.
    assert "%" in tab.page.text_content("#lines tr.line td")
    tab.page.wait_for_function("document.querySelectorAll('.shudan-vertex.shudan-marker_label').length >= 3")
    tab.page.wait_for_function("document.querySelectorAll('.shudan-paint').length > 0")
    tab.shot("analysis-go")
    tab.page.click("#stop")
    tab.page.wait_for_function("document.body.dataset.analysing === 'false'")
    # Gomoku engines have no analysis command: the page says so.
    tab.new_game("gomoku", engine="", human="both", size=15)
    assert tab.page.is_disabled("#analyse")
    assert "no live analysis" in tab.page.text_content("#an-status")


def test_eval_graph_and_browsing_the_game(tab):
    tab.new_game("chess")
    tab.cg_move("e2", "e4")
    tab.wait_ply(2)
    tab.cg_move("g1", "f3")
    tab.wait_ply(4)
    # tengen's own scores for its moves are on the graph.
    assert tab.page.locator("#graph circle").count() == 5
    assert tab.page.locator("#graph circle.known").count() >= 2
    # Clicking the first move shows the position after it, read-only.
    tab.page.click("#moves li[data-ply='1']")
    tab.page.wait_for_function("document.body.dataset.viewing === '1'")
    tab.page.wait_for_selector("#viewing:not([hidden])")
    tab.page.wait_for_function(
        "[...document.querySelectorAll('cg-board piece.p-piece.white')].length === 8"
    )
    # Left goes back a move, End returns to the game.
    tab.page.keyboard.press("ArrowLeft")
    tab.page.wait_for_function("document.body.dataset.viewing === '0'")
    tab.page.click("#graph circle[data-ply='2']")
    tab.page.wait_for_function("document.body.dataset.viewing === '2'")
    tab.page.keyboard.press("End")
    tab.page.wait_for_function("document.body.dataset.viewing === ''")
    time.sleep(0.3)  # the board's move animation
    tab.shot("graph")


def test_analysis_follows_the_browsed_position_and_returns_at_end(tab):
    tab.new_game("chess", engine="", human="both")
    for orig, dest in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")]:
        n = int(tab.body("ply"))
        tab.cg_move(orig, dest)
        tab.wait_ply(n + 1)
    tab.page.fill("#multipv", "2")
    tab.page.click("#analyse")
    lines_at = lambda ply: tab.page.wait_for_function(
        f"document.body.dataset.anPly === '{ply}' && document.querySelectorAll('#lines tr.line').length >= 2"
        " && document.querySelectorAll('svg.cg-shapes line').length >= 1",
        timeout=20000,
    )
    lines_at(3)
    first = lambda: tab.page.text_content("#lines tr.line td:last-child").split()[0]
    # Black to move after 3 moves: a black move heads the line.
    assert first() in {"Nc6", "Nf6", "d6", "Qe7", "Qf6", "f6", "d5", "Bd6"}, first()
    # Browse back to the position after 1. e4: the analysis follows it
    # (Black to move there too, without White's knight on f3), with arrows
    # on the browsed board.
    tab.page.click("#moves li[data-ply='1']")
    tab.page.wait_for_function("document.body.dataset.viewing === '1'")
    lines_at(1)
    assert tab.body("analysing") == "true"
    # And to the start: White's first move heads the line.
    tab.page.keyboard.press("Home")
    tab.page.wait_for_function("document.body.dataset.viewing === '0'")
    lines_at(0)
    assert first() in {"e4", "d4", "Nf3", "c4", "e3", "Nc3", "g3"}, first()
    # The eval graph got the browsed position's evaluation.
    assert tab.page.locator("#graph circle[data-ply='0'].known").count() == 1
    # End: back to the game, and the analysis with it.
    tab.page.keyboard.press("End")
    tab.page.wait_for_function("document.body.dataset.viewing === ''")
    lines_at(3)
    assert first() not in {"e4", "d4", "c4"}
    tab.page.click("#stop")
    tab.page.wait_for_function("document.body.dataset.analysing === 'false'")


def _upgrade(url, host=None, origin=None):
    """A WebSocket upgrade request to /ws; returns the HTTP status."""
    import http.client
    import urllib.parse

    u = urllib.parse.urlparse(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    headers = {
        "Host": host or u.netloc,
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    if origin:
        headers["Origin"] = origin
    c.request("GET", "/ws", headers=headers)
    status = c.getresponse().status
    c.close()
    return status


def test_websocket_checks_origin_and_host(server):
    own = server.rstrip("/")
    assert _upgrade(server, origin=own) == 101
    assert _upgrade(server, origin="http://evil.example") == 403
    assert _upgrade(server) == 403  # no Origin: not a page of ours
    assert _upgrade(server, host="evil.example", origin="http://evil.example") == 403
    # Pages and assets need the right Host too (no DNS rebinding).
    import urllib.request

    req = urllib.request.Request(server, headers={"Host": "rebound.example"})
    try:
        urllib.request.urlopen(req, timeout=5)
        status = 200
    except urllib.error.HTTPError as e:
        status = e.code
    assert status == 403
    with urllib.request.urlopen(server + "assets/vendor/VENDOR.md", timeout=5) as r:
        assert b"chessgroundx" in r.read()
    try:
        urllib.request.urlopen(server + "assets/../Cargo.toml", timeout=5)
        status = 200
    except urllib.error.HTTPError as e:
        status = e.code
    assert status == 404


def test_letters_piece_set(tab):
    tab.new_game("xiangqi", engine="", human="both")
    glyph = tab.page.evaluate(
        "getComputedStyle(document.querySelector('cg-board piece.k-piece.white'), '::before').content"
    )
    assert "帥" in glyph
    tab.page.check("#letters")
    letter = tab.page.evaluate(
        "getComputedStyle(document.querySelector('cg-board piece.k-piece.white'), '::before').content"
    )
    assert letter == '"K"'
    tab.shot("xiangqi-letters")
    tab.page.uncheck("#letters")


def test_shogi_mate_search(tab):
    # Gold on 5c, king on 5a, a gold in hand: G*5b mates.
    tab.new_game("shogi", engine="", human="both")
    tab.page.fill("#record", "sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G2r2b2g4s4n4l18p 1")
    old = tab.body("gameId")
    tab.page.click("#load")
    tab.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")
    tab.page.click("#mate")
    tab.page.wait_for_function("document.getElementById('mate-result').dataset.outcome === 'mate'", timeout=20000)
    assert "▲５二金打" in tab.page.text_content("#mate-result")


def test_match_between_two_engines_in_two_tabs(browser, server, tab):
    other = Page(browser, server)
    try:
        tab.new_game("chess", engine="tengen", human="none", tc="", engine2="quick", games=2)
        for t in (tab, other):
            t.page.wait_for_function(
                "document.getElementById('match').dataset.played === '2'", timeout=90000
            )
        text = tab.page.text_content("#match")
        assert text == other.page.text_content("#match")
        assert "Match tengen vs quick" in text and "game 2 of 2" in text
        # The second game had the colours swapped.
        assert "White: quick · Black: tengen" in tab.page.text_content("#players")
        tab.shot("match")
    finally:
        # Leave no match running for the next tests.
        tab.new_game("chess", engine="", human="both")
        other.close()


def test_match_from_an_opening_book(browser, server, tab):
    # The book's first line opens both games of the match, the colours
    # swapped in the second; the book's moves are marked as such.
    tab.page.select_option("#game", "chess")
    tab.page.select_option("#human", "none")
    assert not tab.page.is_hidden("#book-label")
    assert tab.page.eval_on_selector_all("#book option", "e => e.map(o => o.value)") == ["", "lines"]
    tab.page.select_option("#book", "lines")
    line = ["e2e4", "e7e5", "g1f3", "b8c6"]
    try:
        tab.new_game("chess", engine="tengen", human="none", tc="", engine2="quick", games=2)
        assert tab.moves()[:4] == line
        assert tab.page.locator("#moves li.book").count() == 4
        assert "White: tengen · Black: quick" in tab.page.text_content("#players")
        tab.page.wait_for_function("document.getElementById('match').dataset.played === '2'", timeout=90000)
        assert tab.moves()[:4] == line
        assert tab.page.locator("#moves li.book").count() == 4
        assert "White: quick · Black: tengen" in tab.page.text_content("#players")
        # The record says which moves came from the book.
        tab.page.evaluate("delete document.body.dataset.saved")
        tab.page.click("#save")
        tab.page.wait_for_function("document.body.dataset.saved !== undefined")
        assert "1. e4 {book} 1... e5 {book} 2. Nf3 {book} 2... Nc6 {book}" in tab.page.input_value("#record")
    finally:
        tab.page.select_option("#book", "")
        tab.new_game("chess", engine="", human="both")


def _play(tab, moves, width=8, height=8):
    for orig, dest in moves:
        n = int(tab.body("ply"))
        tab.cg_move(orig, dest, width, height)
        tab.wait_ply(n + 1)


def test_variations_in_the_move_list_saved_loaded_promoted_deleted(tab):
    import chess.pgn
    import io

    tab.new_game("chess", engine="", human="both")
    _play(tab, [("e2", "e4"), ("e7", "e5")])
    # Back one move and a different answer: a variation, the main line kept.
    tab.page.keyboard.press("ArrowLeft")
    tab.page.wait_for_function("document.body.dataset.viewing === '1'")
    tab.cg_move("c7", "c5")
    tab.page.wait_for_function("document.body.dataset.variations === '1' && document.body.dataset.viewNode !== ''")
    tab.cg_move("g1", "f3")
    tab.page.wait_for_function("document.body.dataset.variations === '2' && document.body.dataset.viewing === '3'")
    assert tab.moves() == ["e2e4", "e7e5"] and tab.body("ply") == "2"
    assert tab.variations() == ["c7c5", "g1f3"]
    assert tab.page.text_content("#moves li.variations").split() == ["(1…", "c5", "2.", "Nf3)"]
    # The same move again is no new variation; left walks the variation.
    tab.page.keyboard.press("ArrowLeft")
    tab.page.wait_for_function("document.body.dataset.viewing === '2' && document.body.dataset.viewNode !== ''")
    tab.cg_move("g1", "f3")
    tab.page.wait_for_function("document.body.dataset.viewing === '3'")
    assert tab.body("variations") == "2"
    time.sleep(0.3)  # the board's move animation
    tab.shot("variations")
    # The record holds the variation; python-chess reads it back.
    tab.page.keyboard.press("End")
    text = tab.save_text()
    assert "(1... c5 2. Nf3) {aborted: the game goes on} *" in " ".join(text.split()), text
    game = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"]
    after_e4 = game.variations[0]
    assert [v.move.uci() for v in after_e4.variations] == ["e7e5", "c7c5"]
    assert after_e4.variations[1].variations[0].move.uci() == "g1f3"
    # Loaded back: the same main line and variation.
    tab.load_text(text)
    assert tab.moves() == ["e2e4", "e7e5"] and tab.variations() == ["c7c5", "g1f3"]
    # Promote the variation: 1... c5 2. Nf3 is the main line, 1... e5 a
    # variation beside c5; then delete it.
    tab.page.click("#moves .var-move[data-wire='g1f3']")
    tab.page.wait_for_selector("#var-tools:not([hidden])")
    tab.page.click("#promote")
    tab.page.wait_for_function("document.body.dataset.ply === '3'")
    assert tab.moves() == ["e2e4", "c7c5", "g1f3"] and tab.variations() == ["e7e5"]
    tab.page.click("#moves .var-move[data-wire='e7e5']")
    tab.page.wait_for_function("document.body.dataset.viewing === '2' && document.body.dataset.viewNode !== ''")
    tab.page.click("#delete-var")
    tab.page.wait_for_function("document.body.dataset.variations === '0'")
    assert tab.moves() == ["e2e4", "c7c5", "g1f3"]


def test_variations_beside_a_game_against_an_engine(tab):
    # A variation never touches the game: tengen does not answer it, the
    # main line goes on from its end, and it cannot be promoted.
    tab.new_game("chess")
    _play(tab, [("e2", "e4")])
    tab.wait_ply(2)
    tab.page.keyboard.press("Home")
    tab.page.wait_for_function("document.body.dataset.viewing === '0'")
    tab.cg_move("d2", "d4")
    tab.page.wait_for_function("document.body.dataset.variations === '1'")
    time.sleep(0.5)
    assert tab.body("ply") == "2" and tab.body("thinking") == "false"
    tab.page.click("#promote")
    tab.page.wait_for_function("document.getElementById('error').textContent.includes('between people')")
    tab.page.click("#live")
    tab.page.wait_for_function("document.body.dataset.viewing === ''")
    tab.cg_move("g1", "f3")
    tab.wait_ply(4)
    assert tab.moves()[0] == "e2e4" and tab.moves()[2] == "g1f3" and tab.variations() == ["d2d4"]
    # Taking back past the variation's move removes it.
    tab.page.click("#undo")
    tab.page.click("#undo")
    tab.page.wait_for_function("document.body.dataset.ply === '0' && document.body.dataset.variations === '0'")


def test_sgf_and_kif_variations_read_by_outside_libraries(tab):
    import cshogi
    import cshogi.KIF
    from sgfmill import sgf as sgfmill_sgf

    # Go between two people: a stone, then back and another one there.
    tab.new_game("go", engine="", size=9)
    for x, y in [(2, 2), (6, 6), (4, 4)]:
        n = int(tab.body("ply"))
        tab.click_vertex(x, y)
        tab.wait_ply(n + 1)
    tab.page.click("#moves li[data-ply='1']")
    tab.page.wait_for_function("document.body.dataset.viewing === '1'")
    tab.click_vertex(6, 2)
    tab.page.wait_for_function("document.body.dataset.variations === '1'")
    # A pass in the variation too.
    tab.page.click("#pass")
    tab.page.wait_for_function("document.body.dataset.variations === '2'")
    tab.page.keyboard.press("End")
    text = tab.save_text()
    root = sgfmill_sgf.Sgf_game.from_string(text).get_root()
    first = root[0]
    assert first.get_move() == ("b", (6, 2))
    assert [c.get_move() for c in first] == [("w", (2, 6)), ("w", (6, 6))]
    assert first[1][0].get_move() == ("b", None)
    tab.load_text(text)
    assert tab.moves() == ["C7", "G3", "E5"] and tab.variations() == ["G7", "pass"]
    # Shogi: KIF with a 変化 block; cshogi reads the main line.
    tab.new_game("shogi", engine="")
    _play(tab, [("c3", "c4"), ("g7", "g6")], 9, 9)
    tab.page.keyboard.press("ArrowLeft")
    tab.page.wait_for_function("document.body.dataset.viewing === '1'")
    tab.cg_move("b7", "b6", 9, 9)
    tab.page.wait_for_function("document.body.dataset.variations === '1'")
    tab.page.keyboard.press("End")
    text = tab.save_text("kif")
    assert "変化：2手" in text and "   2 ８四歩(83)" in text, text
    kif = cshogi.KIF.Parser.parse_str(text)
    assert [cshogi.move_to_usi(m) for m in kif.moves] == ["7g7f", "3c3d"]
    tab.load_text(text)
    assert tab.moves() == ["7g7f", "3c3d"] and tab.variations() == ["8c8d"]
    # CSA has no variations: the main line only.
    text = tab.save_text("")
    assert text.startswith("V2") and "8384FU" not in text
    tab.page.select_option("#format", "")


def test_handicap_and_set_up_records_load(tab):
    import cshogi
    import cshogi.KIF
    import cshogi.CSA
    from sgfmill import sgf as sgfmill_sgf

    # KIF with a handicap and no diagram: the giver (gote) moves first.
    tab.load_text("手合割：角落ち\n手数----指手---------消費時間--\n   1 ６二銀(71)\n   2 ７六歩(77)\n")
    assert tab.body("game") == "shogi" and tab.moves() == ["7a6b", "7g7f"]
    tab.page.wait_for_function("document.querySelectorAll('cg-board piece').length === 39")
    for fmt, parser in [("kif", cshogi.KIF.Parser), ("", cshogi.CSA.Parser)]:
        text = tab.save_text(fmt)
        parsed = parser.parse_str(text)
        parsed = parsed[0] if isinstance(parsed, list) else parsed
        assert parsed.sfen.split()[:2] == ["lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", "w"], text
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == ["7a6b", "7g7f"]
    tab.page.select_option("#format", "")
    # CSA with PI taking pieces off (two-piece handicap).
    tab.load_text("V2.2\nPI82HI22KA\n-\n-3334FU\n+7776FU\n")
    assert tab.body("game") == "shogi" and tab.moves() == ["3c3d", "7g7f"]
    tab.page.wait_for_function("document.querySelectorAll('cg-board piece').length === 38")
    # SGF with handicap stones: played as the first moves, White to move.
    tab.load_text("(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg])")
    assert tab.body("game") == "go" and tab.moves() == ["C7", "pass", "G3"]
    tab.page.wait_for_function("document.querySelectorAll('.shudan-vertex.shudan-sign_1').length === 2")
    tab.click_vertex(4, 4)
    tab.wait_ply(4)
    root = sgfmill_sgf.Sgf_game.from_string(tab.save_text()).get_main_sequence()
    # (the arena ends the record with a node of its own)
    assert [n.get_move() for n in root[1:5]] == [("b", (6, 2)), ("w", None), ("b", (2, 6)), ("w", (4, 4))]
    # Gomoku set-up stones.
    tab.load_text("(;GM[4]SZ[15]AB[hh][ii]AW[hi])")
    assert tab.body("game") == "gomoku" and tab.moves() == ["7,7", "7,8", "8,8"]


def test_round_robin_of_three_engines(browser, server, tab):
    # Three engines, one game a pair: tengen-quick, tengen-quick2,
    # quick-quick2, each pair's standing in the table, seen in two tabs.
    other = Page(browser, server)
    try:
        tab.page.select_option("#game", "chess")
        tab.page.select_option("#human", "none")
        tab.page.select_option("#engine2", "quick")
        assert not tab.page.is_hidden("#more-label")
        tab.page.select_option("#more", ["quick2"])
        tab.new_game("chess", engine="tengen", human="none", tc="", engine2="quick")
        tab.page.wait_for_selector("#rr-table:not([hidden])")
        assert "White: tengen · Black: quick" in tab.page.text_content("#players")
        tab.page.wait_for_function("document.getElementById('match').dataset.played === '3'", timeout=120000)
        for t in (tab, other):
            t.page.wait_for_function("document.getElementById('match').dataset.played === '3'")
            rows = t.page.eval_on_selector_all(
                "#rr-table tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
            )
            assert [r[0] for r in rows] == ["tengen vs quick", "tengen vs quick2", "quick vs quick2"]
            # One game each: a win, a loss or a draw from the first's view.
            assert all(sum(int(x) for x in r[1:4]) == 1 for r in rows), rows
        assert "game 3 of 3" in tab.page.text_content("#match-text")
        assert "quick" in tab.page.text_content("#players") and "quick2" in tab.page.text_content("#players")
    finally:
        tab.page.select_option("#more", [])
        tab.new_game("chess", engine="", human="both")
        other.close()
