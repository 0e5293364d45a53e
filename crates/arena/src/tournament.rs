//! Matches, round-robins and gauntlets: the schedule (games in pairs with
//! colours swapped from the same opening), worker threads that each own
//! their engines, and the running statistics with an SPRT that stops the
//! run once it decides.

use crate::clock::TimeControl;
use crate::game::{self, GameSpec};
use crate::journal::{self, Entry, Header, Journal};
use crate::live::{self, LiveEncounter, LiveEvent, LiveLog};
use crate::openings::{self, OpeningSpec};
use crate::player::{make_player, EngineConfig, Player};
use crate::process::Transcript;
use crate::progress::{Progress, Snapshot};
use crate::record::{Adjudication, Ending, FaultKind, GameRecord, Opening, Outcome, Side};
use crate::referee::Referee;
use crate::stats::{Pentanomial, Sprt, SprtModel, SprtVerdict, Wdl};
use crate::swap2;
use crate::variant::{make_referee, Variant};
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::io::{Seek, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    RoundRobin,
    /// The first engine plays every other; the others never meet.
    Gauntlet,
}

#[derive(Clone, Debug)]
pub struct Tournament {
    pub engines: Vec<EngineConfig>,
    /// Time control per engine (same index as `engines`).
    pub tcs: Vec<Option<TimeControl>>,
    pub variant: Variant,
    pub mode: Mode,
    pub games: u32,
    pub rounds: u32,
    pub openings: OpeningSpec,
    pub seed: u64,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub margin: Duration,
    pub pgnout: Option<String>,
    pub jsonout: Option<String>,
    /// Continue the match from the journal an earlier run of the same
    /// match left beside its output files.
    pub resume: bool,
    /// Play only the I-th of N disjoint parts of the match (`[I, N]`).
    pub shard: Option<[u32; 2]>,
    /// Instead of playing: merge these shards' journals into one result.
    pub merge: Vec<String>,
    pub transcript: Option<String>,
    pub event: String,
    /// Print the Elo block every this many games (0: only at the end).
    pub rating_interval: u32,
    /// Colours are never swapped: in each encounter the engine listed
    /// first always takes the first player's side (gomoku: Black).
    pub noswap: bool,
    /// `-live FILE`: the match as it happens, one JSON event a line
    /// (`crate::live`); not part of the match's identity.
    pub live: Option<String>,
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    game_no: u32,
    round: u32,
    /// Index of the encounter (a pair of engines).
    encounter: usize,
    /// Engine indices for the first and second side.
    seats: [usize; 2],
    /// Game pairs share an opening and feed the pentanomial counts.
    pair: u32,
}

/// Running results of two engines against each other, from the view of
/// the encounter's first engine.
#[derive(Clone, Debug, Default)]
pub struct EncounterStats {
    pub engines: [usize; 2],
    pub wdl: Wdl,
    /// The first engine's results when it had the first side.
    pub as_first: Wdl,
    pub penta: Pentanomial,
    /// Half-points of pairs still waiting for their second game.
    pending: HashMap<u32, u32>,
}

impl EncounterStats {
    /// Adds a game worth `points2` half-points; a pair's second game
    /// completes its pentanomial entry (a lone last game never does).
    fn add(&mut self, pair: u32, points2: u32) {
        match points2 {
            2 => self.wdl.wins += 1,
            1 => self.wdl.draws += 1,
            _ => self.wdl.losses += 1,
        }
        let e = self.pending.entry(pair).or_insert(0);
        *e += points2 + 100;
        if *e >= 200 {
            let total = *e - 200;
            self.pending.remove(&pair);
            self.penta.add(total as usize);
        }
    }
}

/// Adds one game to its encounter's statistics.
fn tally(stats: &mut [EncounterStats], e: &Entry, outcome: Outcome) {
    let st = &mut stats[e.encounter];
    // Points of the encounter's first engine, doubled.
    let first_is_a = e.seats[0] == st.engines[0];
    let points2 = match outcome {
        Outcome::Draw => 1,
        Outcome::Win(Side::First) if first_is_a => 2,
        Outcome::Win(Side::Second) if !first_is_a => 2,
        Outcome::Win(_) => 0,
    };
    st.add(e.pair, points2);
    if first_is_a {
        match points2 {
            2 => st.as_first.wins += 1,
            1 => st.as_first.draws += 1,
            _ => st.as_first.losses += 1,
        }
    }
}

/// The SPRT after another game: the first decision sticks. Only a match of
/// one encounter is tested. Returns whether the test has decided.
fn update_sprt(
    sprt: Option<Sprt>,
    stats: &[EncounterStats],
    state: &mut Option<(f64, SprtVerdict)>,
) -> bool {
    if let (Some(sprt), [st]) = (sprt, stats) {
        if state.is_none_or(|(_, v)| v == SprtVerdict::Continue) {
            let llr = sprt.llr(&st.wdl, &st.penta);
            *state = Some((llr, sprt.verdict(llr)));
        }
    }
    state.is_some_and(|(_, v)| v != SprtVerdict::Continue)
}

/// Replaces `path` by `text` so that a reader sees the old file or the new
/// one, never a mixture: write a sibling, make it durable, rename it over.
fn write_atomically(path: &str, text: &str) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("summary file '{path}': {e}"))
}

fn result_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

impl Tournament {
    fn encounters(&self) -> Vec<[usize; 2]> {
        let n = self.engines.len();
        match self.mode {
            Mode::Gauntlet => (1..n).map(|j| [0, j]).collect(),
            Mode::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
                .collect(),
        }
    }

