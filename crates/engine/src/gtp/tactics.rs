//! GNU Go's tactical GTP commands, answered by `tengen_go::reading`:
//! `attack`, `defend`, `ladder_attack`, `does_attack`, `does_defend`,
//! `attack_either`, `defend_both`, the move stack (`trymove`, `tryko`,
//! `popgo`), `worm_stones`, `accurate_approxlib`, `invariant_hash` and
//! `unconditional_status` (Benson's analysis, `tengen_go::benson`),
//! `connect` and `disconnect` (`tengen_go::connection`), `break_in` and
//! `block_off` (`tengen_go::breakin`), `worm_data` and
//! `worm_cutstone` (`worm.rs`), the dragon commands (`dragon.rs`).
//! Answers and error strings follow GNU Go 3.8's (checked against
//! `gnugo --mode gtp`, see tests/test_gtp_reading.py).
//!
//! The move stack: `trymove`/`tryko` push a position on top of the game's
//! board; reading commands, `showboard`, `color`, `countlib`, `findlib`,
//! `list_stones`, `worm_stones` and the lib commands see the top of the
//! stack. Any command that changes the game (play, undo, genmove, setup,
//! boardsize, ...) drops the stack first (GNU Go aborts on those with a
//! non-empty stack; tengen defines it instead).

