//! Tsume (mate) solving by depth-first proof-number search (df-pn).
//!
//! The attacker (the side to move at the root) may only play checks; the
//! defender plays every legal reply. A node's proof number counts how many
//! leaves at least must still be proven for the attacker to mate, its
//! disproof number how many for the defender to escape. Children are
//! expanded under thresholds (Nagai's MID with the 1+epsilon trick), results live in a transposition table, and a
//! position repeated on the current path counts as an escape: a mate that
//! only works by repetition is not a mate. Drop-pawn mate never counts as
//! mate because the move generator never produces it.

use crate::board::Board;
use crate::position::Position;
use crate::types::Move;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const INF: u32 = 100_000_000;

/// What the solver concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TsumeResult {
    /// A forced mate: the attacker's and defender's moves, alternating,
    /// ending in checkmate.
    Mate(Vec<Move>),
    /// Proven: no sequence of checks mates.
    NoMate,
    /// The limit ran out (or a stop arrived) first.
    Timeout,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// For proven nodes: plies to mate along the proof found.
    dist: u32,
}

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

/// Limits of one solve.
pub struct TsumeLimits<'a> {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Checked regularly: set it to abort (USI `stop`).
    pub stop: Option<&'a AtomicBool>,
    /// Table size cap in entries; the table is cleared when it fills.
    pub max_entries: usize,
}

impl Default for TsumeLimits<'_> {
    fn default() -> Self {
        TsumeLimits {
            time: None,
            nodes: None,
            stop: None,
            max_entries: 4_000_000,
        }
    }
}

pub struct Solver<'a> {
    table: Table,
    limits: TsumeLimits<'a>,
    start: Instant,
    nodes: u64,
    aborted: bool,
    /// Keys of the positions on the current path (repetition test).
    path: Vec<u64>,
}

