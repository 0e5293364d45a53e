//! The server-side list of engines. The page picks engines by name from
//! this list and can never name a command: everything that starts a
//! process comes from here (tengen itself, plus a TOML file of outside
//! engines).

use crate::games::Kind;
use crate::live::Feed;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tengen_arena::openings::{self, Format, OpeningSpec};
use tengen_arena::player::EngineConfig;
use tengen_arena::process::Launch;
use tengen_arena::record::Opening;
use tengen_games::Protocol;

/// The TOML file (`--config`); every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// The tengen binary (default: `tengen` beside `tengen-gui`).
    pub tengen: Option<PathBuf>,
    /// Fixed nodes per move for the built-in tengen (tests use this).
    pub tengen_nodes: Option<u64>,
    /// Options for the built-in tengen (`Hash = "16"`).
    #[serde(default)]
    pub tengen_options: BTreeMap<String, String>,
    #[serde(default)]
    pub engine: Vec<Outside>,
    /// Opening books for matches (the page picks one by name).
    #[serde(default)]
    pub book: Vec<BookEntry>,
    /// `tengen-arena -live FILE` runs the page may watch, by name.
    #[serde(default)]
    pub live: Vec<LiveEntry>,
}

/// A live file of `tengen-arena -live FILE` (it need not exist yet).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveEntry {
    pub name: String,
    pub file: PathBuf,
}

/// An opening book file, as the arena's `-openings` reads it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookEntry {
    pub name: String,
    pub file: PathBuf,
    /// `epd` (`fen`, `sfen`), `pgn`, `moves`, `gomocup` (centre offsets).
    pub format: String,
    /// The games it serves.
    pub games: Vec<Kind>,
    /// `sequential` (default) or `random` (shuffled by `seed`).
    pub order: Option<String>,
    pub seed: Option<u64>,
    /// Random legal plies added after each book line.
    pub plies: Option<u32>,
}

/// A book as the server keeps it: read once at start, its openings laid
/// out for a board size when a match starts.
#[derive(Clone, Debug)]
pub struct Book {
    pub name: String,
    pub games: Vec<Kind>,
    text: String,
    path: String,
    spec: OpeningSpec,
    seed: u64,
}

impl Book {
    fn new(e: BookEntry) -> Result<Book, String> {
        let path = e.file.to_string_lossy().into_owned();
        let format = match e.format.as_str() {
            "epd" | "fen" | "sfen" => Format::Epd,
            "moves" | "uci" => Format::Moves,
            "pgn" => Format::Pgn,
            "gomocup" | "offsets" => Format::Offsets,
            f => {
                return Err(format!(
                    "book '{}': format '{f}' is not epd, fen, sfen, moves, pgn or gomocup",
                    e.name
                ))
            }
        };
        let random_order = match e.order.as_deref() {
            None | Some("sequential") => false,
            Some("random") => true,
            Some(o) => {
                return Err(format!(
                    "book '{}': order '{o}' is not sequential or random",
                    e.name
                ))
            }
        };
        if e.games.is_empty() {
            return Err(format!("book '{}' serves no game", e.name));
        }
        let text =
            std::fs::read_to_string(&e.file).map_err(|err| format!("book '{path}': {err}"))?;
        let book = Book {
            name: e.name,
            games: e.games,
            text,
            path,
            spec: OpeningSpec {
                file: None,
                format,
                random_order,
                plies: e.plies.unwrap_or(0),
                start: 1,
            },
            seed: e.seed.unwrap_or(1),
        };
        // A book that cannot be read refuses the server's start.
        for k in &book.games {
            book.openings(k.sizes().1)?;
        }
        Ok(book)
    }

    /// The book's openings (gomoku's offsets placed on a board of
    /// `size`).
    pub fn openings(&self, size: u32) -> Result<Vec<Opening>, String> {
        openings::parse(&self.text, &self.spec, self.seed, size, &self.path)
    }

    /// Random plies to add after each line.
    pub fn plies(&self) -> u32 {
        self.spec.plies
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }
}

/// An outside engine.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outside {
    pub name: String,
    pub command: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `uci`, `ucci`, `usi`, `gtp`, `gomocup`, `agi`.
    pub protocol: String,
    /// Which of the page's games it plays (`chess`, `chess960`, `xiangqi`,
    /// `shogi`, `go`, `gomoku`, `renju`).
    pub games: Vec<Kind>,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

/// One engine as the server knows it.
#[derive(Clone, Debug)]
pub struct Engine {
    pub name: String,
    pub launch: Launch,
    /// The protocol per game it plays.
    pub games: Vec<(Kind, Protocol)>,
    pub options: Vec<(String, String)>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Options go only to the UCI family (tengen's `tengen_options`,
    /// which are `setoption`s, must not reach its GTP or Gomocup side).
    pub options_uci_only: bool,
}

impl Engine {
    pub fn protocol(&self, kind: Kind) -> Option<Protocol> {
        self.games.iter().find(|(k, _)| *k == kind).map(|(_, p)| *p)
    }

