//! GNU Go's worm commands: `worm_data [vertex]` and `worm_cutstone
//! vertex`, in GNU Go 3.8's output format. The fields that follow from the
//! board (`tengen_go::worm`) are GNU Go's exactly; the rest are this
//! engine's judgements, made the way GNU Go describes them:
//!
//! - `attack_code`/`attack_point`: the tactical reader's attack, the code
//!   in GNU Go's internal numbering (5 win, 4 ko A, 3 ko B, 0 none);
//!   `defense_code`/`defense_point`: its defence, asked only of a worm
//!   that can be attacked (as GNU Go does);
//! - `lunch`: of the opponent worms next to it that the reader can
//!   capture, the one with the fewest liberties, then the largest
//!   effective size, then the first in board order;
//! - `inessential`: the manual's definition (genus 0, no lunch, no
//!   liberty on the edge, no second-order liberties, and the cavity left
//!   by removing it bordered only by opponent stones);
//! - `invincible`, `unconditional_status`: Benson's pass-alive analysis
//!   (`tengen_go::benson`), `unknown` where undecided;
//! - `cutstone2`: 0 (GNU Go sets it while building dragons, which
//!   `worm_data` does not do).

use super::tactics::BUDGET;
use super::{Fail, Session};
use std::collections::HashMap;
use tengen_go::benson::{Benson, Unconditional, UnconditionalMap};
use tengen_go::board::{vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::reading::{Answer, Reader, KO_A, KO_B, LOSS, WIN};
use tengen_go::worm::{adjacent_opponents, board_order, WormInfo, Worms};

const NO_ANSWER: Answer = Answer {
    code: LOSS,
    point: None,
};

/// GNU Go's internal result codes, which `worm_data` prints.
fn internal_code(code: u8) -> u8 {
    match code {
        WIN => 5,
        KO_A => 4,
        KO_B => 3,
        _ => 0,
    }
}

fn point_name(p: Option<Point>) -> String {
    p.map(vertex_name).unwrap_or_else(|| "PASS".to_string())
}

/// Everything `worm_data` prints for one board, reading results cached per
/// worm.
struct Analysis<'a> {
    board: &'a Board,
    worms: Worms,
    unconditional: UnconditionalMap,
    benson: [Benson; 2],
    reader: Reader,
    attacks: HashMap<Point, Answer>,
}

