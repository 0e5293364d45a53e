//! GNU Go's life-and-death commands: `owl_attack v`, `owl_defend v`,
//! `owl_does_attack move v`, `owl_does_defend move v`, `analyze_semeai
//! a b` and `tactical_analyze_semeai a b`, in GNU Go 3.8's output format,
//! answered by `tengen_go::owl` over tengen's dragons
//! (`tengen_go::dragon`), and `combination_attack color` /
//! `combination_defend color` (`tengen_go::combination`); see docs/go.md
//! for what agrees with GNU Go and how often.
//!
//! Codes as GNU Go prints them: 0 fails, 1 wins, 2 ko (wins by taking
//! first), 3 ko (needs a threat first). `owl_attack`/`owl_defend` add the
//! move when the code is not 0 (`PASS` when none is needed); the semeai
//! commands answer A's code for itself, A's code against B, and A's
//! move.

use super::tactics::BUDGET;
use super::{Fail, Session};
use tengen_go::board::{parse_vertex, vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::combination::{combination_attack, combination_defend};
use tengen_go::dragon::Dragons;
use tengen_go::owl::{Owl, NODE_BUDGET};
use tengen_go::reading::gtp_code;

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &[
    "owl_attack",
    "owl_defend",
    "owl_does_attack",
    "owl_does_defend",
    "analyze_semeai",
    "tactical_analyze_semeai",
    "combination_attack",
    "combination_defend",
];

/// Positions a tactical question of the dragon analysis may visit.
const DRAGON_BUDGET: u64 = BUDGET / 10;

fn name(p: Option<Point>) -> String {
    p.map(vertex_name).unwrap_or_else(|| "PASS".to_string())
}

/// The stones of the dragon holding `p` (a stone).
fn dragon_of(b: &Board, dragons: &Dragons, p: Point) -> Vec<Point> {
    dragons
        .at(p)
        .map(|d| d.stones.clone())
        .unwrap_or_else(|| b.chain_stones(p))
}

impl Session {
    /// Answers one of [`COMMANDS`]; `None` for any other command.
    pub(super) fn owl_command(&self, name: &str, a: &[String]) -> Option<Result<String, Fail>> {
        Some(match name {
            "owl_attack" | "owl_defend" => self.owl_read(name == "owl_attack", a),
            "owl_does_attack" | "owl_does_defend" => self.owl_does(name == "owl_does_attack", a),
            "analyze_semeai" | "tactical_analyze_semeai" => {
                self.semeai(name == "analyze_semeai", a)
            }
            "combination_attack" | "combination_defend" => {
                self.combination(name == "combination_attack", a)
            }
            _ => return None,
        })
    }

    /// A vertex on the board (`pass` and anything else: invalid).
    fn owl_point(&self, s: Option<&String>) -> Result<Point, Fail> {
        match s.and_then(|v| parse_vertex(v, self.game.size())) {
            Some(Move::Play(p)) => Ok(p),
            _ => Err("invalid coordinate".into()),
        }
    }

    fn owl_read(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let p = self.owl_point(a.first())?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        let stones = dragon_of(b, &dragons, p);
        let mut owl = Owl::new(NODE_BUDGET);
        let ans = if attack {
            owl.attack(b, p, &stones)
        } else {
            owl.defend(b, p, &stones)
        };
        let code = gtp_code(ans.code);
        Ok(if code == 0 {
            "0".to_string()
        } else {
            format!("{code} {}", name(ans.point))
        })
    }

    /// `owl_does_attack move dragon` / `owl_does_defend move dragon`
    /// (GNU Go's checks in its order: the move's vertex, empty, the
    /// dragon's vertex, a stone).
    fn owl_does(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let m = self.owl_point(a.first())?;
        let b = self.read_board();
        if b.cell(m) != Cell::Empty {
            return Err("move vertex must be empty".into());
        }
        let p = self.owl_point(a.get(1))?;
        if b.cell(p) == Cell::Empty {
            return Err("dragon vertex must not be empty".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        let stones = dragon_of(b, &dragons, p);
        let mut owl = Owl::new(NODE_BUDGET);
        let code = if attack {
            owl.does_attack(b, m, p, &stones)
        } else {
            owl.does_defend(b, m, p, &stones)
        };
        Ok(gtp_code(code).to_string())
    }

    /// `analyze_semeai a b` / `tactical_analyze_semeai a b`: A's code for
    /// its own life, A's code for killing B, A's move (A moves first).
    fn semeai(&self, owl: bool, a: &[String]) -> Result<String, Fail> {
        let p = self.owl_point(a.first())?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let q = self.owl_point(a.get(1))?;
        if b.cell(q) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        if b.cell(p) == b.cell(q) {
            // GNU Go 3.8 aborts on an assertion here.
            return Err("dragons must have different colors".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        let sa = dragon_of(b, &dragons, p);
        let sb = dragon_of(b, &dragons, q);
        let r = Owl::new(NODE_BUDGET).semeai(b, &sa, &sb, owl);
        Ok(format!(
            "{} {} {}",
            gtp_code(r.a),
            gtp_code(r.b),
            name(r.point)
        ))
    }

    /// `combination_attack color`: a move capturing something through a
    /// combination of ataris, or `PASS`; `combination_defend color`: the
    /// opponent's moves that stop every such combination (`PASS` when
    /// there is none).
    fn combination(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let c = a
            .first()
            .and_then(|s| Color::parse(s))
            .ok_or_else(|| Fail::from("invalid color"))?;
        let b = self.read_board();
        Ok(if attack {
            name(combination_attack(b, c))
        } else {
            match combination_defend(b, c) {
                None => "PASS".to_string(),
                Some(moves) => moves
                    .into_iter()
                    .map(vertex_name)
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        })
    }
}
