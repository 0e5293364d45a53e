//! Move-ordering memory of one search thread: killers, counter moves,
//! butterfly history and continuation history.
//!
//! Tables are indexed by [`crate::Position::history_index`] (which piece
//! goes where), so the same code serves every game.

use crate::position::Position;
use tengen_core::score::MAX_PLY;

/// History scores saturate here; the gravity formula keeps them inside.
pub const HISTORY_MAX: i32 = 16_384;

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
        }
    }

    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.counters.iter_mut().for_each(|c| *c = None);
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
        self.captures.iter_mut().for_each(|h| *h = 0);
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

impl<P: Position> Default for History<P> {
    fn default() -> Self {
        Self::new()
    }
}

/// Adds a bonus that shrinks as the entry nears the bound, so entries stay
/// within ±HISTORY_MAX and recent results weigh more than old ones.
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    let v = e + bonus - e * bonus.abs() / HISTORY_MAX;
    *entry = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
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
}
