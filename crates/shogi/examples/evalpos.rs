//! Prints the hand-made evaluation and the default network's value for
//! each position along `SFEN [moves...]` (side to move's view).
use tengen_shogi::{nnue, Eval, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let moves: Vec<&str> = args[1..].iter().map(|s| s.as_str()).collect();
    let net = nnue::current();
    for n in 0..=moves.len() {
        let p = Position::from_usi(&args[0], &moves[..n]).expect("position");
        let b = p.board();
        let hand = Eval.evaluate(b);
        let netv = net.as_ref().map_or(0, |n| n.evaluate(b));
        println!(
            "{:>8} hand {:6} net {:6} total {:6}",
            if n == 0 { "root" } else { moves[n - 1] },
            hand,
            netv,
            hand + netv
        );
    }
}
