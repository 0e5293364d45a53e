//! Solves tsume problems and prints, per problem, the label, the result,
//! nodes, seconds, the SFEN and the mate line (USI moves):
//! `cargo run --release -p tengen-shogi --example tsume -- [options]`
//!   --nodes N     node cap per problem (default 2,000,000 unless --ms)
//!   --ms T        time budget per problem in milliseconds
//!   --entries E   table entries (default: the solver's default)
//!   --file F      problem file (`<sfen> ;<label>` lines); default tests/tsume.txt
//!   --shorten N   least extra nodes to shorten a mate found (default
//!                 20,000); 0: return the first mate line found
//!   --check       only print the problems that our SFEN parser accepts
//!   --repetition R  `store-anyway` or `ignore`: a broken treatment of
//!                 repetitions, to find and check problems that need the
//!                 sound one (gen_rep.py)
//!   --after SFEN  solve SFEN first with the same solver, each time (its
//!                 table kept for the problem: what one solve leaves
//!                 behind for the next, gen_rep.py)
//!   --stdin       read problem lines from standard input and answer each
//!                 one as it comes (one line), so that one process
//!                 solves problem after problem as an engine does
//!                 (scripts/tsume_bench.py); a line that does not read
//!                 is answered `error`
//!   --warm        before the problems, solve two small positions that are
//!                 in no problem set (a mate in one and a no-mate), untimed
//!                 and with their own solvers, so that a process started
//!                 for one problem (scripts/tsume_bench.py) times the
//!                 solver, not its first run through the program's code
use tengen_shogi::dfpn::{RepetitionRule, Solver, TsumeLimits, TsumeResult};
use tengen_shogi::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let ms: Option<u64> = opt("--ms").and_then(|s| s.parse().ok());
    let nodes: Option<u64> = opt("--nodes")
        .and_then(|s| s.parse().ok())
        .or(if ms.is_none() { Some(2_000_000) } else { None });
    let entries: Option<usize> = opt("--entries").and_then(|s| s.parse().ok());
    let check = args.iter().any(|a| a == "--check");
    let shorten: Option<u64> = opt("--shorten").and_then(|s| s.parse().ok());
    let repetition = match opt("--repetition").as_deref() {
        None => RepetitionRule::Escape,
        Some("store-anyway") => RepetitionRule::StoreAnyway,
        Some("ignore") => RepetitionRule::Ignore,
        Some(other) => {
            eprintln!("--repetition: {other}? (store-anyway or ignore)");
            std::process::exit(2)
        }
    };
    let after = opt("--after").map(|s| {
        Game::from_usi(&s, &[]).unwrap_or_else(|e| {
            eprintln!("--after {s}: {e}");
            std::process::exit(2)
        })
    });
    let text = match opt("--file") {
        Some(f) => std::fs::read_to_string(&f).unwrap_or_else(|e| {
            eprintln!("{f}: {e}");
            std::process::exit(2)
        }),
        None => include_str!("../tests/tsume.txt").to_string(),
    };
    if args.iter().any(|a| a == "--warm") {
        for sfen in [
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1",
        ] {
            if let Ok(pos) = Game::from_usi(sfen, &[]) {
                Solver::new(TsumeLimits::default()).solve(&pos);
            }
        }
    }
    let from_stdin = args.iter().any(|a| a == "--stdin");
    // Standard output is line-buffered, so each answer leaves at once.
    let lines: Box<dyn Iterator<Item = String>> = if from_stdin {
        Box::new(std::io::stdin().lines().map_while(Result::ok))
    } else {
        Box::new(text.lines().map(str::to_string))
    };
    for line in lines {
        let line = line.as_str();
        if line.starts_with('#') || line.trim().is_empty() {
            if check {
                println!("{line}");
            }
            continue;
        }
        let (sfen, label) = line.split_once(" ;").unwrap_or((line, "?"));
        let Ok(pos) = Game::from_usi(sfen, &[]) else {
            if from_stdin {
                println!("{label:>7}   error         0 nodes   0.0000000s ;{sfen};");
            }
            continue;
        };
        if check {
            println!("{line}");
            continue;
        }
        let t = std::time::Instant::now();
        let mut limits = TsumeLimits {
            nodes,
            time: ms.map(std::time::Duration::from_millis),
            ..Default::default()
        };
        if let Some(e) = entries {
            limits.max_entries = e;
        }
        let mut s = Solver::new(limits);
        s.set_repetition(repetition);
        if let Some(first) = &after {
            s.solve(first);
        }
        if let Some(n) = shorten {
            s.set_shortening((n > 0).then_some(n));
        }
        let r = s.solve(&pos);
        let secs = t.elapsed().as_secs_f64();
        let (got, pv) = match &r {
            TsumeResult::Mate(l) => (
                l.len().to_string(),
                l.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            TsumeResult::NoMate => ("nomate".into(), String::new()),
            TsumeResult::Timeout => ("timeout".into(), String::new()),
        };
        println!(
            "{label:>7} {got:>7} {:>9} nodes {secs:>11.7}s ;{sfen};{pv}",
            s.nodes()
        );
    }
}
