//! Every position of ../shared/testdata/chess/perft.epd at every listed
//! depth: plain perft wherever the count is at most 1e6 nodes, and the
//! hashed perft (on two threads) for all depths.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tengen_chess::{Board, PerftTable};

const EPD: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/testdata/chess/perft.epd"
));

struct Case {
    id: String,
    fen: String,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for line in EPD.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split(" ;");
        let fen = fields.next().unwrap().trim().to_string();
        let mut counts = Vec::new();
        let mut id = String::new();
        for f in fields {
            let f = f.trim();
            if let Some(rest) = f.strip_prefix('D') {
                let (d, n) = rest.split_once(' ').unwrap();
                assert_eq!(d.parse::<usize>().unwrap(), counts.len() + 1, "{line}");
                counts.push(n.parse().unwrap());
            } else if let Some(rest) = f.strip_prefix("id ") {
                id = rest.to_string();
            }
        }
        out.push(Case { id, fen, counts });
    }
    assert_eq!(out.len(), 148);
    out
}

#[test]
fn plain_perft_up_to_a_million_nodes() {
    let mut checked = 0;
    for c in cases() {
        let mut b = Board::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let key = b.key();
        for (i, &want) in c.counts.iter().enumerate() {
            if want > 1_000_000 {
                break;
            }
            assert_eq!(b.perft(i as u32 + 1), want, "{} depth {}", c.id, i + 1);
            checked += 1;
        }
        assert_eq!(b.key(), key, "{}: make/unmake changed the key", c.id);
    }
    assert!(checked > 400);
}

#[test]
fn hashed_perft_every_listed_depth() {
    let cases = cases();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut table = PerftTable::new(22);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(c) = cases.get(i) else { break };
                    let mut b = Board::from_fen(&c.fen).unwrap();
                    for (d, &want) in c.counts.iter().enumerate() {
                        let got = b.perft_hashed(d as u32 + 1, &mut table);
                        if got != want {
                            failures.lock().unwrap().push(format!(
                                "{} depth {}: got {got}, want {want}",
                                c.id,
                                d + 1
                            ));
                        }
                    }
                }
            });
        }
    });
    let f = failures.into_inner().unwrap();
    assert!(f.is_empty(), "{}", f.join("\n"));
}

/// The hashed perft is an optimised copy of the shared algorithm; it must
/// give the same counts. A small table makes entries replace each other,
/// the path where a wrong key or depth tag would show.
#[test]
fn hashed_perft_equals_the_shared_perft() {
    let mut table = PerftTable::new(8);
    let mut checked = 0;
    for c in cases().iter().step_by(5) {
        let mut b = Board::from_fen(&c.fen).unwrap();
        for d in 0..=4u32 {
            if d >= 1 && c.counts.get(d as usize - 1).is_some_and(|&n| n > 2_000_000) {
                break;
            }
            let shared = tengen_games::perft(&mut b, d);
            assert_eq!(b.perft_hashed(d, &mut table), shared, "{} depth {d}", c.id);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} counts compared");
}
