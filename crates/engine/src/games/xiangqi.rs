//! Xiangqi glue: the game binding for the generic alpha-beta session
//! (UCI for xiangqi) and the `bench`, `legal` and `perft` subcommands.

use crate::session::{AbGame, Flags};
use crate::{BenchArgs, PerftArgs, PositionArgs};
use tengen_games::Perft;
use tengen_xiangqi::{
    format_move, parse_move, Board, Color, Move, Notation, Outcome, XiangqiNetEval,
};

/// Xiangqi for the UCI front-end: ICCS ranks 0..9, or 1..10 when the
/// front-end sets `uci_ranks` (Fairy-Stockfish's UCI convention).
pub struct XiangqiGame;

fn notation(flags: Flags) -> Notation {
    if flags.uci_ranks {
        Notation::Uci
    } else {
        Notation::Iccs
    }
}

impl AbGame for XiangqiGame {
    type Pos = Board;
    const TIME: tengen_core::timeman::GameTime = tengen_core::timeman::XIANGQI;
    /// The network loaded with `--eval-file` or `EvalFile` (UCI, UCCI),
    /// else the hand-made one.
    type Eval = XiangqiNetEval;

    fn load_eval_file(path: &str) -> Result<String, String> {
        tengen_xiangqi::nnue::load_eval_file(path)
    }

    fn startpos() -> Board {
        Board::startpos()
    }

    fn from_fen(fen: &str, _flags: Flags) -> Result<Board, String> {
        Board::from_fen(fen)
    }

    fn parse_move(pos: &Board, text: &str, flags: Flags) -> Result<Move, String> {
        parse_move(pos, text, notation(flags))
    }

    fn move_name(_pos: &Board, m: Move, flags: Flags) -> String {
        format_move(m, notation(flags))
    }

    fn divide(pos: &mut Board, depth: u32) -> Vec<(Move, u64)> {
        tengen_xiangqi::perft::divide(pos, depth.max(1))
    }

    fn game_ply(pos: &Board) -> u32 {
        (pos.fullmove_number().max(1) - 1).saturating_mul(2)
            + (pos.side_to_move() == Color::Black) as u32
    }

    fn first_player_to_move(pos: &Board) -> bool {
        pos.side_to_move() == Color::Red
    }

    fn set_move_limit(pos: &mut Board, plies: u32) {
        pos.set_move_limit(plies);
    }
}

/// The position of `--position` and `--moves` (ICCS), every step checked.
fn position(args: &PositionArgs) -> Result<Board, String> {
    let mut board = if args.position.trim() == "startpos" {
        Board::startpos()
    } else {
        Board::from_fen(&args.position).map_err(|e| format!("bad FEN: {e}"))?
    };
    for (i, text) in args.moves.iter().enumerate() {
        let m =
            parse_move(&board, text, Notation::Iccs).map_err(|e| format!("move {}: {e}", i + 1))?;
        board.make(m);
    }
    Ok(board)
}

/// Every legal move in ICCS, sorted, then `result: ...` (`white` is Red,
/// the side FEN marks `w`).
pub fn legal(args: &PositionArgs) -> Result<String, String> {
    let board = position(args)?;
    let mut names = tengen_games::legal_move_names(&board);
    names.sort();
    let mut out = String::new();
    for n in names {
        out.push_str(&n);
        out.push('\n');
    }
    let result = match board.outcome() {
        Outcome::Ongoing => "ongoing".to_string(),
        Outcome::Win(c, r) => format!(
            "{} {}",
            if c == Color::Red { "white" } else { "black" },
            r.name()
        ),
        Outcome::Draw(r) => format!("draw {}", r.name()),
    };
    out.push_str(&format!("result: {result}\n"));
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    let mut board = position(&args.pos)?;
    Ok(super::perft_report(
        &mut board,
        args.depth,
        args.divide,
        Perft::move_name,
    ))
}

/// Default depth of `tengen bench --game xiangqi`.
const BENCH_DEPTH: u32 = 10;

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let positions = tengen_xiangqi::BENCH_FENS
        .iter()
        .enumerate()
        .map(|(i, fen)| Board::from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(super::bench_search::<Board, XiangqiNetEval>(
        &positions,
        args.depth.unwrap_or(BENCH_DEPTH),
        args.hash,
        |_, m| format_move(m, Notation::Iccs),
    ))
}
