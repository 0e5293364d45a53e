//! Tsume (mate) solving by depth-first proof-number search (df-pn).
//!
//! The attacker (the side to move at the root) may only play checks; the
//! defender plays every legal reply. A node's proof number counts how many
//! leaves at least must still be proven for the attacker to mate, its
//! disproof number how many for the defender to escape. Children are
//! expanded under thresholds (Nagai's MID with the 1+epsilon trick).
//!
//! The transposition table is keyed on the board alone (pieces on squares
//! and the side to move) and every entry keeps both hands, so one entry
//! answers for other hands too: a position proven with attacker hand H is
//! mate with any hand containing H (and a defender hand contained in the
//! stored one); a position disproven with hand H is disproven for any hand
//! contained in H.
//!
//! A position repeated on the current path counts as an escape: a mate
//! that only works by repetition is not a mate. Such a disproof depends on
//! the path, so it carries the path index of the repeated position; it is
//! kept only for the parent's own loop and reaches the table only once the
//! search is back at (or above) that position, where it no longer depends
//! on anything outside the subtree. Drop-pawn mate never counts as mate
//! because the move generator never produces it.
//!
//! New children start with the defender's number of replies as proof
//! number (drops on squares only the king guards counting one for all)
//! and the attacker's number of checks as disproof number. A new
//! attacker's child that a fast mate-in-one finder mates is proven at
//! once, and so is a new defender's child whose every reply is met by
//! such a mate in one (a 3-ply check at each expansion). Once a
//! mate is proven, the line is shortened by df-pn searches bounded in depth
//! (two plies shorter each time, with the remaining depth salted into the
//! table key) until one fails or a bounded extra effort runs out; the line
//! then follows the attacker's quickest and the defender's longest proven
//! moves.

use crate::bitboard::between;
use crate::board::Board;
use crate::game::Game;
use crate::movegen::Evasions;
use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const INF: u32 = 100_000_000;
/// No repetition below: the result holds whatever the path.
const NO_REP: u32 = u32::MAX;
/// The deepest path searched: beyond it a line counts as an escape bound
/// to the root's path (never stored), and a root disproven with its help
/// is answered as a timeout, not as no mate. It keeps the recursion's
/// stack bounded.
const MAX_PLY: u32 = 1500;
/// Entries per table cluster (all share the board part of the key).
const CLUSTER: usize = 8;
/// Clusters of a new table (it doubles as it fills, up to its limit): a
/// small solve then does not pay for zeroing pages it never uses. 128
/// clusters (40 KB, small enough for the allocator's heap rather than a
/// fresh mapping of its own): with 8,192 and the estimate cache allocated
/// whole (4 MB), a solve of 1,544 nodes in a fresh process took 2,800 page
/// faults and 7 ms instead of 200 and 2 ms, since its entries landed on a
/// new page nearly every time; a mate in one took 60 us at 1,024, 20-30
/// us here (`docs/performance.md`, "Tsume at 1, 3 and 10 s on a quiet
/// machine"). The doublings on the way to a large table cost nothing
/// visible.
const FIRST_CLUSTERS: usize = 1 << 7;
/// The top bit of each of the seven hand bytes.
const GUARD: u64 = 0x0080_8080_8080_8080;

/// How the search treats a position met again on its own path. In tsume
/// a repetition is no mate (perpetual check loses for the attacker), and
/// only `Escape` is sound: the other two are the mistakes that the
/// repetition problems of `tests/tsume.rs` are there to catch.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RepetitionRule {
    /// A repetition is an escape; a disproof that rests on one reaches
    /// the table only once the search is back at the repeated position.
    #[default]
    Escape,
    /// A repetition is an escape, and every disproof is stored at once,
    /// whatever path it rests on (the graph-history interaction
    /// unhandled: a later path that does not hold the repeated position
    /// takes the disproof as final).
    StoreAnyway,
    /// No repetition test at all: a cycle runs on to the ply cap.
    Ignore,
}

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

/// A hand as seven count bytes (pawn first).
#[cfg(test)]
fn pack_hand(h: &[u8; 7]) -> u64 {
    h.iter()
        .enumerate()
        .fold(0, |v, (i, &c)| v | (u64::from(c.min(127)) << (8 * i)))
}

/// The count of hand slot `i` (pawn 0 .. rook 6) in a packed hand.
#[inline]
fn hand_get(h: u64, i: usize) -> u64 {
    (h >> (8 * i)) & 0xff
}

/// `h` with slot `i` set to `v` (at most 127).
#[inline]
fn hand_set(h: u64, i: usize, v: u64) -> u64 {
    (h & !(0xff << (8 * i))) | (v.min(127) << (8 * i))
}

/// Slot by slot: the larger (`max`) or smaller count of `a` and `b`.
fn hand_merge(a: u64, b: u64, max: bool) -> u64 {
    (0..7).fold(0, |h, i| {
        let (x, y) = (hand_get(a, i), hand_get(b, i));
        h | (if max { x.max(y) } else { x.min(y) } << (8 * i))
    })
}

/// The defender's hand that goes with attacker hand `to` when the
/// attacker's hand `from` went with `def` (the board and so the pieces in
/// hands are the same): slot by slot `def + from - to`, never below zero.
fn transfer(def: u64, from: u64, to: u64) -> u64 {
    (0..7).fold(0, |h, i| {
        let v = (hand_get(def, i) + hand_get(from, i)).saturating_sub(hand_get(to, i));
        h | (v.min(127) << (8 * i))
    })
}

/// Whether hand `a` holds at least as many pieces of every kind as `b`.
#[inline]
fn contains(a: u64, b: u64) -> bool {
    (a | GUARD).wrapping_sub(b) & GUARD == GUARD
}

/// A position as the table sees it.
#[derive(Clone, Copy, Debug)]
struct Key {
    /// Board and side to move, hands left out.
    board: u64,
    /// The attacker's and the defender's hands.
    att: u64,
    def: u64,
    /// The full key (hands included), for repetitions.
    full: u64,
    /// `board` before a depth-bounded search salted it.
    plain: u64,
}

impl Key {
    fn of(b: &Board, attacker: Color) -> Key {
        let board = b.board_key();
        Key {
            board,
            att: b.packed_hand(attacker),
            def: b.packed_hand(attacker.flip()),
            full: b.key(),
            plain: board,
        }
    }

