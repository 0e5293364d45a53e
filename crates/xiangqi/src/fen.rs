//! FEN in and out, with validation that says what is wrong.

use crate::board::Board;
use crate::types::{Color, Kind, Piece, Square};

/// The largest half-move clock and move number a FEN gives (larger ones
/// read as it), far from overflow however many moves follow.
pub const MAX_CLOCK: u32 = 1_000_000;

impl Board {
    /// Reads a FEN: ranks from Black's side (rank 9) down to Red's, side to
    /// move `w`/`r` (Red) or `b` (Black); the `-` fields, half-move clock
    /// and move number may be left out. The position must be one a game
    /// could reach: one general per side in its palace, advisors, elephants
    /// and pawns on points they can stand on, no more pieces than a side
    /// starts with, and the side not to move not in check.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("empty FEN")?;
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(format!("side to move '{s}' is not w or b")),
        };
        let mut board = Board::empty(side);
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(format!("the board has {} ranks, expected 10", ranks.len()));
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row as u8;
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(format!("rank {rank}: a zero count of empty points"));
                    }
                    file += d as u8;
                } else {
                    let kind = Kind::from_letter(c)
                        .ok_or_else(|| format!("rank {rank}: unknown piece letter '{c}'"))?;
                    let color = if c.is_ascii_uppercase() {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    let sq = Square::new(file, rank)
                        .ok_or_else(|| format!("rank {rank} has more than 9 points"))?;
                    board.check_placement(sq, Piece::new(color, kind))?;
                    board.put(sq, Piece::new(color, kind));
                    file += 1;
                }
                if file > 9 {
                    return Err(format!("rank {rank} has more than 9 points"));
                }
            }
            if file != 9 {
                return Err(format!("rank {rank} has {file} points, expected 9"));
            }
        }
        for c in [Color::Red, Color::Black] {
            if board.count(c, Kind::King) != 1 {
                return Err(format!("{} has no general", color_name(c)));
            }
        }
        // Castling and en-passant fields carry nothing in xiangqi.
        let mut rest: Vec<&str> = fields.collect();
        while rest.first().is_some_and(|f| *f == "-") {
            rest.remove(0);
        }
        if let Some(h) = rest.first() {
            board.halfmove = h
                .parse()
                .map_err(|_| format!("half-move clock '{h}' is not a number"))?;
            board.halfmove = board.halfmove.min(MAX_CLOCK);
        }
        if let Some(f) = rest.get(1) {
            let n: u32 = f
                .parse()
                .map_err(|_| format!("move number '{f}' is not a number"))?;
            // Capped so that move arithmetic can never overflow.
            board.fullmove = n.clamp(1, MAX_CLOCK);
        }
        if rest.len() > 2 {
            return Err(format!("unexpected trailing field '{}'", rest[2]));
        }
        if board.king_attacked(side.flip()) {
            return Err(format!(
                "{} is in check but it is {} to move",
                color_name(side.flip()),
                color_name(side)
            ));
        }
        board.in_check = board.king_attacked(side);
        Ok(board)
    }

    /// Rejects a piece on a point it could never reach, or one too many.
    fn check_placement(&self, sq: Square, p: Piece) -> Result<(), String> {
        let who = format!("{} {} on {sq}", color_name(p.color), p.kind.name());
        if self.count(p.color, p.kind) as usize >= p.kind.max_count() {
            return Err(format!(
                "{} has more than {} {}{}",
                color_name(p.color),
                p.kind.max_count(),
                p.kind.name(),
                if p.kind.max_count() > 1 { "s" } else { "" }
            ));
        }
        let (f, r) = (sq.file(), sq.rank());
        // Ranks counted from the piece's own side.
        let own_rank = match p.color {
            Color::Red => r,
            Color::Black => 9 - r,
        };
        let ok = match p.kind {
            Kind::King => sq.in_palace(p.color),
            Kind::Advisor => sq.in_palace(p.color) && (f + own_rank) % 2 == 1,
            Kind::Elephant => {
                own_rank <= 4 && f % 2 == 0 && own_rank % 2 == 0 && (f + own_rank) % 4 == 2
            }
            Kind::Pawn => own_rank >= 5 || (own_rank >= 3 && f % 2 == 0),
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{who} stands where it can never go"))
        }
    }

    /// The position as FEN, in the form UCCI and Fairy-Stockfish write.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match Square::new(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
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
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        // Clocks run on past the cap the reader clamps to; printed capped,
        // so that what is printed reads back.
        format!(
            "{s} {side} - - {} {}",
            self.halfmove.min(MAX_CLOCK),
            self.fullmove.min(MAX_CLOCK)
        )
    }
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, START_FEN};

    #[test]
    fn clocks_past_their_caps_print_as_the_caps() {
        // Clocks are read capped at 1,000,000; moves played from the caps
        // went past them and the FEN printed then read back as a different
        // position (the bug class the shogi_sfen fuzz target found in SFEN).
        let fen = START_FEN.replace(" 0 1", " 99999999 99999999");
        let mut b = Board::from_fen(&fen).unwrap();
        for m in ["h2e2", "h9g7"] {
            let mv = crate::notation::parse_move(&b, m, crate::notation::Notation::Iccs).unwrap();
            b.make(mv);
        }
        let printed = b.fen();
        assert!(printed.ends_with(" 1000000 1000000"), "{printed}");
        assert_eq!(Board::from_fen(&printed).unwrap().fen(), printed);
    }

    #[test]
    fn round_trip() {
        assert_eq!(Board::from_fen(START_FEN).unwrap().fen(), START_FEN);
        let short =
            Board::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
                .unwrap();
        assert!(short.fen().contains(" b - - 0 1"));
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            ("", "empty"),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
                "9 ranks",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                "8 points",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                "more than 9",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAXABNR w",
                "unknown piece",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
                "red has no general",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "side to move",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4K4/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
                "red king on e4",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4A4/P1P1P1P1P/1C5C1/9/RNB1KABNR w",
                "red advisor on e4",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/1B7/RN1AKABNR w",
                "red elephant on b1",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/P8/RNBAKABNR w",
                "red pawn on a1",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PPP1P1P1P/1C5C1/9/RNBAKABNR w",
                "red pawn on b3",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
                "half-move",
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "black is in check"),
            ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "black is in check"),
            (
                "rrbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "more than 2 rook",
            ),
        ];
        for (fen, want) in cases {
            let err = Board::from_fen(fen).expect_err(fen);
            assert!(err.contains(want), "{fen}: {err}");
        }
    }

    /// A board with the generals on d9 and f0 plus one red piece.
    fn with_red(letter: char, sq: &str) -> Result<Board, String> {
        let mut b = Board::from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w").unwrap();
        let sq = crate::notation::parse_square(sq, 0).unwrap();
        let kind = crate::types::Kind::from_letter(letter).unwrap();
        let p = crate::types::Piece::new(crate::types::Color::Red, kind);
        b.check_placement(sq, p)?;
        b.put(sq, p);
        Board::from_fen(&b.fen())
    }

    #[test]
    fn pieces_only_on_their_points() {
        let elephant = ["c0", "g0", "a2", "e2", "i2", "c4", "g4"];
        let advisor = ["d0", "e1", "d2", "f2"];
        for file in b'a'..=b'i' {
            for rank in 0..=9u8 {
                let sq = format!("{}{}", file as char, rank);
                if sq == "f0" {
                    continue;
                }
                assert_eq!(
                    with_red('B', &sq).is_ok(),
                    elephant.contains(&sq.as_str()),
                    "elephant {sq}"
                );
                assert_eq!(
                    with_red('A', &sq).is_ok(),
                    advisor.contains(&sq.as_str()),
                    "advisor {sq}"
                );
                let pawn_ok = rank >= 5 || (rank >= 3 && (file - b'a').is_multiple_of(2));
                // A pawn on d9's file facing... d9 holds the black general.
                if sq != "d9" {
                    assert_eq!(
                        with_red('P', &sq).is_ok(),
                        pawn_ok && sq != "d8" && sq != "e9" && sq != "c9",
                        "pawn {sq}"
                    );
                }
            }
        }
    }

    /// Mutated FENs never panic, and whatever is accepted prints back to a
    /// FEN that reads as the same position.
    #[test]
    fn fuzz_mutated_fens() {
        let seeds = [
            START_FEN,
            "3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22",
            "r1ba1ab2/4k4/2n2rn2/1Cp1p1pc1/p7p/2B3P2/P1P1P3P/3C5/8R/RcBAKA1N1 b - - 1 11",
        ];
        let alphabet: Vec<char> = "kabnrcpKABNRCPEH0123456789/ -wbr".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut accepted = 0;
        for i in 0..20_000 {
            let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
            for _ in 0..(next() % 4 + 1) {
                let pos = (next() % chars.len() as u64) as usize;
                let c = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 => chars[pos] = c,
                    1 => chars.insert(pos, c),
                    _ => {
                        chars.remove(pos);
                    }
                }
                if chars.is_empty() {
                    chars.push('9');
                }
            }
            let text: String = chars.into_iter().collect();
            if let Ok(b) = Board::from_fen(&text) {
                accepted += 1;
                let again = Board::from_fen(&b.fen()).unwrap();
                assert_eq!(again.fen(), b.fen(), "{text}");
                assert_eq!(again.key(), b.key(), "{text}");
            }
        }
        assert!(accepted > 100, "the mutations should keep some FENs valid");
    }
}
