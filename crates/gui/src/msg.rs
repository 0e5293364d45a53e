//! The WebSocket messages, both ways, as JSON objects tagged by `type`.
//! Everything the page sends is read into [`ClientMsg`]; anything that
//! does not fit (unknown type, missing or extra field, wrong type) is
//! refused with an [`ServerMsg::Error`] and changes nothing.

use crate::games::{BoardView, Kind, Spot};
use serde::{Deserialize, Serialize};

/// Longest message the server reads from the page.
pub const MAX_CLIENT_MSG: usize = 512 * 1024;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Asks for the current state again.
    Sync {},
    /// A new game.
    New(NewGame),
    /// A move in wire notation, made at ply `ply` (stale ones are refused).
    /// With `variation`, it is made from a browsed position instead: the
    /// main line's after `ply` moves, or the side node `node`'s; a move
    /// that does not follow the line there starts a variation.
    Move {
        wire: String,
        ply: usize,
        #[serde(default)]
        node: Option<u32>,
        #[serde(default)]
        variation: bool,
    },
    /// A click on an empty vertex (Go, gomoku): the server names the move.
    Vertex {
        x: u32,
        y: u32,
        ply: usize,
        #[serde(default)]
        node: Option<u32>,
        #[serde(default)]
        variation: bool,
    },
    /// Promotes the variation holding side node `node` one level (to the
    /// main line when it branches from there; only between people at the
    /// board, as that changes the game).
    Promote {
        node: u32,
    },
    /// Deletes side node `node` and the moves after it.
    Delete {
        node: u32,
    },
    /// Takes back the last move (and the engine's reply before it).
    Undo {},
    Resign {},
    /// Starts live analysis of the current position.
    Analyse {
        engine: String,
        #[serde(default)]
        multipv: Option<u32>,
    },
    Stop {},
    /// Asks for the game's record (`pgn`, `csa`, `kif`, `sgf`; none: the
    /// game's usual one). The answer goes to the asking tab only.
    Save {
        #[serde(default)]
        format: Option<String>,
    },
    /// Loads a pasted record or position (PGN, FEN, SFEN, CSA, SGF) as a
    /// new game for two players at the board.
    Load {
        text: String,
    },
    /// Asks for the board after the first `ply` moves (browsing the
    /// game; the game's own ply returns to it); the answer goes to the
    /// asking tab only. Analysis, when on, follows the position shown.
    View {
        ply: usize,
        /// A side node's position instead (variations).
        #[serde(default)]
        node: Option<u32>,
    },
    /// Go, after two passes: marks the chain at a vertex dead (or alive
    /// again).
    Dead {
        x: u32,
        y: u32,
    },
    /// Go, after two passes: accepts the count with the marked stones.
    Score {},
    /// Gomoku's swap opening: the choice of the player whose turn it is
    /// to choose (`black`, `white`, or `place2`: two more stones, swap2).
    Swap {
        choice: SwapChoice,
    },
    /// Shogi: a mate search (USI `go mate`) from the current position.
    Mate {
        engine: String,
        #[serde(default)]
        ms: Option<u64>,
    },
    /// Watches a `tengen-arena` run by the name its live file has in the
    /// server's configuration (the page never names a file).
    Attach {
        feed: String,
    },
    /// Stops watching (the last game shown stays on the board).
    Detach {},
    /// A match between two engines: finish the game in progress, then
    /// stop.
    FinishMatch {},
    /// Asks for the options an engine announces when it plays `game`
    /// (and those set from the page); the answer goes to this tab.
    Options {
        engine: String,
        game: Kind,
    },
    /// Sets an option for the engine's next game or analysis (`value`
    /// none: back to the default). Checked against what the engine
    /// announced.
    SetOption {
        engine: String,
        game: Kind,
        name: String,
        #[serde(default)]
        value: Option<String>,
    },
}

/// A new game. `engine` plays the side(s) the human does not (`None`:
/// the human plays both); `human` is `first`, `second`, `both` or `none`;
/// `tc` is the arena's time-control syntax (`300+3`, `60+b10`, `st=2`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub game: Kind,
    #[serde(default)]
    pub engine: Option<String>,
    #[serde(default)]
    pub human: Option<Seat>,
    #[serde(default)]
    pub tc: Option<String>,
    #[serde(default)]
    pub size: Option<u32>,
    /// Chess960: the start position's number (0..959; random if none).
    #[serde(default)]
    pub position: Option<u32>,
    /// With `human: none`: the engine for the second side (else `engine`
    /// plays itself).
    #[serde(default)]
    pub engine2: Option<String>,
    /// With two engines: a match of this many games, colours alternating
    /// (in a round robin: this many games for each pair).
    #[serde(default)]
    pub games: Option<u32>,
    /// A round robin (you play neither side): three to eight engines by
    /// name, each pair playing `games` games; `engine` and `engine2` are
    /// then the first two of the list.
    #[serde(default)]
    pub engines: Option<Vec<String>>,
    /// Gomoku and renju: the opening rule (`swap1`, `swap2`; none: Black
    /// simply starts).
    #[serde(default)]
    pub opening: Option<OpeningRule>,
    /// With two engines (you play neither side): an opening book of the
    /// server's configuration, by name. Game `n` of a match plays the
    /// book's line `n / 2` (each line twice, colours swapped).
    #[serde(default)]
    pub book: Option<String>,
}