impl<'a> Solver<'a> {
    pub fn new(limits: TsumeLimits<'a>) -> Solver<'a> {
        Solver {
            table: Table::default(),
            limits,
            start: Instant::now(),
            nodes: 0,
            aborted: false,
            path: Vec::new(),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `pos` for the side to move as the attacker.
    pub fn solve(&mut self, pos: &Position) -> TsumeResult {
        self.start = Instant::now();
        let mut board = pos.board().clone();
        // Positions of the game before the problem count for repetition too.
        self.path.clear();
        let (pn, _) = self.mid(&mut board, INF - 1, INF - 1, true);
        if self.aborted {
            return TsumeResult::Timeout;
        }
        if pn != 0 {
            return TsumeResult::NoMate;
        }
        match self.principal_line(pos.board()) {
            Some(line) => TsumeResult::Mate(line),
            None => TsumeResult::Timeout,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let stop = self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            let time = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if stop || time || nodes {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn lookup(&self, key: u64) -> Entry {
        self.table.get(&key).copied().unwrap_or(Entry {
            pn: 1,
            dn: 1,
            dist: 0,
        })
    }

    fn store(&mut self, key: u64, e: Entry) {
        if self.table.len() >= self.limits.max_entries {
            // Crude but safe: forget everything unproven.
            self.table.retain(|_, v| v.pn == 0 || v.dn == 0);
            if self.table.len() >= self.limits.max_entries * 3 / 4 {
                self.table.clear();
            }
        }
        self.table.insert(key, e);
    }

    /// The moves of a node: checks for the attacker, everything for the
    /// defender.
    fn children(board: &Board, or_node: bool) -> Vec<(Move, u64)> {
        let mut moves = Vec::with_capacity(128);
        board.legal_moves(&mut moves);
        let mut out = Vec::with_capacity(if or_node { 16 } else { moves.len() });
        for m in moves {
            if or_node && !board.gives_check(m) {
                continue;
            }
            let mut b = board.clone();
            b.do_move(m);
            out.push((m, b.key()));
        }
        out
    }

    /// Expands `board` until its proof or disproof number reaches its
    /// threshold; returns (pn, dn) from the attacker's point of view.
    fn mid(&mut self, board: &mut Board, th_pn: u32, th_dn: u32, or_node: bool) -> (u32, u32) {
        self.nodes += 1;
        let key = board.key();
        if self.path.contains(&key) {
            // Repetition: not a mate along this path. Not stored, since
            // it depends on the path.
            return (INF, 0);
        }
        let kids = Self::children(board, or_node);
        if kids.is_empty() {
            // The attacker has no check: escaped. The defender has no
            // move: mated.
            let e = if or_node {
                Entry {
                    pn: INF,
                    dn: 0,
                    dist: 0,
                }
            } else {
                Entry {
                    pn: 0,
                    dn: INF,
                    dist: 0,
                }
            };
            self.store(key, e);
            return (e.pn, e.dn);
        }
        self.path.push(key);
        let result = loop {
            // Gather the children's numbers.
            let mut pn_sum: u32 = 0;
            let mut dn_sum: u32 = 0;
            let mut best = 0;
            let mut best_val = u32::MAX;
            let mut second = u32::MAX;
            let mut best_other = 0; // the other number of the best child
            let mut min_pn = u32::MAX;
            let mut min_dn = u32::MAX;
            let mut dist_best = u32::MAX;
            let mut dist_worst = 0;
            for (i, &(_, k)) in kids.iter().enumerate() {
                let e = if self.path.contains(&k) {
                    Entry {
                        pn: INF,
                        dn: 0,
                        dist: 0,
                    }
                } else {
                    self.lookup(k)
                };
                pn_sum = pn_sum.saturating_add(e.pn).min(INF);
                dn_sum = dn_sum.saturating_add(e.dn).min(INF);
                min_pn = min_pn.min(e.pn);
                min_dn = min_dn.min(e.dn);
                if e.pn == 0 {
                    dist_best = dist_best.min(e.dist);
                }
                dist_worst = dist_worst.max(e.dist);
                let (v, other) = if or_node { (e.pn, e.dn) } else { (e.dn, e.pn) };
                if v < best_val {
                    second = best_val;
                    best_val = v;
                    best = i;
                    best_other = other;
                } else if v < second {
                    second = v;
                }
            }
            let (pn, dn) = if or_node {
                (min_pn, dn_sum)
            } else {
                (pn_sum, min_dn)
            };
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.out_of_budget() {
                let dist = if pn == 0 {
                    if or_node {
                        dist_best.saturating_add(1)
                    } else {
                        dist_worst.saturating_add(1)
                    }
                } else {
                    0
                };
                break Entry { pn, dn, dist };
            }
            // Thresholds for the most promising child.
            let (cpn, cdn) = if or_node {
                let cpn = th_pn.min(epsilon(second));
                let cdn = (th_dn - dn).saturating_add(best_other).min(INF - 1);
                (cpn, cdn)
            } else {
                let cdn = th_dn.min(epsilon(second));
                let cpn = (th_pn - pn).saturating_add(best_other).min(INF - 1);
                (cpn, cdn)
            };
            let m = kids[best].0;
            let captured = board.do_move(m);
            self.mid(board, cpn, cdn, !or_node);
            board.undo_move(m, captured);
        };
        self.path.pop();
        if !self.aborted || result.pn == 0 || result.dn == 0 {
            self.store(key, result);
        }
        (result.pn, result.dn)
    }

    /// Follows the proof from the root: the attacker takes the quickest
    /// proven check, the defender the longest resistance. The line must
    /// end in checkmate, or `None`.
    fn principal_line(&mut self, root: &Board) -> Option<Vec<Move>> {
        let mut board = root.clone();
        let mut line = Vec::new();
        let mut or_node = true;
        let mut seen: Vec<u64> = Vec::new();
        for _ in 0..2000 {
            let key = board.key();
            if seen.contains(&key) {
                return None;
            }
            seen.push(key);
            let kids = Self::children(&board, or_node);
            if kids.is_empty() {
                return (!or_node && board.in_check()).then_some(line);
            }
            let mut pick: Option<(Move, u32)> = None;
            if or_node {
                // A check that mates at once beats any longer proof.
                pick = kids.iter().find_map(|&(m, _)| {
                    let mut b = board.clone();
                    b.do_move(m);
                    (!b.has_legal_move()).then_some((m, 0))
                });
                if let Some((m, _)) = pick {
                    line.push(m);
                    return Some(line);
                }
            }
            for &(m, k) in &kids {
                let mut e = self.lookup(k);
                if !or_node && e.pn != 0 {
                    // Evicted or never needed: prove this reply again.
                    let mut b = board.clone();
                    b.do_move(m);
                    self.path = seen.clone();
                    self.aborted = false;
                    self.limits.time = None;
                    self.limits.stop = None;
                    // Bounded: a re-proof that does not finish drops the line.
                    self.limits.nodes = Some(self.nodes + 2_000_000);
                    self.mid(&mut b, INF - 1, INF - 1, true);
                    e = self.lookup(k);
                    if e.pn != 0 {
                        return None;
                    }
                }
                if e.pn != 0 || seen.contains(&k) {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, d)) => {
                        if or_node {
                            e.dist < d
                        } else {
                            e.dist > d
                        }
                    }
                };
                if better {
                    pick = Some((m, e.dist));
                }
            }
            let (m, _) = pick?;
            line.push(m);
            board.do_move(m);
            or_node = !or_node;
        }
        None
    }
}

/// The 1+epsilon trick (Pawlewicz and Lew): let the best child run until
/// it is a quarter worse than the second best, not just one worse, so the
/// search does not thrash between siblings.
#[inline]
fn epsilon(second: u32) -> u32 {
    second
        .saturating_add(second / 4)
        .saturating_add(1)
        .min(INF - 1)
}

/// Solves `pos` (side to move attacks) within `limits`.
pub fn solve(pos: &Position, limits: TsumeLimits<'_>) -> TsumeResult {
    Solver::new(limits).solve(pos)
}

/// Checks that `line` is a legal sequence of checks and replies ending in
/// checkmate of the defender.
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    let mut b = pos.board().clone();
    for (i, &m) in line.iter().enumerate() {
        if !b.is_legal(m) {
            return false;
        }
        b.do_move(m);
        if i % 2 == 0 && !b.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && b.is_checkmate()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sfen: &str) -> TsumeResult {
        let pos = Position::from_usi(sfen, &[]).unwrap();
        let r = solve(
            &pos,
            TsumeLimits {
                nodes: Some(2_000_000),
                ..Default::default()
            },
        );
        if let TsumeResult::Mate(line) = &r {
            assert!(is_mating_line(&pos, line), "{sfen}: {line:?}");
        }
        r
    }

    fn mate_len(sfen: &str) -> usize {
        match run(sfen) {
            TsumeResult::Mate(l) => l.len(),
            other => panic!("{sfen}: {other:?}"),
        }
    }

    #[test]
    fn head_gold_mate_in_one() {
        // G*5b, supported by the pawn on 5c.
        assert_eq!(mate_len("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"), 1);
    }

    #[test]
    fn no_check_means_no_mate() {
        assert_eq!(
            run("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"),
            TsumeResult::NoMate
        );
    }

    #[test]
    fn drop_pawn_mate_is_not_a_solution() {
        // Only P*9b would mate, and it is forbidden.
        assert_eq!(
            run("kn7/9/1G7/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1"),
            TsumeResult::NoMate
        );
    }
}
