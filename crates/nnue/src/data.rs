//! The training-data format: one position, its search score and the game
//! result in a fixed-size record (32 bytes for chess and xiangqi, 42 for
//! shogi, whose hands do not fit 32).
//!
//! A data file (a *shard*) is a 16-byte header followed by records of
//! the game's [`Layout::record_size`] each:
//!
//! ```text
//! header  0..8   magic b"TGNNDATA"
//!         8..10  format version, u16 little-endian (1)
//!         10     game: 1 chess, 2 xiangqi, 3 shogi
//!         11     record size in bytes (32; shogi 42)
//!         12..16 zero
//! ```
//!
//! A chess record ([`Layout::Chess`]):
//!
//! ```text
//!  0..8   occupancy, u64 LE; bit i = square i (a1 = 0, b1 = 1, ..., h8 = 63)
//!  8..24  one nibble per occupied square, in increasing square order,
//!         low nibble first: colour * 8 + kind (kind 0..5 = P N B R Q K,
//!         colour 0 = White); unused nibbles are zero
//! 24..26  search score, i16 LE, centipawns from the side to move's view
//! 26      bits 0-1: game result from the side to move's view
//!         (0 loss, 1 draw, 2 win); bit 7: Black to move
//! 27      halfmove clock (saturated at 255)
//! 28..30  fullmove number, u16 LE (saturated)
//! 30..32  the searched best move, the chess crate's 16-bit move code
//! ```
//!
//! A xiangqi record ([`Layout::Xiangqi`]): 90 points need 12 bytes of
//! occupancy, so the move and the move number give way:
//!
//! ```text
//!  0..12  occupancy, 96 bits LE; bit i = point i (rank * 9 + file,
//!         a0 = 0, Red's back rank first); bits 90..96 zero
//! 12..28  nibbles as above: colour * 8 + kind (kind 0..6 = K A B N R C P,
//!         colour 0 = Red)
//! 28..30  search score, i16 LE, from the side to move's view
//! 30      result and side to move, as byte 26 of a chess record
//! 31      plies since the last capture (saturated at 255)
//! ```
//!
//! Both games have at most 32 pieces on the board, so 16 bytes of nibbles
//! always suffice.
//!
//! A shogi record ([`Layout::Shogi`], 42 bytes): the 40 pieces of a game
//! are each on the board or in a hand, 14 kinds need a whole nibble, so
//! the colours get a bit field of their own:
//!
//! ```text
//!  0..11  bits 0..81: occupancy, bit i = square i (the shogi crate's
//!         index: rank a, Gote's back rank, first; 9a = 0, 1a = 8);
//!         bits 81..88: the number of pieces in hand (both sides), n
//! 11..31  one nibble per piece, low nibble first: the board's pieces in
//!         increasing square order (kind 0..13 = P L N S G B R K +P +L
//!         +N +S +B +R), then the n pieces in hand, Black's (Sente's)
//!         first, by hand kind (0..6 = P L N S G B R)
//! 31..36  40 bits: the colour of each of those pieces (1 = White, Gote)
//! 36..38  search score, i16 LE, from the side to move's view
//! 38      result and side to move, as byte 26 of a chess record
//!         (bit 7: White, Gote, to move)
//! 39      plies played since the game's start position (saturated at 255)
//! 40..42  the searched best move, the shogi crate's 16-bit move code
//! ```
//!
//! In a [`Sample`] a piece in hand is the feature set's pseudo-square
//! (`Shogi::hand_square`: the `k`-th piece of hand kind `h` of a colour is
//! square `81 + offset[h] + k`) with the code `colour * 16 + h`, after the
//! board's pieces, exactly the list the engine's shogi evaluation sums.
//!
//! Records are independent, so a shard can be cut at any multiple of its
//! record size after the header.

use std::fmt;
use std::io::{self, Read, Write};