    fn schedule(&self) -> Vec<Job> {
        let encounters = self.encounters();
        let mut jobs = Vec::new();
        let mut game_no = 0;
        for round in 0..self.rounds {
            for (e, pair) in encounters.iter().enumerate() {
                for g in 0..self.games {
                    // k counts this encounter's games; consecutive games
                    // form a pair with colours swapped.
                    let k = round * self.games + g;
                    let seats = if self.noswap || k.is_multiple_of(2) {
                        *pair
                    } else {
                        [pair[1], pair[0]]
                    };
                    game_no += 1;
                    jobs.push(Job {
                        game_no,
                        round: round + 1,
                        encounter: e,
                        seats,
                        pair: k / 2,
                    });
                }
            }
        }
        jobs
    }

    /// The opening of a game pair: the book position for the pair (the
    /// same in every encounter), then random plies from a seeded stream.
    fn opening(&self, book: &[Opening], pair: u32, referee: &mut dyn Referee) -> Opening {
        openings::for_pair(
            book,
            u64::from(pair),
            self.openings.plies,
            self.seed,
            referee,
        )
    }

    /// Everything that decides the game list, the openings, the pairing
    /// and the scoring: a journal written under another identity cannot
    /// be resumed by this match. Concurrency and output paths may change.
    fn identity(&self) -> String {
        // `noswap` joins only when set, so journals of earlier builds
        // still resume.
        let noswap = if self.noswap { " noswap" } else { "" };
        format!(
            "{:?}{noswap}",
            (
                &self.engines,
                &self.tcs,
                &self.variant,
                self.mode,
                self.games,
                self.rounds,
                &self.openings,
                self.seed,
                &self.adjudication,
                &self.sprt,
            )
        )
    }

    /// One empty tally per pair of engines that meet.
    fn empty_stats(&self) -> Vec<EncounterStats> {
        self.encounters()
            .into_iter()
            .map(|e| EncounterStats {
                engines: e,
                ..Default::default()
            })
            .collect()
    }

    /// This run's journal header.
    fn header(&self) -> Header {
        Header::new(&self.identity(), self.shard, self.pgnout.is_some())
    }

    /// Whether a game belongs to shard `[i, n]`: game pairs (an opening
    /// with colours swapped) are dealt to the shards in turn, in schedule
    /// order, so a pair is never split and the pentanomial counts stay
    /// whole.
    fn shard_of(all: &[Job], n: u32) -> HashMap<(usize, u32), u32> {
        let mut slot = HashMap::new();
        for j in all {
            let next = slot.len() as u32;
            slot.entry((j.encounter, j.pair)).or_insert(next % n + 1);
        }
        slot
    }

    /// The journal's path: beside the first output file.
    fn journal_path(&self) -> Option<String> {
        self.pgnout
            .as_ref()
            .or(self.jsonout.as_ref())
            .map(|p| format!("{p}.journal"))
    }

    /// The journal and the games it already holds: a fresh one, or with
    /// `-resume` the one an earlier run left.
    fn open_journal(&self, out: &mut dyn Write) -> Result<(Option<Journal>, Vec<Entry>), String> {
        let Some(path) = self.journal_path() else {
            if self.resume {
                return Err(
                    "-resume needs -pgnout or -jsonout (the journal is kept beside them)".into(),
                );
            }
            return Ok((None, Vec::new()));
        };
        if self.resume {
            match Journal::resume(&path, &self.header())? {
                Some((journal, done)) => return Ok((Some(journal), done)),
                None => {
                    let _ = writeln!(out, "Nothing to resume ({path} not found): starting afresh");
                }
            }
        }
        Ok((Some(Journal::create(&path, &self.header())?), Vec::new()))
    }

    /// The record file, cut back to the end of the last journalled game
    /// when resuming (a game written after that is played again).
    fn open_record(&self, resumed: Option<u64>) -> Result<Option<std::fs::File>, String> {
        let Some(path) = &self.pgnout else {
            return Ok(None);
        };
        let err = |e: std::io::Error| format!("record file '{path}': {e}");
        let Some(end) = resumed else {
            return std::fs::File::create(path).map(Some).map_err(err);
        };
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(err)?;
        let len = f.metadata().map_err(err)?.len();
        if len < end {
            return Err(format!(
                "-resume: record file '{path}' has {len} bytes but the journal says {end} \
                 were written; it is not this match's record"
            ));
        }
        f.set_len(end).map_err(err)?;
        f.seek(std::io::SeekFrom::End(0)).map_err(err)?;
        Ok(Some(f))
    }

