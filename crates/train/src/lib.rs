//! `tengen-train`: trains a `tengen-nnue` network on `tengen datagen`
//! shards, on the CPU, with as many threads as asked.
//!
//! The float model is the quantised one before rounding: a sparse first
//! layer (only the rows of the pieces on the board are read and
//! updated), squared clipped ReLU, one output per material bucket. The
//! prediction is `sigmoid(output)`, the target a blend of the search
//! score `sigmoid(score / scale)` and the game result, weighted
//! `wdl` on the result; the loss is the squared error. Adam with a cosine
//! learning-rate schedule. After every epoch the trainer writes a
//! checkpoint (weights, Adam moments, the epoch) and the quantised
//! network; a run started again in the same directory resumes from the
//! checkpoint.
//!
//! Residual training (`Config::base`): the model's output is added to a
//! base evaluation of each position (the game's hand-made one) before the
//! sigmoid, so the network learns what that evaluation misses; the
//! network file is flagged residual and the engine adds the same base.
//!
//! Weights are clipped to what the quantised format can hold (feature
//! weights ±2.0 → ±510 of 511, shogi's ±400/255 → ±400 of 400; output
//! weights ±1.98 → ±127 of 127, wide ones ±31.25 → ±32,000), so
//! quantising never saturates.
//!
//! Shogi (feature set `Shogi`, 42-byte records): up to 40 active inputs
//! a perspective (the pieces on the board and the hands' thermometer
//! inputs), one king bucket and so no factor rows, and by default wide
//! (i16, QB 1024) output weights, which a residual network's small
//! corrections need ([`Config::wide`]).

pub mod relabel;

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tengen_core::splitmix::SplitMix64;
use tengen_nnue::data::{self, Layout, Sample};
use tengen_nnue::features::{self, FeatureSet};
use tengen_nnue::network::{Network, QA, QB, QB_WIDE};

/// Largest feature weight / bias and output weight the float model keeps.
/// A feature's quantised weight is its bucketed weight plus its factor
/// weight (below), each within ±1.0, so the sum stays within ±2.0 (±510).
const FT_CLIP: f32 = 1.0;
/// Most inputs a position activates per perspective in training: each
/// piece's bucketed input and its *factor* input (chess, xiangqi: 2 x 32),
/// or each piece's input alone without factor rows (shogi: 40, the
/// pieces on the board and in hand). Checked by [`Trainer::new`].
const TRAIN_ACTIVE: usize = 64;

/// Whether `F` trains factor rows: only with more than one king bucket
/// (with one, a factor row would be a copy of its input's row).
const fn factored<F: FeatureSet>() -> bool {
    F::KING_BUCKETS > 1
}

/// Inputs a position activates per perspective in training, at most.
const fn train_active<F: FeatureSet>() -> usize {
    F::MAX_ACTIVE * if factored::<F>() { 2 } else { 1 }
}

/// Rows of the float feature weights: the feature set's inputs, then one
/// factor row per input within a bucket. The factor rows are shared by
/// every king bucket (what a piece on a square is worth whatever the
/// king's bucket), so sparse data still trains every bucket; quantising
/// adds each input's factor row into it, and the network file has no
/// trace of them. A feature set with one king bucket has none.
fn train_rows<F: FeatureSet>() -> usize {
    F::INPUTS + if factored::<F>() { F::PER_BUCKET } else { 0 }
}

/// The float clip of a feature weight row: ±1.0 for each of an input's
/// row and its factor row, or the feature set's whole bound (shogi
/// ±400/255) without factor rows.
fn ft_clip<F: FeatureSet>() -> f32 {
    if factored::<F>() {
        FT_CLIP
    } else {
        F::FT_WEIGHT_MAX as f32 / QA as f32
    }
}
const FT_BIAS_CLIP: f32 = 60.0;
const OUT_CLIP: f32 = 1.98;
/// Wide output weights: ±31.25 (±32,000 in units of 1/1024).
const OUT_CLIP_WIDE: f32 = 32_000.0 / QB_WIDE as f32;

