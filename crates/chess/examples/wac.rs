//! `cargo run --release -p tengen-chess --example wac -- [ms per position | <N>n] [count]`:
//! runs the generic searcher with this crate's evaluation on the Win At
//! Chess suite and counts the positions where it plays a `bm` move.

use std::time::{Duration, Instant};
use tengen_chess::{Board, Eval};
use tengen_core::{SearchLimits, Signals};
use tengen_search::Searcher;

const EPD: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/testdata/chess/tactics.epd"
));

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = args.get(1).cloned().unwrap_or_else(|| "200".into());
    // "300000n" searches a fixed number of nodes: reproducible comparisons.
    let node_limit: Option<u64> = arg.strip_suffix('n').and_then(|n| n.parse().ok());
    let ms: u64 = arg.parse().unwrap_or(200);
    let count: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(300);
    let eval = Eval::default();
    let mut searcher: Searcher<Board, Eval> = Searcher::new(64);
    let (mut solved, mut total, mut nodes) = (0, 0, 0u64);
    let start = Instant::now();
    for line in EPD.lines().take(count) {
        let Some((pos, rest)) = line.split_once(" bm ") else {
            continue;
        };
        let Ok(board) = Board::from_fen(&format!("{pos} 0 1")) else {
            eprintln!("bad position: {line}");
            continue;
        };
        let bm: Vec<&str> = rest
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let limits = SearchLimits {
            move_time: node_limit.is_none().then(|| Duration::from_millis(ms)),
            nodes: node_limit,
            ..SearchLimits::default()
        };
        let signals = Signals::new();
        searcher.clear();
        let r = searcher.search(&board, &eval, &limits, &signals, None, &mut |_| {});
        nodes += r.nodes;
        total += 1;
        let played = r.best.map(|m| board.to_san(m)).unwrap_or_default();
        let ok = bm
            .iter()
            .any(|b| b.trim_end_matches(['+', '#']) == played.trim_end_matches(['+', '#']));
        if ok {
            solved += 1;
        } else {
            println!(
                "miss {}: played {played}, bm {}",
                rest.split("id ").nth(1).unwrap_or("?"),
                bm.join(" ")
            );
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "solved {solved}/{total} at {arg} each; {nodes} nodes, {:.0} nps",
        nodes as f64 / s
    );
}
