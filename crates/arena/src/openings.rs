//! Opening books: positions from EPD/FEN (or SFEN, one per line) files
//! and move-list files, read in order or shuffled with a seed; or N random
//! legal plies played by the referee.

use crate::record::Opening;
use crate::referee::Referee;
// SplitMix64: `-srand` draws the same openings on every platform, and a
// `-resume`d match draws what its first run drew.
use tengen_core::splitmix::SplitMix64 as Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One position per line; EPD operations after the four/six fields
    /// are dropped.
    Epd,
    /// One line of moves in wire notation from the standard start.
    Moves,
    /// Games in PGN: the `FEN` tag (if any) and the main line's moves.
    Pgn,
    /// Gomoku: one opening a line as `x,y` offsets from the centre of the
    /// board, comma-separated (`0,0, 1,0, 1,1`), the layout of Gomocup's
    /// published openings and c-gomoku-cli's books.
    Offsets,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpeningSpec {
    pub file: Option<String>,
    pub format: Format,
    pub random_order: bool,
    /// Random legal plies to add (after the file position, if any).
    pub plies: u32,
    /// First opening to use (1-based, as cutechess's `start=`).
    pub start: usize,
}

impl Default for OpeningSpec {
    fn default() -> Self {
        OpeningSpec {
            file: None,
            format: Format::Epd,
            random_order: false,
            plies: 0,
            start: 1,
        }
    }
}

/// One line of centre offsets as Gomocup moves (`x,y` from the top left):
/// `half = size / 2` is added to both coordinates.
fn offsets_line(line: &str, size: u32) -> Result<Vec<String>, String> {
    let nums: Vec<i64> = line
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| format!("'{}' is not a number", t.trim()))
        })
        .collect::<Result<_, _>>()?;
    if !nums.len().is_multiple_of(2) {
        return Err("an odd count of coordinates".into());
    }
    let half = i64::from(size / 2);
    nums.chunks(2)
        .map(|c| {
            let (x, y) = (c[0] + half, c[1] + half);
            if (0..i64::from(size)).contains(&x) && (0..i64::from(size)).contains(&y) {
                Ok(format!("{x},{y}"))
            } else {
                Err(format!(
                    "offset {},{} is off the {size}x{size} board",
                    c[0], c[1]
                ))
            }
        })
        .collect()
}

/// Reads a book file into openings; `board_size` places gomoku's centre
/// offsets.
pub fn load(spec: &OpeningSpec, seed: u64, board_size: u32) -> Result<Vec<Opening>, String> {
    let Some(path) = &spec.file else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("openings file '{path}': {e}"))?;
    parse(&text, spec, seed, board_size, path)
}

/// A book's text in `spec`'s format as openings (`path` names it in
/// errors).
pub fn parse(
    text: &str,
    spec: &OpeningSpec,
    seed: u64,
    board_size: u32,
    path: &str,
) -> Result<Vec<Opening>, String> {
    if spec.format == Format::Pgn {
        return finish(pgn_openings(text), spec, seed, path);
    }
    if spec.format == Format::Offsets {
        let mut book = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let moves = offsets_line(l, board_size)
                .map_err(|e| format!("openings file '{path}' line {}: {e}", n + 1))?;
            book.push(Opening {
                start: None,
                moves,
                in_record_notation: false,
            });
        }
        return finish(book, spec, seed, path);
    }
    let book: Vec<Opening> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match spec.format {
            Format::Moves => Opening {
                start: None,
                moves: l.split_whitespace().map(str::to_string).collect(),
                in_record_notation: false,
            },
            _ => Opening {
                start: Some(epd_position(l)),
                moves: Vec::new(),
                in_record_notation: false,
            },
        })
        .collect();
    finish(book, spec, seed, path)
}

fn finish(
    mut book: Vec<Opening>,
    spec: &OpeningSpec,
    seed: u64,
    path: &str,
) -> Result<Vec<Opening>, String> {
    if book.is_empty() {
        return Err(format!("openings file '{path}' has no positions"));
    }
    if spec.random_order {
        Rng::new(seed ^ 0x6F70_656E).shuffle(&mut book);
    }
    let skip = spec.start.saturating_sub(1) % book.len();
    book.rotate_left(skip);
    Ok(book)
}

/// The games of a PGN file as openings: the `FEN` tag and the main line
/// in SAN; comments, variations, NAGs, move numbers and results dropped.
fn pgn_openings(text: &str) -> Vec<Opening> {
    let mut book = Vec::new();
    let mut current = Opening {
        in_record_notation: true,
        ..Opening::default()
    };
    let mut in_moves = false;
    let mut depth = 0usize; // inside ( ) variations
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if !in_comment && depth == 0 && t.starts_with('[') {
            if in_moves {
                book.push(std::mem::replace(
                    &mut current,
                    Opening {
                        in_record_notation: true,
                        ..Opening::default()
                    },
                ));
                in_moves = false;
            }
            if let Some(rest) = t.strip_prefix("[FEN ") {
                current.start = Some(
                    rest.trim_end_matches(']')
                        .trim()
                        .trim_matches('"')
                        .to_string(),
                );
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        let mut word = String::new();
        let flush = |word: &mut String, current: &mut Opening| {
            let w = std::mem::take(word);
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            let w = w.trim_end_matches(['!', '?']);
            if !w.is_empty() && !w.starts_with('$') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&w)
            {
                current.moves.push(w.to_string());
            }
        };
        for c in t.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => {
                    flush(&mut word, &mut current);
                    in_comment = true;
                }
                ';' if depth == 0 => break,
                '(' => {
                    flush(&mut word, &mut current);
                    depth += 1;
                }
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                c if c.is_whitespace() => flush(&mut word, &mut current),
                c => word.push(c),
            }
        }
        if depth == 0 {
            flush(&mut word, &mut current);
        }
        if !t.is_empty() {
            in_moves = true;
        }
    }
    if in_moves || current.start.is_some() {
        book.push(current);
    }
    book
}