/// Bytes in a chess or xiangqi record.
pub const RECORD_SIZE: usize = 32;
/// Bytes in a shogi record.
pub const SHOGI_RECORD_SIZE: usize = 42;
/// The largest record of any game.
pub const MAX_RECORD_SIZE: usize = SHOGI_RECORD_SIZE;
/// Bytes in a shard's header.
pub const HEADER_SIZE: usize = 16;
const MAGIC: &[u8; 8] = b"TGNNDATA";
const VERSION: u16 = 1;
/// The most pieces a chess or xiangqi record holds.
pub const MAX_PIECES: usize = 32;
/// The most pieces (on the board and in hand) a shogi record holds.
pub const SHOGI_MAX_PIECES: usize = 40;

/// How a game's records are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Chess,
    Xiangqi,
    Shogi,
}

impl Layout {
    /// Squares (points) on the board.
    pub const fn squares(self) -> usize {
        match self {
            Layout::Chess => 64,
            Layout::Xiangqi => 90,
            Layout::Shogi => 81,
        }
    }

    /// Piece kinds per colour.
    pub const fn kinds(self) -> u8 {
        match self {
            Layout::Chess => 6,
            Layout::Xiangqi => 7,
            Layout::Shogi => 14,
        }
    }

    /// Bytes in one of this game's records.
    pub const fn record_size(self) -> usize {
        match self {
            Layout::Chess | Layout::Xiangqi => RECORD_SIZE,
            Layout::Shogi => SHOGI_RECORD_SIZE,
        }
    }

    /// The most pieces a record holds (shogi: on the board and in hand).
    pub const fn max_pieces(self) -> usize {
        match self {
            Layout::Chess | Layout::Xiangqi => MAX_PIECES,
            Layout::Shogi => SHOGI_MAX_PIECES,
        }
    }

    /// The game byte of a shard header.
    pub const fn id(self) -> u8 {
        match self {
            Layout::Chess => 1,
            Layout::Xiangqi => 2,
            Layout::Shogi => 3,
        }
    }

    pub fn from_id(id: u8) -> Option<Layout> {
        match id {
            1 => Some(Layout::Chess),
            2 => Some(Layout::Xiangqi),
            3 => Some(Layout::Shogi),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Layout::Chess => "chess",
            Layout::Xiangqi => "xiangqi",
            Layout::Shogi => "shogi",
        }
    }

    const fn occ_bytes(self) -> usize {
        match self {
            Layout::Chess => 8,
            Layout::Xiangqi => 12,
            Layout::Shogi => 11,
        }
    }
}

/// A game result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Wdl {
    /// The result as a target: 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// One training position, unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// `(square, colour * 8 + kind)` in increasing square order. Shogi:
    /// `(square, colour * 16 + kind)` for the board's pieces in increasing
    /// square order, then each piece in hand as its pseudo-square
    /// (`Shogi::hand_square`) and `colour * 16 + hand kind`, Black's hand
    /// first, by hand kind, the thermometer in order.
    pub pieces: Vec<(u8, u8)>,
    /// The second player (Black) is to move.
    pub black_to_move: bool,
    /// Search score from the side to move's view.
    pub score: i16,
    pub result: Wdl,
    /// Chess: halfmove clock; xiangqi: plies since the last capture;
    /// shogi: plies since the game's start position.
    pub halfmove: u8,
    /// Chess only (zero in xiangqi and shogi records).
    pub fullmove: u16,
    /// The searched best move's code: chess, and shogi (the shogi crate's
    /// `Move::bits`); zero in xiangqi.
    pub best: u16,
}