    /// Runs everything; prints progress to `out`.
    pub fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("at least two engines are needed".into());
        }
        let first_name = make_referee(&self.variant)?.side_name(Side::First);
        let book = Arc::new(openings::load(
            &self.openings,
            self.seed,
            self.variant.board_size,
        )?);
        let transcript = match &self.transcript {
            Some(path) => {
                let f = std::fs::File::create(path)
                    .map_err(|e| format!("transcript file '{path}': {e}"))?;
                Some(Transcript::new(Box::new(std::io::BufWriter::new(f))))
            }
            None => None,
        };
        let (mut journal, mut games) = self.open_journal(out)?;
        let resumed = journal
            .as_ref()
            .filter(|_| self.resume)
            .map(|_| games.last().map_or(0, |e| e.record_end));
        let mut pgn = self.open_record(resumed)?;

        let mut stats = self.empty_stats();
        let mut sprt_state = None;
        let all = self.schedule();
        for e in &games {
            let known = all.get(e.game as usize - 1).is_some_and(|j| {
                (j.encounter, j.pair) == (e.encounter, e.pair) && e.encounter < stats.len()
            });
            match (known, e.outcome()) {
                (true, Some(o)) => tally(&mut stats, e, o),
                _ => return Err(format!("-resume: game {} is not one of this match", e.game)),
            }
            update_sprt(self.sprt, &stats, &mut sprt_state);
        }
        let decided = update_sprt(self.sprt, &stats, &mut sprt_state) && self.shard.is_none();
        let part = self.shard.map(|[_, n]| Self::shard_of(&all, n));
        let mine = |j: &Job| match (&part, self.shard) {
            (Some(part), Some([i, _])) => part.get(&(j.encounter, j.pair)) == Some(&i),
            _ => true,
        };
        let total = all.iter().filter(|j| mine(j)).count();
        let jobs: Vec<Job> = if decided {
            Vec::new()
        } else {
            all.into_iter()
                .filter(|j| mine(j) && !games.iter().any(|e| e.game == j.game_no))
                .collect()
        };
        if self.resume && !games.is_empty() {
            let _ = writeln!(
                out,
                "Resuming: {} of {total} games already played",
                games.len()
            );
        }
        let mut done = games.len() as u32;
        games.sort_by_key(|e| e.game);
        let live = match &self.live {
            Some(path) => {
                let log = LiveLog::create(path)?;
                log.write(&LiveEvent::Match {
                    game: live::game_name(&self.variant).to_string(),
                    board_size: self.variant.board_size,
                    komi: self.variant.komi,
                    rule: self.variant.rule.clone(),
                    go_cleanup: self.variant.go_cleanup,
                    engines: self.engines.iter().map(|e| e.name.clone()).collect(),
                    total,
                });
                log.write(&self.standing(&stats, done as usize, total));
                Some(Arc::new(log))
            }
            None => None,
        };

        let mut progress = Progress::new(total, done as usize);
        let remaining = jobs.len();
        let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<(Job, GameRecord, String)>();
        let date = today();
        let workers = self.concurrency.clamp(1, remaining.max(1));
        let mut handles = Vec::new();
        for w in 0..workers.min(remaining) {
            let (queue, stop, tx, book, transcript, date, live) = (
                queue.clone(),
                stop.clone(),
                tx.clone(),
                book.clone(),
                transcript.clone(),
                date.clone(),
                live.clone(),
            );
            let t = self.clone();
            handles.push(thread::spawn(move || {
                t.worker(w, &queue, &stop, &tx, &book, transcript, &date, live)
            }));
        }
        drop(tx);

        for (job, record, text) in rx {
            done += 1;
            // The record first, then the journal line that vouches for it.
            let mut record_end = 0;
            if let Some(f) = pgn.as_mut() {
                let written = f
                    .write_all(text.as_bytes())
                    .and_then(|()| f.flush())
                    .and_then(|()| f.sync_data())
                    .and_then(|()| f.stream_position());
                match written {
                    Ok(end) => record_end = end,
                    Err(e) => eprintln!("tengen-arena: record file: {e}"),
                }
            }
            let entry = Entry {
                game: job.game_no,
                round: job.round,
                encounter: job.encounter,
                pair: job.pair,
                seats: job.seats,
                players: record.players.clone(),
                result: result_text(record.ending.outcome).to_string(),
                reason: record.ending.reason.clone(),
                plies: record.moves.len(),
                record_end,
            };
            if let Some(j) = journal.as_mut() {
                if let Err(e) = j.append(&entry) {
                    eprintln!("tengen-arena: {e}");
                }
            }
            tally(&mut stats, &entry, record.ending.outcome);
            if let Some(log) = &live {
                log.write(&LiveEvent::of_end(
                    job.game_no,
                    &record.ending,
                    record.moves.len(),
                ));
                log.write(&self.standing(&stats, done as usize, total));
            }
            let st = &stats[job.encounter];
            let (a, b) = (
                &self.engines[st.engines[0]].name,
                &self.engines[st.engines[1]].name,
            );
            progress.suspend(|| {
                let _ = writeln!(
                    out,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    job.game_no,
                    record.players[0],
                    record.players[1],
                    result_text(record.ending.outcome),
                    record.ending.reason
                );
                let _ = writeln!(
                    out,
                    "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}   ({done}/{total})",
                    st.wdl.wins,
                    st.wdl.losses,
                    st.wdl.draws,
                    st.wdl.score(),
                    st.wdl.games()
                );
                if self.rating_interval > 0 && done.is_multiple_of(self.rating_interval) {
                    let _ = write!(out, "{}", elo_block(st, self.sprt));
                }
                let _ = out.flush();
            });
            progress.update(
                &Snapshot {
                    done: done as usize,
                    total,
                    names: [a, b],
                    wdl: st.wdl,
                },
                Instant::now(),
            );
            // A shard's own games do not decide the match's SPRT: whoever
            // merges the shards stops them.
            if update_sprt(self.sprt, &stats, &mut sprt_state) && self.shard.is_none() {
                stop.store(true, Ordering::SeqCst);
            }
            let at = games.partition_point(|e| e.game < entry.game);
            games.insert(at, entry);
            // The summary is rewritten after every game, so a match cut
            // short still has one that agrees with its record.
            if let Some(path) = &self.jsonout {
                if let Err(e) = write_atomically(path, &self.json(&stats, &games, sprt_state)?) {
                    eprintln!("tengen-arena: {e}");
                }
            }
        }
        for h in handles {
            let _ = h.join();
        }
        progress.finish();
        self.report(out, first_name, &stats, sprt_state);
        if let Some(path) = &self.jsonout {
            write_atomically(path, &self.json(&stats, &games, sprt_state)?)?;
        }
        Ok(())
    }

    /// The closing lines: per pair the score, the first side's share, the
    /// Elo block; then the SPRT.
    fn report(
        &self,
        out: &mut dyn Write,
        first_name: &str,
        stats: &[EncounterStats],
        sprt_state: Option<(f64, SprtVerdict)>,
    ) {
        for st in stats {
            let (a, b) = (
                &self.engines[st.engines[0]].name,
                &self.engines[st.engines[1]].name,
            );
            let _ = writeln!(
                out,
                "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}",
                st.wdl.wins,
                st.wdl.losses,
                st.wdl.draws,
                st.wdl.score(),
                st.wdl.games()
            );
            let f = &st.as_first;
            let _ = writeln!(
                out,
                "...      {a} playing {first_name}: {} - {} - {}",
                f.wins, f.losses, f.draws
            );
            let _ = write!(out, "{}", elo_block(st, self.sprt));
        }
        if let (Some(sprt), Some((llr, verdict))) = (self.sprt, sprt_state) {
            let (lo, hi) = sprt.bounds();
            let tail = match verdict {
                SprtVerdict::H0 => " - H0 was accepted",
                SprtVerdict::H1 => " - H1 was accepted",
                SprtVerdict::Continue => "",
            };
            let _ = writeln!(
                out,
                "SPRT: llr {llr:.2} ({:.1}%), lbound {lo:.2}, ubound {hi:.2}{tail}",
                llr / hi * 100.0
            );
        }
    }

    /// Merges the journals (and records) of the N shards of this match
    /// into one record, journal and summary, as one unsharded run with a
    /// single worker would have written them: games in game order, the
    /// statistics and the SPRT replayed in that order.
    pub fn merge_shards(&self, out: &mut dyn Write) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("at least two engines are needed".into());
        }
        let first_name = make_referee(&self.variant)?.side_name(Side::First);
        let all = self.schedule();
        let mut want = self.header();
        let mut seen: Vec<u32> = Vec::new();
        let mut n_shards = None;
        // Every game with the shard record it is written in.
        let mut games: Vec<(Entry, Option<usize>, u64)> = Vec::new();
        let mut records: Vec<Vec<u8>> = Vec::new();
        for path in &self.merge {
            let (header, entries) = journal::load(path)?;
            let Some([i, n]) = header.shard else {
                return Err(format!("-merge: '{path}' is not a shard's journal"));
            };
            if *n_shards.get_or_insert(n) != n || i == 0 || i > n {
                return Err(format!(
                    "-merge: '{path}' is shard {i}/{n}, not of the others' N"
                ));
            }
            want.shard = Some([i, n]);
            if let Some(why) = header.mismatch(&Header {
                record: header.record,
                ..want.clone()
            }) {
                return Err(format!("-merge: '{path}': {why}"));
            }
            if seen.contains(&i) {
                return Err(format!("-merge: shard {i}/{n} is given twice"));
            }
            seen.push(i);
            let record = if header.record {
                let rec = path.strip_suffix(".journal").unwrap_or(path);
                let bytes =
                    std::fs::read(rec).map_err(|e| format!("-merge: record '{rec}': {e}"))?;
                records.push(bytes);
                Some(records.len() - 1)
            } else {
                None
            };
            let part = Self::shard_of(&all, n);
            let mut start = 0;
            for e in entries {
                let job = all.get((e.game as usize).wrapping_sub(1));
                let ok = job.is_some_and(|j| {
                    (j.encounter, j.pair) == (e.encounter, e.pair)
                        && part.get(&(j.encounter, j.pair)) == Some(&i)
                });
                if !ok || e.outcome().is_none() {
                    return Err(format!(
                        "-merge: '{path}': game {} is not this shard's",
                        e.game
                    ));
                }
                let end = e.record_end;
                games.push((e, record, start));
                start = end;
            }
        }
        let n = n_shards.unwrap_or(0);
        if seen.len() as u32 != n {
            let missing: Vec<String> = (1..=n)
                .filter(|i| !seen.contains(i))
                .map(|i| format!("{i}/{n}"))
                .collect();
            return Err(format!("-merge: shards {} are missing", missing.join(", ")));
        }
        games.sort_by_key(|(e, _, _)| e.game);

        let mut stats = self.empty_stats();
        let mut sprt_state = None;
        let mut pgn = self.open_record(None)?;
        let mut journal = match self.journal_path() {
            Some(p) => Some(Journal::create(
                &p,
                &Header::new(&self.identity(), None, pgn.is_some()),
            )?),
            None => None,
        };
        let mut merged = Vec::with_capacity(games.len());
        let mut end = 0u64;
        for (mut e, record, start) in games {
            if let (Some(f), Some(r)) = (pgn.as_mut(), record) {
                let bytes = usize::try_from(start)
                    .ok()
                    .zip(usize::try_from(e.record_end).ok())
                    .and_then(|(a, b)| records[r].get(a..b))
                    .ok_or_else(|| format!("-merge: game {}'s record is cut short", e.game))?;
                f.write_all(bytes).map_err(|err| format!("record: {err}"))?;
                end += bytes.len() as u64;
            }
            e.record_end = end;
            if let Some(j) = journal.as_mut() {
                j.append(&e)?;
            }
            if let Some(o) = e.outcome() {
                tally(&mut stats, &e, o);
            }
            update_sprt(self.sprt, &stats, &mut sprt_state);
            merged.push(e);
        }
        if let Some(f) = pgn.as_mut() {
            f.flush()
                .and_then(|()| f.sync_data())
                .map_err(|e| format!("record: {e}"))?;
        }
        let _ = writeln!(
            out,
            "Merged {} of {} games from {n} shards",
            merged.len(),
            all.len()
        );
        self.report(out, first_name, &stats, sprt_state);
        if let Some(path) = &self.jsonout {
            write_atomically(path, &self.json(&stats, &merged, sprt_state)?)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn worker(
        &self,
        w: usize,
        queue: &Mutex<VecDeque<Job>>,
        stop: &AtomicBool,
        tx: &mpsc::Sender<(Job, GameRecord, String)>,
        book: &[Opening],
        transcript: Option<Transcript>,
        date: &str,
        live: Option<Arc<LiveLog>>,
    ) {
        let Ok(mut referee) = make_referee(&self.variant) else {
            return;
        };
        let mut players: Vec<Option<Box<dyn Player>>> = self.engines.iter().map(|_| None).collect();
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let job = match queue.lock() {
                Ok(mut q) => q.pop_front(),
                Err(_) => None,
            };
            let Some(job) = job else { break };
            for &s in &job.seats {
                if players[s].is_none() {
                    let label = format!("{}#{}", self.engines[s].name, w + 1);
                    players[s] = Some(make_player(&self.engines[s], label, transcript.clone()));
                }
            }
            let mut job = job;
            let mut opening = self.opening(book, job.pair, referee.as_mut());
            let (a, b) = pick_two(&mut players, job.seats[0], job.seats[1]);
            let (Some(mut a), Some(mut b)) = (a, b) else {
                break;
            };
            // Swap2 decides the opening stones and who plays Black; an
            // engine that fails it loses the game.
            let mut forfeit = None;
            if self.variant.swap2 {
                let turns = [
                    swap2::answer_time(self.tcs[job.seats[0]]),
                    swap2::answer_time(self.tcs[job.seats[1]]),
                ];
                match swap2::negotiate(referee.as_mut(), [a.as_mut(), b.as_mut()], turns) {
                    Ok(o) => {
                        opening = Opening {
                            start: None,
                            moves: o.moves,
                            in_record_notation: false,
                        };
                        if o.black == 1 {
                            job.seats.swap(0, 1);
                            std::mem::swap(&mut a, &mut b);
                        }
                    }
                    Err((k, why)) => {
                        let (loser, winner) = if k == 0 {
                            (Side::First, Side::Second)
                        } else {
                            (Side::Second, Side::First)
                        };
                        let name = &self.engines[job.seats[loser.index()]].name;
                        forfeit = Some(Ending::win(
                            winner,
                            format!("{name} fails the swap2 opening: {why}"),
                        ));
                    }
                }
            }
            let spec = GameSpec {
                opening: opening.clone(),
                tc: [self.tcs[job.seats[0]], self.tcs[job.seats[1]]],
                margin: self.margin,
                adjudication: self.adjudication,
            };
            if let Some(log) = &live {
                log.write(&LiveEvent::Start {
                    game: job.game_no,
                    round: job.round,
                    players: [
                        self.engines[job.seats[0]].name.clone(),
                        self.engines[job.seats[1]].name.clone(),
                    ],
                    start: opening.start.clone(),
                });
            }
            let game_no = job.game_no;
            let mut watch = |ply: usize, m: &crate::record::PlayedMove, left: [Option<u64>; 2]| {
                if let Some(log) = &live {
                    log.write(&LiveEvent::of_move(game_no, ply, m, left));
                }
            };
            let (moves, ending) = match forfeit {
                Some(e) => {
                    a.game_over(Some(matches!(e.outcome, Outcome::Win(Side::First))));
                    b.game_over(Some(matches!(e.outcome, Outcome::Win(Side::Second))));
                    (Vec::new(), e)
                }
                None => game::play_watched(
                    referee.as_mut(),
                    [a.as_mut(), b.as_mut()],
                    &spec,
                    &mut watch,
                ),
            };
            let tc_text = |tc: Option<TimeControl>| tc.map_or("-".to_string(), |t| t.to_string());
            let record = GameRecord {
                players: [
                    self.engines[job.seats[0]].name.clone(),
                    self.engines[job.seats[1]].name.clone(),
                ],
                start: opening.start.clone(),
                moves,
                ending,
                round: job.round,
                game_no: job.game_no,
                event: self.event.clone(),
                date: date.to_string(),
                time_control: tc_text(self.tcs[job.seats[0]]),
            };
            let ext = self
                .pgnout
                .as_deref()
                .and_then(|p| p.rsplit_once('.'))
                .map(|(_, e)| e.to_ascii_lowercase());
            let text = referee.record_as(&record, ext.as_deref().unwrap_or(""));
            if tx.send((job, record, text)).is_err() {
                break;
            }
        }
        for p in players.into_iter().flatten() {
            let mut p = p;
            p.quit();
        }
    }

    /// The `-live` standing: every pair, as the report prints it.
    fn standing(&self, stats: &[EncounterStats], done: usize, total: usize) -> LiveEvent {
        LiveEvent::Standing {
            done,
            total,
            encounters: stats
                .iter()
                .map(|st| {
                    let names = [
                        self.engines[st.engines[0]].name.clone(),
                        self.engines[st.engines[1]].name.clone(),
                    ];
                    LiveEncounter::new(names, &st.wdl)
                })
                .collect(),
        }
    }

    /// The `-jsonout` summary. Field names and values are what consumers
    /// of earlier versions read; serde_json does the quoting.
    fn json(
        &self,
        encounters: &[EncounterStats],
        games: &[Entry],
        sprt: Option<(f64, SprtVerdict)>,
    ) -> Result<String, String> {
        let encounters = encounters
            .iter()
            .map(|st| {
                let e = st.wdl.elo();
                JsonEncounter {
                    engine: &self.engines[st.engines[0]].name,
                    opponent: &self.engines[st.engines[1]].name,
                    games: st.wdl.games(),
                    wins: st.wdl.wins,
                    draws: st.wdl.draws,
                    losses: st.wdl.losses,
                    score: json_num(st.wdl.score()),
                    elo: json_num(e.elo),
                    elo_lower: json_num(e.lower),
                    elo_upper: json_num(e.upper),
                    los: json_num(st.wdl.los()),
                    draw_ratio: json_num(st.wdl.draw_ratio()),
                    pentanomial: st.penta.0,
                }
            })
            .collect();
        let sprt = match (self.sprt, sprt) {
            (Some(sp), Some((llr, v))) => {
                let (lo, hi) = sp.bounds();
                Some(JsonSprt {
                    elo0: json_num(sp.elo0),
                    elo1: json_num(sp.elo1),
                    alpha: json_num(sp.alpha),
                    beta: json_num(sp.beta),
                    model: match sp.model {
                        SprtModel::Trinomial => "trinomial",
                        SprtModel::Pentanomial => "pentanomial",
                    },
                    llr: json_num(llr),
                    lower: json_num(lo),
                    upper: json_num(hi),
                    verdict: match v {
                        SprtVerdict::H0 => "H0",
                        SprtVerdict::H1 => "H1",
                        SprtVerdict::Continue => "continue",
                    },
                })
            }
            _ => None,
        };
        let faults = fault_counts(self.engines.len(), games)
            .into_iter()
            .zip(&self.engines)
            .map(|(n, e)| JsonFaults {
                engine: &e.name,
                total: n.iter().sum(),
                time: n[0],
                crash: n[1],
                protocol: n[2],
                illegal: n[3],
                false_claim: n[4],
                start: n[5],
                swap2: n[6],
            })
            .collect();
        let games = games
            .iter()
            .map(|r| JsonGame {
                game: r.game,
                round: r.round,
                first: &r.players[0],
                second: &r.players[1],
                result: &r.result,
                reason: &r.reason,
                plies: r.plies,
            })
            .collect();
        let summary = JsonSummary {
            event: &self.event,
            game: self.variant.kind.name(),
            engines: self.engines.iter().map(|e| e.name.as_str()).collect(),
            protocols: self.engines.iter().map(|e| e.proto.name()).collect(),
            encounters,
            sprt,
            faults,
            games,
        };
        // Plain data with string keys cannot fail to serialise; were it
        // to, the run reports it like a file it cannot write.
        let mut text =
            serde_json::to_string_pretty(&summary).map_err(|e| format!("summary: {e}"))?;
        text.push('\n');
        Ok(text)
    }
}

