//! Per-game glue for the `bench`, `legal` and `perft` subcommands and the
//! front-ends. Each game owns one file here.

pub mod chess;
pub mod go;
pub mod gomoku;
pub mod shogi;
pub mod xiangqi;

use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::fmt;
use std::str::FromStr;
use std::time::Instant;
use tengen_core::{SearchLimits, Signals};
use tengen_search::{Evaluator, Position, Searcher};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Chess,
    Xiangqi,
    Shogi,
    Go,
    Gomoku,
}

impl Game {
    pub fn name(self) -> &'static str {
        match self {
            Game::Chess => "chess",
            Game::Xiangqi => "xiangqi",
            Game::Shogi => "shogi",
            Game::Go => "go",
            Game::Gomoku => "gomoku",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "chess960" => Ok(Game::Chess),
            "xiangqi" => Ok(Game::Xiangqi),
            "shogi" => Ok(Game::Shogi),
            "go" | "baduk" | "weiqi" => Ok(Game::Go),
            "gomoku" | "renju" => Ok(Game::Gomoku),
            other => Err(format!(
                "unknown game '{other}' (expected chess, xiangqi, shogi, go or gomoku)"
            )),
        }
    }
}

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    match args.game {
        Game::Chess => chess::bench(args),
        Game::Xiangqi => xiangqi::bench(args),
        Game::Shogi => shogi::bench(args),
        Game::Go => go::bench(args),
        Game::Gomoku => gomoku::bench(args),
    }
}

pub fn legal(args: &PositionArgs) -> Result<String, String> {
    match args.game {
        Game::Chess => chess::legal(args),
        Game::Xiangqi => xiangqi::legal(args),
        Game::Shogi => shogi::legal(args),
        Game::Go => go::legal(args),
        Game::Gomoku => gomoku::legal(args),
    }
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    match args.pos.game {
        Game::Chess => chess::perft(args),
        Game::Xiangqi => xiangqi::perft(args),
        Game::Shogi => shogi::perft(args),
        Game::Go => go::perft(args),
        Game::Gomoku => gomoku::perft(args),
    }
}

/// `tengen bench` for an alpha-beta game: each position searched to a
/// fixed depth on one thread from a clean slate, so the node total is a
/// signature of the code alone; then the speed.
pub fn bench_search<P: Position, E: Evaluator<P> + Default>(
    positions: &[P],
    depth: u32,
    hash_mb: usize,
    move_name: impl Fn(&P, P::Move) -> String,
) -> String {
    let mut searcher: Searcher<P, E> = Searcher::new(hash_mb);
    let eval = E::default();
    let mut nodes = 0u64;
    let start = Instant::now();
    let mut out = String::new();
    for (i, pos) in positions.iter().enumerate() {
        searcher.clear();
        let r = searcher.search(
            pos,
            &eval,
            &SearchLimits::depth(depth),
            &Signals::new(),
            None,
            &mut |_| {},
        );
        nodes += r.nodes;
        let best = r
            .best
            .map(|m| move_name(pos, m))
            .unwrap_or_else(|| "(none)".into());
        out.push_str(&format!(
            "position {:>2}: bestmove {best:<6} score {:>6} nodes {}\n",
            i + 1,
            r.score.0,
            r.nodes
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    out.push_str(&format!(
        "===========================\nTotal time (ms) : {}\nNodes searched  : {nodes}\nNodes/second    : {}\n",
        (secs * 1000.0) as u64,
        (nodes as f64 / secs) as u64
    ));
    out
}
