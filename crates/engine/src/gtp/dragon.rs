//! GNU Go's dragon commands: `dragon_stones [vertex|color]`, `same_dragon
//! v1 v2`, `dragon_status [vertex]` and `dragon_data [vertex]`, in GNU Go
//! 3.8's output format, answered from `tengen_go::dragon` (tengen's own
//! amalgamation and status rule; see docs/go.md for what agrees with GNU
//! Go and how often).
//!
//! `dragon_data` prints GNU Go's field block. The fields tengen computes:
//! `color`, `origin`, `size`, `effective_size`, `genus` (tengen's eye
//! count in all four digits), `escape_route` (tengen's room), `lunch`,
//! the statuses (`crude_status`, `owl_status`, `status`: tengen's status;
//! `safety`: `invincible` for a pass-alive dragon, `tactically dead` for a
//! one-worm dragon the tactical reader kills, else the status), the owl
//! attack and defence codes and points (from the status: code 5 and the
//! move for a critical or tactically dead dragon), `neighbors` and
//! `hostile_neighbors` (opponent dragons touching it or one empty point
//! away) and `strings`. `strategic_size` repeats `effective_size`;
//! `weakness` and `weakness_pre_owl` stand in with 0, 0.5 and 1 for alive,
//! critical and dead. The rest (`heye`, surround, moyo, threats, second
//! points, kworms, semeai fields) need analyses tengen does not have and
//! print GNU Go's values for "nothing found".

use super::tactics::BUDGET;
use super::{Fail, Session};
use tengen_go::benson::UnconditionalMap;
use tengen_go::board::{parse_vertex_rect, vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::dragon::{Dragons, Reason, Status, Verdict};

fn point_name(p: Option<Point>) -> String {
    p.map(vertex_name).unwrap_or_else(|| "PASS".to_string())
}

/// A vertex on the board, as GNU Go's `gtp_decode_coord` reads one (`pass`
/// is no vertex).
fn vertex(s: Option<&String>, (w, h): (usize, usize)) -> Option<Point> {
    match s.and_then(|v| parse_vertex_rect(v, w, h)) {
        Some(Move::Play(p)) => Some(p),
        _ => None,
    }
}

/// The dragons of a board and the verdicts asked so far.
struct Analysis<'a> {
    board: &'a Board,
    dragons: Dragons,
    unconditional: Option<UnconditionalMap>,
    verdicts: Vec<Option<Verdict>>,
}

impl<'a> Analysis<'a> {
    fn new(board: &'a Board) -> Analysis<'a> {
        let dragons = Dragons::new(board, BUDGET);
        let n = dragons.all().len();
        Analysis {
            board,
            dragons,
            unconditional: None,
            verdicts: vec![None; n],
        }
    }

    fn verdict(&mut self, i: usize) -> Verdict {
        if let Some(v) = self.verdicts[i] {
            return v;
        }
        let b = self.board;
        let u = self
            .unconditional
            .get_or_insert_with(|| UnconditionalMap::new(b));
        let v = self.dragons.verdict(b, i, u, BUDGET);
        self.verdicts[i] = Some(v);
        v
    }

    /// `dragon_status`'s words for dragon `i`.
    fn status_words(&mut self, i: usize) -> String {
        let v = self.verdict(i);
        match v.status {
            Status::Critical => format!(
                "critical {} {}",
                point_name(v.attack),
                point_name(v.defense)
            ),
            s => s.name().to_string(),
        }
    }

    /// `dragon_data`'s block for the stone at `p` (dragon `i`).
    fn block(&mut self, p: Point, i: usize) -> String {
        let v = self.verdict(i);
        let b = self.board;
        let neighbors: Vec<Point> = self
            .dragons
            .neighbors(b, i)
            .into_iter()
            .map(|j| self.dragons.all()[j].origin)
            .collect();
        let d = &self.dragons.all()[i];
        let status = v.status.name();
        let safety = match (v.reason, v.status) {
            (Reason::PassAlive, _) => "invincible",
            (Reason::Tactical, Status::Dead) => "tactically dead",
            (_, s) => s.name(),
        };
        let weakness = match v.status {
            Status::Alive => "0.00",
            Status::Critical => "0.50",
            Status::Dead => "1.00",
        };
        let attacked = v.status != Status::Alive && v.attack.is_some();
        let defended = v.status == Status::Critical && v.defense.is_some();
        let eyes = v.eyes.min(9);
        let list = |ps: &[Point]| -> String { ps.iter().map(|&q| vertex_name(q) + " ").collect() };
        let eff = format!("{:.2}", f64::from(d.effective_size));
        let fields: Vec<(&str, String)> = vec![
            ("color", d.color.name().to_string()),
            ("origin", vertex_name(d.origin)),
            ("size", d.stones.len().to_string()),
            ("effective_size", eff.clone()),
            ("strategic_size", eff),
            ("genus", format!("{eyes}{eyes}{eyes}{eyes}")),
            ("heye", "PASS".into()),
            ("escape_route", v.room.to_string()),
            ("lunch", point_name(v.lunch)),
            ("crude_status", status.into()),
            ("owl_status", status.into()),
            ("status", status.into()),
            ("safety", safety.into()),
            ("weakness", weakness.into()),
            ("weakness_pre_owl", weakness.into()),
            ("surround_status", "0".into()),
            ("surround_size", "0".into()),
            ("moyo_size", "0".into()),
            ("moyo_territorial_value", "0.00".into()),
            ("neighbors", list(&neighbors)),
            ("hostile_neighbors", neighbors.len().to_string()),
            ("owl_attack_code", if attacked { "5" } else { "0" }.into()),
            (
                "owl_attack_point",
                point_name(v.attack.filter(|_| attacked)),
            ),
            ("owl_attack_certain", "YES".into()),
            ("owl_2nd_attack_point", "PASS".into()),
            ("owl_threat_status", "unchecked".into()),
            ("owl_defense_code", if defended { "5" } else { "0" }.into()),
            (
                "owl_defense_point",
                point_name(v.defense.filter(|_| defended)),
            ),
            ("owl_defense_certain", "YES".into()),
            ("owl_2nd_defense_point", "PASS".into()),
            ("owl_attack_kworm", "PASS".into()),
            ("owl_defense_kworm", "PASS".into()),
            ("semeais", "0".into()),
            ("semeai_defense_code", "0".into()),
            ("semeai_defense_point", "PASS".into()),
            ("semeai_defense_certain", "0".into()),
            ("semeai_defense_target", "PASS".into()),
            ("semeai_attack_code", "0".into()),
            ("semeai_attack_point", "PASS".into()),
            ("semeai_attack_certain", "0".into()),
            ("semeai_attack_target", "PASS".into()),
            ("strings", list(&d.worms)),
        ];
        let mut s = format!("{}:", vertex_name(p));
        for (name, value) in fields {
            s.push_str(&format!("\n{name:<23} {value}"));
        }
        s
    }
}

impl Session {
    /// `dragon_stones [vertex|color]`: the stones of the dragon at the
    /// vertex, or of every dragon (of one colour), one per line, each
    /// stone followed by a blank, as GNU Go prints them.
    pub(super) fn dragon_stones(&self, a: &[String]) -> Result<String, Fail> {
        let size = self.dims();
        let b = self.read_board();
        let (at, color) = match a.first() {
            None => (None, None),
            Some(s) => match (vertex(Some(s), size), Color::parse(s)) {
                (Some(p), _) => (Some(p), None),
                (None, Some(c)) => (None, Some(c)),
                (None, None) => return Err("invalid coordinate".into()),
            },
        };
        if at.is_some_and(|p| b.cell(p) == Cell::Empty) {
            return Err("dragon_stones called on an empty vertex".into());
        }
        let dragons = Dragons::new(b, BUDGET);
        let chosen = at.and_then(|p| dragons.index_of(p));
        Ok(dragons
            .all()
            .iter()
            .enumerate()
            .filter(|&(i, d)| color.is_none_or(|c| c == d.color) && chosen.is_none_or(|k| k == i))
            .map(|(_, d)| d.stones.iter().map(|&p| vertex_name(p) + " ").collect())
            .collect::<Vec<String>>()
            .join("\n"))
    }