    /// The key of the position after the legal move `m` of `b`, without
    /// making it.
    fn after(b: &Board, m: Move, attacker: Color) -> Key {
        let (full, board) = b.keys_after(m);
        let mover = b.side_to_move();
        let mut moved = b.packed_hand(mover);
        match (m.from(), m.drop_kind()) {
            (None, Some(k)) => moved -= 1 << (8 * k.index()),
            (Some(_), _) => {
                if let Some(c) = b.piece_at(m.to()) {
                    moved += 1 << (8 * c.kind().unpromote().index());
                }
            }
            (None, None) => {}
        }
        let other = b.packed_hand(mover.flip());
        let (att, def) = if mover == attacker {
            (moved, other)
        } else {
            (other, moved)
        };
        Key {
            board,
            att,
            def,
            full,
            plain: board,
        }
    }
}

/// A search result: numbers from the attacker's point of view.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    /// For proven nodes: plies to mate along the proof found.
    dist: u32,
    /// For disproven nodes: the path index of the repeated position the
    /// disproof rests on, or `NO_REP`.
    rep: u32,
    /// For proven nodes the proof hand: the least attacker's hand for
    /// which the proof holds (the rest of the pieces in the defender's
    /// hand); for disproven nodes the disproof hand, the largest.
    hand: u64,
}

impl Res {
    const fn new(pn: u32, dn: u32) -> Res {
        Res {
            pn,
            dn,
            dist: 0,
            rep: NO_REP,
            hand: 0,
        }
    }
    /// Proven for any attacker's hand containing `hand`.
    const fn proven(hand: u64) -> Res {
        Res {
            hand,
            ..Res::new(0, INF)
        }
    }
    /// Disproven for any attacker's hand contained in `hand`.
    const fn disproven(hand: u64) -> Res {
        Res {
            hand,
            ..Res::new(INF, 0)
        }
    }
    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// One table entry. The board key lives in its own array (one cache
/// line per cluster) and the rest is packed in four words, so an all-zero
/// table is empty and can come from the allocator already zeroed.
#[derive(Clone, Copy, Debug)]
struct Entry {
    att: u64,
    def: u64,
    pn: u32,
    dn: u32,
    dist: u32,
    /// Nodes spent below this entry (replacement priority).
    work: u32,
}

impl Entry {
    fn unpack(w: &[u64; 4]) -> Entry {
        Entry {
            att: w[0],
            def: w[1],
            pn: (w[2] >> 32) as u32,
            dn: w[2] as u32,
            dist: (w[3] >> 32) as u32,
            work: w[3] as u32,
        }
    }
    fn pack(&self) -> [u64; 4] {
        [
            self.att,
            self.def,
            (u64::from(self.pn) << 32) | u64::from(self.dn),
            (u64::from(self.dist) << 32) | u64::from(self.work),
        ]
    }
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    /// A proof or disproof (possibly from another hand), or the exact
    /// entry of this position.
    hit: Option<(Res, u32)>,
    /// Lower bounds from entries of the same board with other hands: a
    /// hand that is worse for the attacker needs at least as much proof.
    pn_floor: u32,
    dn_floor: u32,
}

/// Clusters of `CLUSTER` entries, indexed by the board key. A zero board
/// key marks an empty slot (a real zero key is never stored).
struct Table {
    keys: Vec<u64>,
    data: Vec<[u64; 4]>,
    mask: usize,
    /// The most clusters it may grow to.
    max_clusters: usize,
    /// Slots in use.
    used: usize,
}

impl Table {
    fn new(max_entries: usize) -> Table {
        let clusters = (max_entries / CLUSTER).max(1);
        let clusters = if clusters.is_power_of_two() {
            clusters
        } else {
            clusters.next_power_of_two() / 2
        };
        let start = clusters.min(FIRST_CLUSTERS);
        Table {
            keys: vec![0u64; start * CLUSTER],
            data: vec![[0u64; 4]; start * CLUSTER],
            mask: start - 1,
            max_clusters: clusters,
            used: 0,
        }
    }

    /// Doubles the table (while under its size limit) once it is half
    /// full: each old cluster splits into two new ones, so every entry
    /// finds a free slot.
    fn grow(&mut self) {
        let clusters = (self.mask + 1) * 2;
        let mut bigger = Table {
            keys: vec![0u64; clusters * CLUSTER],
            data: vec![[0u64; 4]; clusters * CLUSTER],
            mask: clusters - 1,
            max_clusters: self.max_clusters,
            used: self.used,
        };
        for (&bk, w) in self.keys.iter().zip(&self.data) {
            if bk == 0 {
                continue;
            }
            let base = bigger.cluster(bk);
            let free = (base..base + CLUSTER).find(|&i| bigger.keys.get(i) == Some(&0));
            if let Some(i) = free {
                if let (Some(k), Some(d)) = (bigger.keys.get_mut(i), bigger.data.get_mut(i)) {
                    *k = bk;
                    *d = *w;
                }
            }
        }
        *self = bigger;
    }

    fn cluster(&self, board: u64) -> usize {
        (((board >> 20) as usize) & self.mask) * CLUSTER
    }

