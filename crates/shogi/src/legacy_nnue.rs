//! A small efficiently-updatable neural network evaluation (NNUE).
//!
//! Inputs, seen from one side (the *perspective*): every piece on the board
//! by kind, by whether it is the perspective's own or the enemy's, and by
//! square (the board rotated for White, mirrored left-right when the
//! perspective's king stands on the right half), and every piece in hand
//! as a "thermometer" (the first, second, ... pawn in hand are separate
//! inputs). The whole input set is repeated per *king bucket*, a coarse
//! region of the perspective's own king, so the network can value a piece
//! by where it stands relative to the king it guards.
//!
//! One hidden layer per perspective (the feature transformer, whose sums
//! are what an incremental update would keep), squared clipped ReLU, and a
//! linear output over both halves, the side to move's first. Weights are
//! integers: the transformer in units of 1/`QA`, the output in units of
//! 1/`QB`. The file format is written by `examples/nnue_train.rs`.

use crate::board::Board;
use crate::types::{Color, Kind, Square};
use std::sync::{Arc, OnceLock, RwLock};

/// Board inputs per bucket: own/enemy x 14 kinds x 81 squares.
pub const BOARD_INPUTS: usize = 2 * 14 * 81;
/// Most pieces of each hand kind (P L N S G B R) that get an input.
pub const HAND_MAX: [usize; 7] = [18, 4, 4, 4, 4, 2, 2];
/// Where each hand kind's thermometer starts within one side's hand inputs.
const HAND_OFFSET: [usize; 7] = [0, 18, 22, 26, 30, 34, 36];
/// Hand inputs of one side.
pub const HAND_INPUTS_PER_SIDE: usize = 38;
/// Inputs per king bucket (without king-relative inputs).
pub const INPUTS_PER_BUCKET: usize = BOARD_INPUTS + 2 * HAND_INPUTS_PER_SIDE;
/// Half-width of the window of squares around a king that king-relative
/// inputs cover (rows and files within this distance).
pub const REL_REACH: usize = 4;
/// Squares in that window.
const REL_SQUARES: usize = (2 * REL_REACH + 1) * (2 * REL_REACH + 1);
/// King-relative inputs: relative to the perspective's own king and to
/// the enemy king, own/enemy x 14 kinds x the window's squares.
pub const REL_INPUTS: usize = 2 * 2 * 14 * REL_SQUARES;

/// Inputs per king bucket of a network with or without king-relative
/// inputs.
#[inline]
pub const fn inputs_per_bucket(king_relative: bool) -> usize {
    if king_relative {
        INPUTS_PER_BUCKET + REL_INPUTS
    } else {
        INPUTS_PER_BUCKET
    }
}

/// Quantisation of the transformer (1.0 = `QA`) and the output (1.0 = `QB`).
pub const QA: i32 = 255;
pub const QB: i32 = 1024;

const MAGIC: &[u8; 8] = b"TGSNNUE3";

/// Header flag: the network was trained as a correction to the hand-made
/// evaluation, which the engine adds to its output.
pub const FLAG_RESIDUAL: u32 = 1;

/// Header flag: besides the absolute inputs, each piece near a king is an
/// input by its offset from that king (both kings), so what a castle or
/// an attack looks like is learned once for every king square.
pub const FLAG_KING_RELATIVE: u32 = 2;

/// The perspective's view of a square: rotated for White, then mirrored
/// when `mirror` is set.
#[inline]
fn orient(sq: Square, perspective: Color, mirror: bool) -> usize {
    let s = match perspective {
        Color::Black => sq.index(),
        Color::White => sq.flip().index(),
    };
    if mirror {
        s - s % 9 + (8 - s % 9)
    } else {
        s
    }
}

/// Whether `perspective`'s inputs are mirrored: its king, seen from its
/// own side, stands right of the centre file.
#[inline]
pub fn mirrored(board: &Board, perspective: Color) -> bool {
    board
        .king(perspective)
        .is_some_and(|k| orient(k, perspective, false) % 9 > 4)
}

/// The perspective's king square as its own inputs see it (0..81), or
/// `None` without a king.
#[inline]
pub fn king_square(board: &Board, perspective: Color) -> Option<usize> {
    let mirror = mirrored(board, perspective);
    board
        .king(perspective)
        .map(|k| orient(k, perspective, mirror))
}

