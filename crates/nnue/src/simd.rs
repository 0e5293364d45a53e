//! The two inner loops of inference, each with a portable version and
//! SSE2, AVX2 and AVX-512 ones chosen at run time. Every path computes the
//! same integers:
//! the accumulator update wraps in i16 (a group, so the order of adds and
//! subtracts never matters and the result is exact whenever it fits), and
//! the output dot product is exact (see [`screlu_dot`] for the bound).

use std::sync::OnceLock;

/// Quantisation of the feature transformer: 1.0 = `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 = `QB`.
pub const QB: i32 = 64;
/// Quantisation of wide (i16) output weights: 1.0 = `QB_WIDE`.
pub const QB_WIDE: i32 = 1024;

/// An instruction-set level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Scalar,
    /// Every x86-64 CPU has SSE2.
    Sse2,
    Avx2,
    /// AVX-512 with its byte and word instructions (F and BW).
    Avx512,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Sse2 => "sse2",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs the level's instructions.
    fn runs_here(self) -> bool {
        match self {
            Level::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Level::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => {
                static AVX2: OnceLock<bool> = OnceLock::new();
                *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
            }
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                static AVX512: OnceLock<bool> = OnceLock::new();
                *AVX512.get_or_init(|| {
                    std::arch::is_x86_feature_detected!("avx512f")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                })
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// The best level this machine runs, detected once.
pub fn detected() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| available().last().copied().unwrap_or(Level::Scalar))
}

/// Every level this machine runs, slowest first (for tests and
/// benchmarks).
pub fn available() -> Vec<Level> {
    [Level::Scalar, Level::Sse2, Level::Avx2, Level::Avx512]
        .into_iter()
        .filter(|l| l.runs_here())
        .collect()
}

/// `acc += add rows - sub rows`, wrapping in i16.
#[inline]
pub fn update(level: Level, acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 if level.runs_here() => {
            // SAFETY: `update_avx512` only needs AVX-512 F and BW, and
            // `runs_here()` has just confirmed that this CPU has them.
            unsafe { update_avx512(acc, add, sub) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if level.runs_here() => {
            // SAFETY: `update_avx2` only needs the AVX2 instructions, and
            // `runs_here()` has just confirmed that this CPU has them.
            unsafe { update_avx2(acc, add, sub) }
        }
        // SSE2 is the x86-64 baseline: the portable loop already uses it.
        _ => update_scalar(acc, add, sub),
    }
}

#[inline]
fn update_scalar(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    for row in sub {
        for (a, w) in acc.iter_mut().zip(row.iter()) {
            *a = a.wrapping_sub(*w);
        }
    }
    for row in add {
        for (a, w) in acc.iter_mut().zip(row.iter()) {
            *a = a.wrapping_add(*w);
        }
    }
}

/// The portable loop compiled with AVX2 enabled (the compiler vectorises
/// it 16 lanes wide).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    update_scalar(acc, add, sub)
}

/// The portable loop compiled with AVX-512 enabled (32 lanes wide).
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn update_avx512(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    update_scalar(acc, add, sub)
}

