//! Move notation: ICCS (UCCI, ranks 0..9, `h2e2`) and the UCI style that
//! Fairy-Stockfish and xiangqi GUIs use over UCI (ranks 1..10, `h3e3`).

use crate::board::Board;
use crate::types::{Move, Square};

/// Which way ranks are numbered on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// Ranks 0..9 from Red's side: UCCI, ICCS.
    #[default]
    Iccs,
    /// Ranks 1..10 from Red's side: UCI for xiangqi (Fairy-Stockfish).
    Uci,
}

impl Notation {
    fn base(self) -> u8 {
        match self {
            Notation::Iccs => 0,
            Notation::Uci => 1,
        }
    }
}

/// Reads a point (`e0` with `base` 0, `e1` with `base` 1), either case.
pub fn parse_square(text: &str, base: u8) -> Option<Square> {
    let bytes = text.as_bytes();
    let file = bytes.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digits = text.get(1..)?;
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    let rank = rank.checked_sub(base)?;
    Square::new(file - b'a', rank)
}

/// Splits `h2e2` / `a10a9` into two points, without regard to legality.
pub fn parse_move_text(text: &str, notation: Notation) -> Option<Move> {
    let text = text.trim();
    if !text.is_ascii() {
        return None;
    }
    // The second point starts at the second letter.
    let second = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())?
        .0;
    let from = parse_square(&text[..second], notation.base())?;
    let to = parse_square(&text[second..], notation.base())?;
    if from == to {
        return None;
    }
    Some(Move::new(from, to))
}

/// Reads a move and checks that it is legal in `board`.
pub fn parse_move(board: &Board, text: &str, notation: Notation) -> Result<Move, String> {
    let m = parse_move_text(text, notation).ok_or_else(|| format!("'{text}' is not a move"))?;
    if board.is_legal(m) {
        Ok(m)
    } else {
        Err(format!("'{text}' is not a legal move in {}", board.fen()))
    }
}

/// Writes a move in the given notation.
pub fn format_move(m: Move, notation: Notation) -> String {
    let b = notation.base();
    format!(
        "{}{}{}{}",
        (b'a' + m.from.file()) as char,
        m.from.rank() + b,
        (b'a' + m.to.file()) as char,
        m.to.rank() + b
    )
}

/// Plays a list of moves on a copy of `board`: all of them, or none (the
/// error names the first bad one).
pub fn play_moves<'a>(
    board: &Board,
    moves: impl IntoIterator<Item = &'a str>,
    notation: Notation,
) -> Result<Board, String> {
    let mut b = board.clone();
    for (i, text) in moves.into_iter().enumerate() {
        let m = parse_move(&b, text, notation).map_err(|e| format!("move {}: {e}", i + 1))?;
        b.make(m);
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations() {
        let b = Board::startpos();
        let m = parse_move(&b, "h2e2", Notation::Iccs).unwrap();
        assert_eq!(format_move(m, Notation::Uci), "h3e3");
        assert_eq!(parse_move(&b, "H3E3", Notation::Uci).unwrap(), m);
        assert_eq!(m.to_string(), "h2e2");
        assert!(parse_move(&b, "h2e3", Notation::Iccs).is_err());
        assert!(parse_move(&b, "a0a10", Notation::Iccs).is_err());
        let rook = parse_move_text("a10a9", Notation::Uci).unwrap();
        assert_eq!(rook.to_string(), "a9a8");
        for bad in [
            "", "h", "h2", "h2e", "j2e2", "h2e2x", "hh22", "h-1e2", "é2e2", "h2h2",
        ] {
            assert!(parse_move_text(bad, Notation::Iccs).is_none(), "{bad}");
        }
    }

    #[test]
    fn play_moves_is_all_or_nothing() {
        let b = Board::startpos();
        let err = play_moves(&b, ["h2e2", "h9g7", "e2e9"], Notation::Iccs).unwrap_err();
        assert!(err.starts_with("move 3"), "{err}");
        let after = play_moves(&b, ["h2e2", "h9g7"], Notation::Iccs).unwrap();
        assert_eq!(after.history().len(), 2);
    }
}
