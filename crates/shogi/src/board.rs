//! The board state: squares, hands, side to move and the Zobrist key, with
//! making and unmaking moves, attack detection and SFEN in and out.
//! History (for repetition) lives one level up, in `Game`.

use crate::bitboard::{
    attacks, bishop_attacks, bishop_pseudo, king_attacks, lance_attacks, rook_attacks, rook_pseudo,
    step_attacks, Bitboard,
};
use crate::geometry::is_dead_end;
use crate::types::{Color, Kind, Move, Piece, Square};
use crate::zobrist;

/// The start position in SFEN, kept with the other games' in
/// `tengen-games`.
pub const STARTPOS: &str = tengen_games::SHOGI_START;

/// The largest move number an SFEN gives (larger ones read as it): half of
/// `u32`, so that moves played from it cannot overflow.
pub const MAX_MOVE_NUMBER: u32 = u32::MAX / 2;

/// How many of each hand kind exist in a full set (P L N S G B R).
const FULL_SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; 81],
    /// The squares of each colour's pieces.
    by_color: [Bitboard; 2],
    /// The squares of each kind's pieces, both colours.
    by_kind: [Bitboard; 14],
    hands: [[u8; 7]; 2],
    side: Color,
    kings: [Option<Square>; 2],
    key: u64,
    /// The hands' part of `key` (their Zobrist terms are added to it).
    hands_key: u64,
    move_number: u32,
}

