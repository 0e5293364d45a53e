//! Fits the learned evaluation terms (`src/learned.rs`) to positions from
//! `scripts/shogi_datagen.py`: each line holds an SFEN, Fairy-Stockfish's
//! score for the side to move, the game's result for the side to move, its
//! best move and flags (`c` in check, `x` the best move captures).
//!
//! Only quiet positions are used (not in check, best move not a capture,
//! score under 2000 cp), since the static evaluation cannot see tactics.
//! The target mixes the engine's score and the result, each through a
//! logistic curve whose scale is fitted first; the model is the hand-made
//! evaluation plus the learned weights, trained with Adam on the squared
//! error and a small L2 pull to zero. One block of lines in ten (about a
//! game) is held out; the weights kept are those of the epoch with the
//! lowest held-out loss.
//!
//!     cargo run --release -p tengen-shogi --example tune -- OUT.rs DATA.tsv...
//!
//! Environment: TUNE_EPOCHS (default 300), TUNE_LAMBDA (weight of the
//! engine score in the target, default 0.5), TUNE_L2 (default 1e-6).

use std::io::{BufRead, BufReader};
use tengen_shogi::learned::{for_each_feature, FEATURES};
use tengen_shogi::{Board, Eval};

struct Sample {
    base: f32,
    /// Feature indices with their sign (+1 side to move, -1 the other).
    feats: Vec<(u32, f32)>,
    engine: f32,
    result: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The logistic scale that best maps `score` to `target` (grid search).
fn fit_scale(
    samples: &[&Sample],
    score: impl Fn(&Sample) -> f32,
    target: impl Fn(&Sample) -> f32,
) -> f32 {
    let mut best = (f32::MAX, 0.0);
    let mut s = 50.0;
    while s <= 2000.0 {
        let err: f32 = samples
            .iter()
            .map(|x| (sigmoid(score(x) / s) - target(x)).powi(2))
            .sum::<f32>()
            / samples.len() as f32;
        if err < best.0 {
            best = (err, s);
        }
        s *= 1.05;
    }
    best.1
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, inputs)) = args.split_first() else {
        return Err("usage: tune OUT.rs DATA.tsv...".into());
    };
    let eval = Eval;
    let mut train = Vec::new();
    let mut valid = Vec::new();
    let mut line_no = 0usize;
    for path in inputs {
        let f = BufReader::new(std::fs::File::open(path)?);
        for line in f.lines() {
            let line = line?;
            line_no += 1;
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 5 || cols[4] != "-" {
                continue;
            }
            let (Ok(engine), Ok(result)) = (cols[1].parse::<f32>(), cols[2].parse::<f32>()) else {
                continue;
            };
            if engine.abs() >= 2000.0 {
                continue;
            }
            let Ok(board) = Board::from_sfen(cols[0]) else {
                continue;
            };
            let us = board.side_to_move();
            let mut feats = Vec::with_capacity(96);
            for_each_feature(&board, us, |i| feats.push((i as u32, 1.0)));
            for_each_feature(&board, us.flip(), |i| feats.push((i as u32, -1.0)));
            let s = Sample {
                base: eval.hand_made(&board) as f32,
                feats,
                engine,
                result,
            };
            if (line_no / 150).is_multiple_of(10) {
                valid.push(s);
            } else {
                train.push(s);
            }
        }
    }
    println!(
        "{} training, {} held-out positions",
        train.len(),
        valid.len()
    );
    let all: Vec<&Sample> = train.iter().collect();
    let s_engine = fit_scale(&all, |x| x.engine, |x| x.result);
    let lambda: f32 = env_or("TUNE_LAMBDA", 0.5);
    let target = |x: &Sample| lambda * sigmoid(x.engine / s_engine) + (1.0 - lambda) * x.result;
    let s_ours = fit_scale(&all, |x| x.base, target);
    println!("logistic scale: engine {s_engine:.0}, hand-made evaluation {s_ours:.0}");

    // The last weight scales the hand-made evaluation; it is fitted only
    // with TUNE_SCALE=1 and reported, not written out.
    let mut w = vec![0f32; FEATURES + 1];
    w[FEATURES] = 1.0;
    let fit_base_scale = env_or("TUNE_SCALE", 0) == 1;
    let loss = |w: &[f32], set: &[Sample]| -> f64 {
        set.iter()
            .map(|x| {
                let v = w[FEATURES] * x.base
                    + x.feats.iter().map(|&(i, s)| s * w[i as usize]).sum::<f32>();
                f64::from((sigmoid(v / s_ours) - target(x)).powi(2))
            })
            .sum::<f64>()
            / set.len().max(1) as f64
    };
    println!(
        "start: train {:.6} held-out {:.6}",
        loss(&w, &train),
        loss(&w, &valid)
    );
    let epochs: usize = env_or("TUNE_EPOCHS", 300);
    let l2: f32 = env_or("TUNE_L2", 1e-6);
    let (b1, b2, lr, eps) = (0.9f32, 0.999f32, 2.0f32, 1e-8f32);
    let mut m = vec![0f32; FEATURES + 1];
    let mut v = vec![0f32; FEATURES + 1];
    let mut grad = vec![0f32; FEATURES + 1];
    // Early stopping: the weights with the lowest held-out loss so far.
    let mut best = (loss(&w, &valid), w.clone(), 0);
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for x in &train {
            let e =
                w[FEATURES] * x.base + x.feats.iter().map(|&(i, s)| s * w[i as usize]).sum::<f32>();
            let p = sigmoid(e / s_ours);
            let d = 2.0 * (p - target(x)) * p * (1.0 - p) / s_ours;
            for &(i, s) in &x.feats {
                grad[i as usize] += d * s;
            }
            grad[FEATURES] += d * x.base;
        }
        let n = train.len() as f32;
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..FEATURES {
            let g = grad[i] / n + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if fit_base_scale {
            let g = grad[FEATURES] / n;
            m[FEATURES] = b1 * m[FEATURES] + (1.0 - b1) * g;
            v[FEATURES] = b2 * v[FEATURES] + (1.0 - b2) * g * g;
            w[FEATURES] -= 0.002 * (m[FEATURES] / c1) / ((v[FEATURES] / c2).sqrt() + eps);
        }
        if epoch % 10 == 0 || epoch == epochs {
            let held_out = loss(&w, &valid);
            println!(
                "epoch {epoch}: train {:.6} held-out {held_out:.6}",
                loss(&w, &train)
            );
            if held_out < best.0 {
                best = (held_out, w.clone(), epoch);
            }
        }
    }
    println!(
        "kept epoch {} (held-out {:.6}), hand-made scale {:.3}",
        best.2, best.0, best.1[FEATURES]
    );
    let w = best.1;
    let mut text = String::from(
        "// Written by `cargo run --release -p tengen-shogi --example tune`; do not edit.\n\
         pub static WEIGHTS: [i16; super::FEATURES] = [\n",
    );
    for chunk in w[..FEATURES].chunks(17) {
        let row: Vec<String> = chunk
            .iter()
            .map(|x| (x.round().clamp(-2000.0, 2000.0) as i16).to_string())
            .collect();
        text.push_str("    ");
        text.push_str(&row.join(", "));
        text.push_str(",\n");
    }
    text.push_str("];\n");
    std::fs::write(out, text)?;
    println!("wrote {out}");
    Ok(())
}
