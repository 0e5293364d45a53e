//! Gomoku / renju: `legal`, `perft` and `bench` for `--game gomoku`.
//!
//! Positions: `--rule freestyle|standard|renju` (default freestyle),
//! `--size N` (default 15), then either `--moves x,y ...` played in order
//! from black (every move checked, black's renju forbidden points
//! refused), or `--black 'x,y x,y' --white '...' --to-move black|white`
//! for stone sets no game order reached.

use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::fmt::Write;
use std::time::Instant;
use tengen_gomoku::search::{self, Limits};
use tengen_gomoku::{Board, Color, Outcome, Point, Rule};

fn parse_points(s: &str) -> Result<Vec<Point>, String> {
    s.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|t| !t.is_empty())
        .map(Point::parse_xy)
        .collect()
}

/// Builds the position the arguments describe.
pub fn board_from(args: &PositionArgs) -> Result<Board, String> {
    let rule: Rule = match &args.rule {
        Some(r) => r.parse()?,
        None => Rule::Freestyle,
    };
    let size = args.size.unwrap_or(15);
    let mut b = Board::new(size, size, rule)?;
    if args.position != "startpos" && !args.position.trim().is_empty() {
        return Err(format!(
            "gomoku takes no --position ('{}'); use --moves or --black/--white",
            args.position
        ));
    }
    let set_up = args.black.is_some() || args.white.is_some() || args.to_move.is_some();
    if set_up && !args.moves.is_empty() {
        return Err("give either --moves or --black/--white/--to-move, not both".into());
    }
    if set_up {
        for (text, c) in [(&args.black, Color::Black), (&args.white, Color::White)] {
            for p in parse_points(text.as_deref().unwrap_or(""))? {
                b.place(p, c)
                    .map_err(|e| format!("{} stone: {e}", c.name()))?;
            }
        }
        let to_move = match &args.to_move {
            Some(t) => t.parse()?,
            None => {
                let blacks = b.history().filter(|&(_, c)| c == Color::Black).count();
                if blacks * 2 > b.stones() {
                    Color::White
                } else {
                    Color::Black
                }
            }
        };
        b.set_to_move(to_move);
        b.rejudge();
        if five_of(&b, Color::Black) && five_of(&b, Color::White) {
            return Err("both colours have five in a row".into());
        }
    } else {
        for t in &args.moves {
            for p in parse_points(t)? {
                b.play(p).map_err(|e| format!("move {p}: {e}"))?;
            }
        }
    }
    Ok(b)
}

/// Whether `c`'s stones alone hold a winning row.
fn five_of(b: &Board, c: Color) -> bool {
    let Ok(mut t) = Board::new(b.width(), b.height(), b.rule()) else {
        return false;
    };
    for (p, col) in b.history() {
        if col == c && t.place(p, c).is_err() {
            return false;
        }
    }
    t.rejudge();
    matches!(t.outcome(), Outcome::Win(w, _) if w == c)
}

fn result_line(b: &Board) -> String {
    match b.outcome() {
        Outcome::Ongoing if b.legal_moves().is_empty() => "result: draw no-legal-move".into(),
        o => format!("result: {o}"),
    }
}

pub fn legal(args: &PositionArgs) -> Result<String, String> {
    let b = board_from(args)?;
    let mut out = String::new();
    for name in tengen_games::legal_move_names(&b) {
        let _ = writeln!(out, "{name}");
    }
    let _ = writeln!(out, "{}", result_line(&b));
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    let mut b = board_from(&args.pos)?;
    if args.depth > 4 {
        return Err(format!(
            "perft depth {} is too deep for gomoku (at most 4)",
            args.depth
        ));
    }
    let start = Instant::now();
    let mut out = String::new();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (p, n) in tengen_games::divide(&mut b, args.depth) {
            let _ = writeln!(out, "{p}: {n}");
            total += n;
        }
        let _ = writeln!(out);
        total
    } else {
        tengen_games::perft(&mut b, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "Nodes searched: {total}");
    eprintln!(
        "perft {} in {:.3} s ({:.0} nodes/s)",
        args.depth,
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(out)
}

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let depth = args.depth.unwrap_or(search::BENCH_DEPTH);
    let mut out = String::new();
    let start = Instant::now();
    let mut nodes = 0u64;
    for (i, (rule, moves)) in search::BENCH_POSITIONS.iter().enumerate() {
        let mut b = Board::new(15, 15, *rule)?;
        for m in moves.split_whitespace() {
            let p = Point::parse_xy(m)?;
            b.play(p).map_err(|e| format!("bench position {i}: {e}"))?;
        }
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        // The bench measures the search: a book position would not be searched.
        let mut searcher = search::Searcher::new(args.hash);
        searcher.set_book(false);
        let r = searcher.think(&b, &limits, &mut |_| {});
        nodes += r.nodes;
        let best = r.best.map_or("none".to_string(), |p| p.xy());
        let _ = writeln!(
            out,
            "position {:>2} {:<9} best {:<6} score {:>6} nodes {}",
            i + 1,
            rule.name(),
            best,
            r.score,
            r.nodes
        );
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "Nodes searched: {nodes}");
    let _ = writeln!(out, "Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(out)
}