/// An EPD line's position: the first four fields, plus the two counters
/// when the line carries them (a FEN); EPD operations (`bm`, `id`...) go.
fn epd_position(line: &str) -> String {
    let line = line.split(';').next().unwrap_or(line);
    let fields: Vec<&str> = line.split_whitespace().collect();
    let counters = fields.len() >= 6
        && fields[4].chars().all(|c| c.is_ascii_digit())
        && fields[5].chars().all(|c| c.is_ascii_digit());
    let n = if counters { 6 } else { fields.len().min(4) };
    fields[..n].join(" ")
}

/// The opening of game pair `pair`: line `pair` of `book` (wrapping
/// around; the start position when the book is empty), its moves in the
/// record's notation turned into wire moves (a move the referee cannot
/// read ends the line there), then `plies` random legal plies from a
/// stream seeded by `seed` and the pair (the line as it was if they
/// cannot be added). The tournament and the GUI's matches share it, so a
/// book plays the same openings in both.
pub fn for_pair(
    book: &[Opening],
    pair: u64,
    plies: u32,
    seed: u64,
    referee: &mut dyn Referee,
) -> Opening {
    let mut opening = if book.is_empty() {
        Opening::default()
    } else {
        book[(pair % book.len() as u64) as usize].clone()
    };
    if opening.in_record_notation {
        let mut wire = Vec::new();
        if referee.reset(opening.start.as_deref()).is_ok() {
            for mv in &opening.moves {
                match referee
                    .wire_from_record(mv)
                    .and_then(|w| referee.play(&w).map(|_| w))
                {
                    Ok(w) => wire.push(w),
                    Err(_) => break,
                }
            }
        }
        opening.moves = wire;
        opening.in_record_notation = false;
    }
    if plies > 0 {
        let mut rng = Rng::new(seed ^ pair.wrapping_mul(tengen_core::splitmix::GAMMA));
        let base = opening.clone();
        if add_random_plies(referee, &mut opening, plies, &mut rng).is_err() {
            opening = base;
        }
    }
    opening
}

/// Extends an opening with `plies` random legal moves, chosen by the
/// referee's own move list so they are legal by construction. Stops early
/// if the game ends.
pub fn add_random_plies(
    referee: &mut dyn Referee,
    opening: &mut Opening,
    plies: u32,
    rng: &mut Rng,
) -> Result<(), String> {
    referee.reset(opening.start.as_deref())?;
    for mv in &opening.moves {
        referee.play(mv)?;
    }
    for _ in 0..plies {
        if referee.ending().is_some() {
            break;
        }
        let legal = referee.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())].clone();
        referee.play(&mv)?;
        opening.moves.push(mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        assert_eq!(
            epd_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
        assert_eq!(
            epd_position("8/8/8/8/8/8/8/K6k w - - 3 40"),
            "8/8/8/8/8/8/8/K6k w - - 3 40"
        );
    }

    #[test]
    fn gomocup_centre_offsets() {
        assert_eq!(
            offsets_line("0,0, 1,-1, -7,7", 15).unwrap(),
            vec!["7,7", "8,6", "0,14"]
        );
        assert_eq!(offsets_line("8,-3", 20).unwrap(), vec!["18,7"]);
        assert!(offsets_line("8,0", 15)
            .unwrap_err()
            .contains("off the 15x15"));
        assert!(offsets_line("1,2, 3", 15).unwrap_err().contains("odd"));
        assert!(offsets_line("1,x", 15).unwrap_err().contains("'x'"));
    }

    #[test]
    fn loads_and_shuffles_reproducibly() {
        let dir = std::env::temp_dir().join(format!("arena-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        let lines: Vec<String> = (1..=8)
            .map(|i| format!("{i}k6/8/8/8/8/8/8/K7 w - -"))
            .collect();
        std::fs::write(&path, lines.join("\n")).unwrap();
        let mut spec = OpeningSpec {
            file: Some(path.display().to_string()),
            ..OpeningSpec::default()
        };
        let ordered = load(&spec, 1, 15).unwrap();
        assert_eq!(ordered.len(), 8);
        assert_eq!(
            ordered[0].start.as_deref(),
            Some("1k6/8/8/8/8/8/8/K7 w - -")
        );
        spec.random_order = true;
        let a = load(&spec, 42, 15).unwrap();
        assert_eq!(a, load(&spec, 42, 15).unwrap());
        assert_ne!(a, ordered);
        spec.file = Some(dir.join("missing.epd").display().to_string());
        assert!(load(&spec, 1, 15).unwrap_err().contains("missing.epd"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
