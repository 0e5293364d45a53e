//! Relabelling chess and shogi training records with another engine's
//! search (UCI for chess, USI for shogi).
//!
//! `tengen datagen` labels each position with tengen's own search at a few
//! thousand nodes. A stronger engine's score of the same quiet positions is
//! a better target for the network to learn (the shogi network was first
//! fitted on Fairy-Stockfish's scores the same way). This module asks a UCI
//! engine (`position fen …`, `go nodes N`) for each record and writes the
//! record again with the engine's score; the game result stays.
//!
//! Resumable: each input shard becomes one output shard, written to a
//! temporary name (`.tmp`) and renamed when complete. A run that is killed
//! leaves the shards it was working on as `.tmp` files of whole records
//! and perhaps a cut one; the next run keeps their whole records and goes
//! on from the input record after the last one kept, so nothing scored is
//! scored twice. A run given a time budget (`Settings::seconds`) instead
//! finishes cleanly when it runs out: each shard being worked on is
//! written out with the records scored so far, as if it were complete, so
//! that a machine lent for a fixed time leaves only usable shards (one it
//! scored nothing of stays as it was, for a later run).

use std::fs;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use tengen_nnue::data::{self, Layout, Sample};

/// What an engine's last `info … score` said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// The score of one `info` line, if it has one (`score cp X` or `score
/// mate M`; a `lowerbound`/`upperbound` qualifier is read as the bound's
/// value).
pub fn info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(Score::Cp(value)),
                "mate" => Some(Score::Mate(value)),
                _ => None,
            };
        }
    }
    None
}

/// A running UCI or USI engine, one position at a time.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    nodes: u64,
    usi: bool,
}

impl Engine {
    /// Starts `cmd` (with `args`), does the UCI handshake (USI if `usi`)
    /// and sets `options` (`Name=Value`).
    pub fn start(
        cmd: &Path,
        args: &[String],
        options: &[String],
        nodes: u64,
        usi: bool,
    ) -> io::Result<Engine> {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let output = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| io::Error::other("no stdout"))?,
        );
        let mut e = Engine {
            child,
            input,
            output,
            nodes,
            usi,
        };
        let (hello, ok, new_game) = if usi {
            ("usi", "usiok", "usinewgame")
        } else {
            ("uci", "uciok", "ucinewgame")
        };
        e.send(hello)?;
        e.wait_for(ok)?;
        for o in options {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| io::Error::other(format!("option '{o}' is not Name=Value")))?;
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.send("isready")?;
        e.wait_for("readyok")?;
        e.send(new_game)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    fn read_line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.output.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the engine closed its output",
            ));
        }
        Ok(line)
    }

    fn wait_for(&mut self, word: &str) -> io::Result<()> {
        loop {
            if self.read_line()?.trim() == word {
                return Ok(());
            }
        }
    }

    /// The engine's score of `fen` (an SFEN under USI; side to move's
    /// view) after `go nodes`.
    pub fn score(&mut self, fen: &str) -> io::Result<Option<Score>> {
        Ok(self.search(fen, &[])?.1)
    }

    /// The engine's `bestmove` word as it wrote it (a move, or `(none)`,
    /// `0000`, `resign`, USI's `win`; `None` if the line is bare) and its
    /// last score after `go nodes`, from
    /// `fen` (an SFEN under USI) and then `moves`, so that the engine
    /// sees the game's history.
    pub fn search(
        &mut self,
        fen: &str,
        moves: &[String],
    ) -> io::Result<(Option<String>, Option<Score>)> {
        let kind = if self.usi { "sfen" } else { "fen" };
        if moves.is_empty() {
            self.send(&format!("position {kind} {fen}"))?;
        } else {
            self.send(&format!("position {kind} {fen} moves {}", moves.join(" ")))?;
        }
        self.send(&format!("go nodes {}", self.nodes))?;
        let mut last = None;
        loop {
            let line = self.read_line()?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                let best = rest.split_whitespace().next().map(str::to_string);
                return Ok((best, last));
            }
            if let Some(s) = info_score(&line) {
                last = Some(s);
            }
        }
    }

    /// Starts a new game (`ucinewgame`/`usinewgame`) and waits until the
    /// engine is ready, so that each game starts from an empty table.
    pub fn new_game(&mut self) -> io::Result<()> {
        self.send(if self.usi { "usinewgame" } else { "ucinewgame" })?;
        self.send("isready")?;
        self.wait_for("readyok")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// What to do with the engine's scores.
#[derive(Clone, Debug)]
pub struct Settings {
    pub engine: PathBuf,
    pub args: Vec<String>,
    pub options: Vec<String>,
    pub nodes: u64,
    /// The engine speaks USI (shogi shards) instead of UCI (chess and
    /// xiangqi shards).
    pub usi: bool,
    /// The engine's centipawns are multiplied by this before they are
    /// stored (to bring another engine's scale to tengen's).
    pub scale: f64,
    /// Records whose new score is beyond this (after scaling) are left out,
    /// as are mate scores: datagen leaves mates out too.
    pub max_score: i32,
    /// Stop after this many seconds, writing each shard being worked on
    /// with the records scored so far (a shard cut short is not resumed).
    pub seconds: Option<f64>,
}

/// The new score of a record, or `None` if the record is to be left out.
pub fn new_score(s: Option<Score>, settings: &Settings) -> Option<i16> {
    match s? {
        Score::Mate(_) => None,
        Score::Cp(cp) => {
            let v = (cp as f64 * settings.scale).round() as i64;
            (v.abs() <= settings.max_score as i64).then_some(v as i16)
        }
    }
}

/// Counts of one shard's relabelling, or of a run: the records scored in
/// this run (read) and written by it (records kept from an earlier run's
/// `.tmp` file are in neither).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub read: usize,
    pub written: usize,
}

