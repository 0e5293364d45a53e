//! What CECP needs from a game beyond the alpha-beta session: moves,
//! positions and results in XBoard's own notation.
//!
//! - Chess: coordinates (`e2e4`, `e7e8q`); castling as `e1g1` in normal
//!   chess and as `O-O`/`O-O-O` in Fischer random (XBoard's default; the
//!   king-takes-rook form is read too). SAN is read as a courtesy.
//! - Xiangqi: XBoard's files a-i and ranks 0-9 from Red's side, which are
//!   ICCS coordinates (`h2e2`); FEN with XBoard's letters (`H`, `E`) or
//!   the usual ones (`N`, `B`).
//! - Shogi: XBoard's 9x9 board with files a-i from Sente's left and ranks
//!   1-9 from Sente's side (USI `7g7f` is `c3c4`), promotion `+`, an
//!   explicit non-promotion `=`, drops `P@e5`; FEN as XBoard writes it
//!   (SFEN's board, holdings in brackets, `w` for Sente to move). USI
//!   moves and SFEN are read too (GNU Shogi's notation).

use crate::games::chess::ChessGame;
use crate::games::shogi::ShogiGame;
use crate::games::xiangqi::XiangqiGame;
use crate::session::{AbGame, Flags};
use tengen_protocol::cecp::GameResult;
use tengen_search::Position;

pub type Move<G> = <<G as AbGame>::Pos as Position>::Move;

/// A game as CECP speaks it.
pub trait CecpGame: AbGame {
    /// Board size and the number of the first rank, for `edit`.
    const FILES: usize;
    const RANKS: usize;
    const FIRST_RANK: u32;

    /// Reads a move in XBoard's notation; legal moves only.
    fn parse_wire(pos: &Self::Pos, text: &str, chess960: bool) -> Result<Move<Self>, String>;
    fn wire_name(pos: &Self::Pos, m: Move<Self>, chess960: bool) -> String;
    /// Reads a `setboard` FEN in XBoard's dialect.
    fn from_wire_fen(fen: &str, chess960: bool) -> Result<Self::Pos, String>;
    /// The board part of the position's FEN (for `edit`), rows from the
    /// top, files from a.
    fn placement(pos: &Self::Pos) -> String;
    /// A whole FEN in XBoard's dialect for a board built in `edit`.
    fn edit_fen(placement: &str, first_to_move: bool) -> String;
    /// The result by the rules, with XBoard's comment, once the game is
    /// over.
    fn outcome(pos: &Self::Pos) -> Option<(GameResult, String)>;
}

fn flags(chess960: bool) -> Flags {
    Flags {
        chess960,
        uci_ranks: false,
    }
}

impl CecpGame for ChessGame {
    const FILES: usize = 8;
    const RANKS: usize = 8;
    const FIRST_RANK: u32 = 1;

    fn parse_wire(
        pos: &tengen_chess::Board,
        text: &str,
        chess960: bool,
    ) -> Result<tengen_chess::Move, String> {
        let castle = match text {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle {
            return pos
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side)
                .ok_or_else(|| format!("castling {text} is not legal here"));
        }
        let coord = pos
            .parse_uci_move(text, chess960)
            .or_else(|e| {
                // XBoard may send e1g1 in Fischer random for a castling
                // that king-to-destination writes unambiguously.
                if chess960 {
                    pos.parse_uci_move(text, false)
                } else {
                    Err(e)
                }
            })
            .map_err(|e| e.to_string());
        coord.or_else(|e| pos.parse_san(text).map_err(|_| e))
    }

    fn wire_name(pos: &tengen_chess::Board, m: tengen_chess::Move, chess960: bool) -> String {
        if chess960 && m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        ChessGame::move_name(pos, m, flags(false))
    }

    fn from_wire_fen(fen: &str, chess960: bool) -> Result<tengen_chess::Board, String> {
        ChessGame::from_fen(fen, flags(chess960))
    }

    fn placement(pos: &tengen_chess::Board) -> String {
        first_field(&pos.to_fen(false))
    }

