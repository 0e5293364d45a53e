//! Fits the learned pattern tables (`src/learned.rs`) on games written by
//! `pattern_datagen`:
//!
//!     cargo run --release -p tengen-gomoku --example pattern_fit -- \
//!         --rule freestyle --data nnue-data/gomoku/freestyle-s1.txt[,more] \
//!         --out crates/gomoku/src/tables/freestyle.txt [--iters 800] [--lambda 1e-4] \
//!         [--order hand|learned]
//!
//! Two models, both over point classes (the multiset of a point's four
//! line shapes for one colour):
//!
//! - the evaluation, a logistic regression: the logit of the side to
//!   move's win is `Σ S[class_me(q)] − Σ T[class_you(q)] + bias_me` over
//!   the empty points `q`, fitted to half the game's result and half the
//!   search's score (squashed by a scale fitted to the results);
//! - move ordering, a softmax over the candidate points (within two steps
//!   of a stone, playable): `A[class_me(q)] + D[class_you(q)]`, fitted to
//!   the move the search played.
//!
//! Positions where either side has a five to make, or whose score is
//! proven, are left out (the search answers those before it evaluates or
//! orders). Both models start from the hand-made values (scaled to
//! logits) and are pulled towards them by an L2 term, so classes seldom
//! seen keep about their hand-made worth. Under freestyle and the
//! standard rule the colours share one set of values (`--untie` splits
//! them); under renju they are apart unless `--tie` (the shipped renju
//! table is tied: it won its A/B, the split ones did not). A bias per
//! colour to move is fitted either way. Games with `i % 10 == 0` are held
//! out and the losses on them printed beside the hand-made models'.
//!
//! The table gets the fitted evaluation; its ordering columns get the
//! hand-made ordering values unless `--order learned` (the fitted ordering
//! predicts the searched move better but did not win games: see
//! `docs/strength.md`, "Learned pattern tables").

use std::fs;
use tengen_gomoku::board::shape_value;
use tengen_gomoku::learned::{self, Raw, CLASSES, EVAL_SCALE, POLICY_SCALE};
use tengen_gomoku::pattern::Shape;
use tengen_gomoku::search::{level_value, PROVEN};
use tengen_gomoku::threat::{self, level, Level};
use tengen_gomoku::{Board, Color, Point, Rule};

const NONE: u16 = u16::MAX;

struct EvalSample {
    /// (parameter, count): signed counts.
    feats: Vec<(u16, f32)>,
    result: f32,
    score: i32,
    held: bool,
}

struct PolicySample {
    /// Per candidate: (A parameter, D parameter or NONE).
    cands: Vec<(u16, u16)>,
    target: usize,
    held: bool,
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn shape_of_digit(d: u8) -> Shape {
    [
        Shape::None,
        Shape::One,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::Five,
    ][d as usize]
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam on a full-batch gradient.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    lr: f64,
}

impl Adam {
    fn new(n: usize, lr: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            lr,
        }
    }
    fn step(&mut self, w: &mut [f64], g: &[f64], frozen: &[bool]) {
        self.t += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        for i in 0..w.len() {
            if frozen[i] {
                continue;
            }
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = self.m[i] / (1.0 - b1.powi(self.t));
            let vh = self.v[i] / (1.0 - b2.powi(self.t));
            w[i] -= self.lr * mh / (vh.sqrt() + 1e-9);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule: Rule = arg(&args, "--rule")
        .unwrap_or_else(|| "freestyle".into())
        .parse()
        .expect("--rule");
    let data = arg(&args, "--data").expect("--data FILE[,FILE]");
    let out = arg(&args, "--out");
    let iters: usize = arg(&args, "--iters").map_or(800, |v| v.parse().unwrap());
    let lambda: f64 = arg(&args, "--lambda").map_or(1e-4, |v| v.parse().unwrap());
    let tie = args.iter().any(|a| a == "--tie")
        || (rule != Rule::Renju && !args.iter().any(|a| a == "--untie"));
    // Which ordering values the table gets: the hand-made ones (what the
    // A/B matches kept) or the fitted ones.
    let learned_order = match arg(&args, "--order").as_deref() {
        None | Some("hand") => false,
        Some("learned") => true,
        Some(o) => panic!("--order hand|learned, not {o}"),
    };
    let col = |c: Color| if tie { 0 } else { c.index() };
    let n = CLASSES;
    let classes = learned::class_digits();

    // Hand-made priors per class, in logits (the evaluation's scale is
    // fitted below).
    let hand_shape: Vec<i32> = classes
        .iter()
        .map(|d| d.iter().map(|&x| shape_value(shape_of_digit(x))).sum())
        .collect();
    let hand_order: Vec<f64> = classes
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let s = d.map(shape_of_digit);
            let v = level_value(level(s)) + hand_shape[k];
            (v as f64 / 200.0).min(30.0)
        })
        .collect();

