//! Trains the shogi network on positions from `scripts/shogi_datagen.py`
//! and writes it in the shared `tengen-nnue` format (feature set
//! `shogi-board-hand-mirrored`, one king bucket, wide i16 output weights;
//! `src/nnue.rs`), which `EvalFile` reads.
//!
//! Each data line holds an SFEN, Fairy-Stockfish's score for the side to
//! move, the game's result for the side to move, its best move and flags
//! (`c` in check, `x` the best move captures). Only quiet positions are
//! used (not in check, best move not a capture, no mate score), since a
//! static evaluation cannot see tactics.
//!
//! The target mixes the engine's score and the result, both as winning
//! chances: `lambda * sigmoid(score / K) + (1 - lambda) * result`, with K
//! fitted to the data first. The network's output is a logit; the file
//! stores `--cp` centipawns per logit. Training: Adam on the squared error
//! of `sigmoid(output)`, batches split over threads, each input row of the
//! transformer shared with a bucket-free "factor" row (summed into every
//! bucket at export) so rare king buckets learn from common ones (the
//! shared feature set has one bucket, so `--buckets` other than 1 is
//! refused until it gains more; the schemes are kept). One line
//! block in 32 is held out; the file written is the epoch with the lowest
//! held-out loss.
//!
//!     cargo run --release -p tengen-shogi --example nnue_train -- \
//!         --out net.nnue [--hidden 256] [--epochs 30] \
//!         [--lambda 0.7] [--lr 0.001] [--batch 16384] [--threads 2] \
//!         [--cp 1000] [--max N] [--residual] [--wd 0] DATA.tsv...

use std::io::{BufRead, BufReader};
use std::sync::Arc;
use tengen_nnue::features::{FeatureSet, Shogi};
use tengen_nnue::network::{Network, QA, QB_WIDE as QB};
use tengen_shogi::nnue::{self, for_each_input};
use tengen_shogi::{Board, Color};

struct Args {
    out: String,
    hidden: usize,
    buckets: usize,
    epochs: usize,
    lambda: f32,
    lr: f32,
    batch: usize,
    threads: usize,
    cp: f32,
    max: usize,
    /// Train on top of the hand-made evaluation (its logit is added).
    residual: bool,
    /// Decoupled weight decay on the transformer rows a batch touches.
    wd: f32,
    inputs: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        out: String::new(),
        hidden: 256,
        buckets: 1,
        epochs: 30,
        lambda: 0.7,
        lr: 0.001,
        batch: 16384,
        threads: 2,
        cp: 1000.0,
        max: usize::MAX,
        residual: false,
        wd: 0.0,
        inputs: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut val = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        let num = |v: String| v.parse::<f64>().map_err(|e| format!("{v}: {e}"));
        match arg.as_str() {
            "--out" => a.out = val()?,
            "--hidden" => a.hidden = num(val()?)? as usize,
            "--buckets" => a.buckets = num(val()?)? as usize,
            "--epochs" => a.epochs = num(val()?)? as usize,
            "--lambda" => a.lambda = num(val()?)? as f32,
            "--lr" => a.lr = num(val()?)? as f32,
            "--batch" => a.batch = num(val()?)? as usize,
            "--threads" => a.threads = (num(val()?)? as usize).max(1),
            "--cp" => a.cp = num(val()?)? as f32,
            "--max" => a.max = num(val()?)? as usize,
            "--residual" => a.residual = true,
            "--wd" => a.wd = num(val()?)? as f32,
            _ if arg.starts_with("--") => return Err(format!("unknown flag {arg}")),
            _ => a.inputs.push(arg),
        }
    }
    if a.out.is_empty() || a.inputs.is_empty() {
        return Err("usage: nnue_train --out NET [flags] DATA.tsv...".into());
    }
    if a.buckets != 1 {
        return Err("--buckets: the shared feature set has one king bucket".into());
    }
    if !a.hidden.is_multiple_of(16) {
        return Err("--hidden must be a multiple of 16".into());
    }
    Ok(a)
}

