//! Go: `legal`, `perft` and `bench` for `--game go`.
//!
//! Positions are an empty board of `--size` (default 19) plus `--moves`,
//! either GTP vertices with colours alternating from Black (`D4 Q16 pass`)
//! or coloured (`B:D4 W:pass`). Pass is a legal move; two passes in a row
//! end the game, after which there is no legal move.

use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::time::Instant;
use tengen_go::board::{move_name, parse_vertex, Color};
use tengen_go::game::{Game, KoRule};
use tengen_go::mcts::{Limits, RootFilter, Searcher};
use tengen_go::playout::{playout, Rng};

fn build(args: &PositionArgs) -> Result<Game, String> {
    let size = args.size.unwrap_or(19);
    if !(2..=25).contains(&size) {
        return Err(format!("board size {size} is not supported (2..25)"));
    }
    if args.position != "startpos" && !args.position.is_empty() {
        return Err(format!(
            "Go positions are given as --size and --moves, not '{}'",
            args.position
        ));
    }
    let mut game = Game::new(size, 7.5);
    if let Some(r) = &args.rule {
        let rule = KoRule::parse(r)
            .ok_or_else(|| format!("unknown ko rule '{r}' (simple, positional, situational)"))?;
        game.set_ko_rule(rule);
    }
    let mut next = Color::Black;
    for (i, token) in args
        .moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .enumerate()
    {
        let (color, vertex) = match token.split_once(':') {
            Some((c, v)) => (
                Color::parse(c).ok_or_else(|| format!("move {}: bad colour '{c}'", i + 1))?,
                v,
            ),
            None => (next, token),
        };
        let mv = parse_vertex(vertex, size)
            .ok_or_else(|| format!("move {}: bad vertex '{vertex}' for size {size}", i + 1))?;
        game.play(color, mv)
            .map_err(|e| format!("move {} ({token}) is illegal: {e}", i + 1))?;
        next = color.opp();
    }
    Ok(game)
}

pub fn legal(args: &PositionArgs) -> Result<String, String> {
    let game = build(args)?;
    let mut out = String::new();
    // Every legal point, then pass; none once the game is over: the rules
    // crate's perft view of the game, so `legal` and `perft` agree.
    for name in tengen_games::legal_move_names(&game) {
        out.push_str(&name);
        out.push('\n');
    }
    if game.is_over() {
        let s = game.tromp_taylor();
        let who = if s.0 > 0.0 {
            "black"
        } else if s.0 < 0.0 {
            "white"
        } else {
            "draw"
        };
        out.push_str(&format!("result: {who} Tromp-Taylor score {s}\n"));
    } else {
        out.push_str("result: ongoing\n");
    }
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    let mut game = build(&args.pos)?;
    if args.depth == 0 {
        return Ok("1\n".into());
    }
    let mut out = String::new();
    if args.divide {
        let mut total = 0;
        for (m, n) in tengen_games::divide(&mut game, args.depth) {
            out.push_str(&format!("{}: {n}\n", move_name(m)));
            total += n;
        }
        out.push_str(&format!("\n{total}\n"));
    } else {
        out.push_str(&format!("{}\n", tengen_games::perft(&mut game, args.depth)));
    }
    Ok(out)
}

/// Playout speed on empty 9x9 and 19x19 boards (one thread), then a
/// fixed-playout search; `--depth N` sets thousands of playouts.
/// CPU seconds this process has used (all threads), from /proc on Linux:
/// on a loaded machine the wall clock overstates the work, CPU time does
/// not. `None` elsewhere. Resolution 10 ms: bench runs of a second or so.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

/// Wall and CPU time since (`t`, `cpu`) as text, with a rate of `n` per
/// second of each.
fn timing(t: Instant, cpu: Option<f64>, n: u64) -> String {
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    let mut s = format!("{secs:.3} s: {:.0} playouts/s", n as f64 / secs);
    if let (Some(a), Some(b)) = (cpu, cpu_seconds()) {
        let c = (b - a).max(0.01);
        s.push_str(&format!(" (cpu {c:.2} s: {:.0}/s)", n as f64 / c));
    }
    s
}

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let thousands = args.depth.unwrap_or(20).max(1) as u64;
    let mut out = String::new();
    let mut signature = 0u64;
    for size in [9usize, 19] {
        let n = thousands * 1000 / if size == 19 { 4 } else { 1 };
        let mut rng = Rng::new(12345);
        let empty = Game::new(size, 7.5);
        let t = Instant::now();
        let cpu = cpu_seconds();
        let mut moves = 0u64;
        for _ in 0..n {
            let mut b = empty.board().clone();
            let o = playout(&mut b, Color::Black, &mut rng, 0);
            moves += b.stone_count() as u64;
            signature = signature
                .wrapping_mul(31)
                .wrapping_add(o.black_margin as i64 as u64);
        }
        out.push_str(&format!(
            "{size}x{size}: {n} playouts in {}, {moves} stones\n",
            timing(t, cpu, n)
        ));
    }
    // A genmove from the empty board at a fixed playout count, one thread.
    for size in [9usize, 19] {
        let game = Game::new(size, 7.0);
        let mut s = Searcher::new(1);
        let limits = Limits {
            playouts: Some(thousands * 500),
            time: None,
            threads: 1,
            extra_komi: 0.0,
        };
        let t = Instant::now();
        let cpu = cpu_seconds();
        let a = s.search(
            &game,
            Color::Black,
            &limits,
            &RootFilter::default(),
            &mut |_| false,
        );
        out.push_str(&format!(
            "genmove {size}x{size} at {} playouts: {}, best {}\n",
            a.playouts,
            timing(t, cpu, a.playouts),
            a.candidates
                .first()
                .map(|c| move_name(c.mv))
                .unwrap_or_default()
        ));
    }
    out.push_str(&format!("signature {signature}\n"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(size: usize, moves: &[&str]) -> PositionArgs {
        PositionArgs {
            game: crate::games::Game::Go,
            position: "startpos".into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            chess960: false,
            size: Some(size),
            rule: None,
            black: None,
            white: None,
            to_move: None,
        }
    }

    #[test]
    fn small_board_perft_counts_passes_and_game_end() {
        // 2x2: 4 points + pass at the root.
        let p = PerftArgs {
            pos: pos(2, &[]),
            depth: 1,
            divide: false,
        };
        assert_eq!(perft(&p).as_deref(), Ok("5\n"));
        // After two passes the game is over.
        let out = legal(&pos(3, &["pass", "pass"])).unwrap_or_default();
        assert!(out.starts_with("result: white"), "{out}");
        let out = legal(&pos(9, &["B:E5", "W:E5"]));
        assert!(out.is_err());
        assert!(legal(&pos(9, &["K9"])).is_err());
        assert!(legal(&pos(26, &[])).is_err());
    }
}