    // Read the games into samples.
    let mut evals = Vec::new();
    let mut pols = Vec::new();
    let mut games = 0;
    for path in data.split(',') {
        let text = fs::read_to_string(path).expect("data file");
        for line in text.lines() {
            let Some((head, tail)) = line.split_once('|') else {
                continue;
            };
            let h: Vec<&str> = head.split_whitespace().collect();
            if h.len() < 3 || h[1] != rule.name() {
                continue;
            }
            let idx: u64 = h[0].parse().unwrap_or(0);
            let held = idx.is_multiple_of(10);
            let winner = match h[2] {
                "B" => Some(Color::Black),
                "W" => Some(Color::White),
                _ => None,
            };
            let mut b = Board::new(15, 15, rule).unwrap();
            b.set_learned(None);
            if h[3..]
                .iter()
                .any(|p| Point::parse_xy(p).map_or(true, |p| b.play(p).is_err()))
            {
                continue;
            }
            games += 1;
            for mv in tail.split_whitespace() {
                let Some((p, s)) = mv.split_once('@') else {
                    break;
                };
                let (Ok(p), Ok(score)) = (Point::parse_xy(p), s.parse::<i32>()) else {
                    break;
                };
                let me = b.to_move();
                let you = me.other();
                let quiet = b.five_count(me) == 0 && b.five_count(you) == 0;
                if quiet && score.abs() < PROVEN {
                    let mut counts = vec![0f32; 4 * n];
                    for q in b.squares() {
                        if !b.is_empty(q) {
                            continue;
                        }
                        let km = learned::class(b.shapes(q, me));
                        let ky = learned::class(b.shapes(q, you));
                        if km != 0 {
                            counts[col(me) * n + km] += 1.0;
                        }
                        if ky != 0 {
                            counts[2 * n + col(you) * n + ky] -= 1.0;
                        }
                    }
                    let mut feats: Vec<(u16, f32)> = counts
                        .iter()
                        .enumerate()
                        .filter(|(_, &c)| c != 0.0)
                        .map(|(i, &c)| (i as u16, c))
                        .collect();
                    feats.push(((4 * n + col(me)) as u16, 1.0));
                    evals.push(EvalSample {
                        feats,
                        result: match winner {
                            Some(w) if w == me => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        },
                        score,
                        held,
                    });
                    let mut cands = Vec::new();
                    let mut target = None;
                    let renju = rule == Rule::Renju;
                    for q in threat::near(&b) {
                        if !threat::playable(&b, q, me) {
                            continue;
                        }
                        let sm = b.shapes(q, me);
                        let sy = b.shapes(q, you);
                        let ka = col(me) * n + learned::class(sm);
                        // As the search does: Black's forbidden points are
                        // nothing for White to block.
                        let kd = if renju
                            && you == Color::Black
                            && level(sy) >= Level::DoubleThree
                            && b.is_forbidden(q, you)
                        {
                            NONE
                        } else {
                            (2 * n + col(you) * n + learned::class(sy)) as u16
                        };
                        if b.point(q) == p {
                            target = Some(cands.len());
                        }
                        cands.push((ka as u16, kd));
                    }
                    if let Some(target) = target {
                        if cands.len() > 1 {
                            pols.push(PolicySample {
                                cands,
                                target,
                                held,
                            });
                        }
                    }
                }
                if b.play(p).is_err() {
                    break;
                }
            }
        }
    }
    eprintln!(
        "{} games: {} evaluation samples, {} ordering samples",
        games,
        evals.len(),
        pols.len()
    );

