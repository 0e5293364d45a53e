//! Replays every kept fuzz input through its target's body: the corpora
//! in `fuzz/corpus/TARGET/` and the crash reproducers in
//! `fuzz/regressions/TARGET/`. Fails when an input panics, and when the
//! targets and the corpus directories are out of step (a target without
//! a corpus or with an empty one, a corpus without a target).

use std::collections::BTreeSet;
use std::fs;
use std::panic;
use std::path::{Path, PathBuf};
use tengen_fuzzing::{target, TARGETS};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The directories under `dir`, by name.
fn subdirs(dir: &Path) -> BTreeSet<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return BTreeSet::new();
    };
    entries
        .map(|e| e.expect("read a directory entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Files of a directory, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("read a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// Runs each file of `dir` through `name`'s body; returns how many ran
/// and the files that panicked.
fn replay(name: &str, dir: &Path) -> (usize, Vec<String>) {
    let body = target(name).unwrap_or_else(|| panic!("no target {name}"));
    let mut failed = Vec::new();
    let list = files(dir);
    for path in &list {
        let data = fs::read(path).expect("read an input");
        if panic::catch_unwind(|| body(&data)).is_err() {
            failed.push(path.display().to_string());
        }
    }
    (list.len(), failed)
}

#[test]
fn every_target_has_a_corpus_and_every_corpus_a_target() {
    let corpora = subdirs(&fuzz_dir().join("corpus"));
    let targets: BTreeSet<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    let no_corpus: Vec<_> = targets.difference(&corpora).collect();
    let no_target: Vec<_> = corpora.difference(&targets).collect();
    assert!(
        no_corpus.is_empty(),
        "targets without a corpus: {no_corpus:?}"
    );
    assert!(
        no_target.is_empty(),
        "corpora without a target: {no_target:?}"
    );
    let regressions = subdirs(&fuzz_dir().join("regressions"));
    let stray: Vec<_> = regressions.difference(&targets).collect();
    assert!(stray.is_empty(), "regressions without a target: {stray:?}");
}

#[test]
fn every_target_file_is_in_the_table() {
    // fuzz/fuzz_targets/NAME.rs and TARGETS name the same targets.
    let files: BTreeSet<String> = files(&fuzz_dir().join("fuzz_targets"))
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let targets: BTreeSet<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(files, targets);
}

#[test]
fn corpora_replay_without_a_failure() {
    // Panics are caught and listed after every input has run; the
    // default hook prints each one's message as it happens.
    let mut failed = Vec::new();
    let mut empty = Vec::new();
    for (name, _) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(name);
        if !dir.is_dir() {
            continue; // reported by the test above
        }
        let (ran, bad) = replay(name, &dir);
        if ran == 0 {
            empty.push(*name);
        }
        failed.extend(bad);
        let reg = fuzz_dir().join("regressions").join(name);
        if reg.is_dir() {
            failed.extend(replay(name, &reg).1);
        }
    }
    assert!(empty.is_empty(), "empty corpora: {empty:?}");
    assert!(failed.is_empty(), "inputs that fail: {failed:#?}");
}
