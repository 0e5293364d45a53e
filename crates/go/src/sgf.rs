//! SGF (FF[4]) for Go: a small parser for the main line of a game record
//! and a writer. Variations are skipped (the first one is the main line).

use crate::board::{Color, Move, Point};
use crate::game::{fmt_num, Game};

/// One node's properties, in order.
pub type Node = Vec<(String, Vec<String>)>;

/// The main line of an SGF record.
#[derive(Debug, Default)]
pub struct Record {
    pub nodes: Vec<Node>,
}

/// Parses the first game tree's main line.
pub fn parse(text: &str) -> Result<Record, String> {
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() && b[i] != '(' {
        i += 1;
    }
    if i >= b.len() {
        return Err("no game tree".into());
    }
    let mut rec = Record::default();
    // depth of parentheses; once the main line's first variation ends we
    // skip everything else.
    let mut depth = 0i32;
    let mut skipping_from: Option<i32> = None;
    while i < b.len() {
        match b[i] {
            '(' => {
                depth += 1;
                i += 1;
            }
            ')' => {
                if skipping_from.is_none() {
                    // The main line ends at its first closing parenthesis.
                    skipping_from = Some(depth);
                }
                depth -= 1;
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            ';' => {
                i += 1;
                let mut node: Node = Vec::new();
                loop {
                    while i < b.len() && b[i].is_whitespace() {
                        i += 1;
                    }
                    let start = i;
                    while i < b.len() && b[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    if start == i {
                        break;
                    }
                    let ident: String = b[start..i]
                        .iter()
                        .filter(|c| c.is_ascii_uppercase())
                        .collect();
                    let mut values = Vec::new();
                    loop {
                        while i < b.len() && b[i].is_whitespace() {
                            i += 1;
                        }
                        if i >= b.len() || b[i] != '[' {
                            break;
                        }
                        i += 1;
                        let mut v = String::new();
                        while i < b.len() && b[i] != ']' {
                            if b[i] == '\\' && i + 1 < b.len() {
                                i += 1;
                            }
                            v.push(b[i]);
                            i += 1;
                        }
                        if i >= b.len() {
                            return Err("unterminated property value".into());
                        }
                        i += 1;
                        values.push(v);
                    }
                    if values.is_empty() {
                        return Err(format!("property {ident} without a value"));
                    }
                    node.push((ident, values));
                }
                if skipping_from.is_none() {
                    rec.nodes.push(node);
                }
            }
            c if c.is_whitespace() => i += 1,
            c => return Err(format!("unexpected '{c}' in SGF")),
        }
    }
    if rec.nodes.is_empty() {
        return Err("empty game tree".into());
    }
    Ok(rec)
}

/// `dd` style point (`a` = left column, `a` = top row) on a board
/// `w` x `h`; empty or `tt` on boards up to 19 a side is a pass.
fn sgf_move(v: &str, (w, h): (usize, usize)) -> Result<Move, String> {
    let bytes = v.as_bytes();
    if bytes.is_empty() || (v == "tt" && w <= 19 && h <= 19) {
        return Ok(Move::Pass);
    }
    if bytes.len() != 2 {
        return Err(format!("bad SGF point '{v}'"));
    }
    let coord = |c: u8| -> Option<usize> {
        match c {
            b'a'..=b'z' => Some((c - b'a') as usize),
            b'A'..=b'Z' => Some((c - b'A') as usize + 26),
            _ => None,
        }
    };
    match (coord(bytes[0]), coord(bytes[1])) {
        (Some(x), Some(row)) if x < w && row < h => Ok(Move::Play(Point::from_xy(x, h - 1 - row))),
        _ => Err(format!("SGF point '{v}' is off the board")),
    }
}

/// Points of a property value, with `aa:cc` compressed rectangles.
fn sgf_points(v: &str, size: (usize, usize)) -> Result<Vec<Point>, String> {
    if let Some((a, b)) = v.split_once(':') {
        let (Move::Play(p), Move::Play(q)) = (sgf_move(a, size)?, sgf_move(b, size)?) else {
            return Err(format!("bad rectangle '{v}'"));
        };
        let mut out = Vec::new();
        for x in p.x().min(q.x())..=p.x().max(q.x()) {
            for y in p.y().min(q.y())..=p.y().max(q.y()) {
                out.push(Point::from_xy(x, y));
            }
        }
        Ok(out)
    } else {
        match sgf_move(v, size)? {
            Move::Play(p) => Ok(vec![p]),
            Move::Pass => Ok(vec![]),
        }
    }
}

/// Builds the game of a record, stopping before move number `upto`
/// (1-based, as GTP `loadsgf` counts); returns it and the colour to move.
/// Where `load` stops, as GTP's `loadsgf file [move_number|vertex]` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upto {
    /// Before this move (1 is the first move).
    Number(usize),
    /// Before the first move played at this point (GNU Go's reading of the
    /// vertex form); the whole record when no move is played there.
    Vertex(Point),
}

pub fn load(
    rec: &Record,
    upto: Option<Upto>,
    ko_rule: crate::game::KoRule,
) -> Result<(Game, Color), String> {
    let root = &rec.nodes[0];
    let prop = |node: &Node, k: &str| node.iter().find(|(i, _)| i == k).map(|(_, v)| v.clone());
    // FF[4]: `SZ[n]` for a square board, `SZ[columns:rows]` otherwise.
    let size = match prop(root, "SZ") {
        Some(v) => {
            let s = v[0].trim();
            let side = |t: &str| -> Result<usize, String> {
                let n: usize = t.trim().parse().map_err(|_| format!("bad SZ '{s}'"))?;
                if !(2..=25).contains(&n) {
                    return Err(format!("board size {n} is not supported"));
                }
                Ok(n)
            };
            match s.split_once(':') {
                Some((w, h)) => (side(w)?, side(h)?),
                None => {
                    let n = side(s)?;
                    (n, n)
                }
            }
        }
        None => (19, 19),
    };
    let komi = match prop(root, "KM") {
        Some(v) => v[0]
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("bad KM '{}'", v[0]))?,
        None => 0.0,
    };
    let mut game = Game::new_rect(size.0, size.1, komi);
    game.set_ko_rule(ko_rule);
    let mut to_move = Color::Black;
    let mut moves_played = 0usize;
    for node in &rec.nodes {
        // Setup stones.
        let mut setup = Vec::new();
        for (k, c) in [("AB", Color::Black), ("AW", Color::White)] {
            if let Some(vals) = prop(node, k) {
                for v in vals {
                    for p in sgf_points(&v, size)? {
                        setup.push((c, p));
                    }
                }
            }
        }
        if !setup.is_empty() {
            if !game.moves().is_empty() {
                return Err("setup stones after moves are not supported".into());
            }
            let mut all: Vec<(Color, Point)> = game
                .board()
                .stones(Color::Black)
                .into_iter()
                .map(|p| (Color::Black, p))
                .collect();
            all.extend(
                game.board()
                    .stones(Color::White)
                    .into_iter()
                    .map(|p| (Color::White, p)),
            );
            all.extend(setup.iter().copied());
            let mut fresh = Game::new_rect(size.0, size.1, komi);
            fresh.set_ko_rule(ko_rule);
            let black_only = all.iter().all(|(c, _)| *c == Color::Black);
            let ok = if black_only && prop(root, "HA").is_some() {
                let pts: Vec<Point> = all.iter().map(|&(_, p)| p).collect();
                fresh.set_handicap(&pts)
            } else {
                fresh.setup(&all)
            };
            if !ok {
                return Err("bad setup stones".into());
            }
            game = fresh;
            to_move = if game.handicap().is_empty() {
                Color::Black
            } else {
                Color::White
            };
        }
        if let Some(pl) = prop(node, "PL") {
            let c = Color::parse(pl[0].trim()).ok_or_else(|| format!("bad PL '{}'", pl[0]))?;
            // Who moves first, kept in the game too so that printsgf writes
            // it back; after moves the moves say who is next.
            if game.set_first_to_move(c) {
                to_move = c;
            }
        }
        for (k, c) in [("B", Color::Black), ("W", Color::White)] {
            if let Some(vals) = prop(node, k) {
                if matches!(upto, Some(Upto::Number(n)) if moves_played + 1 >= n) {
                    return Ok((game, c));
                }
                let m = sgf_move(vals[0].trim(), size)?;
                if matches!(upto, Some(Upto::Vertex(p)) if m == Move::Play(p)) {
                    return Ok((game, c));
                }
                game.play(c, m)
                    .map_err(|e| format!("move {} is illegal ({e})", moves_played + 1))?;
                moves_played += 1;
                to_move = c.opp();
            }
        }
    }
    Ok((game, to_move))
}