impl Board {
    pub fn startpos() -> Board {
        match Board::from_sfen(STARTPOS) {
            Ok(b) => b,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn empty() -> Board {
        Board {
            squares: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: [[0; 7]; 2],
            side: Color::Black,
            kings: [None; 2],
            key: 0,
            hands_key: 0,
            move_number: 1,
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline]
    pub(crate) fn piece_at_index(&self, i: usize) -> Option<Piece> {
        self.squares[i]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// How many pieces of hand kind `kind` `color` holds.
    #[inline]
    pub fn hand_count(&self, color: Color, kind: Kind) -> u8 {
        self.hands[color.index()]
            .get(kind.index())
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    pub fn hand(&self, color: Color) -> &[u8; 7] {
        &self.hands[color.index()]
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `kind`, both colours.
    #[inline]
    pub fn kind_squares(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Gold and the four kinds that move like it, both colours.
    #[inline]
    fn gold_movers(&self) -> Bitboard {
        let k = &self.by_kind;
        k[Kind::Gold.index()]
            | k[Kind::ProPawn.index()]
            | k[Kind::ProLance.index()]
            | k[Kind::ProKnight.index()]
            | k[Kind::ProSilver.index()]
    }

    #[inline]
    fn put(&mut self, sq: Square, p: Piece) {
        self.squares[sq.index()] = Some(p);
        let bit = Bitboard::square(sq);
        self.by_color[p.color().index()] |= bit;
        self.by_kind[p.kind().index()] |= bit;
        self.key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
        if p.kind() == Kind::King {
            self.kings[p.color().index()] = Some(sq);
        }
    }

    #[inline]
    fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = self.squares[sq.index()].take()?;
        let bit = Bitboard::square(sq);
        self.by_color[p.color().index()] ^= bit;
        self.by_kind[p.kind().index()] ^= bit;
        self.key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
        if p.kind() == Kind::King {
            self.kings[p.color().index()] = None;
        }
        Some(p)
    }

    /// Sets or clears one square, for tests that build exchanges by hand.
    #[cfg(test)]
    pub(crate) fn set_for_test(&mut self, sq: Square, p: Option<Piece>) {
        self.remove(sq);
        if let Some(p) = p {
            self.put(sq, p);
        }
    }

    #[inline]
    fn add_hand(&mut self, c: Color, k: Kind) {
        self.hands[c.index()][k.index()] += 1;
        let z = zobrist::HAND[c.index()][k.index()];
        self.key = self.key.wrapping_add(z);
        self.hands_key = self.hands_key.wrapping_add(z);
    }

    #[inline]
    fn take_hand(&mut self, c: Color, k: Kind) {
        self.hands[c.index()][k.index()] -= 1;
        let z = zobrist::HAND[c.index()][k.index()];
        self.key = self.key.wrapping_sub(z);
        self.hands_key = self.hands_key.wrapping_sub(z);
    }

    /// The key with the hands' terms taken out: the pieces on the board
    /// and the side to move only.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.key.wrapping_sub(self.hands_key)
    }

    /// `color`'s hand as seven count bytes, pawn in the lowest.
    #[inline]
    pub fn packed_hand(&self, color: Color) -> u64 {
        let h = &self.hands[color.index()];
        u64::from_le_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], 0])
    }

    /// [`Board::key`] and [`Board::board_key`] as they will be after the
    /// legal move `m`, without making it (the same updates as `do_move`).
    pub fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let to = m.to();
        let mut key = self.key;
        let mut hands = self.hands_key;
        match m.from() {
            Some(from) => {
                if let Some(c) = self.squares[to.index()] {
                    key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
                    let z = zobrist::HAND[us.index()][c.kind().unpromote().index()];
                    key = key.wrapping_add(z);
                    hands = hands.wrapping_add(z);
                }
                if let Some(p) = self.squares[from.index()] {
                    key ^= zobrist::PIECE_SQUARE[p.index()][from.index()];
                    let kind = if m.is_promotion() {
                        p.kind().promote()
                    } else {
                        p.kind()
                    };
                    key ^= zobrist::PIECE_SQUARE[Piece::new(us, kind).index()][to.index()];
                }
            }
            None => {
                if let Some(k) = m.drop_kind() {
                    let z = zobrist::HAND[us.index()][k.index()];
                    key = key.wrapping_sub(z);
                    hands = hands.wrapping_sub(z);
                    key ^= zobrist::PIECE_SQUARE[Piece::new(us, k).index()][to.index()];
                }
            }
        }
        key ^= zobrist::SIDE;
        (key, key.wrapping_sub(hands))
    }

    /// Plays a move the caller knows is legal; returns what it captured.
    pub fn do_move(&mut self, m: Move) -> Option<Piece> {
        let us = self.side;
        let to = m.to();
        let captured = match m.from() {
            Some(from) => {
                let captured = self.remove(to);
                if let Some(c) = captured {
                    self.add_hand(us, c.kind().unpromote());
                }
                if let Some(p) = self.remove(from) {
                    let kind = if m.is_promotion() {
                        p.kind().promote()
                    } else {
                        p.kind()
                    };
                    self.put(to, Piece::new(us, kind));
                }
                captured
            }
            None => {
                if let Some(k) = m.drop_kind() {
                    self.take_hand(us, k);
                    self.put(to, Piece::new(us, k));
                }
                None
            }
        };
        self.side = us.flip();
        self.key ^= zobrist::SIDE;
        self.move_number += 1;
        captured
    }

    /// Takes back `m`, which captured `captured`.
    pub fn undo_move(&mut self, m: Move, captured: Option<Piece>) {
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE;
        self.move_number -= 1;
        let us = self.side;
        let to = m.to();
        match m.from() {
            Some(from) => {
                if let Some(p) = self.remove(to) {
                    let kind = if m.is_promotion() {
                        p.kind().unpromote()
                    } else {
                        p.kind()
                    };
                    self.put(from, Piece::new(us, kind));
                }
                if let Some(c) = captured {
                    self.take_hand(us, c.kind().unpromote());
                    self.put(to, c);
                }
            }
            None => {
                if let Some(p) = self.remove(to) {
                    self.add_hand(us, p.kind());
                }
            }
        }
    }

    /// Passes the turn (for the searcher's null move).
    pub fn do_null(&mut self) {
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE;
    }

    /// The pieces of `by` that attack `sq` when the occupied squares are
    /// `occ`: pieces off `occ` neither attack nor block.
    #[inline]
    pub fn attackers_to(&self, by: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let rev = by.flip();
        let theirs = self.by_color[by.index()] & occ;
        let mut found = self.step_attackers(rev, sq) & theirs;
        let (lances, diag, orth) = self.sliders_towards(rev, sq, theirs);
        if lances.any() {
            found |= lance_attacks(rev, sq, occ) & lances;
        }
        if diag.any() {
            found |= bishop_attacks(sq, occ) & diag;
        }
        if orth.any() {
            found |= rook_attacks(sq, occ) & orth;
        }
        found
    }

    /// Pieces (either colour) that would attack `sq` in one step or jump if
    /// they were of the colour opposite to `rev`: a piece attacks `sq`
    /// from where a piece of the same kind and the other colour on `sq`
    /// would attack (every kind is symmetric left to right, so the reverse
    /// move is the other colour's move).
    #[inline]
    fn step_attackers(&self, rev: Color, sq: Square) -> Bitboard {
        let k = &self.by_kind;
        let near = k[Kind::King.index()] | k[Kind::Horse.index()] | k[Kind::Dragon.index()];
        (step_attacks(rev, Kind::Pawn, sq) & k[Kind::Pawn.index()])
            | (step_attacks(rev, Kind::Knight, sq) & k[Kind::Knight.index()])
            | (step_attacks(rev, Kind::Silver, sq) & k[Kind::Silver.index()])
            | (step_attacks(rev, Kind::Gold, sq) & self.gold_movers())
            | (king_attacks(sq) & near)
    }

    /// Among `theirs`, the lances, diagonal sliders and orthogonal sliders
    /// on a line through `sq` that would reach it on an empty board.
    #[inline]
    fn sliders_towards(
        &self,
        rev: Color,
        sq: Square,
        theirs: Bitboard,
    ) -> (Bitboard, Bitboard, Bitboard) {
        let k = &self.by_kind;
        let lances = k[Kind::Lance.index()] & theirs;
        let lances = if lances.any() {
            lance_attacks(rev, sq, Bitboard::EMPTY) & lances
        } else {
            lances
        };
        let diag = (k[Kind::Bishop.index()] | k[Kind::Horse.index()]) & theirs & bishop_pseudo(sq);
        let orth = (k[Kind::Rook.index()] | k[Kind::Dragon.index()]) & theirs & rook_pseudo(sq);
        (lances, diag, orth)
    }

    /// Whether `by` attacks `sq`, treating `ignore` (if any) as empty: the
    /// king's own square when testing where the king may go.
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: Color, ignore: Option<Square>) -> bool {
        let occ = match ignore {
            Some(ig) => self.occupied().without(ig),
            None => self.occupied(),
        };
        self.attacked_in(by, sq, occ)
    }

