//! `tengen-gui`: a local browser GUI for tengen's five games. It serves
//! one page on 127.0.0.1 and plays the games with the arena's referees
//! and players (see `docs/gui.md`).

use clap::Parser;
use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use tengen_gui::{config, hub, server};

#[derive(Parser, Debug)]
#[command(
    name = "tengen-gui",
    version,
    about = "A browser GUI for chess, xiangqi, shogi, Go and gomoku"
)]
struct Cli {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Anything but a loopback address exposes the
    /// engines to the network: it needs --allow-remote.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Listen on a non-loopback address anyway.
    #[arg(long)]
    allow_remote: bool,
    /// TOML file of engines (see docs/gui.md).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The tengen binary (default: beside tengen-gui).
    #[arg(long)]
    tengen: Option<PathBuf>,
    /// JSON file that keeps the engine options set from the page across
    /// restarts (read at start, rewritten on every change; without it
    /// they last until the server stops).
    #[arg(long)]
    settings: Option<PathBuf>,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("tengen-gui: {e}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<(), String> {
    if !cli.host.is_loopback() && !cli.allow_remote {
        return Err(format!(
            "{} is not a loopback address; add --allow-remote to listen there",
            cli.host
        ));
    }
    let (engines, books, feeds) = config::load(cli.config.as_deref(), cli.tengen)?;
    let hub = hub::Hub::new(engines, books, feeds, cli.settings)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(cli.host, cli.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", cli.host, cli.port))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        println!("tengen-gui: http://{addr}/");
        let _ = std::io::stdout().flush();
        let ticker = std::sync::Arc::clone(&hub);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(200));
            loop {
                every.tick().await;
                let hub = std::sync::Arc::clone(&ticker);
                let _ = tokio::task::spawn_blocking(move || hub.tick()).await;
            }
        });
        let app = server::App::new(hub, addr);
        axum::serve(listener, server::router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}