/// The `-jsonout` file, as written.
#[derive(Serialize)]
struct JsonSummary<'a> {
    event: &'a str,
    game: &'static str,
    engines: Vec<&'a str>,
    protocols: Vec<&'static str>,
    encounters: Vec<JsonEncounter<'a>>,
    /// `null` without an SPRT.
    sprt: Option<JsonSprt>,
    /// Per engine, in `engines` order: the games it lost by a fault.
    faults: Vec<JsonFaults<'a>>,
    games: Vec<JsonGame<'a>>,
}

/// One engine's faults, by kind (`record::FaultKind`).
#[derive(Serialize)]
struct JsonFaults<'a> {
    engine: &'a str,
    total: u32,
    time: u32,
    crash: u32,
    protocol: u32,
    illegal: u32,
    false_claim: u32,
    start: u32,
    swap2: u32,
}

/// Per engine index, the games it lost by each kind of fault (in
/// `FaultKind::ALL` order), read from the games' reasons.
fn fault_counts(engines: usize, games: &[Entry]) -> Vec<[u32; 7]> {
    let mut counts = vec![[0u32; 7]; engines];
    for g in games {
        let (Some(kind), Some(Outcome::Win(winner))) =
            (FaultKind::of_reason(&g.reason), g.outcome())
        else {
            continue;
        };
        let loser = g.seats[winner.other().index()];
        let k = FaultKind::ALL.iter().position(|&f| f == kind).unwrap_or(0);
        if let Some(c) = counts.get_mut(loser) {
            c[k] += 1;
        }
    }
    counts
}

