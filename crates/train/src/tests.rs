use super::*;
use std::sync::Arc;
use tengen_nnue::accumulator::Accumulators;
use tengen_nnue::data::Wdl;
use tengen_nnue::features::Chess;

/// Random chess-like positions (two kings and up to 14 other pieces, no
/// pawns on the back ranks) scored by material from the side to move's
/// view, with the result following the score's sign.
fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng(SplitMix64::new(seed));
    let value = [100, 300, 320, 500, 900, 0];
    (0..n)
        .map(|_| {
            let mut board = [None::<u8>; 64];
            board[(rng.next() % 64) as usize] = Some(5);
            loop {
                let sq = (rng.next() % 64) as usize;
                if board[sq].is_none() {
                    board[sq] = Some(13);
                    break;
                }
            }
            let extra = rng.next() % 15;
            for _ in 0..extra {
                let sq = (rng.next() % 64) as usize;
                let code = (rng.next() % 5) as u8 + 8 * (rng.next() % 2) as u8;
                let back = !(8..56).contains(&sq);
                if board[sq].is_none() && !(code & 7 == 0 && back) {
                    board[sq] = Some(code);
                }
            }
            let pieces: Vec<(u8, u8)> = board
                .iter()
                .enumerate()
                .filter_map(|(sq, p)| p.map(|c| (sq as u8, c)))
                .collect();
            let black = rng.next() % 2 == 1;
            let white: i32 = pieces
                .iter()
                .map(|&(_, c)| value[(c & 7) as usize] * if c < 8 { 1 } else { -1 })
                .sum();
            let score = if black { -white } else { white };
            let result = match score {
                s if s > 150 => Wdl::Win,
                s if s < -150 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            Sample {
                pieces,
                black_to_move: black,
                score: score as i16,
                result,
                halfmove: 0,
                fullmove: 1,
                best: 0,
            }
        })
        .collect()
}

fn records(samples: &[Sample]) -> Records {
    Records::from_samples(Layout::Chess, samples)
}

fn quick() -> Config {
    Config {
        hidden: 32,
        epochs: 6,
        batch: 256,
        lr: 0.005,
        threads: 2,
        validation: 0.1,
        ..Config::default()
    }
}

