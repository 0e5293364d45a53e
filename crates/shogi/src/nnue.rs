//! Shogi's network evaluation through the shared crate `tengen-nnue`
//! (feature set [`Shogi`]: own/enemy x 14 kinds x 81 squares, mirrored
//! by the perspective's king, and a thermometer of each side's hand).
//!
//! The current network is process-wide ([`load_eval_file`],
//! [`set_network`]); each [`crate::SearchEval`] takes the network current
//! when it is made (the engine makes one per search). The built-in
//! network, embedded in the binary, is current until `EvalFile` says
//! otherwise: a residual network (the hand-made evaluation plus the
//! network's correction) with wide (i16) output weights, `8ab3b86b`:
//! the earlier built-in `984aab0f` (converted exactly from the file
//! shogi's own implementation read before it moved onto the shared crate,
//! `examples/nnue_convert.rs`, `docs/shogi.md`) trained further by
//! `tengen-train --init` on Fairy-Stockfish-scored self-play positions
//! (`docs/nnue.md`, "Twenty-third session"; `70b02772` and `9458a5be`,
//! built in before it, were the same on fewer positions).

use crate::board::Board;
use crate::types::{Color, Kind, Move, Square};
use std::sync::Arc;
use tengen_nnue::accumulator::Change;
use tengen_nnue::features::{FeatureSet, Shogi};
use tengen_nnue::network::{Network, DEFAULT_SCALE, QB_WIDE};
use tengen_nnue::slot::Slot;

/// The built-in network's file.
pub const BUILTIN_NET: &[u8] = include_bytes!("../nets/shogi-residual-h256-8ab3b86b.nnue");

static CURRENT: Slot<Shogi> = Slot::with_builtin(BUILTIN_NET);

/// The network new evaluators use, if any.
pub fn current_network() -> Option<Arc<Network>> {
    CURRENT.get()
}

/// Makes `net` the network new evaluators use (`None`: the hand-made
/// evaluation).
pub fn set_network(net: Option<Network>) {
    CURRENT.set(net);
}

/// Loads a network file for shogi and makes it current; `<default>` is
/// the built-in network, an empty path or `<empty>`/`none` the hand-made
/// evaluation. A file that is not a shogi network of this build's feature
/// set (another game's, another shape, damaged) is refused with the
/// reason, and the current evaluation stays. Returns a line to show.
pub fn load_eval_file(path: &str) -> Result<String, String> {
    CURRENT.load(path)
}

/// The piece code of `kind` of `color` (`colour * 16 + kind`).
#[inline]
fn code(color: Color, kind: Kind) -> u8 {
    (color.index() << Shogi::COLOUR_SHIFT | kind.index()) as u8
}

/// The position's pieces as `(square, code)`: the board's, then each
/// piece in hand as its pseudo-square ([`Shogi::hand_square`]). The very
/// list a training record holds (`tengen_nnue::data`, written by `tengen
/// datagen --game shogi`), so `tengen-train` sums the inputs the search
/// sums.
pub fn pieces(b: &Board, out: &mut Vec<(u8, u8)>) {
    for sq in Square::all() {
        if let Some(p) = b.piece_at(sq) {
            out.push((sq.index() as u8, code(p.color(), p.kind())));
        }
    }
    for c in Color::BOTH {
        for (h, &n) in b.hand(c).iter().enumerate() {
            for k in 0..usize::from(n) {
                if let Some(s) = Shogi::hand_square(h, k) {
                    out.push((s, code(c, Kind::HAND[h])));
                }
            }
        }
    }
}

/// The kings' squares by colour, [`Shogi::NO_KING`] for a side without.
#[inline]
pub fn kings(b: &Board) -> [u8; 2] {
    [Color::Black, Color::White].map(|c| b.king(c).map_or(Shogi::NO_KING, |k| k.index() as u8))
}

