//! The position formats: chess FEN (X-FEN and Shredder-FEN), xiangqi FEN
//! and shogi SFEN, each followed by moves. Input: `POSITION|MOVES`.

use tengen_xiangqi::notation::{self as xq_notation, Notation};

/// Splits `POSITION|MOVES` (no `|`: all position, no moves).
fn position_and_moves(data: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(2, '|');
    let position = parts.next().unwrap_or("").to_string();
    let moves = parts.next().unwrap_or("").to_string();
    (position, moves)
}

/// A FEN and moves from a hostile GUI: parse, validate, play whatever is
/// accepted, and print it back; nothing may panic, and an accepted FEN
/// must survive a round trip, as must the FEN of the position reached.
pub fn chess_fen(data: &[u8]) {
    use tengen_chess::Board;
    let (fen, moves) = position_and_moves(data);
    let Ok(mut board) = Board::from_fen(&fen) else {
        return;
    };
    let printed = board.to_fen(true);
    let again = Board::from_fen(&printed).expect("printed FEN must parse");
    assert_eq!(again.to_fen(true), printed);
    for m in moves.split_whitespace().take(64) {
        for chess960 in [false, true] {
            if let Ok(mv) = board.parse_uci_move(m, chess960) {
                let _ = board.to_san(mv);
                board.play(mv);
                break;
            }
        }
        let _ = board.outcome();
    }
    // The position reached prints to a FEN that reads back to it.
    let now = board.to_fen(true);
    let back = Board::from_fen(&now)
        .unwrap_or_else(|e| panic!("FEN '{now}' of a played position refused: {e}"));
    assert_eq!(back.to_fen(true), now);
}

/// A xiangqi FEN and moves, as UCCI's `position fen ... moves ...` and
/// `tengen legal --game xiangqi` read them. Nothing may panic; an accepted
/// FEN prints back to a FEN that reads to the same position (same FEN
/// text, same hash key), as does the FEN of the position reached after the
/// moves; every legal move prints in ICCS and in the UCI
/// style and reads back as the same move; a move played and taken back
/// leaves the position as it was; moves are played while legal (ICCS
/// first, then the UCI style) and the game's outcome is asked after each.
pub fn xiangqi_fen(data: &[u8]) {
    use tengen_xiangqi::board::Board;
    let (fen, moves) = position_and_moves(data);
    let Ok(mut board) = Board::from_fen(&fen) else {
        return;
    };
    let printed = board.fen();
    let again = Board::from_fen(&printed)
        .unwrap_or_else(|e| panic!("printed FEN '{printed}' (from '{fen}') refused: {e}"));
    assert_eq!(again.fen(), printed, "from '{fen}'");
    assert_eq!(again.key(), board.key(), "hash of '{printed}'");
    let mut played = 0;
    for text in moves.split_whitespace().take(64) {
        let mv = xq_notation::parse_move(&board, text, Notation::Iccs)
            .or_else(|_| xq_notation::parse_move(&board, text, Notation::Uci));
        let Ok(mv) = mv else {
            continue;
        };
        board.make(mv);
        played += 1;
        let _ = board.outcome();
    }
    // The position reached prints to a FEN that reads back to it.
    let now = board.fen();
    let back = Board::from_fen(&now)
        .unwrap_or_else(|e| panic!("FEN '{now}' of a played position refused: {e}"));
    assert_eq!(back.fen(), now);
    let mut legal = Vec::new();
    board.legal_moves(&mut legal);
    let before = (board.fen(), board.key());
    for &mv in &legal {
        for notation in [Notation::Iccs, Notation::Uci] {
            let name = xq_notation::format_move(mv, notation);
            assert_eq!(
                xq_notation::parse_move(&board, &name, notation),
                Ok(mv),
                "{name} in {}",
                before.0
            );
        }
        board.make(mv);
        let _ = board.in_check();
        board.unmake_last();
        assert_eq!((board.fen(), board.key()), before, "after {mv} and back");
    }
    // Taking back every move played returns to the FEN read.
    for _ in 0..played {
        board.unmake_last();
    }
    assert_eq!(board.fen(), printed, "after taking back {played} moves");
}

/// A shogi SFEN and USI moves, as USI's `position sfen ... moves ...` and
/// `tengen legal --game shogi` read them. Nothing may panic; an accepted
/// SFEN prints back to an SFEN that reads to the same position (same text,
/// same hash key); moves are played while legal, with the game's outcome
/// and the entering-king declaration asked after each; every legal move
/// prints in USI and reads back as the same move.
pub fn shogi_sfen(data: &[u8]) {
    use tengen_shogi::{Board, Game};
    let (sfen, moves) = position_and_moves(data);
    let Ok(board) = Board::from_sfen(&sfen) else {
        return;
    };
    let printed = board.to_sfen();
    let again = Board::from_sfen(&printed)
        .unwrap_or_else(|e| panic!("printed SFEN '{printed}' (from '{sfen}') refused: {e}"));
    assert_eq!(again.to_sfen(), printed, "from '{sfen}'");
    assert_eq!(again.key(), board.key(), "hash of '{printed}'");
    let mut game = Game::new(board);
    for text in moves.split_whitespace().take(64) {
        let Ok(mv) = game.board().parse_move(text) else {
            continue;
        };
        game.play(mv);
        let _ = game.outcome();
        let _ = game.board().can_declare_win();
    }
    let mut legal = Vec::new();
    game.board().legal_moves(&mut legal);
    for &mv in &legal {
        let name = mv.to_string();
        assert_eq!(
            game.board().parse_move(&name),
            Ok(mv),
            "{name} in {}",
            game.board().to_sfen()
        );
    }
    // The position reached prints to an SFEN that reads back to it.
    let now = game.board().to_sfen();
    let back = Board::from_sfen(&now)
        .unwrap_or_else(|e| panic!("SFEN '{now}' of a played position refused: {e}"));
    assert_eq!(back.to_sfen(), now);
}
