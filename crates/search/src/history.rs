//! Move-ordering memory of one search thread: killers, counter moves,
//! butterfly history and continuation history; and the correction
//! history, which learns how far the static evaluation misses.
//!
//! Tables are indexed by [`crate::Position::history_index`] (which piece
//! goes where), so the same code serves every game.

use crate::position::Position;
use tengen_core::score::MAX_PLY;

pub use tengen_core::history::HISTORY_MAX;

pub struct History<P: Position> {
    pub killers: Vec<[Option<P::Move>; 2]>,
    /// Counter move per previous move's history index.
    pub counters: Vec<Option<P::Move>>,
    /// Butterfly history per history index.
    pub butterfly: Vec<i16>,
    /// Continuation history: previous move's index × this move's index.
    /// Shared by the one- and two-ply-back continuations.
    pub continuation: Vec<i16>,
    /// Capture history per history index.
    pub captures: Vec<i16>,
    /// How far the static evaluation missed, per structure.
    pub correction: Correction,
}

impl<P: Position> History<P> {
    pub fn new() -> Self {
        let n = P::HISTORY_SIZE;
        History {
            killers: vec![[None; 2]; MAX_PLY as usize + 8],
            counters: vec![None; n],
            butterfly: vec![0; n],
            continuation: vec![0; n * n],
            captures: vec![0; n],
            correction: Correction::new(),
        }
    }

    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.counters.iter_mut().for_each(|c| *c = None);
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
        self.captures.iter_mut().for_each(|h| *h = 0);
        self.correction.clear();
    }

    /// Forgets the killers (they are specific to one search tree).
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    pub fn add_killer(&mut self, ply: usize, m: P::Move) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
    }

    pub fn is_killer(&self, ply: usize, m: P::Move) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k[0] == Some(m) || k[1] == Some(m))
    }

    /// Quiet-move score: butterfly plus the two continuation entries.
    pub fn quiet_score(&self, idx: usize, prev1: Option<usize>, prev2: Option<usize>) -> i32 {
        let n = P::HISTORY_SIZE;
        let mut s = self.butterfly[idx] as i32;
        if let Some(p) = prev1 {
            s += self.continuation[p * n + idx] as i32;
        }
        if let Some(p) = prev2 {
            s += self.continuation[p * n + idx] as i32;
        }
        s
    }

    pub fn update_quiet(
        &mut self,
        idx: usize,
        prev1: Option<usize>,
        prev2: Option<usize>,
        bonus: i32,
    ) {
        let n = P::HISTORY_SIZE;
        gravity(&mut self.butterfly[idx], bonus);
        if let Some(p) = prev1 {
            gravity(&mut self.continuation[p * n + idx], bonus);
        }
        if let Some(p) = prev2 {
            gravity(&mut self.continuation[p * n + idx], bonus);
        }
    }

    pub fn update_capture(&mut self, idx: usize, bonus: i32) {
        gravity(&mut self.captures[idx], bonus);
    }
}

/// Correction history: per [`crate::Position::correction_key`] slot, a
/// running average of (search result − static evaluation), in 1/256
/// evaluation units. The searcher adds it to the
/// static evaluation, so that an evaluation that keeps misjudging a
/// structure (a pawn chain, a material balance) is corrected within the
/// search that finds out.
pub struct Correction {
    slots: Vec<i32>,
}

impl Correction {
    pub fn new() -> Self {
        Correction {
            slots: vec![0; CORRECTION_SIZE],
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = 0);
    }

    /// What to add to a static evaluation whose position has correction
    /// key `key`.
    pub fn get(&self, key: u64) -> i32 {
        self.slots[correction_slot(key)] / CORRECTION_GRAIN
    }

    /// A search of `depth` found `error` = result − static evaluation at a
    /// position with correction key `key`: move that slot's average
    /// towards it, deeper searches weighing more.
    pub fn update(&mut self, key: u64, error: i32, depth: i32) {
        let e = &mut self.slots[correction_slot(key)];
        let w = (depth + 1).clamp(1, 16);
        let target = error.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let v = (*e * (CORRECTION_WEIGHT - w) + target * w) / CORRECTION_WEIGHT;
        *e = v.clamp(
            -CORRECTION_MAX * CORRECTION_GRAIN,
            CORRECTION_MAX * CORRECTION_GRAIN,
        );
    }
}

impl Default for Correction {
    fn default() -> Self {
        Self::new()
    }
}

/// Slots of the correction history (a power of two).
const CORRECTION_SIZE: usize = 1 << 14;
/// Sub-unit resolution of a correction entry, so that small steps of the
/// running average are not rounded away.
const CORRECTION_GRAIN: i32 = 256;
/// The average's denominator: a search of depth d moves the slot by
/// (d + 1)/256 of the way (at most 16/256).
const CORRECTION_WEIGHT: i32 = 256;
/// The largest correction, in evaluation units; larger errors count as
/// this much (a mate or a blunder found by search says little about the
/// evaluation of the structure).
const CORRECTION_MAX: i32 = 64;

fn correction_slot(key: u64) -> usize {
    // The top bits of a well-spread key (`splitmix::hash_words` makes one).
    (key >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

impl<P: Position> Default for History<P> {
    fn default() -> Self {
        Self::new()
    }
}

/// The shared update rule on an `i16` entry (±`HISTORY_MAX` fits).
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    *entry = tengen_core::history::gravity(*entry as i32, bonus) as i16;
}

/// The bonus for a move that caused (or failed to cause) a cutoff.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(2400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_in_bounds() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 2400);
        }
        assert!(e as i32 <= HISTORY_MAX && e > 10_000);
        for _ in 0..1000 {
            gravity(&mut e, -2400);
        }
        assert!(e as i32 >= -HISTORY_MAX && e < -10_000);
    }

    #[test]
    fn correction_follows_the_error_and_stays_bounded() {
        let mut h = Correction::new();
        let (a, b) = (0x1234_5678_9abc_def0u64, 0xfedc_ba98_7654_3210u64);
        assert_eq!(h.get(a), 0);
        // A steady error of 30 is learned, closer the more it is seen.
        for _ in 0..20 {
            h.update(a, 30, 10);
        }
        let part = h.get(a);
        for _ in 0..200 {
            h.update(a, 30, 10);
        }
        assert!(0 < part && part < h.get(a), "{part} {}", h.get(a));
        assert!((28..=30).contains(&h.get(a)), "{}", h.get(a));
        // Another structure's slot is untouched.
        assert_eq!(h.get(b), 0);
        // Huge errors (mates, blunders) are capped.
        for _ in 0..1000 {
            h.update(b, -30_000, 30);
        }
        // (The running average truncates towards zero, so it stops a
        // fraction short of the bound.)
        assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 1).contains(&h.get(b)));
        h.clear();
        assert_eq!((h.get(a), h.get(b)), (0, 0));
    }
}