/// The king's square as its own inputs see it (rotated for White,
/// mirrored to the left half), or `None` without a king.
fn king_square(board: &Board, c: Color) -> Option<usize> {
    let p = c.index();
    board.king(c).map(|k| {
        let k = k.index() as u8;
        let s = Shogi::orient(p, k);
        if Shogi::view(p, k).mirror {
            Shogi::mirror(s)
        } else {
            s
        }
    })
}

/// King buckets by the king's square as its own inputs see it (rotated
/// for White, mirrored to the left half: columns 0..=4, 4 the centre).
fn bucket_table(scheme: usize) -> Result<[u8; 81], String> {
    let mut t = [0u8; 81];
    for (sq, b) in t.iter_mut().enumerate() {
        let row = sq / 9; // 8 = own back rank
        let col = (sq % 9).min(8 - sq % 9);
        *b = match scheme {
            1 => 0,
            // Home rank, the rank above, anywhere further up.
            3 => match row {
                8 => 0,
                7 => 1,
                _ => 2,
            },
            // Those three by file: edge pair, 3rd, 4th, centre... (5 cols).
            15 => {
                let r = match row {
                    8 => 0,
                    7 => 1,
                    _ => 2,
                };
                (r * 5 + col) as u8
            }
            _ => return Err(format!("no bucket scheme {scheme} (1, 3 or 15)")),
        };
    }
    Ok(t)
}

/// One training position: inputs of the side to move and of the other
/// side (within-bucket indices), their buckets, and the targets.
struct Samples {
    inputs: Vec<u16>,
    /// Start of each sample's inputs; the other side's start at `split`.
    start: Vec<u32>,
    split: Vec<u16>,
    buckets: Vec<[u8; 2]>,
    score: Vec<f32>,
    result: Vec<f32>,
    /// Hand-made evaluation of each position (side to move's view).
    hand: Vec<f32>,
    /// Logit added to the network's output (residual training).
    base: Vec<f32>,
}

impl Samples {
    fn new() -> Self {
        Samples {
            inputs: Vec::new(),
            start: vec![0],
            split: Vec::new(),
            buckets: Vec::new(),
            score: Vec::new(),
            result: Vec::new(),
            hand: Vec::new(),
            base: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.score.len()
    }

    fn push(&mut self, board: &Board, table: &[u8; 81], score: f32, result: f32) {
        let stm = board.side_to_move();
        let mut n = 0u16;
        for_each_input(board, stm, |i| {
            self.inputs.push(i as u16);
            n += 1;
        });
        self.split.push(n);
        for_each_input(board, stm.flip(), |i| self.inputs.push(i as u16));
        self.start.push(self.inputs.len() as u32);
        let b = |c: Color| king_square(board, c).map_or(0, |k| table[k]);
        self.buckets.push([b(stm), b(stm.flip())]);
        self.score.push(score);
        self.result.push(result);
        self.hand.push(tengen_shogi::Eval.evaluate(board) as f32);
    }

    /// (side to move's inputs, other side's inputs).
    fn sides(&self, i: usize) -> (&[u16], &[u16]) {
        let s = self.start[i] as usize;
        let e = self.start[i + 1] as usize;
        self.inputs[s..e].split_at(self.split[i] as usize)
    }
}

/// Held-out boards kept whole, with their sample index, to check the
/// quantised network the engine reads against the float model.
type Probes = Vec<(Board, usize)>;

fn load(args: &Args, table: &[u8; 81]) -> Result<(Samples, Samples, Probes), String> {
    let mut probes = Probes::new();
    let (mut game, mut last_ply) = (0usize, 0u32);
    let mut train = Samples::new();
    let mut valid = Samples::new();
    let mut line_no = 0usize;
    let (mut skipped, mut bad) = (0usize, 0usize);
    'files: for path in &args.inputs {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in BufReader::new(f).lines() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            line_no += 1;
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 5 {
                bad += 1;
                continue;
            }
            let (Ok(score), Ok(result)) = (cols[1].parse::<f32>(), cols[2].parse::<f32>()) else {
                bad += 1;
                continue;
            };
            if cols[4] != "-" || score.abs() >= 10_000.0 {
                skipped += 1;
                continue;
            }
            let Ok(board) = Board::from_sfen(cols[0]) else {
                bad += 1;
                continue;
            };
            // Whole games go to one set or the other (positions of one
            // game are too alike to test on each other): a game starts
            // where the move number stops rising.
            let ply: u32 = cols[0]
                .rsplit(' ')
                .next()
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            if ply <= last_ply {
                game += 1;
            }
            last_ply = ply;
            if game % 32 == 7 {
                valid.push(&board, table, score, result);
                if probes.len() < 2000 {
                    probes.push((board, valid.len() - 1));
                }
            } else {
                train.push(&board, table, score, result);
            }
            if train.len() + valid.len() >= args.max {
                break 'files;
            }
        }
    }
    eprintln!(
        "{} lines: {} training, {} held out, {} not quiet, {} unreadable",
        line_no,
        train.len(),
        valid.len(),
        skipped,
        bad
    );
    Ok((train, valid, probes))
}

