//! A game: the board plus everything the rules need from the past
//! (superko history, undo stack, passes), komi and handicap.

use crate::board::{Board, Color, Illegal, Move, Point, WHITE_TO_MOVE_KEY};
use crate::rules::{Rules, Scoring, Tax};
use std::fmt;

/// How repetition is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone.
    Simple,
    /// No move may recreate an earlier whole-board position (default).
    Positional,
    /// No move may recreate an earlier position with the same side to move.
    Situational,
}

impl KoRule {
    pub fn parse(s: &str) -> Option<KoRule> {
        match s.to_ascii_lowercase().as_str() {
            "simple" | "ko" => Some(KoRule::Simple),
            "positional" | "psk" | "superko" => Some(KoRule::Positional),
            "situational" | "ssk" => Some(KoRule::Situational),
            _ => None,
        }
    }
}

/// One entry of the move history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub color: Color,
    pub mv: Move,
}

/// A final score: positive for Black.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score(pub f64);

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        if s.abs() < 1e-9 {
            f.write_str("0")
        } else if s > 0.0 {
            write!(f, "B+{}", fmt_num(s))
        } else {
            write!(f, "W+{}", fmt_num(-s))
        }
    }
}

/// `7` for whole numbers, `7.5` otherwise.
pub fn fmt_num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[derive(Clone)]
pub struct Game {
    board: Board,
    komi: f64,
    /// The ko rule, scoring and handicap bonus (`rules.rs`).
    rules: Rules,
    /// Board states before each move, for `undo`.
    undo: Vec<Board>,
    moves: Vec<Played>,
    /// Positions seen (board hash, with the side-to-move key for
    /// situational superko), the current one included.
    seen: Vec<u64>,
    /// Colour expected to move next (GTP lets either colour play).
    to_move: Color,
    handicap: Vec<Point>,
}

impl Game {
    pub fn new(size: usize, komi: f64) -> Game {
        Game::new_rect(size, size, komi)
    }

