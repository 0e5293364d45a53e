//! GNU Go's eye commands: `eval_eye vertex`, `eye_data color vertex` and
//! `half_eye_data vertex`, in GNU Go 3.8's output format, answered from
//! `tengen_go::eyes` (eye spaces, half eyes and eye values computed the way
//! the GNU Go manual describes them; see docs/go.md for what agrees with
//! GNU Go and how often).
//!
//! Also GNU Go's debugging commands `test_eyeshape v...` (the owl
//! reader's consistency on an eye shape, reported on stderr) and
//! `analyze_eyegraph [outer_liberties ko_threats] graph` (an eye graph's
//! value and vital points, `tengen_go::eyes::analyze_graph`), which GNU
//! Go answers on a board it clears and tengen on a board of its own.
//!
//! GNU Go's `eye_data` and `half_eye_data` print what its last full
//! analysis left behind (stale after a move until a command such as
//! `eval_eye` analyses again); tengen always answers for the current
//! board (the top of the `trymove` stack).

use super::tactics::BUDGET;
use super::{Fail, Session};
use std::cell::RefCell;
use std::rc::Rc;
use tengen_go::board::{vertex_name, Board, Cell, Color, Move, Point};
use tengen_go::dragon::Dragons;
use tengen_go::eyes::{analyze_graph, EyePoint, Eyes, GraphVertex, HalfKind};
use tengen_go::owl::{Owl, NODE_BUDGET};
use tengen_go::reading::LOSS;

/// Positions a tactical question of the eye analysis may visit.
const EYE_BUDGET: u64 = BUDGET / 10;

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &[
    "eval_eye",
    "eye_data",
    "half_eye_data",
    "test_eyeshape",
    "analyze_eyegraph",
];

/// The largest eye shape `test_eyeshape` checks (it reads every way of
/// filling it with attacker stones: 2^n positions).
const TEST_EYESHAPE_MAX: usize = 10;

fn name(p: Option<Point>) -> String {
    p.map(vertex_name).unwrap_or_else(|| "PASS".to_string())
}

/// What an analysis is kept for: the board's hash, its ko and its size.
type Key = (u64, Option<(Point, Color)>, (usize, usize));

thread_local! {
    /// The last analysis, keyed by the board it was made for.
    static LAST: RefCell<Option<(Key, Rc<Eyes>)>> =
        const { RefCell::new(None) };
}

