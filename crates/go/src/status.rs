//! Final status of the stones (alive, dead, seki) for `final_score`,
//! `final_status` and `final_status_list`.
//!
//! Dead stones come from the search's ownership statistics; seki is
//! recognised on the board itself, because ownership cannot tell a seki
//! from a group that simply lives (both keep their stones) and a search
//! that breaks a seki in some lines must not make its stones look dead.

use crate::board::{Board, Cell, Color, Point};
use crate::playout::is_bad_self_atari;

/// Average ownership (from the owner's side) below which a chain is dead.
/// Light playouts blur ownership (a dead stone sometimes lives when its
/// owner ignores it), hence a bar only a little below zero.
const DEAD_BELOW: f64 = -0.1;

/// The status of every stone on a board.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    /// Dead stones, sorted.
    pub dead: Vec<Point>,
    /// Stones alive in seki, sorted (never in `dead`).
    pub seki: Vec<Point>,
}

impl Status {
    /// Dead stones by ownership (`ownership[y * width + x]`, +1 black ..
    /// -1 white), except chains in seki, which are never dead.
    pub fn estimate(b: &Board, ownership: &[f64]) -> Status {
        let w = b.width();
        let own_at = |p: Point| ownership.get(p.y() * w + p.x()).copied().unwrap_or(0.0);
        let seki = seki_stones(b);
        let mut dead = Vec::new();
        for p in b.points() {
            let Some(c) = b.cell(p).color() else {
                continue;
            };
            if seki.binary_search(&p).is_ok() {
                continue;
            }
            let stones = b.chain_stones(p);
            let avg = stones.iter().map(|&q| own_at(q)).sum::<f64>() / stones.len() as f64;
            let for_owner = if c == Color::Black { avg } else { -avg };
            if for_owner < DEAD_BELOW {
                dead.push(p);
            }
        }
        Status { dead, seki }
    }

    pub fn is_dead(&self, p: Point) -> bool {
        self.dead.binary_search(&p).is_ok()
    }

    pub fn is_seki(&self, p: Point) -> bool {
        self.seki.binary_search(&p).is_ok()
    }
}

/// An empty point neither side can fill: touching stones of both colours,
/// and for each colour a move there is suicide or a self-atari after which
/// the opponent's capture makes it live. These are the shared liberties of
/// a seki.
fn is_mutual_self_atari(b: &Board, p: Point) -> bool {
    b.cell(p) == Cell::Empty
        && [Color::Black, Color::White].iter().all(|&c| {
            b.neighbors(p).iter().any(|&q| b.cell(q).color() == Some(c)) && filling_loses(b, c, p)
        })
}

/// Whether `c` filling `p` loses its chain to a capture that leaves the
/// capturer alive: it has an eye of its own elsewhere, or the space it
/// captures is big and open enough for two eyes.
fn filling_loses(b: &Board, c: Color, p: Point) -> bool {
    if b.is_suicide(c, p) {
        return true;
    }
    if !is_bad_self_atari(b, c, p) {
        return false;
    }
    let capturer_has_eye = b.neighbors(p).iter().any(|&q| {
        b.cell(q).color() == Some(c.opp())
            && b.liberties(q)
                .iter()
                .any(|&l| l != p && own_point(b, c.opp(), l))
    });
    if capturer_has_eye {
        return true;
    }
    let mut space = vec![p];
    for q in b.neighbors(p) {
        if b.cell(q).color() == Some(c) && !space.contains(&q) {
            space.extend(b.chain_stones(q));
        }
    }
    space_lives(&space)
}