/// `sum over i of clamp(x[i], 0, QA)^2 * w[i]`, exactly.
///
/// The vector paths multiply `v = clamp(x)` by `w` in i16 (`|v * w| <=
/// 255 * 128 = 32,640`, so it fits), multiply that by `v` again with
/// pairwise i32 sums (`madd_epi16`), and add into i32 lanes. A product
/// is at most `255^2 * 128 = 8,323,200`. SSE2 has the fewest lanes (4,
/// 8 elements a step): each lane gets `x.len() / 4` products, so for
/// `x.len() <= 1024` (the most [`crate::network`] accepts) at most
/// `256 * 8,323,200 = 2,130,739,200 < 2^31 - 1`; AVX2 (8 lanes) and
/// AVX-512 (16) stay further below. No lane overflows, the lanes are
/// added in i64, and the sum equals the portable path's.
#[inline]
pub fn screlu_dot(level: Level, x: &[i16], w: &[i8]) -> i64 {
    if x.len() > 1024 || !x.len().is_multiple_of(16) {
        return screlu_dot_scalar(x, w);
    }
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 if level.runs_here() => {
            // SAFETY: AVX-512 F and BW are present (checked just above);
            // the slice bounds the function relies on are checked in it.
            unsafe { screlu_dot_avx512(x, w) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if level.runs_here() => {
            // SAFETY: AVX2 is present (checked just above); the slice
            // bounds the function relies on are checked inside it.
            unsafe { screlu_dot_avx2(x, w) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => {
            // SAFETY: SSE2 is part of every x86-64 CPU; the slice bounds
            // the function relies on are checked inside it.
            unsafe { screlu_dot_sse2(x, w) }
        }
        _ => screlu_dot_scalar(x, w),
    }
}

#[inline]
fn screlu_dot_scalar(x: &[i16], w: &[i8]) -> i64 {
    x.iter()
        .zip(w.iter())
        .map(|(&x, &w)| {
            let v = (x as i64).clamp(0, QA as i64);
            v * v * w as i64
        })
        .sum()
}

/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(x: &[i16], w: &[i8]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 16 * 16;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut acc = _mm256_setzero_si256();
    let mut i = 0;
    while i < n {
        // SAFETY: i + 16 <= n <= x.len() and <= w.len(), so the 32 bytes
        // read from `x` and the 16 bytes read from `w` are in bounds;
        // unaligned loads accept any address.
        let xv = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
        let wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(w.as_ptr().add(i) as *const __m128i));
        let v = _mm256_min_epi16(_mm256_max_epi16(xv, zero), qa);
        let vw = _mm256_mullo_epi16(v, wv);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(vw, v));
        i += 16;
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes, the size of the store.
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, acc);
    let mut sum: i64 = lanes.iter().map(|&l| l as i64).sum();
    // A tail shorter than a vector (never for accepted networks).
    sum += screlu_dot_scalar(&x[n..], &w[n.min(w.len())..]);
    sum
}

/// # Safety
/// The CPU must support SSE2 (every x86-64 CPU does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn screlu_dot_sse2(x: &[i16], w: &[i8]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 8 * 8;
    let zero = _mm_setzero_si128();
    let qa = _mm_set1_epi16(QA as i16);
    let mut acc = _mm_setzero_si128();
    let mut i = 0;
    while i < n {
        // SAFETY: i + 8 <= n <= x.len() and <= w.len(), so the 16 bytes
        // read from `x` and the 8 bytes read from `w` are in bounds;
        // unaligned loads accept any address.
        let xv = _mm_loadu_si128(x.as_ptr().add(i) as *const __m128i);
        let wb = _mm_loadl_epi64(w.as_ptr().add(i) as *const __m128i);
        // SSE2 has no sign extension of bytes: put each byte in the high
        // half of a word, then shift it down arithmetically.
        let wv = _mm_srai_epi16(_mm_unpacklo_epi8(wb, wb), 8);
        let v = _mm_min_epi16(_mm_max_epi16(xv, zero), qa);
        let vw = _mm_mullo_epi16(v, wv);
        acc = _mm_add_epi32(acc, _mm_madd_epi16(vw, v));
        i += 8;
    }
    let mut lanes = [0i32; 4];
    // SAFETY: `lanes` is 16 bytes, the size of the store.
    _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, acc);
    let mut sum: i64 = lanes.iter().map(|&l| l as i64).sum();
    sum += screlu_dot_scalar(&x[n..], &w[n.min(w.len())..]);
    sum
}

/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn screlu_dot_avx512(x: &[i16], w: &[i8]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 32 * 32;
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let mut acc = _mm512_setzero_si512();
    let mut i = 0;
    while i < n {
        // SAFETY: i + 32 <= n <= x.len() and <= w.len(), so the 64 bytes
        // read from `x` and the 32 bytes read from `w` are in bounds;
        // unaligned loads accept any address.
        let xv = _mm512_loadu_si512(x.as_ptr().add(i) as *const __m512i);
        let wv = _mm512_cvtepi8_epi16(_mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i));
        let v = _mm512_min_epi16(_mm512_max_epi16(xv, zero), qa);
        let vw = _mm512_mullo_epi16(v, wv);
        acc = _mm512_add_epi32(acc, _mm512_madd_epi16(vw, v));
        i += 32;
    }
    let mut lanes = [0i32; 16];
    // SAFETY: `lanes` is 64 bytes, the size of the store.
    _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, acc);
    let mut sum: i64 = lanes.iter().map(|&l| l as i64).sum();
    // Hidden sizes that are a multiple of 16 but not 32 leave a tail.
    sum += screlu_dot_scalar(&x[n..], &w[n.min(w.len())..]);
    sum
}

