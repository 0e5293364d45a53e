//! `cargo run --release -p tengen-chess --example evalprint -- <fen> [moves...]`:
//! White-view evaluation after each of the moves (UCI), and of every reply.

use tengen_chess::{Board, Eval};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fen = args.first().cloned().unwrap_or_else(|| "startpos".into());
    let mut b = if fen == "startpos" {
        Board::startpos()
    } else {
        match Board::from_fen(&fen) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        }
    };
    let mut e = Eval::default();
    for mv in args.iter().skip(1) {
        match b.parse_uci_move(mv, false) {
            Ok(m) => b.play(m),
            Err(err) => {
                eprintln!("{err}");
                return;
            }
        }
    }
    println!("{} : {}", b.to_fen(false), e.eval_white(&b));
    let mut rows: Vec<(i32, String)> = b
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut c = b.clone();
            c.play(m);
            (e.eval_white(&c), b.to_san(m))
        })
        .collect();
    rows.sort();
    for (v, s) in rows {
        print!("{s}:{v} ");
    }
    println!();
}