/// Gomoku's opening rules. The player on the first side places three
/// stones (black, white, black); then in `swap1` the other player takes
/// Black or White; in `swap2` it may also place two more stones and hand
/// the choice back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    Swap1,
    Swap2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SwapChoice {
    Black,
    White,
    Place2,
}

/// The swap opening while it lasts.
#[derive(Clone, Debug, Serialize)]
pub struct SwapState {
    pub rule: OpeningRule,
    /// `place3`, `choose`, `place2`, `choose2`.
    pub stage: &'static str,
    /// Who acts: 0 the player who placed the first three stones (seated
    /// on the first side until the colours are settled), 1 the other.
    pub actor: usize,
    /// The choices open to the actor now (none while stones are placed).
    pub choices: Vec<SwapChoice>,
    /// Stones the actor still places in this stage.
    pub stones_left: usize,
    /// What happens now, for people.
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    First,
    Second,
    Both,
    /// The engine plays both sides (every tab watches).
    None,
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    pub name: String,
    pub games: Vec<Kind>,
    /// The games it can analyse live (the UCI family).
    pub analyses: Vec<Kind>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BookInfo {
    pub name: String,
    pub games: Vec<Kind>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveEntry {
    pub wire: String,
    /// In the game's notation for people (SAN, Chinese, Japanese).
    pub text: String,
    /// In the record's notation, as the arena's record writers want it.
    #[serde(skip)]
    pub record: String,
    /// The engine's own score and depth for its move (records' comments).
    #[serde(skip)]
    pub score: Option<tengen_protocol::host::EngineScore>,
    #[serde(skip)]
    pub depth: Option<u32>,
    /// The engine's main line for its move (wire moves, from the move).
    #[serde(skip)]
    pub pv: Vec<String>,
    /// The time the move took.
    #[serde(skip)]
    pub elapsed_ms: u64,
    /// From the opening book.
    pub book: bool,
}

impl MoveEntry {
    /// A move made at the board or read from a record: no engine's
    /// score, line or time.
    pub fn plain(wire: &str, text: String, record: String) -> Self {
        MoveEntry {
            wire: wire.to_string(),
            text,
            record,
            score: None,
            depth: None,
            pv: Vec::new(),
            elapsed_ms: 0,
            book: false,
        }
    }
}

/// A move of a variation (a side line off the main line).
#[derive(Clone, Debug, Serialize)]
pub struct VarEntry {
    pub id: u32,
    /// Played from the main line's position after this many moves...
    pub from: Option<usize>,
    /// ...or from the position after this side node.
    pub parent: Option<u32>,
    /// Moves from the start to the position after this one.
    pub ply: usize,
    pub wire: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClockState {
    pub left_ms: [u64; 2],
    /// The side whose clock runs, if one does.
    pub running: Option<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub game: Kind,
    /// Bumped by every new game, so the page can tell games apart.
    pub game_id: u64,
    pub ply: usize,
    pub size: u32,
    pub sides: [&'static str; 2],
    pub players: [String; 2],
    /// Which sides the human plays.
    pub human: [bool; 2],
    pub to_move: usize,
    pub board: BoardView,
    pub legal: Vec<Spot>,
    pub last: Option<Spot>,
    pub moves: Vec<MoveEntry>,
    /// The variations' moves, each after the position it is played from.
    pub variations: Vec<VarEntry>,
    pub thinking: bool,
    pub clock: Option<ClockState>,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Per position (0..=ply): the evaluation in centipawns from the first
    /// side's view, where an engine gave one (its move, or analysis).
    pub evals: Vec<Option<i32>>,
    /// Go after two passes: the stones marked dead and the count.
    pub scoring: Option<Scoring>,
    /// A match between two engines, when one runs.
    pub matchup: Option<MatchInfo>,
    /// Gomoku's swap opening, while it lasts.
    pub swap: Option<SwapState>,
    /// A `tengen-arena` run being watched.
    pub live: Option<LiveInfo>,
}

/// A watched arena run: the game shown and the standing the arena wrote.
#[derive(Clone, Debug, Serialize)]
pub struct LiveInfo {
    pub feed: String,
    /// The arena's number of the game shown (none yet: waiting).
    pub game: Option<u32>,
    pub done: usize,
    pub total: usize,
    /// Every pair's W/L/D, score, Elo and margin, LOS.
    pub encounters: Vec<tengen_arena::live::LiveEncounter>,
    /// Why the moves shown stopped short, if they did.
    pub problem: Option<String>,
}

/// A match's standing, from the first-named engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchInfo {
    pub engines: [String; 2],
    pub games: u32,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: f64,
    /// Elo difference and its 95% margin, as the arena computes them
    /// (absent while infinite: one side has scored everything).
    pub elo: Option<f64>,
    pub margin: Option<f64>,
    pub los: f64,
    /// The match stops (or stopped) when the game in progress ends,
    /// before its number of games.
    pub stopping: bool,
    /// A round robin: every pair's standing (empty for two engines).
    pub table: Vec<tengen_arena::live::LiveEncounter>,
    /// Games in all (`games` is each pair's).
    pub total: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Scoring {
    pub dead: Vec<[u32; 2]>,
    /// `B+3.5`, `W+0.5`, `Jigo` with the dead stones taken off.
    pub score: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Score {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// GTP engines: the side to move's chance (0..1) and lead in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winrate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead: Option<f64>,
    /// From the first side's view in centipawns (mates as ±10000), for
    /// the eval bar.
    pub first_cp: i32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub multipv: u32,
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
    /// The PV in the game's notation where the server knows it.
    pub pv_text: String,
    /// The first move of the PV, for the arrow.
    pub first: Option<Spot>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Hello {
        engines: Vec<EngineInfo>,
        games: Vec<Kind>,
        books: Vec<BookInfo>,
        /// Arena runs that can be watched, by name.
        feeds: Vec<String>,
    },
    State(Box<State>),
    Analysis {
        game_id: u64,
        ply: usize,
        /// A variation's position (side node) instead of the main line's.
        node: Option<u32>,
        engine: String,
        lines: Vec<Line>,
        running: bool,
        /// Go: each point's owner, rows from the top, +1 Black, -1 White.
        #[serde(skip_serializing_if = "Option::is_none")]
        ownership: Option<Vec<Vec<f32>>>,
    },
    Error {
        message: String,
    },
    Record {
        format: String,
        text: String,
    },
    /// A mate search's answer for the position after `ply` moves.
    Mate {
        game_id: u64,
        ply: usize,
        engine: String,
        /// `mate`, `nomate`, `timeout`, `notimplemented`, `error`.
        outcome: String,
        /// The mating moves (USI) and in Japanese.
        moves: Vec<String>,
        text: String,
    },
    /// An engine's options as it announces them, with the values set.
    Options {
        engine: String,
        game: Kind,
        protocol: String,
        options: Vec<crate::options::OptionInfo>,
        /// Options of the server's configuration for it (a value set
        /// from the page goes over them).
        configured: std::collections::BTreeMap<String, String>,
    },
    /// The board after `ply` moves of game `game_id`.
    Position {
        game_id: u64,
        ply: usize,
        /// The side node shown (none: the main line's position).
        node: Option<u32>,
        board: BoardView,
        last: Option<Spot>,
        to_move: usize,
        /// The moves that may be played there (into a variation).
        legal: Vec<Spot>,
    },
}

impl ServerMsg {
    pub fn error(message: impl Into<String>) -> Self {
        ServerMsg::Error {
            message: message.into(),
        }
    }

    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!("{{\"type\":\"error\",\"message\":\"cannot write a message: {e}\"}}")
        })
    }
}

/// Reads a page message; `Err` is the text of the error reply.
pub fn read(text: &str) -> Result<ClientMsg, String> {
    if text.len() > MAX_CLIENT_MSG {
        return Err(format!("message too long ({} bytes)", text.len()));
    }
    serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_good_messages_and_refuses_bad_ones() {
        assert_eq!(
            read(r#"{"type":"move","wire":"e2e4","ply":0}"#),
            Ok(ClientMsg::Move {
                wire: "e2e4".into(),
                ply: 0,
                node: None,
                variation: false,
            })
        );
        assert!(matches!(
            read(r#"{"type":"new","game":"shogi","engine":"tengen","human":"first","tc":"60+b5"}"#),
            Ok(ClientMsg::New(NewGame {
                game: Kind::Shogi,
                ..
            }))
        ));
        for bad in [
            "",
            "null",
            "[]",
            r#"{"type":"launch","cmd":"rm -rf /"}"#,
            r#"{"type":"move","wire":"e2e4"}"#,
            r#"{"type":"move","wire":"e2e4","ply":-1}"#,
            r#"{"type":"move","wire":7,"ply":0}"#,
            r#"{"type":"new","game":"checkers"}"#,
            r#"{"type":"stop","extra":1}"#,
            r#"{"type":"new","game":"chess","shell":"sh"}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
        assert!(read(&"x".repeat(MAX_CLIENT_MSG + 1)).is_err());
    }
}
