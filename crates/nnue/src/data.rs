//! The training-data format: one position, its search score and the game
//! result in 32 bytes.
//!
//! A data file (a *shard*) is a 16-byte header followed by records of
//! [`RECORD_SIZE`] bytes each:
//!
//! ```text
//! header  0..8   magic b"TGNNDATA"
//!         8..10  format version, u16 little-endian (1)
//!         10     game: 1 chess, 2 xiangqi
//!         11     record size in bytes (32)
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
//! always suffice. Records are independent, so a shard can be cut at any
//! multiple of 32 bytes after the header.

use std::fmt;
use std::io::{self, Read, Write};

/// Bytes in one record.
pub const RECORD_SIZE: usize = 32;
/// Bytes in a shard's header.
pub const HEADER_SIZE: usize = 16;
const MAGIC: &[u8; 8] = b"TGNNDATA";
const VERSION: u16 = 1;
/// The most pieces a record holds.
pub const MAX_PIECES: usize = 32;

/// How a game's records are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Chess,
    Xiangqi,
}

impl Layout {
    /// Squares (points) on the board.
    pub const fn squares(self) -> usize {
        match self {
            Layout::Chess => 64,
            Layout::Xiangqi => 90,
        }
    }

    /// Piece kinds per colour.
    pub const fn kinds(self) -> u8 {
        match self {
            Layout::Chess => 6,
            Layout::Xiangqi => 7,
        }
    }

    /// The game byte of a shard header.
    pub const fn id(self) -> u8 {
        match self {
            Layout::Chess => 1,
            Layout::Xiangqi => 2,
        }
    }

    pub fn from_id(id: u8) -> Option<Layout> {
        match id {
            1 => Some(Layout::Chess),
            2 => Some(Layout::Xiangqi),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Layout::Chess => "chess",
            Layout::Xiangqi => "xiangqi",
        }
    }

    const fn occ_bytes(self) -> usize {
        match self {
            Layout::Chess => 8,
            Layout::Xiangqi => 12,
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
    /// `(square, colour * 8 + kind)` in increasing square order.
    pub pieces: Vec<(u8, u8)>,
    /// The second player (Black) is to move.
    pub black_to_move: bool,
    /// Search score from the side to move's view.
    pub score: i16,
    pub result: Wdl,
    /// Chess: halfmove clock; xiangqi: plies since the last capture.
    pub halfmove: u8,
    /// Chess only (zero in xiangqi records).
    pub fullmove: u16,
    /// Chess only: the searched best move's code (zero in xiangqi).
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
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::TooManyPieces(n) => write!(f, "{n} pieces (at most {MAX_PIECES})"),
            DataError::BadSquare(s) => write!(f, "square {s} is off the board"),
            DataError::BadPiece(p) => write!(f, "piece code {p} names no piece"),
            DataError::Unordered => f.write_str("pieces out of square order"),
            DataError::BadResult(r) => write!(f, "result {r} (expected 0, 1 or 2)"),
            DataError::BadHeader(why) => write!(f, "not a data shard: {why}"),
        }
    }
}

impl std::error::Error for DataError {}

fn valid_code(layout: Layout, code: u8) -> bool {
    code & 7 < layout.kinds() && code < 16
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

/// Packs `s` into a record.
pub fn pack(layout: Layout, s: &Sample) -> Result<[u8; RECORD_SIZE], DataError> {
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

/// Reads a record back, checking every field.
pub fn unpack(layout: Layout, r: &[u8; RECORD_SIZE]) -> Result<Sample, DataError> {
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
        Layout::Xiangqi => (0, 0),
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

/// A shard's header for `layout`.
pub fn header(layout: Layout) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10] = layout.id();
    h[11] = RECORD_SIZE as u8;
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
    if h[11] as usize != RECORD_SIZE {
        return Err(DataError::BadHeader(format!("record size {}", h[11])));
    }
    Layout::from_id(h[10]).ok_or_else(|| DataError::BadHeader(format!("game id {}", h[10])))
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
    let mut out = Vec::with_capacity((bytes.len() - HEADER_SIZE) / RECORD_SIZE);
    for chunk in bytes[HEADER_SIZE..].chunks_exact(RECORD_SIZE) {
        let mut rec = [0u8; RECORD_SIZE];
        rec.copy_from_slice(chunk);
        out.push(unpack(layout, &rec).map_err(invalid)?);
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
}