/// Held-out loss of the hand-made evaluation (`Eval`), its logistic scale
/// fitted on the same positions: the figure a network has to beat.
fn hand_made_loss(s: &Samples, k: f32, lambda: f32) -> (f64, f32) {
    let evals = &s.hand;
    let mut best = (f64::MAX, 0.0f32);
    let mut scale = 100.0f32;
    while scale < 5000.0 {
        let loss: f64 = (0..s.len())
            .map(|i| f64::from((sigmoid(evals[i] / scale) - target(s, i, k, lambda)).powi(2)))
            .sum::<f64>()
            / s.len().max(1) as f64;
        if loss < best.0 {
            best = (loss, scale);
        }
        scale *= 1.03;
    }
    best
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The logistic scale mapping the engine's score to the results best.
fn fit_scale(s: &Samples) -> f32 {
    let mut best = (f64::MAX, 100.0f32);
    let mut k = 50.0f32;
    while k < 3000.0 {
        let err: f64 = (0..s.len())
            .step_by(7)
            .map(|i| f64::from((sigmoid(s.score[i] / k) - s.result[i]).powi(2)))
            .sum();
        if err < best.0 {
            best = (err, k);
        }
        k *= 1.03;
    }
    best.1
}

struct Model {
    hidden: usize,
    buckets: usize,
    /// Inputs per bucket.
    inputs: usize,
    /// `(buckets + 1) * inputs` rows; the last block is the
    /// factor rows shared by every bucket (unused with one bucket).
    ft: Vec<f32>,
    ft_bias: Vec<f32>,
    out: Vec<f32>,
    out_bias: f32,
}

impl Model {
    fn new(hidden: usize, buckets: usize, inputs: usize, seed: u64) -> Model {
        let mut s = seed;
        let mut rnd = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        let rows = (buckets + 1) * inputs;
        let mut ft: Vec<f32> = (0..rows * hidden).map(|_| rnd() * 0.05).collect();
        if buckets > 1 {
            // Bucket rows start at zero: the factor rows carry what is shared.
            for w in &mut ft[..buckets * inputs * hidden] {
                *w = 0.0;
            }
        }
        Model {
            hidden,
            buckets,
            inputs,
            ft,
            ft_bias: (0..hidden).map(|_| 0.1 + rnd() * 0.05).collect(),
            out: (0..2 * hidden).map(|_| rnd() * 0.1).collect(),
            out_bias: 0.0,
        }
    }

    fn params(&self) -> usize {
        self.ft.len() + self.ft_bias.len() + self.out.len() + 1
    }

    /// Rows (transformer row index) an input of a perspective touches.
    #[inline]
    fn rows(&self, bucket: u8, input: u16) -> (usize, Option<usize>) {
        let i = usize::from(input);
        if self.buckets == 1 {
            (i, None)
        } else {
            (
                usize::from(bucket) * self.inputs + i,
                Some(self.buckets * self.inputs + i),
            )
        }
    }

    fn accumulate(&self, bucket: u8, inputs: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_bias);
        for &i in inputs {
            let (r, f) = self.rows(bucket, i);
            for (a, w) in acc.iter_mut().zip(&self.ft[r * h..(r + 1) * h]) {
                *a += w;
            }
            if let Some(f) = f {
                for (a, w) in acc.iter_mut().zip(&self.ft[f * h..(f + 1) * h]) {
                    *a += w;
                }
            }
        }
    }

    fn forward(&self, s: &Samples, i: usize, us: &mut [f32], them: &mut [f32]) -> f32 {
        let (a, b) = s.sides(i);
        self.accumulate(s.buckets[i][0], a, us);
        self.accumulate(s.buckets[i][1], b, them);
        let h = self.hidden;
        let mut out = self.out_bias + s.base.get(i).copied().unwrap_or(0.0);
        for (x, w) in us.iter().zip(&self.out[..h]) {
            let v = x.clamp(0.0, 1.0);
            out += v * v * w;
        }
        for (x, w) in them.iter().zip(&self.out[h..]) {
            let v = x.clamp(0.0, 1.0);
            out += v * v * w;
        }
        out
    }
}

