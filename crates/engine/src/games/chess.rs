//! Chess glue: the UCI front-end's game binding and the `bench`, `legal`
//! and `perft` subcommands.

use crate::session::{AbGame, Flags};
use crate::{BenchArgs, PerftArgs, PositionArgs};
use tengen_chess::{Board, ChessEval, Color, Move};

pub struct ChessGame;

impl AbGame for ChessGame {
    type Pos = Board;
    const TIME: tengen_core::timeman::GameTime = tengen_core::timeman::CHESS;
    /// The network loaded with `--eval-file` or UCI `EvalFile`, else the
    /// hand-made evaluation.
    type Eval = ChessEval;

    fn load_eval_file(path: &str) -> Result<String, String> {
        tengen_chess::nnue::load_eval_file(path)
    }

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
    let chess960 = args.pos.chess960;
    Ok(super::perft_report(
        &mut board,
        args.depth,
        args.divide,
        |b, m| b.move_to_uci(m, chess960),
    ))
}

/// Default depth of `tengen bench` for chess.
const BENCH_DEPTH: u32 = 12;

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let positions = tengen_chess::BENCH_FENS
        .iter()
        .enumerate()
        .map(|(i, fen)| Board::from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(super::bench_search::<Board, ChessEval>(
        &positions,
        args.depth.unwrap_or(BENCH_DEPTH),
        args.hash,
        |b, m| b.move_to_uci(m, false),
    ))
}
