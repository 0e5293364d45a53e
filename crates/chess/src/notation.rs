//! Moves as text: UCI long algebraic (with Chess960 king-takes-rook
//! castling) and SAN.

use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::types::{PieceKind, Square};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the expected notation.
    Syntax(String),
    /// Well-formed, but no legal move matches; the text says why.
    Illegal { text: String, reason: String },
    /// SAN that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "syntax error: {s}"),
            MoveError::Illegal { text, reason } => write!(f, "illegal move {text}: {reason}"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

fn piece_name(k: PieceKind) -> &'static str {
    match k {
        PieceKind::Pawn => "pawn",
        PieceKind::Knight => "knight",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::Queen => "queen",
        PieceKind::King => "king",
    }
}

impl Board {
    /// UCI text of a move: castling as the king's step to its target (when
    /// that is at least two squares; king-takes-rook otherwise), or as
    /// king-takes-rook when `chess960`.
    pub fn move_to_uci(&self, m: Move, chess960: bool) -> String {
        if m == Move::NULL {
            return "0000".to_string();
        }
        // Outside Chess960 mode castling is the king's step to its
        // target, unless that step is one square or none (a king beside
        // or on its target, in an X-FEN): that name would be a plain king
        // move or no move, so such a castle is written king-takes-rook.
        let to = match Board::castle_targets(m.from(), m.to()).0 {
            target
                if m.is_castle() && !chess960 && target.file().abs_diff(m.from().file()) >= 2 =>
            {
                target
            }
            _ => m.to(),
        };
        let mut s = format!("{}{}", m.from(), to);
        if let Some(p) = m.promotion_piece() {
            s.push(p.letter());
        }
        s
    }