/// A thread's gradient buffers.
struct Grad {
    ft: Vec<f32>,
    touched: Vec<bool>,
    ft_bias: Vec<f32>,
    out: Vec<f32>,
    out_bias: f32,
    loss: f64,
}

impl Grad {
    fn new(m: &Model) -> Grad {
        Grad {
            ft: vec![0.0; m.ft.len()],
            touched: vec![false; m.ft.len() / m.hidden],
            ft_bias: vec![0.0; m.hidden],
            out: vec![0.0; 2 * m.hidden],
            out_bias: 0.0,
            loss: 0.0,
        }
    }
}

fn target(s: &Samples, i: usize, k: f32, lambda: f32) -> f32 {
    lambda * sigmoid(s.score[i] / k) + (1.0 - lambda) * s.result[i]
}

/// Adds the gradient of samples `idx` to `g`.
fn backprop(m: &Model, s: &Samples, idx: &[u32], k: f32, lambda: f32, g: &mut Grad) {
    let h = m.hidden;
    let mut us = vec![0.0f32; h];
    let mut them = vec![0.0f32; h];
    let mut d_us = vec![0.0f32; h];
    let mut d_them = vec![0.0f32; h];
    for &i in idx {
        let i = i as usize;
        let out = m.forward(s, i, &mut us, &mut them);
        let p = sigmoid(out);
        let t = target(s, i, k, lambda);
        g.loss += f64::from((p - t) * (p - t));
        let d_out = 2.0 * (p - t) * p * (1.0 - p);
        g.out_bias += d_out;
        for j in 0..h {
            let (x, y) = (us[j], them[j]);
            let (vx, vy) = (x.clamp(0.0, 1.0), y.clamp(0.0, 1.0));
            g.out[j] += d_out * vx * vx;
            g.out[h + j] += d_out * vy * vy;
            d_us[j] = if x > 0.0 && x < 1.0 {
                d_out * m.out[j] * 2.0 * x
            } else {
                0.0
            };
            d_them[j] = if y > 0.0 && y < 1.0 {
                d_out * m.out[h + j] * 2.0 * y
            } else {
                0.0
            };
            g.ft_bias[j] += d_us[j] + d_them[j];
        }
        let (a, b) = s.sides(i);
        for (bucket, inputs, d) in [(s.buckets[i][0], a, &d_us), (s.buckets[i][1], b, &d_them)] {
            for &inp in inputs {
                let (r, f) = m.rows(bucket, inp);
                for row in std::iter::once(r).chain(f) {
                    g.touched[row] = true;
                    for (gw, dv) in g.ft[row * h..(row + 1) * h].iter_mut().zip(d.iter()) {
                        *gw += dv;
                    }
                }
            }
        }
    }
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }
}

const B1: f32 = 0.9;
const B2: f32 = 0.999;

#[inline]
fn adam_step(w: &mut f32, g: f32, m: &mut f32, v: &mut f32, lr: f32, c1: f32, c2: f32) {
    *m = B1 * *m + (1.0 - B1) * g;
    *v = B2 * *v + (1.0 - B2) * g * g;
    *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
}

/// Largest transformer weight magnitude the shared format accepts for
/// shogi (no sum of 40 inputs can leave i16), and the output's.
const FT_CLIP: f32 = Shogi::FT_WEIGHT_MAX as f32 / QA as f32;
const OUT_CLIP: f32 = (32000 / QB) as f32;

