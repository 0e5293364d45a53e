//! Shogi glue: the `bench`, `legal` and `perft` subcommands.

use crate::session::{AbGame, Flags, Tsume};
use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tengen_games::Perft;
use tengen_shogi::{Color, Game, Move, SearchEval, TsumeLimits, TsumeResult};

/// Shogi as the USI front-end's session sees it.
pub struct ShogiGame;

impl AbGame for ShogiGame {
    type Pos = Game;
    type Eval = SearchEval;
    const TIME: tengen_core::timeman::GameTime = tengen_core::timeman::SHOGI;

    fn load_eval_file(path: &str) -> Result<String, String> {
        tengen_shogi::nnue::load_eval_file(path)
    }

    fn startpos() -> Game {
        Game::startpos()
    }

    fn from_fen(fen: &str, _flags: Flags) -> Result<Game, String> {
        Game::from_usi(fen, &[])
    }

    fn parse_move(pos: &Game, text: &str, _flags: Flags) -> Result<Move, String> {
        pos.board().parse_move(text)
    }

    fn move_name(_pos: &Game, m: Move, _flags: Flags) -> String {
        m.to_string()
    }

    fn divide(pos: &mut Game, depth: u32) -> Vec<(Move, u64)> {
        let mut board = pos.board().clone();
        tengen_shogi::divide(&mut board, depth.max(1))
    }

    fn game_ply(pos: &Game) -> u32 {
        // SFEN move numbers count plies from 1.
        pos.board().move_number().saturating_sub(1)
    }

    fn first_player_to_move(pos: &Game) -> bool {
        pos.board().side_to_move() == Color::Black
    }

    fn position(sfen: Option<&str>, moves: &[String], _flags: Flags) -> Result<Game, String> {
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        Game::from_usi(sfen.unwrap_or("startpos"), &moves)
    }

    fn can_declare_win(pos: &Game) -> bool {
        pos.board().can_declare_win()
    }

    fn solve_mate(
        pos: &Game,
        time: Option<Duration>,
        stop: &AtomicBool,
        entries: usize,
    ) -> Option<(Tsume<Move>, u64)> {
        let limits = TsumeLimits {
            time,
            nodes: None,
            stop: Some(stop),
            max_entries: entries,
        };
        let mut solver = tengen_shogi::dfpn::Solver::new(limits);
        let answer = match solver.solve(pos) {
            TsumeResult::Mate(line) => Tsume::Mate(line),
            TsumeResult::NoMate => Tsume::NoMate,
            TsumeResult::Timeout => Tsume::Timeout,
        };
        Some((answer, solver.nodes()))
    }
}

/// The position of `--position` (SFEN or `startpos`) and `--moves` (USI),
/// every step checked.
fn position(args: &PositionArgs) -> Result<Game, String> {
    let moves: Vec<&str> = args.moves.iter().map(String::as_str).collect();
    Game::from_usi(&args.position, &moves).map_err(|e| format!("bad position: {e}"))
}

/// Every legal move in USI notation, sorted, then `result: ...`, where
/// `black` is sente.
pub fn legal(args: &PositionArgs) -> Result<String, String> {
    let pos = position(args)?;
    let mut names = tengen_games::legal_move_names(pos.board());
    names.sort();
    let mut out = String::new();
    for n in names {
        out.push_str(&n);
        out.push('\n');
    }
    let result = pos
        .outcome()
        .map_or_else(|| "ongoing".to_string(), |o| o.describe());
    out.push_str(&format!("result: {result}\n"));
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    // The board alone: perft needs no repetition history.
    let mut board = position(&args.pos)?.board().clone();
    Ok(super::perft_report(
        &mut board,
        args.depth,
        args.divide,
        Perft::move_name,
    ))
}

/// Default depth of `tengen bench --game shogi`.
const BENCH_DEPTH: u32 = 9;

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let positions = tengen_shogi::BENCH_FENS
        .iter()
        .enumerate()
        .map(|(i, sfen)| {
            Game::from_usi(sfen, &[]).map_err(|e| format!("bench position {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(super::bench_search::<Game, SearchEval>(
        &positions,
        args.depth.unwrap_or(BENCH_DEPTH),
        args.hash,
        |_, m| m.to_string(),
    ))
}
