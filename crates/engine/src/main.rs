//! `tengen`: one engine for chess, xiangqi, shogi, Go and gomoku/renju,
//! speaking UCI, UCCI, USI, GTP, AGI, Gomocup and CECP (xboard).

mod agi;
mod background;
mod cecp;
mod datagen;
mod detect;
mod evalfile;
mod games;
mod gomocup;
mod gtp;
mod io;
mod memory;
mod session;
mod skill;
mod ucifam;

use clap::{Args, Parser, Subcommand};
use detect::{detect, Detected, Protocol};
use games::Game;
use std::process::ExitCode;
use tengen_protocol::grammar::Dialect;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A multi-game engine: chess, xiangqi, shogi, Go, gomoku/renju"
)]
struct Cli {
    /// Speak this protocol instead of detecting it from the first line
    /// (uci, ucci, usi, gtp, agi, gomocup, xboard; `cecp` is xboard).
    #[arg(long, global = false)]
    protocol: Option<Protocol>,
    /// Play this game (chess, xiangqi, shogi, go, gomoku); by default the
    /// protocol decides (UCI: chess, UCCI: xiangqi, USI: shogi, ...).
    #[arg(long)]
    game: Option<Game>,
    /// Evaluate with this network file (`tengen-nnue` format; chess or
    /// xiangqi, as its header says) instead of the built-in evaluation;
    /// refused with a message if it does not fit. `<empty>` is the
    /// hand-made evaluation, `<default>` the built-in one, for both games.
    #[arg(long, global = true)]
    eval_file: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search a fixed set of positions to a fixed depth on one thread and
    /// print the node count (a signature) and the speed.
    Bench(BenchArgs),
    /// Print every legal move of a position, then its game result.
    Legal(PositionArgs),
    /// Count the leaves of the legal move tree to a depth.
    Perft(PerftArgs),
    /// Play self-play games and write training data for a network
    /// (chess, xiangqi, shogi); resumable, see `datagen.rs`.
    Datagen(datagen::DatagenArgs),
}

#[derive(Args)]
pub struct BenchArgs {
    #[arg(long, default_value = "chess")]
    pub game: Game,
    /// Depth for every position (default: the game's bench depth).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    #[arg(long)]
    pub game: Game,
    /// A FEN/SFEN (or `startpos`).
    #[arg(long, default_value = "startpos")]
    pub position: String,
    /// Moves to play from the position first, in the protocol's notation.
    #[arg(long, num_args = 0.., allow_hyphen_values = true)]
    pub moves: Vec<String>,
    /// Read castling in Chess960 style (chess).
    #[arg(long)]
    pub chess960: bool,
    /// Board size (Go, gomoku).
    #[arg(long)]
    pub size: Option<usize>,
    /// Rule set (gomoku: freestyle, standard, renju; Go: superko kind).
    #[arg(long)]
    pub rule: Option<String>,
    /// Stone sets that no game order reached (gomoku).
    #[arg(long)]
    pub black: Option<String>,
    #[arg(long)]
    pub white: Option<String>,
    #[arg(long = "to-move")]
    pub to_move: Option<String>,
}

#[derive(Args, Clone, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    #[arg(long)]
    pub depth: u32,
    /// Print each root move's count first, as `go perft` does.
    #[arg(long)]
    pub divide: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if let Some(path) = &cli.eval_file {
        match evalfile::load(path) {
            Ok(line) => eprintln!("tengen: {line}"),
            Err(e) => {
                eprintln!("tengen: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match cli.command {
        Some(Command::Bench(args)) => report(games::bench(&args)),
        Some(Command::Legal(args)) => report(games::legal(&args)),
        Some(Command::Perft(args)) => report(games::perft(&args)),
        Some(Command::Datagen(args)) => report(datagen::run(&args)),
        None => ExitCode::from(run_engine(cli.protocol, cli.game)),
    }
}

/// Prints a subcommand's output, or its error on one stderr line (exit 2).
fn report(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tengen: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_engine(protocol: Option<Protocol>, game: Option<Game>) -> u8 {
    // One process may play a thousand games: freed search memory goes back.
    memory::keep_heaps_trimmed();
    let input = io::spawn_stdin_reader();
    let out = io::Output::stdout();
    let mut first = None;
    let protocol = match protocol {
        Some(p) => p,
        None => loop {
            let Ok(line) = input.recv() else {
                return 0;
            };
            match detect(&line) {
                Detected::Skip => continue,
                Detected::Quit => return 0,
                Detected::Protocol(p) => {
                    first = Some(line);
                    break p;
                }
                Detected::Unknown => {
                    eprintln!(
                        "tengen: cannot tell the protocol from '{}'; start with uci, ucci, usi, xboard, agi, a GTP or a Gomocup command, or pass --protocol",
                        line.trim()
                    );
                }
            }
        },
    };
    let start = Start { game, first };
    match protocol {
        Protocol::Uci => ucifam::run(Dialect::Uci, start, input, out),
        Protocol::Ucci => ucifam::run(Dialect::Ucci, start, input, out),
        Protocol::Usi => ucifam::run(Dialect::Usi, start, input, out),
        Protocol::Gtp => gtp::run(start, input, out),
        Protocol::Agi => agi::run(start, input, out),
        Protocol::Gomocup => gomocup::run(start, input, out),
        Protocol::Cecp => cecp::run(start, input, out),
    }
}

/// How a front-end was started.
pub struct Start {
    /// The game asked for on the command line, if any.
    pub game: Option<Game>,
    /// The line that revealed the protocol; the front-end handles it first.
    pub first: Option<String>,
}

/// Front-ends of protocols whose game is not built yet say so and leave.
pub fn not_built(out: &io::Output, protocol: Protocol, game: &str) -> u8 {
    let msg = format!("tengen: the {protocol} protocol ({game}) is not built yet");
    eprintln!("{msg}");
    out.line(&msg);
    3
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command-line names of games and protocols come from
    /// `tengen-games`; these are the spellings users and scripts rely on.
    #[test]
    fn command_line_game_and_protocol_names() {
        let cli = Cli::try_parse_from(["tengen", "--protocol", "PBRAIN", "--game", "renju"])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cli.protocol, Some(Protocol::Gomocup));
        assert_eq!(cli.game, Some(Game::Gomoku));
        for (name, game) in [
            ("chess", Game::Chess),
            ("chess960", Game::Chess),
            ("xiangqi", Game::Xiangqi),
            ("shogi", Game::Shogi),
            ("go", Game::Go),
            ("gomoku", Game::Gomoku),
        ] {
            let cli = Cli::try_parse_from(["tengen", "perft", "--game", name, "--depth", "1"])
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let Some(Command::Perft(args)) = cli.command else {
                panic!("{name}: not a perft command");
            };
            assert_eq!(args.pos.game, game);
        }
        for p in ["uci", "ucci", "usi", "gtp", "agi", "gomocup", "xboard"] {
            let cli = Cli::try_parse_from(["tengen", "--protocol", p])
                .unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(cli.protocol.map(Protocol::name), Some(p));
        }
        let err = Cli::try_parse_from(["tengen", "bench", "--game", "standard"])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("unknown game 'standard' (expected chess, xiangqi, shogi, go or gomoku)"),
            "{err}"
        );
        let cli =
            Cli::try_parse_from(["tengen", "--protocol", "cecp"]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cli.protocol, Some(Protocol::Cecp));
        assert!(Cli::try_parse_from(["tengen", "--protocol", "telnet"]).is_err());
    }
}