/// Why a record or a shard cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub enum DataError {
    TooManyPieces(usize),
    BadSquare(u8),
    BadPiece(u8),
    /// Pieces not in increasing square order (or two on one square).
    Unordered,
    BadResult(u8),
    BadHeader(String),
    /// A record of the wrong size for its game.
    BadLength(usize),
    /// Shogi: a piece in hand whose pseudo-square, kind or order does not
    /// follow the thermometer.
    BadHand(u8, u8),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::TooManyPieces(n) => write!(f, "{n} pieces, more than a record holds"),
            DataError::BadSquare(s) => write!(f, "square {s} is off the board"),
            DataError::BadPiece(p) => write!(f, "piece code {p} names no piece"),
            DataError::Unordered => f.write_str("pieces out of square order"),
            DataError::BadResult(r) => write!(f, "result {r} (expected 0, 1 or 2)"),
            DataError::BadHeader(why) => write!(f, "not a data shard: {why}"),
            DataError::BadLength(n) => write!(f, "a record of {n} bytes for this game"),
            DataError::BadHand(sq, code) => {
                write!(f, "piece in hand ({sq}, {code}) out of thermometer order")
            }
        }
    }
}

impl std::error::Error for DataError {}

fn valid_code(layout: Layout, code: u8) -> bool {
    match layout {
        Layout::Shogi => code & 15 < 14 && code < 32,
        _ => code & 7 < layout.kinds() && code < 16,
    }
}

/// The FEN piece placement of a record on a `files` × `ranks` board:
/// `letters[kind]` names each kind (upper case; the second player's in
/// lower case). `None` if a square or a kind is out of range.
pub fn sample_placement(s: &Sample, files: usize, ranks: usize, letters: &[u8]) -> Option<String> {
    let mut grid = vec![None; files * ranks];
    for &(sq, code) in &s.pieces {
        let letter = *letters.get((code & 7) as usize)? as char;
        *grid.get_mut(sq as usize)? = Some(if code >= 8 {
            letter.to_ascii_lowercase()
        } else {
            letter
        });
    }
    Some(fen_placement(&grid, files, ranks))
}

/// FEN piece placement of a `files` × `ranks` grid indexed `rank * files +
/// file` from the first player's back rank.
pub fn fen_placement(grid: &[Option<char>], files: usize, ranks: usize) -> String {
    let mut out = String::new();
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match grid.get(rank * files + file).copied().flatten() {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Packs `s` into a record of [`Layout::record_size`] bytes.
pub fn pack(layout: Layout, s: &Sample) -> Result<Vec<u8>, DataError> {
    match layout {
        Layout::Shogi => pack_shogi(s).map(|r| r.to_vec()),
        _ => pack32(layout, s).map(|r| r.to_vec()),
    }
}

/// Reads a record back, checking every field (and its size).
pub fn unpack(layout: Layout, r: &[u8]) -> Result<Sample, DataError> {
    if r.len() != layout.record_size() {
        return Err(DataError::BadLength(r.len()));
    }
    match layout {
        Layout::Shogi => unpack_shogi(r),
        _ => unpack32(layout, r),
    }
}

fn pack32(layout: Layout, s: &Sample) -> Result<[u8; RECORD_SIZE], DataError> {
    if s.pieces.len() > MAX_PIECES {
        return Err(DataError::TooManyPieces(s.pieces.len()));
    }
    let mut out = [0u8; RECORD_SIZE];
    let occ_len = layout.occ_bytes();
    let mut prev: Option<u8> = None;
    for (i, &(sq, code)) in s.pieces.iter().enumerate() {
        if sq as usize >= layout.squares() {
            return Err(DataError::BadSquare(sq));
        }
        if !valid_code(layout, code) {
            return Err(DataError::BadPiece(code));
        }
        if prev.is_some_and(|p| p >= sq) {
            return Err(DataError::Unordered);
        }
        prev = Some(sq);
        out[sq as usize / 8] |= 1 << (sq % 8);
        out[occ_len + i / 2] |= code << (4 * (i % 2));
    }
    let flags = s.result as u8 | (s.black_to_move as u8) << 7;
    let tail = occ_len + 16;
    out[tail..tail + 2].copy_from_slice(&s.score.to_le_bytes());
    out[tail + 2] = flags;
    out[tail + 3] = s.halfmove;
    if layout == Layout::Chess {
        out[28..30].copy_from_slice(&s.fullmove.to_le_bytes());
        out[30..32].copy_from_slice(&s.best.to_le_bytes());
    }
    Ok(out)
}

fn unpack32(layout: Layout, r: &[u8]) -> Result<Sample, DataError> {
    let occ_len = layout.occ_bytes();
    let mut pieces = Vec::with_capacity(MAX_PIECES);
    for (byte, &bits) in r[..occ_len].iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let sq = (byte * 8) as u8 + bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if sq as usize >= layout.squares() {
                return Err(DataError::BadSquare(sq));
            }
            let i = pieces.len();
            if i >= MAX_PIECES {
                return Err(DataError::TooManyPieces(i + 1));
            }
            let code = (r[occ_len + i / 2] >> (4 * (i % 2))) & 15;
            if !valid_code(layout, code) {
                return Err(DataError::BadPiece(code));
            }
            pieces.push((sq, code));
        }
    }
    let tail = occ_len + 16;
    let score = i16::from_le_bytes([r[tail], r[tail + 1]]);
    let flags = r[tail + 2];
    let result = match flags & 3 {
        0 => Wdl::Loss,
        1 => Wdl::Draw,
        2 => Wdl::Win,
        x => return Err(DataError::BadResult(x)),
    };
    let (fullmove, best) = match layout {
        Layout::Chess => (
            u16::from_le_bytes([r[28], r[29]]),
            u16::from_le_bytes([r[30], r[31]]),
        ),
        Layout::Xiangqi | Layout::Shogi => (0, 0),
    };
    Ok(Sample {
        pieces,
        black_to_move: flags & 0x80 != 0,
        score,
        result,
        halfmove: r[tail + 3],
        fullmove,
        best,
    })
}

