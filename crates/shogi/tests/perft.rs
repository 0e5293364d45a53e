//! Perft against the reference counts in shared/testdata/shogi/perft.txt
//! (labelled by cshogi, cross-checked with Fairy-Stockfish): every
//! position at every listed depth.

use tengen_shogi::{perft, Board};

const PERFT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/testdata/shogi/perft.txt"
));

struct Case {
    id: String,
    sfen: String,
    depths: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    PERFT
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(" ;");
            let sfen = fields.next().unwrap_or_default().trim().to_string();
            let mut depths = Vec::new();
            let mut id = String::new();
            for f in fields {
                let f = f.trim();
                if let Some(rest) = f.strip_prefix('D') {
                    let (d, n) = rest.split_once(' ').expect("D<k> <n>");
                    depths.push((d.parse().expect("depth"), n.parse().expect("count")));
                } else if let Some(rest) = f.strip_prefix("id ") {
                    id = rest.to_string();
                }
            }
            Case { id, sfen, depths }
        })
        .collect()
}

#[test]
fn every_position_every_depth() {
    let cases = cases();
    assert!(cases.len() >= 37, "read {} positions", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let mut b = Board::from_sfen(&c.sfen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        for &(d, want) in &c.depths {
            let t = std::time::Instant::now();
            let got = perft(&mut b, d);
            eprintln!("{} D{d} {got} {:?}", c.id, t.elapsed());
            if got != want {
                failures.push(format!("{} D{d}: got {got}, want {want}", c.id));
            }
        }
        assert_eq!(
            b.to_sfen().split(' ').take(3).collect::<Vec<_>>(),
            c.sfen.split(' ').take(3).collect::<Vec<_>>()
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
