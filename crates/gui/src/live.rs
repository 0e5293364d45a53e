//! Watching a `tengen-arena` run started on the command line: the arena
//! writes its `-live FILE` (one JSON event a line, `tengen_arena::live`),
//! the server's configuration names that file (`[[live]]`), and a tab
//! attaches by name. A thread follows the file as `tail -f` would and
//! hands each batch of new events to the hub, which shows the game in
//! progress (the next one when it ends) and the standing to every tab.
//! The page can never name a file; nothing here writes or starts
//! anything.

use crate::hub::Hub;
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tengen_arena::live::{self, LiveEncounter, LiveEvent};

/// How often the file is looked at for new lines.
const POLL: Duration = Duration::from_millis(100);
/// Most bytes read in one look (a long file is caught up in pieces).
const CHUNK: usize = 4 << 20;

/// A live file of the configuration.
#[derive(Clone, Debug)]
pub struct Feed {
    pub name: String,
    pub path: PathBuf,
}

/// A game of the run, as far as the file has told it.
#[derive(Clone, Debug, Default)]
pub struct LiveGame {
    pub players: [String; 2],
    pub start: Option<String>,
    pub moves: Vec<LiveMove>,
    /// Result (`1-0`, ...) and reason once it is over.
    pub end: Option<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct LiveMove {
    pub wire: String,
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    pub depth: Option<u32>,
    pub ms: u64,
    pub book: bool,
    /// Both clocks after the move (main time left), when the run has them.
    pub left_ms: Option<[u64; 2]>,
}

/// The settings of the run (its `match` line).
#[derive(Clone, Debug)]
pub struct Header {
    pub game: String,
    pub board_size: u32,
    pub komi: f64,
    pub rule: String,
    pub go_cleanup: bool,
    pub total: usize,
}

/// What a watch knows of the run: its settings, the games in progress,
/// the one shown, the standing.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    pub feed: String,
    pub token: u64,
    pub header: Option<Header>,
    /// Games in progress, and the shown one even when it is over.
    pub games: BTreeMap<u32, LiveGame>,
    pub shown: Option<u32>,
    pub done: usize,
    pub encounters: Vec<LiveEncounter>,
    /// The game the hub's table holds, and that table's id.
    pub table: Option<(u32, u64)>,
    /// Why the shown game's moves stopped (a move the referee refused).
    pub problem: Option<String>,
}

impl Watch {
    pub fn new(feed: &str, token: u64) -> Watch {
        Watch {
            feed: feed.to_string(),
            token,
            ..Watch::default()
        }
    }

    fn shown_over(&self) -> bool {
        self.shown
            .and_then(|n| self.games.get(&n))
            .is_none_or(|g| g.end.is_some())
    }

    /// Takes one event in. A `match` line starts the watch afresh (a
    /// new run, or the same run resumed).
    pub fn apply(&mut self, e: LiveEvent) {
        match e {
            LiveEvent::Match {
                game,
                board_size,
                komi,
                rule,
                go_cleanup,
                total,
                ..
            } => {
                *self = Watch {
                    feed: std::mem::take(&mut self.feed),
                    token: self.token,
                    header: Some(Header {
                        game,
                        board_size,
                        komi,
                        rule,
                        go_cleanup,
                        total,
                    }),
                    ..Watch::default()
                };
            }
            LiveEvent::Start {
                game,
                players,
                start,
                ..
            } => {
                self.games.insert(
                    game,
                    LiveGame {
                        players,
                        start,
                        ..LiveGame::default()
                    },
                );
                if self.shown_over() {
                    self.show(game);
                }
            }
            LiveEvent::Move {
                game,
                ply,
                wire,
                cp,
                mate,
                depth,
                ms,
                book,
                left_ms,
                ..
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    if ply == g.moves.len() && g.end.is_none() {
                        g.moves.push(LiveMove {
                            wire,
                            cp,
                            mate,
                            depth,
                            ms,
                            book,
                            left_ms,
                        });
                    }
                }
            }
            LiveEvent::End {
                game,
                result,
                reason,
                ..
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.end = Some((result, reason));
                }
                if self.shown == Some(game) {
                    // Another game in progress takes over at once.
                    let next = self
                        .games
                        .iter()
                        .find(|(_, g)| g.end.is_none())
                        .map(|(n, _)| *n);
                    if let Some(n) = next {
                        self.show(n);
                    }
                }
                let shown = self.shown;
                self.games
                    .retain(|n, g| g.end.is_none() || Some(*n) == shown);
            }
            LiveEvent::Standing {
                done, encounters, ..
            } => {
                self.done = done;
                self.encounters = encounters;
            }
        }
    }

    fn show(&mut self, game: u32) {
        self.shown = Some(game);
        self.problem = None;
        let shown = self.shown;
        self.games
            .retain(|n, g| g.end.is_none() || Some(*n) == shown);
    }
}