    /// The arena's config for this engine playing `kind`.
    pub fn config(&self, kind: Kind) -> Option<EngineConfig> {
        let proto = self.protocol(kind)?;
        let mut cfg = EngineConfig::new(&self.name, &self.launch.cmd, proto);
        cfg.launch = self.launch.clone();
        let uci_family = matches!(proto, Protocol::Uci | Protocol::Ucci | Protocol::Usi);
        if uci_family || !self.options_uci_only {
            cfg.options = self.options.clone();
        }
        cfg.nodes = self.nodes;
        cfg.depth = self.depth;
        cfg.handshake_timeout = Duration::from_secs(10);
        Some(cfg)
    }
}

/// What the server is given: engines (tengen first), books, live files.
pub type Loaded = (Vec<Engine>, Vec<Book>, Vec<Feed>);

/// Reads the file (if any) and builds the engine list, tengen first.
pub fn load(path: Option<&Path>, tengen: Option<PathBuf>) -> Result<Loaded, String> {
    let file: File = match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            parse(&text).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => File::default(),
    };
    let tengen = tengen
        .or(file.tengen.clone())
        .or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|e| e.parent().map(|d| d.join("tengen")))
        })
        .ok_or("cannot tell where the tengen binary is; give --tengen")?;
    let mut engines = vec![Engine {
        name: "tengen".into(),
        launch: Launch {
            cmd: tengen.to_string_lossy().into_owned(),
            args: Vec::new(),
            dir: None,
        },
        // Xiangqi over UCI (UCI_Variant) for its MultiPV analysis.
        games: vec![
            (Kind::Chess, Protocol::Uci),
            (Kind::Chess960, Protocol::Uci),
            (Kind::Xiangqi, Protocol::Uci),
            (Kind::Shogi, Protocol::Usi),
            (Kind::Go, Protocol::Gtp),
            (Kind::Gomoku, Protocol::Gomocup),
            (Kind::Renju, Protocol::Gomocup),
        ],
        options: file.tengen_options.clone().into_iter().collect(),
        nodes: file.tengen_nodes,
        depth: None,
        options_uci_only: true,
    }];
    let mut books: Vec<Book> = Vec::new();
    for b in file.book {
        if books.iter().any(|x| x.name == b.name) {
            return Err(format!("two books are named '{}'", b.name));
        }
        books.push(Book::new(b)?);
    }
    for o in file.engine {
        if engines.iter().any(|e| e.name == o.name) {
            return Err(format!("two engines are named '{}'", o.name));
        }
        let proto: Protocol = o.protocol.parse()?;
        engines.push(Engine {
            name: o.name,
            launch: Launch {
                cmd: o.command.to_string_lossy().into_owned(),
                args: o.args,
                dir: o.dir,
            },
            games: o.games.into_iter().map(|k| (k, proto)).collect(),
            options: o.options.into_iter().collect(),
            nodes: o.nodes,
            depth: o.depth,
            options_uci_only: false,
        });
    }
    let mut feeds: Vec<Feed> = Vec::new();
    for l in file.live {
        if feeds.iter().any(|f| f.name == l.name) {
            return Err(format!("two live files are named '{}'", l.name));
        }
        feeds.push(Feed {
            name: l.name,
            path: l.file,
        });
    }
    Ok((engines, books, feeds))
}

pub fn parse(text: &str) -> Result<File, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_outside_engines_and_refuses_unknown_keys() {
        let f = parse(
            r#"
tengen_nodes = 5000
[[engine]]
name = "Stockfish"
command = "/usr/games/stockfish"
protocol = "uci"
games = ["chess", "chess960"]
options = { Hash = "64" }
"#,
        )
        .unwrap();
        assert_eq!(f.tengen_nodes, Some(5000));
        assert_eq!(f.engine[0].games, vec![Kind::Chess, Kind::Chess960]);
        assert!(parse("[[engine]]\nname = \"x\"\ncommand = \"y\"\nprotocol = \"uci\"\ngames = [\"chess\"]\nshell = true\n").is_err());
        assert!(parse("[[engine]]\nname = \"x\"\ncommand = \"y\"\nprotocol = \"uci\"\ngames = [\"checkers\"]\n").is_err());
    }

    #[test]
    fn books_are_read_at_start_and_bad_ones_refused() {
        let dir = std::env::temp_dir().join(format!("tengen-gui-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let epd = dir.join("b.epd");
        std::fs::write(&epd, "4k3/8/8/8/8/8/4P3/4K3 w - -\n").unwrap();
        let entry = |format: &str, games: Vec<Kind>| BookEntry {
            name: "b".into(),
            file: epd.clone(),
            format: format.into(),
            games,
            order: None,
            seed: None,
            plies: None,
        };
        let b = Book::new(entry("epd", vec![Kind::Chess])).unwrap();
        let o = b.openings(0).unwrap();
        assert_eq!(o.len(), 1);
        assert!(o[0].start.as_deref().unwrap().starts_with("4k3/"));
        assert!(Book::new(entry("zip", vec![Kind::Chess])).is_err());
        assert!(Book::new(entry("epd", vec![])).is_err());
        let mut missing = entry("epd", vec![Kind::Chess]);
        missing.file = dir.join("none.epd");
        assert!(Book::new(missing).is_err());
        std::fs::write(&epd, "").unwrap();
        assert!(
            Book::new(entry("epd", vec![Kind::Chess])).is_err(),
            "an empty book"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