fn sgf_point(p: Point, height: usize) -> String {
    let letter = |i: usize| {
        (if i < 26 {
            b'a' + i as u8
        } else {
            b'A' + (i - 26) as u8
        }) as char
    };
    format!("{}{}", letter(p.x()), letter(height - 1 - p.y()))
}

/// Writes the game as SGF, with the result when given.
pub fn write(game: &Game, result: Option<&str>) -> String {
    let (w, n) = (game.width(), game.height());
    let size = if w == n {
        n.to_string()
    } else {
        format!("{w}:{n}")
    };
    let mut s = format!(
        "(;FF[4]CA[UTF-8]GM[1]AP[tengen:{}]SZ[{size}]KM[{}]RU[Chinese]",
        env!("CARGO_PKG_VERSION"),
        fmt_num(game.komi())
    );
    if let Some(r) = result {
        s.push_str(&format!("RE[{r}]"));
    }
    // The stones on the board before the first move: handicap stones and
    // setup stones (from `loadsgf`, `gogui-setup`, `set_position`).
    let start = game.start_board();
    if !game.handicap().is_empty() {
        s.push_str(&format!("HA[{}]", game.handicap().len()));
    }
    let mut setup = false;
    for c in [Color::Black, Color::White] {
        let stones = start.stones(c);
        if !stones.is_empty() {
            setup = true;
            s.push_str(if c == Color::Black { "AB" } else { "AW" });
            for p in stones {
                s.push_str(&format!("[{}]", sgf_point(p, n)));
            }
        }
    }
    // Who moves first: after handicap stones SGF already implies White,
    // on an empty board Black; anything else is said with PL.
    let first = game
        .moves()
        .first()
        .map(|m| m.color)
        .unwrap_or(game.to_move());
    let pure_handicap = game.handicap().len() == start.stones(Color::Black).len()
        && start.stones(Color::White).is_empty()
        && first == Color::White;
    // On an empty board Black moves first unless PL says otherwise.
    if (setup && !pure_handicap) || (!setup && first == Color::White) {
        s.push_str(&format!("PL[{}]", first.letter()));
    }
    for m in game.moves() {
        let v = match m.mv {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(p, n),
        };
        s.push_str(&format!("\n;{}[{v}]", m.color.letter()));
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_vertex, vertex_name};
    use crate::game::KoRule;
    use crate::playout::Rng;

    #[test]
    fn reads_a_record_and_writes_it_back() {
        let text = "(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cc][gg];W[ee];B[ec](;W[]) (;W[aa]))";
        let rec = parse(text).unwrap_or_default();
        let (g, next) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.komi(), 6.5);
        assert_eq!(g.moves().len(), 3);
        assert_eq!(next, Color::Black);
        let stones: Vec<String> = g
            .board()
            .stones(Color::Black)
            .into_iter()
            .map(vertex_name)
            .collect();
        assert_eq!(stones, ["G3", "C7", "E7"]);
        assert_eq!(
            g.board()
                .cell(match parse_vertex("E5", 9) {
                    Some(Move::Play(p)) => p,
                    _ => Point::from_xy(0, 0),
                })
                .color(),
            Some(Color::White)
        );
        // Loading up to move 2 stops before B ec.
        let (g2, next2) =
            load(&rec, Some(Upto::Number(2)), KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((g2.moves().len(), next2), (1, Color::Black));
        // Round trip.
        let again = write(&g, None);
        let (g3, _) = load(&parse(&again).unwrap_or_default(), None, KoRule::Positional)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g3.board().hash(), g.board().hash());
        assert_eq!(g3.moves(), g.moves());
    }

    #[test]
    fn white_to_move_without_setup_stones_is_written_back() {
        // Found by the go_sgf fuzz target: `PL[W]` on an empty board was
        // read (White to move) but not written, so the record came back
        // with Black to move.
        let rec = parse("(;FF[4]SZ[9]PL[W])").unwrap_or_default();
        let (g, next) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(next, Color::White);
        let text = write(&g, None);
        let again = parse(&text).unwrap_or_default();
        let (g2, next2) = load(&again, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(next2, Color::White, "{text}");
        assert_eq!(g2.to_move(), Color::White, "{text}");
        // Black to move on an empty board needs no PL.
        let (g3, _) = load(
            &parse("(;SZ[9])").unwrap_or_default(),
            None,
            KoRule::Positional,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!write(&g3, None).contains("PL["));
    }

    #[test]
    fn pl_after_moves_does_not_change_who_moves() {
        // Found by the go_sgf fuzz target: `PL[B]` after Black's move was
        // returned as the side to move while the game (and the record
        // written from it) had White to move. PL says who moves first; after
        // moves the moves say it.
        let rec = parse("(;SZ[9];B[fg];PL[B])").unwrap_or_default();
        let (g, next) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((next, g.to_move()), (Color::White, Color::White));
        let text = write(&g, None);
        let (_, again) = load(&parse(&text).unwrap_or_default(), None, KoRule::Positional)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, Color::White, "{text}");
    }

    #[test]
    fn fuzzed_input_is_an_error_not_a_panic() {
        let alphabet: Vec<char> = "();[]\\:ABWSZKMaz09 \n".chars().collect();
        let mut rng = Rng::new(99);
        for _ in 0..20_000 {
            let len = rng.below(40);
            let s: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            if let Ok(rec) = parse(&s) {
                let _ = load(&rec, Some(Upto::Number(rng.below(5))), KoRule::Positional);
                let at = Point::from_xy(rng.below(9), rng.below(9));
                let _ = load(&rec, Some(Upto::Vertex(at)), KoRule::Positional);
            }
        }
    }

    #[test]
    fn a_rectangular_record_round_trips() {
        // SZ[columns:rows], as FF[4] writes a non-square board: N is the
        // 13th column, `a` the top row.
        let text = "(;FF[4]GM[1]SZ[13:9]KM[7.5]AB[aa];W[ma];B[mi];W[])";
        let rec = parse(text).unwrap_or_default();
        let (g, next) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((g.width(), g.height()), (13, 9));
        assert_eq!(next, Color::Black);
        let names: Vec<String> = g
            .moves()
            .iter()
            .map(|m| crate::board::move_name(m.mv))
            .collect();
        assert_eq!(names, ["N9", "N1", "pass"]);
        assert_eq!(
            g.board()
                .stones(Color::Black)
                .iter()
                .map(|&p| vertex_name(p))
                .collect::<Vec<_>>(),
            ["N1", "A9"]
        );
        let again = write(&g, None);
        assert!(again.contains("SZ[13:9]"), "{again}");
        let (g2, _) = load(&parse(&again).unwrap_or_default(), None, KoRule::Positional)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((g2.width(), g2.height()), (13, 9));
        assert_eq!(g2.board().hash(), g.board().hash());
        assert_eq!(g2.moves(), g.moves());
        assert_eq!(write(&g2, None), again);
        // Points past the short side are off this board, not wrapped.
        for bad in [
            "(;SZ[13:9];B[aj])",
            "(;SZ[9:13];B[ja])",
            "(;SZ[13:1];B[aa])",
            "(;SZ[13:x])",
        ] {
            let rec = parse(bad).unwrap_or_else(|e| panic!("{bad}: {e}"));
            assert!(load(&rec, None, KoRule::Positional).is_err(), "{bad}");
        }
        // 9:13 is 9 columns, 13 rows; a square n:n is written SZ[n].
        let rec = parse("(;SZ[9:13];B[am])").unwrap_or_default();
        let (tall, _) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((tall.width(), tall.height()), (9, 13));
        assert_eq!(crate::board::move_name(tall.moves()[0].mv), "A1");
        let rec = parse("(;SZ[9:9])").unwrap_or_default();
        let (sq, _) = load(&rec, None, KoRule::Positional).unwrap_or_else(|e| panic!("{e}"));
        assert!(write(&sq, None).contains("SZ[9]"));
    }
}