/// Hand kinds' thermometers: most pieces of each (P L N S G B R) and
/// where each starts past square 81 (`Shogi::hand_square`).
fn shogi_hand_square(h: u8, n: usize) -> Option<u8> {
    crate::features::Shogi::hand_square(h as usize, n)
}

fn pack_shogi(s: &Sample) -> Result<[u8; SHOGI_RECORD_SIZE], DataError> {
    if s.pieces.len() > SHOGI_MAX_PIECES {
        return Err(DataError::TooManyPieces(s.pieces.len()));
    }
    let mut out = [0u8; SHOGI_RECORD_SIZE];
    let mut prev: Option<u8> = None;
    // The hand entries after the board's: (colour, kind) never decreases
    // and each run counts its thermometer up from zero.
    let mut hand: Option<(u8, usize)> = None;
    let mut in_hand = 0u8;
    for (i, &(sq, code)) in s.pieces.iter().enumerate() {
        if !valid_code(Layout::Shogi, code) {
            return Err(DataError::BadPiece(code));
        }
        let kind = code & 15;
        if sq < 81 {
            if hand.is_some() {
                return Err(DataError::Unordered);
            }
            if prev.is_some_and(|p| p >= sq) {
                return Err(DataError::Unordered);
            }
            prev = Some(sq);
            out[sq as usize / 8] |= 1 << (sq % 8);
        } else {
            let n = match hand {
                Some((last, n)) if last == code => n + 1,
                Some((last, _)) if last > code => return Err(DataError::BadHand(sq, code)),
                _ => 0,
            };
            if kind > 6 || shogi_hand_square(kind, n) != Some(sq) {
                return Err(DataError::BadHand(sq, code));
            }
            hand = Some((code, n));
            in_hand += 1;
        }
        out[11 + i / 2] |= kind << (4 * (i % 2));
        out[31 + i / 8] |= (code >> 4) << (i % 8);
    }
    out[10] |= in_hand << 1;
    out[36..38].copy_from_slice(&s.score.to_le_bytes());
    out[38] = s.result as u8 | (s.black_to_move as u8) << 7;
    out[39] = s.halfmove;
    out[40..42].copy_from_slice(&s.best.to_le_bytes());
    Ok(out)
}