/// What `m` changes on `b` (before it is made), and the kings' squares
/// after it. A capture is four changes: the mover leaves and arrives
/// (promoted or not), the captured piece leaves the board and joins the
/// hand as its next thermometer input.
pub fn change(b: &Board, m: Move) -> (Change, [u8; 2]) {
    let mut c = Change::default();
    let mut k = kings(b);
    let us = b.side_to_move();
    match m.from() {
        Some(from) => {
            let Some(p) = b.piece_at(from) else {
                return (c, k);
            };
            let after = if m.is_promotion() {
                p.kind().promote()
            } else {
                p.kind()
            };
            c.remove(from.index() as u8, code(us, p.kind()));
            if let Some(victim) = b.piece_at(m.to()) {
                c.remove(m.to().index() as u8, code(victim.color(), victim.kind()));
                let h = victim.kind().unpromote();
                let n = usize::from(b.hand_count(us, h));
                if let Some(s) = Shogi::hand_square(h.index(), n) {
                    c.add(s, code(us, h));
                }
            }
            c.add(m.to().index() as u8, code(us, after));
            if p.kind() == Kind::King {
                k[us.index()] = m.to().index() as u8;
            }
        }
        None => {
            if let Some(kind) = m.drop_kind() {
                let n = usize::from(b.hand_count(us, kind));
                if let Some(s) = n
                    .checked_sub(1)
                    .and_then(|n| Shogi::hand_square(kind.index(), n))
                {
                    c.remove(s, code(us, kind));
                }
                c.add(m.to().index() as u8, code(us, kind));
            }
        }
    }
    (c, k)
}

/// `net`'s output alone for `b`, from the side to move's view, computed
/// from scratch (tools; the search keeps its sums incrementally).
pub fn evaluate(net: &Arc<Network>, b: &Board) -> i32 {
    let mut acc = tengen_nnue::accumulator::Accumulators::<Shogi>::new(Arc::clone(net));
    let mut v = Vec::with_capacity(40);
    pieces(b, &mut v);
    acc.evaluate_fresh(b.side_to_move().index(), &v)
}