    /// Reads a UCI move; only legal moves are accepted.
    pub fn parse_uci_move(&self, s: &str, chess960: bool) -> Result<Move, MoveError> {
        let text = s.trim();
        let b = text.as_bytes();
        if !(b.len() == 4 || b.len() == 5) || !text.is_ascii() {
            return Err(MoveError::Syntax(format!(
                "'{text}' is not a UCI move like e2e4 or e7e8q"
            )));
        }
        let (Some(from), Some(to)) = (Square::parse(&text[0..2]), Square::parse(&text[2..4]))
        else {
            return Err(MoveError::Syntax(format!(
                "'{text}' does not name two squares"
            )));
        };
        let promo = if b.len() == 5 {
            match PieceKind::from_letter(b[4] as char) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => {
                    return Err(MoveError::Syntax(format!(
                        "'{}' in '{text}' is not a promotion piece (n, b, r, q)",
                        b[4] as char
                    )))
                }
            }
        } else {
            None
        };
        let legal = self.legal_moves();
        let wanted = text.to_ascii_lowercase();
        if let Some(m) = legal
            .iter()
            .find(|&&m| self.move_to_uci(m, chess960) == wanted)
        {
            return Ok(*m);
        }
        // Outside Chess960 mode, king-takes-rook is still unambiguous.
        if !chess960 && promo.is_none() {
            if let Some(m) = legal
                .iter()
                .find(|m| m.is_castle() && m.from() == from && m.to() == to)
            {
                return Ok(*m);
            }
        }
        Err(MoveError::Illegal {
            text: text.to_string(),
            reason: self.why_illegal(from, to, promo, &legal),
        })
    }

    fn why_illegal(
        &self,
        from: Square,
        to: Square,
        promo: Option<PieceKind>,
        legal: &[Move],
    ) -> String {
        let Some(p) = self.piece_at(from) else {
            return format!("no piece on {from}");
        };
        if p.color != self.side {
            return format!(
                "the {} on {from} belongs to the side not to move",
                piece_name(p.kind)
            );
        }
        let same_squares: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                m.from() == from
                    && (m.to() == to
                        || self.move_to_uci(**m, false).get(2..4) == Some(to.to_string().as_str()))
            })
            .collect();
        if !same_squares.is_empty() {
            return match promo {
                None if same_squares.iter().any(|m| m.promotion_piece().is_some()) => {
                    "a promotion needs a piece letter (e.g. e7e8q)".to_string()
                }
                Some(_) if same_squares.iter().all(|m| m.promotion_piece().is_none()) => {
                    "only a pawn reaching the last rank promotes".to_string()
                }
                _ => "castling is written as king takes rook in Chess960 (and e1g1 otherwise)"
                    .to_string(),
            };
        }
        if self.is_check() {
            return "the king is in check and this does not answer it".to_string();
        }
        // Pseudo-legal but leaving the king attacked?
        let mut copy = self.clone();
        copy.put_unchecked_move(from, to);
        if copy.attacked_by(
            self.side.flip(),
            copy.king_square(self.side),
            copy.occupied(),
        ) {
            return "it would leave the king in check".to_string();
        }
        format!("a {} on {from} cannot move to {to}", piece_name(p.kind))
    }

    /// Moves a piece without rules, only to ask "would the king be attacked".
    fn put_unchecked_move(&mut self, from: Square, to: Square) {
        if let Some(p) = self.piece_at(from) {
            if let Some(c) = self.piece_at(to) {
                self.remove(c, to);
            }
            self.remove(p, from);
            self.put(p, to);
        }
    }

    /// Standard algebraic notation, with + or # (for PGN).
    pub fn to_san(&self, m: Move) -> String {
        let mut s = self.san_body(m);
        let mut after = self.clone();
        after.make_move(m);
        if after.is_check() {
            s.push(if after.count_legal() == 0 { '#' } else { '+' });
        }
        s
    }

    /// SAN without the check suffix.
    fn san_body(&self, m: Move) -> String {
        if m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O".to_string()
            } else {
                "O-O-O".to_string()
            };
        }
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.piece_at(from) else {
            return self.move_to_uci(m, false);
        };
        let capture = self.piece_at(to).is_some() || m.kind() == MoveKind::EnPassant;
        let mut s = String::new();
        if piece.kind == PieceKind::Pawn {
            if capture {
                s.push((b'a' + from.file()) as char);
            }
        } else {
            s.push(piece.kind.letter().to_ascii_uppercase());
            let rivals: Vec<Square> = self
                .legal_moves()
                .into_iter()
                .filter(|o| {
                    !o.is_castle()
                        && o.to() == to
                        && o.from() != from
                        && self.piece_at(o.from()) == Some(piece)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != from.file()) {
                    s.push((b'a' + from.file()) as char);
                } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                    s.push((b'1' + from.rank()) as char);
                } else {
                    s.push_str(&from.to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
        if let Some(p) = m.promotion_piece() {
            s.push('=');
            s.push(p.letter().to_ascii_uppercase());
        }
        s
    }

    /// Reads SAN (tolerant: 0-0, missing '=', extra disambiguation, +/#/!/?).
    pub fn parse_san(&self, s: &str) -> Result<Move, MoveError> {
        let text = s.trim();
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let long = core.len() == 5;
            return legal
                .iter()
                .find(|m| m.is_castle() && (m.to().file() < m.from().file()) == long)
                .copied()
                .ok_or_else(|| MoveError::Illegal {
                    text: text.to_string(),
                    reason: "castling is not possible here".to_string(),
                });
        }
        let syntax = || MoveError::Syntax(format!("'{text}' is not SAN like Nf3, exd5, e8=Q"));
        if !core.is_ascii() || core.len() < 2 {
            return Err(syntax());
        }
        let mut body = core;
        let mut promo = None;
        if let Some(last) = body.chars().last() {
            if "NBRQnbrq".contains(last) && body.len() >= 3 {
                let before = &body[..body.len() - 1];
                let before = before.strip_suffix('=').unwrap_or(before);
                if before.ends_with(['8', '1']) {
                    promo = PieceKind::from_letter(last);
                    body = before;
                }
            }
        }
        if body.len() < 2 {
            return Err(syntax());
        }
        let to = Square::parse(&body[body.len() - 2..]).ok_or_else(syntax)?;
        let mut rest = &body[..body.len() - 2];
        let kind = match rest.chars().next() {
            Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
                rest = &rest[1..];
                PieceKind::from_letter(c).unwrap_or(PieceKind::Pawn)
            }
            _ => PieceKind::Pawn,
        };
        let rest = rest.strip_suffix(['x', ':']).unwrap_or(rest);
        let mut from_file = None;
        let mut from_rank = None;
        for c in rest.chars() {
            match c {
                'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                    from_file = Some(c as u8 - b'a')
                }
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return Err(syntax()),
            }
        }
        let found: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                !m.is_castle()
                    && m.to() == to
                    && self.piece_at(m.from()).map(|p| p.kind) == Some(kind)
                    && m.promotion_piece() == promo
                    && from_file.is_none_or(|f| m.from().file() == f)
                    && from_rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect();
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!("no legal {} move to {to} matches", piece_name(kind)),
            }),
            _ => Err(MoveError::Ambiguous(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_move_text_never_panics() {
        let boards = [
            Board::startpos(),
            Board::from_fen("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1").unwrap(),
        ];
        let alphabet = "abcdefghKQRBNOo0-=x+#12345678qrbn \u{e9}";
        let chars: Vec<char> = alphabet.chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 8) as usize;
            let text: String = (0..len)
                .map(|i| chars[((x >> (i * 6)) as usize) % chars.len()])
                .collect();
            for b in &boards {
                for c960 in [false, true] {
                    if let Ok(m) = b.parse_uci_move(&text, c960) {
                        assert!(b.legal_moves().contains(&m));
                    }
                }
                if let Ok(m) = b.parse_san(&text) {
                    assert!(b.legal_moves().contains(&m));
                }
            }
        }
    }

    #[test]
    fn uci_castling_both_notations() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = b.parse_uci_move("e1g1", false).unwrap();
        assert!(m.is_castle());
        assert_eq!(b.move_to_uci(m, false), "e1g1");
        assert_eq!(b.move_to_uci(m, true), "e1h1");
        assert_eq!(b.parse_uci_move("e1h1", true).unwrap(), m);
        assert!(b.parse_uci_move("e1g1", true).is_err());
        let q = b.parse_uci_move("e1c1", false).unwrap();
        assert_eq!(b.move_to_uci(q, true), "e1a1");
    }

    #[test]
    fn castling_names_are_unique_outside_chess960_mode() {
        // Found by the position_args fuzz target: with the king on b8 and
        // castling rights to a8 (an X-FEN), the castle's standard name was
        // b8c8, the same as the king's step to c8, so `tengen legal` listed
        // b8c8 twice and the castle could not be played by its name. A king
        // off the e-file castles as king-takes-rook in either mode.
        let b = Board::from_fen("rk5r/8/8/8/8/8/8/4K3 b kq - 0 1").unwrap();
        let names: Vec<String> = b
            .legal_moves()
            .into_iter()
            .map(|m| b.move_to_uci(m, false))
            .collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for m in b.legal_moves() {
            let name = b.move_to_uci(m, false);
            assert_eq!(b.parse_uci_move(&name, false), Ok(m), "{name}");
        }
        let castle = b.parse_uci_move("b8a8", false).unwrap();
        assert!(castle.is_castle());
        assert_eq!(b.move_to_uci(castle, false), "b8a8");
        assert!(!b.parse_uci_move("b8c8", false).unwrap().is_castle());
        // A king on its castling square: g1g1 is no move at all.
        let g = Board::from_fen("4k3/8/8/8/8/8/8/6KR w K - 0 1").unwrap();
        let short = g.legal_moves().into_iter().find(|m| m.is_castle()).unwrap();
        assert_eq!(g.move_to_uci(short, false), "g1h1");
        // The standard e-file king keeps the two-square step.
        let e = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let names: Vec<String> = e
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .map(|m| e.move_to_uci(m, false))
            .collect();
        assert_eq!(names.len(), 2);
        assert!(names.contains(&"e1g1".to_string()) && names.contains(&"e1c1".to_string()));
    }

    #[test]
    fn uci_errors_say_why() {
        let b = Board::startpos();
        let e = |s: &str| b.parse_uci_move(s, false).unwrap_err().to_string();
        assert!(e("e2").contains("syntax"));
        assert!(e("e2e9").contains("syntax"));
        assert!(e("e7e8x").contains("promotion piece"));
        assert!(e("e3e4").contains("no piece on e3"));
        assert!(e("e7e5").contains("side not to move"));
        assert!(e("e2e5").contains("cannot move"));
        let pinned = Board::from_fen("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap();
        let err = pinned
            .parse_uci_move("e2d2", false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("check"), "{err}");
        let promo = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(promo
            .parse_uci_move("a7a8", false)
            .unwrap_err()
            .to_string()
            .contains("piece letter"));
        assert!(promo.parse_uci_move("a7a8q", false).is_ok());
    }

    #[test]
    fn san_round_trip_and_disambiguation() {
        let b =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        for m in b.legal_moves() {
            let san = b.to_san(m);
            assert_eq!(b.parse_san(&san).unwrap(), m, "{san}");
        }
        let knights = Board::from_fen("4k3/8/8/8/8/8/8/N3K2N w - - 0 1").unwrap();
        let sans: Vec<String> = knights
            .legal_moves()
            .iter()
            .map(|m| knights.to_san(*m))
            .collect();
        assert!(sans.contains(&"Nb3".to_string()));
        let rooks = Board::from_fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1").unwrap();
        let m = rooks.parse_san("R1a3").unwrap();
        assert_eq!(rooks.to_san(m), "R1a3");
        assert!(matches!(
            rooks.parse_san("Ra3"),
            Err(MoveError::Ambiguous(_))
        ));
        let mate = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let m = mate.parse_san("Ra8").unwrap();
        assert_eq!(mate.to_san(m), "Ra8#");
        let promo = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(promo.to_san(promo.parse_san("a8Q").unwrap()), "a8=Q+");
        assert!(promo.parse_san("Qa8").is_err());
        assert!(promo.parse_san("zz").is_err());
    }
}