    fn edit_fen(placement: &str, first_to_move: bool) -> String {
        // Castling rights where king and rook stand on their squares.
        let rows: Vec<&str> = placement.split('/').collect();
        let at = |row: usize, file: usize| -> Option<char> {
            let mut f = 0usize;
            for c in rows.get(row)?.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                } else {
                    if f == file {
                        return Some(c);
                    }
                    f += 1;
                }
            }
            None
        };
        let mut castling = String::new();
        for (row, king, rook, rights) in [(7, 'K', 'R', "KQ"), (0, 'k', 'r', "kq")] {
            if at(row, 4) == Some(king) {
                let mut r = rights.chars();
                if at(row, 7) == Some(rook) {
                    castling.extend(r.next());
                } else {
                    r.next();
                }
                if at(row, 0) == Some(rook) {
                    castling.extend(r.next());
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if first_to_move { 'w' } else { 'b' };
        format!("{placement} {side} {castling} - 0 1")
    }

    fn outcome(pos: &tengen_chess::Board) -> Option<(GameResult, String)> {
        use tengen_chess::{Color, DrawReason, Reason};
        let o = pos.outcome()?;
        Some(match (o.winner, o.reason) {
            (Some(Color::White), _) => (GameResult::WhiteWins, "White mates".into()),
            (Some(Color::Black), _) => (GameResult::BlackWins, "Black mates".into()),
            (None, Reason::Draw(d)) => (
                GameResult::Draw,
                match d {
                    DrawReason::Stalemate => "Stalemate",
                    DrawReason::FiftyMoveRule => "Draw by fifty move rule",
                    DrawReason::ThreefoldRepetition => "Draw by repetition",
                    DrawReason::InsufficientMaterial => "Draw by insufficient material",
                }
                .into(),
            ),
            (None, Reason::Checkmate) => (GameResult::Draw, "Draw".into()),
        })
    }
}

fn first_field(fen: &str) -> String {
    fen.split_whitespace().next().unwrap_or("").to_string()
}

impl CecpGame for XiangqiGame {
    const FILES: usize = 9;
    const RANKS: usize = 10;
    const FIRST_RANK: u32 = 0;

    fn parse_wire(
        pos: &tengen_xiangqi::Board,
        text: &str,
        _chess960: bool,
    ) -> Result<tengen_xiangqi::Move, String> {
        XiangqiGame::parse_move(pos, text, flags(false))
    }

    fn wire_name(pos: &tengen_xiangqi::Board, m: tengen_xiangqi::Move, _chess960: bool) -> String {
        XiangqiGame::move_name(pos, m, flags(false))
    }

    fn from_wire_fen(fen: &str, _chess960: bool) -> Result<tengen_xiangqi::Board, String> {
        XiangqiGame::from_fen(fen, flags(false))
    }

    fn placement(pos: &tengen_xiangqi::Board) -> String {
        first_field(&pos.fen())
    }

    fn edit_fen(placement: &str, first_to_move: bool) -> String {
        let side = if first_to_move { 'w' } else { 'b' };
        format!("{placement} {side} - - 0 1")
    }

    fn outcome(pos: &tengen_xiangqi::Board) -> Option<(GameResult, String)> {
        use tengen_xiangqi::{Color, Outcome};
        match pos.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win(c, r) => {
                let (res, who) = match c {
                    Color::Red => (GameResult::WhiteWins, "Red"),
                    Color::Black => (GameResult::BlackWins, "Black"),
                };
                Some((res, format!("{who} wins by {}", r.name())))
            }
            Outcome::Draw(r) => Some((GameResult::Draw, format!("Draw by {}", r.name()))),
        }
    }
}

/// A USI square (`7g`) in XBoard's coordinates (`c3`), or the reverse.
fn usi_to_xb_square(file: u8, rank: u8) -> Option<String> {
    let f = (file as char)
        .to_digit(10)
        .filter(|d| (1..=9).contains(d))?;
    if !(b'a'..=b'i').contains(&rank) {
        return None;
    }
    let col = (b'a' + (9 - f) as u8) as char;
    let row = 9 - (rank - b'a');
    Some(format!("{col}{row}"))
}

fn xb_to_usi_square(col: u8, row: u8) -> Option<String> {
    if !(b'a'..=b'i').contains(&col) || !(b'1'..=b'9').contains(&row) {
        return None;
    }
    let file = 9 - (col - b'a');
    let rank = (b'a' + (9 - (row - b'0'))) as char;
    Some(format!("{file}{rank}"))
}

