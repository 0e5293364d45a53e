//! SplitMix64 (Steele, Lea and Flood, 2014): the one small seeded
//! generator and word hash every crate uses, for Zobrist keys built at
//! compile time, reproducible openings and data, and keys of a few words.
//! The same numbers on every machine, which the bench signatures, the
//! arena's `-srand` and `-resume` and `tengen datagen --seed` rely on.

/// The generator's increment (the golden ratio in 64 bits).
pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The output function: spreads any word over all 64 bits.
#[inline]
pub const fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One step from `state`: the next state and its output. A `const fn`, so
/// Zobrist tables can be built at compile time.
#[inline]
pub const fn step(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GAMMA);
    (s, mix(s))
}

/// A hash of one word: the generator's first output from state `x`.
#[inline]
pub const fn hash(x: u64) -> u64 {
    step(x).1
}

/// Mixes words into one well-spread key, one generator step per word:
/// bitboards of a few pieces are poor keys as they are, most bits alike.
#[inline]
pub fn hash_words(words: &[u64]) -> u64 {
    let mut h = GAMMA;
    for &w in words {
        h = hash(h ^ w);
    }
    h
}

/// The generator as a value.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (s, v) = step(self.0);
        self.0 = s;
        v
    }

    /// Uniform in `0..n` for `n > 0` (multiply and shift: no modulo bias
    /// worth caring about at these sizes); 0 when `n` is 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_outputs() {
        // The reference implementation's first outputs from seed 0 and
        // from seed 1234567.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        let mut g = SplitMix64::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(step(0), (GAMMA, 0xe220_a839_7b1d_cdaf));
        assert_eq!(hash(0), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn reproducible_below_stays_in_range_and_shuffle_permutes() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(10) < 10);
            b.below(10);
        }
        let mut g = SplitMix64::new(7);
        for n in 1..50 {
            assert!(g.below(n) < n);
        }
        assert_eq!(g.below(0), 0);
        let mut v: Vec<u32> = (0..20).collect();
        g.shuffle(&mut v);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..20).collect::<Vec<_>>());
        assert_ne!(v, s, "20 elements shuffled back into order");
    }

    #[test]
    fn hash_words_depends_on_every_word_and_its_place() {
        let a = hash_words(&[1, 2, 3]);
        assert_ne!(a, hash_words(&[1, 2, 4]));
        assert_ne!(a, hash_words(&[2, 1, 3]));
        assert_ne!(a, hash_words(&[1, 2]));
    }
}
