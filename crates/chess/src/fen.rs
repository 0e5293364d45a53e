//! FEN in and out: standard, X-FEN and Shredder-FEN castling rights, with
//! validation that says what is wrong.

use crate::attacks;
use crate::board::{Board, State};
use crate::types::{Color, Piece, PieceKind, Square, RANK_1, RANK_8};
use std::fmt;

/// The largest halfmove clock and fullmove number a FEN gives (larger
/// ones read as it), far from overflow however many moves follow.
pub const MAX_CLOCK: u32 = 100_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// A FEN has 4 or 6 space-separated fields.
    FieldCount(usize),
    /// The placement field must have 8 ranks.
    RankCount(usize),
    /// Rank (1..8) does not describe exactly 8 squares.
    RankLength {
        rank: u8,
        squares: usize,
    },
    BadPieceChar(char),
    /// Side to move is neither `w` nor `b`.
    BadSide(String),
    /// Colour, number of kings.
    KingCount(Color, usize),
    PawnOnBackRank(Square),
    /// The side that just moved left its king in check.
    OpponentInCheck,
    BadCastling(String),
    BadEnPassant(String),
    BadClock(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = |c: &Color| match c {
            Color::White => "white",
            Color::Black => "black",
        };
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields, expected 4 or 6"),
            FenError::RankCount(n) => write!(f, "piece placement has {n} ranks, expected 8"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 8")
            }
            FenError::BadPieceChar(c) => write!(f, "unknown piece character '{c}'"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not 'w' or 'b'"),
            FenError::KingCount(c, n) => {
                write!(f, "{} has {n} kings, expected exactly one", color(c))
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, on the first or last rank"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::BadCastling(s) => write!(f, "castling rights: {s}"),
            FenError::BadEnPassant(s) => write!(f, "en passant square: {s}"),
            FenError::BadClock(s) => write!(f, "move counters: {s}"),
        }
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// Reads a 4- or 6-field FEN (castling as KQkq, X-FEN or Shredder-FEN).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut b = Board::empty();
        parse_placement(&mut b, fields[0])?;
        b.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        for c in Color::BOTH {
            let n = b.pieces(c, PieceKind::King).count_ones() as usize;
            if n != 1 {
                return Err(FenError::KingCount(c, n));
            }
        }
        let back_pawns = b.kind_bb(PieceKind::Pawn) & (RANK_1 | RANK_8);
        if back_pawns != 0 {
            return Err(FenError::PawnOnBackRank(Square::lsb(back_pawns)));
        }
        let them = b.side.flip();
        if b.attacked_by(b.side, b.king_square(them), b.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        let castling = parse_castling(&mut b, fields[2])?;
        let ep = parse_ep(&b, fields[3])?;
        let (halfmove, fullmove) = if fields.len() == 6 {
            let h = fields[4].parse::<u32>().map_err(|_| {
                FenError::BadClock(format!("halfmove clock '{}' is not a number", fields[4]))
            })?;
            let f = fields[5].parse::<u32>().map_err(|_| {
                FenError::BadClock(format!("fullmove number '{}' is not a number", fields[5]))
            })?;
            (h.min(MAX_CLOCK), f.clamp(1, MAX_CLOCK))
        } else {
            (0, 1)
        };
        b.fullmove = fullmove;
        b.states.push(State {
            key: 0,
            castling,
            ep,
            halfmove,
            captured: None,
            checkers: 0,
            pinned: 0,
            since_null: 0,
        });
        let (checkers, pinned) = b.check_info();
        let key = b.compute_key();
        if let Some(st) = b.states.last_mut() {
            st.checkers = checkers;
            st.pinned = pinned;
            st.key = key;
        }
        Ok(b)
    }

    /// FEN of the position; castling as KQkq (X-FEN for inner rooks) when
    /// `chess960` is false, as Shredder-FEN rook files when true.
    pub fn to_fen(&self, chess960: bool) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut any = false;
        for c in Color::BOTH {
            for side in 0..2 {
                if let Some(rsq) = self.castling_rook(c, side) {
                    any = true;
                    let letter = if chess960 || !self.is_outermost_rook(c, side, rsq) {
                        (b'a' + rsq.file()) as char
                    } else if side == 0 {
                        'k'
                    } else {
                        'q'
                    };
                    s.push(if c == Color::White {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    });
                }
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square() {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        // Clocks run on past the cap the reader clamps to; printed capped,
        // so that what is printed reads back.
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock().min(MAX_CLOCK),
            self.fullmove.min(MAX_CLOCK)
        ));
        s
    }

    /// Whether no other own rook stands further out on that side.
    fn is_outermost_rook(&self, c: Color, side: usize, rsq: Square) -> bool {
        let rooks = self.pieces(c, PieceKind::Rook) & (RANK_1 << (8 * rsq.rank()));
        let rank = rsq.rank();
        let outer = if side == 0 {
            (rsq.file() + 1..8).any(|f| rooks & Square::from_coords(f, rank).bb() != 0)
        } else {
            (0..rsq.file()).any(|f| rooks & Square::from_coords(f, rank).bb() != 0)
        };
        !outer
    }
}

fn parse_placement(b: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: usize = 0;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::BadPieceChar(ch));
                }
                file += d as usize;
            } else {
                let p = Piece::from_fen_char(ch).ok_or(FenError::BadPieceChar(ch))?;
                if file < 8 {
                    b.put(p, Square::from_coords(file as u8, rank));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(b: &mut Board, field: &str) -> Result<u8, FenError> {
    let mut rights = 0u8;
    if field == "-" {
        return Ok(0);
    }
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = if color == Color::White { 0 } else { 7 };
        let ksq = b.king_square(color);
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        if ksq.rank() != back {
            return Err(FenError::BadCastling(format!(
                "'{ch}' given but the {name} king is not on its first rank"
            )));
        }
        let rooks = b.pieces(color, PieceKind::Rook);
        let rook_on = |f: u8| rooks & Square::from_coords(f, back).bb() != 0;
        let rsq = match ch.to_ascii_lowercase() {
            'k' => (ksq.file() + 1..8).rev().find(|&f| rook_on(f)),
            'q' => (0..ksq.file()).find(|&f| rook_on(f)),
            c @ 'a'..='h' => {
                let f = c as u8 - b'a';
                if f == ksq.file() || !rook_on(f) {
                    None
                } else {
                    Some(f)
                }
            }
            _ => {
                return Err(FenError::BadCastling(format!("unknown character '{ch}'")));
            }
        };
        let Some(rfile) = rsq else {
            return Err(FenError::BadCastling(format!(
                "'{ch}' given but no {name} rook stands where that right needs one"
            )));
        };
        let rsq = Square::from_coords(rfile, back);
        let side = if rfile > ksq.file() { 0 } else { 1 };
        let bit = 1u8 << (2 * color.index() + side);
        if rights & bit != 0 {
            return Err(FenError::BadCastling(format!(
                "two {name} castling rights on the same side ('{field}')"
            )));
        }
        rights |= bit;
        b.castle_rooks[color.index()][side] = Some(rsq);
        b.castle_mask[rsq.index()] &= !bit;
        b.castle_mask[ksq.index()] &= !(3 << (2 * color.index()));
    }
    Ok(rights)
}

fn parse_ep(b: &Board, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let ep = Square::parse(field)
        .ok_or_else(|| FenError::BadEnPassant(format!("'{field}' is not a square")))?;
    let us = b.side;
    let them = us.flip();
    if ep.relative_rank(us) != 5 {
        return Err(FenError::BadEnPassant(format!(
            "{ep} is not on the rank behind a pawn that just moved two squares"
        )));
    }
    let pushed = ep.forward(them);
    let origin = ep.forward(us);
    if b.piece_at(pushed) != Some(Piece::new(them, PieceKind::Pawn)) {
        return Err(FenError::BadEnPassant(format!(
            "{ep} given but no pawn stands on {pushed}"
        )));
    }
    if b.piece_at(ep).is_some() || b.piece_at(origin).is_some() {
        return Err(FenError::BadEnPassant(format!(
            "{ep} given but {ep} or {origin} is occupied"
        )));
    }
    // Kept only when a pawn could capture, as after a move (equal keys).
    if attacks::pawn(them, ep) & b.pieces(us, PieceKind::Pawn) != 0 {
        Ok(Some(ep))
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_past_their_caps_print_as_the_caps() {
        // Clocks are read capped (halfmove 100,000, fullmove 100,000); moves
        // played from the caps went past them and the FEN printed then read
        // back as a different position (the bug class the shogi_sfen fuzz
        // target found in SFEN).
        let mut b = Board::from_fen("4k3/8/8/8/8/8/8/4K2R b - - 99999999 99999999").unwrap();
        for m in ["e8d8", "e1f1"] {
            let mv = b.parse_uci_move(m, false).unwrap();
            b.play(mv);
        }
        let printed = b.to_fen(false);
        assert!(printed.ends_with(" 100000 100000"), "{printed}");
        assert_eq!(Board::from_fen(&printed).unwrap().to_fen(false), printed);
    }

    #[test]
    fn round_trip() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            assert_eq!(Board::from_fen(fen).unwrap().to_fen(false), fen);
        }
        let b =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap();
        assert_eq!(
            b.to_fen(true),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        let x =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
                .unwrap();
        assert_eq!(x.key(), b.key());
        assert_eq!(
            x.to_fen(false),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
    }

    #[test]
    fn four_fields_and_useless_ep() {
        let b = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3").unwrap();
        assert_eq!(b.ep_square(), None);
        assert_eq!(b.halfmove_clock(), 0);
        assert_eq!(b.fullmove_number(), 1);
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            ("8/8/8/8/8/8/8/8 w - -", "white has 0 kings"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                "5 fields",
            ),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "'9'",
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rank 7 describes 7",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move 'x'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1",
                "pawn on h1",
            ),
            ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "not to move is in check"),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook"),
            ("4k3/8/8/8/8/8/3K4/7R w K - 0 1", "first rank"),
            ("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", "unknown character 'X'"),
            ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", "same side"),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no pawn stands on e5"),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "not on the rank"),
            ("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "not a square"),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock 'x'"),
        ];
        for (fen, want) in cases {
            let err = Board::from_fen(fen).unwrap_err().to_string();
            assert!(err.contains(want), "{fen}: got '{err}', want '{want}'");
        }
    }

    #[test]
    fn double_check_by_bishops_is_accepted() {
        let b = Board::from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").unwrap();
        assert_eq!(b.checkers().count_ones(), 2);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut x: u64 = 0x1234_5678_9abc_def0;
        let alphabet = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0x9\xff";
        let base = crate::board::START_FEN.as_bytes();
        for i in 0..50_000 {
            let mut bytes: Vec<u8> = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 80) as usize;
            if i % 2 == 0 {
                // Mutations of a valid FEN reach the deeper checks.
                bytes.extend_from_slice(base);
                for _ in 0..(1 + x % 4) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let pos = (x as usize) % bytes.len();
                    bytes[pos] = alphabet[(x >> 32) as usize % alphabet.len()];
                }
            } else {
                for _ in 0..len {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    bytes.push(alphabet[(x as usize) % alphabet.len()]);
                }
            }
            let s = String::from_utf8_lossy(&bytes);
            if let Ok(b) = Board::from_fen(&s) {
                // Whatever is accepted must be usable.
                let moves = b.legal_moves();
                let _ = b.to_fen(true);
                let mut b2 = b.clone();
                for m in moves.iter().take(3) {
                    b2.make_move(*m);
                    b2.unmake_move(*m);
                }
                assert_eq!(b2.key(), b.key());
            }
        }
    }
}