    /// Whether a piece of `by` on `occ` attacks `sq` with the occupied
    /// squares `occ`: [`Board::attackers_to`] stopping at the first.
    #[inline]
    pub fn attacked_in(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let rev = by.flip();
        let theirs = self.by_color[by.index()] & occ;
        if (self.step_attackers(rev, sq) & theirs).any() {
            return true;
        }
        let (lances, diag, orth) = self.sliders_towards(rev, sq, theirs);
        (lances.any() && (lance_attacks(rev, sq, occ) & lances).any())
            || (diag.any() && (bishop_attacks(sq, occ) & diag).any())
            || (orth.any() && (rook_attacks(sq, occ) & orth).any())
    }

    /// Every square `color`'s pieces on `occ` attack, the occupied squares
    /// being `occ`.
    pub fn attack_map(&self, color: Color, occ: Bitboard) -> Bitboard {
        let ours = self.by_color[color.index()] & occ;
        let pawns = (self.by_kind[Kind::Pawn.index()] & ours).bits();
        // Pawns step one row: 9 squares down the index for Black.
        let mut map = Bitboard::from_bits(match color {
            Color::Black => pawns >> 9,
            Color::White => pawns << 9,
        });
        for sq in ours & !self.by_kind[Kind::Pawn.index()] {
            if let Some(p) = self.squares[sq.index()] {
                map |= attacks(color, p.kind(), sq, occ);
            }
        }
        map
    }