fn apply(model: &mut Model, grads: &mut [Grad], opt: &mut Adam, lr: f32, n: f32, wd: f32) {
    opt.t += 1;
    let c1 = 1.0 - B1.powi(opt.t);
    let c2 = 1.0 - B2.powi(opt.t);
    let h = model.hidden;
    let rows = model.ft.len() / h;
    let (ft_len, fb_len) = (model.ft.len(), model.hidden);
    for r in 0..rows {
        if !grads.iter().any(|g| g.touched[r]) {
            continue;
        }
        for j in r * h..(r + 1) * h {
            let mut g = 0.0;
            for gr in grads.iter_mut() {
                g += gr.ft[j];
                gr.ft[j] = 0.0;
            }
            adam_step(
                &mut model.ft[j],
                g / n,
                &mut opt.m[j],
                &mut opt.v[j],
                lr,
                c1,
                c2,
            );
            model.ft[j] -= lr * wd * model.ft[j];
            model.ft[j] = model.ft[j].clamp(-FT_CLIP, FT_CLIP);
        }
        for gr in grads.iter_mut() {
            gr.touched[r] = false;
        }
    }
    for j in 0..fb_len {
        let g: f32 = grads
            .iter_mut()
            .map(|gr| std::mem::take(&mut gr.ft_bias[j]))
            .sum();
        let o = ft_len + j;
        adam_step(
            &mut model.ft_bias[j],
            g / n,
            &mut opt.m[o],
            &mut opt.v[o],
            lr,
            c1,
            c2,
        );
    }
    for j in 0..2 * h {
        let g: f32 = grads
            .iter_mut()
            .map(|gr| std::mem::take(&mut gr.out[j]))
            .sum();
        let o = ft_len + fb_len + j;
        adam_step(
            &mut model.out[j],
            g / n,
            &mut opt.m[o],
            &mut opt.v[o],
            lr,
            c1,
            c2,
        );
        model.out[j] = model.out[j].clamp(-OUT_CLIP, OUT_CLIP);
    }
    let g: f32 = grads
        .iter_mut()
        .map(|gr| std::mem::take(&mut gr.out_bias))
        .sum();
    let o = ft_len + fb_len + 2 * h;
    adam_step(
        &mut model.out_bias,
        g / n,
        &mut opt.m[o],
        &mut opt.v[o],
        lr,
        c1,
        c2,
    );
}

fn validation_loss(m: &Model, s: &Samples, k: f32, lambda: f32) -> f64 {
    let h = m.hidden;
    let mut us = vec![0.0f32; h];
    let mut them = vec![0.0f32; h];
    let mut loss = 0.0f64;
    for i in 0..s.len() {
        let p = sigmoid(m.forward(s, i, &mut us, &mut them));
        let t = target(s, i, k, lambda);
        loss += f64::from((p - t) * (p - t));
    }
    loss / s.len().max(1) as f64
}

/// The network in the shared format (one king bucket: `--buckets 1`).
fn export(m: &Model, cp: f32, flags: u32) -> Vec<u8> {
    let h = m.hidden;
    let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
    let mut ft = Vec::with_capacity(m.buckets * m.inputs * h);
    for b in 0..m.buckets {
        for i in 0..m.inputs {
            let r = b * m.inputs + i;
            for j in 0..h {
                let mut w = m.ft[r * h + j];
                if m.buckets > 1 {
                    w += m.ft[(m.buckets * m.inputs + i) * h + j];
                }
                ft.push(q(w, QA));
            }
        }
    }
    let fb: Vec<i16> = m.ft_bias.iter().map(|&x| q(x, QA)).collect();
    let ow: Vec<i16> = m.out.iter().map(|&x| q(x, QB)).collect();
    let ob = (m.out_bias * (QA * QB) as f32).round() as i32;
    Network {
        game: Shogi::GAME,
        feature_set: Shogi::ID,
        inputs: Shogi::INPUTS,
        hidden: h,
        buckets: Shogi::OUTPUT_BUCKETS,
        scale: cp.round() as u32,
        residual: flags & 1 != 0,
        wide: true,
        ft_w: ft,
        ft_b: fb,
        out_w: Vec::new(),
        out_w_wide: ow,
        out_b: vec![ob],
    }
    .to_bytes()
}