/// The eye analysis of `b`, reused while the board stays the same.
fn analyse(b: &Board) -> Rc<Eyes> {
    let key = (b.hash(), b.ko(), (b.width(), b.height()));
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
            "test_eyeshape" => self.test_eyeshape(a),
            "analyze_eyegraph" => analyze_eyegraph(a),
            _ => return None,
        })
    }

    fn vertex_arg(&self, s: Option<&String>) -> Option<Move> {
        s.and_then(|v| self.game.parse_move(v))
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

    /// `test_eyeshape v...`: the vertices up to the first that is not
    /// one are an eye shape, set up on a board of tengen's own (White
    /// around it, Black around White leaving White's liberties); for
    /// each way of filling the shape with black stones, the owl reader's
    /// answers are checked against each other as GNU Go's are, and the
    /// inconsistencies printed on stderr. The reply is empty.
    fn test_eyeshape(&self, a: &[String]) -> Result<String, Fail> {
        let mut shape: Vec<Point> = Vec::new();
        for v in a {
            match self.vertex_arg(Some(v)) {
                Some(Move::Play(p)) => shape.push(p),
                _ => break,
            }
        }
        if shape.is_empty() {
            return Err("invalid coordinate".into());
        }
        if shape.len() > TEST_EYESHAPE_MAX {
            eprintln!("test_eyeshape: more than {TEST_EYESHAPE_MAX} points, not checked");
            return Ok(String::new());
        }
        for line in check_eyeshape(self.dims(), &shape) {
            eprintln!("{line}");
        }
        Ok(String::new())
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

/// The board `test_eyeshape` reads: White on every point next to the
/// shape (diagonals too), Black on every point next to a white liberty
/// that is neither in the shape nor a liberty itself. `None` when no
/// white stone fits.
fn eyeshape_board((w, h): (usize, usize), shape: &[Point]) -> Option<(Board, Point)> {
    let mut b = Board::new_rect(w, h);
    let mut white = None;
    let points: Vec<Point> = b.points().collect();
    for &p in &points {
        if !shape.contains(&p) && p.ring().iter().any(|q| shape.contains(q)) {
            b.play(Color::White, Move::Play(p));
            white = Some(p);
        }
    }
    let white = white?;
    let libs = b.liberties(white);
    for &p in &points {
        if shape.contains(&p) || b.cell(p) != Cell::Empty || libs.contains(&p) {
            continue;
        }
        if p.ring().iter().any(|q| libs.contains(q)) {
            b.play(Color::Black, Move::Play(p));
        }
    }
    Some((b, white))
}

/// GNU Go's `test_eyeshape` checks on every filling of `shape`: a dragon
/// the owl reader calls alive must survive each black move in the shape
/// and, with one point left, White's filling it; one it calls dead must
/// not be saved by a white move in the shape; a critical one's attack
/// and defence must work. The failures, each with its board.
fn check_eyeshape(size: (usize, usize), shape: &[Point]) -> Vec<String> {
    let Some((start, white)) = eyeshape_board(size, shape) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut owl = Owl::new(NODE_BUDGET);
    for fill in 0u32..(1 << shape.len()) {
        let mut b = start.clone();
        let inside: Vec<Point> = (0..shape.len())
            .filter(|k| fill & (1 << k) != 0)
            .map(|k| shape[k])
            .collect();
        if !inside.iter().all(|&p| {
            let ok = b.is_legal(Color::Black, Move::Play(p));
            if ok {
                b.play(Color::Black, Move::Play(p));
            }
            ok
        }) {
            continue;
        }
        if b.cell(white) != Cell::White {
            continue;
        }
        let dragons = Dragons::new(&b, NODE_BUDGET * 10);
        let stones = dragons
            .at(white)
            .map(|d| d.stones.clone())
            .unwrap_or_else(|| b.chain_stones(white));
        let w = vertex_name(white);
        let empty: Vec<Point> = shape
            .iter()
            .copied()
            .filter(|&p| b.cell(p) == Cell::Empty)
            .collect();
        let report = |text: String, out: &mut Vec<String>| {
            out.push(format!("{text}\n{}", b.render()));
        };
        let attack = owl.attack(&b, white, &stones);
        if attack.code == LOSS {
            for &p in &empty {
                if b.is_legal(Color::Black, Move::Play(p))
                    && owl.does_attack(&b, p, white, &stones) != LOSS
                {
                    report(
                        format!("{w} alive, but {} attacks:", vertex_name(p)),
                        &mut out,
                    );
                }
            }
            if inside.len() + 1 == shape.len() {
                for &p in &empty {
                    if owl.does_defend(&b, p, white, &stones) == LOSS {
                        report(
                            format!("{w} alive, but almost filled with nakade:"),
                            &mut out,
                        );
                    }
                }
            }
            continue;
        }
        let defense = owl.defend(&b, white, &stones);
        if defense.code == LOSS {
            for &p in &empty {
                if b.is_legal(Color::White, Move::Play(p))
                    && owl.does_defend(&b, p, white, &stones) != LOSS
                {
                    report(
                        format!("{w} dead, but {} defends:", vertex_name(p)),
                        &mut out,
                    );
                }
            }
            continue;
        }
        for (point, color, word) in [
            (attack.point, Color::Black, "attack"),
            (defense.point, Color::White, "defense"),
        ] {
            let Some(p) = point else { continue };
            let works = if color == Color::Black {
                owl.does_attack(&b, p, white, &stones)
            } else {
                owl.does_defend(&b, p, white, &stones)
            };
            if !b.is_legal(color, Move::Play(p)) {
                report(format!("Bad {word} point {}:", vertex_name(p)), &mut out);
            } else if works == LOSS {
                let word = if color == Color::Black {
                    "Attack"
                } else {
                    "Defense"
                };
                report(format!("{word} point {} failed:", vertex_name(p)), &mut out);
            }
        }
    }
    out
}

/// One cell of an eye graph as GNU Go writes them (`%` ends a row).
fn graph_vertex(ch: char) -> Option<GraphVertex> {
    match ch {
        '.' | '*' | '<' | '>' => Some(GraphVertex::Proper),
        '!' | '@' | '(' | ')' => Some(GraphVertex::Marginal),
        'X' => Some(GraphVertex::Stone),
        '$' => Some(GraphVertex::Outside),
        _ => None,
    }
}

/// `analyze_eyegraph [outer_liberties ko_threats] graph`: the graph's
/// eye value (four digits), then the graph again with its vital points
/// marked as GNU Go marks them (`<` the attacker's, `>` the owner's, `*`
/// both; `(`, `)`, `@` on a marginal point), every cell that is not a
/// vertex a blank, board edges (`|`, `-`, `+`) kept. As GNU Go 3.8, the
/// whole argument text is the graph (two leading numbers too, which also
/// set the outer liberties and ko threats its board reading uses;
/// tengen's local game has neither and checks only their range). Words
/// are joined by one blank.
fn analyze_eyegraph(a: &[String]) -> Result<String, Fail> {
    let failed = || Fail::from("failed to analyze");
    let numbers: Vec<i32> = a.iter().take(2).map_while(|w| w.parse().ok()).collect();
    if let [outer, ko] = numbers[..] {
        if !(0..=5).contains(&outer) || !(-4..=4).contains(&ko) {
            return Err(failed());
        }
    }
    let text = a.join(" ");
    let rows: Vec<Vec<char>> = text.split('%').map(|r| r.chars().collect()).collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let edge_row = rows.iter().rposition(|r| r.contains(&'-'));
    let edge_col = rows
        .iter()
        .rev()
        .find_map(|r| r.iter().rposition(|&c| c == '|'));
    let cell = |i: usize, j: usize| rows.get(i).and_then(|r| r.get(j)).copied();
    let off = |i: usize, j: usize| Some(i) == edge_row || Some(j) == edge_col;
    let mut index = vec![vec![None; width]; rows.len()];
    let mut vertices = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (j, &ch) in row.iter().enumerate() {
            if let Some(v) = graph_vertex(ch).filter(|_| !off(i, j)) {
                index[i][j] = Some(vertices.len());
                vertices.push((i, j, v));
            }
        }
    }
    let beyond_edge = |y: usize, x: usize| {
        (y == usize::MAX && edge_row == Some(0))
            || (y >= rows.len() && edge_row.is_some_and(|e| e > 0))
            || (x == usize::MAX && edge_col == Some(0))
            || (x >= width && edge_col.is_some_and(|e| e > 0))
            || off(y, x)
    };
    let mut edges = Vec::new();
    for (k, &(i, j, v)) in vertices.iter().enumerate() {
        let around = [
            (i.wrapping_sub(1), j),
            (i + 1, j),
            (i, j.wrapping_sub(1)),
            (i, j + 1),
        ];
        let is_vertex = |y: usize, x: usize| index.get(y).and_then(|r| r.get(x)).copied().flatten();
        let mut open = false;
        for (y, x) in around {
            match is_vertex(y, x) {
                Some(l) if l > k => edges.push((k, l)),
                Some(_) => {}
                // The owner's wall: room for the attacker's outside group
                // (GNU Go's margins need the wall on both sides of that
                // step too), unless it is on or beyond a board edge.
                None => {
                    let sides = if y == i {
                        [(i.wrapping_sub(1), x), (i + 1, x)]
                    } else {
                        [(y, j.wrapping_sub(1)), (y, j + 1)]
                    };
                    open |=
                        !beyond_edge(y, x) && sides.iter().all(|&(u, w)| is_vertex(u, w).is_none());
                }
            }
        }
        if matches!(v, GraphVertex::Marginal | GraphVertex::Outside) && !open {
            return Err(failed());
        }
    }
    let kinds: Vec<GraphVertex> = vertices.iter().map(|&(_, _, v)| v).collect();
    let (value, attacks, defenses) = analyze_graph(&edges, &kinds).ok_or_else(failed)?;
    let mut lines = vec![value.digits()];
    for (i, row) in index.iter().enumerate() {
        let mut line = String::with_capacity(width);
        for (j, &at) in row.iter().enumerate() {
            let ch = match (Some(i) == edge_row, Some(j) == edge_col) {
                (true, true) => '+',
                (true, false) => '-',
                (false, true) => '|',
                _ => match at {
                    None => ' ',
                    Some(k) => {
                        let marginal =
                            matches!(kinds[k], GraphVertex::Marginal | GraphVertex::Outside);
                        match (attacks.contains(&k), defenses.contains(&k), marginal) {
                            (true, true, false) => '*',
                            (true, false, false) => '<',
                            (false, true, false) => '>',
                            (true, true, true) => '@',
                            (true, false, true) => '(',
                            (false, true, true) => ')',
                            _ => match cell(i, j) {
                                Some('X') => 'X',
                                Some('$') => '$',
                                _ if marginal => '!',
                                _ => '.',
                            },
                        }
                    }
                },
            };
            line.push(ch);
        }
        lines.push(line);
    }
    Ok(lines.join("\n"))
}
