//! Solves the tsume positions of tests/tsume.txt and prints time and nodes:
//! `cargo run --release -p tengen-shogi --example tsume [nodes]`.
use tengen_shogi::dfpn::{Solver, TsumeLimits, TsumeResult};
use tengen_shogi::Position;

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let text = include_str!("../tests/tsume.txt");
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some((sfen, label)) = line.split_once(" ;") else {
            continue;
        };
        let Ok(pos) = Position::from_usi(sfen, &[]) else {
            continue;
        };
        let t = std::time::Instant::now();
        let mut s = Solver::new(TsumeLimits {
            nodes: Some(nodes),
            ..Default::default()
        });
        let r = s.solve(&pos);
        let got = match &r {
            TsumeResult::Mate(l) => l.len().to_string(),
            TsumeResult::NoMate => "nomate".into(),
            TsumeResult::Timeout => "timeout".into(),
        };
        println!(
            "{label:>7} {got:>7} {:>9} nodes {:>8.3}s  {sfen}",
            s.nodes(),
            t.elapsed().as_secs_f64()
        );
    }
}