/// One pair of engines, from the view of the first.
#[derive(Serialize)]
struct JsonEncounter<'a> {
    engine: &'a str,
    opponent: &'a str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_lower: Option<f64>,
    elo_upper: Option<f64>,
    los: Option<f64>,
    draw_ratio: Option<f64>,
    pentanomial: [u32; 5],
}

#[derive(Serialize)]
struct JsonSprt {
    elo0: Option<f64>,
    elo1: Option<f64>,
    alpha: Option<f64>,
    beta: Option<f64>,
    model: &'static str,
    llr: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
    verdict: &'static str,
}

#[derive(Serialize)]
struct JsonGame<'a> {
    game: u32,
    round: u32,
    first: &'a str,
    second: &'a str,
    result: &'a str,
    reason: &'a str,
    plies: usize,
}

fn elo_block(st: &EncounterStats, sprt: Option<Sprt>) -> String {
    let e = st.wdl.elo();
    let margin = if e.margin().is_finite() {
        format!("{:.1}", e.margin())
    } else {
        "inf".into()
    };
    let mut s = format!(
        "Elo difference: {:.1} +/- {margin}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
        e.elo + 0.0,
        st.wdl.los() * 100.0,
        st.wdl.draw_ratio() * 100.0
    );
    if st.penta.pairs() > 0 {
        let p = st.penta.0;
        let _ = write!(
            s,
            "Ptnml(0-2): {}, {}, {}, {}, {}",
            p[0], p[1], p[2], p[3], p[4]
        );
        if let Some(pe) = st.penta.elo() {
            let m = if pe.margin().is_finite() {
                format!("{:.1}", pe.margin())
            } else {
                "inf".into()
            };
            let _ = write!(s, ", pair Elo {:.1} +/- {m}", pe.elo + 0.0);
        }
        if let Some(sp) = sprt {
            let _ = write!(s, ", pentanomial LLR {:.2}", st.penta.llr(sp.elo0, sp.elo1));
        }
        s.push('\n');
    }
    s
}