    // The scale of the search's scores: the K for which σ(score / K)
    // best predicts the results of decided games.
    let ce = |p: f64, t: f64| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
    };
    let mut best_k = (f64::MAX, 100.0);
    for k in (1..=60).map(|i| i as f64 * 25.0) {
        let l: f64 = evals
            .iter()
            .filter(|e| e.result != 0.5)
            .map(|e| ce(sigmoid(e.score as f64 / k), e.result as f64))
            .sum();
        if l < best_k.0 {
            best_k = (l, k);
        }
    }
    let k = best_k.1;
    eprintln!("score scale K = {k}");

    // Evaluation: [S (2n) | T (2n) | bias (2)], in logits.
    let ne = 4 * n + 2;
    let mut prior = vec![0.0; ne];
    for c in 0..2 {
        for kk in 0..n {
            // The hand evaluation is (7 mine - 5 theirs) / 5 in score units.
            prior[c * n + kk] = 1.4 * hand_shape[kk] as f64 / k;
            prior[2 * n + c * n + kk] = hand_shape[kk] as f64 / k;
        }
    }
    let mut frozen = vec![false; ne];
    for c in 0..2 {
        frozen[c * n] = true;
        frozen[2 * n + c * n] = true;
        prior[c * n] = 0.0;
        prior[2 * n + c * n] = 0.0;
    }
    let target = |e: &EvalSample| 0.5 * e.result as f64 + 0.5 * sigmoid(e.score as f64 / k);
    let logit = |w: &[f64], e: &EvalSample| -> f64 {
        e.feats.iter().map(|&(i, c)| w[i as usize] * c as f64).sum()
    };
    let eval_loss = |w: &[f64], held: bool| -> (f64, usize) {
        let mut l = 0.0;
        let mut m = 0;
        for e in evals.iter().filter(|e| e.held == held) {
            l += ce(sigmoid(logit(w, e)), target(e));
            m += 1;
        }
        (l / m.max(1) as f64, m)
    };
    let mut w = prior.clone();
    let train_n = evals.iter().filter(|e| !e.held).count().max(1) as f64;
    let mut adam = Adam::new(ne, 0.005);
    for it in 0..iters {
        let mut g = vec![0.0; ne];
        for e in evals.iter().filter(|e| !e.held) {
            let d = sigmoid(logit(&w, e)) - target(e);
            for &(i, c) in &e.feats {
                g[i as usize] += d * c as f64;
            }
        }
        for i in 0..ne {
            g[i] = g[i] / train_n + 2.0 * lambda * (w[i] - prior[i]);
        }
        adam.step(&mut w, &g, &frozen);
        if it % 100 == 0 || it + 1 == iters {
            eprintln!(
                "eval iter {it}: train {:.4} held-out {:.4}",
                eval_loss(&w, false).0,
                eval_loss(&w, true).0
            );
        }
    }
    let (hp, hm) = eval_loss(&prior, true);
    let (hl, _) = eval_loss(&w, true);
    eprintln!("evaluation held-out loss ({hm} positions): hand-made {hp:.4}, learned {hl:.4}");

    // Ordering: [A (2n) | D (2n)], in logits.
    let np = 4 * n;
    let mut pprior = vec![0.0; np];
    for c in 0..2 {
        for kk in 0..n {
            pprior[c * n + kk] = hand_order[kk];
            pprior[2 * n + c * n + kk] = 0.9 * hand_order[kk];
        }
    }
    let pol_logits = |w: &[f64], s: &PolicySample| -> Vec<f64> {
        s.cands
            .iter()
            .map(|&(a, d)| w[a as usize] + if d == NONE { 0.0 } else { w[d as usize] })
            .collect()
    };
    let softmax = |l: &mut Vec<f64>| {
        let mx = l.iter().cloned().fold(f64::MIN, f64::max);
        let sum: f64 = l
            .iter_mut()
            .map(|x| {
                *x = (*x - mx).exp();
                *x
            })
            .sum();
        l.iter_mut().for_each(|x| *x /= sum);
    };
    // Loss, top-1 and top-8 (the narrowest width the tree searches).
    let pol_stats = |w: &[f64], held: bool| -> (f64, f64, f64, usize) {
        let (mut l, mut top, mut top8, mut m) = (0.0, 0usize, 0usize, 0usize);
        for s in pols.iter().filter(|s| s.held == held) {
            let mut p = pol_logits(w, s);
            let rank = p.iter().filter(|&&x| x > p[s.target]).count();
            softmax(&mut p);
            l -= p[s.target].max(1e-12).ln();
            top += (rank == 0) as usize;
            top8 += (rank < 8) as usize;
            m += 1;
        }
        let m1 = m.max(1) as f64;
        (l / m1, top as f64 / m1, top8 as f64 / m1, m)
    };
    let mut pw = pprior.clone();
    let ptrain = pols.iter().filter(|s| !s.held).count().max(1) as f64;
    let mut adam = Adam::new(np, 0.05);
    let pfrozen = vec![false; np];
    for it in 0..iters {
        let mut g = vec![0.0; np];
        for s in pols.iter().filter(|s| !s.held) {
            let mut p = pol_logits(&pw, s);
            softmax(&mut p);
            for (j, &(a, d)) in s.cands.iter().enumerate() {
                let e = p[j] - if j == s.target { 1.0 } else { 0.0 };
                g[a as usize] += e;
                if d != NONE {
                    g[d as usize] += e;
                }
            }
        }
        for i in 0..np {
            g[i] = g[i] / ptrain + 2.0 * lambda * (pw[i] - pprior[i]);
        }
        adam.step(&mut pw, &g, &pfrozen);
        if it % 100 == 0 || it + 1 == iters {
            let (l, t, _, _) = pol_stats(&pw, true);
            eprintln!(
                "ordering iter {it}: held-out loss {l:.4}, top-1 {:.1}%",
                t * 100.0
            );
        }
    }
    let (hl0, ht0, h80, hm) = pol_stats(&pprior, true);
    let (hl1, ht1, h81, _) = pol_stats(&pw, true);
    eprintln!(
        "ordering held-out ({hm} positions): hand-made loss {hl0:.4} top-1 {:.1}% top-8 {:.1}%, learned loss {hl1:.4} top-1 {:.1}% top-8 {:.1}%",
        ht0 * 100.0,
        h80 * 100.0,
        ht1 * 100.0,
        h81 * 100.0
    );

    let Some(out) = out else { return };
    let mut raw = Raw {
        bias: [0; 2],
        values: [vec![[0; 4]; n], vec![[0; 4]; n]],
    };
    for c in 0..2 {
        let cc = if tie { 0 } else { c };
        raw.bias[c] = (w[4 * n + c] * EVAL_SCALE).round() as i32;
        for kk in 0..n {
            let (a, d) = if learned_order {
                (
                    (pw[cc * n + kk] * POLICY_SCALE).round() as i32,
                    (pw[2 * n + cc * n + kk] * POLICY_SCALE).round() as i32,
                )
            } else {
                // The hand-made score: level bonus plus shape values,
                // defence at nine tenths.
                let s = classes[kk].map(shape_of_digit);
                let a = level_value(level(s)) + hand_shape[kk];
                (a, a * 9 / 10)
            };
            raw.values[c][kk] = [
                (w[cc * n + kk] * EVAL_SCALE).round() as i32,
                (w[2 * n + cc * n + kk] * EVAL_SCALE).round() as i32,
                a,
                d,
            ];
        }
    }
    let header = format!(
        "tengen gomoku pattern table, rule {} (src/learned.rs)\n\
         fitted by examples/pattern_fit.rs on {games} games ({}), {} evaluation and {} ordering samples\n\
         iters {iters}, lambda {lambda}, score scale K {k}, colours {}, ordering values {}\n\
         held-out evaluation loss: hand-made {hp:.4}, learned {hl:.4}\n\
         held-out ordering top-1 / top-8: hand-made {:.1}% / {:.1}%, learned {:.1}% / {:.1}%\n\
         per line: colour, the class's four shape digits, S T (1/{EVAL_SCALE} logit), A D (1/{POLICY_SCALE} logit)",
        rule.name(),
        data,
        evals.len(),
        pols.len(),
        if tie { "tied" } else { "apart" },
        if learned_order { "fitted" } else { "hand-made" },
        ht0 * 100.0,
        h80 * 100.0,
        ht1 * 100.0,
        h81 * 100.0
    );
    fs::write(&out, raw.write(&header)).expect("write --out");
    eprintln!("wrote {out}");
}
