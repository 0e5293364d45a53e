//! `cargo run --release -p tengen-chess --example perft -- [depth] [fen]`:
//! plain single-threaded perft with timing, for comparing with Stockfish.

use std::time::Instant;
use tengen_chess::Board;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.get(2).cloned();
    let mut b = match fen {
        Some(f) => match Board::from_fen(&f) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(1);
            }
        },
        None => Board::startpos(),
    };
    let t = Instant::now();
    let n = b.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n} in {s:.3} s, {:.1} Mnps",
        n as f64 / s / 1e6
    );
}