/// A base evaluation of a record in engine units from the side to move's
/// view (`None`: the record is skipped).
pub type BaseEval = fn(&Sample) -> Option<i32>;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the game result in the target (0 = score only).
    pub wdl: f32,
    /// Engine units per unit of network output (and the sigmoid's scale).
    pub scale: u32,
    pub threads: usize,
    pub seed: u64,
    /// Fraction of positions held out for validation.
    pub validation: f32,
    /// Stop after this many epochs in this invocation (the schedule still
    /// spans `epochs`; a later run resumes).
    pub stop_after: Option<usize>,
    /// Residual training: the network learns a correction to this
    /// evaluation (None: the network is the whole evaluation).
    pub base: Option<BaseEval>,
    /// Start from this network's weights instead of random ones (a kept
    /// network trained further on new data; its shape must match).
    pub init: Option<std::sync::Arc<Network>>,
    /// Quantise the output weights to i16 at QB 1024 (file flag "wide")
    /// instead of i8 at QB 64: shogi's default, whose residual networks'
    /// small output weights would be blurred by steps of 1/64.
    pub wide: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hidden: 128,
            epochs: 10,
            batch: 16_384,
            lr: 0.001,
            wdl: 0.3,
            scale: 400,
            threads: 2,
            seed: 1,
            validation: 0.02,
            stop_after: None,
            base: None,
            init: None,
            wide: false,
        }
    }
}

/// Every record of a run, of one game, back to back.
#[derive(Clone, Debug)]
pub struct Records {
    pub layout: Layout,
    bytes: Vec<u8>,
}

impl Records {
    /// An empty set of `layout` records.
    pub fn new(layout: Layout) -> Records {
        Records {
            layout,
            bytes: Vec::new(),
        }
    }

    /// Samples packed as `layout` records (those that do not pack are
    /// left out).
    pub fn from_samples(layout: Layout, samples: &[Sample]) -> Records {
        let mut r = Records::new(layout);
        for s in samples {
            if let Ok(b) = data::pack(layout, s) {
                r.bytes.extend_from_slice(&b);
            }
        }
        r
    }

