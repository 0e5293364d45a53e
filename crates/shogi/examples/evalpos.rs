//! Prints the hand-made evaluation and the default network's value for
//! each position along `SFEN [moves...]` (side to move's view):
//! `cargo run --release -p tengen-shogi --example evalpos -- "SFEN" 7g7f ...`
use tengen_shogi::{nnue, Eval, Game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: evalpos SFEN [USI moves...]");
        std::process::exit(2);
    }
    let moves: Vec<&str> = args[1..].iter().map(|s| s.as_str()).collect();
    let net = nnue::current_network();
    for n in 0..=moves.len() {
        let p = match Game::from_usi(&args[0], &moves[..n]) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let b = p.board();
        let hand = Eval.evaluate(b);
        let netv = net.as_ref().map_or(0, |n| nnue::evaluate(n, b));
        println!(
            "{:>8} hand {:6} net {:6} total {:6}",
            if n == 0 { "root" } else { moves[n - 1] },
            hand,
            netv,
            hand + netv
        );
    }
}
