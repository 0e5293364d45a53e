//! What a search tells the front-end: one report per completed line, plus
//! current-move notices. Front-ends print them in their own dialect.

use crate::score::Score;

/// How a score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Bound {
    #[default]
    None = 0,
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    Exact = 3,
}

/// One principal variation at one depth.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based rank of this line.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

impl<M> Report<M> {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Events a search emits while it runs.
#[derive(Clone, Debug)]
pub enum Event<M> {
    /// A line finished (or an aspiration window failed, with a bound).
    Line(Report<M>),
    /// The root move being searched, after the first second.
    CurrMove { depth: u32, mv: M, number: usize },
    /// Periodic statistics on long iterations.
    Stats {
        depth: u32,
        nodes: u64,
        time_ms: u64,
        hashfull: u32,
    },
}
