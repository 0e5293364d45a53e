//! Monte-Carlo playouts: capture and atari escape near the last move,
//! 3x3 patterns next to it, then random moves that neither fill an own
//! eye nor put a group in self-atari.

use crate::board::{Board, Cell, Color, Move, Point, POINTS};
use crate::{features, gammas, patterns, reading};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Ataris a ladder followed in a playout may take.
pub const LADDER_STEPS: usize = 60;

/// Whether playouts refuse atari escapes that a ladder captures (GTP
/// `tengen-playout_ladders on|off`). Process-wide: it changes how every
/// search plays out positions, like a compile-time policy switch.
pub static PLAYOUT_LADDERS: AtomicBool = AtomicBool::new(true);

/// Whether playouts answer two-liberty fights next to the last move
/// (GTP `tengen-playout_twolibs on|off`): extend an own chain left with
/// two liberties to three or more, and atari an opponent's chain of two
/// liberties that cannot then escape. Off until games show it pays.
pub static PLAYOUT_TWO_LIBS: AtomicBool = AtomicBool::new(false);

/// Whether playouts may fill an opponent's eye space with a self-atari
/// that leaves it one eye (GTP `tengen-playout_nakade on|off`; see
/// `is_nakade_fill`). Off until games show it pays.
pub static PLAYOUT_NAKADE: AtomicBool = AtomicBool::new(false);

/// Whether playouts choose the move next to the last one by the learned
/// strength of its 3x3 shape (the `shape3` values of the embedded move
/// table, `gammas.rs`) instead of uniformly among the MoGo patterns (GTP
/// `tengen-playout_gammas on|off`): a point whose shape is at least
/// `SHAPE_FLOOR` is a candidate, chosen in proportion to its strength.
/// Boards whose table has no shapes (19x19 for now) keep the MoGo
/// patterns. Off until games show it pays.
pub static PLAYOUT_GAMMAS: AtomicBool = AtomicBool::new(false);

/// The least learned shape strength of a local playout move: 1 is a
/// shape the fit found neither better nor worse than its absence.
const SHAPE_FLOOR: f32 = 1.0;