    /// The neighbours of `sq` that `color`'s pieces on `occ` attack, the
    /// occupied squares being `occ`: [`Board::attack_map`] on the eight
    /// squares around `sq` (where a king there may step), sliders looked
    /// at only when one of their lines meets those squares.
    pub fn attacks_near(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        self.attacks_among(color, king_attacks(sq), occ)
    }

    /// The squares of `among` that `color`'s pieces on `occ` attack, the
    /// occupied squares being `occ`; one attack set per piece, so meant for
    /// a few squares close together (a king's neighbours), sliders looked
    /// at only when one of their lines meets them.
    pub fn attacks_among(&self, color: Color, among: Bitboard, occ: Bitboard) -> Bitboard {
        let around = among;
        let ours = self.by_color[color.index()] & occ;
        let k = &self.by_kind;
        let pawns = (k[Kind::Pawn.index()] & ours).bits();
        let mut map = Bitboard::from_bits(match color {
            Color::Black => pawns >> 9,
            Color::White => pawns << 9,
        });
        let steppers = k[Kind::Knight.index()]
            | k[Kind::Silver.index()]
            | k[Kind::King.index()]
            | self.gold_movers();
        for from in ours & steppers {
            if let Some(p) = self.squares[from.index()] {
                map |= step_attacks(color, p.kind(), from);
            }
        }
        for from in ours & (k[Kind::Horse.index()] | k[Kind::Dragon.index()]) {
            map |= king_attacks(from);
        }
        for from in ours & k[Kind::Lance.index()] {
            map |= lance_attacks(color, from, occ);
        }
        for from in ours & (k[Kind::Bishop.index()] | k[Kind::Horse.index()]) {
            if (bishop_pseudo(from) & around).any() {
                map |= bishop_attacks(from, occ);
            }
        }
        for from in ours & (k[Kind::Rook.index()] | k[Kind::Dragon.index()]) {
            if (rook_pseudo(from) & around).any() {
                map |= rook_attacks(from, occ);
            }
        }
        map & around
    }

    /// Whether the side to move's king is attacked.
    pub fn in_check(&self) -> bool {
        match self.kings[self.side.index()] {
            Some(k) => self.attacked_by(k, self.side.flip(), None),
            None => false,
        }
    }