/// Longest unfinished line kept: the arena's events are far shorter, so
/// a file without line ends (not one the arena wrote) cannot grow the
/// server's memory.
const MAX_PARTIAL: usize = 1 << 20;

/// Takes the whole lines read so far out of `partial` (a line still
/// being written waits there); an unfinished line past `MAX_PARTIAL` is
/// dropped.
fn whole_lines(partial: &mut Vec<u8>) -> Option<String> {
    let text = partial.iter().rposition(|&b| b == b'\n').map(|end| {
        let text = String::from_utf8_lossy(&partial[..end]).into_owned();
        partial.drain(..=end);
        text
    });
    if partial.len() > MAX_PARTIAL {
        partial.clear();
    }
    text
}

/// Follows the file until the hub says the watch `token` is over. A file
/// that is not there yet is waited for; one that got shorter (a new run
/// truncated it) is read again from its start.
pub fn follow(hub: Arc<Hub>, token: u64, path: PathBuf) {
    let mut offset: u64 = 0;
    let mut partial: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        if !hub.watching(token) {
            return;
        }
        let mut events = Vec::new();
        if let Ok(mut f) = std::fs::File::open(&path) {
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            if len < offset {
                offset = 0;
                partial.clear();
            }
            if len > offset && f.seek(SeekFrom::Start(offset)).is_ok() {
                if let Ok(n) = f.read(&mut buf) {
                    offset += n as u64;
                    partial.extend_from_slice(&buf[..n]);
                }
            }
            if let Some(text) = whole_lines(&mut partial) {
                events.extend(text.lines().filter_map(live::parse));
            }
            let more = len > offset;
            if !events.is_empty() {
                hub.live_events(token, events);
            }
            if more {
                continue;
            }
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(game: u32) -> LiveEvent {
        LiveEvent::Start {
            game,
            round: 1,
            players: ["a".into(), "b".into()],
            start: None,
        }
    }

    fn mv(game: u32, ply: usize, wire: &str) -> LiveEvent {
        LiveEvent::Move {
            game,
            ply,
            wire: wire.into(),
            notation: wire.into(),
            cp: None,
            mate: None,
            depth: None,
            ms: 1,
            book: false,
            left_ms: None,
        }
    }

    fn end(game: u32) -> LiveEvent {
        LiveEvent::End {
            game,
            result: "1-0".into(),
            reason: "r".into(),
            plies: 1,
        }
    }

    #[test]
    fn whole_lines_wait_for_their_end_and_a_line_without_one_is_capped() {
        let mut partial = b"{\"a\":1}\n{\"b\"".to_vec();
        assert_eq!(whole_lines(&mut partial).as_deref(), Some("{\"a\":1}"));
        assert_eq!(partial, b"{\"b\"");
        assert_eq!(whole_lines(&mut partial), None);
        partial.extend(std::iter::repeat_n(b'x', MAX_PARTIAL));
        assert_eq!(whole_lines(&mut partial), None);
        assert!(partial.is_empty());
    }

    #[test]
    fn the_shown_game_moves_on_to_the_next_one() {
        let mut w = Watch::new("f", 1);
        w.apply(start(1));
        w.apply(mv(1, 0, "e2e4"));
        w.apply(mv(1, 2, "skipped: not the next ply"));
        assert_eq!(w.shown, Some(1));
        assert_eq!(w.games[&1].moves.len(), 1);
        // Concurrency: game 2 starts while 1 goes on; 1 stays shown.
        w.apply(start(2));
        w.apply(mv(2, 0, "d2d4"));
        assert_eq!(w.shown, Some(1));
        w.apply(end(1));
        assert_eq!(w.shown, Some(2));
        assert!(!w.games.contains_key(&1));
        // One at a time: the finished game stays until the next starts.
        w.apply(end(2));
        assert_eq!(w.shown, Some(2));
        assert!(w.games[&2].end.is_some());
        w.apply(start(3));
        assert_eq!(w.shown, Some(3));
        assert_eq!(w.games.len(), 1);
    }
}