/// A USI move (`7g7f+`, `P*5e`) in XBoard's shogi notation.
pub fn usi_to_xboard(usi: &str) -> Option<String> {
    let b = usi.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        return Some(format!(
            "{}@{}",
            b[0] as char,
            usi_to_xb_square(b[2], b[3])?
        ));
    }
    if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = usi_to_xb_square(b[0], b[1])?;
        let to = usi_to_xb_square(b[2], b[3])?;
        let promo = if b.len() == 5 { "+" } else { "" };
        return Some(format!("{from}{to}{promo}"));
    }
    None
}

/// XBoard's shogi notation (`c3c4+`, `c3c4=`, `P@e5`) as a USI move.
pub fn xboard_to_usi(xb: &str) -> Option<String> {
    let b = xb.as_bytes();
    if b.len() == 4 && b[1] == b'@' {
        return Some(format!(
            "{}*{}",
            b[0] as char,
            xb_to_usi_square(b[2], b[3])?
        ));
    }
    let (body, promo) = match b.len() {
        4 => (b, ""),
        5 if b[4] == b'+' => (&b[..4], "+"),
        5 if b[4] == b'=' => (&b[..4], ""),
        _ => return None,
    };
    let from = xb_to_usi_square(body[0], body[1])?;
    let to = xb_to_usi_square(body[2], body[3])?;
    Some(format!("{from}{to}{promo}"))
}

/// XBoard's shogi FEN (`board[holdings] w ...`) as an SFEN; `None` when
/// the text is not in XBoard's form (no holdings brackets).
pub fn xboard_fen_to_sfen(fen: &str) -> Option<Result<String, String>> {
    let open = fen.find('[')?;
    let close = fen[open..].find(']').map(|i| i + open);
    let Some(close) = close else {
        return Some(Err("holdings bracket not closed".into()));
    };
    let board = fen[..open].trim();
    let holdings = &fen[open + 1..close];
    let rest: Vec<&str> = fen[close + 1..].split_whitespace().collect();
    let side = match rest.first() {
        Some(&"w") | None => 'b',
        Some(&"b") => 'w',
        Some(s) => return Some(Err(format!("side to move '{s}' is not w or b"))),
    };
    let mut hand = String::new();
    let mut seen: Vec<(char, u32)> = Vec::new();
    for c in holdings.chars().filter(|&c| c != '-') {
        if !c.is_ascii_alphabetic() {
            return Some(Err(format!("'{c}' in the holdings is not a piece")));
        }
        match seen.iter_mut().find(|(p, _)| *p == c) {
            Some((_, n)) => *n += 1,
            None => seen.push((c, 1)),
        }
    }
    // Sente's pieces (upper case) first, as SFEN writes them.
    seen.sort_by_key(|(c, _)| c.is_ascii_lowercase());
    for (c, n) in seen {
        if n > 1 {
            hand.push_str(&n.to_string());
        }
        hand.push(c);
    }
    if hand.is_empty() {
        hand.push('-');
    }
    Some(Ok(format!("{board} {side} {hand} 1")))
}

impl CecpGame for ShogiGame {
    const FILES: usize = 9;
    const RANKS: usize = 9;
    const FIRST_RANK: u32 = 1;

    fn parse_wire(
        pos: &tengen_shogi::Game,
        text: &str,
        _chess960: bool,
    ) -> Result<tengen_shogi::Move, String> {
        // USI as GNU Shogi writes it (a digit first, or a `*` drop).
        let usi = if text.starts_with(|c: char| c.is_ascii_digit()) || text.contains('*') {
            text.to_string()
        } else {
            xboard_to_usi(text)
                .ok_or_else(|| format!("'{text}' is not a shogi move (like c3c4, c3c4+, P@e5)"))?
        };
        ShogiGame::parse_move(pos, &usi, flags(false))
    }

    fn wire_name(pos: &tengen_shogi::Game, m: tengen_shogi::Move, _chess960: bool) -> String {
        let usi = ShogiGame::move_name(pos, m, flags(false));
        usi_to_xboard(&usi).unwrap_or(usi)
    }

    fn from_wire_fen(fen: &str, _chess960: bool) -> Result<tengen_shogi::Game, String> {
        match xboard_fen_to_sfen(fen) {
            Some(sfen) => ShogiGame::from_fen(&sfen?, flags(false)),
            None => ShogiGame::from_fen(fen, flags(false)),
        }
    }

