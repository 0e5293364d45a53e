//! A match file (`-config match.toml`) as the `toml` crate reads it into
//! typed tables. Every table refuses keys it does not know, and a value of
//! the wrong type is refused by the reader with its line and column. The
//! tables then become the same `key=value` pairs the command line gives,
//! so each value is checked, and named in errors, by one code path
//! (`config.rs`), whichever way it came in.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// `key=value` pairs in the order the command line would apply them.
pub type Pairs = Vec<(String, String)>;

/// The whole file. Aliases are the command line's second names.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    #[serde(alias = "variant")]
    game: Option<String>,
    boardsize: Option<u32>,
    komi: Option<f64>,
    handicap: Option<u32>,
    rule: Option<String>,
    swap2: Option<Switch>,
    noswap: Option<Switch>,
    gocleanup: Option<Switch>,
    games: Option<u32>,
    rounds: Option<u32>,
    concurrency: Option<usize>,
    #[serde(alias = "seed")]
    srand: Option<u64>,
    maxmoves: Option<u32>,
    #[serde(alias = "recordout")]
    pgnout: Option<String>,
    jsonout: Option<String>,
    resume: Option<Switch>,
    shard: Option<String>,
    #[serde(alias = "transcript")]
    debug: Option<String>,
    live: Option<String>,
    event: Option<String>,
    ratinginterval: Option<u32>,
    tournament: Option<String>,
    /// Accepted for cutechess compatibility and not read: restarting
    /// crashed engines and paired openings are always on.
    #[serde(rename = "recover")]
    _recover: Option<bool>,
    #[serde(rename = "repeat")]
    _repeat: Option<bool>,
    #[serde(default, deserialize_with = "engine_list")]
    pub engine: Vec<EngineTable>,
    pub each: Option<EngineTable>,
    pub openings: Option<OpeningsTable>,
    pub sprt: Option<SprtTable>,
    pub draw: Option<DrawTable>,
    pub resign: Option<ResignTable>,
}

/// One `[[engine]]` entry, or `[each]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineTable {
    cmd: Option<String>,
    name: Option<String>,
    dir: Option<String>,
    arg: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(alias = "protocol")]
    proto: Option<String>,
    /// `[engine.options]` and the dotted `option.NAME = ...` form; both
    /// may appear in one entry, so they are two fields, not aliases.
    #[serde(default)]
    options: Options,
    #[serde(default)]
    option: Options,
    initstr: Option<String>,
    #[serde(default)]
    initstrs: Vec<String>,
    /// A time control is text (`"40/60+0.5"`), but a bare number of
    /// seconds (`tc = 60`) reads as well.
    tc: Option<Text>,
    st: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    timemargin: Option<u64>,
    handshake: Option<u64>,
    restart: Option<Switch>,
    ponder: Option<Switch>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsTable {
    file: Option<String>,
    format: Option<String>,
    order: Option<String>,
    plies: Option<u32>,
    start: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtTable {
    elo0: Option<f64>,
    elo1: Option<f64>,
    alpha: Option<f64>,
    beta: Option<f64>,
    model: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawTable {
    movenumber: Option<u32>,
    movecount: Option<u32>,
    score: Option<i32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignTable {
    movecount: Option<u32>,
    score: Option<i32>,
}

/// Reads a match file; the error is the reader's own (line, column, the
/// offending text and what was expected).
pub fn parse(text: &str) -> Result<MatchFile, String> {
    toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
}

/// Collects the keys that are set, in the order given.
struct PairList(Pairs);

impl PairList {
    fn put(&mut self, key: &str, value: &Option<impl ToString>) -> &mut Self {
        if let Some(v) = value {
            self.0.push((key.to_string(), v.to_string()));
        }
        self
    }

    fn put_all(&mut self, key: &str, values: &[impl ToString]) -> &mut Self {
        for v in values {
            self.0.push((key.to_string(), v.to_string()));
        }
        self
    }
}

impl MatchFile {
    /// The top-level settings. `game` comes first because choosing gomoku
    /// resets the board size and rule: a `boardsize` anywhere in the file
    /// then still wins, as it would after `-variant` on the command line.
    pub fn top_pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("game", &self.game)
            .put("boardsize", &self.boardsize)
            .put("komi", &self.komi)
            .put("handicap", &self.handicap)
            .put("rule", &self.rule)
            .put("swap2", &self.swap2)
            .put("noswap", &self.noswap)
            .put("gocleanup", &self.gocleanup)
            .put("games", &self.games)
            .put("rounds", &self.rounds)
            .put("concurrency", &self.concurrency)
            .put("srand", &self.srand)
            .put("maxmoves", &self.maxmoves)
            .put("pgnout", &self.pgnout)
            .put("jsonout", &self.jsonout)
            .put("resume", &self.resume)
            .put("shard", &self.shard)
            .put("debug", &self.debug)
            .put("live", &self.live)
            .put("event", &self.event)
            .put("ratinginterval", &self.ratinginterval)
            .put("tournament", &self.tournament);
        p.0
    }
}

impl EngineTable {
    pub fn pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("cmd", &self.cmd)
            .put("name", &self.name)
            .put("dir", &self.dir)
            .put("arg", &self.arg)
            .put_all("arg", &self.args)
            .put("proto", &self.proto);
        for (name, value) in self.options.0.iter().chain(&self.option.0) {
            p.0.push((format!("option.{name}"), value.clone()));
        }
        p.put("initstr", &self.initstr)
            .put_all("initstr", &self.initstrs)
            .put("tc", &self.tc)
            .put("st", &self.st)
            .put("depth", &self.depth)
            .put("nodes", &self.nodes)
            .put("timemargin", &self.timemargin)
            .put("handshake", &self.handshake)
            .put("restart", &self.restart)
            .put("ponder", &self.ponder);
        p.0
    }
}

impl OpeningsTable {
    pub fn pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("file", &self.file)
            .put("format", &self.format)
            .put("order", &self.order)
            .put("plies", &self.plies)
            .put("start", &self.start);
        p.0
    }
}

