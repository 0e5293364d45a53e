//! Unconditional life (Benson 1976, "Life in the game of Go"): the
//! chains of a colour that no sequence of opponent moves can capture even
//! if their owner always passes, and the regions they enclose where the
//! opponent can never live.
//!
//! For a colour `c`: the *regions* are the connected sets of points that do
//! not hold a stone of `c` (empty points and opponent stones). A region is
//! *vital* to a chain of `c` that borders it when every empty point of the
//! region is a liberty of that chain. Start with every chain of `c` and
//! every region; then repeatedly drop the chains with fewer than two vital
//! regions left, and the regions that border a dropped chain, until
//! nothing changes. The chains left are pass-alive: the opponent can fill
//! at most one of two vital regions' points before the last one would be
//! suicide, and each region's points are all liberties.
//!
//! A region left (so enclosed by pass-alive chains only) where the
//! opponent cannot make two eyes even with any number of moves in a row
//! (`opponent_may_live`: at most two neighbouring points of the region
//! could ever be an eye) is `c`'s unconditional territory, and the
//! opponent's stones inside are dead whatever happens. Other regions
//! enclosed by pass-alive chains are left undecided (the opponent may live
//! there), as GNU Go 3.8's `unconditional_status` leaves them (its answers
//! on such regions, tried one by one, are in the tests).

use crate::board::{Board, Cell, Color, Point};

/// The unconditional status of a point (GNU Go's `unconditional_status`
/// words in `name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconditional {
    /// Nothing can be said without reading.
    Undecided,
    /// A stone of a pass-alive chain.
    Alive,
    /// A stone inside the opponent's unconditional territory.
    Dead,
    /// An empty point of this colour's unconditional territory.
    Territory(Color),
}

impl Unconditional {
    /// GNU Go 3.8's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Unconditional::Undecided => "undecided",
            Unconditional::Alive => "alive",
            Unconditional::Dead => "dead",
            Unconditional::Territory(Color::Black) => "black_territory",
            Unconditional::Territory(Color::White) => "white_territory",
        }
    }
}

/// Benson's analysis for one colour.
#[derive(Clone, Debug)]
pub struct Benson {
    color: Color,
    /// Per point index: the stone belongs to a pass-alive chain of `color`.
    alive: Vec<bool>,
    /// Per point index: the point (empty, or an opponent stone) lies in a
    /// small region enclosed by pass-alive chains of `color`.
    territory: Vec<bool>,
}

fn slots(b: &Board) -> usize {
    b.slots()
}

