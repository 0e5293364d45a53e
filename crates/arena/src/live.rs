//! `-live FILE`: the match as it happens, for watchers such as the browser
//! GUI (`tengen-gui`, whose `[[live]]` entries follow such a file). One
//! JSON object a line, each written whole and flushed at once:
//!
//! - `match`: first line of every run (the file is truncated when the run
//!   starts): the game and its settings, the engines, the games in all;
//! - `start`: a game begins (its number, players, start position);
//! - `move`: a move of a game in progress, as the referee accepted it
//!   (book moves included, marked), with the engine's score, depth and
//!   time;
//! - `end`: a game is over (result and reason as in the record);
//! - `standing`: after every game (and at the start of a resumed run),
//!   every pair's W/L/D, score, Elo with its 95% margin and LOS, as the
//!   arena computes them for its own report.
//!
//! With `-concurrency N` up to N games are in progress at once: every
//! `move` and `end` names its game. Nothing here changes how the match is
//! played; a write that fails is reported once and the match goes on.

use crate::record::{Ending, Outcome, PlayedMove, Side};
use crate::stats::Wdl;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use tengen_games::Game;
use tengen_protocol::host::EngineScore;

/// One line of the live file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LiveEvent {
    Match {
        /// `chess`, `chess960`, `xiangqi`, `shogi`, `go`, `gomoku`, `renju`.
        game: String,
        board_size: u32,
        komi: f64,
        /// Gomoku: `freestyle`, `standard` or `renju`.
        rule: String,
        go_cleanup: bool,
        engines: Vec<String>,
        /// Games in the whole run (this shard's, for a shard).
        total: usize,
    },
    Start {
        game: u32,
        round: u32,
        /// First and second side.
        players: [String; 2],
        /// The start position (FEN, SFEN); absent for the usual one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<String>,
    },
    Move {
        game: u32,
        /// The move's index in the game (0: the first move).
        ply: usize,
        /// In the arena's wire notation (what `legal` and the referees read).
        wire: String,
        /// In the record's notation (SAN, CSA, ...).
        notation: String,
        /// The engine's score from its own view.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cp: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mate: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        depth: Option<u32>,
        ms: u64,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        book: bool,
        /// Main time left on the first and second side's clocks after
        /// the move (absent without clocks and for book moves).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    End {
        game: u32,
        /// `1-0`, `0-1` or `1/2-1/2` (first side's view).
        result: String,
        reason: String,
        plies: usize,
    },
    Standing {
        done: usize,
        total: usize,
        encounters: Vec<LiveEncounter>,
    },
}

/// One pair's standing, from the view of `engines[0]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveEncounter {
    pub engines: [String; 2],
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: f64,
    /// Absent while infinite (one side has scored everything) or before
    /// the first game.
    #[serde(default)]
    pub elo: Option<f64>,
    /// The 95% margin of `elo`.
    #[serde(default)]
    pub margin: Option<f64>,
    pub los: f64,
}

impl LiveEncounter {
    pub fn new(engines: [String; 2], wdl: &Wdl) -> LiveEncounter {
        let played = wdl.games() > 0;
        let e = wdl.elo();
        let finite = e.lower.is_finite() && e.upper.is_finite();
        LiveEncounter {
            engines,
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            score: wdl.score(),
            elo: (played && e.elo.is_finite()).then_some(e.elo),
            margin: (played && finite).then(|| e.margin()),
            los: wdl.los(),
        }
    }
}

/// The game's name in a `match` line.
pub fn game_name(v: &Variant) -> &'static str {
    match v.kind {
        Game::Chess if v.chess960 => "chess960",
        Game::Chess => "chess",
        Game::Xiangqi => "xiangqi",
        Game::Shogi => "shogi",
        Game::Go => "go",
        Game::Gomoku if v.rule == "renju" => "renju",
        Game::Gomoku => "gomoku",
    }
}

pub fn result_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

impl LiveEvent {
    pub fn of_move(game: u32, ply: usize, m: &PlayedMove, left: [Option<u64>; 2]) -> LiveEvent {
        LiveEvent::Move {
            game,
            ply,
            wire: m.wire.clone(),
            notation: m.notation.clone(),
            cp: match m.score {
                Some(EngineScore::Cp(c)) => Some(c),
                _ => None,
            },
            mate: match m.score {
                Some(EngineScore::Mate(n)) => Some(n),
                _ => None,
            },
            depth: m.depth,
            ms: m.elapsed_ms,
            book: m.book,
            left_ms: match left {
                [Some(a), Some(b)] => Some([a, b]),
                _ => None,
            },
        }
    }

    pub fn of_end(game: u32, ending: &Ending, plies: usize) -> LiveEvent {
        LiveEvent::End {
            game,
            result: result_text(ending.outcome).to_string(),
            reason: ending.reason.clone(),
            plies,
        }
    }
}

/// The live file, shared by the workers.
pub struct LiveLog {
    path: String,
    file: Mutex<File>,
    failed: AtomicBool,
}

impl LiveLog {
    /// Creates (truncates) the file.
    pub fn create(path: &str) -> Result<LiveLog, String> {
        let file = File::create(path).map_err(|e| format!("-live file '{path}': {e}"))?;
        Ok(LiveLog {
            path: path.to_string(),
            file: Mutex::new(file),
            failed: AtomicBool::new(false),
        })
    }

    /// Appends one line (whole, flushed); a failure is reported once.
    pub fn write(&self, e: &LiveEvent) {
        let Ok(mut line) = serde_json::to_string(e) else {
            return;
        };
        line.push('\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(err) = f.write_all(line.as_bytes()).and_then(|()| f.flush()) {
            if !self.failed.swap(true, Ordering::SeqCst) {
                eprintln!("tengen-arena: -live file '{}': {err}", self.path);
            }
        }
    }
}

/// Reads one line of a live file (`None` for a line that is not one).
pub fn parse(line: &str) -> Option<LiveEvent> {
    serde_json::from_str(line.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_back() {
        let path = std::env::temp_dir().join(format!("tengen-live-{}.jsonl", std::process::id()));
        let path = path.to_string_lossy().to_string();
        let log = LiveLog::create(&path).unwrap();
        let m = PlayedMove {
            wire: "e2e4".into(),
            notation: "e4".into(),
            score: Some(EngineScore::Mate(-3)),
            depth: Some(9),
            elapsed_ms: 12,
            book: false,
        };
        let events = vec![
            LiveEvent::Start {
                game: 1,
                round: 1,
                players: ["a".into(), "b".into()],
                start: None,
            },
            LiveEvent::of_move(1, 0, &m, [Some(900), Some(1000)]),
            LiveEvent::of_end(1, &Ending::win(Side::Second, "White resigns"), 1),
            LiveEvent::Standing {
                done: 1,
                total: 2,
                encounters: vec![LiveEncounter::new(
                    ["a".into(), "b".into()],
                    &Wdl {
                        wins: 0,
                        draws: 0,
                        losses: 1,
                    },
                )],
            },
        ];
        for e in &events {
            log.write(e);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let back: Vec<LiveEvent> = text.lines().filter_map(parse).collect();
        assert_eq!(back, events);
        assert!(text.contains(r#""event":"move""#) && text.contains(r#""mate":-3"#));
        assert!(text.contains(r#""left_ms":[900,1000]"#), "{text}");
        assert!(text.contains(r#""elo":null"#), "{text}");
        assert_eq!(parse("{torn"), None);
        let _ = std::fs::remove_file(&path);
    }
}
