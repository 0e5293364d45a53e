//! How far the evaluation is from Fairy-Stockfish's labels, per data file:
//! for every quiet line (not in check, best move no capture) the squared gap
//! between the two winning chances, `sigmoid(ours / OURS_K)` and
//! `sigmoid(label / LABEL_K)`, averaged.
//!
//!     cargo run --release -p tengen-shogi --example nnue_check -- \
//!         [--net NET.nnue] [--ours-k 1388] [--label-k 617] [--max N] DATA.tsv...
//!
//! Without `--net` the embedded network is used; `--net <empty>` checks
//! the hand-made evaluation alone. `--worst N` also prints the N positions
//! with the largest gaps (SFEN, label, hand-made part, network part).
use std::io::{BufRead, BufReader};
use tengen_shogi::{nnue, Board, Eval};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn main() -> Result<(), String> {
    let mut files = Vec::new();
    let (mut ours_k, mut label_k, mut max) = (1388.0f64, 617.0f64, usize::MAX);
    let mut worst_n = 0usize;
    let mut clamp = f64::INFINITY;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut val = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--net" => {
                nnue::load_eval_file(&val()?)?;
            }
            "--ours-k" => ours_k = val()?.parse().map_err(|e| format!("{e}"))?,
            "--label-k" => label_k = val()?.parse().map_err(|e| format!("{e}"))?,
            "--max" => max = val()?.parse().map_err(|e| format!("{e}"))?,
            "--clamp" => clamp = val()?.parse().map_err(|e| format!("{e}"))?,
            "--worst" => worst_n = val()?.parse().map_err(|e| format!("{e}"))?,
            _ => files.push(a),
        }
    }
    let net = nnue::current_network();
    for path in &files {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let (mut n, mut sq, mut abs_cp) = (0usize, 0.0f64, 0.0f64);
        let mut worst: Vec<(f64, String)> = Vec::new();
        for line in BufReader::new(f).lines() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 5 || cols[4] != "-" {
                continue;
            }
            let Ok(label) = cols[1].parse::<f64>() else {
                continue;
            };
            if label.abs() >= 10_000.0 {
                continue;
            }
            let Ok(board) = Board::from_sfen(cols[0]) else {
                continue;
            };
            let hand = f64::from(Eval.evaluate(&board));
            let (mut ours, mut netv) = (hand, 0.0);
            if let Some(net) = &net {
                netv = f64::from(nnue::evaluate(net, &board)).clamp(-clamp, clamp);
                ours = if net.residual { hand + netv } else { netv };
            }
            let d = sigmoid(ours / ours_k) - sigmoid(label / label_k);
            if worst_n > 0 {
                worst.push((d.abs(), format!("{}\t{label}\t{hand}\t{netv}", cols[0])));
                if worst.len() > 4 * worst_n {
                    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
                    worst.truncate(worst_n);
                }
            }
            sq += d * d;
            abs_cp += (ours * label_k / ours_k - label).abs();
            n += 1;
            if n >= max {
                break;
            }
        }
        println!(
            "{path}: {n} quiet positions, mean squared gap {:.5}, mean |gap| {:.0} label cp",
            sq / n.max(1) as f64,
            abs_cp / n.max(1) as f64
        );
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, line) in worst.iter().take(worst_n) {
            println!("  {line}");
        }
    }
    Ok(())
}
