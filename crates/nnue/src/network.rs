//! A quantised network and its file format.
//!
//! Shape: inputs (a [`FeatureSet`]) → `hidden` per perspective (i16
//! weights and biases, 1.0 = [`QA`]) → squared clipped ReLU on both
//! perspectives' sums, the side to move's first → one output per output
//! bucket (i8 weights, 1.0 = [`QB`]; i32 bias, 1.0 = `QA * QB`), scaled
//! by `scale` to the engine's units.
//!
//! File (all integers little-endian):
//!
//! ```text
//!  0..8    magic b"TGNNUEv1"
//!  8       game (1 chess, 2 xiangqi; the data format's ids)
//!  9       feature set id (within the game)
//! 10       activation: 1 = squared clipped ReLU
//! 11       flags: bit 0 = residual (the engine adds its hand-made
//!          evaluation to the network's output); bit 1 = wide output
//!          (i16 output weights, QB 1024: shogi's residual networks,
//!          whose small output weights 1/64 steps would blur); other
//!          bits zero
//! 12..16   inputs, u32
//! 16..20   hidden size per perspective, u32 (a multiple of 16, 16..=1024)
//! 20..24   output buckets, u32
//! 24..26   QA, u16 (255)      26..28  QB, u16 (64; 1024 if wide)
//! 28..32   scale, u32 (the output in engine units is raw * scale / (QA*QB))
//! 32..     feature weights, i16 [inputs][hidden]; feature biases, i16
//!          [hidden]; output weights, i8 (i16 if wide) [buckets][2 *
//!          hidden]; output biases, i32 [buckets]
//! last 8   FNV-1a 64 checksum of every byte before it
//! ```
//!
//! Loading checks every field against the feature set the game expects,
//! the length, the checksum, and that no feature weight or bias is so
//! large that an accumulator could leave the i16 range (see
//! [`FT_WEIGHT_MAX`] and [`FeatureSet::FT_WEIGHT_MAX`]).

use crate::features::{FeatureSet, MAX_ACTIVE};
use crate::simd::{self, Level};
pub use crate::simd::{QA, QB, QB_WIDE};

const MAGIC: &[u8; 8] = b"TGNNUEv1";
const HEADER: usize = 32;
/// Activation byte for the squared clipped ReLU.
pub const SCRELU: u8 = 1;
/// Largest feature weight magnitude accepted. With at most
/// [`MAX_ACTIVE`] inputs active, `32 * 511 + 16,383 = 32,735 < 2^15`, so
/// an accumulator (bias plus active rows) always fits in i16.
pub const FT_WEIGHT_MAX: i16 = 511;
/// Largest feature bias magnitude accepted.
pub const FT_BIAS_MAX: i16 = 16_383;
/// Flag bit: the network is a correction to the hand-made evaluation.
pub const FLAG_RESIDUAL: u8 = 1;
/// Flag bit: output weights are i16 in units of 1/[`QB_WIDE`].
pub const FLAG_WIDE_OUTPUT: u8 = 2;
/// Default output scale: a raw output of 1.0 is this many engine units.
pub const DEFAULT_SCALE: u32 = 400;

const _: () =
    assert!(MAX_ACTIVE as i32 * FT_WEIGHT_MAX as i32 + FT_BIAS_MAX as i32 <= i16::MAX as i32);

/// A loaded network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub game: u8,
    pub feature_set: u8,
    pub inputs: usize,
    pub hidden: usize,
    pub buckets: usize,
    pub scale: u32,
    /// The engine's evaluation is the hand-made one plus this network's
    /// output (the network was trained on what the hand-made evaluation
    /// misses), not the output alone.
    pub residual: bool,
    /// Output weights are `out_w_wide` (i16, 1.0 = [`QB_WIDE`]) rather
    /// than `out_w` (i8, 1.0 = [`QB`]); the other is empty.
    pub wide: bool,
    /// `[inputs][hidden]`.
    pub ft_w: Vec<i16>,
    pub ft_b: Vec<i16>,
    /// `[buckets][2 * hidden]`, side to move's half first.
    pub out_w: Vec<i8>,
    /// Like `out_w`, for a wide network.
    pub out_w_wide: Vec<i16>,
    pub out_b: Vec<i32>,
}

/// FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err("the file is shorter than its header says".into());
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

fn game_name(id: u8) -> String {
    match id {
        1 => "chess".into(),
        2 => "xiangqi".into(),
        3 => "shogi".into(),
        x => format!("game {x}"),
    }
}

