//! `tengen-train`: trains a network on `tengen datagen` shards. See the
//! library's documentation for the model; `docs/nnue.md` for recipes.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tengen_nnue::data::Layout;
use tengen_nnue::features::{Chess, FeatureSet, Shogi, Xiangqi};
use tengen_nnue::network::Network;
use tengen_train::{hand_eval, load, run, Config, EpochReport, Records};

#[derive(Parser)]
#[command(
    name = "tengen-train",
    version,
    about = "Train a tengen-nnue network on datagen shards"
)]
struct Cli {
    /// Shard files or directories of shards (one game).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Directory for checkpoint.bin, epoch-N.nnue and latest.nnue; a run
    /// with a checkpoint there resumes.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game result in the target (the rest: the score).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    #[arg(long, default_value_t = 400)]
    scale: u32,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of positions held out for validation.
    #[arg(long, default_value_t = 0.02)]
    validation: f32,
    /// Stop after this many epochs now (resume later).
    #[arg(long)]
    stop_after: Option<usize>,
    /// Train a correction to the game's hand-made evaluation (the engine
    /// then evaluates hand-made + network); the file is flagged residual.
    #[arg(long)]
    residual: bool,
    /// Start from this network (same shape, or fewer hidden units:
    /// widened, starting at its evaluation) instead of random weights: a
    /// kept network trained further on new data.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Output weights as i16 at QB 1024 (true) or i8 at QB 64 (false).
    /// Default: true for shogi, false for chess and xiangqi; with
    /// --init, the network's own.
    #[arg(long)]
    wide: Option<bool>,
}

fn train<F: FeatureSet>(cfg: &Config, records: &Records, cli: &Cli) -> Result<(), String> {
    let mut log = |r: &EpochReport| {
        println!(
            "epoch {:>3}  lr {:.6}  train loss {:.6}  validation loss {:.6}  {} positions in {:.1} s ({:.0} pos/s)",
            r.epoch,
            r.lr,
            r.train_loss,
            r.validation_loss,
            r.positions,
            r.seconds,
            r.positions as f64 / r.seconds.max(1e-9)
        );
    };
    let t = run::<F>(cfg, records, &cli.out, &mut log)?;
    println!(
        "network {} ({}): {} epochs done",
        cli.out.join("latest.nnue").display(),
        F::NAME,
        t.epoch
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let cfg = Config {
        hidden: cli.hidden,
        epochs: cli.epochs,
        batch: cli.batch,
        lr: cli.lr,
        wdl: cli.wdl,
        scale: cli.scale,
        threads: cli.threads,
        seed: cli.seed,
        validation: cli.validation,
        stop_after: cli.stop_after,
        base: None,
        init: None,
        wide: false,
    };
    if !cfg.hidden.is_multiple_of(16) || !(16..=1024).contains(&cfg.hidden) {
        eprintln!("tengen-train: --hidden must be a multiple of 16 from 16 to 1024");
        return ExitCode::from(2);
    }
    let result = load(&cli.data).and_then(|(layout, records)| {
        eprintln!(
            "tengen-train: {} {} positions",
            records.len(),
            layout.name()
        );
        let cfg = Config {
            base: cli.residual.then_some(hand_eval(layout)),
            ..cfg
        };
        let init =
            |read: fn(&[u8]) -> Result<Network, String>| -> Result<Option<Arc<Network>>, String> {
                match &cli.init {
                    None => Ok(None),
                    Some(p) => {
                        let bytes =
                            std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                        read(&bytes)
                            .map(|n| Some(Arc::new(n)))
                            .map_err(|e| format!("{}: {e}", p.display()))
                    }
                }
            };
        // Wide output weights: as asked, else the --init network's, else
        // the game's default.
        let with_init = |init: Option<Arc<Network>>| Config {
            wide: cli.wide.unwrap_or_else(|| {
                init.as_ref()
                    .map_or(layout == Layout::Shogi, |n: &Arc<Network>| n.wide)
            }),
            init,
            ..cfg.clone()
        };
        match layout {
            Layout::Chess => {
                let cfg = with_init(init(Network::from_bytes::<Chess>)?);
                train::<Chess>(&cfg, &records, &cli)
            }
            Layout::Xiangqi => {
                let cfg = with_init(init(Network::from_bytes::<Xiangqi>)?);
                train::<Xiangqi>(&cfg, &records, &cli)
            }
            Layout::Shogi => {
                let cfg = with_init(init(Network::from_bytes::<Shogi>)?);
                train::<Shogi>(&cfg, &records, &cli)
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen-train: {e}");
            ExitCode::from(1)
        }
    }
}