    fn placement(pos: &tengen_shogi::Game) -> String {
        first_field(&pos.board().to_sfen())
    }

    fn edit_fen(placement: &str, first_to_move: bool) -> String {
        let side = if first_to_move { 'w' } else { 'b' };
        format!("{placement}[-] {side} 0 1")
    }

    fn outcome(pos: &tengen_shogi::Game) -> Option<(GameResult, String)> {
        use tengen_shogi::{Color, EndReason, Outcome};
        match pos.outcome()? {
            Outcome::Draw => Some((GameResult::Draw, "Sennichite".into())),
            Outcome::Win { winner, reason } => {
                let (res, who) = match winner {
                    Color::Black => (GameResult::WhiteWins, "Sente"),
                    Color::White => (GameResult::BlackWins, "Gote"),
                };
                let how = match reason {
                    EndReason::Checkmate => "mates",
                    EndReason::PerpetualCheck => "wins by perpetual check",
                };
                Some((res, format!("{who} {how}")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogi_coordinates_follow_xboard() {
        // XBoard's AlphaRank: USI file 9 is file a, rank a is rank 9.
        assert_eq!(usi_to_xboard("7g7f").as_deref(), Some("c3c4"));
        assert_eq!(usi_to_xboard("8h2b+").as_deref(), Some("b2h8+"));
        assert_eq!(usi_to_xboard("P*5e").as_deref(), Some("P@e5"));
        assert_eq!(usi_to_xboard("1a1b").as_deref(), Some("i9i8"));
        assert_eq!(xboard_to_usi("c3c4").as_deref(), Some("7g7f"));
        assert_eq!(xboard_to_usi("b2h8+").as_deref(), Some("8h2b+"));
        assert_eq!(xboard_to_usi("b2h8=").as_deref(), Some("8h2b"));
        assert_eq!(xboard_to_usi("P@e5").as_deref(), Some("P*5e"));
        assert_eq!(xboard_to_usi("j1a1"), None);
        assert_eq!(xboard_to_usi("a0a1"), None);
        for usi in ["7g7f", "2b8h+", "G*1a", "9i9a"] {
            let xb = usi_to_xboard(usi).unwrap_or_default();
            assert_eq!(xboard_to_usi(&xb).as_deref(), Some(usi), "{xb}");
        }
    }

    #[test]
    fn shogi_fen_from_xboard() {
        let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1";
        assert_eq!(
            xboard_fen_to_sfen(fen),
            Some(Ok(
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into()
            ))
        );
        assert_eq!(
            xboard_fen_to_sfen("9/9/9/9/4k4/9/9/9/4K4[PPgp] b 0 1"),
            Some(Ok("9/9/9/9/4k4/9/9/9/4K4 w 2Pgp 1".into()))
        );
        assert_eq!(xboard_fen_to_sfen("lnsgk/9 b - 1"), None);
        assert!(ShogiGame::from_wire_fen(fen, false).is_ok());
        assert!(ShogiGame::from_wire_fen("9/9[x", false).is_err());
        let g = ShogiGame::startpos();
        let m = ShogiGame::parse_wire(&g, "c3c4", false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ShogiGame::wire_name(&g, m, false), "c3c4");
        assert!(ShogiGame::parse_wire(&g, "7g7f", false).is_ok());
        assert!(ShogiGame::parse_wire(&g, "c3c5", false).is_err());
    }

    #[test]
    fn chess_castling_and_edit_fen() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let b = ChessGame::from_wire_fen(fen, false).unwrap_or_else(|e| panic!("{e}"));
        let oo = ChessGame::parse_wire(&b, "O-O", false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ChessGame::wire_name(&b, oo, false), "e1g1");
        assert_eq!(ChessGame::wire_name(&b, oo, true), "O-O");
        let ooo = ChessGame::parse_wire(&b, "e1c1", false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ChessGame::wire_name(&b, ooo, true), "O-O-O");
        assert!(ChessGame::parse_wire(&b, "Nf3", false).is_err());
        assert!(ChessGame::parse_wire(&b, "Kf1", false).is_ok());
        assert_eq!(
            ChessGame::edit_fen("r3k3/8/8/8/8/8/8/4K2R", false),
            "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1"
        );
        assert_eq!(ChessGame::placement(&b), "r3k2r/8/8/8/8/8/8/R3K2R");
    }
}