/// Index (within a bucket) of the `n`-th (0-based) piece of hand kind
/// `hand_index` held by `color`; `None` past the thermometer's end.
#[inline]
pub fn hand_input(perspective: Color, color: Color, hand_index: usize, n: usize) -> Option<usize> {
    let rel = usize::from(color != perspective);
    (n < HAND_MAX[hand_index])
        .then(|| BOARD_INPUTS + rel * HAND_INPUTS_PER_SIDE + HAND_OFFSET[hand_index] + n)
}

/// The two kings' squares as `perspective`'s inputs see them (its own
/// first), for king-relative inputs.
#[inline]
pub fn king_squares(board: &Board, perspective: Color, mirror: bool) -> [Option<usize>; 2] {
    [perspective, perspective.flip()].map(|c| board.king(c).map(|k| orient(k, perspective, mirror)))
}

/// Calls `f` with the inputs (within a bucket) of a piece of `color` and
/// `kind` on `sq`: its absolute input and, when `kings` holds the kings'
/// oriented squares (king-relative networks only; see [`king_squares`]),
/// its offset from each king that has it within the window.
#[inline]
pub fn for_each_piece_input(
    perspective: Color,
    mirror: bool,
    kings: Option<&[Option<usize>; 2]>,
    color: Color,
    kind: Kind,
    sq: Square,
    mut f: impl FnMut(usize),
) {
    let s = orient(sq, perspective, mirror);
    let piece = usize::from(color != perspective) * 14 + kind.index();
    f(piece * 81 + s);
    let span = 2 * REL_REACH + 1;
    for (which, king) in kings.into_iter().flatten().enumerate() {
        let Some(k) = *king else { continue };
        let (Some(dr), Some(dc)) = (
            (s / 9 + REL_REACH).checked_sub(k / 9),
            (s % 9 + REL_REACH).checked_sub(k % 9),
        ) else {
            continue;
        };
        if dr < span && dc < span {
            f(INPUTS_PER_BUCKET + (which * 28 + piece) * REL_SQUARES + dr * span + dc);
        }
    }
}

/// Calls `f` with every active input of `perspective` within a bucket
/// (add the bucket's base for the full index); king-relative ones too if
/// `king_relative`.
pub fn for_each_input(
    board: &Board,
    perspective: Color,
    king_relative: bool,
    mut f: impl FnMut(usize),
) {
    let mirror = mirrored(board, perspective);
    let kings = king_relative.then(|| king_squares(board, perspective, mirror));
    for sq in Square::all() {
        if let Some(p) = board.piece_at(sq) {
            for_each_piece_input(
                perspective,
                mirror,
                kings.as_ref(),
                p.color(),
                p.kind(),
                sq,
                &mut f,
            );
        }
    }
    for c in Color::BOTH {
        for (i, &n) in board.hand(c).iter().enumerate() {
            for k in 0..usize::from(n) {
                if let Some(x) = hand_input(perspective, c, i, k) {
                    f(x);
                }
            }
        }
    }
}