    /// Asks the processor to bring `board`'s cluster into the cache ahead
    /// of the probe.
    #[inline]
    fn prefetch(&self, board: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(k) = self.keys.get(self.cluster(board)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is only a hint; it reads nothing and
            // cannot fault, and the address is that of a live element.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(k).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    fn probe(&self, k: &Key) -> Probe {
        let mut out = Probe::default();
        let mut proof: Option<(u32, u64)> = None;
        let mut exact = None;
        let base = self.cluster(k.board);
        let keys = self.keys.get(base..base + CLUSTER).unwrap_or(&[]);
        for (i, &bk) in keys.iter().enumerate() {
            if bk != k.board || bk == 0 {
                continue;
            }
            let Some(w) = self.data.get(base + i) else {
                continue;
            };
            let e = Entry::unpack(w);
            // Entries whose attacker is at least as well off as here.
            let better = contains(e.att, k.att) && contains(k.def, e.def);
            // Entries whose attacker is at most as well off as here.
            let worse = contains(k.att, e.att) && contains(e.def, k.def);
            if e.pn == 0 && worse {
                if proof.is_none_or(|(d, _)| e.dist < d) {
                    proof = Some((e.dist, e.att));
                }
            } else if e.dn == 0 && better {
                out.hit = Some((Res::disproven(e.att), e.work));
                return out;
            }
            if e.att == k.att && e.def == k.def {
                exact = Some(e);
            } else if better {
                out.pn_floor = out.pn_floor.max(e.pn);
            } else if worse {
                out.dn_floor = out.dn_floor.max(e.dn);
            }
        }
        if let Some((dist, hand)) = proof {
            out.hit = Some((
                Res {
                    dist,
                    ..Res::proven(hand)
                },
                0,
            ));
        } else if let Some(e) = exact {
            out.hit = Some((
                Res {
                    pn: e.pn,
                    dn: e.dn,
                    dist: e.dist,
                    rep: NO_REP,
                    hand: e.att,
                },
                e.work,
            ));
        }
        out
    }

    fn store(&mut self, k: &Key, r: Res, work: u32) {
        if k.board == 0 {
            return;
        }
        // A proof or disproof is stored under its proof or disproof hand.
        let fin = r.is_final();
        let (att, def) = if fin {
            (r.hand, transfer(k.def, k.att, r.hand))
        } else {
            (k.att, k.def)
        };
        let e = Entry {
            att,
            def,
            pn: r.pn,
            dn: r.dn,
            dist: r.dist,
            work,
        };
        let base = self.cluster(k.board);
        let mut victim = 0;
        let mut victim_score = u64::MAX;
        let mut free = false;
        for i in 0..CLUSTER {
            let bk = self.keys.get(base + i).copied().unwrap_or(0);
            if bk == 0 {
                victim = i;
                free = true;
                break;
            }
            let old = self.data.get(base + i).map_or(e, Entry::unpack);
            if bk == k.board && old.att == e.att && old.def == e.def {
                victim = i;
                free = true;
                break;
            }
            // What the new proof or disproof answers for is no longer
            // needed.
            if bk == k.board
                && fin
                && if r.pn == 0 {
                    contains(old.att, e.att) && old.dn != 0
                } else {
                    contains(e.att, old.att) && old.pn != 0
                }
            {
                victim = i;
                free = true;
                break;
            }
            // Keep proofs and disproofs, then the costly entries.
            let fin = u64::from(old.pn == 0 || old.dn == 0);
            let score = (fin << 32) | u64::from(old.work);
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        if !free && self.mask < self.max_clusters - 1 {
            // Full cluster: grow rather than evict.
            self.grow();
            return self.store(k, r, work);
        }
        if let (Some(bk), Some(w)) = (
            self.keys.get_mut(base + victim),
            self.data.get_mut(base + victim),
        ) {
            if *bk == 0 {
                self.used += 1;
            }
            *bk = k.board;
            *w = e.pack();
        }
        if self.used * 2 > self.keys.len() && self.mask < self.max_clusters - 1 {
            self.grow();
        }
    }
}

/// Limits of one solve.
pub struct TsumeLimits<'a> {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Checked regularly: set it to abort (USI `stop`).
    pub stop: Option<&'a AtomicBool>,
    /// The table's largest size in entries (rounded down to a power of
    /// two clusters); it starts at 65,536 and doubles as it fills.
    pub max_entries: usize,
}

impl Default for TsumeLimits<'_> {
    fn default() -> Self {
        TsumeLimits {
            time: None,
            nodes: None,
            stop: None,
            max_entries: 1 << 21,
        }
    }
}

/// The full keys of the positions on the current path, with a count of
/// them per bucket of keys, so that most repetition questions are
/// answered without a scan.
struct Path {
    keys: Vec<u64>,
    counts: Box<[u16; Path::BUCKETS]>,
}

impl Path {
    const BUCKETS: usize = 4096;

    fn new() -> Path {
        Path {
            keys: Vec::new(),
            counts: Box::new([0; Path::BUCKETS]),
        }
    }

    #[inline]
    fn bucket(key: u64) -> usize {
        (key >> 52) as usize & (Self::BUCKETS - 1)
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn push(&mut self, key: u64) {
        self.keys.push(key);
        if let Some(c) = self.counts.get_mut(Self::bucket(key)) {
            *c += 1;
        }
    }

    fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            if let Some(c) = self.counts.get_mut(Self::bucket(key)) {
                *c -= 1;
            }
        }
    }

    fn clear(&mut self) {
        while !self.keys.is_empty() {
            self.pop();
        }
    }

    /// The path becomes `keys`.
    fn set(&mut self, keys: &[u64]) {
        self.clear();
        for &k in keys {
            self.push(k);
        }
    }

    /// The index of `key` on the path.
    #[inline]
    fn position(&self, key: u64) -> Option<usize> {
        if self.counts.get(Self::bucket(key)).is_none_or(|&c| c == 0) {
            return None;
        }
        self.keys.iter().position(|&k| k == key)
    }

    fn contains(&self, key: u64) -> bool {
        self.position(key).is_some()
    }
}

/// First estimates of new children, which the table does not keep (it
/// keeps proofs, disproofs and searched nodes only): a child met again
/// when its parent is expanded again takes its numbers from here instead
/// of counting its moves and looking for mates again. Direct-mapped on
/// the full key; only estimates that depend on the position alone go in.
struct Estimates {
    /// The key and `pn << 32 | dn` (never 0: an estimate is not final).
    /// Empty until the first estimate; it starts small and doubles up to
    /// [`Estimates::MAX_SLOTS`] as estimates are put, so that a small
    /// solve does not pay a page fault for nearly every estimate it keeps.
    slots: Vec<[u64; 2]>,
    /// Estimates put since the last doubling.
    puts: usize,
}

impl Estimates {
    const FIRST_SLOTS: usize = 1 << 12;
    const MAX_SLOTS: usize = 1 << 18;

    fn slot(&self, key: u64) -> usize {
        ((key ^ (key >> 40)) as usize) & self.slots.len().wrapping_sub(1)
    }

    fn get(&self, key: u64) -> Option<Res> {
        let &[k, v] = self.slots.get(self.slot(key))?;
        (k == key && v != 0).then(|| Res::new((v >> 32) as u32, v as u32))
    }