fn unpack_shogi(r: &[u8]) -> Result<Sample, DataError> {
    let mut pieces = Vec::with_capacity(SHOGI_MAX_PIECES);
    let in_hand = (r[10] >> 1) as usize;
    let colour = |i: usize| (r[31 + i / 8] >> (i % 8)) & 1;
    let kind = |i: usize| (r[11 + i / 2] >> (4 * (i % 2))) & 15;
    for (byte, &bits) in r[..11].iter().enumerate() {
        let mut bits = if byte == 10 { bits & 1 } else { bits };
        while bits != 0 {
            let sq = (byte * 8) as u8 + bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let i = pieces.len();
            if i >= SHOGI_MAX_PIECES {
                return Err(DataError::TooManyPieces(i + 1));
            }
            let code = (colour(i) << 4) | kind(i);
            if !valid_code(Layout::Shogi, code) {
                return Err(DataError::BadPiece(code));
            }
            pieces.push((sq, code));
        }
    }
    if pieces.len() + in_hand > SHOGI_MAX_PIECES {
        return Err(DataError::TooManyPieces(pieces.len() + in_hand));
    }
    let mut hand: Option<(u8, usize)> = None;
    for _ in 0..in_hand {
        let i = pieces.len();
        let code = (colour(i) << 4) | kind(i);
        let n = match hand {
            Some((last, n)) if last == code => n + 1,
            Some((last, _)) if last > code => return Err(DataError::BadHand(0, code)),
            _ => 0,
        };
        let Some(sq) = (kind(i) <= 6)
            .then(|| shogi_hand_square(kind(i), n))
            .flatten()
        else {
            return Err(DataError::BadHand(0, code));
        };
        hand = Some((code, n));
        pieces.push((sq, code));
    }
    let flags = r[38];
    let result = match flags & 3 {
        0 => Wdl::Loss,
        1 => Wdl::Draw,
        2 => Wdl::Win,
        x => return Err(DataError::BadResult(x)),
    };
    Ok(Sample {
        pieces,
        black_to_move: flags & 0x80 != 0,
        score: i16::from_le_bytes([r[36], r[37]]),
        result,
        halfmove: r[39],
        fullmove: 0,
        best: u16::from_le_bytes([r[40], r[41]]),
    })
}

/// The SFEN of a shogi record (move number 1): its board, side to move
/// and hands, for tools that rebuild the position (`None` if a code is
/// out of range).
pub fn shogi_sfen(s: &Sample) -> Option<String> {
    const LETTERS: &[u8; 8] = b"PLNSGBRK";
    let mut grid: Vec<Option<String>> = vec![None; 81];
    let mut hands = [[0u8; 7]; 2];
    for &(sq, code) in &s.pieces {
        let (colour, kind) = ((code >> 4) as usize, (code & 15) as usize);
        if colour > 1 || kind > 13 {
            return None;
        }
        if sq >= 81 {
            *hands[colour].get_mut(kind)? += 1;
            continue;
        }
        // +P +L +N +S +B +R (8..13) promote P L N S B R.
        let base = if kind >= 8 {
            [0, 1, 2, 3, 5, 6][kind - 8]
        } else {
            kind
        };
        let mut letter = (LETTERS[base] as char).to_string();
        if kind >= 8 {
            letter.insert(0, '+');
        }
        if colour == 1 {
            letter = letter.to_ascii_lowercase();
        }
        *grid.get_mut(sq as usize)? = Some(letter);
    }
    let mut out = String::new();
    for rank in 0..9 {
        let mut empty = 0;
        for file in 0..9 {
            match &grid[rank * 9 + file] {
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank < 8 {
            out.push('/');
        }
    }
    out.push_str(if s.black_to_move { " w " } else { " b " });
    let mut hand = String::new();
    // SFEN lists the hand rook first: R B G S N L P, Black's then White's.
    for (colour, counts) in hands.iter().enumerate() {
        for h in (0..7).rev() {
            let n = counts[h];
            if n == 0 {
                continue;
            }
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            let c = LETTERS[h] as char;
            hand.push(if colour == 1 {
                c.to_ascii_lowercase()
            } else {
                c
            });
        }
    }
    out.push_str(if hand.is_empty() { "-" } else { &hand });
    out.push_str(" 1");
    Some(out)
}

/// A shard's header for `layout`.
pub fn header(layout: Layout) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10] = layout.id();
    h[11] = layout.record_size() as u8;
    h
}