/// A network's weights.
pub struct Network {
    /// King bucket of each (oriented, mirrored) king square.
    buckets: [u8; 81],
    /// Number of king buckets.
    bucket_count: usize,
    hidden: usize,
    /// Inputs per bucket (see [`inputs_per_bucket`]).
    inputs: usize,
    /// `bucket_count * inputs` rows of `hidden` weights.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// `2 * hidden` weights: the side to move's half first.
    out_weights: Vec<i16>,
    /// In units of `QA * QB`.
    out_bias: i32,
    /// Centipawns per output unit of 1.0.
    scale: i32,
    flags: u32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} buckets, {} hidden, scale {}, flags {})",
            self.bucket_count, self.hidden, self.scale, self.flags
        )
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("network file ends early (at byte {})", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let b = self.take(n.checked_mul(2).ok_or("network too large")?)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Network {
    /// Reads a network file, naming what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("not a tengen shogi network (bad magic)".into());
        }
        let bucket_count = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        let scale = r.u32()? as i32;
        let flags = r.u32()?;
        if flags & !(FLAG_RESIDUAL | FLAG_KING_RELATIVE) != 0 {
            return Err(format!("unknown header flags {flags:#x}"));
        }
        if !(1..=81).contains(&bucket_count) {
            return Err(format!("bad bucket count {bucket_count}"));
        }
        if hidden == 0 || hidden > 4096 || !hidden.is_multiple_of(16) {
            return Err(format!("bad hidden size {hidden}"));
        }
        if !(1..=100_000).contains(&scale) {
            return Err(format!("bad output scale {scale}"));
        }
        let mut buckets = [0u8; 81];
        buckets.copy_from_slice(r.take(81)?);
        if buckets.iter().any(|&b| usize::from(b) >= bucket_count) {
            return Err("king bucket table names a bucket past the count".into());
        }
        let inputs = inputs_per_bucket(flags & FLAG_KING_RELATIVE != 0);
        let ft_weights = r.i16s(bucket_count * inputs * hidden)?;
        let ft_bias = r.i16s(hidden)?;
        let out_weights = r.i16s(2 * hidden)?;
        let out_bias = r.u32()? as i32;
        if r.at != bytes.len() {
            return Err(format!(
                "{} bytes left over after the network",
                bytes.len() - r.at
            ));
        }
        Ok(Network {
            buckets,
            bucket_count,
            inputs,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            scale,
            flags,
        })
    }

    /// Writes the network in the format [`Network::from_bytes`] reads.
    #[allow(clippy::too_many_arguments)]
    pub fn to_bytes(
        buckets: &[u8; 81],
        bucket_count: usize,
        hidden: usize,
        scale: i32,
        flags: u32,
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&(bucket_count as u32).to_le_bytes());
        v.extend_from_slice(&(hidden as u32).to_le_bytes());
        v.extend_from_slice(&(scale as u32).to_le_bytes());
        v.extend_from_slice(&flags.to_le_bytes());
        v.extend_from_slice(buckets);
        for w in ft_weights.iter().chain(ft_bias).chain(out_weights) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&(out_bias as u32).to_le_bytes());
        v
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the output is a correction to the hand-made evaluation.
    pub fn is_residual(&self) -> bool {
        self.flags & FLAG_RESIDUAL != 0
    }

    /// Whether the network has king-relative inputs.
    #[inline]
    pub fn is_king_relative(&self) -> bool {
        self.flags & FLAG_KING_RELATIVE != 0
    }

    /// The mirroring and bucket base `perspective`'s inputs have with its
    /// king on `king` (what [`mirrored`] and `bucket_base` give).
    #[inline]
    pub(crate) fn king_view(&self, king: Square, perspective: Color) -> (bool, usize) {
        let mirror = orient(king, perspective, false) % 9 > 4;
        let b = usize::from(self.buckets[orient(king, perspective, mirror)]);
        (mirror, b * self.inputs)
    }

    /// First input index of `perspective`'s king bucket.
    #[inline]
    pub(crate) fn bucket_base(&self, board: &Board, perspective: Color) -> usize {
        let b = king_square(board, perspective).map_or(0, |k| usize::from(self.buckets[k]));
        b * self.inputs
    }

    /// Row `index` of the transformer (`hidden` weights).
    #[inline]
    pub(crate) fn row(&self, index: usize, hidden: usize) -> &[i16] {
        &self.ft_weights[index * hidden..(index + 1) * hidden]
    }

    /// The transformer's sums for `perspective`, computed from scratch.
    pub fn refresh(&self, board: &Board, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_bias);
        let base = self.bucket_base(board, perspective);
        let h = self.hidden;
        for_each_input(board, perspective, self.is_king_relative(), |i| {
            let row = &self.ft_weights[(base + i) * h..(base + i + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        });
    }

    /// The output for the two perspectives' sums, the side to move's
    /// first, in centipawns.
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        // sum is in QA * QA * QB units; bring it to QA * QB.
        let raw = sum / i64::from(QA) + i64::from(self.out_bias);
        (raw * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// Evaluates `board` from the side to move's view, from scratch.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut us = vec![0i16; self.hidden];
        let mut them = vec![0i16; self.hidden];
        let stm = board.side_to_move();
        self.refresh(board, stm, &mut us);
        self.refresh(board, stm.flip(), &mut them);
        self.output(&us, &them)
    }
}

/// Sum of `clamp(a, 0, QA)^2 * w`, exactly.
///
/// `v^2` (at most 65,025) is split into its high and low bytes so that
/// every product is of two 16-bit numbers summed in 32 bits, the shape
/// SSE2's `pmaddwd` computes eight at a time; the plain form multiplies in
/// 64 bits one element at a time. Blocks of 64 keep the 32-bit sums
/// exact: 64 * 255 * 32,768 < 2^31.
#[inline]
fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.chunks(64).zip(w.chunks(64)) {
        let mut hi = 0i32;
        let mut lo = 0i32;
        for (&a, &w) in a.iter().zip(w) {
            let v = a.clamp(0, QA as i16) as u16;
            let sq = v * v;
            hi += i32::from((sq >> 8) as i16) * i32::from(w);
            lo += i32::from((sq & 0xFF) as i16) * i32::from(w);
        }
        total += (i64::from(hi) << 8) + i64::from(lo);
    }
    total
}