/// Progress is logged every this many records of a shard.
const PROGRESS_EVERY: usize = 10_000;

/// The records of an earlier run's `.tmp` file that can be kept, and the
/// index of the input record to go on from: the kept records must be, in
/// order, input records with only their scores changed. `None` when the
/// file is no such thing (another input's, or unreadable): start afresh.
fn resume_point(layout: Layout, samples: &[Sample], tmp: &Path) -> Option<(usize, usize)> {
    let (tmp_layout, kept) = data::read_shard(&mut fs::File::open(tmp).ok()?).ok()?;
    if tmp_layout != layout {
        return None;
    }
    let mut next = 0;
    for k in &kept {
        let offset = samples.get(next..)?.iter().position(|s| {
            Sample {
                score: k.score,
                ..s.clone()
            } == *k
        })?;
        next += offset + 1;
    }
    Some((kept.len(), next))
}

/// Opens the `.tmp` file of `output` for writing: appending after the
/// whole records an earlier run left (a cut last record is dropped), or
/// afresh. Returns the writer and the input record to start at.
fn open_tmp(layout: Layout, samples: &[Sample], tmp: &Path) -> io::Result<(fs::File, usize)> {
    if tmp.exists() {
        if let Some((kept, next)) = resume_point(layout, samples, tmp) {
            let mut f = fs::OpenOptions::new().write(true).open(tmp)?;
            f.set_len((data::HEADER_SIZE + kept * layout.record_size()) as u64)?;
            f.seek(io::SeekFrom::End(0))?;
            eprintln!(
                "tengen-relabel: {}: resuming after {kept} kept record(s), at input record {next} of {}",
                tmp.display(),
                samples.len()
            );
            return Ok((f, next));
        }
        eprintln!(
            "tengen-relabel: {}: not a partial relabelling of its input, starting it afresh",
            tmp.display()
        );
    }
    let mut f = fs::File::create(tmp)?;
    data::write_header(&mut f, layout)?;
    Ok((f, 0))
}

/// The position of a record as the engine's protocol writes it, or `None`
/// if the record is no legal position.
fn position_of(layout: Layout, s: &Sample) -> Option<String> {
    match layout {
        Layout::Chess => tengen_chess::nnue::board_of(s).map(|b| b.to_fen(false)),
        Layout::Shogi => {
            let sfen = data::shogi_sfen(s)?;
            tengen_shogi::Board::from_sfen(&sfen).ok().map(|_| sfen)
        }
        Layout::Xiangqi => tengen_xiangqi::nnue::board_of(s).map(|b| b.fen()),
    }
}

