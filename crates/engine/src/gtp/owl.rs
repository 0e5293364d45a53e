//! GNU Go's life-and-death commands: `owl_attack v`, `owl_defend v`,
//! `owl_does_attack move v`, `owl_does_defend move v`, `analyze_semeai
//! a b` and `tactical_analyze_semeai a b`, in GNU Go 3.8's output format,
//! answered by `tengen_go::owl` over tengen's dragons
//! (`tengen_go::dragon`), and `combination_attack color` /
//! `combination_defend color` (`tengen_go::combination`); see docs/go.md
//! for what agrees with GNU Go and how often.
//!
//! Also `owl_threaten_attack v` / `owl_threaten_defense v` (two moves in
//! a row), `owl_substantial v`, `owl_connection_defends move a b`,
//! `analyze_semeai_after_move color move a b` and `aa_confirm_safety
//! color move [minsize]` (`tengen_go::combination::blunder`).
//!
//! Codes as GNU Go prints them: 0 fails, 1 wins, 2 ko (wins by taking
//! first), 3 ko (needs a threat first). `owl_attack`/`owl_defend` add the
//! move when the code is not 0 (`PASS` when none is needed); the semeai
//! commands answer A's code for itself, A's code against B, and A's
//! move. After `report_uncertainty on`, `owl_attack`, `owl_defend` and
//! the two owl semeai commands add ` uncertain` when the reading was cut
//! short by its budget or depth.

