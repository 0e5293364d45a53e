//! A FEN and moves from a hostile GUI: parse, validate, play whatever is
//! accepted, and print it back; nothing may panic, and an accepted FEN
//! must survive a round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_chess::Board;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(2, '|');
    let fen = parts.next().unwrap_or("");
    let moves = parts.next().unwrap_or("");
    let Ok(mut board) = Board::from_fen(fen) else {
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
});