/// `sum over i of clamp(x[i], 0, QA)^2 * w[i]` for i16 weights (wide
/// networks), exactly.
///
/// `v^2` (at most 65,025) does not fit i16 and `v * w` may not either,
/// so the vector paths square `v` in u16 and split the square into its
/// high byte (at most 254) and low byte (at most 255); each is
/// multiplied by `w` with pairwise i32 sums (`madd_epi16`): a pair is at
/// most `2 * 255 * 32,768 = 16,711,680` in size. SSE2 has the fewest
/// lanes (4, 8 elements a step): for `x.len() <= 1024` each lane adds at
/// most 128 pairs, `128 * 16,711,680 = 2,139,095,040 < 2^31 - 1` (and
/// above `-2^31`); AVX2 and AVX-512 stay further below. The two sums are
/// added in i64 as `hi * 256 + lo`, which equals the portable path's.
#[inline]
pub fn screlu_dot_wide(level: Level, x: &[i16], w: &[i16]) -> i64 {
    if x.len() > 1024 || !x.len().is_multiple_of(16) {
        return screlu_dot_wide_scalar(x, w);
    }
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 if level.runs_here() => {
            // SAFETY: AVX-512 F and BW are present (checked just above);
            // the slice bounds the function relies on are checked in it.
            unsafe { screlu_dot_wide_avx512(x, w) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if level.runs_here() => {
            // SAFETY: AVX2 is present (checked just above); the slice
            // bounds the function relies on are checked inside it.
            unsafe { screlu_dot_wide_avx2(x, w) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => {
            // SAFETY: SSE2 is part of every x86-64 CPU; the slice bounds
            // the function relies on are checked inside it.
            unsafe { screlu_dot_wide_sse2(x, w) }
        }
        _ => screlu_dot_wide_scalar(x, w),
    }
}

#[inline]
fn screlu_dot_wide_scalar(x: &[i16], w: &[i16]) -> i64 {
    x.iter()
        .zip(w.iter())
        .map(|(&x, &w)| {
            let v = (x as i64).clamp(0, QA as i64);
            v * v * w as i64
        })
        .sum()
}

/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_wide_avx2(x: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 16 * 16;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let low = _mm256_set1_epi16(0xFF);
    let (mut hi, mut lo) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let mut i = 0;
    while i < n {
        // SAFETY: i + 16 <= n <= x.len() and <= w.len(), so the 32 bytes
        // read from each are in bounds; unaligned loads accept any
        // address.
        let xv = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
        let wv = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
        let v = _mm256_min_epi16(_mm256_max_epi16(xv, zero), qa);
        let sq = _mm256_mullo_epi16(v, v);
        hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_srli_epi16(sq, 8), wv));
        lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_and_si256(sq, low), wv));
        i += 16;
    }
    let (mut h, mut l) = ([0i32; 8], [0i32; 8]);
    // SAFETY: each array is 32 bytes, the size of the store.
    _mm256_storeu_si256(h.as_mut_ptr() as *mut __m256i, hi);
    _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, lo);
    let sum =
        (h.iter().map(|&v| v as i64).sum::<i64>() << 8) + l.iter().map(|&v| v as i64).sum::<i64>();
    sum + screlu_dot_wide_scalar(&x[n..], &w[n.min(w.len())..])
}

/// # Safety
/// The CPU must support SSE2 (every x86-64 CPU does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn screlu_dot_wide_sse2(x: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 8 * 8;
    let zero = _mm_setzero_si128();
    let qa = _mm_set1_epi16(QA as i16);
    let low = _mm_set1_epi16(0xFF);
    let (mut hi, mut lo) = (_mm_setzero_si128(), _mm_setzero_si128());
    let mut i = 0;
    while i < n {
        // SAFETY: i + 8 <= n <= x.len() and <= w.len(), so the 16 bytes
        // read from each are in bounds; unaligned loads accept any
        // address.
        let xv = _mm_loadu_si128(x.as_ptr().add(i) as *const __m128i);
        let wv = _mm_loadu_si128(w.as_ptr().add(i) as *const __m128i);
        let v = _mm_min_epi16(_mm_max_epi16(xv, zero), qa);
        let sq = _mm_mullo_epi16(v, v);
        hi = _mm_add_epi32(hi, _mm_madd_epi16(_mm_srli_epi16(sq, 8), wv));
        lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_and_si128(sq, low), wv));
        i += 8;
    }
    let (mut h, mut l) = ([0i32; 4], [0i32; 4]);
    // SAFETY: each array is 16 bytes, the size of the store.
    _mm_storeu_si128(h.as_mut_ptr() as *mut __m128i, hi);
    _mm_storeu_si128(l.as_mut_ptr() as *mut __m128i, lo);
    let sum =
        (h.iter().map(|&v| v as i64).sum::<i64>() << 8) + l.iter().map(|&v| v as i64).sum::<i64>();
    sum + screlu_dot_wide_scalar(&x[n..], &w[n.min(w.len())..])
}