    pub fn len(&self) -> usize {
        self.bytes.len() / self.layout.record_size()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`'s bytes.
    pub fn get(&self, i: usize) -> &[u8] {
        let n = self.layout.record_size();
        &self.bytes[i * n..(i + 1) * n]
    }

    /// The records in order.
    pub fn iter(&self) -> std::slice::ChunksExact<'_, u8> {
        self.bytes.chunks_exact(self.layout.record_size())
    }

    /// Record `i` unpacked.
    pub fn sample(&self, i: usize) -> Result<Sample, data::DataError> {
        data::unpack(self.layout, self.get(i))
    }
}

/// Shogi's hand-made evaluation of a record from the side to move's view
/// (the base of a residual shogi network; `None` if the record is not a
/// position the shogi crate reads).
pub fn shogi_hand_eval(s: &Sample) -> Option<i32> {
    let sfen = data::shogi_sfen(s)?;
    let b = tengen_shogi::Board::from_sfen(&sfen).ok()?;
    Some(tengen_shogi::Eval.evaluate(&b))
}

/// The hand-made evaluation a residual network of `layout` learns on.
pub fn hand_eval(layout: Layout) -> BaseEval {
    match layout {
        Layout::Chess => tengen_chess::nnue::hand_eval_of,
        Layout::Xiangqi => tengen_xiangqi::nnue::hand_eval_of,
        Layout::Shogi => shogi_hand_eval,
    }
}

/// The shard files `paths` name: files as given, directories as their
/// `*.bin` files in name order.
pub fn shard_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "bin"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Every record of the shards under `paths` (files, or directories whose
/// `*.bin` files are read), with their layout.
pub fn load(paths: &[PathBuf]) -> Result<(Layout, Records), String> {
    let files = shard_files(paths)?;
    let mut layout = None;
    let mut records: Option<Records> = None;
    for f in &files {
        let mut bytes = Vec::new();
        fs::File::open(f)
            .and_then(|mut h| h.read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", f.display()))?;
        let Some(head) = bytes.get(..data::HEADER_SIZE) else {
            return Err(format!("{}: shorter than a header", f.display()));
        };
        let mut h = [0u8; data::HEADER_SIZE];
        h.copy_from_slice(head);
        let l = data::read_header(&h).map_err(|e| format!("{}: {e}", f.display()))?;
        if layout.is_some_and(|x| x != l) {
            return Err(format!(
                "{}: {} data among other games'",
                f.display(),
                l.name()
            ));
        }
        layout = Some(l);
        let r = records.get_or_insert_with(|| Records::new(l));
        let body = &bytes[data::HEADER_SIZE..];
        // A trailing partial record (a cut-off write) is left out.
        r.bytes
            .extend_from_slice(&body[..body.len() - body.len() % l.record_size()]);
    }
    match (layout, records) {
        (Some(l), Some(r)) if !r.is_empty() => Ok((l, r)),
        _ => Err("no training positions found".into()),
    }
}

/// The float weights, shaped like [`Network`]'s.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
}

impl Params {
    fn zeros(inputs: usize, hidden: usize, buckets: usize) -> Params {
        Params {
            ft_w: vec![0.0; inputs * hidden],
            ft_b: vec![0.0; hidden],
            out_w: vec![0.0; buckets * 2 * hidden],
            out_b: vec![0.0; buckets],
        }
    }

    fn tensors_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    fn tensors(&self) -> [&Vec<f32>; 4] {
        [&self.ft_w, &self.ft_b, &self.out_w, &self.out_b]
    }

    fn add(&mut self, other: &Params) {
        for (a, b) in self.tensors_mut().into_iter().zip(other.tensors()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x += *y;
            }
        }
    }

    fn clear(&mut self) {
        for t in self.tensors_mut() {
            t.iter_mut().for_each(|x| *x = 0.0);
        }
    }
}

/// A position ready for the model: each perspective's inputs (the side to
/// move's first), the output bucket and the target.
struct Prepared {
    inputs: [[u16; TRAIN_ACTIVE]; 2],
    counts: [u8; 2],
    bucket: u8,
    target: f32,
    /// The base evaluation in network units (zero unless residual).
    offset: f32,
}

/// `None` when the residual base cannot evaluate the record.
fn prepare<F: FeatureSet>(s: &Sample, cfg: &Config) -> Option<Prepared> {
    let offset = match cfg.base {
        Some(base) => base(s)? as f32 / cfg.scale as f32,
        None => 0.0,
    };
    let kings = features::kings::<F>(&s.pieces);
    let stm = s.black_to_move as usize;
    let mut inputs = [[0u16; TRAIN_ACTIVE]; 2];
    let mut counts = [0u8; 2];
    for (slot, p) in [stm, 1 - stm].into_iter().enumerate() {
        let view = kings[p].map_or(Default::default(), |k| F::view(p, k));
        let n = s.pieces.len().min(F::MAX_ACTIVE);
        for (i, &(sq, code)) in s.pieces.iter().take(n).enumerate() {
            let x = F::index(p, view, sq, code);
            inputs[slot][i] = x as u16;
            if factored::<F>() {
                inputs[slot][n + i] = (F::INPUTS + x % F::PER_BUCKET) as u16;
            }
        }
        counts[slot] = if factored::<F>() { 2 * n } else { n } as u8;
    }
    let score_target = sigmoid(s.score as f32 / cfg.scale as f32);
    Some(Prepared {
        inputs,
        counts,
        bucket: F::output_bucket(s.pieces.len()) as u8,
        target: cfg.wdl * s.result.value() + (1.0 - cfg.wdl) * score_target,
        offset,
    })
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Per-thread scratch.
struct Scratch {
    z: [Vec<f32>; 2],
    dz: [Vec<f32>; 2],
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        Scratch {
            z: [vec![0.0; hidden], vec![0.0; hidden]],
            dz: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

/// The model's raw output (before the sigmoid) for `p`; leaves the
/// pre-activations in `s.z`.
fn forward(w: &Params, hidden: usize, p: &Prepared, s: &mut Scratch) -> f32 {
    let b = p.bucket as usize;
    let mut out = w.out_b[b] + p.offset;
    for side in 0..2 {
        let z = &mut s.z[side];
        z.copy_from_slice(&w.ft_b);
        for &f in &p.inputs[side][..p.counts[side] as usize] {
            let row = &w.ft_w[f as usize * hidden..(f as usize + 1) * hidden];
            for (a, r) in z.iter_mut().zip(row) {
                *a += *r;
            }
        }
        let ow = &w.out_w[(b * 2 + side) * hidden..(b * 2 + side + 1) * hidden];
        out += z
            .iter()
            .zip(ow)
            .map(|(&x, &v)| {
                let a = x.clamp(0.0, 1.0);
                a * a * v
            })
            .sum::<f32>();
    }
    out
}

/// Adds the loss gradient of `p` to `g`; returns the loss.
fn backward(w: &Params, hidden: usize, p: &Prepared, s: &mut Scratch, g: &mut Params) -> f32 {
    let out = forward(w, hidden, p, s);
    let pred = sigmoid(out);
    let err = pred - p.target;
    let go = 2.0 * err * pred * (1.0 - pred);
    let b = p.bucket as usize;
    g.out_b[b] += go;
    for side in 0..2 {
        let range = (b * 2 + side) * hidden..(b * 2 + side + 1) * hidden;
        let ow = &w.out_w[range.clone()];
        let gw = &mut g.out_w[range];
        let dz = &mut s.dz[side];
        for i in 0..hidden {
            let x = s.z[side][i];
            let a = x.clamp(0.0, 1.0);
            gw[i] += go * a * a;
            dz[i] = if x > 0.0 && x < 1.0 {
                go * ow[i] * 2.0 * x
            } else {
                0.0
            };
        }
        for (gb, d) in g.ft_b.iter_mut().zip(dz.iter()) {
            *gb += *d;
        }
        for &f in &p.inputs[side][..p.counts[side] as usize] {
            let row = &mut g.ft_w[f as usize * hidden..(f as usize + 1) * hidden];
            for (gr, d) in row.iter_mut().zip(dz.iter()) {
                *gr += *d;
            }
        }
    }
    err * err
}

/// The trainer's generator (initial weights, shuffles).
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn uniform(&mut self, a: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }
}

/// A training run's state: weights, Adam moments, progress.
pub struct Trainer<F: FeatureSet> {
    pub cfg: Config,
    pub w: Params,
    m: Params,
    v: Params,
    step: u64,
    /// Epochs finished.
    pub epoch: usize,
    _f: std::marker::PhantomData<F>,
}

/// What an epoch reports.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub positions: usize,
    pub seconds: f64,
    pub lr: f32,
}

impl<F: FeatureSet> Trainer<F> {
    /// A trainer starting from `cfg.init` when it fits this run (game,
    /// feature set, hidden size, residual or not), else refused.
    pub fn start(cfg: Config) -> Result<Self, String> {
        let Some(net) = cfg.init.clone() else {
            return Ok(Self::new(cfg));
        };
        let residual = cfg.base.is_some();
        if net.game != F::GAME || net.feature_set != F::ID || net.inputs != F::INPUTS {
            return Err(format!("--init: not a {} network", F::NAME));
        }
        // A narrower network may start a wider run: its units come first
        // and the new ones begin with zero output weights, so the run
        // starts at the very same evaluation (Net2Net-style widening).
        if net.hidden > cfg.hidden || net.buckets != F::OUTPUT_BUCKETS {
            return Err(format!(
                "--init: hidden size {}, this run trains {}",
                net.hidden, cfg.hidden
            ));
        }
        if net.residual != residual {
            return Err(format!(
                "--init: the network is {}residual, this run {}",
                if net.residual { "" } else { "not " },
                if residual { "is" } else { "is not" }
            ));
        }
        if net.wide != cfg.wide {
            return Err(format!(
                "--init: the network's output weights are {}, this run's {}",
                if net.wide { "wide" } else { "narrow" },
                if cfg.wide { "wide" } else { "narrow" }
            ));
        }
        if net.scale != cfg.scale {
            return Err(format!(
                "--init: output scale {}, this run uses {}",
                net.scale, cfg.scale
            ));
        }
        let mut t = Self::new(cfg);
        // The quantised weights back in float. Each input's weight goes to
        // its bucketed row and the factor rows of the kept units start at
        // zero, so the trainer quantises back to the very same network
        // (weights beyond the float clip, which training never writes, are
        // clipped). Units beyond the kept network's keep their random
        // feature weights and get zero output weights.
        let qa = QA as f32;
        let (h, old_h, rows) = (t.cfg.hidden, net.hidden, F::INPUTS);
        let clip = ft_clip::<F>();
        for (i, &q) in net.ft_w.iter().enumerate().take(rows * old_h) {
            t.w.ft_w[i / old_h * h + i % old_h] = (q as f32 / qa).clamp(-clip, clip);
        }
        for row in t.w.ft_w[rows * h..].chunks_exact_mut(h) {
            row[..old_h].iter_mut().for_each(|x| *x = 0.0);
        }
        for (x, &q) in t.w.ft_b.iter_mut().zip(&net.ft_b) {
            *x = (q as f32 / qa).clamp(-FT_BIAS_CLIP, FT_BIAS_CLIP);
        }
        let (qb, out_clip) = t.out_quant();
        let out_w: Vec<i32> = if net.wide {
            net.out_w_wide.iter().map(|&q| q as i32).collect()
        } else {
            net.out_w.iter().map(|&q| q as i32).collect()
        };
        t.w.out_w.iter_mut().for_each(|x| *x = 0.0);
        for (i, &q) in out_w.iter().enumerate() {
            t.w.out_w[i / old_h * h + i % old_h] = (q as f32 / qb).clamp(-out_clip, out_clip);
        }
        for (x, &q) in t.w.out_b.iter_mut().zip(&net.out_b) {
            *x = q as f32 / (QA as f32 * qb);
        }
        Ok(t)
    }

    pub fn new(cfg: Config) -> Self {
        assert!(
            train_active::<F>() <= TRAIN_ACTIVE,
            "{}: {} active inputs, the trainer's arrays hold {TRAIN_ACTIVE}",
            F::NAME,
            train_active::<F>()
        );
        let h = cfg.hidden;
        let mut w = Params::zeros(train_rows::<F>(), h, F::OUTPUT_BUCKETS);
        let mut rng = Rng(SplitMix64::new(cfg.seed ^ 0x5eed));
        // (32 for chess and xiangqi as always; shogi's 40.)
        let ft_scale = 1.0 / (F::MAX_ACTIVE as f32).sqrt();
        w.ft_w.iter_mut().for_each(|x| *x = rng.uniform(ft_scale));
        w.ft_b.iter_mut().for_each(|x| *x = rng.uniform(ft_scale));
        // A residual network starts close to zero, i.e. at its base.
        let out_scale = if cfg.base.is_some() { 0.1 } else { 1.0 } / ((2 * h) as f32).sqrt();
        w.out_w.iter_mut().for_each(|x| *x = rng.uniform(out_scale));
        let m = Params::zeros(train_rows::<F>(), h, F::OUTPUT_BUCKETS);
        Trainer {
            v: m.clone(),
            m,
            w,
            cfg,
            step: 0,
            epoch: 0,
            _f: std::marker::PhantomData,
        }
    }

    /// The output weights' quantisation step and float clip.
    fn out_quant(&self) -> (f32, f32) {
        if self.cfg.wide {
            (QB_WIDE as f32, OUT_CLIP_WIDE)
        } else {
            (QB as f32, OUT_CLIP)
        }
    }

    fn lr_at(&self, epoch: usize) -> f32 {
        // Cosine from lr down to lr / 100 over the run.
        let t = epoch as f32 / self.cfg.epochs.max(1) as f32;
        let floor = self.cfg.lr / 100.0;
        floor + (self.cfg.lr - floor) * 0.5 * (1.0 + (std::f32::consts::PI * t).cos())
    }

    /// The float model's evaluation of `s`, in engine units from the side
    /// to move's view (with the base added when residual; `None` if the
    /// base cannot evaluate it).
    pub fn eval_float(&self, s: &Sample) -> Option<f32> {
        let p = prepare::<F>(s, &self.cfg)?;
        let mut sc = Scratch::new(self.cfg.hidden);
        Some(forward(&self.w, self.cfg.hidden, &p, &mut sc) * self.cfg.scale as f32)
    }

    /// Mean loss over `set` (no update).
    fn loss(&self, set: &[Prepared]) -> f64 {
        if set.is_empty() {
            return 0.0;
        }
        let mut sc = Scratch::new(self.cfg.hidden);
        let total: f64 = set
            .iter()
            .map(|p| {
                let e = sigmoid(forward(&self.w, self.cfg.hidden, p, &mut sc)) - p.target;
                (e * e) as f64
            })
            .sum();
        total / set.len() as f64
    }

    /// One epoch over `train` (in a seeded shuffled order).
    fn epoch_over(&mut self, train: &[Prepared]) -> f64 {
        let h = self.cfg.hidden;
        let threads = self.cfg.threads.clamp(1, 64);
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut rng = Rng(SplitMix64::new(
            self.cfg.seed ^ (self.epoch as u64).wrapping_mul(0x9e37_79b9),
        ));
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let lr = self.lr_at(self.epoch);
        let mut grads: Vec<Params> = (0..threads)
            .map(|_| Params::zeros(train_rows::<F>(), h, F::OUTPUT_BUCKETS))
            .collect();
        let mut total = 0f64;
        for batch in order.chunks(self.cfg.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let w = &self.w;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per.max(1)))
                    .map(|(g, part)| {
                        scope.spawn(move || {
                            g.clear();
                            let mut sc = Scratch::new(h);
                            part.iter()
                                .map(|&i| backward(w, h, &train[i as usize], &mut sc, g) as f64)
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|t| t.join().unwrap_or(0.0))
                    .collect()
            });
            total += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(per.max(1)).min(threads);
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used.saturating_sub(1)) {
                first[0].add(g);
            }
            self.adam(&first[0], batch.len() as f32, lr);
        }
        self.epoch += 1;
        total / train.len().max(1) as f64
    }

    fn adam(&mut self, g: &Params, n: f32, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - B2.powi(self.step.min(i32::MAX as u64) as i32);
        let clips = [ft_clip::<F>(), FT_BIAS_CLIP, self.out_quant().1, f32::MAX];
        let ws = self.w.tensors_mut();
        let ms = self.m.tensors_mut();
        let vs = self.v.tensors_mut();
        for (((w, m), v), (g, clip)) in ws
            .into_iter()
            .zip(ms)
            .zip(vs)
            .zip(g.tensors().into_iter().zip(clips))
        {
            for i in 0..w.len() {
                let gi = g[i] / n;
                if gi == 0.0 && m[i] == 0.0 {
                    continue;
                }
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                let upd = lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
                w[i] = (w[i] - upd).clamp(-clip, clip);
            }
        }
    }

    /// The quantised network.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: f32| (x * s).round();
        let (qb, _) = self.out_quant();
        let w_max = F::FT_WEIGHT_MAX as f32;
        Network {
            game: F::GAME,
            feature_set: F::ID,
            inputs: F::INPUTS,
            hidden: self.cfg.hidden,
            buckets: F::OUTPUT_BUCKETS,
            scale: self.cfg.scale,
            residual: self.cfg.base.is_some(),
            wide: self.cfg.wide,
            ft_w: (0..F::INPUTS * self.cfg.hidden)
                .map(|i| {
                    let (row, col) = (i / self.cfg.hidden, i % self.cfg.hidden);
                    let factor = (F::INPUTS + row % F::PER_BUCKET) * self.cfg.hidden + col;
                    let x = if factored::<F>() {
                        self.w.ft_w[i] + self.w.ft_w.get(factor).copied().unwrap_or(0.0)
                    } else {
                        self.w.ft_w[i]
                    };
                    q(x, QA as f32).clamp(-w_max, w_max) as i16
                })
                .collect(),
            ft_b: self
                .w
                .ft_b
                .iter()
                .map(|&x| q(x, QA as f32) as i16)
                .collect(),
            out_w: if self.cfg.wide {
                Vec::new()
            } else {
                self.w
                    .out_w
                    .iter()
                    .map(|&x| q(x, QB as f32).clamp(-127.0, 127.0) as i8)
                    .collect()
            },
            out_w_wide: if self.cfg.wide {
                self.w
                    .out_w
                    .iter()
                    .map(|&x| q(x, QB_WIDE as f32).clamp(-32_767.0, 32_767.0) as i16)
                    .collect()
            } else {
                Vec::new()
            },
            out_b: self
                .w
                .out_b
                .iter()
                .map(|&x| q(x, QA as f32 * qb) as i32)
                .collect(),
        }
    }

    /// The checkpoint's mode word: bit 0 residual, bit 1 wide output
    /// weights (so a narrow run's word is what it always was, 0 or 1).
    fn mode(&self) -> u64 {
        self.cfg.base.is_some() as u64 | (self.cfg.wide as u64) << 1
    }

    /// Checkpoint bytes: header, weights, Adam state.
    pub fn checkpoint(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"TGTRAIN2");
        for v in [
            F::GAME as u64,
            F::ID as u64,
            self.cfg.hidden as u64,
            self.mode(),
            self.epoch as u64,
            self.step,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for p in [&self.w, &self.m, &self.v] {
            for t in p.tensors() {
                for x in t.iter() {
                    b.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        let sum = tengen_nnue::network::checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Restores a checkpoint written by [`Trainer::checkpoint`] with the
    /// same game, feature set and hidden size.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<(), String> {
        if bytes.len() < 8 + 48 + 8 || &bytes[..8] != b"TGTRAIN2" {
            return Err("not a tengen-train checkpoint".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if tengen_nnue::network::checksum(body) != u64::from_le_bytes(s) {
            return Err("checkpoint checksum mismatch".into());
        }
        let u = |i: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&body[8 + 8 * i..16 + 8 * i]);
            u64::from_le_bytes(x)
        };
        let residual = self.mode();
        if u(0) != F::GAME as u64
            || u(1) != F::ID as u64
            || u(2) != self.cfg.hidden as u64
            || u(3) != residual
        {
            return Err(format!(
                "checkpoint of game {} feature set {} hidden {} residual|wide<<1 {}, this run wants {} {} {} {}",
                u(0),
                u(1),
                u(2),
                u(3),
                F::GAME,
                F::ID,
                self.cfg.hidden,
                residual
            ));
        }
        let mut floats = body[56..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut fill = |p: &mut Params| -> bool {
            for t in p.tensors_mut() {
                for x in t.iter_mut() {
                    match floats.next() {
                        Some(f) => *x = f,
                        None => return false,
                    }
                }
            }
            true
        };
        let (mut w, mut m, mut v) = (self.w.clone(), self.m.clone(), self.v.clone());
        if !(fill(&mut w) && fill(&mut m) && fill(&mut v)) || floats.next().is_some() {
            return Err("checkpoint size does not match the network shape".into());
        }
        self.w = w;
        self.m = m;
        self.v = v;
        self.epoch = u(4) as usize;
        self.step = u(5);
        Ok(())
    }
}

/// Records per validation block (fewer for sets under 64 blocks).
const BLOCK: usize = 2048;

/// Splits records into training and validation sets. Datagen writes a
/// game's positions one after another, so whole blocks of [`BLOCK`]
/// consecutive records are held out (a block whose hash falls below the
/// fraction): validation positions come from games the training set has
/// (almost) never seen, and the split does not depend on thread count.
fn split<F: FeatureSet>(records: &Records, cfg: &Config) -> (Vec<Prepared>, Vec<Prepared>) {
    let layout = records.layout;
    let mut train = Vec::with_capacity(records.len());
    let mut val = Vec::new();
    let cut = (cfg.validation.clamp(0.0, 1.0) as f64 * u32::MAX as f64) as u64;
    // Small sets (tests) get smaller blocks, so some are held out.
    let size = BLOCK.min((records.len() / 64).max(1));
    let n = records.len();
    for b in 0..n.div_ceil(size) {
        let h = tengen_nnue::network::checksum(&(b as u64 ^ cfg.seed).to_le_bytes()) & 0xffff_ffff;
        let into = if h < cut { &mut val } else { &mut train };
        for r in (b * size..((b + 1) * size).min(n)).map(|i| records.get(i)) {
            if let Some(p) = data::unpack(layout, r)
                .ok()
                .and_then(|s| prepare::<F>(&s, cfg))
            {
                into.push(p);
            }
        }
    }
    (train, val)
}

/// Trains on `records` into `out` (checkpoint `checkpoint.bin`, networks
/// `epoch-N.nnue` and `latest.nnue`), resuming from a checkpoint there.
/// `log` gets one line per epoch.
pub fn run<F: FeatureSet>(
    cfg: &Config,
    records: &Records,
    out: &Path,
    log: &mut dyn FnMut(&EpochReport),
) -> Result<Trainer<F>, String> {
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut t = Trainer::<F>::start(cfg.clone())?;
    let ck = out.join("checkpoint.bin");
    if let Ok(bytes) = fs::read(&ck) {
        t.restore(&bytes)
            .map_err(|e| format!("{}: {e}", ck.display()))?;
    }
    if records.layout.id() != F::GAME {
        return Err(format!(
            "{} records for a {} network",
            records.layout.name(),
            F::NAME
        ));
    }
    let (train, val) = split::<F>(records, cfg);
    let mut budget = cfg.stop_after.unwrap_or(usize::MAX);
    while t.epoch < cfg.epochs && budget > 0 {
        budget -= 1;
        let start = Instant::now();
        let lr = t.lr_at(t.epoch);
        let train_loss = t.epoch_over(&train);
        let seconds = start.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch: t.epoch,
            train_loss,
            validation_loss: t.loss(&val),
            positions: train.len(),
            seconds,
            lr,
        };
        let write = |p: PathBuf, b: &[u8]| -> io::Result<()> {
            let tmp = p.with_extension("tmp");
            fs::write(&tmp, b)?;
            fs::rename(&tmp, &p)
        };
        let net = t.quantise().to_bytes();
        write(out.join(format!("epoch-{}.nnue", t.epoch)), &net)
            .and_then(|_| write(out.join("latest.nnue"), &net))
            .and_then(|_| write(ck.clone(), &t.checkpoint()))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        log(&report);
    }
    Ok(t)
}

#[cfg(test)]
mod tests;