use super::tactics::BUDGET;
use super::{Fail, Session};
use tengen_go::benson::UnconditionalMap;
use tengen_go::board::{vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::combination::{blunder, combination_attack, combination_defend};
use tengen_go::dragon::Dragons;
use tengen_go::dragon::Status;
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
    "owl_threaten_attack",
    "owl_threaten_defense",
    "owl_substantial",
    "owl_connection_defends",
    "analyze_semeai_after_move",
    "aa_confirm_safety",
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
            "owl_threaten_attack" | "owl_threaten_defense" => {
                self.owl_threaten(name == "owl_threaten_attack", a)
            }
            "owl_substantial" => self.owl_substantial(a),
            "owl_connection_defends" => self.owl_connection_defends(a),
            "analyze_semeai_after_move" => self.semeai_after_move(a),
            "aa_confirm_safety" => self.aa_confirm_safety(a),
            _ => return None,
        })
    }

    /// A vertex on the board (`pass` and anything else: invalid).
    fn owl_point(&self, s: Option<&String>) -> Result<Point, Fail> {
        match s.and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => Ok(p),
            _ => Err("invalid coordinate".into()),
        }
    }

    /// The stone asked (the first word) and its dragon's stones, with
    /// GNU Go's errors.
    fn owl_dragon(&self, a: &[String]) -> Result<(Point, Vec<Point>), Fail> {
        let p = self.owl_point(a.first())?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        Ok((p, dragon_of(b, &dragons, p)))
    }

    fn owl_read(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let (p, stones) = self.owl_dragon(a)?;
        let b = self.read_board();
        let mut owl = Owl::new(NODE_BUDGET);
        let ans = if attack {
            owl.attack(b, p, &stones)
        } else {
            owl.defend(b, p, &stones)
        };
        let code = gtp_code(ans.code);
        let reply = if code == 0 {
            "0".to_string()
        } else {
            format!("{code} {}", name(ans.point))
        };
        Ok(self.with_uncertainty(reply, &owl))
    }

    /// `reply`, followed by ` uncertain` when `report_uncertainty` is on
    /// and `owl`'s last reading was cut short.
    fn with_uncertainty(&self, reply: String, owl: &Owl) -> String {
        if self.report_uncertainty && owl.uncertain() {
            reply + " uncertain"
        } else {
            reply
        }
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
        let b = self.read_board();
        let (sa, sb) = self.semeai_dragons(a, "vertex must not be empty")?;
        let mut reader = Owl::new(NODE_BUDGET);
        let r = reader.semeai(b, &sa, &sb, owl);
        let reply = semeai_reply(r);
        Ok(if owl {
            self.with_uncertainty(reply, &reader)
        } else {
            reply
        })
    }

    /// The stones of the two dragons of a semeai command (its first two
    /// words): GNU Go's checks in its order, each vertex then its stone
    /// (`empty` is GNU Go's wording for an empty one); dragons of one
    /// colour are refused (GNU Go 3.8 aborts on an assertion).
    fn semeai_dragons(&self, a: &[String], empty: &str) -> Result<(Vec<Point>, Vec<Point>), Fail> {
        let b = self.read_board();
        let p = self.owl_point(a.first())?;
        if b.cell(p) == Cell::Empty {
            return Err(empty.into());
        }
        let q = self.owl_point(a.get(1))?;
        if b.cell(q) == Cell::Empty {
            return Err(empty.into());
        }
        if b.cell(p) == b.cell(q) {
            return Err("dragons must have different colors".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        Ok((dragon_of(b, &dragons, p), dragon_of(b, &dragons, q)))
    }

    /// `owl_threaten_attack v` / `owl_threaten_defense v`: `0`, or a code
    /// (`3` for a kill, `1` for a save, as GNU Go prints them) and the two
    /// moves in a row that kill or save the dragon (`PASS` for a move not
    /// needed or not named).
    fn owl_threaten(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let (p, stones) = self.owl_dragon(a)?;
        let b = self.read_board();
        let mut owl = Owl::new(NODE_BUDGET);
        // GNU Go's `owl_threaten_attack` returns 1 for a kill, which its
        // table of codes prints as 3; `owl_threaten_defense` returns its
        // WIN, printed 1.
        let found = if attack {
            owl.threaten_attack(b, p, &stones)
                .map(|(m1, m2)| format!("3 {} {}", name(m1), name(m2)))
        } else {
            owl.threaten_defense(b, p, &stones)
                .map(|(m1, m2)| format!("1 {} {}", vertex_name(m1), name(m2)))
        };
        Ok(found.unwrap_or_else(|| "0".to_string()))
    }

    /// `owl_substantial v`: `1` when capturing the string at `v` would
    /// give its neighbours a living dragon, else `0`.
    fn owl_substantial(&self, a: &[String]) -> Result<String, Fail> {
        let p = self.owl_point(a.first())?;
        let b = self.read_board();
        let Some(c) = b.cell(p).color() else {
            return Err("vertex must not be empty".into());
        };
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        let unconditional = UnconditionalMap::new(b);
        let alive = |q: Point| {
            dragons.index_of(q).is_some_and(|i| {
                dragons.verdict(b, i, &unconditional, DRAGON_BUDGET).status == Status::Alive
            })
        };
        let mut around: Vec<Point> = Vec::new();
        for q in tengen_go::worm::adjacent_opponents(b, &b.chain_stones(p), c) {
            for s in dragon_of(b, &dragons, q) {
                if !around.contains(&s) {
                    around.push(s);
                }
            }
        }
        let mut owl = Owl::new(NODE_BUDGET);
        Ok(u8::from(owl.substantial(b, p, &around, alive)).to_string())
    }

    /// `owl_connection_defends move a b` (GNU Go's checks in its order:
    /// the move's vertex, empty, the two dragons' vertices, stones, one
    /// colour).
    fn owl_connection_defends(&self, a: &[String]) -> Result<String, Fail> {
        let m = self.owl_point(a.first())?;
        let b = self.read_board();
        if b.cell(m) != Cell::Empty {
            return Err("move vertex must be empty".into());
        }
        let p = self.owl_point(a.get(1))?;
        let q = self.owl_point(a.get(2))?;
        if b.cell(p) == Cell::Empty || b.cell(q) == Cell::Empty {
            return Err("dragon vertex must not be empty".into());
        }
        if b.cell(p) != b.cell(q) {
            return Err("dragon vertices must have the same color".into());
        }
        let dragons = Dragons::new(b, DRAGON_BUDGET);
        let (sa, sb) = (dragon_of(b, &dragons, p), dragon_of(b, &dragons, q));
        let code = Owl::new(NODE_BUDGET).connection_defends(b, m, &sa, &sb);
        Ok(gtp_code(code).to_string())
    }

    /// `analyze_semeai_after_move color move a b`: the move is played
    /// (on a copy), then B's colour moves; A's codes and A's next move.
    fn semeai_after_move(&self, a: &[String]) -> Result<String, Fail> {
        let bad = || Fail::from("invalid color or coordinate");
        let c = a.first().and_then(|s| Color::parse(s)).ok_or_else(bad)?;
        let m = match a.get(1).and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(m)) => m,
            _ => return Err(bad()),
        };
        let b = self.read_board();
        if b.cell(m) != Cell::Empty {
            return Err("move vertex is not empty".into());
        }
        let (sa, sb) =
            self.semeai_dragons(a.get(2..).unwrap_or(&[]), "dragon vertex must not be empty")?;
        let mut owl = Owl::new(NODE_BUDGET);
        // An illegal move leaves the position as it is (GNU Go reads on
        // without it).
        let r = owl
            .semeai_after_move(b, c, m, &sa, &sb)
            .unwrap_or_else(|| owl.semeai(b, &sa, &sb, true));
        Ok(self.with_uncertainty(semeai_reply(r), &owl))
    }

    /// `aa_confirm_safety color move [minsize]`: `1` when the opponent
    /// wins at least `minsize` stones (0 unless given, so always `1`, as
    /// GNU Go's comparison makes it) by a combination the move allows;
    /// otherwise `0` and a move that would have prevented it (`PASS`
    /// when there is none).
    fn aa_confirm_safety(&self, a: &[String]) -> Result<String, Fail> {
        let bad = || Fail::from("invalid color or coordinate");
        let c = a.first().and_then(|s| Color::parse(s)).ok_or_else(bad)?;
        let m = match a.get(1).and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(m)) => m,
            _ => return Err(bad()),
        };
        // GNU Go reads the number with `sscanf("%d")`: its leading
        // integer, 0 when there is none.
        let minsize = a
            .get(2)
            .and_then(|s| super::orientation::parse_c_int(s))
            .unwrap_or(0);
        let b = self.read_board();
        let (size, defenses) = blunder(b, c, m).ok_or_else(|| Fail::from("invalid move"))?;
        Ok(if size as i64 >= i64::from(minsize) {
            "1".to_string()
        } else {
            format!("0 {}", name(defenses.first().copied()))
        })
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

/// A semeai's reply: A's two codes and A's move.
fn semeai_reply(r: tengen_go::owl::SemeaiResult) -> String {
    format!("{} {} {}", gtp_code(r.a), gtp_code(r.b), name(r.point))
}
