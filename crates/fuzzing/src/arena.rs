//! The arena's inputs from a user: match files, command lines and opening
//! books.

use tengen_arena::config;
use tengen_arena::openings::{self, Format, OpeningSpec};
use tengen_arena::variant::{make_referee, Variant};
use tengen_games::Game;

/// An opening book from a hostile file: the first byte picks the game and
/// the format, the rest is the file. Parsing must not panic, and every
/// opening it accepts is replayed by that game's referee the way a match
/// would use it (record notation turned into wire moves, each move played
/// until one is refused).
pub fn arena_openings(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let format = [Format::Epd, Format::Moves, Format::Pgn, Format::Offsets][usize::from(pick & 3)];
    let kind = [
        Game::Chess,
        Game::Xiangqi,
        Game::Shogi,
        Game::Go,
        Game::Gomoku,
    ][usize::from(pick >> 2) % 5];
    let mut variant = Variant {
        kind,
        ..Variant::default()
    };
    if kind == Game::Gomoku {
        variant.board_size = 15;
    }
    if kind == Game::Go {
        variant.board_size = 9;
    }
    let spec = OpeningSpec {
        format,
        random_order: pick & 0x80 != 0,
        ..OpeningSpec::default()
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(book) = openings::parse(&text, &spec, 7, variant.board_size, "fuzz") else {
        return;
    };
    assert!(!book.is_empty(), "an accepted book has openings");
    let Ok(mut referee) = make_referee(&variant) else {
        return;
    };
    for opening in book.iter().take(8) {
        if referee.reset(opening.start.as_deref()).is_err() {
            continue;
        }
        for mv in opening.moves.iter().take(64) {
            let wire = if opening.in_record_notation {
                match referee.wire_from_record(mv) {
                    Ok(w) => w,
                    Err(_) => break,
                }
            } else {
                mv.clone()
            };
            if referee.play(&wire).is_err() {
                break;
            }
        }
    }
}

/// A match file and a command line from a hostile user: the bytes as a
/// TOML match file, and the same bytes split into arguments. Neither may
/// panic; a match file that is accepted names at least two engines.
pub fn arena_config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = config::from_toml(&text) {
        assert!(t.engines.len() >= 2, "an accepted match has two engines");
    }
    // `-config FILE` and `-merge` name files to read; a fuzzer must not
    // send the arena reading /dev/zero.
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if args.iter().any(|a| a.contains("config")) {
        return;
    }
    if let Ok(t) = config::from_args(&args) {
        assert!(
            t.engines.len() >= 2,
            "an accepted command line has two engines"
        );
    }
}

/// A match journal as `-resume` and `-merge` read it (a torn or hostile
/// file). Nothing may panic. A journal that reads keeps only complete
/// lines: its entries have a result, distinct game numbers and record
/// ends that never go back; the file cut back to the length it reports
/// (what `-resume` does) reads to the same header and entries; and the
/// header and entries written out again as JSON lines read back the same.
pub fn arena_journal(data: &[u8]) {
    use tengen_arena::journal;
    let Ok((header, entries, good)) = journal::read(data) else {
        return;
    };
    let good = usize::try_from(good).expect("a length that fits");
    assert!(good <= data.len());
    assert!(good == data.len() || data[..good].ends_with(b"\n"));
    let mut games = std::collections::BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        assert!(e.outcome().is_some(), "{e:?}");
        assert!(games.insert(e.game), "game {} twice", e.game);
        if i > 0 {
            assert!(entries[i - 1].record_end <= e.record_end);
        }
    }
    let cut = journal::read(&data[..good]).expect("the part kept reads");
    assert_eq!(cut, (header.clone(), entries.clone(), good as u64));
    let mut text = serde_json::to_string(&header).expect("a header prints");
    text.push('\n');
    for e in &entries {
        text.push_str(&serde_json::to_string(e).expect("an entry prints"));
        text.push('\n');
    }
    let again = journal::read(text.as_bytes()).expect("a journal written out reads");
    assert_eq!((again.0, again.1), (header, entries));
}