/// The embedded default network, if the build has one.
const DEFAULT_NET: &[u8] = include_bytes!("../nets/default.nnue");

fn global() -> &'static RwLock<Option<Arc<Network>>> {
    static NET: OnceLock<RwLock<Option<Arc<Network>>>> = OnceLock::new();
    NET.get_or_init(|| RwLock::new(Network::from_bytes(DEFAULT_NET).ok().map(Arc::new)))
}

/// The network evaluations use now: the embedded one unless replaced.
pub fn current() -> Option<Arc<Network>> {
    match global().read() {
        Ok(g) => g.clone(),
        Err(p) => p.into_inner().clone(),
    }
}

/// Replaces the network (`None`: the hand-made evaluation alone).
pub fn set_current(net: Option<Network>) {
    let net = net.map(Arc::new);
    match global().write() {
        Ok(mut g) => *g = net,
        Err(p) => *p.into_inner() = net,
    }
}

/// Loads a network file and makes it current; `"<empty>"` or an empty
/// path turns the network off, `"<default>"` restores the embedded one.
pub fn load(path: &str) -> Result<(), String> {
    match path {
        "" | "<empty>" => {
            set_current(None);
            Ok(())
        }
        "<default>" => {
            // A build without an embedded network evaluates by hand.
            let net = if DEFAULT_NET.is_empty() {
                None
            } else {
                Some(Network::from_bytes(DEFAULT_NET)?)
            };
            set_current(net);
            Ok(())
        }
        _ => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            set_current(Some(Network::from_bytes(&bytes)?));
            Ok(())
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A network with deterministic pseudo-random weights.
    pub(crate) fn toy(bucket_count: usize, hidden: usize) -> Network {
        toy_with(bucket_count, hidden, 0)
    }

    /// Like [`toy`], with header `flags`.
    pub(crate) fn toy_with(bucket_count: usize, hidden: usize, flags: u32) -> Network {
        let inputs = inputs_per_bucket(flags & FLAG_KING_RELATIVE != 0);
        let mut seed = 12345u64;
        let mut next = |m: i64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (((seed >> 33) as i64 % (2 * m + 1)) - m) as i16
        };
        let mut buckets = [0u8; 81];
        for (i, b) in buckets.iter_mut().enumerate() {
            *b = (i % bucket_count) as u8;
        }
        let ft: Vec<i16> = (0..bucket_count * inputs * hidden)
            .map(|_| next(20))
            .collect();
        let fb: Vec<i16> = (0..hidden).map(|_| next(60)).collect();
        let ow: Vec<i16> = (0..2 * hidden).map(|_| next(100)).collect();
        let bytes = Network::to_bytes(
            &buckets,
            bucket_count,
            hidden,
            400,
            flags,
            &ft,
            &fb,
            &ow,
            1234,
        );
        Network::from_bytes(&bytes).unwrap()
    }

    #[test]
    fn screlu_dot_is_exact_at_the_extremes() {
        // The plain 64-bit form, element by element.
        let plain = |a: &[i16], w: &[i16]| -> i64 {
            a.iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let v = i64::from(a.clamp(0, QA as i16));
                    v * v * i64::from(w)
                })
                .sum()
        };
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 48) as u16 as i16
        };
        for n in [16, 64, 256, 512, 1024] {
            // Every element at the largest product, both signs, then random.
            let a = vec![i16::MAX; n];
            for w in [i16::MIN, i16::MAX] {
                let w = vec![w; n];
                assert_eq!(screlu_dot(&a, &w), plain(&a, &w));
            }
            for _ in 0..50 {
                let a: Vec<i16> = (0..n).map(|_| next()).collect();
                let w: Vec<i16> = (0..n).map(|_| next()).collect();
                assert_eq!(screlu_dot(&a, &w), plain(&a, &w));
            }
        }
    }
    #[test]
    fn inputs_are_in_range_and_distinct() {
        let b = Board::from_sfen(
            "+Pn2l4/3k5/1p1g2sp1/3spp2p/p6+r1/2P1PPsL1/2S2g3/5K3/3NG3L b RBGLPb2n7p 147",
        )
        .unwrap();
        for (c, relative) in Color::BOTH
            .into_iter()
            .flat_map(|c| [(c, false), (c, true)])
        {
            let mut seen = Vec::new();
            for_each_input(&b, c, relative, |i| seen.push(i));
            assert!(seen.iter().all(|&i| i < inputs_per_bucket(relative)));
            let n = seen.len();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n, "an input repeats");
            let extra = seen.iter().filter(|&&i| i >= INPUTS_PER_BUCKET).count();
            // Each king sees itself; pieces further than the window do not
            // count.
            assert_eq!(extra > 0, relative);
        }
    }

    /// Tokens of one SFEN rank: `+X`, a letter or an empty run.
    fn rank_tokens(rank: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut plus = false;
        for ch in rank.chars() {
            if ch == '+' {
                plus = true;
                continue;
            }
            out.push(if plus {
                format!("+{ch}")
            } else {
                ch.to_string()
            });
            plus = false;
        }
        out
    }

    fn swap_case(s: &str) -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    }

    /// The position mirrored left-right (`rotate`: also rotated 180 degrees
    /// with colours, hands and the side to move swapped).
    fn transform(sfen: &str, rotate: bool) -> Board {
        let parts: Vec<&str> = sfen.split(' ').collect();
        let mut ranks: Vec<String> = parts[0]
            .split('/')
            .map(|r| rank_tokens(r).into_iter().rev().collect::<String>())
            .collect();
        let (mut side, mut hand) = (parts[1].to_string(), parts[2].to_string());
        if rotate {
            ranks.reverse();
            ranks = ranks.iter().map(|r| swap_case(r)).collect();
            side = if side == "b" { "w".into() } else { "b".into() };
            if hand != "-" {
                hand = swap_case(&hand);
            }
        }
        let text = format!("{} {} {} 1", ranks.join("/"), side, hand);
        Board::from_sfen(&text).unwrap()
    }

    const SAMPLES: [&str; 4] = [
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "ln1g1gsnl/1r1s1k1b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1BK1S2R1/LNSG1G1NL b - 11",
        "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
    ];

    #[test]
    fn colour_swapped_positions_evaluate_the_same() {
        // Rotating the board and swapping the colours leaves each side's
        // view unchanged.
        for net in [toy(3, 32), toy_with(3, 32, FLAG_KING_RELATIVE)] {
            for s in SAMPLES {
                let a = Board::from_sfen(s).unwrap();
                let rotated = transform(s, true);
                let mirrored_and_rotated = transform(&rotated.to_sfen(), false);
                assert_eq!(net.evaluate(&a), net.evaluate(&rotated), "{s}");
                let central = Color::BOTH
                    .iter()
                    .any(|&c| king_square(&a, c).is_some_and(|k| k % 9 == 4));
                if !central {
                    assert_eq!(net.evaluate(&a), net.evaluate(&mirrored_and_rotated), "{s}");
                }
            }
        }
    }

    #[test]
    fn left_right_mirror_evaluates_the_same_unless_a_king_is_central() {
        // Inputs are mirrored by each king's file, so a mirrored position
        // has the same inputs when neither king is on the centre file.
        for net in [toy(5, 32), toy_with(5, 32, FLAG_KING_RELATIVE)] {
            for s in SAMPLES {
                let a = Board::from_sfen(s).unwrap();
                let central = Color::BOTH
                    .iter()
                    .any(|&c| king_square(&a, c).is_some_and(|k| k % 9 == 4));
                let b = transform(s, false);
                if !central {
                    assert_eq!(net.evaluate(&a), net.evaluate(&b), "{s}");
                }
            }
        }
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(Network::from_bytes(b"nonsense").is_err());
        let net = toy(1, 16);
        let mut bytes = Network::to_bytes(
            &net.buckets,
            1,
            16,
            net.scale,
            net.flags,
            &net.ft_weights,
            &net.ft_bias,
            &net.out_weights,
            net.out_bias,
        );
        assert!(Network::from_bytes(&bytes).is_ok());
        bytes.pop();
        let e = Network::from_bytes(&bytes).unwrap_err();
        assert!(e.contains("ends early"), "{e}");
        bytes.extend_from_slice(&[0, 0]);
        let e = Network::from_bytes(&bytes).unwrap_err();
        assert!(e.contains("left over"), "{e}");
    }
}
