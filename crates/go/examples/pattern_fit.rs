//! Fits the learned move strengths (`src/tables/gammas9.txt` and
//! `gammas19.txt`, read by `src/gammas.rs`) on games in the line format
//! of `scripts/go_pattern_data.py export`:
//!
//!     cargo run --release -p tengen-go --example pattern_fit -- \
//!         --data /work/go-data/train9.txt[,more] \
//!         --out crates/go/src/tables/gammas9.txt [--iters 40] [--min-count 3] \
//!         [--compare crates/go/src/tables/gammas9.txt]
//!
//! Every position where a target player moved is a Bradley-Terry
//! competition: the played move's feature team (`src/features.rs`) beat
//! the teams of all the other legal moves (own eyes left out, pass in).
//! Diamond shapes played fewer than `--min-count` times in the training
//! games are left out (the 3x3 shape speaks for them). Games with
//! `index % 10 == 0` in each file are held out: the log-likelihood and
//! the top-1 / top-5 rates of the played move on them are printed for the
//! fit and for the hand-made priors of `mcts.rs`, and with `--compare`
//! for another table (the embedded one, say) on the same positions.

use std::collections::HashMap;
use std::fs;
use tengen_go::board::{parse_vertex, Board, Color, Move, Point};
use tengen_go::features::{self, GROUPS, NAMES, NONE};
use tengen_go::gammas::Table;
use tengen_go::mcts::hand_prior;
use tengen_go::mm::{self, Data, ABSENT};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// Positions read from the games: raw feature values per candidate.
#[derive(Default)]
struct Raw {
    teams: Vec<u32>,
    /// (first candidate, end, winner) as in `mm::Data`, and held out.
    positions: Vec<(u32, u32, u32, bool)>,
    /// The hand priors' score per candidate of held-out positions
    /// (NaN for the others).
    hand: Vec<f64>,
    /// The `--compare` table's gamma per candidate of held-out positions
    /// (NaN for the others, or without `--compare`).
    compare: Vec<f64>,
}

fn read_games(
    path: &str,
    raw: &mut Raw,
    compare: Option<&Table>,
) -> Result<(usize, usize), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut games = 0;
    let mut skipped = 0;
    for (gi, line) in text.lines().enumerate() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 5 {
            continue;
        }
        let (Ok(size), Ok(skip)) = (w[0].parse::<usize>(), w[3].parse::<usize>()) else {
            continue;
        };
        if !(5..=25).contains(&size) {
            continue;
        }
        let learn = w[2];
        let held = gi % 10 == 0;
        let moves: Vec<Move> = w[4..]
            .iter()
            .map(|v| parse_vertex(v, size).unwrap_or(Move::Pass))
            .collect();
        games += 1;
        let mut b = Board::new(size);
        let mut color = Color::Black;
        for (i, &m) in moves.iter().enumerate() {
            if !b.is_legal(color, m) {
                skipped += 1;
                break;
            }
            if i >= skip && learn.contains(color.letter()) {
                let prev2 = i.checked_sub(2).and_then(|j| match moves[j] {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                });
                add_position(&b, color, m, prev2, held, raw, compare);
            }
            b.play(color, m);
            color = color.opp();
        }
    }
    Ok((games, skipped))
}