/// Whether an eye space makes two eyes even when the opponent plays
/// first. Up to three points never do; from seven on they do; in between
/// the killable shapes (square four, pyramid four, bulky and crossed five,
/// rabbity six) all hold a 2x2 block or a point with three neighbours in
/// the space, and the living ones (straight, bent and L shapes) do not.
/// A few rarer six-point shapes are judged wrongly either way.
fn space_lives(space: &[Point]) -> bool {
    let n = space.len();
    if n <= 3 {
        return false;
    }
    if n >= 7 {
        return true;
    }
    let has = |x: usize, y: usize| space.iter().any(|p| p.x() == x && p.y() == y);
    for p in space {
        let (x, y) = (p.x(), p.y());
        let mut nb = 0;
        if x > 0 && has(x - 1, y) {
            nb += 1;
        }
        if has(x + 1, y) {
            nb += 1;
        }
        if y > 0 && has(x, y - 1) {
            nb += 1;
        }
        if has(x, y + 1) {
            nb += 1;
        }
        if nb >= 3 || (has(x + 1, y) && has(x, y + 1) && has(x + 1, y + 1)) {
            return false;
        }
    }
    true
}

/// Whether `p` (empty) is an eye-like point of `c`: no opponent stone and
/// no empty point next to it.
fn own_point(b: &Board, c: Color, p: Point) -> bool {
    b.neighbors(p)
        .iter()
        .all(|&q| matches!(b.cell(q), Cell::Edge) || b.cell(q).color() == Some(c))
}