/// Relabels one shard from `input` into `output` (written as
/// `output.tmp`, then renamed). [`run`] has checked that the shard is of
/// the engine's game. Past the `deadline`, the shard is written out as it
/// stands if this call scored any of it; `None` if it scored none (out of
/// time at once: the shard is left untouched, or as the `.tmp` it was,
/// for a later run).
fn relabel_shard(
    engine: &mut Engine,
    input: &Path,
    output: &Path,
    settings: &Settings,
    deadline: Option<Instant>,
) -> io::Result<Option<Counts>> {
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    if out_of_time() {
        return Ok(None);
    }
    let (layout, samples) = data::read_shard(&mut fs::File::open(input)?)?;
    let tmp = output.with_extension("tmp");
    let (file, start) = open_tmp(layout, &samples, &tmp)?;
    let mut w = BufWriter::new(file);
    let mut counts = Counts::default();
    for (i, s) in samples.iter().enumerate().skip(start) {
        if out_of_time() {
            if counts.read == 0 {
                return Ok(None);
            }
            eprintln!(
                "tengen-relabel: {}: out of time at input record {i} of {}; the shard is written as it stands",
                input.display(),
                samples.len()
            );
            break;
        }
        if i > start && i % PROGRESS_EVERY == 0 {
            eprintln!(
                "tengen-relabel: {}: {i} of {} records",
                input.display(),
                samples.len()
            );
        }
        counts.read += 1;
        let Some(position) = position_of(layout, s) else {
            continue;
        };
        let Some(score) = new_score(engine.score(&position)?, settings) else {
            continue;
        };
        let relabelled = Sample { score, ..s.clone() };
        let bytes = data::pack(layout, &relabelled).map_err(|e| io::Error::other(e.to_string()))?;
        w.write_all(&bytes)?;
        counts.written += 1;
    }
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    fs::rename(&tmp, output)?;
    Ok(Some(counts))
}

/// The output name of an input shard: its directory's name and its own, so
/// that `s1/chess-0.bin` and `s2/chess-0.bin` do not collide.
pub fn output_name(input: &Path) -> String {
    let dir = input
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = input
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if dir.is_empty() {
        file
    } else {
        format!("{dir}-{file}")
    }
}