fn add_position(
    b: &Board,
    c: Color,
    played: Move,
    prev2: Option<Point>,
    held: bool,
    raw: &mut Raw,
    compare: Option<&Table>,
) {
    let mut cands: Vec<Move> = b
        .points()
        .filter(|&p| b.is_legal(c, Move::Play(p)) && !b.is_eyeish(c, p))
        .map(Move::Play)
        .collect();
    cands.push(Move::Pass);
    let Some(winner) = cands.iter().position(|&m| m == played) else {
        return;
    };
    let start = raw.teams.len() / GROUPS;
    for (&m, f) in cands.iter().zip(features::of_moves(b, c, &cands, prev2)) {
        raw.teams.extend_from_slice(&f);
        raw.hand
            .push(if held { hand_prior(b, c, m) } else { f64::NAN });
        raw.compare.push(match compare {
            Some(t) if held => t.gamma(&f),
            _ => f64::NAN,
        });
    }
    raw.positions.push((
        start as u32,
        (start + cands.len()) as u32,
        (start + winner) as u32,
        held,
    ));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let data = arg(&args, "--data").unwrap_or_default();
    let out = arg(&args, "--out");
    let iters: usize = arg(&args, "--iters")
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let min_count: u32 = arg(&args, "--min-count")
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let compare = arg(&args, "--compare").map(|path| match fs::read_to_string(&path) {
        Ok(text) => Table::parse(&text),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    });
    let mut raw = Raw::default();
    for path in data.split(',').filter(|s| !s.is_empty()) {
        match read_games(path, &mut raw, compare.as_ref()) {
            Ok((g, s)) => eprintln!("{path}: {g} games ({s} stopped at an illegal move)"),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    let held_n = raw.positions.iter().filter(|p| p.3).count();
    eprintln!(
        "{} positions ({} held out), {} candidates",
        raw.positions.len(),
        held_n,
        raw.teams.len() / GROUPS
    );
    // Feature ids: every value of the training positions, diamonds only
    // when played often enough.
    let mut diamond_wins: HashMap<u32, u32> = HashMap::new();
    for &(_, _, w, held) in &raw.positions {
        let v = raw.teams[w as usize * GROUPS + features::DIAMOND];
        if !held && v != NONE {
            *diamond_wins.entry(v).or_default() += 1;
        }
    }
    let mut ids: HashMap<(usize, u32), u32> = HashMap::new();
    let mut keys: Vec<(usize, u32)> = Vec::new();
    for &(s, e, _, held) in &raw.positions {
        if held {
            continue;
        }
        for i in s as usize..e as usize {
            for g in 0..GROUPS {
                let v = raw.teams[i * GROUPS + g];
                if v == NONE
                    || (g == features::DIAMOND
                        && diamond_wins.get(&v).copied().unwrap_or(0) < min_count)
                {
                    continue;
                }
                ids.entry((g, v)).or_insert_with(|| {
                    keys.push((g, v));
                    (keys.len() - 1) as u32
                });
            }
        }
    }
    let build = |want_held: bool| {
        let mut d = Data::new(GROUPS, keys.len());
        let mut scores = Vec::new();
        let mut other = Vec::new();
        for &(s, e, w, held) in &raw.positions {
            if held != want_held {
                continue;
            }
            let start = d.teams.len() / GROUPS;
            for i in s as usize..e as usize {
                for g in 0..GROUPS {
                    let v = raw.teams[i * GROUPS + g];
                    d.teams.push(ids.get(&(g, v)).copied().unwrap_or(ABSENT));
                }
                scores.push(raw.hand[i]);
                other.push(raw.compare[i]);
            }
            let end = d.teams.len() / GROUPS;
            d.positions
                .push((start as u32, end as u32, start as u32 + (w - s)));
        }
        (d, scores, other)
    };
    let (train, _, _) = build(false);
    let (test, hand_scores, compare_scores) = build(true);
    drop(raw);
    eprintln!("{} features", keys.len());
    let gammas = mm::fit(&train, iters, &mut |it, ll| {
        eprintln!("sweep {it}: train log-likelihood {ll:.4}")
    });
    let ks = [1, 5];
    let learned = test.top_rates(&gammas, &ks);
    let hand = mm::top_rates(&test.positions, &hand_scores, &ks);
    let train_rates = train.top_rates(&gammas, &ks);
    let uniform: f64 = test
        .positions
        .iter()
        .map(|&(s, e, _)| -((e - s) as f64).ln())
        .sum::<f64>()
        / test.positions.len().max(1) as f64;
    let summary = format!(
        "training: {} positions, top-1 {:.1}%, top-5 {:.1}%\n\
         held out: {} positions, log-likelihood {:.3} (uniform {:.3})\n\
         held out, learned: top-1 {:.1}%, top-5 {:.1}%\n\
         held out, hand priors: top-1 {:.1}%, top-5 {:.1}%",
        train.positions.len(),
        100.0 * train_rates[0],
        100.0 * train_rates[1],
        test.positions.len(),
        test.log_likelihood(&gammas),
        uniform,
        100.0 * learned[0],
        100.0 * learned[1],
        100.0 * hand[0],
        100.0 * hand[1],
    );
    println!("{summary}");
    if compare.is_some() {
        let rates = mm::top_rates(&test.positions, &compare_scores, &ks);
        let ll = mm::log_likelihood(&test.positions, &compare_scores);
        println!(
            "held out, --compare table: top-1 {:.1}%, top-5 {:.1}%, log-likelihood {ll:.3}",
            100.0 * rates[0],
            100.0 * rates[1],
        );
    }
    // The small groups' values, for the docs.
    for (g, name) in NAMES.iter().enumerate() {
        if g == features::SHAPE3 || g == features::DIAMOND {
            continue;
        }
        let mut vals: Vec<(u32, f64)> = keys
            .iter()
            .enumerate()
            .filter(|(_, k)| k.0 == g)
            .map(|(i, k)| (k.1, gammas[i]))
            .collect();
        vals.sort_by_key(|v| v.0);
        let text: Vec<String> = vals.iter().map(|(v, x)| format!("{v}:{x:.3}")).collect();
        println!("{name}: {}", text.join(" "));
    }
    if let Some(out) = out {
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| keys[i]);
        let mut text = String::new();
        text.push_str(
            "# Learned move strengths for crates/go/src/gammas.rs (group value gamma),\n",
        );
        text.push_str("# fitted by crates/go/examples/pattern_fit.rs:\n");
        text.push_str(&format!("#   pattern_fit {}\n", args.join(" ")));
        for l in summary.lines() {
            text.push_str(&format!("# {l}\n"));
        }
        for i in order {
            let (g, v) = keys[i];
            text.push_str(&format!("{} {} {:.4e}\n", NAMES[g], v, gammas[i] as f32));
        }
        if let Err(e) = fs::write(&out, text) {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
        eprintln!("wrote {out}");
    }
}