    /// A game on a board `width` columns wide and `height` rows high.
    pub fn new_rect(width: usize, height: usize, komi: f64) -> Game {
        let board = Board::new_rect(width, height);
        let mut g = Game {
            board,
            komi,
            rules: Rules::default(),
            undo: Vec::new(),
            moves: Vec::new(),
            seen: Vec::new(),
            to_move: Color::Black,
            handicap: Vec::new(),
        };
        g.seen.push(g.key(Color::Black));
        g
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side of a square board; the longer side of a rectangular one
    /// (shape-aware code uses `width` and `height`).
    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn width(&self) -> usize {
        self.board.width()
    }

    pub fn height(&self) -> usize {
        self.board.height()
    }

    /// Parses a GTP vertex (or `pass`) for this game's board.
    pub fn parse_move(&self, s: &str) -> Option<Move> {
        self.board.parse_move(s)
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    pub fn ko_rule(&self) -> KoRule {
        self.rules.ko
    }

    pub fn set_ko_rule(&mut self, r: KoRule) {
        self.rules.ko = r;
        self.rebuild_seen();
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Sets the whole rule set (the ko rule included); the position stays.
    pub fn set_rules(&mut self, r: Rules) {
        self.rules = r;
        self.rebuild_seen();
    }

    /// White's handicap bonus under the rules, in points.
    pub fn white_bonus(&self) -> f64 {
        self.rules.bonus_points(self.handicap.len())
    }

    /// What White is given in all: komi and the handicap bonus.
    pub fn compensation(&self) -> f64 {
        self.komi + self.white_bonus()
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    pub fn handicap(&self) -> &[Point] {
        &self.handicap
    }

    /// Sets who moves first in a position without moves yet (SGF's PL
    /// after setup stones); false, changing nothing, once moves exist.
    pub fn set_first_to_move(&mut self, c: Color) -> bool {
        if !self.moves.is_empty() {
            return false;
        }
        self.to_move = c;
        self.rebuild_seen();
        true
    }

    /// The board before the first move: empty, or the handicap and setup
    /// stones (`setup` clears the history, so the oldest undo state is it).
    pub fn start_board(&self) -> &Board {
        self.undo.first().unwrap_or(&self.board)
    }

    /// Clears the board, keeping its shape, komi and rules.
    pub fn clear(&mut self) {
        *self = Game {
            komi: self.komi,
            rules: self.rules,
            ..Game::new_rect(self.width(), self.height(), self.komi)
        };
        self.rebuild_seen();
    }

    fn key(&self, next: Color) -> u64 {
        let h = self.board.hash();
        match (self.rules.ko, next) {
            (KoRule::Situational, Color::White) => h ^ WHITE_TO_MOVE_KEY,
            _ => h,
        }
    }

    fn rebuild_seen(&mut self) {
        // Keys depend on the rule; recompute from the undo stack.
        let mut seen = Vec::with_capacity(self.undo.len() + 1);
        let mut next = if self.handicap.is_empty() {
            Color::Black
        } else {
            Color::White
        };
        let rule = self.rules.ko;
        let key = |b: &Board, next: Color| match (rule, next) {
            (KoRule::Situational, Color::White) => b.hash() ^ WHITE_TO_MOVE_KEY,
            _ => b.hash(),
        };
        for (i, b) in self.undo.iter().enumerate() {
            seen.push(key(b, next));
            next = self.moves[i].color.opp();
        }
        seen.push(key(&self.board, self.to_move));
        self.seen = seen;
    }

    /// Full legality under the game's rules.
    pub fn check(&self, c: Color, m: Move) -> Result<(), Illegal> {
        self.board.check(c, m)?;
        if let (Move::Play(_), KoRule::Positional | KoRule::Situational) = (m, self.rules.ko) {
            let mut b = self.board.clone();
            b.play(c, m);
            let h = match (self.rules.ko, c.opp()) {
                (KoRule::Situational, Color::White) => b.hash() ^ WHITE_TO_MOVE_KEY,
                _ => b.hash(),
            };
            if self.seen.contains(&h) {
                return Err(Illegal::Superko);
            }
        }
        Ok(())
    }

    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        self.check(c, m).is_ok()
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), Illegal> {
        self.check(c, m)?;
        self.undo.push(self.board.clone());
        self.board.play(c, m);
        self.moves.push(Played { color: c, mv: m });
        self.to_move = c.opp();
        let k = self.key(self.to_move);
        self.seen.push(k);
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(b) => {
                self.board = b;
                self.seen.pop();
                let last = self.moves.pop();
                self.to_move = last.map(|p| p.color).unwrap_or(Color::Black);
                true
            }
            None => false,
        }
    }

    /// Legal moves of `c` (points only; pass is always legal), A1 first.
    pub fn legal_points(&self, c: Color) -> Vec<Point> {
        self.board
            .points()
            .filter(|&p| self.is_legal(c, Move::Play(p)))
            .collect()
    }

    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        let n = self.moves.len();
        n >= 2 && self.moves[n - 1].mv == Move::Pass && self.moves[n - 2].mv == Move::Pass
    }

    /// Tromp-Taylor area score minus komi, every stone alive.
    pub fn tromp_taylor(&self) -> Score {
        let a = self.board.area();
        Score(a[0] as f64 - a[1] as f64 - self.komi)
    }

    /// Area score after removing `dead` stones.
    pub fn score_without(&self, dead: &[Point]) -> Score {
        let a = self.board.area_with(dead);
        Score(a[0] as f64 - a[1] as f64 - self.komi)
    }

    /// The final score under the game's rules, `dead` stones removed and
    /// `seki` stones alive in seki: area (stones and surrounded points)
    /// or territory (surrounded points and prisoners: captures and dead
    /// stones), a region around a seki group counting for nobody under the
    /// seki tax; minus komi and White's handicap bonus.
    pub fn final_score(&self, dead: &[Point], seki: &[Point]) -> Score {
        let white = self.compensation();
        if self.rules.scoring == Scoring::Area {
            let a = self.board.area_with(dead);
            return Score(a[0] as f64 - a[1] as f64 - white);
        }
        let taxed = |region_touches_seki: bool| region_touches_seki && self.rules.tax == Tax::Seki;
        let mut points = [0f64; 2];
        for (owner, touches_seki, size) in self.board.empty_regions(dead, seki) {
            if let Some(c) = owner {
                if !taxed(touches_seki) {
                    points[c.index()] += size as f64;
                }
            }
        }
        for c in [Color::Black, Color::White] {
            let dead_of_other = dead
                .iter()
                .filter(|&&p| self.board.cell(p) == c.opp().cell())
                .count();
            points[c.index()] += (self.board.captures(c) as usize + dead_of_other) as f64;
        }
        Score(points[0] - points[1] - white)
    }

    /// Places setup stones (handicap, SGF); they cannot be undone.
    pub fn setup(&mut self, stones: &[(Color, Point)]) -> bool {
        let mut b = self.board.clone();
        for &(c, p) in stones {
            if !b.setup_stone(c, p) {
                return false;
            }
        }
        self.board = b;
        self.undo.clear();
        self.moves.clear();
        self.to_move = Color::Black;
        self.rebuild_seen();
        true
    }

    /// Free/fixed handicap: black stones, then White moves.
    pub fn set_handicap(&mut self, stones: &[Point]) -> bool {
        let list: Vec<(Color, Point)> = stones.iter().map(|&p| (Color::Black, p)).collect();
        if !self.setup(&list) {
            return false;
        }
        self.handicap = stones.to_vec();
        self.to_move = Color::White;
        self.rebuild_seen();
        true
    }
}

/// Fixed handicap points as GTP places them; `None` when `n` stones are
/// not allowed on this size.
pub fn fixed_handicap(size: usize, n: usize) -> Option<Vec<Point>> {
    fixed_handicap_rect(size, size, n)
}

/// Fixed handicap points on a board `width` x `height`: GNU Go's points
/// worked out along each side on its own (the star-point line and the
/// middle of the columns from the width, those of the rows from the
/// height), so a square board gets exactly GNU Go's points. Both sides
/// must be 7 or more; side and centre points need both sides odd and
/// neither 7.
pub fn fixed_handicap_rect(width: usize, height: usize, n: usize) -> Option<Vec<Point>> {
    if !(2..=9).contains(&n) || width.min(height) < 7 {
        return None;
    }
    // No centre point on even sizes; 7x7 has room for corners only.
    let corners_only = |side: usize| side.is_multiple_of(2) || side == 7;
    let max = if corners_only(width) || corners_only(height) {
        4
    } else {
        9
    };
    if n > max {
        return None;
    }
    let lines = |side: usize| {
        let edge = if side <= 12 { 2 } else { 3 };
        (edge, side - 1 - edge, side / 2)
    };
    let (lx, hx, mx) = lines(width);
    let (ly, hy, my) = lines(height);
    let p = Point::from_xy;
    let mut v = vec![p(lx, ly), p(hx, hy)];
    if n >= 3 {
        v.push(p(lx, hy));
    }
    if n >= 4 {
        v.push(p(hx, ly));
    }
    if n == 5 || n == 7 || n == 9 {
        v.push(p(mx, my));
    }
    if n >= 6 {
        v.push(p(lx, my));
        v.push(p(hx, my));
    }
    if n >= 8 {
        v.push(p(mx, ly));
        v.push(p(mx, hy));
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_vertex, vertex_name};

    fn mv(s: &str, size: usize) -> Move {
        parse_vertex(s, size).unwrap_or(Move::Pass)
    }

    /// A finished 5x5 game with one prisoner, scored under each rule
    /// set: area counts stones, territory counts prisoners, and White's
    /// handicap bonus follows the rules.
    #[test]
    fn final_score_follows_the_rules() {
        let mut g = Game::new(5, 0.0);
        let moves = "c1 a1 c2 d1 c3 d2 c4 d3 c5 d4 b1 d5 a2";
        for (i, m) in moves.split(' ').enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert!(g.play(c, mv(m, 5)).is_ok(), "{m}");
        }
        let score = |g: &Game, name: &str| {
            let mut g = g.clone();
            g.set_rules(Rules::named(name).unwrap_or_default());
            g.final_score(&[], &[]).0
        };
        assert_eq!(score(&g, "chinese"), 5.0);
        assert_eq!(score(&g, "japanese"), 4.0);
        // White's d-file stones dead: area takes their points, territory
        // counts them as prisoners too.
        let dead: Vec<Point> = ["d1", "d2", "d3", "d4", "d5"]
            .iter()
            .filter_map(|v| match mv(v, 5) {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        let mut j = g.clone();
        j.set_rules(Rules::named("japanese").unwrap_or_default());
        assert_eq!(j.final_score(&dead, &[]).0, (8.0 + 10.0 + 1.0 + 5.0) - 0.0);
        let mut h = Game::new(9, 0.5);
        assert!(h.set_handicap(&[mv("c3", 9), mv("g7", 9)].map(|m| match m {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        })));
        assert_eq!(score(&h, "chinese"), 81.0 - 0.5 - 2.0);
        assert_eq!(score(&h, "aga"), 81.0 - 0.5 - 1.0);
        assert_eq!(score(&h, "japanese"), 79.0 - 0.5);
    }

    #[test]
    fn fixed_handicap_matches_gnugo() {
        let names = |v: Vec<Point>| {
            let mut n: Vec<String> = v.into_iter().map(vertex_name).collect();
            n.sort();
            n.join(" ")
        };
        assert_eq!(names(fixed_handicap(19, 2).unwrap_or_default()), "D4 Q16");
        assert_eq!(
            names(fixed_handicap(19, 5).unwrap_or_default()),
            "D16 D4 K10 Q16 Q4"
        );
        assert_eq!(
            names(fixed_handicap(19, 8).unwrap_or_default()),
            "D10 D16 D4 K16 K4 Q10 Q16 Q4"
        );
        assert_eq!(
            names(fixed_handicap(9, 9).unwrap_or_default()),
            "C3 C5 C7 E3 E5 E7 G3 G5 G7"
        );
        assert_eq!(
            names(fixed_handicap(13, 4).unwrap_or_default()),
            "D10 D4 K10 K4"
        );
        assert!(fixed_handicap(7, 5).is_none());
        assert!(fixed_handicap(8, 5).is_none());
        assert!(fixed_handicap(5, 2).is_none());
        assert!(fixed_handicap(19, 1).is_none());
    }

    #[test]
    fn undo_restores_captures_and_ko() {
        let mut g = Game::new(9, 7.5);
        for (c, m) in [
            (Color::Black, "D5"),
            (Color::Black, "E6"),
            (Color::Black, "E4"),
            (Color::White, "E5"),
            (Color::White, "F6"),
            (Color::White, "F4"),
            (Color::White, "G5"),
            (Color::Black, "F5"),
        ] {
            assert!(g.play(c, mv(m, 9)).is_ok(), "{m}");
        }
        assert_eq!(g.board().captures(Color::Black), 1);
        assert_eq!(g.check(Color::White, mv("E5", 9)), Err(Illegal::Ko));
        assert!(g.undo());
        assert_eq!(g.board().captures(Color::Black), 0);
        assert!(g.board().ko().is_none());
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn score_formats() {
        assert_eq!(Score(2.5).to_string(), "B+2.5");
        assert_eq!(Score(-31.0).to_string(), "W+31");
        assert_eq!(Score(0.0).to_string(), "0");
    }

    #[test]
    fn rectangular_games_score_handicap_and_clear() {
        // 7x5, Black owns the left four columns, White the right three.
        let mut g = Game::new_rect(7, 5, 0.5);
        assert_eq!(g.legal_points(Color::Black).len(), 35);
        assert_eq!(g.legal_points(Color::White).len(), 35);
        for y in 0..5 {
            let (b, w) = (Point::from_xy(3, y), Point::from_xy(4, y));
            assert!(g.play(Color::Black, Move::Play(b)).is_ok());
            assert!(g.play(Color::White, Move::Play(w)).is_ok());
        }
        assert_eq!(g.legal_points(Color::Black).len(), 25);
        assert_eq!(g.tromp_taylor().0, 20.0 - 15.0 - 0.5);
        g.set_rules(Rules::named("japanese").unwrap_or_default());
        assert_eq!(g.final_score(&[], &[]).0, 15.0 - 10.0 - 0.5);
        g.clear();
        assert_eq!((g.width(), g.height(), g.moves().len()), (7, 5, 0));
        assert!(g.board().is_empty_board());
        // Handicap points along each side on its own.
        let names = |v: Vec<Point>| v.into_iter().map(vertex_name).collect::<Vec<_>>().join(" ");
        assert_eq!(
            names(fixed_handicap_rect(13, 9, 4).unwrap_or_default()),
            "D3 K7 D7 K3"
        );
        assert_eq!(
            names(fixed_handicap_rect(13, 9, 9).unwrap_or_default()),
            "D3 K7 D7 K3 G5 D5 K5 G3 G7"
        );
        assert_eq!(fixed_handicap_rect(13, 10, 5), None);
        assert_eq!(fixed_handicap_rect(13, 6, 2), None);
        assert_eq!(fixed_handicap_rect(19, 19, 9), fixed_handicap(19, 9));
        let mut h = Game::new_rect(9, 13, 0.5);
        let pts = fixed_handicap_rect(9, 13, 5).unwrap_or_default();
        assert!(pts.iter().all(|&p| h.board().on_board(p)));
        assert!(h.set_handicap(&pts));
        assert_eq!(h.to_move(), Color::White);
    }
}
