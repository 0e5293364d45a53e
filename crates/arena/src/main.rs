//! `tengen-arena`: plays engines against each other over their own
//! protocols, referees every move with tengen's rules crates, and reports
//! W/D/L, Elo, LOS, pentanomial counts and an SPRT verdict.

use std::process::ExitCode;
use tengen_arena::config;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty()
        || args
            .iter()
            .any(|a| a == "-help" || a == "--help" || a == "-h")
    {
        print!("{}", config::USAGE);
        return if args.is_empty() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let tournament = match config::from_args(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tengen-arena: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout();
    let result = if tournament.merge.is_empty() {
        tournament.run(&mut out)
    } else {
        tournament.merge_shards(&mut out)
    };
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen-arena: {e}");
            ExitCode::from(1)
        }
    }
}