/// Checks a shard's header and says which game it holds.
pub fn read_header(h: &[u8; HEADER_SIZE]) -> Result<Layout, DataError> {
    if &h[..8] != MAGIC {
        return Err(DataError::BadHeader("wrong magic".into()));
    }
    let version = u16::from_le_bytes([h[8], h[9]]);
    if version != VERSION {
        return Err(DataError::BadHeader(format!(
            "format version {version}, this build reads {VERSION}"
        )));
    }
    let layout =
        Layout::from_id(h[10]).ok_or_else(|| DataError::BadHeader(format!("game id {}", h[10])))?;
    if h[11] as usize != layout.record_size() {
        return Err(DataError::BadHeader(format!(
            "record size {} for {} (expected {})",
            h[11],
            layout.name(),
            layout.record_size()
        )));
    }
    Ok(layout)
}

/// Writes a header (for a new shard).
pub fn write_header(w: &mut impl Write, layout: Layout) -> io::Result<()> {
    w.write_all(&header(layout))
}

/// Reads every record of a shard (header checked): the layout and the
/// samples. A trailing partial record is ignored (a cut-off write).
pub fn read_shard(r: &mut impl Read) -> io::Result<(Layout, Vec<Sample>)> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes)?;
    let invalid = |e: DataError| io::Error::new(io::ErrorKind::InvalidData, e);
    let Some(h) = bytes.get(..HEADER_SIZE) else {
        return Err(invalid(DataError::BadHeader(
            "shorter than a header".into(),
        )));
    };
    let mut hb = [0u8; HEADER_SIZE];
    hb.copy_from_slice(h);
    let layout = read_header(&hb).map_err(invalid)?;
    let size = layout.record_size();
    let mut out = Vec::with_capacity((bytes.len() - HEADER_SIZE) / size);
    for chunk in bytes[HEADER_SIZE..].chunks_exact(size) {
        out.push(unpack(layout, chunk).map_err(invalid)?);
    }
    Ok((layout, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_start() -> Sample {
        // White: pawns rank 2, pieces rank 1; Black mirrored.
        let back = [3u8, 1, 2, 4, 5, 2, 1, 3];
        let mut pieces = Vec::new();
        for (f, &k) in back.iter().enumerate() {
            pieces.push((f as u8, k));
        }
        for f in 0..8u8 {
            pieces.push((8 + f, 0));
        }
        for f in 0..8u8 {
            pieces.push((48 + f, 8));
        }
        for (f, &k) in back.iter().enumerate() {
            pieces.push((56 + f as u8, 8 + k));
        }
        Sample {
            pieces,
            black_to_move: false,
            score: 31,
            result: Wdl::Draw,
            halfmove: 0,
            fullmove: 1,
            best: 0x031c,
        }
    }

    #[test]
    fn chess_record_round_trip() {
        let s = chess_start();
        let r = pack(Layout::Chess, &s).unwrap();
        assert_eq!(&r[..8], &0xffff_0000_0000_ffffu64.to_le_bytes());
        // a1 white rook (3), b1 white knight (1) share the first nibble byte.
        assert_eq!(r[8], 0x13);
        assert_eq!(unpack(Layout::Chess, &r).unwrap(), s);
        let mut t = s.clone();
        t.black_to_move = true;
        t.score = -32000;
        t.result = Wdl::Loss;
        t.halfmove = 255;
        t.fullmove = 65535;
        t.best = 0xffff;
        t.pieces.truncate(3);
        let r = pack(Layout::Chess, &t).unwrap();
        assert_eq!(unpack(Layout::Chess, &r).unwrap(), t);
    }

    #[test]
    fn xiangqi_record_round_trip_uses_all_90_points() {
        let s = Sample {
            pieces: vec![(0, 4), (4, 0), (40, 14), (85, 8), (89, 12)],
            black_to_move: true,
            score: -457,
            result: Wdl::Win,
            halfmove: 17,
            fullmove: 0,
            best: 0,
        };
        let r = pack(Layout::Xiangqi, &s).unwrap();
        assert_eq!(r[11] & 0x02, 0x02, "point 89 is bit 1 of byte 11");
        assert_eq!(unpack(Layout::Xiangqi, &r).unwrap(), s);
    }

    #[test]
    fn bad_samples_and_records_are_refused() {
        let mut s = chess_start();
        s.pieces.push((40, 0));
        assert_eq!(pack(Layout::Chess, &s), Err(DataError::TooManyPieces(33)));
        s.pieces.truncate(20);
        s.pieces.push((40, 0));
        assert_eq!(pack(Layout::Chess, &s), Err(DataError::Unordered));
        let mut s = chess_start();
        s.pieces[0].1 = 6; // no seventh chess kind
        assert_eq!(pack(Layout::Chess, &s), Err(DataError::BadPiece(6)));
        let s = Sample {
            pieces: vec![(90, 0)],
            ..chess_start()
        };
        assert_eq!(pack(Layout::Xiangqi, &s), Err(DataError::BadSquare(90)));
        let mut r = [0u8; RECORD_SIZE];
        r[11] = 0x04; // point 90
        assert_eq!(unpack(Layout::Xiangqi, &r), Err(DataError::BadSquare(90)));
        let mut r = [0u8; RECORD_SIZE];
        r[26] = 3;
        assert_eq!(unpack(Layout::Chess, &r), Err(DataError::BadResult(3)));
        let mut r = [0u8; RECORD_SIZE];
        r[0] = 1;
        r[8] = 7;
        assert_eq!(unpack(Layout::Chess, &r), Err(DataError::BadPiece(7)));
    }

    #[test]
    fn shard_round_trip_checks_its_header() {
        let s = chess_start();
        let mut bytes = Vec::new();
        write_header(&mut bytes, Layout::Chess).unwrap();
        for _ in 0..3 {
            bytes.extend_from_slice(&pack(Layout::Chess, &s).unwrap());
        }
        bytes.extend_from_slice(&[1, 2, 3]); // a cut-off write
        let (layout, samples) = read_shard(&mut bytes.as_slice()).unwrap();
        assert_eq!(layout, Layout::Chess);
        assert_eq!(samples, vec![s.clone(), s.clone(), s]);
        bytes[0] = b'X';
        assert!(read_shard(&mut bytes.as_slice()).is_err());
        let mut h = header(Layout::Xiangqi);
        assert_eq!(read_header(&h), Ok(Layout::Xiangqi));
        h[10] = 9;
        assert!(read_header(&h).is_err());
        h[10] = 2;
        h[8] = 2;
        assert!(read_header(&h).is_err());
    }

    /// A shogi position with both hands: the board's pieces, then each
    /// hand's thermometer (Black's 2 pawns and a rook, White's bishop).
    fn shogi_sample() -> Sample {
        let hs = |h: usize, n: usize| crate::features::Shogi::hand_square(h, n).unwrap_or(0);
        Sample {
            // 9a white lance, 5a white king, 7c white +B (13), 5i black
            // king, 1i black lance, 1h black +R (13).
            pieces: vec![
                (0, 16 + 1),
                (4, 16 + 7),
                (20, 16 + 12),
                (71, 13),
                (76, 7),
                (80, 1),
                (hs(0, 0), 0),
                (hs(0, 1), 0),
                (hs(6, 0), 6),
                (hs(5, 0), 16 + 5),
            ],
            black_to_move: true,
            score: -1234,
            result: Wdl::Win,
            halfmove: 97,
            fullmove: 0,
            best: 0x1234,
        }
    }

    #[test]
    fn shogi_record_round_trip_with_hands() {
        let s = shogi_sample();
        let r = pack(Layout::Shogi, &s).unwrap();
        assert_eq!(r.len(), SHOGI_RECORD_SIZE);
        assert_eq!(r[10] & 1, 1, "square 80 is bit 0 of byte 10");
        assert_eq!(r[10] >> 1, 4, "four pieces in hand");
        assert_eq!(unpack(Layout::Shogi, &r).unwrap(), s);
        assert_eq!(
            shogi_sfen(&s).unwrap(),
            "l3k4/9/2+b6/9/9/9/9/8+R/4K3L w R2Pb 1"
        );
        let promoted = Sample {
            pieces: (8..14u8).map(|k| (k, k)).collect(),
            ..s.clone()
        };
        assert_eq!(
            shogi_sfen(&promoted).unwrap(),
            "8+P/+L+N+S+B+R4/9/9/9/9/9/9/9 w - 1"
        );
        // All 40 pieces of a game: 38 on the board, two in hand.
        let mut full = Sample {
            pieces: (0..38u8)
                .map(|i| (i * 2, ((i % 2) << 4) | (i % 14)))
                .collect(),
            ..s.clone()
        };
        full.pieces.push((81, 0));
        full.pieces.push((81, 16));
        let r = pack(Layout::Shogi, &full).unwrap();
        assert_eq!(unpack(Layout::Shogi, &r).unwrap(), full);
        full.pieces.push((82, 16));
        assert_eq!(
            pack(Layout::Shogi, &full),
            Err(DataError::TooManyPieces(41))
        );
        // Hands out of thermometer order, a board piece after the hands.
        let mut bad = s.clone();
        bad.pieces.swap(6, 8);
        assert!(matches!(
            pack(Layout::Shogi, &bad),
            Err(DataError::BadHand(..))
        ));
        let mut bad = s.clone();
        bad.pieces[7].0 += 1;
        assert!(pack(Layout::Shogi, &bad).is_err());
        let mut bad = s.clone();
        bad.pieces.push((3, 0));
        assert_eq!(pack(Layout::Shogi, &bad), Err(DataError::Unordered));
        let mut bad = s.clone();
        bad.pieces[0].1 = 14;
        assert_eq!(pack(Layout::Shogi, &bad), Err(DataError::BadPiece(14)));
        // A record of another game's size is refused.
        assert_eq!(
            unpack(Layout::Shogi, &r[..32]),
            Err(DataError::BadLength(32))
        );
        assert_eq!(
            unpack(Layout::Chess, &r),
            Err(DataError::BadLength(SHOGI_RECORD_SIZE))
        );
    }

    #[test]
    fn shogi_shards_have_their_own_record_size() {
        let s = shogi_sample();
        let mut bytes = Vec::new();
        write_header(&mut bytes, Layout::Shogi).unwrap();
        assert_eq!(bytes[10..12], [3, 42]);
        for _ in 0..3 {
            bytes.extend_from_slice(&pack(Layout::Shogi, &s).unwrap());
        }
        bytes.extend_from_slice(&[7; 32]); // a cut-off write
        let (layout, samples) = read_shard(&mut bytes.as_slice()).unwrap();
        assert_eq!(layout, Layout::Shogi);
        assert_eq!(samples, vec![s.clone(), s.clone(), s]);
        // A shogi game byte with a 32-byte record size (or a chess one
        // with 42) is not a shard this build reads.
        let mut h = header(Layout::Shogi);
        h[11] = 32;
        assert!(read_header(&h).is_err());
        let mut h = header(Layout::Chess);
        assert_eq!(h[11], 32);
        h[11] = 42;
        assert!(read_header(&h).is_err());
    }
}