type Seat<'a> = Option<&'a mut Box<dyn Player>>;

/// Two distinct players out of the list, mutably.
fn pick_two(v: &mut [Option<Box<dyn Player>>], a: usize, b: usize) -> (Seat<'_>, Seat<'_>) {
    if a == b || a >= v.len() || b >= v.len() {
        return (None, None);
    }
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (lo[a].as_mut(), hi[0].as_mut())
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (hi[0].as_mut(), lo[b].as_mut())
    }
}

/// JSON has no infinities: they (and NaN) become null. Six decimals are
/// plenty for Elo and probabilities, and keep the file readable; adding
/// zero turns a rounded -0 into 0.
fn json_num(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 1e6).round() / 1e6 + 0.0)
}

/// Today's date as PGN wants it (YYYY.MM.DD), from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_engines(games: u32, rounds: u32) -> Tournament {
        Tournament {
            engines: vec![
                EngineConfig::new("a", "a", tengen_games::Protocol::Uci),
                EngineConfig::new("b", "b", tengen_games::Protocol::Uci),
                EngineConfig::new("c", "c", tengen_games::Protocol::Uci),
            ],
            tcs: vec![None; 3],
            variant: Variant::default(),
            mode: Mode::RoundRobin,
            games,
            rounds,
            openings: OpeningSpec::default(),
            seed: 1,
            concurrency: 1,
            sprt: None,
            adjudication: Adjudication::default(),
            margin: Duration::ZERO,
            pgnout: None,
            jsonout: None,
            resume: false,
            shard: None,
            merge: Vec::new(),
            transcript: None,
            event: "t".into(),
            rating_interval: 0,
            noswap: false,
            live: None,
        }
    }

    #[test]
    fn schedule_pairs_swap_colours() {
        let t = two_engines(2, 2);
        let jobs = t.schedule();
        assert_eq!(jobs.len(), 3 * 4);
        let ab: Vec<&Job> = jobs.iter().filter(|j| j.encounter == 0).collect();
        assert_eq!(ab[0].seats, [0, 1]);
        assert_eq!(ab[1].seats, [1, 0]);
        assert_eq!(ab[0].pair, ab[1].pair);
        assert_ne!(ab[1].pair, ab[2].pair);
        let mut g = t.clone();
        g.mode = Mode::Gauntlet;
        assert!(g.schedule().iter().all(|j| j.seats.contains(&0)));
        // -noswap: the first engine of each encounter always moves first,
        // and games still come in pairs sharing an opening.
        let mut n = t.clone();
        n.noswap = true;
        let kept = n.schedule();
        assert_eq!(kept.len(), jobs.len());
        for j in &kept {
            assert_eq!(j.seats, t.encounters()[j.encounter]);
        }
        assert_eq!(kept[0].pair, kept[1].pair);
        assert_ne!(n.identity(), t.identity());
    }

    #[test]
    fn shards_split_the_game_list_into_whole_pairs() {
        // Odd games per encounter: pairs straddle rounds.
        for (games, rounds, n) in [(2, 5, 4), (3, 3, 2), (1, 7, 3), (4, 1, 8)] {
            let t = two_engines(games, rounds);
            let all = t.schedule();
            let part = Tournament::shard_of(&all, n);
            let mut count = vec![0; n as usize + 1];
            for j in &all {
                let s = part[&(j.encounter, j.pair)];
                assert!((1..=n).contains(&s));
                count[s as usize] += 1;
            }
            // Every game in exactly one shard, and the shards within a
            // pair (two games) of each other in size.
            assert_eq!(count.iter().sum::<usize>(), all.len());
            let (lo, hi) = (count[1..].iter().min(), count[1..].iter().max());
            assert!(hi.unwrap() - lo.unwrap() <= 2, "{count:?}");
        }
    }

    #[test]
    fn pentanomial_from_pairs() {
        let mut st = EncounterStats::default();
        st.add(0, 2);
        st.add(1, 1);
        st.add(0, 1);
        st.add(1, 0);
        assert_eq!(st.penta.0, [0, 1, 0, 1, 0]);
        assert_eq!(
            st.wdl,
            Wdl {
                wins: 1,
                draws: 2,
                losses: 1
            }
        );
    }

    #[test]
    fn dates() {
        let d = today();
        let b = d.as_bytes();
        assert_eq!((d.len(), b[4], b[7]), (10, b'.', b'.'), "{d}");
        assert!(d[..4].parse::<u32>().unwrap() >= 2024, "{d}");
    }

    /// What `-jsonout` writes, read back with serde_json: every figure is
    /// the statistics module's own, rounded to six decimals, infinities are
    /// null, and awkward text survives the quoting.
    #[test]
    fn json_summary_reads_back() {
        let mut t = two_engines(2, 1);
        t.event = "quote \" and \\ and\nnewline".into();
        t.engines[1].proto = tengen_games::Protocol::Gtp;
        t.sprt = Some(Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
            model: SprtModel::Pentanomial,
        });
        let mut ab = EncounterStats {
            engines: [0, 1],
            ..Default::default()
        };
        for (pair, points2) in [(0, 2), (0, 1), (1, 2), (1, 2), (2, 0)] {
            ab.add(pair, points2);
        }
        // a beat c every time: an infinite Elo, written as null.
        let mut ac = EncounterStats {
            engines: [0, 2],
            ..Default::default()
        };
        ac.add(0, 2);
        let game = Entry {
            game: 7,
            round: 1,
            encounter: 0,
            pair: 3,
            seats: [0, 1],
            players: ["a".into(), "b".into()],
            result: result_text(Outcome::Win(Side::Second)).into(),
            reason: "White's flag \"fell\"".into(),
            plies: 0,
            record_end: 0,
        };
        // c, second, loses on time to a: one time fault for c.
        let flag = Entry {
            game: 8,
            seats: [0, 2],
            players: ["a".into(), "c".into()],
            result: result_text(Outcome::Win(Side::First)).into(),
            reason: "Black loses on time".into(),
            ..game.clone()
        };
        let (encounters, games) = (vec![ab, ac], vec![game, flag]);
        let json = |t: &Tournament| {
            t.json(&encounters, &games, Some((-1.25, SprtVerdict::Continue)))
                .unwrap()
        };
        let text = json(&t);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["event"], t.event.as_str());
        assert_eq!(v["game"], "chess");
        assert_eq!(v["engines"], serde_json::json!(["a", "b", "c"]));
        assert_eq!(v["protocols"], serde_json::json!(["uci", "gtp", "uci"]));
        let st = &encounters[0];
        let e = &v["encounters"][0];
        let elo = st.wdl.elo();
        // A figure the statistics make infinite must be null.
        let close = |j: &serde_json::Value, x: f64| {
            if !x.is_finite() {
                assert!(j.is_null(), "{j} against {x}");
                return;
            }
            let got = j.as_f64().unwrap_or(f64::NAN);
            assert!((got - x).abs() < 1e-6, "{j} against {x}");
        };
        assert_eq!(
            (e["engine"].as_str(), e["opponent"].as_str()),
            (Some("a"), Some("b"))
        );
        assert_eq!(e["games"], 5);
        assert_eq!(
            (&e["wins"], &e["draws"], &e["losses"]),
            (&3.into(), &1.into(), &1.into())
        );
        close(&e["score"], st.wdl.score());
        close(&e["score"], 0.7);
        assert!(elo.elo.is_finite() && elo.lower.is_finite());
        close(&e["elo"], elo.elo);
        close(&e["elo_lower"], elo.lower);
        close(&e["elo_upper"], elo.upper);
        close(&e["los"], st.wdl.los());
        close(&e["draw_ratio"], 0.2);
        assert_eq!(e["pentanomial"], serde_json::json!(st.penta.0));
        assert_eq!(e["pentanomial"], serde_json::json!([0, 0, 0, 1, 1]));
        let e = &v["encounters"][1];
        assert!(e["elo"].is_null() && e["elo_upper"].is_null(), "{e}");
        close(&e["score"], 1.0);
        let s = &v["sprt"];
        let (lo, hi) = t.sprt.unwrap().bounds();
        close(&s["llr"], -1.25);
        close(&s["lower"], lo);
        close(&s["upper"], hi);
        close(&s["beta"], 0.1);
        assert_eq!(
            (s["model"].as_str(), s["verdict"].as_str()),
            (Some("pentanomial"), Some("continue"))
        );
        let g = &v["games"][0];
        assert_eq!(
            (g["game"].as_u64(), g["round"].as_u64(), g["plies"].as_u64()),
            (Some(7), Some(1), Some(0))
        );
        assert_eq!(
            (g["first"].as_str(), g["second"].as_str()),
            (Some("a"), Some("b"))
        );
        assert_eq!(g["result"], "0-1");
        assert_eq!(g["reason"], "White's flag \"fell\"");
        // Faults per engine, in engine order; the first game's reason is
        // no fault the arena writes.
        let f = &v["faults"];
        assert_eq!(f.as_array().map(Vec::len), Some(3));
        assert_eq!(
            (f[0]["engine"].as_str(), &f[0]["total"]),
            (Some("a"), &0.into())
        );
        assert_eq!(
            (f[1]["engine"].as_str(), &f[1]["total"]),
            (Some("b"), &0.into())
        );
        assert_eq!(
            (f[2]["time"].as_u64(), f[2]["total"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(f[2]["crash"], 0);
        // Without an SPRT the field is there, as null.
        t.sprt = None;
        let v: serde_json::Value = serde_json::from_str(&json(&t)).unwrap();
        assert!(v.get("sprt").is_some_and(serde_json::Value::is_null));
    }
}