    /// `same_dragon v1 v2`: 1 when the stones belong to one dragon.
    pub(super) fn same_dragon(&self, a: &[String]) -> Result<String, Fail> {
        let size = self.dims();
        let invalid = || -> Fail { "invalid coordinate".into() };
        let p = vertex(a.first(), size).ok_or_else(invalid)?;
        let q = vertex(a.get(1), size).ok_or_else(invalid)?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty || b.cell(q) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let dragons = Dragons::new(b, BUDGET);
        Ok(u8::from(dragons.same(p, q)).to_string())
    }

    /// `dragon_status [vertex]`: `alive`, `dead` or `critical ATTACK
    /// DEFENSE` for the dragon at the vertex; without one, a line `ORIGIN:
    /// status` for every dragon.
    pub(super) fn dragon_status(&self, a: &[String]) -> Result<String, Fail> {
        let size = self.dims();
        let b = self.read_board();
        let at = match a.first() {
            None => None,
            Some(s) => Some(vertex(Some(s), size).ok_or_else(|| Fail::from("invalid coordinate"))?),
        };
        if at.is_some_and(|p| b.cell(p) == Cell::Empty) {
            return Err("vertex must not be empty".into());
        }
        let mut an = Analysis::new(b);
        if let Some(i) = at.and_then(|p| an.dragons.index_of(p)) {
            return Ok(an.status_words(i));
        }
        let n = an.dragons.all().len();
        Ok((0..n)
            .map(|i| {
                let origin = an.dragons.all()[i].origin;
                format!("{}: {}", vertex_name(origin), an.status_words(i))
            })
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `dragon_data [vertex]`: GNU Go's field block for the dragon at the
    /// vertex (headed by the vertex), `V empty` for an empty point, or
    /// every dragon's block headed by its origin. As GNU Go, it refuses
    /// while `trymove` positions are on the stack.
    pub(super) fn dragon_data(&self, a: &[String]) -> Result<String, Fail> {
        let size = self.dims();
        let at = match a.first() {
            None => None,
            Some(s) => Some(vertex(Some(s), size).ok_or_else(|| Fail::from("invalid coordinate"))?),
        };
        if !self.try_stack.is_empty() {
            return Err("dragon data unavailable when stackp > 0".into());
        }
        let b = self.read_board();
        if let Some(p) = at {
            if b.cell(p) == Cell::Empty {
                return Ok(format!("{} empty", vertex_name(p)));
            }
        }
        let mut an = Analysis::new(b);
        let wanted: Vec<(Point, usize)> = match at {
            Some(p) => an.dragons.index_of(p).map(|i| (p, i)).into_iter().collect(),
            None => (0..an.dragons.all().len())
                .map(|i| (an.dragons.all()[i].origin, i))
                .collect(),
        };
        Ok(wanted
            .into_iter()
            .map(|(p, i)| an.block(p, i))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}