/// Relabels every shard of `inputs` (files, or directories of `*.bin`)
/// into `out` on `threads` engines; shards already in `out` are skipped.
/// Progress goes to standard error.
pub fn run(
    inputs: &[PathBuf],
    out: &Path,
    threads: usize,
    settings: &Settings,
) -> Result<Counts, String> {
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let shards = crate::shard_files(inputs)?;
    // Every shard must be of the engine's game, checked before any engine
    // starts (an engine asked in the wrong protocol may never answer).
    // Chess and xiangqi go to a UCI engine (Fairy-Stockfish plays xiangqi
    // under UCI with `UCI_Variant=xiangqi`), shogi to a USI one.
    let mut wanted: Option<Layout> = None;
    for s in &shards {
        let mut h = [0u8; data::HEADER_SIZE];
        fs::File::open(s)
            .and_then(|mut f| io::Read::read_exact(&mut f, &mut h))
            .map_err(|e| format!("{}: {e}", s.display()))?;
        let layout = data::read_header(&h).map_err(|e| format!("{}: {e}", s.display()))?;
        if (layout == Layout::Shogi) != settings.usi {
            return Err(format!(
                "{}: {} data, but the engine speaks {} ({} only)",
                s.display(),
                layout.name(),
                if settings.usi { "USI" } else { "UCI" },
                if settings.usi {
                    "shogi"
                } else {
                    "chess and xiangqi"
                }
            ));
        }
        match wanted {
            Some(w) if w != layout => {
                return Err(format!(
                    "{}: {} data among {} shards (one game a run)",
                    s.display(),
                    layout.name(),
                    w.name()
                ))
            }
            _ => wanted = Some(layout),
        }
    }
    let todo: Vec<(PathBuf, PathBuf)> = shards
        .into_iter()
        .map(|s| {
            let o = out.join(output_name(&s));
            (s, o)
        })
        .filter(|(_, o)| !o.exists())
        .collect();
    eprintln!("tengen-relabel: {} shard(s) to relabel", todo.len());
    let queue = Mutex::new(todo.into_iter());
    let total = Mutex::new(Counts::default());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    let deadline = settings
        .seconds
        .map(|secs| started + std::time::Duration::from_secs_f64(secs.max(0.0)));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = match Engine::start(&settings.engine, &settings.args, &settings.options, settings.nodes, settings.usi) {
                    Ok(e) => e,
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                            Some(format!("{}: {e}", settings.engine.display()));
                        return;
                    }
                };
                loop {
                    let next = queue.lock().unwrap_or_else(|p| p.into_inner()).next();
                    let Some((input, output)) = next else { break };
                    match relabel_shard(&mut engine, &input, &output, settings, deadline) {
                        // Out of time: no new shard.
                        Ok(None) => break,
                        Ok(Some(c)) => {
                            let mut t = total.lock().unwrap_or_else(|p| p.into_inner());
                            t.read += c.read;
                            t.written += c.written;
                            let secs = started.elapsed().as_secs_f64();
                            eprintln!(
                                "tengen-relabel: {} -> {} ({} of {} kept); {} positions in {:.0} s, {:.0}/s",
                                input.display(),
                                output.display(),
                                c.written,
                                c.read,
                                t.read,
                                secs,
                                t.read as f64 / secs.max(1e-9)
                            );
                        }
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                                Some(format!("{}: {e}", input.display()));
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(f) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(f);
    }
    Ok(total.into_inner().unwrap_or_else(|p| p.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_from_info_lines() {
        assert_eq!(
            info_score("info depth 7 seldepth 9 multipv 1 score cp 31 nodes 1003 pv e2e4"),
            Some(Score::Cp(31))
        );
        assert_eq!(
            info_score("info depth 3 score cp -12 lowerbound nodes 50"),
            Some(Score::Cp(-12))
        );
        assert_eq!(
            info_score("info depth 9 score mate -3 pv a1a2"),
            Some(Score::Mate(-3))
        );
        assert_eq!(info_score("info string NNUE evaluation enabled"), None);
        assert_eq!(info_score("info depth 1 score wdl 1 2 3"), None);
        assert_eq!(info_score("bestmove e2e4 score cp 5"), None);
        assert_eq!(info_score("info score cp"), None);
    }

    fn settings(scale: f64) -> Settings {
        Settings {
            engine: PathBuf::new(),
            args: Vec::new(),
            options: Vec::new(),
            nodes: 1,
            usi: false,
            scale,
            max_score: 3000,
            seconds: None,
        }
    }

    #[test]
    fn mates_and_huge_scores_are_left_out_and_scale_applies() {
        let s = settings(0.5);
        assert_eq!(new_score(Some(Score::Cp(101)), &s), Some(51));
        assert_eq!(new_score(Some(Score::Cp(-100)), &s), Some(-50));
        assert_eq!(new_score(Some(Score::Cp(6000)), &s), Some(3000));
        assert_eq!(new_score(Some(Score::Cp(6002)), &s), None);
        assert_eq!(new_score(Some(Score::Mate(2)), &s), None);
        assert_eq!(new_score(None, &s), None);
    }

    #[test]
    fn output_names_keep_the_directory() {
        assert_eq!(
            output_name(Path::new("nnue-data/chess-n5000-s2/chess-3.bin")),
            "chess-n5000-s2-chess-3.bin"
        );
        assert_eq!(output_name(Path::new("chess-3.bin")), "chess-3.bin");
    }

    /// A fake engine (a shell script speaking just enough UCI or USI)
    /// scores every position by the letters of its placement field; three
    /// letters get a mate score instead.
    fn fake_engine(dir: &Path, usi: bool) -> PathBuf {
        let script = dir.join("engine.sh");
        let (hello, ok) = if usi {
            ("usi", "usiok")
        } else {
            ("uci", "uciok")
        };
        fs::write(
            &script,
            format!(
                "#!/bin/sh\nwhile read -r cmd a b rest; do case \"$cmd\" in\n\
                 {hello}) echo 'id name fake'; echo {ok};;\n\
                 isready) echo readyok;;\n\
                 position) n=$(printf '%s' \"$b\" | tr -cd 'a-zA-Z' | wc -c);;\n\
                 go) if [ \"$n\" -eq 3 ]; then echo 'info depth 1 score mate 1'; else echo \"info depth 1 score cp $((n * 10))\"; fi; echo 'bestmove 0000';;\n\
                 quit) exit 0;;\n\
                 esac; done\n"
            ),
        )
        .unwrap();
        script
    }

    fn fake_settings(script: &Path, usi: bool) -> Settings {
        Settings {
            engine: PathBuf::from("sh"),
            args: vec![script.to_string_lossy().into_owned()],
            options: vec!["Hash=1".into()],
            nodes: 10,
            usi,
            scale: 1.0,
            max_score: 3000,
            seconds: None,
        }
    }

    /// A record with score 7, a draw, no move.
    fn sample(pieces: Vec<(u8, u8)>, black_to_move: bool) -> Sample {
        Sample {
            pieces,
            black_to_move,
            score: 7,
            result: data::Wdl::Draw,
            halfmove: 0,
            fullmove: 0,
            best: 0,
        }
    }

    fn chess_sample(fen: &str) -> Sample {
        let b = tengen_chess::Board::from_fen(fen).unwrap();
        let mut pieces = Vec::new();
        tengen_chess::nnue::pieces(&b, &mut pieces);
        sample(pieces, fen.contains(" b "))
    }

    fn xiangqi_sample(fen: &str) -> Sample {
        let b = tengen_xiangqi::Board::from_fen(fen).unwrap();
        let mut pieces = Vec::new();
        tengen_xiangqi::nnue::pieces(&b, &mut pieces);
        sample(pieces, fen.contains(" b "))
    }

    /// Black to move in every test SFEN.
    fn shogi_sample(sfen: &str) -> Sample {
        let b = tengen_shogi::Board::from_sfen(sfen).unwrap();
        let mut pieces = Vec::new();
        tengen_shogi::nnue::pieces(&b, &mut pieces);
        sample(pieces, false)
    }

    /// An empty working directory with an `in` folder for shards.
    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("in")).unwrap();
        dir
    }

    /// A shard's bytes: the header, then each record.
    fn shard_bytes(layout: Layout, samples: &[Sample]) -> Vec<u8> {
        let mut shard = Vec::new();
        data::write_header(&mut shard, layout).unwrap();
        for s in samples {
            shard.extend(data::pack(layout, s).unwrap());
        }
        shard
    }

    fn write_shard(path: &Path, layout: Layout, samples: &[Sample]) {
        fs::write(path, shard_bytes(layout, samples)).unwrap();
    }

    fn read_out(path: &Path) -> (Layout, Vec<Sample>) {
        data::read_shard(&mut fs::File::open(path).unwrap()).unwrap()
    }

    /// The relabelled chess shard holds the same positions with the fake
    /// engine's scores (the mate left out), and a second run skips it.
    #[test]
    fn relabels_a_shard_through_a_uci_engine() {
        let dir = fresh_dir("tengen-relabel");
        let script = fake_engine(&dir, false);
        let fens = [
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
            "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| chess_sample(f)).collect();
        write_shard(&dir.join("in/chess-0.bin"), Layout::Chess, &samples);
        let settings = fake_settings(&script, false);
        let counts = run(&[dir.join("in")], &dir.join("out"), 2, &settings).unwrap();
        assert_eq!(
            counts,
            Counts {
                read: 3,
                written: 2
            }
        );
        let (layout, got) = read_out(&dir.join("out/in-chess-0.bin"));
        assert_eq!(layout, Layout::Chess);
        assert_eq!(
            got,
            vec![
                Sample {
                    score: 40,
                    ..samples[0].clone()
                },
                Sample {
                    score: 320,
                    ..samples[1].clone()
                }
            ]
        );
        // Done shards are skipped.
        let again = run(&[dir.join("in")], &dir.join("out"), 1, &settings).unwrap();
        assert_eq!(again, Counts::default());
        // A USI engine refuses chess shards, and writes nothing.
        let usi = fake_settings(&script, true);
        let err = run(&[dir.join("in")], &dir.join("out-usi"), 1, &usi).unwrap_err();
        assert!(err.contains("chess data"), "{err}");
        assert!(!dir.join("out-usi/in-chess-0.bin").exists());
        let _ = fs::remove_dir_all(&dir);
    }

    /// A `.tmp` file left by a killed run is continued: its whole records
    /// are kept as they are (not scored again), a cut last record is
    /// dropped, and scoring goes on after the last kept input record.
    #[test]
    fn a_killed_runs_partial_shard_is_continued() {
        let dir = fresh_dir("tengen-relabel-resume");
        let script = fake_engine(&dir, false);
        let fens = [
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
            "4k3/8/8/8/8/8/P7/R3K2R w - - 0 1",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| chess_sample(f)).collect();
        write_shard(&dir.join("in/chess-0.bin"), Layout::Chess, &samples);
        fs::create_dir_all(dir.join("out")).unwrap();
        // The killed run scored records 0 (999, a score the fake engine
        // never gives) and 1 (a mate, left out) and was cut while writing
        // record 2.
        let first = Sample {
            score: 999,
            ..samples[0].clone()
        };
        let mut tmp = shard_bytes(Layout::Chess, std::slice::from_ref(&first));
        tmp.extend(&data::pack(Layout::Chess, &samples[2]).unwrap()[..10]);
        fs::write(dir.join("out/in-chess-0.tmp"), &tmp).unwrap();
        let settings = fake_settings(&script, false);
        let counts = run(&[dir.join("in")], &dir.join("out"), 1, &settings).unwrap();
        // Records 1 to 3 were scored in this run; 2 and 3 written.
        assert_eq!(
            counts,
            Counts {
                read: 3,
                written: 2
            }
        );
        let (_, got) = read_out(&dir.join("out/in-chess-0.bin"));
        let expected = vec![
            first,
            Sample {
                score: 320,
                ..samples[2].clone()
            },
            Sample {
                score: 50,
                ..samples[3].clone()
            },
        ];
        assert_eq!(got, expected);
        assert!(!dir.join("out/in-chess-0.tmp").exists());
        // A `.tmp` that is not this input's (a record the input lacks)
        // is started afresh.
        let stranger = chess_sample("8/8/8/8/8/8/8/K6k w - - 0 1");
        fs::create_dir_all(dir.join("out2")).unwrap();
        write_shard(&dir.join("out2/in-chess-0.tmp"), Layout::Chess, &[stranger]);
        run(&[dir.join("in")], &dir.join("out2"), 1, &settings).unwrap();
        let (_, got) = read_out(&dir.join("out2/in-chess-0.bin"));
        assert_eq!(
            got,
            vec![
                Sample {
                    score: 40,
                    ..samples[0].clone()
                },
                expected[1].clone(),
                expected[2].clone()
            ]
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// Out of time, a shard is written with the records scored so far and
    /// counts as done; a run whose budget is spent takes no new shard, and
    /// a `.tmp` it reaches with no time left stays as it was.
    #[test]
    fn out_of_time_a_shard_is_written_as_it_stands() {
        let dir = fresh_dir("tengen-relabel-deadline");
        let script = fake_engine(&dir, false);
        let fens = [
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "4k3/8/8/8/8/8/P7/R3K2R w - - 0 1",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| chess_sample(f)).collect();
        write_shard(&dir.join("in/chess-0.bin"), Layout::Chess, &samples);
        write_shard(&dir.join("in/chess-1.bin"), Layout::Chess, &samples);
        let mut settings = fake_settings(&script, false);
        settings.seconds = Some(0.0);
        let counts = run(&[dir.join("in")], &dir.join("out"), 1, &settings).unwrap();
        assert_eq!(counts, Counts::default());
        assert!(!dir.join("out/in-chess-0.bin").exists());
        assert!(!dir.join("out/in-chess-0.tmp").exists());
        // With no time left a killed run's `.tmp` is left for later.
        let tmp = shard_bytes(Layout::Chess, &samples[..1]);
        fs::write(dir.join("out/in-chess-0.tmp"), &tmp).unwrap();
        settings.seconds = None;
        let mut engine = Engine::start(
            &settings.engine,
            &settings.args,
            &settings.options,
            settings.nodes,
            false,
        )
        .unwrap();
        let (input, output) = (dir.join("in/chess-0.bin"), dir.join("out/in-chess-0.bin"));
        let past = Some(Instant::now());
        let got = relabel_shard(&mut engine, &input, &output, &settings, past).unwrap();
        assert_eq!(got, None);
        assert_eq!(fs::read(dir.join("out/in-chess-0.tmp")).unwrap(), tmp);
        // A shard whose deadline passes after its first record (an
        // engine that takes 2 s a position, a deadline 1 s away: wide
        // margins, so that a loaded machine cannot turn the outcome).
        let slow = dir.join("slow.sh");
        let text = fs::read_to_string(&script).unwrap();
        fs::write(&slow, text.replace("go) ", "go) sleep 2; ")).unwrap();
        let mut slow_engine = Engine::start(
            Path::new("sh"),
            &[slow.to_string_lossy().into_owned()],
            &[],
            10,
            false,
        )
        .unwrap();
        fs::remove_file(dir.join("out/in-chess-0.tmp")).unwrap();
        let soon = Some(Instant::now() + std::time::Duration::from_secs(1));
        let counts = relabel_shard(&mut slow_engine, &input, &output, &settings, soon).unwrap();
        assert_eq!(
            counts,
            Some(Counts {
                read: 1,
                written: 1
            })
        );
        let (_, got) = read_out(&output);
        assert_eq!(
            got,
            vec![Sample {
                score: 40,
                ..samples[0].clone()
            }]
        );
        // It is done: the next run relabels only the other shard.
        let counts = run(&[dir.join("in")], &dir.join("out"), 1, &settings).unwrap();
        assert_eq!(
            counts,
            Counts {
                read: 2,
                written: 2
            }
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// Shogi records go out as SFEN (`position sfen`, hands included)
    /// to a USI engine.
    #[test]
    fn relabels_a_shogi_shard_through_a_usi_engine() {
        let dir = fresh_dir("tengen-relabel-usi");
        let script = fake_engine(&dir, true);
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
        ];
        let samples: Vec<Sample> = sfens.iter().map(|f| shogi_sample(f)).collect();
        // The hands must be in the records for the SFEN to carry them.
        assert_eq!(
            data::shogi_sfen(&samples[1]).as_deref(),
            Some("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")
        );
        write_shard(&dir.join("in/shogi-0.bin"), Layout::Shogi, &samples);
        let counts = run(
            &[dir.join("in")],
            &dir.join("out"),
            1,
            &fake_settings(&script, true),
        )
        .unwrap();
        // 40 letters in the start position; 2 kings alone are not 3 letters.
        assert_eq!(
            counts,
            Counts {
                read: 2,
                written: 2
            }
        );
        let (layout, got) = read_out(&dir.join("out/in-shogi-0.bin"));
        assert_eq!(layout, Layout::Shogi);
        assert_eq!(got[0].score, 400);
        assert_eq!(
            got[1],
            Sample {
                score: 20,
                ..samples[1].clone()
            }
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// Xiangqi records go out as FEN to a UCI engine (Fairy-Stockfish's
    /// `UCI_Variant=xiangqi`); a run of xiangqi and chess shards together,
    /// or xiangqi shards for a USI engine, is refused before any engine
    /// starts.
    #[test]
    fn relabels_a_xiangqi_shard_and_refuses_mixed_games() {
        let dir = fresh_dir("tengen-relabel-xq");
        let script = fake_engine(&dir, false);
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| xiangqi_sample(f)).collect();
        write_shard(&dir.join("in/xiangqi-0.bin"), Layout::Xiangqi, &samples);
        let counts = run(
            &[dir.join("in")],
            &dir.join("out"),
            1,
            &fake_settings(&script, false),
        )
        .unwrap();
        // 32 letters in the start position; 3 (mate score) in the other.
        assert_eq!(
            counts,
            Counts {
                read: 2,
                written: 1
            }
        );
        let (layout, got) = read_out(&dir.join("out/in-xiangqi-0.bin"));
        assert_eq!(layout, Layout::Xiangqi);
        assert_eq!(
            got,
            vec![Sample {
                score: 320,
                ..samples[0].clone()
            }]
        );
        let err = run(
            &[dir.join("in")],
            &dir.join("out-usi"),
            1,
            &fake_settings(&script, true),
        )
        .unwrap_err();
        assert!(err.contains("xiangqi data"), "{err}");
        let chess = chess_sample("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
        write_shard(&dir.join("in/chess-0.bin"), Layout::Chess, &[chess]);
        let err = run(
            &[dir.join("in")],
            &dir.join("out-mixed"),
            1,
            &fake_settings(&script, false),
        )
        .unwrap_err();
        assert!(err.contains("one game a run"), "{err}");
        assert!(!dir.join("out-mixed").join("in-chess-0.bin").exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
