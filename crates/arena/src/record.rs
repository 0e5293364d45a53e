//! The plain data the arena's modules share: sides and how a game ended,
//! what engines are told at a game's start, openings, adjudication rules
//! and finished games. It depends on nothing else in the arena but the
//! clock's settings, so the referees, the players, the game loop and the
//! tournament can all use it without importing each other.

use crate::clock::TimeControl;
use tengen_protocol::host::EngineScore;

/// The side that moves first (White in chess, Red in xiangqi, Sente in
/// shogi, Black in Go and gomoku) and the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// How a game ended, with the reason written into the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: String,
}

impl Ending {
    pub fn win(side: Side, reason: impl Into<String>) -> Self {
        Ending {
            outcome: Outcome::Win(side),
            reason: reason.into(),
        }
    }

    pub fn draw(reason: impl Into<String>) -> Self {
        Ending {
            outcome: Outcome::Draw,
            reason: reason.into(),
        }
    }
}

/// An engine's fault that ended a game: what a soak counts per engine.
/// Read back from the ending's reason, which the game loop and the swap2
/// step write in one fixed form each (`game::fault_ending` and its
/// neighbours), so that records, journals and merged shards, which keep
/// only the reason, all count the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// Lost on time, or never answered.
    Time,
    /// The process exited or closed its output.
    Crash,
    /// A line the protocol does not allow, or a reply that is not one.
    Protocol,
    /// A move the rules refuse (renju's forbidden points included).
    Illegal,
    /// Claimed to have no move while it had one.
    FalseClaim,
    /// Did not start or failed its handshake.
    Start,
    /// Failed the swap2 opening negotiation.
    Swap2,
}

impl FaultKind {
    pub const ALL: [FaultKind; 7] = [
        FaultKind::Time,
        FaultKind::Crash,
        FaultKind::Protocol,
        FaultKind::Illegal,
        FaultKind::FalseClaim,
        FaultKind::Start,
        FaultKind::Swap2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Time => "time",
            FaultKind::Crash => "crash",
            FaultKind::Protocol => "protocol",
            FaultKind::Illegal => "illegal",
            FaultKind::FalseClaim => "false_claim",
            FaultKind::Start => "start",
            FaultKind::Swap2 => "swap2",
        }
    }

    /// The fault a game's reason names, if any. The phrase that comes
    /// first decides, so an engine's own words quoted after it (a bad
    /// line that says "loses on time") cannot change the verdict.
    pub fn of_reason(reason: &str) -> Option<FaultKind> {
        if reason.starts_with("adjudication:") || reason.starts_with("aborted:") {
            return None;
        }
        const PHRASES: [(&str, FaultKind); 7] = [
            (" loses on time", FaultKind::Time),
            (" disconnects: ", FaultKind::Crash),
            (" breaks the protocol: ", FaultKind::Protocol),
            (" makes an illegal move: ", FaultKind::Illegal),
            (
                " claims to have no move, but has legal moves",
                FaultKind::FalseClaim,
            ),
            (" could not start: ", FaultKind::Start),
            (" fails the swap2 opening: ", FaultKind::Swap2),
        ];
        PHRASES
            .iter()
            .filter_map(|&(phrase, kind)| reason.find(phrase).map(|at| (at, kind)))
            .min_by_key(|&(at, _)| at)
            .map(|(_, kind)| kind)
    }
}

/// What a game tells an engine when it starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSetup {
    /// Go board size, gomoku board size.
    pub board_size: Option<u32>,
    pub komi: Option<f64>,
    /// Go: Black's fixed handicap stones (0: none); White moves first.
    pub handicap: u32,
    pub chess960: bool,
    /// Gomocup's `INFO rule` bit mask (0 freestyle, 1 exact five, 4 renju).
    pub rule: Option<u32>,
    /// The game's name for engines that play several over one protocol
    /// (UCI's `UCI_Variant`): `None` is the protocol's own game.
    pub variant: Option<&'static str>,
    /// Extra per-game commands for the protocol (e.g. GTP `time_settings`).
    pub time_settings: Option<TimeControl>,
}

/// Resign when an engine's own score stays at or below `-score` for
/// `movecount` of its consecutive moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
}

/// Draw when, from full move `movenumber` on, both engines' scores stay
/// within `score` for `movecount` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Draw after this many full moves (move pairs).
    pub max_moves: Option<u32>,
}

/// An opening: a start position and moves played before the engines take
/// over (they are part of the game and marked as book in the record).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// The moves are in the record's notation (SAN from a PGN book) and
    /// still have to be turned into wire moves by the referee.
    pub in_record_notation: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub wire: String,
    /// In the record's notation (SAN for chess).
    pub notation: String,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
    pub book: bool,
}

/// A finished game, ready for any record writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Names of the players of the first and second side.
    pub players: [String; 2],
    pub start: Option<String>,
    pub moves: Vec<PlayedMove>,
    pub ending: Ending,
    pub round: u32,
    pub game_no: u32,
    pub event: String,
    pub date: String,
    pub time_control: String,
}