/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn screlu_dot_wide_avx512(x: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    let n = x.len().min(w.len()) / 32 * 32;
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let low = _mm512_set1_epi16(0xFF);
    let (mut hi, mut lo) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let mut i = 0;
    while i < n {
        // SAFETY: i + 32 <= n <= x.len() and <= w.len(), so the 64 bytes
        // read from each are in bounds; unaligned loads accept any
        // address.
        let xv = _mm512_loadu_si512(x.as_ptr().add(i) as *const __m512i);
        let wv = _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i);
        let v = _mm512_min_epi16(_mm512_max_epi16(xv, zero), qa);
        let sq = _mm512_mullo_epi16(v, v);
        hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_srli_epi16(sq, 8), wv));
        lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_and_si512(sq, low), wv));
        i += 32;
    }
    let (mut h, mut l) = ([0i32; 16], [0i32; 16]);
    // SAFETY: each array is 64 bytes, the size of the store.
    _mm512_storeu_si512(h.as_mut_ptr() as *mut __m512i, hi);
    _mm512_storeu_si512(l.as_mut_ptr() as *mut __m512i, lo);
    let sum =
        (h.iter().map(|&v| v as i64).sum::<i64>() << 8) + l.iter().map(|&v| v as i64).sum::<i64>();
    // Hidden sizes that are a multiple of 16 but not 32 leave a tail.
    sum + screlu_dot_wide_scalar(&x[n..], &w[n.min(w.len())..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Every level gives the same integers, on random data and at the
    /// extremes (all inputs at the clamp, all weights at the i8 limits).
    #[test]
    fn every_level_computes_the_same_integers() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for len in [16usize, 48, 64, 256, 1024] {
            for round in 0..20 {
                let x: Vec<i16> = (0..len)
                    .map(|_| match round {
                        0 => i16::MAX,
                        1 => i16::MIN,
                        _ => (rng(&mut seed) % 700) as i16 - 200,
                    })
                    .collect();
                let w: Vec<i8> = (0..len)
                    .map(|i| match round {
                        0 => i8::MIN,
                        1 => i8::MAX,
                        2 => {
                            if i % 2 == 0 {
                                i8::MIN
                            } else {
                                i8::MAX
                            }
                        }
                        _ => rng(&mut seed) as i8,
                    })
                    .collect();
                let want = screlu_dot(Level::Scalar, &x, &w);
                for level in available() {
                    assert_eq!(screlu_dot(level, &x, &w), want, "{level:?} len {len}");
                }
                let rows: Vec<Vec<i16>> = (0..4)
                    .map(|_| (0..len).map(|_| rng(&mut seed) as i16).collect())
                    .collect();
                let mut base = x.clone();
                update(
                    Level::Scalar,
                    &mut base,
                    &[&rows[0], &rows[1]],
                    &[&rows[2], &rows[3]],
                );
                for level in available() {
                    let mut acc = x.clone();
                    update(
                        level,
                        &mut acc,
                        &[&rows[0], &rows[1]],
                        &[&rows[2], &rows[3]],
                    );
                    assert_eq!(acc, base, "{level:?}");
                    // Undoing the update restores the start exactly.
                    update(
                        level,
                        &mut acc,
                        &[&rows[2], &rows[3]],
                        &[&rows[0], &rows[1]],
                    );
                    assert_eq!(acc, x);
                }
            }
        }
        // The extreme case reaches the bound the AVX2 proof relies on.
        let x = vec![QA as i16; 1024];
        let w = vec![i8::MIN; 1024];
        for level in available() {
            assert_eq!(
                screlu_dot(level, &x, &w),
                -(255i64 * 255 * 128 * 1024),
                "{level:?}"
            );
        }
        eprintln!("levels tested: {:?}", available());
    }

    /// The wide (i16 weight) dot product: every level gives the same
    /// integers on random data and at the extremes of the bound in
    /// [`screlu_dot_wide`] (every input at the clamp, every weight at
    /// `i16::MIN` or `i16::MAX`, 1,024 long).
    #[test]
    fn every_level_computes_the_same_wide_integers() {
        let mut seed = 0x0fed_cba9_8765_4321u64;
        for len in [16usize, 48, 64, 256, 1024] {
            for round in 0..20 {
                let x: Vec<i16> = (0..len)
                    .map(|i| match round {
                        0 | 1 => i16::MAX,
                        2 => (i % 256) as i16,
                        _ => (rng(&mut seed) % 700) as i16 - 200,
                    })
                    .collect();
                let w: Vec<i16> = (0..len)
                    .map(|i| match round {
                        0 => i16::MIN,
                        1 => i16::MAX,
                        2 => {
                            if i % 2 == 0 {
                                i16::MIN
                            } else {
                                i16::MAX
                            }
                        }
                        _ => rng(&mut seed) as i16,
                    })
                    .collect();
                let want = screlu_dot_wide(Level::Scalar, &x, &w);
                for level in available() {
                    assert_eq!(screlu_dot_wide(level, &x, &w), want, "{level:?} len {len}");
                }
            }
        }
        let x = vec![QA as i16; 1024];
        for (w, want) in [
            (i16::MIN, -(255i64 * 255 * 32_768 * 1024)),
            (i16::MAX, 255i64 * 255 * 32_767 * 1024),
        ] {
            let w = vec![w; 1024];
            for level in available() {
                assert_eq!(screlu_dot_wide(level, &x, &w), want, "{level:?}");
            }
        }
    }
}