impl Benson {
    /// Runs the analysis for `color` on `b`.
    pub fn new(b: &Board, color: Color) -> Benson {
        let len = slots(b);
        // Regions: flood fill over the points without a stone of `color`.
        let mut region_of = vec![usize::MAX; len];
        // Per region: its empty points, and the chains (heads) bordering it.
        let mut empties: Vec<Vec<Point>> = Vec::new();
        let mut borders: Vec<Vec<u16>> = Vec::new();
        let mut members: Vec<Vec<Point>> = Vec::new();
        for p in b.points() {
            if b.cell(p).color() == Some(color) || region_of[p.index()] != usize::MAX {
                continue;
            }
            let id = empties.len();
            let (mut e, mut border, mut all) = (Vec::new(), Vec::new(), Vec::new());
            let mut stack = vec![p];
            region_of[p.index()] = id;
            while let Some(q) = stack.pop() {
                all.push(q);
                if b.cell(q) == Cell::Empty {
                    e.push(q);
                }
                for r in b.neighbors(q) {
                    match b.cell(r) {
                        Cell::Edge => {}
                        c if c.color() == Some(color) => {
                            let h = b.chain_id(r);
                            if !border.contains(&h) {
                                border.push(h);
                            }
                        }
                        _ => {
                            if region_of[r.index()] == usize::MAX {
                                region_of[r.index()] = id;
                                stack.push(r);
                            }
                        }
                    }
                }
            }
            empties.push(e);
            borders.push(border);
            members.push(all);
        }
        // Chains of `color`, by head.
        let mut chains: Vec<u16> = Vec::new();
        for p in b.points() {
            if b.cell(p).color() == Some(color) && !chains.contains(&b.chain_id(p)) {
                chains.push(b.chain_id(p));
            }
        }
        // vital[r]: the chains region r is vital to.
        let vital: Vec<Vec<u16>> = (0..empties.len())
            .map(|r| {
                if empties[r].is_empty() {
                    return Vec::new();
                }
                borders[r]
                    .iter()
                    .copied()
                    .filter(|&h| {
                        empties[r].iter().all(|&e| {
                            b.neighbors(e)
                                .iter()
                                .any(|&n| b.cell(n).color() == Some(color) && b.chain_id(n) == h)
                        })
                    })
                    .collect()
            })
            .collect();
        let mut chain_alive: Vec<bool> = vec![true; chains.len()];
        let mut region_live: Vec<bool> = borders.iter().map(|br| !br.is_empty()).collect();
        let index_of = |h: u16| chains.iter().position(|&c| c == h);
        loop {
            let mut changed = false;
            for (i, &h) in chains.iter().enumerate() {
                if !chain_alive[i] {
                    continue;
                }
                let n = (0..vital.len())
                    .filter(|&r| region_live[r] && vital[r].contains(&h))
                    .count();
                if n < 2 {
                    chain_alive[i] = false;
                    changed = true;
                }
            }
            for r in 0..borders.len() {
                if region_live[r]
                    && borders[r]
                        .iter()
                        .any(|&h| index_of(h).is_none_or(|i| !chain_alive[i]))
                {
                    region_live[r] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut alive = vec![false; len];
        for p in b.points() {
            if b.cell(p).color() == Some(color) {
                if let Some(i) = index_of(b.chain_id(p)) {
                    alive[p.index()] = chain_alive[i];
                }
            }
        }
        let mut territory = vec![false; len];
        for r in 0..members.len() {
            if region_live[r] && !opponent_may_live(b, color, &members[r]) {
                for &q in &members[r] {
                    territory[q.index()] = true;
                }
            }
        }
        Benson {
            color,
            alive,
            territory,
        }
    }

    pub fn color(&self) -> Color {
        self.color
    }

    /// Is the stone at `p` part of a pass-alive chain of this colour?
    pub fn is_alive(&self, p: Point) -> bool {
        self.alive.get(p.index()).copied().unwrap_or(false)
    }

    /// Is `p` (empty or an opponent stone) in this colour's unconditional
    /// territory?
    pub fn is_territory(&self, p: Point) -> bool {
        self.territory.get(p.index()).copied().unwrap_or(false)
    }
}

/// Could the opponent of `color` make two eyes in region `r` (its points
/// `members`) with any number of moves in a row? An eye is an empty
/// point whose neighbours are all the opponent's, so it touches no stone
/// of `color` (an *inner* point: every neighbour in the region); points
/// next to `color`'s pass-alive chains `color` can always fill. An inner
/// point is no eye either when one of its neighbours has no other
/// neighbour in the region: a stone there would have the eye as its only
/// liberty and be taken by a move into it. With the eye candidates left,
/// two eyes need two separate candidates, or three in a group (one stone
/// in the middle splits them): one group of at most two cannot.
fn opponent_may_live(b: &Board, color: Color, members: &[Point]) -> bool {
    // A neighbour of a region's point that is on the board and holds no
    // stone of `color` is in the same region.
    let inside = |q: Point| b.cell(q) != Cell::Edge && b.cell(q).color() != Some(color);
    let candidates: Vec<Point> = members
        .iter()
        .copied()
        .filter(|&p| {
            b.cell(p) == Cell::Empty
                && b.neighbors(p).iter().all(|&q| {
                    b.cell(q) == Cell::Edge
                        || (inside(q) && b.neighbors(q).iter().any(|&w| w != p && inside(w)))
                })
        })
        .collect();
    match candidates.as_slice() {
        [] | [_] => false,
        [a, c] => !b.neighbors(*a).contains(c),
        _ => true,
    }
}

/// Both colours' analyses.
#[derive(Clone, Debug)]
pub struct UnconditionalMap {
    black: Benson,
    white: Benson,
}

impl UnconditionalMap {
    pub fn new(b: &Board) -> UnconditionalMap {
        UnconditionalMap {
            black: Benson::new(b, Color::Black),
            white: Benson::new(b, Color::White),
        }
    }

    fn of(&self, c: Color) -> &Benson {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The status of the point `p` of `b` (the board the map was built on).
    pub fn status(&self, b: &Board, p: Point) -> Unconditional {
        match b.cell(p).color() {
            Some(c) if self.of(c).is_alive(p) => Unconditional::Alive,
            Some(c) if self.of(c.opp()).is_territory(p) => Unconditional::Dead,
            Some(_) => Unconditional::Undecided,
            None => match (self.black.is_territory(p), self.white.is_territory(p)) {
                (true, false) => Unconditional::Territory(Color::Black),
                (false, true) => Unconditional::Territory(Color::White),
                _ => Unconditional::Undecided,
            },
        }
    }
}

/// The unconditional status of one point (GNU Go's
/// `unconditional_status`).
pub fn unconditional_status(b: &Board, p: Point) -> Unconditional {
    UnconditionalMap::new(b).status(b, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    use crate::board::test_util::from_rows as board;

    fn st(b: &Board, v: &str) -> &'static str {
        match b.parse_move(v) {
            Some(Move::Play(p)) => unconditional_status(b, p).name(),
            _ => panic!("bad vertex {v}"),
        }
    }

    #[test]
    fn two_eyes_live_and_a_stone_inside_is_dead() {
        // GNU Go 3.8's answers on this 7x7 position: A1, D1, F1
        // black_territory, B1 and A2 alive, C1 dead, D5/D4/A7/D3 undecided
        // (the big region above may hold a living white group).
        let b = board(&[
            ". . . . . . .",
            ". . . . . . .",
            ". . . O . . .",
            ". . . . . . .",
            ". . . . . . .",
            "X X X X X X X",
            ". X O . X . X",
        ]);
        for (v, want) in [
            ("A1", "black_territory"),
            ("B1", "alive"),
            ("C1", "dead"),
            ("D1", "black_territory"),
            ("F1", "black_territory"),
            ("A2", "alive"),
            ("D5", "undecided"),
            ("D4", "undecided"),
            ("A7", "undecided"),
            ("D3", "undecided"),
        ] {
            assert_eq!(st(&b, v), want, "{v}");
        }
    }

    #[test]
    fn one_eye_is_not_enough() {
        let b = board(&[
            ". . . . .",
            ". . . . .",
            "O O O O .",
            "X X X O .",
            ". X . X O",
        ]);
        // The big chain (A2-C2, B1) has the eyes A1 and C1, but C1 also
        // borders D1, whose only other region is the outside: D1 falls,
        // C1 falls with it, and one eye is left.
        for v in ["A2", "B1", "D1", "A1", "C1", "A3", "E1"] {
            assert_eq!(st(&b, v), "undecided", "{v}");
        }
    }

    #[test]
    fn a_wall_with_two_eyes_lives_above_nothing_is_decided() {
        let b = board(&[
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "O O O O O O",
            "X X X X X X",
            "X . X . X X",
        ]);
        assert_eq!(st(&b, "A1"), "alive");
        assert_eq!(st(&b, "B1"), "black_territory");
        assert_eq!(st(&b, "D1"), "black_territory");
        // White's wall has no vital region; the space above is big.
        assert_eq!(st(&b, "A3"), "undecided");
        assert_eq!(st(&b, "C5"), "undecided");
        // Two chains with one eye each and no shared eye.
        let b = board(&[
            ". . . . .",
            ". . . . .",
            "X X O X X",
            ". X O X .",
            "X X O X X",
        ]);
        for v in ["A3", "E3", "C2", "A2", "E2"] {
            assert_eq!(st(&b, v), "undecided", "{v}");
        }
    }

    #[test]
    fn two_chains_alive_through_shared_eyes() {
        // The lone A1 and the wall share the eyes A2 and B1; the wall also
        // has C2 and E2. A1 has two vital regions: both live.
        let b = board(&[
            ". . . . .",
            "O O O O O",
            "X X X X X",
            ". X . X .",
            "X . X X X",
        ]);
        for v in ["A1", "A3", "E1", "B2"] {
            assert_eq!(st(&b, v), "alive", "{v}");
        }
        for v in ["A2", "B1", "C2", "E2"] {
            assert_eq!(st(&b, v), "black_territory", "{v}");
        }
        // A white stone at B2 joins A2, B1 and C2 into one region, which
        // is not vital to A1 (C2 is not its liberty): A1 falls, the
        // region borders it and falls, and the wall is left with E2 only.
        let b = board(&[
            ". . . . .",
            "O O O O O",
            "X X X X X",
            ". O . X .",
            "X . X X X",
        ]);
        for v in ["A3", "E1", "A1", "B2", "A2", "C2", "E2"] {
            assert_eq!(st(&b, v), "undecided", "{v}");
        }
    }

    /// A 9x9 board all black but the points `empty` (and two eyes at A1
    /// and C1), white stones at `white`.
    fn region(empty: &str, white: &str) -> Board {
        let mut b = Board::new(9);
        let free: Vec<&str> = empty.split_whitespace().chain(["A1", "C1"]).collect();
        for p in b.clone().points() {
            let name = crate::board::vertex_name(p);
            let c = if white.split_whitespace().any(|w| w == name) {
                Some(Color::White)
            } else if free.contains(&name.as_str()) {
                None
            } else {
                Some(Color::Black)
            };
            if let Some(c) = c {
                assert!(b.setup_stone(c, p));
            }
        }
        b
    }

    #[test]
    fn enclosed_regions_as_gnugo_judges_them() {
        // GNU Go 3.8's `unconditional_status` on every point of each
        // region: territory where White can never make two eyes.
        let territory = [
            "A9 B9 A8",
            "A9 B9 C9 A8 B8",
            "A9 B9 C9 A8 B8 C8",
            "B9 C9 D9",
            "A9 B9 C9 D9 E9 A8",
            // Inner points A9 and A4, but each needs a white stone whose
            // only liberty is the eye (B9, B4).
            "A9 B9 A8 A7 A6 A5 A4 A3 B4",
        ];
        for r in territory {
            let b = region(r, "");
            for v in r.split_whitespace() {
                assert_eq!(st(&b, v), "black_territory", "{r}: {v}");
            }
        }
        // Three inner points in a row: White plays the middle one.
        let r = "A9 B9 C9 D9 A8 B8 C8 D8";
        for v in r.split_whitespace() {
            assert_eq!(st(&region(r, ""), v), "undecided", "{v}");
        }
        // With a white stone on A9 only two are left: dead, territory.
        let b = region(r, "A9");
        assert_eq!(st(&b, "A9"), "dead");
        for v in ["B9", "C9", "D9", "A8", "B8", "C8", "D8"] {
            assert_eq!(st(&b, v), "black_territory", "{v}");
        }
        // A ring around a lone black stone (B8, not pass-alive).
        let r = "A9 B9 C9 A8 C8 A7 B7 C7";
        for v in r.split_whitespace() {
            assert_eq!(st(&region(r, ""), v), "undecided", "{v}");
        }
        assert_eq!(st(&region(r, ""), "B8"), "undecided");
    }

    #[test]
    fn an_empty_board_is_undecided() {
        let b = Board::new(9);
        for p in b.points() {
            assert_eq!(unconditional_status(&b, p), Unconditional::Undecided);
        }
    }

    #[test]
    fn both_colours_alive_side_by_side() {
        let b = board(&[
            ". X O . O",
            "X X O O O",
            ". X O . O",
            "X X O O O",
            ". X O . O",
        ]);
        for v in ["B1", "A2", "B5"] {
            assert_eq!(st(&b, v), "alive", "{v}");
        }
        for v in ["C1", "E2", "C5"] {
            assert_eq!(st(&b, v), "alive", "{v}");
        }
        for v in ["A1", "A3", "A5"] {
            assert_eq!(st(&b, v), "black_territory", "{v}");
        }
        for v in ["D1", "D3", "D5"] {
            assert_eq!(st(&b, v), "white_territory", "{v}");
        }
    }
}
