"""Records of games from a set-up position, saved and loaded back through
the browser GUI (the server and page helpers of tests/test_gui.py): a
chess FEN (PGN's `[SetUp]`/`[FEN]`) and a shogi SFEN with gote to move
and pieces in hand (CSA's `P1`..`P9` rows, hands and side; KIF's board
diagram with `後手番`)."""
import json

from test_gui import Page, _save_and_load, browser, server  # noqa: F401  (fixtures)


def load_text(tab, text):
    tab.page.fill("#record", text)
    old = tab.body("gameId")
    tab.page.click("#load")
    tab.page.wait_for_function(f"document.body.dataset.gameId !== {json.dumps(old)}")


def test_set_up_positions_saved_and_loaded_back_equal(browser, server):  # noqa: F811
    tab = Page(browser, server)
    try:
        # Chess: PGN with the start position in its tags.
        fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        load_text(tab, fen)
        tab.cg_move("e2", "e4")
        tab.wait_ply(1)
        tab.cg_move("e8", "d8")
        tab.wait_ply(2)
        board = tab.fen()
        before, after, text = _save_and_load(tab)
        assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text, text
        assert before == after == ["e2e4", "e8d8"]
        assert tab.fen() == board

        # Shogi from an SFEN: gote to move, a bishop in each hand.
        sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1SG4R1/LN2KGSNL w Bb 1"
        load_text(tab, sfen)
        assert tab.body("game") == "shogi"
        tab.cg_move("i7", "i6", 9, 9)  # 1c1d
        tab.wait_ply(1)
        tab.cg_move("c4", "c5", 9, 9)  # 7f7e
        tab.wait_ply(2)
        board = tab.fen()
        before, after, text = _save_and_load(tab)
        assert before == after == ["1c1d", "7f7e"], text
        assert "P2 * -HI *  *  *  * -KI-GI * \n" in text and "P+00KA\nP-00KA\n-\n" in text, text
        assert tab.fen() == board
        before, after, text = _save_and_load(tab, "kif")
        assert before == after == ["1c1d", "7f7e"], text
        assert "手合割" not in text and "後手の持駒：角\n" in text and "先手の持駒：角\n後手番\n" in text, text
        assert "|v香v桂v銀v金v玉 ・ ・v桂v香|一\n" in text, text
        assert tab.fen() == board
        tab.page.select_option("#format", "")
    finally:
        tab.close()