impl SprtTable {
    pub fn pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("elo0", &self.elo0)
            .put("elo1", &self.elo1)
            .put("alpha", &self.alpha)
            .put("beta", &self.beta)
            .put("model", &self.model);
        p.0
    }
}

impl DrawTable {
    pub fn pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("movenumber", &self.movenumber)
            .put("movecount", &self.movecount)
            .put("score", &self.score);
        p.0
    }
}

impl ResignTable {
    pub fn pairs(&self) -> Pairs {
        let mut p = PairList(Vec::new());
        p.put("movecount", &self.movecount)
            .put("score", &self.score);
        p.0
    }
}

/// Any scalar (string, number, boolean) as text: engine options are the
/// engine's business (`Hash = 16`, `Ponder = false`, `Style = "solid"`),
/// so the arena passes them on as written.
#[derive(Debug, Default)]
struct Text(String);

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct TextVisitor;

impl Visitor<'_> for TextVisitor {
    type Value = Text;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, a number or a boolean")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

/// An on/off setting: a boolean, or the command line's words as a string
/// (`"on"`, `"off"`; the setter checks which words it takes).
#[derive(Debug)]
struct Switch(String);

impl fmt::Display for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct SwitchVisitor;

impl Visitor<'_> for SwitchVisitor {
    type Value = Switch;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("true, false, \"on\" or \"off\"")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Switch, E> {
        Ok(Switch(v.to_string()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Switch, E> {
        Ok(Switch(v.to_string()))
    }
}

impl<'de> Deserialize<'de> for Switch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Switch, D::Error> {
        d.deserialize_any(SwitchVisitor)
    }
}

/// Engine options in file order (engines may care which comes first,
/// e.g. `Threads` before `Hash`), which a hash map would lose.
#[derive(Debug, Default)]
struct Options(Vec<(String, String)>);

struct OptionsVisitor;

impl<'de> Visitor<'de> for OptionsVisitor {
    type Value = Options;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of engine options (NAME = value)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Options, A::Error> {
        let mut out: Vec<(String, String)> = Vec::new();
        while let Some((name, Text(value))) = map.next_entry::<String, Text>()? {
            out.push((name, value));
        }
        Ok(Options(out))
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Options, D::Error> {
        d.deserialize_map(OptionsVisitor)
    }
}

/// `[[engine]]` entries; a single `[engine]` table gets an error that
/// says how to write them.
fn engine_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<EngineTable>, D::Error> {
    struct EnginesVisitor;
    impl<'de> Visitor<'de> for EnginesVisitor {
        type Value = Vec<EngineTable>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("engines written as [[engine]] tables")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(e) = seq.next_element::<EngineTable>()? {
                out.push(e);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(EnginesVisitor)
}