impl Network {
    /// A small random network for feature set `F`, from `seed`: the
    /// games' incremental-update tests and tools use it (no trained
    /// network is needed to check that updates equal a fresh evaluation).
    pub fn random<F: FeatureSet>(hidden: usize, seed: u64) -> Network {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        Network {
            game: F::GAME,
            feature_set: F::ID,
            inputs: F::INPUTS,
            hidden,
            buckets: F::OUTPUT_BUCKETS,
            scale: DEFAULT_SCALE,
            residual: false,
            wide: false,
            ft_w: (0..F::INPUTS * hidden)
                .map(|_| (next() % 201) as i16 - 100)
                .collect(),
            ft_b: (0..hidden).map(|_| (next() % 201) as i16 - 50).collect(),
            out_w: (0..F::OUTPUT_BUCKETS * 2 * hidden)
                .map(|_| next() as i8)
                .collect(),
            out_w_wide: Vec::new(),
            out_b: (0..F::OUTPUT_BUCKETS)
                .map(|_| (next() % 20_000) as i32 - 10_000)
                .collect(),
        }
    }

    /// Reads a network for feature set `F`, checking everything.
    pub fn from_bytes<F: FeatureSet>(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER + 8 {
            return Err("too short to be a tengen network".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if &body[..8] != MAGIC {
            return Err("not a tengen network (bad magic)".into());
        }
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if checksum(body) != u64::from_le_bytes(s) {
            return Err("checksum mismatch (a damaged or truncated file)".into());
        }
        let game = body[8];
        if game != F::GAME {
            return Err(format!(
                "a {} network, not a {} one",
                game_name(game),
                game_name(F::GAME)
            ));
        }
        let feature_set = body[9];
        if feature_set != F::ID {
            return Err(format!(
                "feature set {feature_set}; this build reads {} ({})",
                F::ID,
                F::NAME
            ));
        }
        if body[10] != SCRELU {
            return Err(format!("activation {} is not supported", body[10]));
        }
        if body[11] & !(FLAG_RESIDUAL | FLAG_WIDE_OUTPUT) != 0 {
            return Err(format!("unknown flags {:#04x}", body[11]));
        }
        let residual = body[11] & FLAG_RESIDUAL != 0;
        let wide = body[11] & FLAG_WIDE_OUTPUT != 0;
        let mut r = Reader {
            bytes: body,
            at: 12,
        };
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        let buckets = r.u32()? as usize;
        let (qa, qb) = (r.u16()?, r.u16()?);
        let scale = r.u32()?;
        if inputs != F::INPUTS {
            return Err(format!(
                "{inputs} inputs, the feature set has {}",
                F::INPUTS
            ));
        }
        if buckets != F::OUTPUT_BUCKETS {
            return Err(format!(
                "{buckets} output buckets, the feature set has {}",
                F::OUTPUT_BUCKETS
            ));
        }
        if !(16..=1024).contains(&hidden) || !hidden.is_multiple_of(16) {
            return Err(format!(
                "hidden size {hidden} (a multiple of 16 up to 1024)"
            ));
        }
        let want_qb = if wide { QB_WIDE } else { QB };
        if qa as i32 != QA || qb as i32 != want_qb {
            return Err(format!(
                "quantisation {qa}/{qb}, this build uses {QA}/{want_qb}"
            ));
        }
        if scale == 0 || scale > 10_000 {
            return Err(format!("output scale {scale}"));
        }
        let i16s = |b: &[u8]| -> Vec<i16> {
            b.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let ft_w = i16s(r.take(inputs * hidden * 2)?);
        let ft_b = i16s(r.take(hidden * 2)?);
        let (out_w, out_w_wide) = if wide {
            (Vec::new(), i16s(r.take(buckets * 2 * hidden * 2)?))
        } else {
            let w: Vec<i8> = r
                .take(buckets * 2 * hidden)?
                .iter()
                .map(|&b| b as i8)
                .collect();
            (w, Vec::new())
        };
        let out_b: Vec<i32> = r
            .take(buckets * 4)?
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if r.at != body.len() {
            return Err(format!("{} bytes past the weights", body.len() - r.at));
        }
        let (w_max, b_max) = (F::FT_WEIGHT_MAX, F::FT_BIAS_MAX);
        if ft_w.iter().any(|w| w.unsigned_abs() > w_max as u16) {
            return Err(format!("a feature weight exceeds ±{w_max}"));
        }
        if ft_b.iter().any(|w| w.unsigned_abs() > b_max as u16) {
            return Err(format!("a feature bias exceeds ±{b_max}"));
        }
        Ok(Network {
            game,
            feature_set,
            inputs,
            hidden,
            buckets,
            scale,
            residual,
            wide,
            ft_w,
            ft_b,
            out_w,
            out_w_wide,
            out_b,
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + self.ft_w.len() * 2 + self.out_w.len() + 64);
        b.extend_from_slice(MAGIC);
        let flags = if self.residual { FLAG_RESIDUAL } else { 0 }
            | if self.wide { FLAG_WIDE_OUTPUT } else { 0 };
        b.extend_from_slice(&[self.game, self.feature_set, SCRELU, flags]);
        for v in [self.inputs as u32, self.hidden as u32, self.buckets as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&(QA as u16).to_le_bytes());
        let qb = if self.wide { QB_WIDE } else { QB };
        b.extend_from_slice(&(qb as u16).to_le_bytes());
        b.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.ft_w.iter().chain(self.ft_b.iter()) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        if self.wide {
            for w in &self.out_w_wide {
                b.extend_from_slice(&w.to_le_bytes());
            }
        } else {
            b.extend(self.out_w.iter().map(|&w| w as u8));
        }
        for w in &self.out_b {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// A short fingerprint for logs: the checksum's low 32 bits.
    pub fn id(&self) -> u32 {
        let b = self.to_bytes();
        let mut s = [0u8; 8];
        s.copy_from_slice(&b[b.len() - 8..]);
        u64::from_le_bytes(s) as u32
    }

    /// Feature weights of input `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[i16] {
        let start = (i * self.hidden).min(self.ft_w.len());
        let end = (start + self.hidden).min(self.ft_w.len());
        &self.ft_w[start..end]
    }

    /// The output for the side to move's sums `us` and the other's
    /// `them`, with output bucket `bucket`, in engine units.
    #[inline]
    pub fn output(&self, level: Level, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        if self.wide {
            return self.output_wide(level, us, them, bucket);
        }
        let h = self.hidden;
        let bucket = bucket.min(self.buckets.saturating_sub(1));
        let w = &self.out_w[(bucket * 2 * h).min(self.out_w.len())..];
        let (w_us, w_them) = w.split_at(h.min(w.len()));
        let sum = simd::screlu_dot(level, us, w_us) + simd::screlu_dot(level, them, w_them);
        let bias = self.out_b.get(bucket).copied().unwrap_or(0) as i64;
        let raw = sum / QA as i64 + bias;
        (raw * self.scale as i64 / (QA as i64 * QB as i64)) as i32
    }

    /// [`Network::output`] for i16 output weights (1.0 = [`QB_WIDE`]).
    #[inline(never)]
    fn output_wide(&self, level: Level, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let bucket = bucket.min(self.buckets.saturating_sub(1));
        let w = &self.out_w_wide[(bucket * 2 * h).min(self.out_w_wide.len())..];
        let (w_us, w_them) = w.split_at(h.min(w.len()));
        let sum =
            simd::screlu_dot_wide(level, us, w_us) + simd::screlu_dot_wide(level, them, w_them);
        let bias = self.out_b.get(bucket).copied().unwrap_or(0) as i64;
        let raw = sum / QA as i64 + bias;
        (raw * self.scale as i64 / (QA as i64 * QB_WIDE as i64)) as i32
    }

    /// Builds the sums of one perspective from scratch: bias plus the row
    /// of every active input.
    pub fn refresh(&self, level: Level, inputs: &[usize], acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_b[..acc.len().min(self.ft_b.len())]);
        for pair in inputs.chunks(2) {
            let rows: [&[i16]; 2] = [
                self.row(pair[0]),
                pair.get(1).map_or(&[][..], |&i| self.row(i)),
            ];
            simd::update(level, acc, &rows[..pair.len()], &[]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{Chess, Shogi, Xiangqi};

    /// A random network with wide (i16) output weights.
    fn random_wide<F: FeatureSet>(hidden: usize, seed: u64) -> Network {
        let mut net = Network::random::<F>(hidden, seed);
        net.wide = true;
        net.out_w_wide = net.out_w.iter().map(|&w| w as i16 * 37).collect();
        net.out_w.clear();
        net
    }

    #[test]
    fn a_wide_network_round_trips_and_computes_its_output() {
        let net = random_wide::<Shogi>(32, 6);
        let bytes = net.to_bytes();
        assert_eq!(bytes[11], FLAG_WIDE_OUTPUT);
        assert_eq!(&bytes[26..28], &(QB_WIDE as u16).to_le_bytes());
        assert_eq!(Network::from_bytes::<Shogi>(&bytes).as_ref(), Ok(&net));
        // A shogi network is refused as a chess one.
        let e = Network::from_bytes::<Chess>(&bytes)
            .err()
            .unwrap_or_default();
        assert!(e.contains("a shogi network, not a chess one"), "{e}");
        let us: Vec<i16> = (0..32).map(|i| i * 13 - 100).collect();
        let them: Vec<i16> = (0..32).map(|i| 300 - i * 7).collect();
        let mut sum = 0i64;
        for i in 0..32 {
            let a = (us[i] as i64).clamp(0, 255);
            let b = (them[i] as i64).clamp(0, 255);
            sum += a * a * net.out_w_wide[i] as i64 + b * b * net.out_w_wide[32 + i] as i64;
        }
        let want = ((sum / 255 + net.out_b[0] as i64) * 400 / (255 * 1024)) as i32;
        for level in simd::available() {
            assert_eq!(net.output(level, &us, &them, 0), want);
        }
        // A wide network with a narrow QB (or the other way) is refused.
        let mut b = bytes.clone();
        b[11] = 0;
        let n = b.len() - 8;
        let sum = checksum(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        let e = Network::from_bytes::<Shogi>(&b).err().unwrap_or_default();
        assert!(e.contains("quantisation 255/1024"), "{e}");
        // Shogi's weight bound is tighter (40 active inputs).
        let mut other = net.clone();
        other.ft_w[5] = 450;
        let e = Network::from_bytes::<Shogi>(&other.to_bytes())
            .err()
            .unwrap_or_default();
        assert!(e.contains("feature weight exceeds ±400"), "{e}");
    }

    #[test]
    fn a_network_round_trips_through_its_file() {
        let net = Network::random::<Chess>(32, 5);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes::<Chess>(&bytes), Ok(net));
    }

    #[test]
    fn wrong_files_are_refused_with_a_reason() {
        let net = Network::random::<Chess>(32, 9);
        let bytes = net.to_bytes();
        let refused = |b: &[u8]| Network::from_bytes::<Chess>(b).err().unwrap_or_default();
        // Another game's network.
        let xq = Network::random::<Xiangqi>(32, 9).to_bytes();
        assert!(
            refused(&xq).contains("a xiangqi network, not a chess one"),
            "{}",
            refused(&xq)
        );
        assert!(Network::from_bytes::<Xiangqi>(&xq).is_ok());
        // A flipped bit anywhere.
        let mut b = bytes.clone();
        b[1000] ^= 4;
        assert!(refused(&b).contains("checksum"), "{}", refused(&b));
        // Truncated.
        assert!(refused(&bytes[..bytes.len() - 100]).contains("checksum"));
        assert!(refused(&bytes[..20]).contains("too short"));
        assert!(refused(b"hello, this is not a network at all, not at all").contains("magic"));
        // Fields that do not fit the feature set, with a valid checksum.
        let mut other = net.clone();
        other.feature_set = 7;
        assert!(refused(&other.to_bytes()).contains("feature set 7"));
        let mut other = net.clone();
        other.hidden = 24;
        assert!(refused(&other.to_bytes()).contains("hidden size 24"));
        let mut other = net.clone();
        other.ft_w[3] = 600;
        assert!(refused(&other.to_bytes()).contains("feature weight"));
        let mut other = net.clone();
        other.out_b.push(0);
        assert!(refused(&other.to_bytes()).contains("bytes past the weights"));
        // A flag this build does not know (the checksum made valid again).
        let mut b = net.to_bytes();
        b[11] = 4;
        let n = b.len() - 8;
        let sum = checksum(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        assert!(refused(&b).contains("unknown flags"), "{}", refused(&b));
    }

    #[test]
    fn the_residual_flag_survives_a_round_trip() {
        let mut net = Network::random::<Chess>(32, 4);
        assert!(!Network::from_bytes::<Chess>(&net.to_bytes())
            .map(|n| n.residual)
            .unwrap_or(true));
        net.residual = true;
        let bytes = net.to_bytes();
        assert_eq!(bytes[11], FLAG_RESIDUAL);
        assert_eq!(Network::from_bytes::<Chess>(&bytes).ok(), Some(net));
    }

    #[test]
    fn output_matches_a_direct_computation() {
        let net = Network::random::<Chess>(32, 3);
        let us: Vec<i16> = (0..32).map(|i| i * 13 - 100).collect();
        let them: Vec<i16> = (0..32).map(|i| 300 - i * 7).collect();
        let mut sum = 0i64;
        for i in 0..32 {
            let a = (us[i] as i64).clamp(0, 255);
            let b = (them[i] as i64).clamp(0, 255);
            sum += a * a * net.out_w[2 * 64 + i] as i64 + b * b * net.out_w[2 * 64 + 32 + i] as i64;
        }
        let want = ((sum / 255 + net.out_b[2] as i64) * 400 / (255 * 64)) as i32;
        for level in simd::available() {
            assert_eq!(net.output(level, &us, &them, 2), want);
        }
    }
}
