//! The match journal: one JSON line per finished game, written after the
//! game's record is on disk, so that a match killed at any moment can be
//! continued (`-resume`) without losing or repeating a game.
//!
//! The journal sits beside the first output file (`out.pgn.journal`). Its
//! first line names the match (every setting that decides the game list,
//! the openings and the pairing); each later line is one game with the
//! length the record file had once that game was written. On resume the
//! record file is cut back to the last journalled length, which drops a
//! game that was half written, or written but not yet journalled, when the
//! arena died; that game is then played again.

use crate::record::{Outcome, Side};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};

/// One finished game as the journal keeps it: enough to rebuild the
/// statistics and the JSON summary without reading the record back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub game: u32,
    pub round: u32,
    pub encounter: usize,
    pub pair: u32,
    /// Engine indices of the first and second side as played (swap2 may
    /// have exchanged them).
    pub seats: [usize; 2],
    pub players: [String; 2],
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    pub reason: String,
    pub plies: usize,
    /// Length of the record file once this game was in it (0 without one).
    pub record_end: u64,
}

impl Entry {
    pub fn outcome(&self) -> Option<Outcome> {
        match self.result.as_str() {
            "1-0" => Some(Outcome::Win(Side::First)),
            "0-1" => Some(Outcome::Win(Side::Second)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// The journal's first line: which match, which part of it, and whether
/// the journal sits beside a record file (`FILE.journal` for `FILE`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub journal: u32,
    #[serde(rename = "match")]
    pub identity: String,
    /// `[I, N]` for the I-th of N shards; absent for a whole match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u32; 2]>,
    #[serde(default)]
    pub record: bool,
}

impl Header {
    pub fn new(identity: &str, shard: Option<[u32; 2]>, record: bool) -> Header {
        Header {
            journal: VERSION,
            identity: identity.to_string(),
            shard,
            record,
        }
    }

    /// Why a journal with this header cannot continue the match `want`.
    pub fn mismatch(&self, want: &Header) -> Option<String> {
        if self.identity != want.identity {
            return Some(
                "it belongs to a different match (engines, time controls, game, games, \
                 rounds, openings, seed or adjudication differ); run the original command \
                 line, or remove the journal to start afresh"
                    .into(),
            );
        }
        if self.shard != want.shard {
            return Some(format!(
                "it is shard {} and this run is shard {}",
                shard_text(self.shard),
                shard_text(want.shard)
            ));
        }
        None
    }
}

fn shard_text(s: Option<[u32; 2]>) -> String {
    s.map_or("(none: the whole match)".into(), |[i, n]| {
        format!("{i}/{n}")
    })
}

const VERSION: u32 = 1;

pub struct Journal {
    file: File,
}

impl Journal {
    /// Starts a new journal under `header`, replacing any old one.
    pub fn create(path: &str, header: &Header) -> Result<Journal, String> {
        let mut file = File::create(path).map_err(|e| format!("journal '{path}': {e}"))?;
        let line = serde_json::to_string(header).map_err(|e| format!("journal: {e}"))?;
        writeln!(file, "{line}")
            .and_then(|()| file.sync_data())
            .map_err(|e| format!("journal '{path}': {e}"))?;
        Ok(Journal { file })
    }

    /// Reads the journal of an interrupted match: the games it holds, and
    /// the journal opened for appending. A torn last line (the arena died
    /// while writing it) is cut off. `None` when there is no journal.
    pub fn resume(path: &str, want: &Header) -> Result<Option<(Journal, Vec<Entry>)>, String> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("journal '{path}': {e}")),
        };
        let (header, entries, good_len) =
            read(BufReader::new(file)).map_err(|e| format!("-resume: journal '{path}': {e}"))?;
        if let Some(why) = header.mismatch(want) {
            return Err(format!("-resume: journal '{path}': {why}"));
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(good_len).map(|()| f))
            .map_err(|e| format!("journal '{path}': {e}"))?;
        let mut journal = Journal { file };
        use std::io::Seek;
        journal
            .file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|e| format!("journal '{path}': {e}"))?;
        Ok(Some((journal, entries)))
    }

    /// Appends one game and makes it durable before returning.
    pub fn append(&mut self, entry: &Entry) -> Result<(), String> {
        let mut line = serde_json::to_string(entry).map_err(|e| format!("journal: {e}"))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("journal: {e}"))
    }
}

/// A journal as it is on disk, for merging shards: its header and games.
pub fn load(path: &str) -> Result<(Header, Vec<Entry>), String> {
    let file = File::open(path).map_err(|e| format!("journal '{path}': {e}"))?;
    let (header, entries, _) =
        read(BufReader::new(file)).map_err(|e| format!("journal '{path}': {e}"))?;
    Ok((header, entries))
}

