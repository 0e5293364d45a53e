//! Chess glue: the UCI front-end's game binding and the `bench`, `legal`
//! and `perft` subcommands.

use crate::session::{AbGame, Flags};
use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::time::Instant;
use tengen_chess::{Board, Color, Eval, Move};
use tengen_core::{SearchLimits, Signals};
use tengen_search::Searcher;

pub struct ChessGame;

impl AbGame for ChessGame {
    type Pos = Board;
    type Eval = Eval;

    fn startpos() -> Board {
        Board::startpos()
    }

    fn from_fen(fen: &str, _flags: Flags) -> Result<Board, String> {
        Board::from_fen(fen).map_err(|e| e.to_string())
    }

    fn parse_move(pos: &Board, text: &str, flags: Flags) -> Result<Move, String> {
        pos.parse_uci_move(text, flags.chess960)
            .map_err(|e| e.to_string())
    }

    fn move_name(pos: &Board, m: Move, flags: Flags) -> String {
        pos.move_to_uci(m, flags.chess960)
    }

    fn divide(pos: &mut Board, depth: u32) -> Vec<(Move, u64)> {
        pos.divide(depth)
    }

    fn game_ply(pos: &Board) -> u32 {
        (pos.fullmove_number().max(1) - 1) * 2 + (pos.side_to_move() == Color::Black) as u32
    }

    fn first_player_to_move(pos: &Board) -> bool {
        pos.side_to_move() == Color::White
    }
}

/// The position of `--position` and `--moves`, every step checked.
fn position(args: &PositionArgs) -> Result<Board, String> {
    let mut board = if args.position.trim() == "startpos" {
        Board::startpos()
    } else {
        Board::from_fen(&args.position).map_err(|e| format!("bad FEN: {e}"))?
    };
    for (i, text) in args.moves.iter().enumerate() {
        let m = board
            .parse_uci_move(text, args.chess960)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        board.play(m);
    }
    Ok(board)
}

pub fn legal(args: &PositionArgs) -> Result<String, String> {
    let board = position(args)?;
    let mut out = String::new();
    let mut names: Vec<String> = board
        .legal_moves()
        .into_iter()
        .map(|m| board.move_to_uci(m, args.chess960))
        .collect();
    names.sort();
    for n in names {
        out.push_str(&n);
        out.push('\n');
    }
    let result = match board.outcome() {
        None => "ongoing".to_string(),
        Some(o) => {
            let who = match o.winner {
                Some(Color::White) => "white",
                Some(Color::Black) => "black",
                None => "draw",
            };
            format!("{who} {}", o.reason)
        }
    };
    out.push_str(&format!("result: {result}\n"));
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    let mut board = position(&args.pos)?;
    if args.divide {
        let counts = board.divide(args.depth);
        let mut out = String::new();
        let mut total = 0;
        for (m, n) in counts {
            out.push_str(&format!(
                "{}: {n}\n",
                board.move_to_uci(m, args.pos.chess960)
            ));
            total += n;
        }
        out.push_str(&format!("\nNodes searched: {total}\n"));
        Ok(out)
    } else {
        Ok(format!("{}\n", board.perft(args.depth)))
    }
}

/// Default depth of `tengen bench` for chess.
const BENCH_DEPTH: u32 = 12;

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let depth = args.depth.unwrap_or(BENCH_DEPTH);
    let mut searcher: Searcher<Board, Eval> = Searcher::new(args.hash);
    let eval = Eval::default();
    let mut nodes = 0u64;
    let start = Instant::now();
    let mut out = String::new();
    for (i, fen) in tengen_chess::BENCH_FENS.iter().enumerate() {
        let board = Board::from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        // Every position starts from a clean slate so the count is a
        // signature of the code alone.
        searcher.clear();
        let r = searcher.search(
            &board,
            &eval,
            &SearchLimits::depth(depth),
            &Signals::new(),
            None,
            &mut |_| {},
        );
        nodes += r.nodes;
        let best = r
            .best
            .map(|m| board.move_to_uci(m, false))
            .unwrap_or_else(|| "(none)".into());
        out.push_str(&format!(
            "position {:>2}: bestmove {best:<6} score {:>6} nodes {}\n",
            i + 1,
            r.score.0,
            r.nodes
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    out.push_str(&format!(
        "===========================\nTotal time (ms) : {}\nNodes searched  : {nodes}\nNodes/second    : {}\n",
        (secs * 1000.0) as u64,
        (nodes as f64 / secs) as u64
    ));
    Ok(out)
}
