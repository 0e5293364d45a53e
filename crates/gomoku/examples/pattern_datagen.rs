//! Self-play games for the learned pattern tables (`src/learned.rs`).
//!
//!     cargo run --release -p tengen-gomoku --example pattern_datagen -- \
//!         --rule freestyle --nodes 4000 --games 2000 --seed 1 \
//!         --openings tools/gomoku-opponents/openings/freestyle15-4ply.txt \
//!         --out nnue-data/gomoku/freestyle-s1.txt [--shard 0/2] [--eval hand]
//!
//! Each game starts from an opening line of the file (drawn at random)
//! plus 0-2 random stones near the others (never a five or, for Black
//! under renju, a forbidden point), then both sides play the searcher's
//! move at a fixed node count. A game ends with a five, a full board, or
//! a proven score (the side with the proof wins). Game `i` depends only on
//! the seed and `i`. One line per game, appended and flushed:
//!
//!     <i> <rule> <B|W|D> <opening stones> | <x,y>@<score> ...
//!
//! each searched move with the search's score from the mover's view. A
//! rerun with the same file skips the games already there (a cut last
//! line is dropped), so a run is resumable; `--shard k/n` plays only the
//! games with `i % n == k` (run several into separate files).

use std::collections::HashSet;
use std::fs::{self, OpenOptions};
use std::io::Write;
use tengen_core::splitmix::SplitMix64;
use tengen_gomoku::search::{Limits, Searcher, PROVEN};
use tengen_gomoku::{learned, threat, Board, Color, Outcome, Point, Rule};

struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule: Rule = arg(&args, "--rule")
        .unwrap_or_else(|| "freestyle".into())
        .parse()
        .expect("--rule");
    let nodes: u64 = arg(&args, "--nodes").map_or(4000, |v| v.parse().expect("--nodes"));
    let games: u64 = arg(&args, "--games").map_or(100, |v| v.parse().expect("--games"));
    let seed: u64 = arg(&args, "--seed").map_or(1, |v| v.parse().expect("--seed"));
    let out = arg(&args, "--out").expect("--out FILE");
    let openings = arg(&args, "--openings").expect("--openings FILE");
    let (shard, shards) = arg(&args, "--shard").map_or((0, 1), |v| {
        let (a, b) = v.split_once('/').expect("--shard k/n");
        (a.parse::<u64>().unwrap(), b.parse::<u64>().unwrap())
    });
    let hand = arg(&args, "--eval").is_some_and(|v| v == "hand");
    let lines: Vec<Vec<Point>> = fs::read_to_string(&openings)
        .expect("openings file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split_whitespace()
                .map(|p| Point::parse_xy(p).expect("opening point"))
                .collect()
        })
        .collect();
    assert!(!lines.is_empty(), "no openings in {openings}");

    // Resume: keep whole lines, note the games done.
    let mut done = HashSet::new();
    if let Ok(text) = fs::read_to_string(&out) {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        if keep < text.len() {
            fs::write(&out, &text[..keep]).expect("cut the last line");
        }
        for l in text[..keep].lines() {
            if let Some(i) = l
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
            {
                done.insert(i);
            }
        }
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .expect("open --out");
    let mut searcher = Searcher::new(16);
    // The tables were fitted from searched games; the opening book came later.
    searcher.set_book(false);
    let start = std::time::Instant::now();
    let mut played = 0u64;
    let mut positions = 0u64;
    for i in (0..games).filter(|i| i % shards == shard && !done.contains(i)) {
        let mut rng = Rng(SplitMix64::new(
            seed.wrapping_mul(0x1000_0000_01B3) ^ i.wrapping_mul(0x9E37_79B9),
        ));
        rng.next();
        let mut b = Board::new(15, 15, rule).unwrap();
        if hand {
            b.set_learned(None);
        }
        let line = &lines[rng.below(lines.len())];
        let mut opening = Vec::new();
        for &p in line {
            if b.play(p).is_err() {
                break;
            }
            opening.push(p);
        }
        for _ in 0..rng.below(3) {
            let me = b.to_move();
            let cands: Vec<_> = threat::near(&b)
                .into_iter()
                .filter(|&s| threat::playable(&b, s, me) && !b.makes_five(s, me))
                .collect();
            if cands.is_empty() {
                break;
            }
            let s = cands[rng.below(cands.len())];
            opening.push(b.point(s));
            b.make(s);
        }
        searcher.clear();
        let mut moves = Vec::new();
        let mut result = None;
        while b.outcome() == Outcome::Ongoing {
            let r = searcher.think(
                &b,
                &Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                &mut |_| {},
            );
            let Some(p) = r.best else { break };
            let me = b.to_move();
            moves.push((p, r.score));
            if b.play(p).is_err() {
                // Should not happen: the searcher plays legal points.
                result = Some(Some(me.other()));
                break;
            }
            if r.score.abs() >= PROVEN {
                result = Some(Some(if r.score > 0 { me } else { me.other() }));
                break;
            }
        }
        let result = result.unwrap_or(match b.outcome() {
            Outcome::Win(c, _) => Some(c),
            _ => None,
        });
        let mut text = format!(
            "{i} {} {}",
            rule.name(),
            match result {
                Some(Color::Black) => "B",
                Some(Color::White) => "W",
                None => "D",
            }
        );
        for p in &opening {
            text.push_str(&format!(" {}", p.xy()));
        }
        text.push_str(" |");
        for (p, s) in &moves {
            text.push_str(&format!(" {}@{s}", p.xy()));
        }
        text.push('\n');
        file.write_all(text.as_bytes()).expect("write");
        file.flush().expect("flush");
        played += 1;
        positions += moves.len() as u64;
        if played.is_multiple_of(20) {
            eprintln!(
                "{played} games, {positions} positions, {:.1} s, tables {}",
                start.elapsed().as_secs_f64(),
                if hand || learned::for_rule(rule).is_none() {
                    "hand"
                } else {
                    "learned"
                }
            );
        }
    }
    eprintln!(
        "done: {played} games, {positions} positions in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