    /// Reads an SFEN (`<board> <side> <hands> [<move number>]`), or
    /// `startpos`. Errors name what is wrong.
    pub fn from_sfen(text: &str) -> Result<Board, String> {
        let text = text.trim();
        if text == "startpos" {
            return Board::from_sfen(STARTPOS);
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(format!(
                "an SFEN has 3 or 4 fields (board, side, hands, move number), got {}",
                fields.len()
            ));
        }
        let mut b = Board::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 9 {
            return Err(format!(
                "the SFEN board has {} ranks, expected 9",
                rows.len()
            ));
        }
        for (row, text) in rows.iter().enumerate() {
            let rank = (b'a' + row as u8) as char;
            let mut col = 0usize;
            let mut promoted = false;
            for c in text.chars() {
                if let Some(n) = c.to_digit(10) {
                    if promoted {
                        return Err(format!("'+' before a digit on rank {rank}"));
                    }
                    if n == 0 {
                        return Err(format!("empty-run digit 0 on rank {rank}"));
                    }
                    col += n as usize;
                    if col > 9 {
                        return Err(format!("rank {rank} has more than 9 squares"));
                    }
                    continue;
                }
                if c == '+' {
                    if promoted {
                        return Err(format!("'++' on rank {rank}"));
                    }
                    promoted = true;
                    continue;
                }
                let kind = Kind::from_letter(c)
                    .ok_or_else(|| format!("unknown piece letter '{c}' on rank {rank}"))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                if col >= 9 {
                    return Err(format!("rank {rank} has more than 9 squares"));
                }
                let kind = if promoted {
                    if !kind.can_promote() {
                        return Err(format!(
                            "'+{c}' on rank {rank}: that piece does not promote"
                        ));
                    }
                    kind.promote()
                } else {
                    kind
                };
                promoted = false;
                let sq = Square::from_row_col(row, col)
                    .ok_or_else(|| format!("square off the board on rank {rank}"))?;
                if kind == Kind::King && b.kings[color.index()].is_some() {
                    return Err(format!("two {} kings", side_name(color)));
                }
                if is_dead_end(color, kind, sq) {
                    return Err(format!(
                        "{} {} on {sq} could never move (must have promoted)",
                        side_name(color),
                        kind_name(kind)
                    ));
                }
                b.put(sq, Piece::new(color, kind));
                col += 1;
            }
            if promoted {
                return Err(format!("'+' at the end of rank {rank}"));
            }
            if col != 9 {
                return Err(format!("rank {rank} has {col} squares, expected 9"));
            }
        }
        b.side = match fields[1] {
            "b" => Color::Black,
            "w" => {
                b.key ^= zobrist::SIDE;
                Color::White
            }
            other => return Err(format!("side to move must be 'b' or 'w', got '{other}'")),
        };
        if fields[2] != "-" {
            let mut count: Option<u32> = None;
            for c in fields[2].chars() {
                if let Some(n) = c.to_digit(10) {
                    let v = count.unwrap_or(0) * 10 + n;
                    if v > 18 {
                        return Err(format!("hand count too large in '{}'", fields[2]));
                    }
                    count = Some(v);
                    continue;
                }
                let kind = Kind::from_letter(c)
                    .filter(|&k| k != Kind::King)
                    .ok_or_else(|| format!("'{c}' cannot be in a hand"))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(format!("hand count 0 for '{c}'"));
                }
                // Checked here, before the counts (u8) could overflow.
                let held = u32::from(b.hands[color.index()][kind.index()]) + n;
                let max = u32::from(FULL_SET[kind.index()]);
                if held > max {
                    return Err(format!(
                        "{held} {}s in a hand, a set has {max}",
                        kind_name(kind)
                    ));
                }
                for _ in 0..n {
                    b.add_hand(color, kind);
                }
            }
            if count.is_some() {
                return Err(format!("hand '{}' ends with a count", fields[2]));
            }
        }
        if let Some(n) = fields.get(3) {
            let n: i64 = n
                .parse()
                .map_err(|_| format!("move number '{n}' is not an integer"))?;
            b.move_number = n.clamp(1, i64::from(MAX_MOVE_NUMBER)) as u32;
        }
        b.validate()?;
        Ok(b)
    }

    /// Checks what the SFEN grammar cannot: piece counts, nifu, and that
    /// the side that just moved is not left in check.
    fn validate(&self) -> Result<(), String> {
        let mut counts = [0u8; 7];
        for c in Color::BOTH {
            for (i, n) in self.hands[c.index()].iter().enumerate() {
                counts[i] += n;
            }
            let mut files = [false; 9];
            for sq in Square::all() {
                if self.piece_at(sq) == Some(Piece::new(c, Kind::Pawn)) {
                    if files[sq.col()] {
                        return Err(format!(
                            "two unpromoted {} pawns on file {} (nifu)",
                            side_name(c),
                            sq.file()
                        ));
                    }
                    files[sq.col()] = true;
                }
            }
        }
        for p in self.squares.iter().flatten() {
            let k = p.kind();
            if k != Kind::King {
                counts[k.unpromote().index()] += 1;
            }
        }
        for (i, (&n, &max)) in counts.iter().zip(FULL_SET.iter()).enumerate() {
            if n > max {
                return Err(format!(
                    "{} {}s on the board and in hand, a set has {}",
                    n,
                    kind_name(Kind::HAND[i]),
                    max
                ));
            }
        }
        let them = self.side.flip();
        if let Some(k) = self.kings[them.index()] {
            if self.attacked_by(k, self.side, None) {
                return Err(format!(
                    "the {} king is in check but it is not its turn",
                    side_name(them)
                ));
            }
        }
        Ok(())
    }

    /// The position as SFEN, hands in the conventional R B G S N L P order.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for row in 0..9 {
            let mut empty = 0;
            for col in 0..9 {
                match self.squares[row * 9 + col] {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push_str(&p.to_string());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if row < 8 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hand = String::new();
        for c in Color::BOTH {
            for k in [
                Kind::Rook,
                Kind::Bishop,
                Kind::Gold,
                Kind::Silver,
                Kind::Knight,
                Kind::Lance,
                Kind::Pawn,
            ] {
                let n = self.hands[c.index()][k.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let l = k.letter();
                hand.push(if c == Color::White {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        // Moves played past the cap that the reader clamps to print as the
        // cap, so that what is printed reads back.
        s.push_str(&format!(" {}", self.move_number.min(MAX_MOVE_NUMBER)));
        s
    }
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "pawn",
        Kind::Lance => "lance",
        Kind::Knight => "knight",
        Kind::Silver => "silver",
        Kind::Gold => "gold",
        Kind::Bishop => "bishop",
        Kind::Rook => "rook",
        Kind::King => "king",
        Kind::ProPawn => "tokin",
        Kind::ProLance => "promoted lance",
        Kind::ProKnight => "promoted knight",
        Kind::ProSilver => "promoted silver",
        Kind::Horse => "horse",
        Kind::Dragon => "dragon",
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_round_trips() {
        for s in [
            STARTPOS,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
        ] {
            let b = Board::from_sfen(s).unwrap();
            assert_eq!(b.to_sfen(), s);
        }
    }

    /// `keys_after` gives the keys `do_move` leaves; `board_key` is the key
    /// less the hands' terms and `packed_hand` the counts, on random play
    /// with captures and drops.
    #[test]
    fn keys_after_agree_with_making_the_move() {
        let mut seed = 11u64;
        let mut checked = 0;
        for fen in crate::searchable::BENCH_FENS {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..80 {
                let mut moves = Vec::new();
                b.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut c = b.clone();
                    c.do_move(m);
                    assert_eq!(
                        b.keys_after(m),
                        (c.key(), c.board_key()),
                        "{} {m}",
                        b.to_sfen()
                    );
                    checked += 1;
                }
                let mut hands = b.key();
                for c in Color::BOTH {
                    for (i, &n) in b.hand(c).iter().enumerate() {
                        let z = zobrist::HAND[c.index()][i].wrapping_mul(u64::from(n));
                        hands = hands.wrapping_sub(z);
                        assert_eq!((b.packed_hand(c) >> (8 * i)) & 0xff, u64::from(n));
                    }
                }
                assert_eq!(b.board_key(), hands);
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_move_number_past_the_cap_prints_as_the_cap() {
        // Found by the shogi_sfen fuzz target: a move number read as the
        // cap (u32::MAX / 2) went past it with the moves played, and the
        // SFEN printed then read back as a different position.
        let mut b = Board::from_sfen(&STARTPOS.replace(" 1", " 99999999999")).unwrap();
        assert_eq!(b.move_number(), u32::MAX / 2);
        let m = b.parse_move("7g7f").unwrap();
        b.do_move(m);
        let printed = b.to_sfen();
        assert!(
            printed.ends_with(&format!(" {}", u32::MAX / 2)),
            "{printed}"
        );
        assert_eq!(Board::from_sfen(&printed).unwrap().to_sfen(), printed);
    }

    #[test]
    fn a_hand_larger_than_a_set_is_refused() {
        // Found by the position_args fuzz target: a hand of 300 golds
        // (each letter one more) overflowed the hand's u8 count before
        // the set was checked.
        // (Without overflow checks, 260 golds wrapped to 4 and were taken.)
        for n in [300, 256, 260] {
            let sfen = format!("4k4/9/9/9/9/9/9/9/4K4 b {} 1", "G".repeat(n));
            let err = Board::from_sfen(&sfen).unwrap_err();
            assert!(err.contains("gold"), "{err}");
        }
        assert!(Board::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 18P18p 1").is_err());
        assert!(Board::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 4G 1").is_ok());
        assert!(Board::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G3g 1").is_err());
    }

    #[test]
    fn bad_sfens_say_why() {
        let cases = [
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
                "ranks",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
                "8 squares",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
                "side",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1",
                "hand",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "nifu",
            ),
            ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "never move"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "too large"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 3B 1", "bishops"),
            ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "check"),
            ("4k4/9/9/9/9/9/9/9/4K2+G1 b - 1", "does not promote"),
            ("4k4/9/9/9/9/9/9/9/4K2K1 b - 1", "two sente kings"),
            ("4k4/9/9/9/9/9/9/9/4K4 b - x", "move number"),
        ];
        for (sfen, want) in cases {
            let e = Board::from_sfen(sfen).unwrap_err();
            assert!(e.contains(want), "{sfen}: {e}");
        }
    }

    /// `attackers_to`, `attacked_by` (with and without an ignored square)
    /// and `attack_map` agree with each piece's own attack set, on
    /// positions from random play.
    #[test]
    fn attack_questions_agree_with_each_piece_attacks() {
        use crate::bitboard::attacks;
        let mut seed = 5u64;
        let mut hits = 0;
        for fen in crate::searchable::BENCH_FENS {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..40 {
                let occ = b.occupied();
                for c in Color::BOTH {
                    let map = b.attack_map(c, occ);
                    let ignore = b.king(c.flip());
                    let occ_ig = ignore.map_or(occ, |k| occ.without(k));
                    for sq in Square::all() {
                        let mut want = Bitboard::EMPTY;
                        let mut want_ig = Bitboard::EMPTY;
                        for from in b.pieces(c) {
                            let kind = b.piece_at(from).unwrap().kind();
                            if attacks(c, kind, from, occ).has(sq) {
                                want = want.with(from);
                            }
                            if attacks(c, kind, from, occ_ig).has(sq) {
                                want_ig = want_ig.with(from);
                            }
                        }
                        assert_eq!(b.attackers_to(c, sq, occ), want, "{} {sq}", b.to_sfen());
                        assert_eq!(b.attacked_by(sq, c, None), want.any());
                        assert_eq!(b.attacked_by(sq, c, ignore), want_ig.any());
                        assert_eq!(map.has(sq), want.any());
                        if let Some(k) = ignore {
                            if crate::bitboard::king_attacks(k).has(sq) {
                                let near = b.attacks_near(c, k, occ_ig);
                                assert_eq!(near.has(sq), want_ig.any(), "{} {sq}", b.to_sfen());
                            }
                        }
                        hits += want.count();
                    }
                }
                let mut moves = Vec::new();
                b.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(hits > 10_000, "{hits}");
    }

    #[test]
    fn make_unmake_restores_key() {
        let mut b = Board::startpos();
        let before = b.clone();
        let m = Move::normal(
            Square::parse("7g").unwrap(),
            Square::parse("7f").unwrap(),
            false,
        );
        let c = b.do_move(m);
        assert_ne!(b.key(), before.key());
        b.undo_move(m, c);
        assert_eq!(b, before);
    }
}