/// For each mover, each ring code's learned 3x3 shape strength on a board
/// whose short side is `size`, 0 below `SHAPE_FLOOR`; `None` when the
/// table there has no shapes.
fn shape_weights(size: usize) -> Option<&'static [Vec<f32>; 2]> {
    static SMALL: OnceLock<Option<[Vec<f32>; 2]>> = OnceLock::new();
    static BIG: OnceLock<Option<[Vec<f32>; 2]>> = OnceLock::new();
    let cell = if size >= gammas::BIG_BOARD {
        &BIG
    } else {
        &SMALL
    };
    cell.get_or_init(|| {
        let table = gammas::table(size);
        let weights = |c: Color| -> Vec<f32> {
            (0..1usize << 16)
                .map(|code| {
                    let g = table.value(features::SHAPE3, features::shape3_of(c, code));
                    if g >= SHAPE_FLOOR {
                        g
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        let w = [weights(Color::Black), weights(Color::White)];
        // A table without shapes says 1 for every code.
        w[0].iter().any(|&g| g != 1.0).then_some(w)
    })
    .as_ref()
}

/// xorshift64*: fast, good enough for playouts, seedable for tests.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Result of one playout.
pub struct Outcome {
    /// Black's area minus White's, before komi.
    pub black_margin: f64,
    /// For AMAF: the colour that first played each point (0 none, 1 black,
    /// 2 white), from the start of the playout.
    pub first_play: Vec<u8>,
    /// Final owner of each point (1 black, 2 white, 0 neither).
    pub owner: Vec<u8>,
}

/// Whether `m` by `c` is a sensible playout/tree move: legal, not filling
/// an own eye, and not a self-atari of more than one stone (a one-stone
/// throw-in is often the right move).
pub fn is_reasonable(b: &Board, c: Color, p: Point) -> bool {
    reasonable_with(b, c, p, PLAYOUT_NAKADE.load(Ordering::Relaxed))
}

/// `is_reasonable`, with nakade fills allowed or not.
fn reasonable_with(b: &Board, c: Color, p: Point, nakade: bool) -> bool {
    if b.cell(p) != Cell::Empty || !b.is_legal(c, Move::Play(p)) || b.is_eyeish(c, p) {
        return false;
    }
    !is_bad_playout_self_atari(b, c, p, nakade)
}

/// `is_bad_self_atari`, less the nakade fills when `nakade` allows them.
fn is_bad_playout_self_atari(b: &Board, c: Color, p: Point, nakade: bool) -> bool {
    is_bad_self_atari(b, c, p) && !(nakade && is_nakade_fill(b, c, p))
}

/// Whether `c` at `p` (legal, and a self-atari of two or more stones)
/// fills an eye space of the opponent's: the chain it makes holds at most
/// three stones, and the chain and its one liberty touch nothing but
/// each other, the opponent's stones and the edge. Captured, such a
/// chain leaves a space of at most three points, one eye, where the
/// attacker can play again: the light playouts' way of killing a group
/// with a big eye (without it the attacker never plays the second stone
/// of such a fill, and the group dies only by its own random fills).
pub fn is_nakade_fill(b: &Board, c: Color, p: Point) -> bool {
    // The chain the move makes: `p` and the own chains next to it.
    let mut chain = [p; 3];
    let mut size = 1;
    let mut joined = [u16::MAX; 4];
    for (k, n) in b.neighbors(p).into_iter().enumerate() {
        if b.cell(n).color() != Some(c) || joined[..k].contains(&b.chain_id(n)) {
            continue;
        }
        joined[k] = b.chain_id(n);
        for s in b.stones_of(n) {
            if size == chain.len() {
                return false;
            }
            chain[size] = s;
            size += 1;
        }
    }
    if size < 2 {
        return false;
    }
    let chain = &chain[..size];
    let inside = |q: Point| chain.contains(&q);
    let mut liberty = None;
    for &s in chain {
        for n in b.neighbors(s) {
            if inside(n) {
                continue;
            }
            match b.cell(n) {
                Cell::Empty => match liberty {
                    None => liberty = Some(n),
                    Some(l) if l == n => {}
                    Some(_) => return false,
                },
                Cell::Edge => {}
                cell if cell == c.opp().cell() => {}
                _ => return false,
            }
        }
    }
    let Some(l) = liberty else {
        return false;
    };
    b.neighbors(l)
        .iter()
        .all(|&n| inside(n) || matches!(b.cell(n), Cell::Edge) || b.cell(n) == c.opp().cell())
}

/// A move leaving its own chain of two or more stones with one liberty.
pub fn is_bad_self_atari(b: &Board, c: Color, p: Point) -> bool {
    if b.libs_after(c, p, 2) >= 2 {
        return false;
    }
    // One liberty: fine only for a lone stone (throw-in / snapback tries).
    b.neighbors(p).iter().any(|&n| b.cell(n).color() == Some(c))
}

/// A heuristic move near the last move, or `None`.
fn local_move(b: &mut Board, c: Color, rng: &mut Rng, buf: &mut Vec<Point>) -> Option<Point> {
    let last = match b.last_move() {
        Some(Move::Play(p)) => p,
        _ => return None,
    };
    buf.clear();
    // 1. Capture: the last-moved chain or its neighbours, in atari.
    let nb = b.neighbors(last);
    for q in [last, nb[0], nb[1], nb[2], nb[3]] {
        if b.cell(q).color() == Some(c.opp()) {
            if let Some(lib) = b.atari_liberty(q) {
                if b.is_legal(c, Move::Play(lib)) && !buf.contains(&lib) {
                    buf.push(lib);
                }
            }
        }
    }
    // 2. Atari escape: own chains next to the last move in atari.
    for n in b.neighbors(last) {
        if b.cell(n).color() == Some(c) {
            if let Some(lib) = b.atari_liberty(n) {
                // Extend to three liberties, or to two that do not run
                // into a ladder.
                let libs = b.libs_after(c, lib, 3);
                if libs >= 2
                    && b.is_legal(c, Move::Play(lib))
                    && (libs >= 3
                        || !PLAYOUT_LADDERS.load(Ordering::Relaxed)
                        || !reading::escape_fails_in(b, c, lib, LADDER_STEPS))
                {
                    buf.push(lib);
                }
                // Or capture a neighbour that holds it in atari.
                for s in b.chain_stones(n) {
                    for t in b.neighbors(s) {
                        if b.cell(t).color() == Some(c.opp()) {
                            if let Some(l2) = b.atari_liberty(t) {
                                if b.is_legal(c, Move::Play(l2)) {
                                    buf.push(l2);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if !buf.is_empty() {
        return Some(buf[rng.below(buf.len())]);
    }
    // 3. Two-liberty fights next to the last move.
    if PLAYOUT_TWO_LIBS.load(Ordering::Relaxed) {
        two_liberty_moves(b, c, last, buf);
        if !buf.is_empty() {
            return Some(buf[rng.below(buf.len())]);
        }
    }
    // 4. Patterns around the last move: learned shapes by strength, or
    // the MoGo shapes uniformly.
    if PLAYOUT_GAMMAS.load(Ordering::Relaxed) {
        if let Some(weights) = shape_weights(b.short_side()) {
            return weighted_shape_move(b, c, last, &weights[c.index()], rng);
        }
    }
    for q in last.ring() {
        if b.cell(q) == Cell::Empty && patterns::matches(b.ring_code(q)) && is_reasonable(b, c, q) {
            buf.push(q);
        }
    }
    if !buf.is_empty() {
        return Some(buf[rng.below(buf.len())]);
    }
    None
}

/// A point next to `last` for `c` whose shape weight (`shape_weights`) is
/// positive, drawn in proportion to it; `None` when there is none.
fn weighted_shape_move(
    b: &Board,
    c: Color,
    last: Point,
    weights: &[f32],
    rng: &mut Rng,
) -> Option<Point> {
    let mut picks = [(last, 0.0f32); 8];
    let mut n = 0;
    let mut sum = 0.0f32;
    for q in last.ring() {
        if b.cell(q) != Cell::Empty {
            continue;
        }
        let w = weights.get(b.ring_code(q)).copied().unwrap_or(0.0);
        if w > 0.0 && is_reasonable(b, c, q) {
            picks[n] = (q, w);
            n += 1;
            sum += w;
        }
    }
    let mut r = rng.unit() as f32 * sum;
    for &(q, w) in &picks[..n] {
        if r < w {
            return Some(q);
        }
        r -= w;
    }
    // Rounding left `r` at the end: the last candidate.
    picks[..n].last().map(|&(q, _)| q)
}

/// Moves of a two-liberty fight at or next to `last` for `c`, into
/// `buf`: an extension of an own chain left with two liberties that
/// reaches three or more, and an atari on an opponent's chain of two
/// liberties that then cannot escape (`reading::atari_traps_in`).
fn two_liberty_moves(b: &mut Board, c: Color, last: Point, buf: &mut Vec<Point>) {
    let nb = b.neighbors(last);
    let mut seen = [u16::MAX; 5];
    for (k, q) in [last, nb[0], nb[1], nb[2], nb[3]].into_iter().enumerate() {
        let Some(owner) = b.cell(q).color() else {
            continue;
        };
        // Each chain once, however many of the points it holds.
        let id = b.chain_id(q);
        if seen[..k].contains(&id) {
            continue;
        }
        seen[k] = id;
        let Some(libs) = b.two_liberties(q) else {
            continue;
        };
        for (i, &l) in libs.iter().enumerate() {
            if buf.contains(&l) {
                continue;
            }
            let good = if owner == c {
                b.libs_after(c, l, 3) >= 3 && b.is_legal(c, Move::Play(l))
            } else {
                b.libs_after(c, l, 2) >= 2 && reading::atari_traps_in(b, c, l, libs[1 - i])
            };
            if good {
                buf.push(l);
            }
        }
    }
}

/// A uniformly random reasonable move, or `None` when there is none.
fn random_move(b: &Board, c: Color, rng: &mut Rng) -> Option<Point> {
    let n = b.empties().len();
    if n == 0 {
        return None;
    }
    let start = rng.below(n);
    for i in 0..n {
        let p = b.empty_point((start + i) % n);
        if is_reasonable(b, c, p) {
            return Some(p);
        }
    }
    None
}

/// The playout policy's move for `c`. `b` comes back as it was (the
/// ladder follower plays and takes back its moves on it).
pub fn policy_move(b: &mut Board, c: Color, rng: &mut Rng, buf: &mut Vec<Point>) -> Move {
    // The heuristics are skipped now and then so play stays varied.
    if rng.below(16) != 0 {
        if let Some(p) = local_move(b, c, rng, buf) {
            if !is_bad_playout_self_atari(b, c, p, PLAYOUT_NAKADE.load(Ordering::Relaxed)) {
                return Move::Play(p);
            }
        }
    }
    match random_move(b, c, rng) {
        Some(p) => Move::Play(p),
        None => Move::Pass,
    }
}

/// Plays `board` out from `to_move` until two passes (or a move cap).
pub fn playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut Rng,
    passes_before: u32,
) -> Outcome {
    let mut first_play = vec![0u8; POINTS];
    let mut passes = passes_before;
    let cap = board.area_points() * 3;
    let mut buf = Vec::with_capacity(16);
    for _ in 0..cap {
        let m = policy_move(board, to_move, rng, &mut buf);
        match m {
            Move::Pass => {
                passes += 1;
                if passes >= 2 {
                    break;
                }
            }
            Move::Play(p) => {
                passes = 0;
                if first_play[p.index()] == 0 {
                    first_play[p.index()] = 1 + to_move.index() as u8;
                }
            }
        }
        board.play(to_move, m);
        to_move = to_move.opp();
    }
    let mut owner = vec![0u8; POINTS];
    let mut margin = 0.0;
    for p in board.points() {
        match board.fast_owner(p) {
            Some(Color::Black) => {
                owner[p.index()] = 1;
                margin += 1.0;
            }
            Some(Color::White) => {
                owner[p.index()] = 2;
                margin -= 1.0;
            }
            None => {}
        }
    }
    Outcome {
        black_margin: margin,
        first_play,
        owner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_end_and_fill_the_board_sensibly() {
        let mut rng = Rng::new(7);
        for size in [2usize, 3, 5, 9, 19, 25] {
            for _ in 0..5 {
                let mut b = Board::new(size);
                let out = playout(&mut b, Color::Black, &mut rng, 0);
                assert!(out.black_margin.abs() <= (size * size) as f64);
                // Every remaining empty point is an eye of someone or dame;
                // no move is reasonable for either side at the end, unless
                // the move cap was hit.
                if size <= 9 {
                    let left = b
                        .points()
                        .filter(|&p| {
                            is_reasonable(&b, Color::Black, p) || is_reasonable(&b, Color::White, p)
                        })
                        .count();
                    assert!(left <= 2, "size {size}: {left} moves left");
                }
            }
        }
    }

    use crate::board::test_util::point_on;

    /// A 9x9 board with the stones played in order (the last one is the
    /// last move).
    fn board_after(moves: &[(Color, &str)]) -> Board {
        let mut b = Board::new(9);
        for &(c, v) in moves {
            let m = b.parse_move(v).expect("vertex");
            assert!(b.is_legal(c, m), "{v}");
            b.play(c, m);
        }
        b
    }

    fn points(b: &Board, vs: &[&str]) -> Vec<Point> {
        let mut v: Vec<Point> = vs.iter().map(|s| point_on(s, b)).collect();
        v.sort();
        v
    }

    fn two_liberty_answers(b: &mut Board, c: Color) -> Vec<Point> {
        let Some(Move::Play(last)) = b.last_move() else {
            panic!("no last move");
        };
        let mut buf = Vec::new();
        let before = b.hash();
        two_liberty_moves(b, c, last, &mut buf);
        assert_eq!(b.hash(), before, "the board comes back as it was");
        buf.sort();
        buf
    }

    #[test]
    fn two_liberty_fights_attack_what_cannot_escape_and_extend_own_chains() {
        use Color::{Black, White};
        // White's corner stone has two liberties; either atari captures
        // it, since the other liberty leads nowhere.
        let mut b = board_after(&[(Black, "B2"), (White, "A1")]);
        assert_eq!(
            two_liberty_answers(&mut b, Black),
            points(&b, &["A2", "B1"])
        );
        // In the open the extension reaches three liberties: no atari.
        let mut b = board_after(&[(Black, "D5"), (Black, "E4"), (White, "E5")]);
        assert!(two_liberty_answers(&mut b, Black).is_empty());
        // Black's stone left with two liberties by White's last move
        // extends either way to three or more.
        let mut b = board_after(&[(Black, "E5"), (White, "D5"), (White, "E4")]);
        assert_eq!(
            two_liberty_answers(&mut b, Black),
            points(&b, &["E6", "F5"])
        );
        // ... but not into a corner where the extension keeps two.
        let mut b = board_after(&[(Black, "A1"), (White, "C1"), (White, "B2")]);
        let got = two_liberty_answers(&mut b, Black);
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn learned_shapes_choose_around_the_last_move_by_strength() {
        use Color::{Black, White};
        // The 9x9 table has shapes; the 19x19 one none yet, and those
        // boards keep the MoGo patterns.
        let small = shape_weights(9).expect("the 9x9 table has shapes");
        assert_eq!(shape_weights(19).is_some(), !gammas::table(19).is_empty());
        for c in [Black, White] {
            let w = &small[c.index()];
            assert!(w.iter().all(|&g| g == 0.0 || g >= SHAPE_FLOOR));
            assert!(w.iter().any(|&g| g > 0.0));
        }
        // A fight in the middle: White's last move F5 next to E5.
        let b = board_after(&[(Black, "E5"), (White, "D5"), (Black, "E4"), (White, "F5")]);
        let last = points(&b, &["F5"])[0];
        let weights = &small[Black.index()];
        let expected: Vec<(Point, f32)> = last
            .ring()
            .into_iter()
            .filter(|&q| b.cell(q) == Cell::Empty && is_reasonable(&b, Black, q))
            .map(|q| (q, weights[b.ring_code(q)]))
            .filter(|&(_, w)| w > 0.0)
            .collect();
        assert!(expected.len() >= 2, "{expected:?}");
        let sum: f32 = expected.iter().map(|&(_, w)| w).sum();
        let mut rng = Rng::new(11);
        let draws = 20_000;
        let mut counts = vec![0usize; expected.len()];
        for _ in 0..draws {
            let q = weighted_shape_move(&b, Black, last, weights, &mut rng).expect("a candidate");
            let i = expected
                .iter()
                .position(|&(e, _)| e == q)
                .expect("only candidates");
            counts[i] += 1;
        }
        for (&(q, w), &n) in expected.iter().zip(&counts) {
            let share = n as f64 / draws as f64;
            let want = (w / sum) as f64;
            assert!((share - want).abs() < 0.02, "{q:?}: {share} against {want}");
        }
        // No candidate when no shape reaches the floor.
        assert_eq!(
            weighted_shape_move(&b, Black, last, &vec![0.0; 1 << 16], &mut rng),
            None
        );
    }

    #[test]
    fn nakade_fills_are_self_ataris_inside_the_opponents_eye_space() {
        use Color::{Black, White};
        // White's corner group has a three-point eye space A1 B1 C1 with
        // Black's stone on B1: Black at A1 or C1 is a self-atari of two
        // stones that fills the space (captured, it leaves two points).
        let wall = [
            (White, "A2"),
            (White, "B2"),
            (White, "C2"),
            (White, "D2"),
            (White, "D1"),
        ];
        let mut moves = wall.to_vec();
        moves.push((Black, "B1"));
        let b = board_after(&moves);
        for v in ["A1", "C1"] {
            let p = points(&b, &[v])[0];
            assert!(is_bad_self_atari(&b, Black, p), "{v}");
            assert!(is_nakade_fill(&b, Black, p), "{v}");
        }
        // Not when the space is open to the outside (E1 empty next to
        // the liberty), nor for a lone stone, nor for White filling its
        // own space.
        let open = board_after(&[(White, "A2"), (White, "B2"), (White, "C2"), (Black, "B1")]);
        let a1 = points(&open, &["A1"])[0];
        assert!(!is_nakade_fill(&open, Black, a1));
        assert!(!is_nakade_fill(&board_after(&wall), Black, a1));
        assert!(!is_nakade_fill(&b, White, points(&b, &["C1"])[0]));
        // The playouts take the fill only when asked.
        assert!(!reasonable_with(&b, Black, a1, false));
        assert!(reasonable_with(&b, Black, a1, true));
    }

    #[test]
    fn rectangular_games_stay_on_the_board() {
        // Whole games by the playout policy on rectangles both ways round:
        // every move on the board and legal, and each game ends in two passes.
        let mut rng = Rng::new(31);
        for (w, h) in [(19usize, 9usize), (9, 19), (13, 9), (2, 7)] {
            for _ in 0..4 {
                let mut b = Board::new_rect(w, h);
                let mut c = Color::Black;
                let mut passes = 0;
                let mut buf = Vec::new();
                for _ in 0..w * h * 3 {
                    let m = policy_move(&mut b, c, &mut rng, &mut buf);
                    match m {
                        Move::Play(p) => {
                            assert!(b.on_board(p), "{w}x{h}: {p:?}");
                            assert!(p.x() < w && p.y() < h);
                            assert!(b.is_legal(c, m));
                            passes = 0;
                        }
                        Move::Pass => passes += 1,
                    }
                    b.play(c, m);
                    c = c.opp();
                    if passes == 2 {
                        break;
                    }
                }
                assert_eq!(passes, 2, "{w}x{h}: the game ended");
                let a = b.area();
                assert!((a[0] + a[1]) as usize <= w * h);
                assert!(b.points().all(|p| b.on_board(p)));
                // And `playout` itself, from the empty board.
                let mut fresh = Board::new_rect(w, h);
                let out = playout(&mut fresh, Color::Black, &mut rng, 0);
                assert!(out.black_margin.abs() <= (w * h) as f64);
            }
        }
    }
}