use super::{Fail, Session};
use tengen_go::benson::unconditional_status;
use tengen_go::board::{vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::breakin::BreakIn;
use tengen_go::connection::Connector;
use tengen_go::reading::{gtp_code, Answer, Reader, LOSS};

/// Positions a tactical question may visit.
pub(super) const BUDGET: u64 = 200_000;
/// Positions a connection question may visit (each may ask the tactical
/// reader a few questions of its own).
const CONNECTION_BUDGET: u64 = 3_000;
/// Positions a break-in question may visit.
const BREAKIN_BUDGET: u64 = 2_000;

/// Commands that change the game and therefore drop the move stack.
pub(super) const MUTATING: &[&str] = &[
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "play",
    "black",
    "white",
    "genmove",
    "genmove_black",
    "genmove_white",
    "kgs-genmove_cleanup",
    "undo",
    "gg-undo",
    "loadsgf",
    "gogui-play_sequence",
    "gogui-setup",
    "gogui-undo_setup",
    "set_position",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "genmove_analyze",
    "orientation",
];

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &[
    "attack",
    "defend",
    "ladder_attack",
    "does_attack",
    "does_defend",
    "attack_either",
    "defend_both",
    "trymove",
    "tryko",
    "popgo",
    "worm_stones",
    "accurate_approxlib",
    "invariant_hash",
    "invariant_hash_for_moves",
    "unconditional_status",
    "connect",
    "disconnect",
    "break_in",
    "block_off",
    "worm_data",
    "worm_cutstone",
    "dragon_stones",
    "same_dragon",
    "dragon_status",
    "dragon_data",
];

/// Points in GNU Go's order: rows top-down, each left to right.
pub(super) fn gnugo_order(mut v: Vec<Point>) -> Vec<Point> {
    v.sort_by_key(|p| (std::cmp::Reverse(p.y()), p.x()));
    v
}

pub(super) fn join(v: &[Point]) -> String {
    v.iter()
        .map(|&p| vertex_name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn code_and_point(a: Answer) -> String {
    let code = gtp_code(a.code);
    if a.code == LOSS {
        return code.to_string();
    }
    match a.point {
        Some(p) => format!("{code} {}", vertex_name(p)),
        None => format!("{code} PASS"),
    }
}

fn invalid() -> Fail {
    "invalid coordinate".into()
}

impl Session {
    /// The board reading commands see: the top of the move stack, or the
    /// game's board.
    pub(super) fn read_board(&self) -> &Board {
        self.try_stack.last().unwrap_or(self.game.board())
    }

    /// A vertex on the board (GNU Go's `gtp_decode_coord`: `pass` and
    /// anything off the board are invalid coordinates).
    fn coord(&self, s: Option<&String>) -> Result<Point, Fail> {
        match s.and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => Ok(p),
            _ => Err(invalid()),
        }
    }

    /// A vertex holding a stone.
    fn string_at(&self, s: Option<&String>, msg: &str) -> Result<Point, Fail> {
        let p = self.coord(s)?;
        if self.read_board().cell(p) == Cell::Empty {
            return Err(msg.into());
        }
        Ok(p)
    }

    /// Answers one of `COMMANDS`; `None` for any other name.
    pub(super) fn tactical(&mut self, name: &str, a: &[String]) -> Option<Result<String, Fail>> {
        Some(match name {
            "attack" | "defend" => self.attack_defend(name == "attack", a),
            "ladder_attack" => self.ladder_attack(a),
            "does_attack" | "does_defend" => self.does(name == "does_attack", a),
            "attack_either" => self.pair(true, a),
            "defend_both" => self.pair(false, a),
            "trymove" | "tryko" => self.trymove(name == "tryko", a),
            "popgo" => match self.try_stack.pop() {
                Some(_) => Ok(String::new()),
                None => Err("Stack empty.".into()),
            },
            "worm_stones" => Ok(self.worm_stones(a)),
            "accurate_approxlib" => self.accurate_approxlib(a),
            "invariant_hash" => Ok(format!("{:016x}", invariant_hash(self.read_board()))),
            "invariant_hash_for_moves" => self.invariant_hash_for_moves(a),
            "connect" | "disconnect" => self.connection(name == "connect", a),
            "break_in" | "block_off" => self.break_in(name == "break_in", a),
            "worm_data" => self.worm_data(a),
            "worm_cutstone" => self.worm_cutstone(a),
            "dragon_stones" => self.dragon_stones(a),
            "same_dragon" => self.same_dragon(a),
            "dragon_status" => self.dragon_status(a),
            "dragon_data" => self.dragon_data(a),
            "unconditional_status" => self.coord(a.first()).map(|p| {
                unconditional_status(self.read_board(), p)
                    .name()
                    .to_string()
            }),
            _ => return None,
        })
    }

    fn attack_defend(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let p = self.string_at(a.first(), "vertex must not be empty")?;
        let mut r = Reader::new(BUDGET);
        let ans = if attack {
            r.attack(self.read_board(), p)
        } else {
            r.defend(self.read_board(), p)
        };
        Ok(code_and_point(ans))
    }

    /// `connect s1 s2` / `disconnect s1 s2` (GNU Go's checks in its order:
    /// both vertices valid, both stones, one colour).
    fn connection(&self, connect: bool, a: &[String]) -> Result<String, Fail> {
        let s1 = self.coord(a.first())?;
        let s2 = self.coord(a.get(1))?;
        let b = self.read_board();
        if b.cell(s1) == Cell::Empty || b.cell(s2) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        if b.cell(s1) != b.cell(s2) {
            return Err("vertices must have same color".into());
        }
        let mut r = Connector::new(CONNECTION_BUDGET);
        let ans = if connect {
            r.connect(b, s1, s2)
        } else {
            r.disconnect(b, s1, s2)
        };
        Ok(code_and_point(ans))
    }

    /// `break_in s v...` / `block_off s v...`: can the string at `s`
    /// reach the area of the other vertices, its owner to move
    /// (`break_in`), or be kept out, the opponent to move (`block_off`)?
    /// GNU Go's checks in its order: the string's vertex, then every area
    /// vertex (`pass` included: invalid), then a stone at `s`; an empty
    /// area is allowed.
    fn break_in(&self, enter: bool, a: &[String]) -> Result<String, Fail> {
        let s = self.coord(a.first())?;
        let goal = a
            .iter()
            .skip(1)
            .map(|v| self.coord(Some(v)))
            .collect::<Result<Vec<_>, _>>()?;
        let b = self.read_board();
        if b.cell(s) == Cell::Empty {
            return Err("vertex must not be empty".into());
        }
        let mut r = BreakIn::new(BREAKIN_BUDGET);
        let ans = if enter {
            r.break_in(b, s, &goal)
        } else {
            r.block_off(b, s, &goal)
        };
        Ok(code_and_point(ans))
    }

    fn ladder_attack(&self, a: &[String]) -> Result<String, Fail> {
        let p = self.string_at(a.first(), "vertex must not be empty")?;
        if self.read_board().liberties(p).len() != 2 {
            return Err("string must have exactly 2 liberties".into());
        }
        Ok(code_and_point(
            Reader::ladder(BUDGET).attack(self.read_board(), p),
        ))
    }

    fn does(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let m = self.coord(a.first())?;
        if self.read_board().cell(m) != Cell::Empty {
            return Err("move vertex must be empty".into());
        }
        let s = self.string_at(a.get(1), "string vertex must not be empty")?;
        let b = self.read_board();
        let mut r = Reader::new(BUDGET);
        Ok(if attack {
            gtp_code(r.does_attack(b, m, s)).to_string()
        } else if r.does_defend(b, m, s) != LOSS {
            // GNU Go 3.8 prints its boolean `does_defend` through the code
            // table, where true (1) reads as 3.
            "3".to_string()
        } else {
            "0".to_string()
        })
    }

    fn pair(&self, attack: bool, a: &[String]) -> Result<String, Fail> {
        let s1 = self.coord(a.first())?;
        if self.read_board().cell(s1) == Cell::Empty {
            // GNU Go 3.8's own wording (its message says the opposite of
            // what it checks).
            return Err(if attack {
                "string vertex must be empty"
            } else {
                "vertex must not be empty"
            }
            .into());
        }
        let s2 = self.string_at(
            a.get(1),
            if attack {
                "string vertex must not be empty"
            } else {
                "vertex must not be empty"
            },
        )?;
        let b = self.read_board();
        let mut r = Reader::new(BUDGET);
        let code = if attack {
            r.attack_either(b, s1, s2)
        } else {
            r.defend_both(b, s1, s2)
        };
        Ok(gtp_code(code).to_string())
    }

    fn trymove(&mut self, ko: bool, a: &[String]) -> Result<String, Fail> {
        let bad = || -> Fail { "invalid color or coordinate".into() };
        let c = a.first().and_then(|s| Color::parse(s)).ok_or_else(bad)?;
        let m = a
            .get(1)
            .and_then(|v| self.game.parse_move(v))
            .ok_or_else(bad)?;
        let b = self.read_board();
        let legal = match m {
            Move::Pass => true,
            Move::Play(p) => {
                b.cell(p) == Cell::Empty
                    && !b.is_suicide(c, p)
                    && (ko || b.is_legal(c, Move::Play(p)))
            }
        };
        if !legal {
            return Err("illegal move".into());
        }
        let mut next = b.clone();
        next.play(c, m);
        self.try_stack.push(next);
        Ok(String::new())
    }

    fn worm_stones(&self, a: &[String]) -> String {
        // An argument that is not a colour lists every worm, as GNU Go.
        let want = a.first().and_then(|s| Color::parse(s));
        let b = self.read_board();
        let mut seen = Vec::new();
        let mut lines = Vec::new();
        for p in gnugo_order(b.points().collect()) {
            let Some(c) = b.cell(p).color() else {
                continue;
            };
            if want.is_some_and(|w| w != c) || seen.contains(&b.chain_id(p)) {
                continue;
            }
            seen.push(b.chain_id(p));
            lines.push(format!("{} ", join(&gnugo_order(b.chain_stones(p)))));
        }
        lines.join("\n")
    }

    fn accurate_approxlib(&self, a: &[String]) -> Result<String, Fail> {
        let (c, p) = self.color_and_empty_point(a)?;
        Ok(join(&gnugo_order(libs_of_move(self.read_board(), c, p))))
    }

    /// `invariant_hash_for_moves color`: each legal move of `color`, in
    /// GNU Go's board order, with the invariant hash of the position
    /// after it, one pair a line.
    fn invariant_hash_for_moves(&self, a: &[String]) -> Result<String, Fail> {
        let c = a
            .first()
            .and_then(|s| Color::parse(s))
            .ok_or_else(|| Fail::from("invalid color"))?;
        let b = self.read_board();
        let lines: Vec<String> = gnugo_order(b.points().collect())
            .into_iter()
            .filter_map(|p| {
                let after = b.after(c, p)?;
                Some(format!(
                    "{} {:016x}",
                    vertex_name(p),
                    invariant_hash(&after)
                ))
            })
            .collect();
        Ok(lines.join("\n"))
    }

    /// `color vertex` with the vertex empty, GNU Go's wording for failures.
    pub(super) fn color_and_empty_point(&self, a: &[String]) -> Result<(Color, Point), Fail> {
        let bad = || -> Fail { "invalid color or coordinate".into() };
        let c = a.first().and_then(|s| Color::parse(s)).ok_or_else(bad)?;
        let p = match a.get(1).and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => p,
            _ => return Err(bad()),
        };
        if self.read_board().cell(p) != Cell::Empty {
            return Err("vertex must be empty".into());
        }
        Ok((c, p))
    }
}

/// The liberties a stone of `c` at the empty point `p` would have (after
/// its captures); none for a suicide.
pub(super) fn libs_of_move(b: &Board, c: Color, p: Point) -> Vec<Point> {
    if b.is_suicide(c, p) {
        return Vec::new();
    }
    let mut after = b.clone();
    after.play(c, Move::Play(p));
    after.liberties(p)
}

/// A hash of the position that is the same under the board's eight
/// symmetries (four on a rectangular board: the mirrors that swap its
/// width and height do not map it onto itself): the smallest of the
/// Zobrist-like hashes of the transformed boards, the ko point (where a
/// recapture is forbidden) included as GNU Go's is (GNU Go's numbers
/// differ: its keys are its own).
pub(super) fn invariant_hash(b: &Board) -> u64 {
    let (w, h) = (b.width(), b.height());
    let turn = |p: Point, sym: u8| {
        let (mut x, mut y) = (p.x(), p.y());
        if sym & 1 != 0 {
            x = w - 1 - x;
        }
        if sym & 2 != 0 {
            y = h - 1 - y;
        }
        if sym & 4 != 0 {
            std::mem::swap(&mut x, &mut y);
        }
        (x, y)
    };
    let mut best = u64::MAX;
    let count = if b.is_square() { 8 } else { 4 };
    for sym in 0..count {
        let mut h = 0u64;
        for p in b.points() {
            let Some(c) = b.cell(p).color() else {
                continue;
            };
            let (x, y) = turn(p, sym);
            h ^= point_key(c.index() as u64, x, y);
        }
        if let Some((k, _)) = b.ko() {
            let (x, y) = turn(k, sym);
            h ^= point_key(2, x, y);
        }
        best = best.min(h);
    }
    best
}

/// The key of a black (0) or white (1) stone, or of the ko point (2).
fn point_key(kind: u64, x: usize, y: usize) -> u64 {
    tengen_core::splitmix::hash(kind << 16 | (x as u64) << 8 | y as u64)
}
