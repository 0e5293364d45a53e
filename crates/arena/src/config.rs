//! The command line, in the manner of cutechess-cli, and the same settings
//! as a TOML file. Both feed one code path (`key=value` pairs per
//! section), so every error names the option or field that was wrong.

use crate::clock::TimeControl;
use crate::matchfile;
use crate::openings::{Format, OpeningSpec};
use crate::player::EngineConfig;
use crate::record::{Adjudication, DrawRule, ResignRule};
use crate::stats::{Sprt, SprtModel};
use crate::tournament::{Mode, Tournament};
use crate::variant::Variant;
use std::path::PathBuf;
use std::time::Duration;
use tengen_games::{Game, Protocol};

pub const USAGE: &str = "\
usage: tengen-arena -engine cmd=PATH [name=N proto=uci|ucci|usi|gtp] [option.NAME=VALUE]... \\
                    -engine cmd=PATH ... [-each tc=10+0.1 ...] [options]
       tengen-arena -config match.toml

engine keys (for -engine and -each):
  cmd=PATH  name=NAME  dir=DIR  arg=ARG (repeatable)  proto=uci|ucci|usi|gtp|gomocup|agi|xboard
  option.NAME=VALUE  initstr=LINE (repeatable)  tc=TC  st=SECONDS  depth=N  nodes=N
  handshake=MS  restart=on|off  ponder=on|off (UCI, USI, UCCI)
  timemargin=MS (one margin for the whole match: the last one given counts)
  TC: [moves/]base[+inc] in seconds (40/60+0.5, 10+0.1), +bP[xN] byo-yomi,
      +cN/P Canadian (N moves in P seconds)