    fn put(&mut self, key: u64, r: Res) {
        if self.slots.is_empty() {
            self.slots = vec![[0; 2]; Self::FIRST_SLOTS];
        }
        self.puts += 1;
        if self.puts > self.slots.len() && self.slots.len() < Self::MAX_SLOTS {
            // A cache: what collides on the way over is dropped, which
            // costs time only (an estimate depends on the position alone).
            let bigger = vec![[0; 2]; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            for e in old.into_iter().filter(|e| e[1] != 0) {
                let s = self.slot(e[0]);
                if let Some(d) = self.slots.get_mut(s) {
                    *d = e;
                }
            }
            self.puts = 0;
        }
        let s = self.slot(key);
        if let Some(d) = self.slots.get_mut(s) {
            *d = [key, (u64::from(r.pn) << 32) | u64::from(r.dn)];
        }
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = self.slots.get(self.slot(key)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is only a hint; it reads nothing and
            // cannot fault, and the address is that of a live element.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(s).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

/// A move of an expanded node.
struct Child {
    m: Move,
    /// The hand slot of the piece the move captures, or 7.
    gain: usize,
    /// What is known of the child: from the table when the node was
    /// expanded, then what the child's search returned. (Results found
    /// meanwhile through transpositions wait for the next expansion.)
    cur: Res,
}

pub struct Solver<'a> {
    table: Table,
    estimates: Estimates,
    limits: TsumeLimits<'a>,
    start: Instant,
    nodes: u64,
    next_check: u64,
    aborted: bool,
    attacker: Color,
    /// Full keys of the positions on the current path (repetition test).
    path: Path,
    /// Scratch move list.
    buf: Vec<Move>,
    /// `expand`'s move and key lists, kept for the next expansion.
    expand_moves: Vec<Move>,
    expand_keys: Vec<Key>,
    /// Children lists of finished nodes, for the next ones (one is in use
    /// per node on the path).
    kid_lists: Vec<Vec<Child>>,
    /// Plies from the root beyond which nothing mates (`INF`: unbounded).
    depth_limit: u32,
    /// Least extra nodes for shortening a mate found; `None`: no shortening.
    shorten_min: Option<u64>,
    /// Whether a path reached `MAX_PLY`.
    capped: bool,
    /// How repetitions are treated (only `Escape` is sound).
    repetition: RepetitionRule,
}

impl<'a> Solver<'a> {
    pub fn new(limits: TsumeLimits<'a>) -> Solver<'a> {
        Solver {
            table: Table::new(limits.max_entries),
            estimates: Estimates {
                slots: Vec::new(),
                puts: 0,
            },
            limits,
            start: Instant::now(),
            nodes: 0,
            next_check: 0,
            aborted: false,
            attacker: Color::Black,
            path: Path::new(),
            buf: Vec::with_capacity(256),
            expand_moves: Vec::with_capacity(256),
            expand_keys: Vec::with_capacity(256),
            kid_lists: Vec::new(),
            depth_limit: INF,
            shorten_min: Some(20_000),
            capped: false,
            repetition: RepetitionRule::Escape,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The extra effort spent shortening a mate once one is proven: at
    /// least `min_nodes` (default 20,000) or twice the proof's nodes,
    /// within the limits; `None` returns the first mate line found.
    pub fn set_shortening(&mut self, min_nodes: Option<u64>) {
        self.shorten_min = min_nodes;
    }

    /// Replaces the sound treatment of repetitions by a broken one, so
    /// that tests can show that their problems need the sound one.
    #[doc(hidden)]
    pub fn set_repetition(&mut self, rule: RepetitionRule) {
        self.repetition = rule;
    }

    /// Solves `pos` for the side to move as the attacker.
    pub fn solve(&mut self, pos: &Game) -> TsumeResult {
        self.start = Instant::now();
        self.next_check = 0;
        self.aborted = false;
        let mut board = pos.board().clone();
        self.attacker = board.side_to_move();
        self.path.clear();
        self.capped = false;
        let r = self.mid(&mut board, INF - 1, INF - 1, true);
        if r.dn == 0 && !self.aborted && !self.capped {
            return TsumeResult::NoMate;
        }
        if r.pn != 0 {
            return TsumeResult::Timeout;
        }
        self.aborted = false;
        let proof_nodes = self.nodes;
        let first = self.principal_line(pos.board());
        let Some(shorten_min) = self.shorten_min else {
            return first.map_or(TsumeResult::Timeout, TsumeResult::Mate);
        };
        // Shorten the mate with a bounded extra effort (twice the nodes
        // the proof took, at least `shorten_min`, within the limits).
        let user_nodes = self.limits.nodes;
        let extra = self.nodes + (2 * proof_nodes).max(shorten_min);
        self.limits.nodes = Some(user_nodes.map_or(extra, |n| n.max(self.nodes).min(extra)));
        self.next_check = 0;
        self.path.clear();
        // Each shorter length in turn, by a df-pn bounded in depth (its
        // entries keyed apart by the remaining depth), until one fails:
        // the mate found last is then the shortest.
        let mut best = first.clone();
        while let Some(len) = best.as_ref().map(|l| l.len() as u32) {
            if len <= 1 {
                break;
            }
            self.depth_limit = len - 2;
            self.path.clear();
            let r = self.mid(&mut board, INF - 1, INF - 1, true);
            if self.aborted || r.pn != 0 {
                break;
            }
            match self.principal_line(pos.board()) {
                Some(l) if (l.len() as u32) < len && is_mating_line(pos, &l) => best = Some(l),
                _ => break,
            }
        }
        self.depth_limit = INF;
        self.aborted = false;
        self.limits.nodes = user_nodes;
        let second = best;
        let line = match (first, second) {
            (Some(a), Some(b)) => Some(if b.len() < a.len() { b } else { a }),
            (a, b) => a.or(b),
        };
        match line {
            Some(line) => TsumeResult::Mate(line),
            None => TsumeResult::Timeout,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 256;
            let stop = self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            let time = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if stop || time || nodes {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The table key of `board` at `ply` plies from the root: in a
    /// depth-bounded search the remaining depth is part of it.
    fn key(&self, board: &Board, ply: u32) -> Key {
        self.salted(Key::of(board, self.attacker), ply)
    }

    /// `k` with the remaining depth at `ply` salted into its board part in
    /// a depth-bounded search.
    fn salted(&self, mut k: Key, ply: u32) -> Key {
        if self.depth_limit != INF {
            let rem = u64::from(self.depth_limit.saturating_sub(ply)) + 1;
            k.board ^= rem.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29) | 1;
        }
        k
    }

    /// The moves of a node with their first estimates: checks for the
    /// attacker, everything for the defender.
    fn expand(&mut self, board: &mut Board, or_node: bool) -> Vec<Child> {
        let mut moves = std::mem::take(&mut self.expand_moves);
        moves.clear();
        if or_node {
            board.generate_checks(&mut moves);
        } else {
            board.legal_moves(&mut moves);
        }
        // The children's keys first, each table cluster prefetched as soon
        // as its key is known: the loads (the search's main cost is
        // waiting for them) then overlap instead of coming one at a time.
        let ply = self.path.len() as u32;
        let mut keys = std::mem::take(&mut self.expand_keys);
        keys.clear();
        for &m in &moves {
            let key = self.salted(Key::after(board, m, self.attacker), ply);
            self.table.prefetch(key.board);
            self.estimates.prefetch(self.estimate_key(&key));
            keys.push(key);
        }
        let mut kids = self.kid_lists.pop().unwrap_or_default();
        kids.clear();
        for (&m, key) in moves.iter().zip(&keys) {
            let captured = m.from().and(board.piece_at(m.to()));
            let gain = captured.map_or(7, |p| p.kind().unpromote().index());
            let rep = self.repeated(key).map_or(NO_REP, |i| i as u32);
            let cur = if rep == NO_REP {
                self.first_value(board, m, key, !or_node)
            } else {
                Res {
                    rep,
                    ..Res::disproven(key.att)
                }
            };
            kids.push(Child { m, gain, cur });
            // One proven check proves an attacker's node, one escape that
            // holds whatever the path disproves a defender's: the rest
            // need no estimate (on a small problem, the 3-ply checks of
            // every other check were most of the solve).
            if (or_node && cur.pn == 0) || (!or_node && cur.dn == 0 && cur.rep == NO_REP) {
                break;
            }
        }
        self.expand_moves = moves;
        self.expand_keys = keys;
        kids
    }

    /// The path index of the earlier position that `key` repeats.
    fn repeated(&self, key: &Key) -> Option<usize> {
        if self.repetition == RepetitionRule::Ignore {
            return None;
        }
        self.path.position(key.full)
    }

    /// The proof hand of a mated defender's node.
    fn mated_hand(&self, board: &Board) -> u64 {
        self.evasion_proof_hand(board, 0)
    }

    /// The proof hand of a defender's node from the largest of its
    /// replies' proof hands `h`: where the check could be blocked, a kind
    /// the defender lacks must stay with the attacker, for with fewer of
    /// it the defender would hold one to interpose.
    fn evasion_proof_hand(&self, board: &Board, h: u64) -> u64 {
        let def = board.side_to_move();
        let Some(k) = board.king(def) else {
            return h;
        };
        let checkers = board.attackers_to(self.attacker, k, board.occupied());
        let blockable =
            !checkers.more_than_one() && checkers.first().is_some_and(|c| between(k, c).any());
        if !blockable {
            return h;
        }
        let (att, dh) = (board.hand(self.attacker), board.hand(def));
        (0..7).fold(h, |h, i| {
            if dh[i] == 0 {
                hand_set(h, i, u64::from(att[i]))
            } else {
                h
            }
        })
    }

    /// The disproof hand of an attacker's node without a check.
    fn no_check_hand(&self, board: &Board) -> u64 {
        self.check_disproof_hand(board, u64::MAX)
    }

    /// The disproof hand of an attacker's node from the least of its
    /// checks' disproof hands `h` (each as before its move): a kind the
    /// attacker lacks stays lacking (one more would add drops), a kind it
    /// holds may grow to every piece of it not on the board.
    fn check_disproof_hand(&self, board: &Board, h: u64) -> u64 {
        let (att, dh) = (board.hand(self.attacker), board.hand(self.attacker.flip()));
        (0..7).fold(0, |out, i| {
            let v = if att[i] == 0 {
                0
            } else {
                hand_get(h, i).min(u64::from(att[i]) + u64::from(dh[i]))
            };
            hand_set(out, i, v)
        })
    }

    /// What is known of a new child: the table's proof or disproof (for
    /// this hand or a dominating one), else its entry or a first estimate,
    /// raised to the bounds that entries for other hands give. A depth-
    /// bounded search also takes the unbounded search's disproofs.
    fn first_value(&mut self, board: &mut Board, m: Move, key: &Key, or_node: bool) -> Res {
        if self.depth_limit != INF {
            let plain = Key {
                board: key.plain,
                ..*key
            };
            if let Some((r, _)) = self.table.probe(&plain).hit.filter(|(r, _)| r.dn == 0) {
                return r;
            }
        }
        let p = self.table.probe(key);
        let r = match p.hit {
            Some((r, _)) if r.is_final() => return r,
            Some((r, _)) => r,
            None => self.initial(board, m, key, or_node),
        };
        if r.is_final() {
            return r;
        }
        Res {
            pn: r.pn.max(p.pn_floor),
            dn: r.dn.max(p.dn_floor),
            ..r
        }
    }

    /// First proof and disproof numbers of a new child: the defender's
    /// number of replies as its proof number, the attacker's number of
    /// checks as its disproof number. A child with no reply is mate and
    /// one with no check an escape; both go to the table at once.
    /// `board` is the parent and `m` the child's move: only a child that
    /// is not in the estimate cache needs the move made.
    fn initial(&mut self, board: &mut Board, m: Move, key: &Key, or_node: bool) -> Res {
        // Unbounded, an estimate depends on the position alone (where it
        // does not, `estimate` leaves it out of the cache).
        let cache = (self.depth_limit == INF).then(|| self.estimate_key(key));
        if let Some(r) = cache.and_then(|k| self.estimates.get(k)) {
            return r;
        }
        let captured = board.do_move(m);
        let (r, path_free) = self.estimate(board, key, or_node);
        board.undo_move(m, captured);
        if let Some(k) = cache.filter(|_| path_free && !r.is_final()) {
            self.estimates.put(k, r);
        }
        r
    }

    /// The cache key of a position's estimate: its full key, told apart by
    /// which side attacks.
    fn estimate_key(&self, key: &Key) -> u64 {
        match self.attacker {
            Color::Black => key.full,
            Color::White => key.full ^ 0x6A09_E667_F3BC_C909,
        }
    }

    /// `initial`'s numbers, and whether they hold whatever the path (a
    /// defender's node that `mated_in_two` fails to prove because a reply
    /// repeats the path might be proven on another).
    fn estimate(&mut self, board: &Board, key: &Key, or_node: bool) -> (Res, bool) {
        if or_node {
            if let Some(r) = self.mate_in_one(board) {
                self.table.store(key, r, 1);
                return (r, true);
            }
        }
        // Counted without listing the moves where the list is not needed:
        // every attacker's node, and a defender's with more than 8 replies
        // (`mated_in_two` looks at no more).
        // A defender's replies are listed (in no particular order: only
        // `mated_in_two` looks at them) where there are at most 8.
        let mut moves = std::mem::take(&mut self.buf);
        moves.clear();
        let evasions = if or_node {
            if let Some(checks) = board.count_checks() {
                self.buf = moves;
                return (self.checks_estimate(board, key, checks), true);
            }
            board.generate_checks(&mut moves);
            None
        } else {
            let e = board.list_few_evasions(8, &mut moves);
            if e.is_none() {
                board.legal_moves(&mut moves);
            }
            e
        };
        if let Some(e) = evasions.filter(|e| e.moves > 8) {
            self.buf = moves;
            return (Res::new(evasion_estimate(e), 1), true);
        }
        let mut path_free = true;
        let r = if or_node {
            self.checks_estimate(board, key, moves.len() as u32)
        } else if moves.is_empty() {
            let r = Res::proven(self.mated_hand(board));
            self.table.store(key, r, 1);
            r
        } else {
            match self.mated_in_two(board, &moves) {
                Ok(r) => {
                    self.table.store(key, r, 1);
                    r
                }
                Err(on_path) => {
                    path_free = !on_path;
                    Res::new(evasions.map_or(moves.len() as u32, evasion_estimate), 1)
                }
            }
        };
        self.buf = moves;
        (r, path_free)
    }

    /// First numbers of an attacker's node with `checks` checks.
    fn checks_estimate(&mut self, board: &Board, key: &Key, checks: u32) -> Res {
        if checks == 0 {
            let r = Res::disproven(self.no_check_hand(board));
            self.table.store(key, r, 1);
            r
        } else {
            Res::new(1, checks)
        }
    }

    /// An attacker's node mated in one by the fast (incomplete) finder:
    /// its proof, else `None`. In a depth-bounded search the mate must
    /// fit within the bound.
    fn mate_in_one(&self, board: &Board) -> Option<Res> {
        self.mate_in_one_at(board, self.path.len() as u32)
    }

    /// `mate_in_one` for an attacker's node `ply` plies from the root.
    fn mate_in_one_at(&self, board: &Board, ply: u32) -> Option<Res> {
        if ply + 1 > self.depth_limit {
            return None;
        }
        let m = crate::mate1::mate_in_one(board)?;
        // The finder's mates are contact checks and knight drops: they
        // cannot be blocked, so the mated position's proof hand is empty
        // and the proof needs only the dropped piece, if any.
        let hand = m.drop_kind().map_or(0, |k| hand_set(0, k.index(), 1));
        Some(Res {
            dist: 1,
            ..Res::proven(hand)
        })
    }

    /// A defender's node (a child being created, its replies `moves`, at
    /// most 8) where every reply is met by a mate in one (the fast
    /// finder): its proof, else `None`. A reply that checks back or
    /// repeats a position of the path is left to the search.
    fn mated_in_two(&self, board: &Board, moves: &[Move]) -> Result<Res, bool> {
        // With many replies one of them nearly always escapes: not worth
        // the finder's time.
        if moves.len() > 8 {
            return Err(false);
        }
        let ply = self.path.len() as u32 + 1;
        let mut b = board.clone();
        let mut hand = 0;
        for &m in moves {
            let captured = b.do_move(m);
            // The first reply left to the search decides; `Err(true)` when
            // it was left only for repeating the path.
            let r = if b.in_check() {
                Err(false)
            } else if self.path.contains(b.key()) {
                Err(true)
            } else {
                self.mate_in_one_at(&b, ply).ok_or(false)
            };
            b.undo_move(m, captured);
            hand = hand_merge(hand, r?.hand, true);
        }
        Ok(Res {
            dist: 2,
            ..Res::proven(self.evasion_proof_hand(board, hand))
        })
    }

    /// Expands `board` until its proof or disproof number reaches its
    /// threshold; returns its numbers from the attacker's point of view.
    fn mid(&mut self, board: &mut Board, th_pn: u32, th_dn: u32, or_node: bool) -> Res {
        self.nodes += 1;
        let ply = self.path.len() as u32;
        let key = self.key(board, ply);
        if let Some(i) = self.repeated(&key) {
            // Repetition: not a mate along this path.
            return Res {
                rep: i as u32,
                ..Res::disproven(key.att)
            };
        }
        if ply >= MAX_PLY {
            self.capped = true;
            return Res {
                rep: 0,
                ..Res::disproven(key.att)
            };
        }
        if ply >= self.depth_limit {
            // Out of depth: only a mate already on the board counts.
            let r = if !or_node && !board.has_legal_move() {
                Res::proven(self.mated_hand(board))
            } else {
                Res::disproven(key.att)
            };
            self.table.store(&key, r, 1);
            return r;
        }
        let start_nodes = self.nodes;
        let old_work = self.table.probe(&key).hit.map_or(0, |(_, w)| w);
        self.path.push(key.full);
        let mut kids = self.expand(board, or_node);
        if kids.is_empty() {
            self.kid_lists.push(kids);
            self.path.pop();
            // The attacker has no check: escaped. The defender has no
            // move: mated (every node of the defender is in check).
            let r = if or_node {
                Res::disproven(self.no_check_hand(board))
            } else {
                Res::proven(self.mated_hand(board))
            };
            self.table.store(&key, r, 1);
            return r;
        }
        let result = loop {
            let mut pn_sum: u32 = 0;
            let mut dn_sum: u32 = 0;
            let mut min_pn = u32::MAX;
            let mut min_dn = u32::MAX;
            let mut best = 0;
            let mut best_val = u32::MAX;
            let mut second = u32::MAX;
            let mut best_res = Res::new(1, 1);
            let mut dist_min = u32::MAX;
            let mut dist_max = 0;
            let mut rep_min = NO_REP;
            let mut rep_max = 0;
            // Proof and disproof hands: at an attacker's node the quickest
            // proven check's, or the least of every check's; at a
            // defender's node the largest of every reply's, or the
            // escape's.
            let mut proof_hand = 0;
            let mut disproof_hand = if or_node { u64::MAX } else { 0 };
            for (i, c) in kids.iter().enumerate() {
                let r = c.cur;
                if r.pn == 0 {
                    if !or_node {
                        proof_hand = hand_merge(proof_hand, r.hand, true);
                    } else if r.dist < dist_min {
                        proof_hand = hand_before(r.hand, c);
                    }
                }
                if r.dn == 0 {
                    if or_node {
                        disproof_hand = hand_merge(disproof_hand, hand_before(r.hand, c), false);
                    } else if r.rep >= rep_max || rep_max == 0 {
                        disproof_hand = r.hand;
                    }
                }
                pn_sum = pn_sum.saturating_add(r.pn).min(INF);
                dn_sum = dn_sum.saturating_add(r.dn).min(INF);
                min_pn = min_pn.min(r.pn);
                min_dn = min_dn.min(r.dn);
                if r.pn == 0 {
                    dist_min = dist_min.min(r.dist);
                    dist_max = dist_max.max(r.dist);
                }
                if r.dn == 0 {
                    rep_min = rep_min.min(r.rep);
                    rep_max = rep_max.max(r.rep);
                }
                let v = if or_node { r.pn } else { r.dn };
                if v < best_val {
                    second = best_val;
                    best_val = v;
                    best = i;
                    best_res = r;
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
                let mut r = Res::new(pn, dn);
                if pn == 0 {
                    r.dist = if or_node { dist_min } else { dist_max }.saturating_add(1);
                    r.hand = if or_node {
                        proof_hand
                    } else {
                        self.evasion_proof_hand(board, proof_hand)
                    };
                }
                if dn == 0 {
                    r.hand = if or_node {
                        self.check_disproof_hand(board, disproof_hand)
                    } else {
                        disproof_hand
                    };
                    // Every escape is needed at an attacker's node, one
                    // at a defender's: keep the least path-bound one.
                    r.rep = if or_node { rep_min } else { rep_max };
                    if r.rep != NO_REP && r.rep >= ply {
                        r.rep = NO_REP;
                    }
                }
                break r;
            }
            // Thresholds for the most promising child.
            let (cpn, cdn) = if or_node {
                (
                    th_pn.min(epsilon(second)),
                    (th_dn - dn).saturating_add(best_res.dn).min(INF - 1),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(best_res.pn).min(INF - 1),
                    th_dn.min(epsilon(second)),
                )
            };
            let Some(c) = kids.get_mut(best) else {
                break Res::new(pn, dn);
            };
            let m = c.m;
            let captured = board.do_move(m);
            let r = self.mid(board, cpn, cdn, !or_node);
            board.undo_move(m, captured);
            if let Some(c) = kids.get_mut(best) {
                c.cur = r;
            }
        };
        self.kid_lists.push(kids);
        self.path.pop();
        let path_bound = result.dn == 0
            && result.rep != NO_REP
            && self.repetition != RepetitionRule::StoreAnyway;
        if !path_bound && (!self.aborted || result.is_final()) {
            let spent = self.nodes - start_nodes;
            let work = u64::from(old_work)
                .saturating_add(spent)
                .min(u64::from(u32::MAX - 1));
            self.table.store(&key, result, work as u32);
        }
        result
    }

    /// What the table says of a position.
    fn known(&self, board: &Board, ply: u32) -> Option<Res> {
        self.table.probe(&self.key(board, ply)).hit.map(|(r, _)| r)
    }

    /// Follows the proof from the root: the attacker takes the quickest
    /// proven check, the defender the longest resistance. The line must
    /// end in checkmate, or `None`. The limits are as they were after.
    fn principal_line(&mut self, root: &Board) -> Option<Vec<Move>> {
        let saved = (self.limits.time, self.limits.stop, self.limits.nodes);
        let line = self.follow_proof(root);
        (self.limits.time, self.limits.stop, self.limits.nodes) = saved;
        self.aborted = false;
        self.next_check = 0;
        line
    }

    /// Proves `board` (an attacker's node) again after its proof was
    /// evicted, with `path` as the path above it, within 2,000,000 nodes
    /// and no time limit (the line is owed once a mate is proven).
    fn reprove(&mut self, board: &Board, path: &[u64]) {
        self.path.set(path);
        self.aborted = false;
        self.limits.time = None;
        self.limits.stop = None;
        self.limits.nodes = Some(self.nodes + 2_000_000);
        self.next_check = 0;
        let mut b = board.clone();
        self.mid(&mut b, INF - 1, INF - 1, true);
    }

    /// The move the line takes at `board`: the attacker's quickest proven
    /// check, the defender's longest-resisting reply (each reply must be
    /// proven; one that is not known is proven again). `None` where the
    /// proof is lost or leads back into the line.
    fn pick(
        &mut self,
        board: &Board,
        moves: &[Move],
        or_node: bool,
        line: &[Move],
        seen: &[u64],
    ) -> Option<(Move, u32)> {
        let mut pick: Option<(Move, u32)> = None;
        for &m in moves {
            let mut b = board.clone();
            b.do_move(m);
            let mut r = self.known(&b, line.len() as u32 + 1);
            if !or_node && r.is_none_or(|r| r.pn != 0) {
                // A reply met by a mate in one (as `mated_in_two` proved
                // it, without storing the replies) needs no search.
                if crate::mate1::mate_in_one(&b).is_some() {
                    r = Some(Res {
                        dist: 1,
                        ..Res::proven(0)
                    });
                }
            }
            if !or_node && r.is_none_or(|r| r.pn != 0) {
                // Evicted or never needed: prove this reply again,
                // bounded: a re-proof that does not finish drops the line.
                self.reprove(&b, seen);
                r = self.known(&b, line.len() as u32 + 1);
            }
            let Some(r) = r else {
                if or_node {
                    continue;
                }
                return None;
            };
            if r.pn != 0 {
                if or_node {
                    continue;
                }
                return None;
            }
            if seen.contains(&b.key()) {
                if or_node {
                    continue;
                }
                return None;
            }
            let better = match pick {
                None => true,
                Some((_, d)) => {
                    if or_node {
                        r.dist < d
                    } else {
                        r.dist > d
                    }
                }
            };
            if better {
                pick = Some((m, r.dist));
            }
        }
        pick
    }

    fn follow_proof(&mut self, root: &Board) -> Option<Vec<Move>> {
        let mut board = root.clone();
        let mut line = Vec::new();
        let mut or_node = true;
        let mut seen: Vec<u64> = Vec::new();
        let mut moves = Vec::with_capacity(128);
        for _ in 0..2000 {
            let key = board.key();
            if seen.contains(&key) {
                return None;
            }
            seen.push(key);
            moves.clear();
            if or_node {
                board.generate_checks(&mut moves);
            } else {
                board.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                return (!or_node && board.in_check()).then_some(line);
            }
            if or_node {
                // A check that mates at once beats any longer proof.
                let mate = moves.iter().copied().find(|&m| {
                    let mut b = board.clone();
                    b.do_move(m);
                    !b.has_legal_move()
                });
                if let Some(m) = mate {
                    line.push(m);
                    return Some(line);
                }
            }
            let mut pick = self.pick(&board, &moves, or_node, &line, &seen);
            if pick.is_none() && or_node {
                // The proof's checks were evicted: prove this node again
                // (bounded, the line so far as its path) and look again.
                let before = seen.len().saturating_sub(1);
                self.reprove(&board, seen.get(..before).unwrap_or(&[]));
                pick = self.pick(&board, &moves, or_node, &line, &seen);
            }
            let (m, _) = pick?;
            line.push(m);
            board.do_move(m);
            or_node = !or_node;
        }
        None
    }
}
/// A child's proof or disproof hand `h` as a hand of its parent, before
/// the child's move: a drop needed one more piece of its kind, a capture
/// brought one in.
fn hand_before(h: u64, c: &Child) -> u64 {
    if let Some(k) = c.m.drop_kind() {
        let i = k.index();
        hand_set(h, i, hand_get(h, i) + 1)
    } else if c.gain < 7 {
        hand_set(h, c.gain, hand_get(h, c.gain).saturating_sub(1))
    } else {
        h
    }
}

/// First proof number of a defender's node: one per reply, except that
/// drops on squares no defender's piece but the king guards count one
/// for all: the attacker takes such an interposition with check again,
/// so they mostly share one proof.
fn evasion_estimate(e: Evasions) -> u32 {
    e.moves - e.unguarded_drops + u32::from(e.unguarded_drops > 0)
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
pub fn solve(pos: &Game, limits: TsumeLimits<'_>) -> TsumeResult {
    Solver::new(limits).solve(pos)
}

/// Checks that `line` is a legal sequence of checks and replies ending in
/// checkmate of the defender.
pub fn is_mating_line(pos: &Game, line: &[Move]) -> bool {
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
        let pos = Game::from_usi(sfen, &[]).unwrap();
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
    fn hand_order_and_board_key() {
        let a = pack_hand(&[2, 0, 1, 0, 1, 0, 1]);
        let b = pack_hand(&[1, 0, 1, 0, 0, 0, 1]);
        assert!(contains(a, b) && !contains(b, a) && contains(a, a));
        assert!(contains(pack_hand(&[18, 4, 4, 4, 4, 2, 2]), a));
        assert!(!contains(
            pack_hand(&[17, 4, 4, 4, 4, 2, 2]),
            pack_hand(&[18, 0, 0, 0, 0, 0, 0])
        ));
        // Same board, different hands: same board key, different hands.
        let x = Board::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let y = Board::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1").unwrap();
        let (kx, ky) = (Key::of(&x, Color::Black), Key::of(&y, Color::Black));
        assert_eq!(kx.board, ky.board);
        assert_ne!(kx.full, ky.full);
        assert!(contains(ky.att, kx.att) && contains(kx.def, ky.def));
    }

    /// A child's key computed without making the move is the key of the
    /// position after it, for either side attacking.
    #[test]
    fn child_keys_agree_with_making_the_move() {
        let mut checked = 0;
        for line in include_str!("../tests/tsume_hard.txt").lines() {
            let Ok(b) = Board::from_sfen(line.split(" ;").next().unwrap_or(line)) else {
                continue;
            };
            let mut moves = Vec::new();
            b.generate_checks(&mut moves);
            for m in moves {
                let mut c = b.clone();
                c.do_move(m);
                let mut replies = Vec::new();
                c.legal_moves(&mut replies);
                for (pos, m) in [(&b, m)]
                    .into_iter()
                    .chain(replies.iter().map(|&r| (&c, r)))
                {
                    let mut after = pos.clone();
                    after.do_move(m);
                    for attacker in Color::BOTH {
                        let (x, y) = (Key::after(pos, m, attacker), Key::of(&after, attacker));
                        assert_eq!(
                            (x.board, x.att, x.def, x.full),
                            (y.board, y.att, y.def, y.full)
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn proof_carries_over_to_a_bigger_hand() {
        // Solved with one gold; the same board with two golds is then
        // answered from the table without a new search.
        let mut solver = Solver::new(TsumeLimits::default());
        let one = Game::from_usi("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", &[]).unwrap();
        assert!(matches!(solver.solve(&one), TsumeResult::Mate(_)));
        let two = Board::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1").unwrap();
        solver.attacker = Color::Black;
        assert_eq!(solver.known(&two, 0).map(|r| r.pn), Some(0));
        let none = Board::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1").unwrap();
        assert!(solver.known(&none, 0).is_none_or(|r| r.pn != 0));
    }

    /// The estimate cache starts small and doubles up to its limit; what
    /// it answers is always what was put for that key, and the last
    /// estimate put is always found.
    #[test]
    fn estimates_grow_and_answer_only_what_was_put() {
        let mut e = Estimates {
            slots: Vec::new(),
            puts: 0,
        };
        assert!(e.get(12345).is_none());
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut keys = Vec::new();
        for _ in 0..(Estimates::MAX_SLOTS * 3) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let r = Res::new((x >> 50) as u32 + 1, (x & 0xFFF) as u32 + 1);
            e.put(x, r);
            assert_eq!(e.get(x).map(|g| (g.pn, g.dn)), Some((r.pn, r.dn)));
            keys.push((x, r));
        }
        assert_eq!(e.slots.len(), Estimates::MAX_SLOTS);
        let mut found = 0;
        for (k, r) in &keys {
            if let Some(g) = e.get(*k) {
                assert_eq!((g.pn, g.dn), (r.pn, r.dn));
                found += 1;
            }
        }
        assert!(found > Estimates::MAX_SLOTS / 2, "{found}");
    }

    #[test]
    fn table_grows_without_losing_entries() {
        let mut t = Table::new(1 << 20);
        assert_eq!(t.keys.len(), FIRST_CLUSTERS * CLUSTER);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut keys = Vec::new();
        for i in 0..50_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = Key {
                board: x | 1,
                att: 0,
                def: 0,
                full: x,
                plain: x | 1,
            };
            t.store(&k, Res::new(i % 50 + 1, 7), 1);
            keys.push((k, i % 50 + 1));
        }
        assert!(t.keys.len() > FIRST_CLUSTERS * CLUSTER && t.keys.len() <= 1 << 20);
        for (k, pn) in keys {
            assert_eq!(t.probe(&k).hit.map(|(r, _)| r.pn), Some(pn));
        }
    }

    #[test]
    fn check_filter_agrees_with_gives_check() {
        for sfen in [
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "3n5/2k6/9/1S7/1LGP5/9/9/9/9 b RBPrb3g3s3n3l16p 1",
            "9/9/7k1/9/6R2/8+P/9/9/9 b B2Prb4g4s4n4l15p 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ] {
            let b = Board::from_sfen(sfen).unwrap();
            let mut moves = Vec::new();
            b.legal_moves(&mut moves);
            let mut checks = Vec::new();
            b.generate_checks(&mut checks);
            moves.retain(|&m| b.gives_check(m));
            assert_eq!(checks, moves, "{sfen}");
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
