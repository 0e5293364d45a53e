//! GNU Go's eye commands: `eval_eye vertex`, `eye_data color vertex` and
//! `half_eye_data vertex`, in GNU Go 3.8's output format, answered from
//! `tengen_go::eyes` (eye spaces, half eyes and eye values computed the way
//! the GNU Go manual describes them; see docs/go.md for what agrees with
//! GNU Go and how often).
//!
//! GNU Go's `eye_data` and `half_eye_data` print what its last full
//! analysis left behind (stale after a move until a command such as
//! `eval_eye` analyses again); tengen always answers for the current
//! board (the top of the `trymove` stack).

use super::tactics::BUDGET;
use super::{Fail, Session};
use std::cell::RefCell;
use std::rc::Rc;
use tengen_go::board::{parse_vertex, vertex_name, Board, Color, Move, Point};
use tengen_go::eyes::{EyePoint, Eyes, HalfKind};

/// Positions a tactical question of the eye analysis may visit.
const EYE_BUDGET: u64 = BUDGET / 10;

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &["eval_eye", "eye_data", "half_eye_data"];

fn name(p: Option<Point>) -> String {
    p.map(vertex_name).unwrap_or_else(|| "PASS".to_string())
}

/// What an analysis is kept for: the board's hash, its ko and its size.
type Key = (u64, Option<(Point, Color)>, usize);

thread_local! {
    /// The last analysis, keyed by the board it was made for.
    static LAST: RefCell<Option<(Key, Rc<Eyes>)>> =
        const { RefCell::new(None) };
}

/// The eye analysis of `b`, reused while the board stays the same.
fn analyse(b: &Board) -> Rc<Eyes> {
    let key = (b.hash(), b.ko(), b.size());
    LAST.with(|last| {
        if let Some((k, e)) = last.borrow().as_ref() {
            if *k == key {
                return e.clone();
            }
        }
        let e = Rc::new(Eyes::new(b, EYE_BUDGET));
        *last.borrow_mut() = Some((key, e.clone()));
        e
    })
}

fn field(name: &str, value: impl std::fmt::Display) -> String {
    format!("{name:<20} {value}")
}

impl Session {
    /// Answers one of [`COMMANDS`]; `None` for any other command.
    pub(super) fn eyes_command(&self, name: &str, a: &[String]) -> Option<Result<String, Fail>> {
        Some(match name {
            "eval_eye" => self.eval_eye(a),
            "eye_data" => self.eye_data(a),
            "half_eye_data" => self.half_eye_data(a),
            _ => return None,
        })
    }

    fn vertex_arg(&self, s: Option<&String>) -> Option<Move> {
        s.and_then(|v| parse_vertex(v, self.game.size()))
    }

    /// `eval_eye v`: `min max` eyes of the eye space at `v` (Black's if it
    /// is in Black's eye space, else White's), then the attack and defence
    /// points when the two differ; `-1` outside every eye space.
    fn eval_eye(&self, a: &[String]) -> Result<String, Fail> {
        let Some(Move::Play(p)) = self.vertex_arg(a.first()) else {
            return Err("invalid coordinate".into());
        };
        let eyes = analyse(self.read_board());
        Ok(match eyes.eval_eye(p) {
            None => "-1".to_string(),
            Some(ev) if ev.value.min() == ev.value.max() => {
                format!("{} {}", ev.value.min(), ev.value.max())
            }
            Some(ev) => format!(
                "{} {} {} {}",
                ev.value.min(),
                ev.value.max(),
                name(ev.attack),
                name(ev.defense)
            ),
        })
    }

    /// `eye_data color v`: the fields of `color`'s eye-space data at `v`.
    /// As GNU Go, `pass` is read as a vertex off the board (whose data is
    /// empty).
    fn eye_data(&self, a: &[String]) -> Result<String, Fail> {
        let bad = || Fail::from("invalid color or coordinate");
        let c = a.first().and_then(|s| Color::parse(s)).ok_or_else(bad)?;
        let p = match self.vertex_arg(a.get(1)).ok_or_else(bad)? {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        };
        let e = match p {
            Some(p) => analyse(self.read_board()).point(c, p),
            None => EyePoint::default(),
        };
        let fields = [
            field("origin", name(e.origin)),
            field("color", e.color.map(|c| c.name()).unwrap_or("empty")),
            field("esize", e.esize),
            field("msize", e.msize),
            field("value", e.value.digits()),
            field("marginal", u8::from(e.marginal)),
            field("neighbors", e.neighbors),
            field("marginal_neighbors", e.marginal_neighbors),
        ];
        Ok(fields.join("\n"))
    }

    /// `half_eye_data v`: the topological value of `v`, its kind and the
    /// attack and defence points of its diagonals.
    fn half_eye_data(&self, a: &[String]) -> Result<String, Fail> {
        let Some(Move::Play(p)) = self.vertex_arg(a.first()) else {
            return Err("invalid coordinate".into());
        };
        let eyes = analyse(self.read_board());
        let h = eyes.half_eye(p);
        let kind = match h.kind {
            HalfKind::None => "0",
            HalfKind::Half => "HALF_EYE",
            HalfKind::False => "FALSE_EYE",
        };
        let mut lines = vec![
            field("value", format!("{:.2}", h.value)),
            field("type", kind),
            field("num_attacks", h.attacks.len()),
        ];
        for (i, &q) in h.attacks.iter().enumerate() {
            lines.push(field(&format!("attack_point[{i}]"), vertex_name(q)));
        }
        lines.push(field("num_defenses", h.defenses.len()));
        for (i, &q) in h.defenses.iter().enumerate() {
            lines.push(field(&format!("defense_point[{i}]"), vertex_name(q)));
        }
        Ok(lines.join("\n"))
    }
}