impl<'a> Analysis<'a> {
    fn new(board: &'a Board) -> Analysis<'a> {
        Analysis {
            board,
            worms: Worms::new(board),
            unconditional: UnconditionalMap::new(board),
            benson: [
                Benson::new(board, Color::Black),
                Benson::new(board, Color::White),
            ],
            reader: Reader::new(BUDGET),
            attacks: HashMap::new(),
        }
    }

    fn info(&self, p: Point) -> Option<WormInfo> {
        self.worms.get(p).copied()
    }

    fn attack(&mut self, origin: Point) -> Answer {
        if let Some(&a) = self.attacks.get(&origin) {
            return a;
        }
        let a = self.reader.attack(self.board, origin);
        self.attacks.insert(origin, a);
        a
    }

    fn lunch(&mut self, w: &WormInfo) -> Option<Point> {
        let c = w.color?;
        let b = self.board;
        let stones = b.chain_stones(w.origin);
        let mut best: Option<(usize, f32, Point)> = None;
        for r in adjacent_opponents(b, &stones, c) {
            let info = self.info(r)?;
            if self.attack(info.origin).code == LOSS {
                continue;
            }
            let better = match best {
                None => true,
                Some((libs, eff, origin)) => {
                    (
                        info.liberties[0],
                        -info.effective_size,
                        board_rank(b, info.origin),
                    ) < (libs, -eff, board_rank(b, origin))
                }
            };
            if better {
                best = Some((info.liberties[0], info.effective_size, info.origin));
            }
        }
        best.map(|(_, _, o)| o)
    }

    fn inessential(&self, w: &WormInfo, lunch: Option<Point>) -> bool {
        let Some(c) = w.color else { return false };
        let b = self.board;
        if w.genus != 0 || lunch.is_some() || w.liberties[1] != 0 {
            return false;
        }
        let on_edge = |p: Point| b.edge_distance(p) == 0;
        if b.liberties(w.origin).into_iter().any(on_edge) {
            return false;
        }
        // The cavity: the worm and the empty points connected to it.
        let mut seen = vec![w.origin];
        let mut stack = vec![w.origin];
        while let Some(q) = stack.pop() {
            for r in b.neighbors(q) {
                let cell = b.cell(r);
                if seen.contains(&r) || cell == Cell::Edge {
                    continue;
                }
                let in_worm = cell.color() == Some(c) && b.chain_id(r) == b.chain_id(w.origin);
                if cell == Cell::Empty || in_worm {
                    seen.push(r);
                    stack.push(r);
                } else if cell.color() == Some(c) {
                    return false;
                }
            }
        }
        true
    }

    /// The `worm_data` block of one point.
    fn block(&mut self, p: Point) -> String {
        let Some(w) = self.info(p) else {
            return String::new();
        };
        let (attack, defense) = match w.color {
            None => (NO_ANSWER, NO_ANSWER),
            Some(_) => {
                let a = self.attack(w.origin);
                let d = if a.code == LOSS {
                    NO_ANSWER
                } else {
                    self.reader.defend(self.board, w.origin)
                };
                (a, d)
            }
        };
        let lunch = self.lunch(&w);
        let inessential = self.inessential(&w, lunch);
        let invincible = match w.color {
            Some(c) => self.benson[c.index()].is_alive(w.origin),
            None => false,
        };
        let status = match self.unconditional.status(self.board, p) {
            Unconditional::Undecided => "unknown",
            s => s.name(),
        };
        let color = w.color.map(|c| c.name()).unwrap_or("empty");
        let fields: [(&str, String); 19] = [
            ("origin", vertex_name(w.origin)),
            ("color", color.to_string()),
            ("size", w.size.to_string()),
            (
                "effective_size",
                format!("{:.2}", f64::from(w.effective_size)),
            ),
            ("liberties", w.liberties[0].to_string()),
            ("liberties2", w.liberties[1].to_string()),
            ("liberties3", w.liberties[2].to_string()),
            ("liberties4", w.liberties[3].to_string()),
            ("attack_code", internal_code(attack.code).to_string()),
            (
                "attack_point",
                point_name(attack.point.filter(|_| attack.code != LOSS)),
            ),
            ("defense_code", internal_code(defense.code).to_string()),
            (
                "defense_point",
                point_name(defense.point.filter(|_| defense.code != LOSS)),
            ),
            ("lunch", point_name(lunch)),
            ("cutstone", w.cutstone.to_string()),
            ("cutstone2", "0".to_string()),
            ("genus", w.genus.to_string()),
            ("inessential", u8::from(inessential).to_string()),
            ("invincible", u8::from(invincible).to_string()),
            ("unconditional_status", status.to_string()),
        ];
        let mut s = format!("{}:", vertex_name(p));
        for (name, value) in fields {
            s.push_str(&format!("\n{name:<20} {value}"));
        }
        s
    }
}

/// Position of a point in GNU Go's board order (rows from the top).
fn board_rank(b: &Board, p: Point) -> (usize, usize) {
    (b.height() - p.y(), p.x())
}

impl Session {
    /// `worm_data [vertex]`: one point's block, or every point's in board
    /// order. GNU Go: any argument that is not a vertex of the board
    /// (`pass` included) is `invalid color or coordinate`.
    pub(super) fn worm_data(&self, a: &[String]) -> Result<String, Fail> {
        let b = self.read_board();
        let points = match a.first() {
            None => board_order(b),
            Some(v) => match self.game.parse_move(v) {
                Some(Move::Play(p)) => vec![p],
                _ => return Err("invalid color or coordinate".into()),
            },
        };
        let mut an = Analysis::new(b);
        Ok(points
            .into_iter()
            .map(|p| an.block(p))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `worm_cutstone vertex`: the worm's `cutstone` field, printed as GNU
    /// Go prints it (a blank before the number).
    pub(super) fn worm_cutstone(&self, a: &[String]) -> Result<String, Fail> {
        let p = match a.first().and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => p,
            _ => return Err("invalid coordinate".into()),
        };
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let cut = Worms::new(b).get(p).map(|w| w.cutstone).unwrap_or(0);
        Ok(format!(" {cut}"))
    }
}
