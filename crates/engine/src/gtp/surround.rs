//! GNU Go's surround commands: `is_surrounded dragon`, `does_surround move
//! dragon` and `surround_map dragon vertex`, in GNU Go 3.8's format,
//! answered from `tengen_go::surround` over tengen's dragons
//! (`tengen_go::dragon`); see docs/go.md for what agrees with GNU Go and
//! how often.

use super::tactics::BUDGET;
use super::{Fail, Session};
use tengen_go::board::{Board, Cell, Move, Point};
use tengen_go::dragon::Dragons;
use tengen_go::surround::{analyse_with, Surround, SurroundMap};

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &["is_surrounded", "does_surround", "surround_map"];

/// The surround analysis of the dragon at `p` (a stone), with an
/// opponent stone added at `extra`.
fn dragon_map(b: &Board, p: Point, extra: Option<Point>) -> Option<SurroundMap> {
    let dragons = Dragons::new(b, BUDGET);
    let i = dragons.index_of(p)?;
    Some(analyse_with(b, &dragons, i, extra))
}

/// The status of the dragon at `p` (a stone).
fn status(b: &Board, p: Point, extra: Option<Point>) -> Surround {
    dragon_map(b, p, extra).map_or(Surround::No, |s| s.status)
}

impl Session {
    /// Answers one of [`COMMANDS`]; `None` for any other command.
    pub(super) fn surround_command(
        &self,
        name: &str,
        a: &[String],
    ) -> Option<Result<String, Fail>> {
        Some(match name {
            "is_surrounded" => self.is_surrounded(a),
            "does_surround" => self.does_surround(a),
            "surround_map" => self.surround_map(a),
            _ => return None,
        })
    }

    fn point_arg(&self, s: Option<&String>) -> Result<Point, Fail> {
        match s.and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => Ok(p),
            _ => Err("invalid coordinate".into()),
        }
    }

    /// `is_surrounded dragon`: 1 surrounded, 2 weakly, 0 not.
    fn is_surrounded(&self, a: &[String]) -> Result<String, Fail> {
        let p = self.point_arg(a.first())?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("dragon vertex must be nonempty".into());
        }
        Ok((status(b, p, None) as u8).to_string())
    }

    /// `does_surround move dragon`: how surrounded an opponent stone on
    /// `move` leaves a dragon that is not surrounded now (0 when it is, or
    /// when the stone changes nothing).
    fn does_surround(&self, a: &[String]) -> Result<String, Fail> {
        let m = self.point_arg(a.first())?;
        let p = self.point_arg(a.get(1))?;
        let b = self.read_board();
        if b.cell(m) != Cell::Empty {
            return Err("move vertex must be empty".into());
        }
        if b.cell(p) == Cell::Empty {
            return Err("dragon vertex must be nonempty".into());
        }
        let now = status(b, p, None);
        if now == Surround::Surrounded {
            return Ok("0".into());
        }
        let after = status(b, p, Some(m));
        Ok(if after == now { 0 } else { after as u8 }.to_string())
    }

    /// `surround_map dragon vertex`: the dragon's surround map at the
    /// vertex (0 outside, 1 inside, 2 next to it), or -1 when the dragon
    /// is not surrounded.
    fn surround_map(&self, a: &[String]) -> Result<String, Fail> {
        let p = self.point_arg(a.first())?;
        let q = self.point_arg(a.get(1))?;
        let b = self.read_board();
        if b.cell(p) == Cell::Empty {
            return Err("dragon vertex must not be empty".into());
        }
        Ok(match dragon_map(b, p, None) {
            Some(s) if s.status != Surround::No => s.at(q).to_string(),
            _ => "-1".to_string(),
        })
    }
}