/// Training lowers the validation loss, and a run cut after some epochs
/// and resumed from its checkpoint ends with the very same weights as
/// one run straight through.
#[test]
fn training_learns_and_resumes_exactly() {
    let samples = synthetic(4000, 3);
    let recs = records(&samples);
    let cfg = quick();
    let base = std::env::temp_dir().join(format!("tengen-train-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    let mut losses = Vec::new();
    let straight = run::<Chess>(&cfg, &recs, &base.join("a"), &mut |r| {
        losses.push(r.validation_loss)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let untrained = Trainer::<Chess>::new(cfg.clone());
    let (_, val) = split::<Chess>(&recs, &cfg);
    let before = untrained.loss(&val);
    let after = losses.last().copied().unwrap_or(f64::MAX);
    assert!(
        after < before * 0.7,
        "loss {before} -> {after} ({losses:?})"
    );

    let mut short = cfg.clone();
    short.stop_after = Some(2);
    let dir = base.join("b");
    run::<Chess>(&short, &recs, &dir, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    // Cut after two epochs, then resumed: the checkpoint carries the
    // weights, Adam's moments and the epoch.
    let resumed = run::<Chess>(&cfg, &recs, &dir, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resumed.epoch, cfg.epochs);
    assert!(resumed.w == straight.w, "resumed weights differ");
    // The network file it wrote loads as a chess network.
    let bytes = fs::read(dir.join("latest.nnue")).unwrap_or_default();
    if let Err(e) = Network::from_bytes::<Chess>(&bytes) {
        panic!("{e}");
    }
    let _ = fs::remove_dir_all(&base);
}

/// The quantised network evaluates like the float model: over these
/// positions the mean absolute difference stays within 8 units and the
/// largest within 40 (units: centipawns at scale 400).
#[test]
fn quantised_network_matches_the_float_model() {
    let samples = synthetic(3000, 9);
    let recs = records(&samples);
    let mut cfg = quick();
    cfg.hidden = 64;
    cfg.epochs = 4;
    let dir = std::env::temp_dir().join(format!("tengen-train-q-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let t = run::<Chess>(&cfg, &recs, &dir, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let net = Arc::new(t.quantise());
    let mut acc = Accumulators::<Chess>::new(Arc::clone(&net));
    let (mut sum, mut worst) = (0f64, 0f64);
    let test = synthetic(500, 77);
    for s in &test {
        let q = acc.evaluate_fresh(s.black_to_move as usize, &s.pieces) as f64;
        let f = t.eval_float(s).unwrap_or(f32::NAN) as f64;
        let d = (q - f).abs();
        sum += d;
        worst = worst.max(d);
    }
    let mean = sum / test.len() as f64;
    eprintln!("quantised vs float: mean {mean:.2}, worst {worst:.2}");
    assert!(mean <= 8.0 && worst <= 40.0, "mean {mean}, worst {worst}");
    // And the float model did learn something: material is visible.
    let spread: f64 = test
        .iter()
        .map(|s| t.eval_float(s).unwrap_or(0.0).abs() as f64)
        .sum::<f64>()
        / test.len() as f64;
    assert!(spread > 50.0, "evaluations barely move: {spread}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn checkpoints_of_another_shape_are_refused() {
    let t = Trainer::<Chess>::new(quick());
    let bytes = t.checkpoint();
    let mut other = Trainer::<Chess>::new(Config {
        hidden: 64,
        ..quick()
    });
    let err = other.restore(&bytes).err().unwrap_or_default();
    assert!(err.contains("hidden 32"), "{err}");
    let mut same = Trainer::<Chess>::new(Config {
        seed: 99,
        ..quick()
    });
    assert!(same.restore(&bytes).is_ok());
    assert!(same.w == t.w);
    let mut bad = bytes.clone();
    bad[100] ^= 1;
    assert!(same.restore(&bad).is_err());
}

/// A stand-in for a hand-made evaluation: material from the side to
/// move's view (pawn 100, knight and bishop 300, rook 500, queen 900).
fn material(s: &Sample) -> Option<i32> {
    let mut v = 0;
    for &(_, code) in &s.pieces {
        let worth = [100, 300, 300, 500, 900, 0][(code & 7) as usize % 6];
        v += if (code >= 8) == s.black_to_move {
            worth
        } else {
            -worth
        };
    }
    Some(v)
}

/// A residual network starts at its base, is flagged residual in its
/// file, and its quantised output plus the base matches the float
/// model; a checkpoint of a residual run does not resume a plain one.
#[test]
fn a_residual_network_corrects_its_base() {
    let samples = synthetic(3000, 5);
    let recs = records(&samples);
    let cfg = Config {
        base: Some(material),
        epochs: 3,
        ..quick()
    };
    let untrained = Trainer::<Chess>::new(cfg.clone());
    let test = synthetic(300, 41);
    let drift: f64 = test
        .iter()
        .map(|s| {
            (untrained.eval_float(s).unwrap_or(f32::NAN) - material(s).unwrap_or(0) as f32).abs()
                as f64
        })
        .sum::<f64>()
        / test.len() as f64;
    assert!(
        drift < 60.0,
        "an untrained residual network moves its base by {drift} on average"
    );
    let dir = std::env::temp_dir().join(format!("tengen-train-r-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let t = run::<Chess>(&cfg, &recs, &dir, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let bytes = fs::read(dir.join("latest.nnue")).unwrap_or_default();
    let net = Network::from_bytes::<Chess>(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(net.residual);
    let mut acc = Accumulators::<Chess>::new(Arc::new(net));
    let mut worst = 0f64;
    for s in &test {
        let q = (acc.evaluate_fresh(s.black_to_move as usize, &s.pieces) + material(s).unwrap_or(0))
            as f64;
        let f = t.eval_float(s).unwrap_or(f32::NAN) as f64;
        worst = worst.max((q - f).abs());
    }
    assert!(worst <= 40.0, "quantised + base vs float: worst {worst}");
    let plain = Config { base: None, ..cfg };
    let refused = run::<Chess>(&plain, &recs, &dir, &mut |_| {}).err();
    assert!(
        refused.as_deref().unwrap_or("").contains("residual"),
        "{refused:?}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A run started from a network (`--init`) begins exactly at it: the
/// trainer quantises back to the same file; a network of another shape
/// is refused.
#[test]
fn a_run_can_start_from_a_kept_network() {
    let samples = synthetic(2000, 8);
    let recs = records(&samples);
    let cfg = Config {
        epochs: 2,
        ..quick()
    };
    let dir = std::env::temp_dir().join(format!("tengen-train-i-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let first =
        run::<Chess>(&cfg, &recs, &dir.join("a"), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let net = Arc::new(first.quantise());
    let again = Trainer::<Chess>::start(Config {
        init: Some(Arc::clone(&net)),
        ..cfg.clone()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        again.quantise() == *net,
        "init does not reproduce the network"
    );
    assert_eq!(again.epoch, 0);
    // Training further from it moves on from there.
    let more = run::<Chess>(
        &Config {
            init: Some(Arc::clone(&net)),
            ..cfg.clone()
        },
        &recs,
        &dir.join("b"),
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(more.quantise() != *net);
    let wrong = Trainer::<Chess>::start(Config {
        init: Some(Arc::clone(&net)),
        hidden: 16,
        ..cfg.clone()
    });
    assert!(wrong.err().unwrap_or_default().contains("hidden size"));
    // A wider run starts at the same evaluation, and its training reaches
    // the new units.
    let wide_cfg = Config {
        init: Some(Arc::clone(&net)),
        hidden: 64,
        ..cfg.clone()
    };
    let wide = Trainer::<Chess>::start(wide_cfg.clone()).unwrap_or_else(|e| panic!("{e}"));
    for s in samples.iter().take(200) {
        let (a, b) = (again.eval_float(s), wide.eval_float(s));
        assert!(
            a.zip(b).is_some_and(|(a, b)| (a - b).abs() < 1e-3),
            "{a:?} {b:?}"
        );
    }
    let wider = run::<Chess>(&wide_cfg, &recs, &dir.join("c"), &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    // (Only the output buckets the synthetic positions use are trained.)
    let out_w = &wider.w.out_w;
    assert!(out_w
        .chunks_exact(64)
        .any(|u| u[32..].iter().all(|&x| x != 0.0)));
    let wrong = Trainer::<Chess>::start(Config {
        init: Some(net),
        base: Some(material),
        ..cfg
    });
    assert!(wrong.err().unwrap_or_default().contains("residual"));
    let _ = fs::remove_dir_all(&dir);
}

/// Every feature set's active inputs fit the trainer's fixed arrays:
/// chess and xiangqi 32 pieces with a factor input each, shogi 40 pieces
/// (board and hands) without.
#[test]
fn active_inputs_fit_the_fixed_arrays() {
    use tengen_nnue::features::{Shogi, Xiangqi};
    assert_eq!(train_active::<Chess>(), 64);
    assert_eq!(train_active::<Xiangqi>(), 64);
    assert_eq!(train_active::<Shogi>(), 40);
    assert!(train_active::<Shogi>() <= TRAIN_ACTIVE);
    assert_eq!(train_rows::<Shogi>(), Shogi::INPUTS);
    // The shogi start position has all 40 pieces on the board; a
    // position with full hands has some of them as hand inputs.
    let cfg = quick();
    for s in shogi_samples(200, 3) {
        let p = prepare::<Shogi>(&s, &cfg).unwrap_or_else(|| panic!("{s:?}"));
        assert_eq!(p.counts, [40, 40]);
        let mut seen = p.inputs[0][..40].to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 40, "an input twice");
    }
}

/// Positions along seeded random shogi games from the start, scored by
/// the hand-made evaluation plus 40 per piece in the side to move's hand
/// beyond the other's (what a residual network can learn), the result by
/// the score's sign.
fn shogi_samples(n: usize, seed: u64) -> Vec<Sample> {
    use tengen_shogi::{Board, Gen};
    let mut rng = Rng(SplitMix64::new(seed));
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::startpos();
        for ply in 0..120 {
            let moves = b.moves(Gen::All);
            if moves.is_empty() {
                break;
            }
            if ply >= 6 && !b.in_check() {
                let mut pieces = Vec::new();
                tengen_shogi::nnue::pieces(&b, &mut pieces);
                let mut s = Sample {
                    pieces,
                    black_to_move: b.side_to_move() == tengen_shogi::Color::White,
                    score: 0,
                    result: Wdl::Draw,
                    halfmove: ply.min(255) as u8,
                    fullmove: 0,
                    best: moves[0].bits(),
                };
                let in_hand: i32 = s
                    .pieces
                    .iter()
                    .filter(|p| p.0 >= 81)
                    .map(|p| {
                        if (p.1 >= 16) == s.black_to_move {
                            1
                        } else {
                            -1
                        }
                    })
                    .sum();
                let score = shogi_hand_eval(&s).unwrap_or(0) + 40 * in_hand;
                s.score = score.clamp(-3000, 3000) as i16;
                s.result = match score {
                    x if x > 200 => Wdl::Win,
                    x if x < -200 => Wdl::Loss,
                    _ => Wdl::Draw,
                };
                out.push(s);
                if out.len() == n {
                    break;
                }
            }
            b.do_move(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    out
}

/// A shogi network: records of 42 bytes, residual on the hand-made
/// evaluation, wide output weights. Training lowers the loss; the file
/// loads as a shogi network; its quantised output plus the base matches
/// the float model within a mean of 4 and a worst of 25 (engine units
/// at scale 400) over held-out positions; `--init` from it reproduces it.
#[test]
fn a_shogi_residual_wide_network_matches_its_float_model() {
    use tengen_nnue::features::Shogi;
    let samples = shogi_samples(3000, 5);
    let recs = Records::from_samples(Layout::Shogi, &samples);
    assert_eq!(recs.len(), samples.len());
    assert_eq!(recs.sample(17).ok().as_ref(), Some(&samples[17]));
    let cfg = Config {
        base: Some(shogi_hand_eval),
        wide: true,
        epochs: 4,
        ..quick()
    };
    let dir = std::env::temp_dir().join(format!("tengen-train-shogi-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let mut losses = Vec::new();
    let t = run::<Shogi>(&cfg, &recs, &dir, &mut |r| losses.push(r.train_loss))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(losses[3] < losses[0], "{losses:?}");
    let bytes = fs::read(dir.join("latest.nnue")).unwrap_or_default();
    let net = Network::from_bytes::<Shogi>(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(net.residual && net.wide && net.out_w.is_empty());
    let net = Arc::new(net);
    let mut acc = Accumulators::<Shogi>::new(Arc::clone(&net));
    let (mut sum, mut worst, mut moved) = (0f64, 0f64, 0f64);
    let test = shogi_samples(400, 77);
    for s in &test {
        let base = shogi_hand_eval(s).unwrap_or(0);
        let q = (acc.evaluate_fresh(s.black_to_move as usize, &s.pieces) + base) as f64;
        let f = t.eval_float(s).unwrap_or(f32::NAN) as f64;
        sum += (q - f).abs();
        worst = worst.max((q - f).abs());
        moved += (f - base as f64).abs();
    }
    let mean = sum / test.len() as f64;
    eprintln!(
        "shogi quantised vs float: mean {mean:.2}, worst {worst:.2}; correction {:.1}",
        moved / test.len() as f64
    );
    assert!(mean <= 4.0 && worst <= 25.0, "mean {mean}, worst {worst}");
    // A chess run does not take shogi records.
    let refused = run::<Chess>(&quick(), &recs, &dir.join("c"), &mut |_| {}).err();
    assert!(refused.unwrap_or_default().contains("shogi records"));
    // --init from the wide network reproduces it; a narrow run refuses it.
    let again = Trainer::<Shogi>::start(Config {
        init: Some(Arc::clone(&net)),
        ..cfg.clone()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        again.quantise() == *net,
        "init does not reproduce the network"
    );
    let narrow = Trainer::<Shogi>::start(Config {
        init: Some(net),
        wide: false,
        ..cfg.clone()
    });
    assert!(narrow.err().unwrap_or_default().contains("wide"));
    // Nor does a narrow run resume the wide run's checkpoint.
    let refused = run::<Shogi>(
        &Config {
            wide: false,
            ..cfg.clone()
        },
        &recs,
        &dir,
        &mut |_| {},
    )
    .err();
    assert!(
        refused
            .as_deref()
            .unwrap_or("")
            .contains("residual|wide<<1 3"),
        "{refused:?}"
    );
    let _ = fs::remove_dir_all(&dir);
}
