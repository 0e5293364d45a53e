//! `cargo run --release -p tengen-chess --example evalspeed`: evaluations
//! per second over the bench positions and their children.

use std::time::Instant;
use tengen_chess::{Board, Eval, BENCH_FENS};

fn main() {
    let mut boards = Vec::new();
    for f in BENCH_FENS {
        let Ok(b) = Board::from_fen(f) else { continue };
        for m in b.legal_moves() {
            let mut c = b.clone();
            c.play(m);
            boards.push(c);
        }
    }
    let mut e = Eval::default();
    let start = Instant::now();
    let mut sum = 0i64;
    let rounds = 200;
    for _ in 0..rounds {
        for b in &boards {
            sum += e.eval(b) as i64;
        }
    }
    let s = start.elapsed().as_secs_f64();
    let n = (boards.len() * rounds) as f64;
    println!(
        "{:.0} ns per eval ({} positions, checksum {sum})",
        s / n * 1e9,
        boards.len()
    );
}
