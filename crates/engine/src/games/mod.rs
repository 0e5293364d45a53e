//! Per-game glue for the `bench`, `legal` and `perft` subcommands and the
//! front-ends. Each game owns one file here.

pub mod chess;
pub mod go;
pub mod gomoku;
pub mod shogi;
pub mod xiangqi;

use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::time::Instant;
use tengen_core::{SearchLimits, Signals};
use tengen_games::Perft;
use tengen_search::{Evaluator, Position, Searcher};

/// The games, named and parsed in one place for the engine and the arena.
pub use tengen_games::Game;

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

/// `tengen perft` for the alpha-beta games, with the shared perft: the
/// count, or with `--divide` each root move's count (named by `name`) and
/// the total, the way `go perft` prints them.
pub fn perft_report<P: Perft>(
    pos: &mut P,
    depth: u32,
    divide: bool,
    name: impl Fn(&P, P::Move) -> String,
) -> String {
    if !divide {
        return format!("{}\n", tengen_games::perft(pos, depth));
    }
    let counts = tengen_games::divide(pos, depth);
    let mut out = String::new();
    for line in divide_lines(counts, |m| name(pos, m)) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The lines of a divide listing, as Stockfish's `go perft` prints them:
/// `move: count` per root move, a blank line, `Nodes searched: total`.
/// For the UCI, UCCI and USI front-ends' `go perft` and `tengen perft
/// --divide`: `divide_lines(tengen_games::divide(&mut pos, depth), name)`.
pub fn divide_lines<M>(counts: Vec<(M, u64)>, name: impl Fn(M) -> String) -> Vec<String> {
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let mut lines: Vec<String> = counts
        .into_iter()
        .map(|(m, n)| format!("{}: {n}", name(m)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lines_end_with_the_total() {
        let lines = divide_lines(vec![(1u8, 20), (2, 22)], |m| format!("m{m}"));
        assert_eq!(lines, ["m1: 20", "m2: 22", "", "Nodes searched: 42"]);
        assert_eq!(
            divide_lines(Vec::<(u8, u64)>::new(), |m| m.to_string()),
            ["", "Nodes searched: 0"]
        );
    }

    #[test]
    fn perft_report_divides_the_chess_start() {
        let mut b = tengen_chess::Board::startpos();
        let text = perft_report(&mut b, 2, true, |b, m| b.move_to_uci(m, false));
        assert_eq!(text.lines().count(), 22);
        assert!(text.starts_with("a2a3: 20\n"), "{text}");
        assert!(text.ends_with("\n\nNodes searched: 400\n"), "{text}");
        assert_eq!(
            perft_report(&mut b, 3, false, |_, _| String::new()),
            "8902\n"
        );
    }
}