/// Reads a network in the file format of shogi's own implementation
/// before it moved onto `tengen-nnue` (magic `TGSNNUE3`: bucket count,
/// hidden size, scale and flags as u32, an 81-byte king-bucket table, i16
/// transformer weights and biases, i16 output weights, an i32 output
/// bias; QA 255, QB 1024) and returns the same network in the shared
/// format: feature set [`Shogi`], wide output. Only one king bucket and
/// no king-relative inputs have a shared equivalent; other files are
/// refused with the reason.
pub fn convert_tgsnnue3(bytes: &[u8]) -> Result<Network, String> {
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| format!("the file ends early (at byte {at})"))?;
        let s = &bytes[at..end];
        at = end;
        Ok(s)
    };
    if take(8)? != b"TGSNNUE3" {
        return Err("not a TGSNNUE3 shogi network (bad magic)".into());
    }
    let mut u32s = [0u32; 4];
    for v in &mut u32s {
        let b = take(4)?;
        *v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    let [buckets, hidden, scale, flags] = u32s;
    let hidden = hidden as usize;
    if buckets != 1 {
        return Err(format!(
            "{buckets} king buckets; the shared feature set has one"
        ));
    }
    if flags & !1 != 0 {
        return Err(format!(
            "flags {flags:#x}: only the residual flag (1) has a shared equivalent"
        ));
    }
    if take(81)?.iter().any(|&b| b != 0) {
        return Err("the king-bucket table names a bucket past the count".into());
    }
    let i16s = |b: &[u8]| -> Vec<i16> {
        b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let ft_w = i16s(take(Shogi::INPUTS * hidden * 2)?);
    let ft_b = i16s(take(hidden * 2)?);
    let out_w_wide = i16s(take(2 * hidden * 2)?);
    let b = take(4)?;
    let out_b = vec![i32::from_le_bytes([b[0], b[1], b[2], b[3]])];
    if at != bytes.len() {
        return Err(format!("{} bytes past the network", bytes.len() - at));
    }
    let net = Network {
        game: Shogi::GAME,
        feature_set: Shogi::ID,
        inputs: Shogi::INPUTS,
        hidden,
        buckets: Shogi::OUTPUT_BUCKETS,
        scale,
        residual: flags & 1 != 0,
        wide: true,
        ft_w,
        ft_b,
        out_w: Vec::new(),
        out_w_wide,
        out_b,
    };
    // The shared loader's checks (sizes, weight bounds, quantisation).
    Network::from_bytes::<Shogi>(&net.to_bytes())
}

/// A small random shogi network with wide output weights, for tests of
/// the incremental updates (no trained network is needed for them).
pub fn random_network(hidden: usize, seed: u64) -> Network {
    let mut net = Network::random::<Shogi>(hidden, seed);
    net.wide = true;
    net.out_w_wide = net.out_w.iter().map(|&w| i16::from(w) * 5).collect();
    net.out_w.clear();
    net.scale = DEFAULT_SCALE;
    debug_assert_eq!(QB_WIDE, 1024);
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::Gen;
    use tengen_nnue::accumulator::Accumulators;
    use tengen_search::Evaluator;

    fn fresh(net: &Arc<Network>, b: &Board) -> i32 {
        evaluate(net, b)
    }

    /// Positions along a few pseudo-random games from the bench
    /// positions: drops, captures into hand, promotions, king moves on
    /// both sides of the centre file.
    fn sample_positions() -> Vec<Board> {
        let mut out = Vec::new();
        let mut seed = 12_345u64;
        for sfen in crate::BENCH_FENS {
            let mut b = Board::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            for _ in 0..60 {
                out.push(b.clone());
                let mut moves = Vec::new();
                b.generate(Gen::All, &mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                b.do_move(m);
            }
        }
        out
    }

    /// FNV-1a over the values' little-endian bytes.
    fn fnv(values: &[i32]) -> u64 {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        tengen_nnue::network::checksum(&bytes)
    }

    /// The built-in network is `8ab3b86b` and is current until told
    /// otherwise (no test of this crate changes the global).
    #[test]
    fn the_builtin_network_loads_and_is_the_default() {
        let net = Network::from_bytes::<Shogi>(BUILTIN_NET).unwrap_or_else(|e| panic!("{e}"));
        assert!(net.residual && net.wide);
        assert_eq!((net.hidden, net.id()), (256, 0x8ab3_b86b));
        assert_eq!(current_network().map(|n| n.id()), Some(0x8ab3_b86b));
    }

    /// The converted network `984aab0f` (built in until the twentieth
    /// session, kept beside the current one) evaluates 480 positions
    /// exactly as shogi's own implementation evaluated its `TGSNNUE3`
    /// original: the values below are what that implementation gave (the
    /// test `the_converted_network_evaluates_as_the_old_one` of commit
    /// `d1636dca` compared the two position by position before the old
    /// code was deleted).
    #[test]
    fn the_converted_network_evaluates_as_the_old_implementation_did() {
        const CONVERTED: &[u8] = include_bytes!("../nets/shogi-residual-h256-984aab0f.nnue");
        let net =
            Arc::new(Network::from_bytes::<Shogi>(CONVERTED).unwrap_or_else(|e| panic!("{e}")));
        assert!(net.residual && net.wide && net.hidden == 256);
        assert_eq!(net.id(), 0x984a_ab0f);
        let evals: Vec<i32> = sample_positions().iter().map(|b| fresh(&net, b)).collect();
        assert_eq!(evals.len(), 480);
        assert_eq!(fnv(&evals), 0xd3f5_0e06_1a23_ac2d);
        let bench: Vec<i32> = crate::BENCH_FENS
            .iter()
            .map(|s| fresh(&net, &Board::from_sfen(s).unwrap_or_else(|e| panic!("{e}"))))
            .collect();
        assert_eq!(bench, [54, -33, 250, 1553, 429, 258, 273, 581]);
    }

    /// A `TGSNNUE3` file in the old layout, with small made-up weights.
    fn tgsnnue3(hidden: usize, buckets: u32, flags: u32) -> (Vec<u8>, Vec<i16>) {
        let mut b = b"TGSNNUE3".to_vec();
        for v in [buckets, hidden as u32, 1388, flags] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&[0u8; 81]);
        let n = Shogi::INPUTS * hidden + hidden + 2 * hidden;
        let w: Vec<i16> = (0..n).map(|i| (i * 7 % 61) as i16 - 30).collect();
        for x in &w {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&(-182i32).to_le_bytes());
        (b, w)
    }

    /// The converter keeps every weight in place, and refuses what the
    /// shared feature set cannot express.
    #[test]
    fn the_converter_keeps_every_weight_and_refuses_other_shapes() {
        let h = 16;
        let (bytes, w) = tgsnnue3(h, 1, 1);
        let net = convert_tgsnnue3(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let n = Shogi::INPUTS * h;
        assert_eq!(net.ft_w, w[..n]);
        assert_eq!(net.ft_b, w[n..n + h]);
        assert_eq!(net.out_w_wide, w[n + h..]);
        assert_eq!(net.out_b, [-182]);
        assert!(net.residual && net.wide);
        assert_eq!((net.hidden, net.scale, net.buckets), (h, 1388, 1));
        let refused = |b: &[u8]| convert_tgsnnue3(b).err().unwrap_or_default();
        assert!(refused(&tgsnnue3(h, 3, 1).0).contains("3 king buckets"));
        assert!(refused(&tgsnnue3(h, 1, 3).0).contains("flags 0x3"));
        assert!(refused(&bytes[..bytes.len() - 1]).contains("ends early"));
        assert!(refused(b"TGNNUEv1 and more").contains("bad magic"));
        let mut long = bytes.clone();
        long.push(0);
        assert!(refused(&long).contains("1 bytes past"));
    }

    fn builtin() -> Arc<Network> {
        Arc::new(Network::from_bytes::<Shogi>(BUILTIN_NET).unwrap_or_else(|e| panic!("{e}")))
    }

    /// Tokens of one SFEN rank: `+X`, a letter or an empty run.
    fn rank_tokens(rank: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut plus = false;
        for ch in rank.chars() {
            if ch == '+' {
                plus = true;
                continue;
            }
            out.push(if plus {
                format!("+{ch}")
            } else {
                ch.to_string()
            });
            plus = false;
        }
        out
    }

    fn swap_case(s: &str) -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    }

    /// The position mirrored left-right (`rotate`: also rotated 180 degrees
    /// with colours, hands and the side to move swapped).
    fn transform(sfen: &str, rotate: bool) -> Board {
        let parts: Vec<&str> = sfen.split(' ').collect();
        let mut ranks: Vec<String> = parts[0]
            .split('/')
            .map(|r| rank_tokens(r).into_iter().rev().collect::<String>())
            .collect();
        let (mut side, mut hand) = (parts[1].to_string(), parts[2].to_string());
        if rotate {
            ranks.reverse();
            ranks = ranks.iter().map(|r| swap_case(r)).collect();
            side = if side == "b" { "w".into() } else { "b".into() };
            if hand != "-" {
                hand = swap_case(&hand);
            }
        }
        let text = format!("{} {} {} 1", ranks.join("/"), side, hand);
        Board::from_sfen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    const SAMPLES: [&str; 4] = [
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "ln1g1gsnl/1r1s1k1b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1BK1S2R1/LNSG1G1NL b - 11",
        "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
    ];

    #[test]
    fn colour_swapped_positions_evaluate_the_same() {
        // Rotating the board and swapping the colours leaves each side's
        // view unchanged.
        for net in [builtin(), Arc::new(random_network(32, 9))] {
            for s in SAMPLES {
                let a = Board::from_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}"));
                let rotated = transform(s, true);
                let mirrored_and_rotated = transform(&rotated.to_sfen(), false);
                assert_eq!(fresh(&net, &a), fresh(&net, &rotated), "{s}");
                let central = Color::BOTH
                    .iter()
                    .any(|&c| a.king(c).is_some_and(|k| k.index() % 9 == 4));
                if !central {
                    assert_eq!(fresh(&net, &a), fresh(&net, &mirrored_and_rotated), "{s}");
                }
            }
        }
    }

    #[test]
    fn left_right_mirror_evaluates_the_same_unless_a_king_is_central() {
        // Inputs are mirrored by each king's file, so a mirrored position
        // has the same inputs when neither king is on the centre file.
        for net in [builtin(), Arc::new(random_network(32, 9))] {
            for s in SAMPLES {
                let a = Board::from_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}"));
                let central = Color::BOTH
                    .iter()
                    .any(|&c| a.king(c).is_some_and(|k| k.index() % 9 == 4));
                let b = transform(s, false);
                if !central {
                    assert_eq!(fresh(&net, &a), fresh(&net, &b), "{s}");
                }
            }
        }
    }

    /// Incremental sums along every move two plies deep (and a null move)
    /// equal a fresh evaluation, with the built-in network and a random
    /// one, at every SIMD level.
    #[test]
    fn incremental_evaluation_equals_a_fresh_one_on_every_move() {
        let builtin = Network::from_bytes::<Shogi>(BUILTIN_NET).unwrap_or_else(|e| panic!("{e}"));
        for net in [Arc::new(builtin), Arc::new(random_network(32, 7))] {
            for level in tengen_nnue::simd::available() {
                for sfen in [
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                    "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
                    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 124",
                    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
                ] {
                    let mut b = Board::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                    let mut acc = Accumulators::<Shogi>::with_level(Arc::clone(&net), level);
                    let mut v = Vec::new();
                    pieces(&b, &mut v);
                    acc.reset(&v);
                    let stm = |b: &Board| b.side_to_move().index();
                    let eval = |acc: &mut Accumulators<Shogi>, b: &Board| {
                        acc.evaluate(stm(b), &mut |v| pieces(b, v))
                    };
                    assert_eq!(eval(&mut acc, &b), fresh(&net, &b));
                    let mut moves = Vec::new();
                    b.generate(Gen::All, &mut moves);
                    for (i, &m) in moves.iter().enumerate() {
                        let (c, k) = change(&b, m);
                        acc.push(c, k);
                        let cap = b.do_move(m);
                        if i % 3 != 0 {
                            assert_eq!(eval(&mut acc, &b), fresh(&net, &b), "{sfen} {m}");
                        }
                        let mut replies = Vec::new();
                        b.generate(Gen::All, &mut replies);
                        for &r in replies.iter().step_by(5) {
                            let (c, k) = change(&b, r);
                            acc.push(c, k);
                            let cap2 = b.do_move(r);
                            assert_eq!(eval(&mut acc, &b), fresh(&net, &b), "{sfen} {m} {r}");
                            b.undo_move(r, cap2);
                            acc.pop();
                        }
                        acc.push_null();
                        b.do_null();
                        assert_eq!(eval(&mut acc, &b), fresh(&net, &b));
                        b.do_null();
                        acc.pop();
                        b.undo_move(m, cap);
                        acc.pop();
                        assert_eq!(eval(&mut acc, &b), fresh(&net, &b));
                    }
                }
            }
        }
    }

    /// The search's evaluator adds the hand-made evaluation to a residual
    /// network's output, and is the hand-made evaluation alone without.
    #[test]
    fn the_search_evaluation_is_the_hand_made_one_plus_the_residual() {
        let game =
            crate::Game::from_usi(crate::BENCH_FENS[1], &[]).unwrap_or_else(|e| panic!("{e}"));
        let b = game.board();
        let net = current_network().unwrap_or_else(|| panic!("no built-in network"));
        // A static evaluation of a fresh evaluator (no reset) and one
        // after a reset to the position agree.
        let mut fresh_eval = crate::SearchEval::with_network(Some(Arc::clone(&net)));
        let unrooted = fresh_eval.evaluate(&game);
        let mut with = crate::SearchEval::with_network(Some(Arc::clone(&net)));
        with.reset(&game);
        assert_eq!(with.evaluate(&game), unrooted);
        let mut hand = crate::SearchEval::hand_made();
        hand.reset(&game);
        assert_eq!(with.evaluate(&game) - hand.evaluate(&game), fresh(&net, b));
    }
}