options:
  -variant chess|chess960|xiangqi|shogi|go|gomoku|renju  -boardsize N  -komi K
  -handicap N (Go: N black stones on the fixed points, White moves first)
  -rule freestyle|standard|renju (gomoku)  -swap2 (gomoku: Gomocup's swap2 opening)
  -gocleanup on|off (Go: dead stones
      agreed by final_status_list, else a kgs-genmove_cleanup phase; on)
  -games N  -rounds N  -repeat  -noswap (the first engine keeps the first
      player's side in every game)  -tournament round-robin|gauntlet
  -openings file=F format=epd|fen|pgn|moves|gomocup order=sequential|random plies=N start=N
  -srand SEED  -concurrency N  -recover  -maxmoves N  -event NAME
  -sprt elo0=E0 elo1=E1 alpha=A beta=B [model=trinomial|pentanomial]
  -draw movenumber=N movecount=N score=CP    -resign movecount=N score=CP
  -pgnout FILE (the game's record format)  -jsonout FILE  -debug FILE (transcripts)
  -resume (continue the match that the same command line started, from the
      journal FILE.journal kept beside the first of -pgnout/-jsonout)
  -shard I/N (play only the I-th of N disjoint parts of the match)
  -merge JOURNAL... (with the match's own options: merge its N shards'
      journals and records into -pgnout/-jsonout instead of playing)
  -ratinginterval N
  -live FILE (the match as it happens, one JSON event a line, for watchers
      such as tengen-gui)
";

/// Settings shared by every engine unless its own entry overrides them.
#[derive(Clone, Debug, Default)]
struct EngineEntry {
    pairs: Vec<(String, String)>,
}

pub fn from_args(args: &[String]) -> Result<Tournament, String> {
    let mut t = defaults();
    let mut entries: Vec<EngineEntry> = Vec::new();
    let mut each = EngineEntry::default();
    let mut i = 0;
    while i < args.len() {
        let opt = args[i].trim_start_matches('-').to_string();
        if !args[i].starts_with('-') {
            return Err(format!(
                "unexpected argument '{}' (options start with '-')",
                args[i]
            ));
        }
        i += 1;
        // Everything up to the next option belongs to this one.
        let start = i;
        while i < args.len()
            && !(args[i].starts_with('-') && args[i].len() > 1 && !is_number(&args[i]))
        {
            i += 1;
        }
        let vals: Vec<String> = args[start..i].to_vec();
        let one = || -> Result<String, String> {
            match vals.as_slice() {
                [v] => Ok(v.clone()),
                _ => Err(format!("-{opt} takes one value")),
            }
        };
        match opt.as_str() {
            "engine" => entries.push(EngineEntry {
                pairs: split_pairs(&vals, "-engine")?,
            }),
            "each" => each.pairs.extend(split_pairs(&vals, "-each")?),
            "config" => {
                let path = one()?;
                let text =
                    std::fs::read_to_string(&path).map_err(|e| format!("-config '{path}': {e}"))?;
                return from_toml(&text).map_err(|e| format!("{path}: {e}"));
            }
            "openings" => set_openings(
                &mut t.openings,
                &split_pairs(&vals, "-openings")?,
                "-openings",
            )?,
            "sprt" => t.sprt = Some(sprt(&split_pairs(&vals, "-sprt")?, "-sprt")?),
            "draw" => {
                t.adjudication.draw = Some(draw_rule(&split_pairs(&vals, "-draw")?, "-draw")?)
            }
            "resign" => {
                t.adjudication.resign =
                    Some(resign_rule(&split_pairs(&vals, "-resign")?, "-resign")?)
            }
            "swap2" => {
                if !vals.is_empty() {
                    return Err("-swap2 takes no value".into());
                }
                t.variant.swap2 = true;
            }
            "noswap" => {
                if !vals.is_empty() {
                    return Err("-noswap takes no value".into());
                }
                t.noswap = true;
            }
            "merge" => {
                if vals.is_empty() {
                    return Err("-merge takes the shards' journal files".into());
                }
                t.merge = vals.clone();
            }
            "resume" => {
                if !vals.is_empty() {
                    return Err("-resume takes no value".into());
                }
                t.resume = true;
            }
            "repeat" | "recover" => {
                if !vals.is_empty() && opt == "recover" {
                    return Err("-recover takes no value".into());
                }
            }
            "help" | "h" => return Err(USAGE.to_string()),
            _ => {
                let v = one()?;
                set_top(&mut t, &opt, &v, &format!("-{opt}"))?;
            }
        }
    }
    finish(t, entries, each)
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
}

fn split_pairs(vals: &[String], ctx: &str) -> Result<Vec<(String, String)>, String> {
    vals.iter()
        .map(|v| {
            v.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.to_string()))
                .ok_or_else(|| format!("{ctx}: '{v}' is not key=value"))
        })
        .collect()
}

fn defaults() -> Tournament {
    Tournament {
        engines: Vec::new(),
        tcs: Vec::new(),
        variant: Variant::default(),
        mode: Mode::RoundRobin,
        games: 1,
        rounds: 1,
        openings: OpeningSpec::default(),
        seed: 0,
        concurrency: 1,
        sprt: None,
        adjudication: Adjudication::default(),
        margin: Duration::from_millis(100),
        pgnout: None,
        jsonout: None,
        resume: false,
        shard: None,
        merge: Vec::new(),
        transcript: None,
        event: "tengen-arena match".into(),
        rating_interval: 0,
        noswap: false,
        live: None,
    }
}

fn num<T: std::str::FromStr>(v: &str, field: &str) -> Result<T, String> {
    v.trim()
        .parse::<T>()
        .map_err(|_| format!("{field}: '{v}' is not a valid number"))
}

fn set_top(t: &mut Tournament, key: &str, v: &str, field: &str) -> Result<(), String> {
    match key {
        "variant" | "game" => {
            let lower = v.to_ascii_lowercase();
            t.variant.kind =
                Game::from_variant(&lower).map_err(|_| format!("{field}: unknown game '{v}'"))?;
            t.variant.chess960 = lower == "chess960" || lower == "fischerandom";
            if t.variant.kind == Game::Gomoku {
                t.variant.board_size = 15;
                t.variant.rule = if lower == "renju" {
                    "renju".into()
                } else {
                    "freestyle".into()
                };
            }
        }
        "boardsize" => t.variant.board_size = num(v, field)?,
        "komi" => t.variant.komi = num(v, field)?,
        "handicap" => t.variant.handicap = num(v, field)?,
        "swap2" => {
            t.variant.swap2 = match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => true,
                "off" | "false" | "no" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "shard" => {
            let bad = || format!("{field}: '{v}' is not I/N with 1 <= I <= N");
            let (i, n) = v.split_once('/').ok_or_else(bad)?;
            let (i, n): (u32, u32) = (num(i, field)?, num(n, field)?);
            if i == 0 || i > n {
                return Err(bad());
            }
            t.shard = Some([i, n]);
        }
        "noswap" => {
            t.noswap = match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => true,
                "off" | "false" | "no" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "resume" => {
            t.resume = match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => true,
                "off" | "false" | "no" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "gocleanup" => {
            t.variant.go_cleanup = match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" => true,
                "off" | "false" | "no" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "rule" => {
            let r = v.to_ascii_lowercase();
            if !["freestyle", "standard", "renju"].contains(&r.as_str()) {
                return Err(format!(
                    "{field}: '{v}' is not freestyle, standard or renju"
                ));
            }
            t.variant.rule = r;
        }
        "games" => t.games = positive(num(v, field)?, field)?,
        "rounds" => t.rounds = positive(num(v, field)?, field)?,
        "concurrency" => t.concurrency = positive(num(v, field)?, field)?,
        "srand" | "seed" => t.seed = num(v, field)?,
        "maxmoves" => t.adjudication.max_moves = Some(positive(num(v, field)?, field)?),
        "pgnout" | "recordout" => t.pgnout = Some(v.to_string()),
        "jsonout" => t.jsonout = Some(v.to_string()),
        "debug" | "transcript" => t.transcript = Some(v.to_string()),
        "live" => t.live = Some(v.to_string()),
        "event" => t.event = v.to_string(),
        "ratinginterval" => t.rating_interval = num(v, field)?,
        "tournament" => {
            t.mode = match v {
                "round-robin" | "roundrobin" => Mode::RoundRobin,
                "gauntlet" => Mode::Gauntlet,
                _ => return Err(format!("{field}: '{v}' is not round-robin or gauntlet")),
            }
        }
        _ => return Err(format!("unknown option '{field}'")),
    }
    Ok(())
}

fn positive<T: PartialOrd + Default>(n: T, field: &str) -> Result<T, String> {
    if n > T::default() {
        Ok(n)
    } else {
        Err(format!("{field}: must be positive"))
    }
}

fn set_openings(o: &mut OpeningSpec, pairs: &[(String, String)], ctx: &str) -> Result<(), String> {
    for (k, v) in pairs {
        let field = format!("{ctx}.{k}");
        match k.as_str() {
            "file" => o.file = Some(v.clone()),
            "format" => {
                o.format = match v.as_str() {
                    "epd" | "fen" | "sfen" => Format::Epd,
                    "moves" | "uci" => Format::Moves,
                    "pgn" => Format::Pgn,
                    "gomocup" | "offsets" => Format::Offsets,
                    _ => {
                        return Err(format!(
                            "{field}: '{v}' is not epd, fen, sfen, moves, pgn or gomocup"
                        ))
                    }
                }
            }
            "order" => {
                o.random_order = match v.as_str() {
                    "random" => true,
                    "sequential" => false,
                    _ => return Err(format!("{field}: '{v}' is not random or sequential")),
                }
            }
            "plies" => o.plies = num(v, &field)?,
            "start" => o.start = positive(num(v, &field)?, &field)?,
            _ => return Err(format!("unknown field '{field}'")),
        }
    }
    Ok(())
}

fn sprt(pairs: &[(String, String)], ctx: &str) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Trinomial,
    };
    for (k, v) in pairs {
        let field = format!("{ctx}.{k}");
        if k == "model" {
            s.model = match v.as_str() {
                "trinomial" | "cutechess" => SprtModel::Trinomial,
                "pentanomial" | "fishtest" => SprtModel::Pentanomial,
                _ => return Err(format!("{field}: '{v}' is not trinomial or pentanomial")),
            };
            continue;
        }
        let x: f64 = num(v, &field)?;
        match k.as_str() {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => return Err(format!("unknown field '{field}'")),
        }
    }
    if s.elo1 <= s.elo0 {
        return Err(format!("{ctx}: elo1 must be above elo0"));
    }
    for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(format!("{ctx}.{name}: must be between 0 and 0.5"));
        }
    }
    Ok(s)
}

fn draw_rule(pairs: &[(String, String)], ctx: &str) -> Result<DrawRule, String> {
    let mut r = DrawRule {
        movenumber: 40,
        movecount: 8,
        score: 10,
    };
    for (k, v) in pairs {
        let field = format!("{ctx}.{k}");
        match k.as_str() {
            "movenumber" => r.movenumber = num(v, &field)?,
            "movecount" => r.movecount = positive(num(v, &field)?, &field)?,
            "score" => r.score = num(v, &field)?,
            _ => return Err(format!("unknown field '{field}'")),
        }
    }
    Ok(r)
}

fn resign_rule(pairs: &[(String, String)], ctx: &str) -> Result<ResignRule, String> {
    let mut r = ResignRule {
        movecount: 3,
        score: 600,
    };
    for (k, v) in pairs {
        let field = format!("{ctx}.{k}");
        match k.as_str() {
            "movecount" => r.movecount = positive(num(v, &field)?, &field)?,
            "score" => r.score = positive(num(v, &field)?, &field)?,
            _ => return Err(format!("unknown field '{field}'")),
        }
    }
    Ok(r)
}

/// Applies one engine key. `field` names it in errors.
fn set_engine(
    e: &mut EngineConfig,
    tc: &mut Option<TimeControl>,
    margin: &mut Option<Duration>,
    key: &str,
    v: &str,
    field: &str,
) -> Result<(), String> {
    if let Some(name) = key.strip_prefix("option.") {
        if name.is_empty() {
            return Err(format!("{field}: option name missing"));
        }
        e.options.retain(|(n, _)| n != name);
        e.options.push((name.to_string(), v.to_string()));
        return Ok(());
    }
    match key {
        "cmd" => {
            // A command with arguments in one string, as cutechess allows.
            let mut words = v.split_whitespace();
            e.launch.cmd = words
                .next()
                .ok_or_else(|| format!("{field}: empty command"))?
                .to_string();
            let rest: Vec<String> = words.map(str::to_string).collect();
            e.launch.args.splice(0..0, rest);
        }
        "name" => e.name = v.to_string(),
        "dir" => e.launch.dir = Some(PathBuf::from(v)),
        "arg" => e.launch.args.push(v.to_string()),
        "proto" | "protocol" => {
            e.proto = v
                .parse::<Protocol>()
                .map_err(|_| format!("{field}: unknown protocol '{v}'"))?;
        }
        "initstr" => e.init.push(v.to_string()),
        "tc" => *tc = Some(TimeControl::parse(v).map_err(|err| format!("{field}: {err}"))?),
        "st" => {
            let secs: f64 = num(v, field)?;
            if !(secs > 0.0 && secs < 1e6) {
                return Err(format!("{field}: must be a positive number of seconds"));
            }
            *tc = Some(TimeControl::movetime((secs * 1000.0).round() as u64));
        }
        "depth" => e.depth = Some(positive(num(v, field)?, field)?),
        "nodes" => e.nodes = Some(positive(num(v, field)?, field)?),
        "timemargin" => *margin = Some(Duration::from_millis(num(v, field)?)),
        "handshake" => {
            e.handshake_timeout = Duration::from_millis(positive(num(v, field)?, field)?)
        }
        "restart" => {
            e.restart = match v {
                "on" | "true" | "auto" => true,
                "off" | "false" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "ponder" => {
            e.ponder = match v {
                "on" | "true" => true,
                "off" | "false" => false,
                _ => return Err(format!("{field}: '{v}' is not on or off")),
            }
        }
        "conf" => return Err(format!("{field}: not supported")),
        _ => return Err(format!("unknown field '{field}'")),
    }
    Ok(())
}

fn finish(
    mut t: Tournament,
    entries: Vec<EngineEntry>,
    each: EngineEntry,
) -> Result<Tournament, String> {
    if t.variant.swap2 && t.noswap {
        return Err("-noswap: under -swap2 the swap2 opening decides the colours".into());
    }
    if t.variant.swap2 && t.variant.kind != Game::Gomoku {
        return Err("-swap2: the swap2 opening is for gomoku and renju".into());
    }
    if t.variant.handicap != 0 {
        if t.variant.kind != Game::Go {
            return Err("-handicap: handicap stones are for Go".into());
        }
        if t.live.is_some() {
            // Watchers replay a game's moves from Black's first.
            return Err("-handicap: -live does not show handicap games".into());
        }
    }
    if entries.len() < 2 {
        return Err(format!(
            "at least two engines are needed (got {})\n\n{USAGE}",
            entries.len()
        ));
    }
    let mut margin = None;
    for (n, entry) in entries.iter().enumerate() {
        let mut e = EngineConfig::new("", "", Protocol::Uci);
        let mut tc = None;
        for (k, v) in &each.pairs {
            set_engine(&mut e, &mut tc, &mut margin, k, v, &format!("each.{k}"))?;
        }
        for (k, v) in &entry.pairs {
            set_engine(
                &mut e,
                &mut tc,
                &mut margin,
                k,
                v,
                &format!("engine[{}].{k}", n + 1),
            )?;
        }
        if e.launch.cmd.is_empty() {
            return Err(format!("engine[{}].cmd: missing", n + 1));
        }
        if e.name.is_empty() {
            e.name = std::path::Path::new(&e.launch.cmd).file_name().map_or_else(
                || e.launch.cmd.clone(),
                |f| f.to_string_lossy().into_owned(),
            );
        }
        if tc.is_none() && e.depth.is_none() && e.nodes.is_none() {
            return Err(format!(
                "engine[{}]: no time control (set tc=, st=, depth= or nodes=)",
                n + 1
            ));
        }
        // AGI's `GO` carries time only: a node or depth limit could not
        // reach the engine, which would play on a clock of zero instead.
        if e.proto == Protocol::Agi && (e.depth.is_some() || e.nodes.is_some()) {
            return Err(format!(
                "engine[{}]: AGI has no node or depth limit (use tc= or st=)",
                n + 1
            ));
        }
        // GTP's `time_settings` counts whole seconds: a shorter or broken
        // `st=` would be announced as the next whole second but enforced
        // as given, so an engine using the time it was told would flag.
        if e.proto == Protocol::Gtp {
            if let Some(ms) = tc.as_ref().and_then(|t| t.movetime_ms) {
                if ms % 1000 != 0 {
                    return Err(format!(
                        "engine[{}]: GTP's time_settings counts whole seconds: st= must be one (got {} ms)",
                        n + 1,
                        ms
                    ));
                }
            }
        }
        // CECP has `sd` for depth but no node limit (xboard's node mode
        // is `nps` under a clock, which is another thing).
        if e.proto == Protocol::Cecp && e.nodes.is_some() {
            return Err(format!(
                "engine[{}]: CECP has no node limit (use tc=, st= or depth=)",
                n + 1
            ));
        }
        t.engines.push(e);
        t.tcs.push(tc);
    }
    // Two engines with one name would make the tables unreadable.
    for i in 0..t.engines.len() {
        let dup = (0..i)
            .filter(|&j| t.engines[j].name == t.engines[i].name)
            .count();
        if dup > 0 {
            t.engines[i].name = format!("{} ({})", t.engines[i].name, dup + 1);
        }
    }
    if let Some(m) = margin {
        t.margin = m;
    }
    Ok(t)
}

/// A match file: top-level keys as the command-line options, `[each]`,
/// `[[engine]]` entries (with `[engine.options]` or `option.X` keys),
/// `[openings]`, `[sprt]`, `[draw]`, `[resign]`. The reader checks keys
/// and types; the values go through the command line's setters.
pub fn from_toml(text: &str) -> Result<Tournament, String> {
    let file = matchfile::parse(text)?;
    let mut t = defaults();
    for (key, value) in file.top_pairs() {
        set_top(&mut t, &key, &value, &key)?;
    }
    if let Some(o) = &file.openings {
        set_openings(&mut t.openings, &o.pairs(), "openings")?;
    }
    if let Some(s) = &file.sprt {
        t.sprt = Some(sprt(&s.pairs(), "sprt")?);
    }
    if let Some(d) = &file.draw {
        t.adjudication.draw = Some(draw_rule(&d.pairs(), "draw")?);
    }
    if let Some(r) = &file.resign {
        t.adjudication.resign = Some(resign_rule(&r.pairs(), "resign")?);
    }
    let entries = file
        .engine
        .iter()
        .map(|e| EngineEntry { pairs: e.pairs() })
        .collect();
    let each = EngineEntry {
        pairs: file.each.as_ref().map(|e| e.pairs()).unwrap_or_default(),
    };
    finish(t, entries, each)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn handicap_is_for_go_and_not_watched_live() {
        let base = [
            "-engine",
            "cmd=a",
            "-engine",
            "cmd=b",
            "-each",
            "st=1",
            "-handicap",
            "4",
        ];
        let mut go = args(&["-variant", "go"]);
        go.extend(args(&base));
        let t = from_args(&go).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.variant.handicap, 4);
        assert_eq!(Variant::default().handicap, 0);
        let mut chess = args(&["-variant", "chess"]);
        chess.extend(args(&base));
        let refused = from_args(&chess).err().unwrap_or_default();
        assert!(refused.contains("for Go"), "{refused}");
        go.extend(args(&["-live", "m.live"]));
        let refused = from_args(&go).err().unwrap_or_default();
        assert!(refused.contains("-live"), "{refused}");
        let t = from_toml(
            "game = \"go\"\nhandicap = 3\n[each]\nst = 1\n[[engine]]\ncmd = \"a\"\n[[engine]]\ncmd = \"b\"\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.variant.handicap, 3);
    }

    #[test]
    fn noswap_keeps_colours_and_refuses_swap2() {
        let base = [
            "-variant", "gomoku", "-engine", "cmd=a", "-engine", "cmd=b", "-each", "st=1",
        ];
        let plain = from_args(&args(&base)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!plain.noswap);
        let mut line = args(&base);
        line.push("-noswap".into());
        let t = from_args(&line).unwrap_or_else(|e| panic!("{e}"));
        assert!(t.noswap);
        line.push("-swap2".into());
        let refused = from_args(&line).err().unwrap_or_default();
        assert!(refused.contains("-noswap"), "{refused}");
        let mut valued = args(&base);
        valued.extend(args(&["-noswap", "on"]));
        assert!(from_args(&valued).is_err(), "-noswap takes no value");
        let file = |v: &str| {
            from_toml(&format!(
                "variant = \"gomoku\"\nnoswap = {v}\n[each]\nst = 1\n[[engine]]\ncmd = \"a\"\n[[engine]]\ncmd = \"b\"\n"
            ))
        };
        assert!(file("true")
            .map(|t| t.noswap)
            .unwrap_or_else(|e| panic!("{e}")));
        assert!(!file("\"off\"")
            .map(|t| t.noswap)
            .unwrap_or_else(|e| panic!("{e}")));
    }

    #[test]
    fn cutechess_style_line() {
        let t = from_args(&args(&[
            "-engine",
            "cmd=/usr/games/stockfish",
            "name=sf",
            "option.Skill Level=0",
            "option.Hash=16",
            "-engine",
            "cmd=/usr/games/glaurung",
            "proto=uci",
            "-each",
            "tc=10+0.1",
            "timemargin=50",
            "-games",
            "2",
            "-rounds",
            "3",
            "-repeat",
            "-concurrency",
            "2",
            "-openings",
            "file=x.epd",
            "format=epd",
            "order=random",
            "plies=4",
            "-sprt",
            "elo0=0",
            "elo1=5",
            "alpha=0.05",
            "beta=0.05",
            "-draw",
            "movenumber=40",
            "movecount=8",
            "score=10",
            "-resign",
            "movecount=3",
            "score=600",
            "-pgnout",
            "out.pgn",
            "-srand",
            "7",
            "-resume",
        ]))
        .unwrap();
        assert_eq!(t.engines.len(), 2);
        assert_eq!(t.engines[0].name, "sf");
        assert_eq!(t.engines[1].name, "glaurung");
        assert_eq!(
            t.engines[0].options,
            vec![
                ("Skill Level".to_string(), "0".to_string()),
                ("Hash".into(), "16".into())
            ]
        );
        assert_eq!(t.tcs[1], Some(TimeControl::parse("10+0.1").unwrap()));
        assert_eq!((t.games, t.rounds, t.concurrency, t.seed), (2, 3, 2, 7));
        assert_eq!(t.margin, Duration::from_millis(50));
        assert!(t.openings.random_order && t.openings.plies == 4);
        assert_eq!(t.sprt.map(|s| s.elo1), Some(5.0));
        assert_eq!(
            t.adjudication.resign,
            Some(ResignRule {
                movecount: 3,
                score: 600
            })
        );
        assert_eq!(t.pgnout.as_deref(), Some("out.pgn"));
        assert!(t.resume);
    }

    #[test]
    fn errors_name_the_field() {
        let base = ["-engine", "cmd=a", "-engine", "cmd=b", "-each", "tc=1+0.1"];
        let with = |extra: &[&str]| {
            let mut v = args(&base);
            v.extend(args(extra));
            from_args(&v).unwrap_err()
        };
        assert!(
            with(&["-engine", "cmd=c", "tc=abc"]).starts_with("engine[3].tc"),
            "{}",
            with(&["-engine", "cmd=c", "tc=abc"])
        );
        assert!(with(&["-engine", "cmd=c", "cmdd=x"]).contains("engine[3].cmdd"));
        assert!(with(&["-games", "x"]).starts_with("-games"));
        assert!(with(&["-sprt", "elo0=5", "elo1=0"]).contains("elo1"));
        assert!(with(&["-openings", "order=sideways"]).contains("-openings.order"));
        assert!(with(&["-frobnicate", "1"]).contains("-frobnicate"));
        assert!(from_args(&args(&["-engine", "cmd=a"]))
            .unwrap_err()
            .contains("two engines"));
        assert!(from_args(&args(&["-engine", "cmd=a", "-engine", "cmd=b"]))
            .unwrap_err()
            .contains("time control"));
        let agi = |limit: &str| {
            from_args(&args(&[
                "-variant",
                "renju",
                "-engine",
                "cmd=a",
                "-engine",
                "cmd=b",
                "-each",
                "proto=agi",
                limit,
            ]))
        };
        assert!(agi("nodes=1000")
            .unwrap_err()
            .contains("AGI has no node or depth limit"));
        assert!(agi("depth=5")
            .unwrap_err()
            .contains("AGI has no node or depth limit"));
        assert!(agi("st=1").is_ok());
        let cecp = |limit: &str| {
            from_args(&args(&[
                "-engine",
                "cmd=a",
                "-engine",
                "cmd=b",
                "-each",
                "proto=xboard",
                limit,
            ]))
        };
        assert!(cecp("nodes=1000")
            .unwrap_err()
            .contains("CECP has no node limit"));
        assert!(cecp("depth=5").is_ok());
        let gtp = |limit: &str| {
            from_args(&args(&[
                "-variant",
                "go",
                "-engine",
                "cmd=a",
                "-engine",
                "cmd=b",
                "-each",
                "proto=gtp",
                limit,
            ]))
        };
        assert!(gtp("st=0.3").unwrap_err().contains("whole seconds"));
        assert!(gtp("st=1.5").unwrap_err().contains("whole seconds"));
        assert!(gtp("st=1").is_ok() && gtp("st=2").is_ok());
    }

    #[test]
    fn toml_file_matches_the_command_line() {
        let t = from_toml(
            r#"
game = "chess"
games = 2
rounds = 3
concurrency = 2
pgnout = "out.pgn"
[each]
tc = "10+0.1"
[[engine]]
name = "sf"
cmd = "/usr/games/stockfish"
[engine.options]
"Skill Level" = 0
[[engine]]
cmd = "/usr/games/glaurung"
[sprt]
elo0 = 0
elo1 = 5
"#,
        )
        .unwrap();
        assert_eq!(
            t.engines[0].options,
            vec![("Skill Level".to_string(), "0".to_string())]
        );
        assert_eq!((t.games, t.rounds, t.concurrency), (2, 3, 2));
        assert_eq!(t.sprt.map(|s| s.elo1), Some(5.0));
    }

    /// Every key a match file takes, set to something other than its
    /// default, and each checked where it lands.
    #[test]
    fn toml_file_with_every_key() {
        let t = from_toml(
            r#"
variant = "gomoku"
boardsize = 19
komi = 6.5
rule = "standard"
swap2 = "on"
gocleanup = false
games = 4
rounds = 2
concurrency = 3
seed = 99
maxmoves = 120
recordout = "g.sgf"
jsonout = "s.json"
transcript = "t.log"
live = "m.live"
event = "file test"
ratinginterval = 10
tournament = "gauntlet"
recover = true
repeat = true
resume = "on"
[each]
tc = 60
timemargin = 250
ponder = true
option.Threads = 1
[[engine]]
cmd = "eng --fast"
name = "first"
dir = "/tmp"
arg = "x"
args = ["y", "z"]
protocol = "agi"
initstrs = ["INFO a 1"]
restart = "off"
[engine.options]
Threads = 2
Style = "solid"
[[engine]]
cmd = "/bin/other"
proto = "gomocup"
st = 0.5
depth = 7
nodes = 1000
handshake = 3000
[openings]
file = "book.txt"
format = "gomocup"
order = "random"
plies = 3
start = 2
[sprt]
elo0 = -1
elo1 = 4.5
alpha = 0.1
beta = 0.2
model = "pentanomial"
[draw]
movenumber = 30
movecount = 5
score = 15
[resign]
movecount = 4
score = 700
"#,
        )
        .unwrap();
        let v = &t.variant;
        assert_eq!(v.kind, Game::Gomoku);
        // `variant` comes first, so its gomoku defaults do not undo these.
        assert_eq!(
            (v.board_size, v.komi, v.rule.as_str()),
            (19, 6.5, "standard")
        );
        assert!(v.swap2 && !v.go_cleanup);
        assert_eq!((t.games, t.rounds, t.concurrency, t.seed), (4, 2, 3, 99));
        assert_eq!(t.adjudication.max_moves, Some(120));
        assert_eq!(t.pgnout.as_deref(), Some("g.sgf"));
        assert_eq!(t.jsonout.as_deref(), Some("s.json"));
        assert!(t.resume);
        assert_eq!(t.transcript.as_deref(), Some("t.log"));
        assert_eq!(t.live.as_deref(), Some("m.live"));
        assert_eq!((t.event.as_str(), t.rating_interval), ("file test", 10));
        assert_eq!(t.mode, Mode::Gauntlet);
        assert_eq!(t.margin, Duration::from_millis(250));
        let (a, b) = (&t.engines[0], &t.engines[1]);
        assert_eq!((a.name.as_str(), a.launch.cmd.as_str()), ("first", "eng"));
        assert_eq!(a.launch.args, ["--fast", "x", "y", "z"]);
        assert_eq!(a.launch.dir, Some(PathBuf::from("/tmp")));
        assert_eq!((a.proto, b.proto), (Protocol::Agi, Protocol::Gomocup));
        assert_eq!(a.init, ["INFO a 1"]);
        assert!(!a.restart && b.restart && a.ponder && b.ponder);
        // `[each]` first, then the entry's own: Threads is replaced, not
        // sent twice, and the file's order is kept.
        let opts = |e: &EngineConfig| {
            e.options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(opts(a), ["Threads=2", "Style=solid"]);
        assert_eq!(opts(b), ["Threads=1"]);
        assert_eq!(t.tcs[0], Some(TimeControl::parse("60").unwrap()));
        assert_eq!(t.tcs[1], Some(TimeControl::movetime(500)));
        assert_eq!(
            (b.name.as_str(), b.depth, b.nodes),
            ("other", Some(7), Some(1000))
        );
        assert_eq!(b.handshake_timeout, Duration::from_secs(3));
        let o = &t.openings;
        assert_eq!(o.file.as_deref(), Some("book.txt"));
        assert!(o.format == Format::Offsets && o.random_order);
        assert_eq!((o.plies, o.start), (3, 2));
        let s = t.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 4.5, 0.1, 0.2));
        assert_eq!(s.model, SprtModel::Pentanomial);
        assert_eq!(
            t.adjudication.draw,
            Some(DrawRule {
                movenumber: 30,
                movecount: 5,
                score: 15
            })
        );
        assert_eq!(
            t.adjudication.resign,
            Some(ResignRule {
                movecount: 4,
                score: 700
            })
        );
    }

    /// A key no table takes is refused by name, with its line, wherever
    /// it is (top level, an engine entry, a sub-table, engine options are
    /// free-form and so not checked).
    #[test]
    fn toml_unknown_keys_are_refused_by_name_and_line() {
        let engines =
            "[[engine]]\ncmd = \"a\"\ntc = \"1+1\"\n[[engine]]\ncmd = \"b\"\ntc = \"1+1\"\n";
        let cases = [
            ("gamez = 2\n", "unknown field `gamez`", "line 1"),
            (
                "games = 2\n[[engine]]\ncmd = \"a\"\ntcc = \"1+1\"\n",
                "unknown field `tcc`",
                "line 4",
            ),
            ("[sprt]\nelo2 = 5\n", "unknown field `elo2`", "line 2"),
            ("[openings]\nply = 5\n", "unknown field `ply`", "line 2"),
            (
                "[resign]\nmovenumber = 5\n",
                "unknown field `movenumber`",
                "line 2",
            ),
            ("[draw]\nmoves = 5\n", "unknown field `moves`", "line 2"),
            ("[each]\nconf = \"x\"\n", "unknown field `conf`", "line 2"),
            ("[extra]\n", "unknown field `extra`", "line 1"),
        ];
        for (text, what, line) in cases {
            let err = from_toml(&format!("{text}{engines}")).unwrap_err();
            assert!(err.contains(what) && err.contains(line), "{text:?}: {err}");
        }
        // Options are the engine's own names: any is passed on.
        let t = from_toml(&format!("{engines}[engine.options]\nAnything = 1\n")).unwrap();
        assert_eq!(t.engines[1].options, [("Anything".into(), "1".into())]);
    }

    /// A value of the wrong type is refused by the reader with what it
    /// expected; a value of the right type but out of range by the setter,
    /// which names the field as the command line does.
    #[test]
    fn toml_wrong_types_and_bad_values() {
        let engines =
            "[[engine]]\ncmd = \"a\"\ntc = \"1+1\"\n[[engine]]\ncmd = \"b\"\ntc = \"1+1\"\n";
        let cases = [
            ("games = \"two\"\n", "expected u32"),
            ("games = -1\n", "expected u32"),
            ("komi = \"7.5\"\n", "expected f64"),
            ("event = 3\n", "expected a string"),
            ("gocleanup = 3\n", "expected true, false, \"on\" or \"off\""),
            ("[each]\nargs = \"x\"\n", "expected a sequence"),
            (
                "[each]\noptions = { Hash = [1] }\n",
                "expected a string, a number or a boolean",
            ),
            (
                "[each]\ntc = [1]\n",
                "expected a string, a number or a boolean",
            ),
            ("[sprt]\nelo1 = \"5\"\n", "expected f64"),
            ("games = 2\ngames = 3\n", "duplicate key"),
            ("games = 0\n", "games: must be positive"),
            (
                "gocleanup = \"maybe\"\n",
                "gocleanup: 'maybe' is not on or off",
            ),
            ("[each]\ntc = \"2+x\"\n", "each.tc"),
            (
                "[sprt]\nelo0 = 5\nelo1 = 1\n",
                "sprt: elo1 must be above elo0",
            ),
            ("[openings]\norder = \"sideways\"\n", "openings.order"),
        ];
        for (text, what) in cases {
            // The bad key goes first so that `[[engine]]` tables after it
            // do not swallow it.
            let err = from_toml(&format!("{text}{engines}")).unwrap_err();
            assert!(err.contains(what), "{text:?}: {err}");
        }
        let err =
            from_toml("[[engine]]\ncmd = \"a\"\n[[engine]]\ncmd = \"b\"\ntc = 5\n").unwrap_err();
        assert!(err.contains("engine[1]: no time control"), "{err}");
    }
}