/// Stones in seki, sorted: chains touching a shared liberty that neither
/// side can fill, whose every liberty is such a point or an eye of their
/// own (so they have no outside liberty to win a race with), when both
/// colours have such a chain at that shared liberty.
pub fn seki_stones(b: &Board) -> Vec<Point> {
    let shared: Vec<Point> = b.points().filter(|&p| is_mutual_self_atari(b, p)).collect();
    // Chains (by head) that qualify, found from the shared points.
    let mut qualifies: Vec<u16> = Vec::new();
    let mut rejected: Vec<u16> = Vec::new();
    let mut check = |q: Point| -> bool {
        let id = b.chain_id(q);
        if qualifies.contains(&id) {
            return true;
        }
        if rejected.contains(&id) {
            return false;
        }
        let Some(c) = b.cell(q).color() else {
            return false;
        };
        let ok = b
            .liberties(q)
            .iter()
            .all(|&l| shared.contains(&l) || own_point(b, c, l));
        if ok {
            qualifies.push(id);
        } else {
            rejected.push(id);
        }
        ok
    };
    let mut heads: Vec<u16> = Vec::new();
    for &p in &shared {
        let mut by_colour = [Vec::new(), Vec::new()];
        for q in b.neighbors(p) {
            if let Some(c) = b.cell(q).color() {
                if check(q) {
                    by_colour[c.index()].push(b.chain_id(q));
                }
            }
        }
        if !by_colour[0].is_empty() && !by_colour[1].is_empty() {
            heads.extend(by_colour.iter().flatten());
        }
    }
    let mut out: Vec<Point> = b
        .points()
        .filter(|&p| b.cell(p).color().is_some() && heads.contains(&b.chain_id(p)))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_vertex, vertex_name, Move};
    use crate::game::Game;
    use crate::mcts::{Limits, RootFilter, Searcher};
    use crate::playout::{playout, Rng};

    /// A game set up from a diagram, top row first: `X` black, `O` white.
    fn diagram(rows: &[&str], komi: f64) -> Game {
        let n = rows.len();
        let mut stones = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let y = n - 1 - r;
            for (x, ch) in row.split_whitespace().enumerate() {
                let p = Point::from_xy(x, y);
                match ch {
                    "X" => stones.push((Color::Black, p)),
                    "O" => stones.push((Color::White, p)),
                    _ => {}
                }
            }
        }
        let mut g = Game::new(n, komi);
        assert!(g.setup(&stones), "diagram stones");
        g
    }

    fn names(v: &[Point]) -> Vec<String> {
        let mut s: Vec<String> = v.iter().map(|&p| vertex_name(p)).collect();
        s.sort();
        s
    }

    fn pts(v: &[&str], size: usize) -> Vec<String> {
        let mut s: Vec<String> = v
            .iter()
            .map(|t| match parse_vertex(t, size) {
                Some(Move::Play(p)) => vertex_name(p),
                _ => panic!("{t}"),
            })
            .collect();
        s.sort();
        s
    }

    /// Two eyeless chains sharing their two liberties E1 and E2 in the
    /// lower-left corner; Black lives on the left, White on the right.
    /// Whoever fills a shared liberty loses nine stones to a capture that
    /// lives. GNU Go 3.8 (`final_status_list seki`) agrees: these 16 stones.
    fn no_eye_seki() -> Game {
        diagram(
            &[
                "X . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                "X X X X X X X O .",
                "O O O O O O X O .",
                "X X X X . O X O .",
                "X X X X . O X O .",
            ],
            7.0,
        )
    }

    const NO_EYE_SEKI: &[&str] = &[
        "A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "E3", "F3", "F2",
        "F1",
    ];

    /// One eye each (A9 for Black, E9 for White) and the shared liberty C9;
    /// GNU Go 3.8 lists the same 12 stones as seki.
    fn one_eye_seki() -> Game {
        diagram(
            &[
                ". X . O . O X O .",
                "X X O O O O X O .",
                "O O O X X X X O .",
                "X X X X X X X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
            ],
            7.0,
        )
    }

    const ONE_EYE_SEKI: &[&str] = &[
        "B9", "A8", "B8", "A7", "B7", "C7", "C8", "D8", "D9", "E8", "F8", "F9",
    ];

    #[test]
    fn seki_is_found_on_the_board() {
        let g = no_eye_seki();
        assert_eq!(names(&seki_stones(g.board())), pts(NO_EYE_SEKI, 9));
        let g = one_eye_seki();
        assert_eq!(names(&seki_stones(g.board())), pts(ONE_EYE_SEKI, 9));
    }

    #[test]
    fn a_race_with_an_outside_liberty_is_not_seki() {
        // As the first seki, but White's F1 has a liberty at G1 too: White
        // can fill a shared liberty and win the race (or Black can take G1
        // and make the seki), so it is no seki yet.
        let g = diagram(
            &[
                "X . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                ". . . . . . X O .",
                "X X X X X X X O .",
                "O O O O O O X O .",
                "X X X X . O X O .",
                "X X X X . O . O .",
            ],
            7.0,
        );
        assert!(seki_stones(g.board()).is_empty());
        // Nor are plain living groups on an ordinary board.
        let g = diagram(
            &[
                ". . . X O . .",
                ". . . X O . .",
                ". . . X O . .",
                ". . X . O . .",
                ". . . X O . .",
                ". . . X O . .",
                ". . . X O . .",
            ],
            7.0,
        );
        assert!(seki_stones(g.board()).is_empty());
    }

    #[test]
    fn a_sacrifice_that_leaves_a_dead_shape_is_not_seki() {
        // Black's square four and White's wall share C1 and C2, but Black
        // can fill C2: White's capture leaves a bulky five that Black kills
        // at B2. GNU Go 3.8 calls White's wall dead and lists no seki.
        let g = diagram(
            &[
                ". . . . . X O . .",
                ". . . . . X O . .",
                ". . . . . X O . .",
                ". . . . . X O . .",
                ". . . . . X O . .",
                "X X X X X X O . .",
                "O O O O X X O . .",
                "X X . O X X O . .",
                "X X . O X X O . .",
            ],
            7.0,
        );
        assert!(seki_stones(g.board()).is_empty());
        // The playouts never make that sacrifice (a self-atari of two or
        // more stones), so the estimate calls both chains alive, not seki.
        let st = estimate(&g, Color::White, 4);
        assert!(st.seki.is_empty());
    }

    #[test]
    fn eye_spaces_that_live() {
        let shape = |v: &[(usize, usize)]| -> bool {
            let pts: Vec<Point> = v.iter().map(|&(x, y)| Point::from_xy(x, y)).collect();
            space_lives(&pts)
        };
        assert!(!shape(&[(0, 0), (1, 0), (2, 0)]));
        assert!(shape(&[(0, 0), (1, 0), (2, 0), (3, 0)])); // straight four
        assert!(shape(&[(0, 0), (1, 0), (2, 0), (2, 1)])); // bent four
        assert!(!shape(&[(0, 0), (1, 0), (0, 1), (1, 1)])); // square four
        assert!(!shape(&[(0, 0), (1, 0), (2, 0), (1, 1)])); // pyramid four
        assert!(!shape(&[(0, 0), (1, 0), (0, 1), (1, 1), (2, 0)])); // bulky five
        assert!(!shape(&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)])); // crossed five
        assert!(shape(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]));
        assert!(shape(&[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0)
        ]));
    }

    fn estimate(g: &Game, to_move: Color, seed: u64) -> Status {
        let mut s = Searcher::new(seed);
        let limits = Limits {
            playouts: Some(3000),
            time: None,
            threads: 1,
            extra_komi: 0.0,
        };
        let a = s.search(g, to_move, &limits, &RootFilter::default(), &mut |_| false);
        Status::estimate(g.board(), &a.ownership)
    }

    #[test]
    fn seki_stones_are_never_called_dead() {
        for (g, want) in [(no_eye_seki(), NO_EYE_SEKI), (one_eye_seki(), ONE_EYE_SEKI)] {
            for (to_move, seed) in [(Color::Black, 1), (Color::White, 2)] {
                let st = estimate(&g, to_move, seed);
                assert_eq!(names(&st.seki), pts(want, 9));
                assert!(st.dead.is_empty(), "dead: {:?}", names(&st.dead));
            }
        }
    }

    #[test]
    fn dead_stones_are_still_found_beside_a_seki() {
        // A lone white stone inside Black's area is dead; the seki stays.
        let mut g = no_eye_seki();
        let mut stones: Vec<(Color, Point)> = g
            .board()
            .points()
            .filter_map(|p| g.board().cell(p).color().map(|c| (c, p)))
            .collect();
        stones.push((Color::White, Point::from_xy(2, 6)));
        g = {
            let mut h = Game::new(9, 7.0);
            assert!(h.setup(&stones));
            h
        };
        let st = estimate(&g, Color::Black, 3);
        assert_eq!(names(&st.dead), pts(&["C7"], 9));
        assert_eq!(names(&st.seki), pts(NO_EYE_SEKI, 9));
    }

    #[test]
    fn playouts_keep_the_seki() {
        // With every other group unconditionally alive, the only way for
        // a playout to change the board is to fill a shared liberty; the
        // policy never does (on open boards random playouts sometimes kill
        // the surrounding group, which is not the seki's fault).
        let no_eye = diagram(
            &[
                "X X X X X X X O .",
                "X . X . X X X O O",
                "X X X X X X X O .",
                "X . X . X X X O O",
                "X X X X X X X O .",
                "X X X X X X X O O",
                "O O O O O O X O .",
                "X X X X . O X O O",
                "X X X X . O X O .",
            ],
            7.0,
        );
        let one_eye = diagram(
            &[
                ". X . O . O X O .",
                "X X O O O O X O O",
                "O O O X X X X O .",
                "X X X X X X X O O",
                ". X . X . X X O .",
                "X X X X X X X O O",
                ". X . X . X X O .",
                "X X X X X X X O O",
                ". X . X . X X O .",
            ],
            7.0,
        );
        let mut rng = Rng::new(11);
        for (g, want) in [(no_eye, NO_EYE_SEKI), (one_eye, ONE_EYE_SEKI)] {
            assert_eq!(names(&seki_stones(g.board())), pts(want, 9));
            for i in 0..200 {
                let mut b = g.board().clone();
                let c = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                playout(&mut b, c, &mut rng, 0);
                for p in g.board().points() {
                    assert_eq!(b.cell(p), g.board().cell(p), "{}", b.render());
                }
            }
        }
    }
}