fn main() -> Result<(), String> {
    let args = parse_args()?;
    let table = bucket_table(args.buckets)?;
    let (mut train, mut valid, probes) = load(&args, &table)?;
    if train.len() == 0 || valid.len() == 0 {
        return Err("no training or held-out positions".into());
    }
    let k = fit_scale(&train);
    eprintln!("logistic scale of the engine's score: {k:.0}");
    let (hl, hs) = hand_made_loss(&valid, k, args.lambda);
    eprintln!("hand-made evaluation: held-out loss {hl:.5} at its best scale {hs:.0}");
    // A residual network's logit adds to the hand-made evaluation's, so its
    // centipawns must be the hand-made ones: its scale is that fit.
    let (mut cp, mut flags) = (args.cp, 0);
    if args.residual {
        let (_, ts) = hand_made_loss(&train, k, args.lambda);
        cp = ts;
        flags = 1;
        eprintln!("residual on the hand-made evaluation at scale {ts:.0}");
        train.base = train.hand.iter().map(|h| h / ts).collect();
        valid.base = valid.hand.iter().map(|h| h / ts).collect();
    }
    let inputs = Shogi::PER_BUCKET;
    let mut model = Model::new(args.hidden, args.buckets, inputs, 7);
    let mut opt = Adam::new(model.params());
    let mut grads: Vec<Grad> = (0..args.threads).map(|_| Grad::new(&model)).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = 0x9e3779b97f4a7c15u64;
    let mut best = f64::MAX;
    eprintln!(
        "{} parameters; epoch 0 held-out loss {:.5}",
        model.params(),
        validation_loss(&model, &valid, k, args.lambda)
    );
    for epoch in 1..=args.epochs {
        let started = std::time::Instant::now();
        // Fisher-Yates with a xorshift generator.
        for i in (1..order.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        // Cosine decay to a tenth of the rate over the run.
        let progress = (epoch - 1) as f32 / args.epochs.max(1) as f32;
        let lr = args.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let mut train_loss = 0.0f64;
        for batch in order.chunks(args.batch) {
            let per = batch.len().div_ceil(args.threads);
            std::thread::scope(|sc| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(per)) {
                    let m = &model;
                    let s = &train;
                    let lambda = args.lambda;
                    sc.spawn(move || backprop(m, s, part, k, lambda, g));
                }
            });
            for g in grads.iter_mut() {
                train_loss += std::mem::take(&mut g.loss);
            }
            apply(
                &mut model,
                &mut grads,
                &mut opt,
                lr,
                batch.len() as f32,
                args.wd,
            );
        }
        let vl = validation_loss(&model, &valid, k, args.lambda);
        eprintln!(
            "epoch {epoch}: lr {lr:.5} train {:.5} held-out {vl:.5} ({:.0} s)",
            train_loss / train.len() as f64,
            started.elapsed().as_secs_f64()
        );
        if vl < best {
            best = vl;
            let bytes = export(&model, cp, flags);
            std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out))?;
            // The file must read back as the engine will read it.
            let net = Arc::new(Network::from_bytes::<Shogi>(&bytes)?);
            let b = Board::startpos();
            eprintln!("  saved; start position {} cp", nnue::evaluate(&net, &b));
            // The quantised network against the float model it came from.
            let h = model.hidden;
            let (mut us, mut them) = (vec![0.0f32; h], vec![0.0f32; h]);
            let mut err = 0.0f64;
            for (board, i) in &probes {
                let base = valid.base.get(*i).copied().unwrap_or(0.0);
                let float = (model.forward(&valid, *i, &mut us, &mut them) - base) * cp;
                err += f64::from((float - nnue::evaluate(&net, board) as f32).abs());
            }
            eprintln!(
                "  quantised against float: mean |difference| {:.1} cp over {} positions",
                err / probes.len().max(1) as f64,
                probes.len()
            );
        }
    }
    Ok(())
}
