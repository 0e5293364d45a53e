//! An opening book from a hostile file: the first byte picks the game and
//! the format, the rest is the file. Parsing must not panic, and every
//! opening it accepts is replayed by that game's referee the way a match
//! would use it (record notation turned into wire moves, each move played
//! until one is refused).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_arena::openings::{self, Format, OpeningSpec};
use tengen_arena::variant::{make_referee, Variant};
use tengen_games::Game;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let format = [Format::Epd, Format::Moves, Format::Pgn, Format::Offsets][usize::from(pick & 3)];
    let kind = [Game::Chess, Game::Xiangqi, Game::Shogi, Game::Go, Game::Gomoku]
        [usize::from(pick >> 2) % 5];
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
});
