//! `tengen-relabel`: chess, xiangqi or shogi training records scored again by
//! another UCI or USI engine (see `tengen_train::relabel`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tengen_train::relabel::{self, Settings};

#[derive(Parser)]
#[command(
    name = "tengen-relabel",
    about = "Score tengen datagen chess or xiangqi (UCI) or shogi (USI) shards again with another engine's search (resumable per shard)"
)]
struct Cli {
    /// Shards, or directories of `*.bin` shards.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Directory for the relabelled shards (shards already there are skipped).
    #[arg(long)]
    out: PathBuf,
    /// The UCI engine's program.
    #[arg(long)]
    engine: PathBuf,
    /// An argument for the engine's program (repeatable).
    #[arg(long = "engine-arg")]
    engine_args: Vec<String>,
    /// A UCI option as Name=Value (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// The engine speaks USI and the shards are shogi's (default: UCI, chess or xiangqi).
    #[arg(long)]
    usi: bool,
    /// `go nodes` for each position.
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Multiplies the engine's centipawns before they are stored.
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// Leave out records whose new score is beyond this.
    #[arg(long, default_value_t = 3000)]
    max_score: i32,
    /// Engines run in parallel, one shard each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Stop after this many seconds, writing each shard being worked on
    /// with the records scored so far (without it, a killed run leaves
    /// `.tmp` files that the next run continues).
    #[arg(long)]
    seconds: Option<f64>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let scale_ok = cli.scale.is_finite() && cli.scale > 0.0;
    if !scale_ok || !(1..=i16::MAX as i32).contains(&cli.max_score) {
        eprintln!("tengen-relabel: --scale must be positive and --max-score from 1 to 32767");
        return ExitCode::from(2);
    }
    if cli.seconds.is_some_and(|s| !s.is_finite() || s < 0.0) {
        eprintln!("tengen-relabel: --seconds must be a number of seconds, 0 or more");
        return ExitCode::from(2);
    }
    let settings = Settings {
        engine: cli.engine,
        args: cli.engine_args,
        options: cli.options,
        nodes: cli.nodes.max(1),
        usi: cli.usi,
        scale: cli.scale,
        max_score: cli.max_score,
        seconds: cli.seconds,
    };
    match relabel::run(&cli.data, &cli.out, cli.threads, &settings) {
        Ok(c) => {
            eprintln!(
                "tengen-relabel: {} positions read, {} written",
                c.read, c.written
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tengen-relabel: {e}");
            ExitCode::FAILURE
        }
    }
}