/// The header and entries of a journal and the length of its complete
/// lines (what `-resume` cuts the file back to). Public for the
/// `arena_journal` fuzz target.
pub fn read(mut r: impl BufRead) -> Result<(Header, Vec<Entry>, u64), String> {
    let mut line = String::new();
    let mut good = 0u64;
    let n = r.read_line(&mut line).map_err(|e| e.to_string())?;
    let header: Header = serde_json::from_str(line.trim_end())
        .map_err(|_| "the first line is not a tengen-arena journal header".to_string())?;
    if header.journal != VERSION {
        return Err(format!(
            "journal version {} is not {VERSION}",
            header.journal
        ));
    }
    good += n as u64;
    let mut entries: Vec<Entry> = Vec::new();
    loop {
        line.clear();
        let n = r.read_line(&mut line).map_err(|e| e.to_string())?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        let Ok(entry) = serde_json::from_str::<Entry>(line.trim_end()) else {
            // Only the last line can be torn; anything after a bad line is
            // not trusted either.
            break;
        };
        if entry.outcome().is_none() {
            break;
        }
        if entries.iter().any(|e| e.game == entry.game) {
            return Err(format!("game {} is journalled twice", entry.game));
        }
        if entries
            .last()
            .is_some_and(|l| l.record_end > entry.record_end)
        {
            return Err(format!(
                "game {}'s record ends before the last one's",
                entry.game
            ));
        }
        entries.push(entry);
        good += n as u64;
    }
    Ok((header, entries, good))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: u32, end: u64) -> Entry {
        Entry {
            game,
            round: 1,
            encounter: 0,
            pair: (game - 1) / 2,
            seats: [0, 1],
            players: ["a".into(), "b \"quoted\"".into()],
            result: "1/2-1/2".into(),
            reason: "draw by\nrepetition".into(),
            plies: 40,
            record_end: end,
        }
    }

    fn temp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("tengen-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn entries_read_back_and_a_torn_line_is_cut() {
        let path = temp("torn");
        let mut j = Journal::create(&path, &Header::new("m1", None, true)).unwrap();
        j.append(&entry(1, 100)).unwrap();
        j.append(&entry(2, 250)).unwrap();
        drop(j);
        let whole = std::fs::metadata(&path).unwrap().len();
        // A half-written third line, as `kill -9` can leave it.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"game\":3,\"round\":1,\"enc").unwrap();
        drop(f);
        let (mut j, got) = Journal::resume(&path, &Header::new("m1", None, true))
            .unwrap()
            .unwrap();
        assert_eq!(got, vec![entry(1, 100), entry(2, 250)]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        j.append(&entry(3, 400)).unwrap();
        drop(j);
        let (_, got) = Journal::resume(&path, &Header::new("m1", None, true))
            .unwrap()
            .unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(got[2], entry(3, 400));
    }

    #[test]
    fn another_match_or_no_journal() {
        let path = temp("other");
        Journal::create(&path, &Header::new("m1", None, true)).unwrap();
        let err = Journal::resume(&path, &Header::new("m2", None, true))
            .err()
            .unwrap();
        assert!(err.contains("different match"), "{err}");
        let err = Journal::resume(&path, &Header::new("m1", Some([2, 4]), true))
            .err()
            .unwrap();
        assert!(
            err.contains("shard (none: the whole match) and this run is shard 2/4"),
            "{err}"
        );
        Journal::create(&path, &Header::new("m1", Some([2, 4]), true)).unwrap();
        let (header, games) = load(&path).unwrap();
        assert_eq!((header.shard, games.len()), (Some([2, 4]), 0));
        assert!(
            Journal::resume(&temp("absent"), &Header::new("m1", None, true))
                .unwrap()
                .is_none()
        );
        std::fs::write(&path, "not a journal\n").unwrap();
        let err = Journal::resume(&path, &Header::new("m1", None, true))
            .err()
            .unwrap();
        assert!(err.contains("header"), "{err}");
    }

    #[test]
    fn outcomes() {
        let mut e = entry(1, 0);
        assert_eq!(e.outcome(), Some(Outcome::Draw));
        e.result = "1-0".into();
        assert_eq!(e.outcome(), Some(Outcome::Win(Side::First)));
        e.result = "0-1".into();
        assert_eq!(e.outcome(), Some(Outcome::Win(Side::Second)));
        e.result = "2-0".into();
        assert_eq!(e.outcome(), None);
    }
}
