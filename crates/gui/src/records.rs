//! Game records in and out. Saving uses the arena's record writers (PGN
//! for chess and xiangqi, CSA or KIF for shogi, SGF for Go and gomoku);
//! loading reads a pasted text, finding its format and game by its look:
//! PGN, FEN, SFEN (or a USI `position` line), CSA, SGF. Every move read is
//! then played through the referee like a move from the board.

use crate::games::Kind;
use crate::variations::Pos;
use tengen_arena::openings::{self, Format, OpeningSpec};
use tengen_arena::variant::make_referee;

/// What a pasted record holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub kind: Kind,
    pub start: Option<String>,
    /// Wire moves, not yet checked.
    pub moves: Vec<String>,
    pub size: u32,
    /// Variations: each move with the position it is played from (the
    /// main line's after so many moves, or after the side move at that
    /// index of this list, always an earlier one).
    pub side: Vec<(Pos, String)>,
}

/// Reads a record or position; `hint` is the game on the board, used
/// where the text alone cannot tell (a chess FEN is chess or Chess960).
pub fn load(text: &str, hint: Kind) -> Result<Loaded, String> {
    let t = text.trim().trim_start_matches('\u{feff}');
    if t.is_empty() {
        return Err("nothing to load".into());
    }
    if t.starts_with('(') && t.contains(";") {
        return sgf(t);
    }
    if t.starts_with('[') || t.starts_with("1.") {
        return pgn(t, hint);
    }
    if t.contains("手数----") || t.lines().any(|l| kif_move_text(l).is_some()) {
        return kif(t);
    }
    if t.lines().any(|l| {
        ["PI", "P1", "P+", "P-", "V2"]
            .iter()
            .any(|p| l.starts_with(p))
    }) || t.lines().any(|l| is_csa_move(l.trim()))
    {
        return csa(t);
    }
    if let Some(rest) = t.strip_prefix("position ") {
        return usi_position(rest);
    }
    if let Some(rest) = t.strip_prefix("sfen ") {
        return usi_position(&format!("sfen {rest}"));
    }
    fen(t, hint)
}

fn ranks_of(board: &str) -> usize {
    board.split('/').count()
}

fn fen(t: &str, hint: Kind) -> Result<Loaded, String> {
    let line = t.lines().next().unwrap_or("").trim();
    let board = line.split_whitespace().next().unwrap_or("");
    let kind = match ranks_of(board) {
        8 if matches!(hint, Kind::Chess960) => Kind::Chess960,
        8 => Kind::Chess,
        10 => Kind::Xiangqi,
        9 => return usi_position(&format!("sfen {line}")),
        n => return Err(format!("not a record or position I can read ({n} ranks)")),
    };
    Ok(Loaded {
        kind,
        start: Some(line.to_string()),
        moves: Vec::new(),
        size: 0,
        side: Vec::new(),
    })
}

/// `startpos [moves ...]` or `sfen <4 fields> [moves ...]`.
fn usi_position(rest: &str) -> Result<Loaded, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (start, after) = match words.first() {
        Some(&"startpos") => (None, &words[1..]),
        Some(&"sfen") if words.len() >= 4 => {
            let n = if words.len() >= 5 && words[4] != "moves" {
                4
            } else {
                3
            };
            (Some(words[1..=n].join(" ")), &words[n + 1..])
        }
        _ => return Err("a USI position is `startpos` or `sfen ...`".into()),
    };
    let moves = match after.first() {
        Some(&"moves") => after[1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
        Some(w) => return Err(format!("unexpected '{w}' in the position")),
    };
    let start = match start {
        Some(s) if s.split_whitespace().count() == 3 => Some(format!("{s} 1")),
        other => other,
    };
    Ok(Loaded {
        kind: Kind::Shogi,
        start,
        moves,
        size: 0,
        side: Vec::new(),
    })
}

fn pgn(t: &str, hint: Kind) -> Result<Loaded, String> {
    let tag = |name: &str| -> Option<String> {
        t.lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix(&format!("[{name} ")))
            .map(|v| v.trim_end_matches(']').trim().trim_matches('"').to_string())
    };
    let variant = tag("Variant").unwrap_or_default().to_ascii_lowercase();
    let kind = if variant == "xiangqi" || tag("Game").is_some_and(|g| g.contains("Chinese")) {
        Kind::Xiangqi
    } else if variant.contains("960") || variant == "fischerandom" || hint == Kind::Chess960 {
        Kind::Chess960
    } else {
        Kind::Chess
    };
    let spec = OpeningSpec {
        format: Format::Pgn,
        ..OpeningSpec::default()
    };
    // The arena's reader finds the start (a FEN tag); the moves with
    // their variations are read here.
    let book = openings::parse(t, &spec, 0, 0, "the pasted PGN")?;
    let game = book.into_iter().next().ok_or("the PGN holds no game")?;
    let (moves, side) = pgn_tree(t, kind, game.start.as_deref())?;
    Ok(Loaded {
        kind,
        start: game.start,
        moves,
        size: 0,
        side,
    })
}

/// A word of PGN movetext that matters here.
#[derive(Debug, PartialEq)]
enum Word {
    Move(String),
    Open,
    Close,
    /// A result: the game ends.
    End,
}

/// The movetext's moves, variation brackets and result; comments, NAGs,
/// move numbers and `!?` marks dropped.
fn pgn_words(body: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => out.push(Word::Open),
            ')' => out.push(Word::Close),
            c if c.is_whitespace() => {}
            c => {
                let mut w = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_whitespace() || "(){;".contains(d) {
                        break;
                    }
                    w.push(d);
                    chars.next();
                }
                if matches!(w.as_str(), "*" | "1-0" | "0-1" | "1/2-1/2") {
                    out.push(Word::End);
                    continue;
                }
                if w.starts_with('$') {
                    continue;
                }
                // `12.`, `12...`, or a number stuck to its move (`1.e4`).
                let m = if w.starts_with(|c: char| c.is_ascii_digit()) {
                    w.trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim_start_matches('.')
                } else {
                    w.as_str()
                };
                let m = m.trim_end_matches(['!', '?']);
                if !m.is_empty() {
                    out.push(Word::Move(m.to_string()));
                }
            }
        }
    }
    out
}

/// The moves from the start to a position of a tree being read.
pub(crate) fn tree_wires(main: &[String], side: &[(Pos, String)], at: Pos) -> Vec<String> {
    let mut tail = Vec::new();
    let mut at = at;
    loop {
        match at {
            Pos::Main(p) => {
                let mut w = main[..p.min(main.len())].to_vec();
                w.extend(tail.into_iter().rev());
                return w;
            }
            Pos::Side(k) => match side.get(k as usize) {
                Some((from, wire)) => {
                    tail.push(wire.clone());
                    at = *from;
                }
                None => return Vec::new(),
            },
        }
    }
}

/// Adds a move read at `at` to the tree: to the main line at its end,
/// else as a side move. Returns the position after it.
fn tree_push(main: &mut Vec<String>, side: &mut Vec<(Pos, String)>, at: Pos, wire: String) -> Pos {
    match at {
        Pos::Main(p) if p == main.len() => {
            main.push(wire);
            Pos::Main(p + 1)
        }
        from => {
            side.push((from, wire));
            Pos::Side(side.len() as u32 - 1)
        }
    }
}

type Tree = (Vec<String>, Vec<(Pos, String)>);

/// PGN movetext with recursive variations (`1. e4 e5 (1... c5) 2. Nf3`):
/// SAN (chess) or ICCS (xiangqi, maybe as `H2-E2`) to wire moves, each
/// checked on a referee at its position.
fn pgn_tree(t: &str, kind: Kind, start: Option<&str>) -> Result<Tree, String> {
    let body: Vec<&str> = t
        .lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .collect();
    let (mut main, mut side): Tree = (Vec::new(), Vec::new());
    let replay = |main: &[String], side: &[(Pos, String)], at: Pos| {
        let mut r = make_referee(&kind.variant(0, 7.5))?;
        r.reset(start)?;
        for w in tree_wires(main, side, at) {
            r.play(&w)?;
        }
        Ok::<_, String>(r)
    };
    // Where the next move is played from, and where the last one was.
    let mut at = Pos::Main(0);
    let mut before: Option<Pos> = None;
    let mut stack: Vec<(Pos, Option<Pos>)> = Vec::new();
    let mut referee = replay(&main, &side, at)?;
    let mut read = 0;
    for w in pgn_words(&body.join("\n")) {
        match w {
            Word::Open => {
                let b = before.ok_or("a variation with no move before it")?;
                stack.push((at, before));
                at = b;
                before = None;
                referee = replay(&main, &side, at)?;
            }
            Word::Close => {
                (at, before) = stack.pop().ok_or("a ')' with no '(' before it")?;
                referee = replay(&main, &side, at)?;
            }
            Word::End if stack.is_empty() => break,
            Word::End => return Err("the game ends inside a variation".into()),
            Word::Move(m) => {
                read += 1;
                let m = if kind == Kind::Xiangqi {
                    m.to_ascii_lowercase().replace('-', "")
                } else {
                    m
                };
                let wire = referee
                    .wire_from_record(&m)
                    .map_err(|e| format!("move {read} ({m}): {e}"))?;
                referee
                    .play(&wire)
                    .map_err(|e| format!("move {read} ({m}): {e}"))?;
                before = Some(at);
                at = tree_push(&mut main, &mut side, at, wire);
            }
        }
    }
    if !stack.is_empty() {
        return Err("a variation is not closed".into());
    }
    Ok((main, side))
}

fn is_csa_move(l: &str) -> bool {
    let b = l.as_bytes();
    b.len() >= 7
        && (b[0] == b'+' || b[0] == b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
}

/// The SFEN letter of a CSA piece code (`FU` -> `P`, `RY` -> `+R`),
/// for sente (upper case) or gote.
fn csa_piece_sfen(code: &str, sente: bool) -> Option<String> {
    let (promoted, base) = match code {
        "FU" => (false, 'P'),
        "KY" => (false, 'L'),
        "KE" => (false, 'N'),
        "GI" => (false, 'S'),
        "KI" => (false, 'G'),
        "KA" => (false, 'B'),
        "HI" => (false, 'R'),
        "OU" => (false, 'K'),
        "TO" => (true, 'P'),
        "NY" => (true, 'L'),
        "NK" => (true, 'N'),
        "NG" => (true, 'S'),
        "UM" => (true, 'B'),
        "RY" => (true, 'R'),
        _ => return None,
    };
    let c = if sente {
        base
    } else {
        base.to_ascii_lowercase()
    };
    Some(if promoted {
        format!("+{c}")
    } else {
        c.to_string()
    })
}

/// The even game's board, rank 1 first, file 9 first in each rank.
const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

/// An SFEN board's 81 cells (`P`, `+r`, or empty), rank 1 first, file 9
/// first.
fn sfen_cells(board: &str) -> Vec<Option<String>> {
    let mut cells = Vec::new();
    for rank in board.split('/') {
        let mut promoted = false;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                cells.extend((0..n).map(|_| None));
            } else if c == '+' {
                promoted = true;
            } else {
                cells.push(Some(if promoted {
                    format!("+{c}")
                } else {
                    c.to_string()
                }));
                promoted = false;
            }
        }
    }
    cells
}

/// The cell index of a CSA square (`82`: file 8, rank 2).
fn csa_cell(file: u8, rank: u8) -> Option<usize> {
    ((1..=9).contains(&file) && (1..=9).contains(&rank))
        .then(|| usize::from(rank - 1) * 9 + usize::from(9 - file))
}

/// A CSA set-up position as an SFEN; `None` for the even game. The board
/// is the even game's (`PI`, less the pieces it names: `PI82HI22KA` is
/// the two-piece handicap), the `P1`..`P9` rows, or empty; `P+`/`P-`
/// lines then put pieces on squares or in hand (`00`), `00AL` giving one
/// side every piece left; `+` or `-` names the side to move.
fn csa_start(t: &str) -> Result<Option<String>, String> {
    let lines: Vec<&str> = t
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with('\''))
        .collect();
    // Rows keep their trailing blanks (an empty square is " * ").
    let pi = lines
        .iter()
        .find_map(|l| l.strip_prefix("PI"))
        .map(str::trim_end);
    let rows = lines.iter().any(|l| l.starts_with("P1"));
    let placed = lines
        .iter()
        .any(|l| l.starts_with("P+") || l.starts_with("P-"));
    let side = match lines
        .iter()
        .find(|l| l.trim_end() == "+" || l.trim_end() == "-")
    {
        Some(l) if l.trim_end() == "-" => "w",
        _ => "b",
    };
    if !rows && !placed && pi.is_none_or(str::is_empty) && side == "b" {
        return Ok(None);
    }
    let mut cells: Vec<Option<String>> = vec![None; 81];
    if let Some(removed) = pi {
        cells = sfen_cells(SHOGI_START);
        if !removed.is_ascii() || removed.len() % 4 != 0 {
            return Err(format!("CSA: bad handicap line PI{removed}"));
        }
        for i in (0..removed.len()).step_by(4) {
            let item = &removed[i..i + 4];
            let b = item.as_bytes();
            let cell = csa_cell(b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0'))
                .ok_or_else(|| format!("CSA: PI{removed}: '{item}' is not a square"))?;
            let want = csa_piece_sfen(&item[2..], true)
                .ok_or_else(|| format!("CSA: PI{removed}: '{}' is not a piece", &item[2..]))?;
            if !cells[cell]
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(&want))
            {
                return Err(format!(
                    "CSA: PI{removed}: no {} on {}",
                    &item[2..],
                    &item[..2]
                ));
            }
            cells[cell] = None;
        }
    } else if rows {
        for r in 1..=9u8 {
            let row = lines
                .iter()
                .find_map(|l| l.strip_prefix(&format!("P{r}")))
                .ok_or_else(|| format!("CSA position: no row P{r}"))?;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() < 27 {
                return Err(format!("CSA position: row P{r} has fewer than 9 squares"));
            }
            for (f, cell) in chars.chunks(3).take(9).enumerate() {
                let cell: String = cell.iter().collect();
                if cell.trim() == "*" {
                    continue;
                }
                let sente = match cell.chars().next() {
                    Some('+') => true,
                    Some('-') => false,
                    _ => return Err(format!("CSA position: '{cell}' in row P{r}")),
                };
                let piece = csa_piece_sfen(cell.get(1..).unwrap_or(""), sente)
                    .ok_or_else(|| format!("CSA position: '{cell}' in row P{r}"))?;
                cells[usize::from(r - 1) * 9 + f] = Some(piece);
            }
        }
    }
    // Hands, counted by SFEN letter; `AL` last.
    let mut hand: Vec<(char, u32)> = Vec::new();
    let mut all_rest: Option<bool> = None;
    for l in &lines {
        let (sente, rest) = match (l.strip_prefix("P+"), l.strip_prefix("P-")) {
            (Some(r), _) => (true, r.trim_end()),
            (_, Some(r)) => (false, r.trim_end()),
            _ => continue,
        };
        if !rest.is_ascii() || rest.len() % 4 != 0 {
            return Err("CSA position: a broken piece line".into());
        }
        for i in (0..rest.len()).step_by(4) {
            let item = &rest[i..i + 4];
            let b = item.as_bytes();
            if &item[2..] == "AL" {
                if &item[..2] != "00" {
                    return Err("CSA position: AL goes in hand (00AL)".into());
                }
                all_rest = Some(sente);
                continue;
            }
            let p = csa_piece_sfen(&item[2..], sente)
                .ok_or_else(|| format!("CSA position: '{}' is not a piece", &item[2..]))?;
            if &item[..2] == "00" {
                if p.len() != 1 || p.eq_ignore_ascii_case("k") {
                    return Err(format!("CSA position: cannot hold '{}'", &item[2..]));
                }
                let c = p.chars().next().unwrap_or('P');
                match hand.iter_mut().find(|(x, _)| *x == c) {
                    Some((_, n)) => *n += 1,
                    None => hand.push((c, 1)),
                }
            } else {
                let cell = csa_cell(b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0'))
                    .ok_or_else(|| format!("CSA position: '{item}' is not a square"))?;
                cells[cell] = Some(p);
            }
        }
    }
    if let Some(sente) = all_rest {
        // Every piece of the set not on the board or in a hand.
        for (letter, total) in [
            ('R', 2u32),
            ('B', 2),
            ('G', 4),
            ('S', 4),
            ('N', 4),
            ('L', 4),
            ('P', 18),
        ] {
            let on_board = cells
                .iter()
                .flatten()
                .filter(|p| {
                    p.trim_start_matches('+')
                        .eq_ignore_ascii_case(&letter.to_string())
                })
                .count() as u32;
            let held: u32 = hand
                .iter()
                .filter(|(c, _)| c.eq_ignore_ascii_case(&letter))
                .map(|(_, n)| n)
                .sum();
            let left: u32 = total.saturating_sub(on_board + held);
            if left > 0 {
                let c = if sente {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                match hand.iter_mut().find(|(x, _)| *x == c) {
                    Some((_, n)) => *n += left,
                    None => hand.push((c, left)),
                }
            }
        }
    }
    let mut ranks = Vec::new();
    for rank in cells.chunks(9) {
        let mut s = String::new();
        let mut empty = 0;
        for cell in rank {
            match cell {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(p);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    const ORDER: &str = "RBGSNLPrbgsnlp";
    hand.sort_by_key(|(c, _)| ORDER.find(*c));
    let hand: String = if hand.is_empty() {
        "-".into()
    } else {
        hand.iter()
            .map(|(c, n)| {
                if *n > 1 {
                    format!("{n}{c}")
                } else {
                    c.to_string()
                }
            })
            .collect()
    };
    Ok(Some(format!("{} {side} {hand} 1", ranks.join("/"))))
}

/// CSA: moves `+7776FU` (a drop from `00`), from the standard start
/// (`PI`, or no position at all) or a set-up position (`P1`..`P9`).
fn csa(t: &str) -> Result<Loaded, String> {
    let start = csa_start(t)?;
    let mut g = match &start {
        Some(sfen) => tengen_shogi::Game::from_usi(sfen, &[])
            .map_err(|e| format!("CSA position {sfen}: {e}"))?,
        None => tengen_shogi::Game::startpos(),
    };
    let mut moves = Vec::new();
    let drop_letter = |code: &str| match code {
        "FU" => Some('P'),
        "KY" => Some('L'),
        "KE" => Some('N'),
        "GI" => Some('S'),
        "KI" => Some('G'),
        "KA" => Some('B'),
        "HI" => Some('R'),
        _ => None,
    };
    let promoted = ["TO", "NY", "NK", "NG", "UM", "RY"];
    // Comment lines (`'`, Floodgate's `'** 31 -3334FU`) hold no moves.
    for line in t
        .lines()
        .filter(|l| !l.starts_with('\''))
        .flat_map(|l| l.split(','))
    {
        let l = line.trim();
        if !is_csa_move(l) {
            continue;
        }
        // Files and ranks 1..9 (a rank 0 is off the board: an error below).
        let sq = |f: u8, r: u8| format!("{}{}", f as char, (b'a' + r.saturating_sub(b'1')) as char);
        let b = l.as_bytes();
        if b[1..5].contains(&b'0') && &l[1..3] != "00" || b[3] == b'0' || b[4] == b'0' {
            return Err(format!("CSA move {l}: a square off the board"));
        }
        let code = &l[5..7];
        let to = sq(b[3], b[4]);
        let wire = if &l[1..3] == "00" {
            let p = drop_letter(code).ok_or_else(|| format!("cannot drop {code} ({l})"))?;
            format!("{p}*{to}")
        } else {
            let from = sq(b[1], b[2]);
            let plain = format!("{from}{to}");
            // Promotes here when the piece arrives promoted but was not.
            let was_promoted = tengen_shogi::parse_usi_move(&plain)
                .ok()
                .and_then(|_| {
                    let file = (b[1] - b'0') as usize;
                    let rank = (b[2] - b'0') as usize;
                    tengen_shogi::Square::from_file_rank(file, rank)
                })
                .and_then(|s| g.board().piece_at(s))
                .is_some_and(|p| p.kind() as u8 >= tengen_shogi::Kind::ProPawn as u8);
            if promoted.contains(&code) && !was_promoted {
                format!("{plain}+")
            } else {
                plain
            }
        };
        let mv = g
            .board()
            .parse_move(&wire)
            .map_err(|e| format!("CSA move {l}: {e}"))?;
        g.play(mv);
        moves.push(wire);
    }
    Ok(Loaded {
        kind: Kind::Shogi,
        start,
        moves,
        size: 0,
        side: Vec::new(),
    })
}

/// The move text of a KIF move line (`   1 ７六歩(77)   ( 0:01/...)`).
fn kif_move_text(line: &str) -> Option<&str> {
    let l = line.trim_start();
    let digits = l.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = l[digits..].trim_start();
    let first = rest.chars().next()?;
    ("１２３４５６７８９同".contains(first)
        || rest.starts_with("投了")
        || rest.starts_with("中断")
        || rest.starts_with("詰み")
        || rest.starts_with("千日手")
        || rest.starts_with("持将棋")
        || rest.starts_with("切れ負け")
        || rest.starts_with("反則"))
    .then_some(rest)
}

/// The SFEN letter of a KIF board or hand piece (`歩` -> `P`, `龍` -> `+R`).
fn kif_piece_sfen(c: char) -> Option<&'static str> {
    Some(match c {
        '歩' => "P",
        '香' => "L",
        '桂' => "N",
        '銀' => "S",
        '金' => "G",
        '角' => "B",
        '飛' => "R",
        '玉' | '王' => "K",
        'と' => "+P",
        '杏' => "+L",
        '圭' => "+N",
        '全' => "+S",
        '馬' => "+B",
        '龍' | '竜' => "+R",
        _ => return None,
    })
}

/// A count in kanji (`二`, `十`, `十八`).
fn kanji_count(s: &str) -> Option<u32> {
    const DIGITS: &str = "一二三四五六七八九";
    let digit = |c: char| DIGITS.chars().position(|d| d == c).map(|i| i as u32 + 1);
    let mut chars = s.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) => Some(1),
        (Some('十'), None, _) => Some(10),
        (Some('十'), Some(c), None) => Some(10 + digit(c)?),
        (Some(c), None, _) => digit(c),
        _ => None,
    }
}

/// A KIF board diagram (nine `|…|` rows of ` 歩`/`v歩`/` ・` cells, the
/// hands `先手の持駒：` and `後手の持駒：`, `後手番` when gote moves
/// first) as an SFEN; `None` without a diagram.
fn kif_start(t: &str) -> Result<Option<String>, String> {
    let rows: Vec<&str> = t
        .lines()
        .map(str::trim_end)
        .filter(|l| l.starts_with('|'))
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    if rows.len() != 9 {
        return Err(format!("KIF board: {} rows, not 9", rows.len()));
    }
    let mut ranks = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().skip(1).take(18).collect();
        if cells.len() != 18 {
            return Err(format!("KIF board: row {} is short", r + 1));
        }
        let mut rank = String::new();
        let mut empty = 0;
        for cell in cells.chunks(2) {
            if cell[1] == '・' {
                empty += 1;
                continue;
            }
            let p = kif_piece_sfen(cell[1])
                .ok_or_else(|| format!("KIF board: '{}' in row {}", cell[1], r + 1))?;
            if empty > 0 {
                rank.push_str(&empty.to_string());
                empty = 0;
            }
            match cell[0] {
                'v' => rank.push_str(&p.to_ascii_lowercase()),
                ' ' | '^' => rank.push_str(p),
                c => return Err(format!("KIF board: '{c}{}' in row {}", cell[1], r + 1)),
            }
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    let mut hand = String::new();
    for (prefix, sente) in [("先手の持駒：", true), ("後手の持駒：", false)] {
        let Some(line) = t.lines().find_map(|l| l.trim().strip_prefix(prefix)) else {
            continue;
        };
        // SFEN lists the hand by piece, rook first.
        let mut items: Vec<(usize, char, u32)> = Vec::new();
        for item in line
            .split(['　', ' '])
            .filter(|i| !i.is_empty() && *i != "なし")
        {
            let mut chars = item.chars();
            let c = chars.next().unwrap_or(' ');
            let p = kif_piece_sfen(c)
                .filter(|p| p.len() == 1 && *p != "K")
                .ok_or_else(|| format!("KIF hand: cannot hold '{item}'"))?;
            let n = kanji_count(chars.as_str())
                .ok_or_else(|| format!("KIF hand: bad count in '{item}'"))?;
            let letter = p.chars().next().unwrap_or('P');
            let order = "RBGSNLP".find(letter).unwrap_or(7);
            items.push((order, letter, n));
        }
        items.sort();
        for (_, letter, n) in items {
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            hand.push(if sente {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    let side = if t.lines().any(|l| l.trim().starts_with("後手番")) {
        "w"
    } else {
        "b"
    };
    Ok(Some(format!("{} {side} {hand} 1", ranks.join("/"))))
}

/// The standard handicaps by their KIF names (`手合割：香落ち`): the
/// giver's first two ranks; the giver plays gote and moves first.
const HANDICAPS: [(&str, &str); 13] = [
    ("香落ち", "lnsgkgsn1/1r5b1"),
    ("右香落ち", "1nsgkgsnl/1r5b1"),
    ("角落ち", "lnsgkgsnl/1r7"),
    ("飛車落ち", "lnsgkgsnl/7b1"),
    ("飛香落ち", "lnsgkgsn1/7b1"),
    ("二枚落ち", "lnsgkgsnl/9"),
    ("三枚落ち", "lnsgkgsn1/9"),
    ("四枚落ち", "1nsgkgsn1/9"),
    ("五枚落ち", "2sgkgsn1/9"),
    ("左五枚落ち", "1nsgkgs2/9"),
    ("六枚落ち", "2sgkgs2/9"),
    ("八枚落ち", "3gkg3/9"),
    ("十枚落ち", "4k4/9"),
];

/// A standard handicap's start as SFEN.
fn kif_handicap(name: &str) -> Option<String> {
    let (_, top) = HANDICAPS.iter().find(|(n, _)| *n == name)?;
    Some(format!(
        "{top}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    ))
}

/// A KIF record of a game from a standard handicap names it
/// (`手合割：角落ち`) before its board diagram: readers that go by the
/// name alone (cshogi) then find the same start.
pub fn kif_name_handicap(start: Option<&str>, text: &str) -> String {
    let Some(name) = start.and_then(|s| {
        HANDICAPS
            .iter()
            .find(|(n, _)| kif_handicap(n).as_deref() == Some(s))
            .map(|(n, _)| *n)
    }) else {
        return text.to_string();
    };
    if text.contains("手合割：") {
        return text.to_string();
    }
    match text.find("後手の持駒：") {
        Some(at) => format!("{}手合割：{name}\n{}", &text[..at], &text[at..]),
        None => text.to_string(),
    }
}

/// A square of a KIF move (file, rank; 1..9 each).
type KifSquare = (usize, usize);

/// The moves of one line of KIF move lines, played on `g` from its
/// position (`last_to`: where the move before went, for `同`), up to
/// the line's end (`投了` and the like). Each move with its square.
fn kif_line(
    g: &mut tengen_shogi::Game,
    mut last_to: Option<KifSquare>,
    lines: &[&str],
    first_no: usize,
) -> Result<Vec<(String, KifSquare)>, String> {
    const WIDE: &str = "１２３４５６７８９";
    const HAN: &str = "一二三四五六七八九";
    let mut moves = Vec::new();
    for line in lines {
        let Some(text) = kif_move_text(line) else {
            continue;
        };
        let mut chars = text.chars().peekable();
        let to = match chars.next() {
            Some('同') => {
                while chars.peek().is_some_and(|c| *c == '　' || *c == ' ') {
                    chars.next();
                }
                match last_to {
                    Some(t) => t,
                    None => return Err(format!("KIF move '{text}': 同 with no move before")),
                }
            }
            Some(f) => {
                let file = WIDE.chars().position(|c| c == f).map(|i| i + 1);
                let rank = chars
                    .next()
                    .and_then(|r| HAN.chars().position(|c| c == r))
                    .map(|i| i + 1);
                match (file, rank) {
                    (Some(f), Some(r)) => (f, r),
                    // 投了, 中断...: the line ends here.
                    _ => break,
                }
            }
            None => break,
        };
        let rest: String = chars.collect();
        let rest = rest.split_whitespace().next().unwrap_or("");
        let dest = format!("{}{}", to.0, (b'a' + (to.1 as u8 - 1)) as char);
        let wire = if rest.contains('打') {
            let letter = [
                ('歩', 'P'),
                ('香', 'L'),
                ('桂', 'N'),
                ('銀', 'S'),
                ('金', 'G'),
                ('角', 'B'),
                ('飛', 'R'),
            ]
            .iter()
            .find(|(k, _)| rest.starts_with(*k))
            .map(|(_, l)| *l)
            .ok_or_else(|| format!("KIF drop '{text}'"))?;
            format!("{letter}*{dest}")
        } else {
            let open = rest
                .find('(')
                .ok_or_else(|| format!("KIF move '{text}' has no origin"))?;
            let from: Vec<u8> = rest[open + 1..].bytes().take(2).collect();
            if from.len() != 2 || !from.iter().all(|d| (b'1'..=b'9').contains(d)) {
                return Err(format!("KIF move '{text}' has a bad origin"));
            }
            let promote = rest[..open].ends_with('成') && !rest[..open].ends_with("不成");
            let origin = format!("{}{}", from[0] as char, (b'a' + (from[1] - b'1')) as char);
            format!("{origin}{dest}{}", if promote { "+" } else { "" })
        };
        let mv = g
            .board()
            .parse_move(&wire)
            .map_err(|e| format!("KIF move {} '{text}': {e}", first_no + moves.len()))?;
        g.play(mv);
        moves.push((wire, to));
        last_to = Some(to);
    }
    Ok(moves)
}

/// KIF (Kakinoki): the move lines, from the even game (`手合割：平手`, or
/// no 手合割), a standard handicap (`手合割：香落ち`…) or a board diagram;
/// variations from the `変化：N手` blocks after the main line (each
/// branches from the line read just before it). The page decodes
/// Shift_JIS files before they come here.
fn kif(t: &str) -> Result<Loaded, String> {
    let mut start = kif_start(t)?;
    if start.is_none() {
        let handicap = t
            .lines()
            .find_map(|l| l.trim().strip_prefix("手合割："))
            .map(str::trim)
            .filter(|h| *h != "平手");
        if let Some(h) = handicap {
            start = Some(
                kif_handicap(h).ok_or_else(|| format!("KIF handicap '{h}' is not one I know"))?,
            );
        }
    }
    let game_at = |wires: &[String]| -> Result<tengen_shogi::Game, String> {
        let mut g = match &start {
            Some(sfen) => tengen_shogi::Game::from_usi(sfen, &[])
                .map_err(|e| format!("KIF board {sfen}: {e}"))?,
            None => tengen_shogi::Game::startpos(),
        };
        for w in wires {
            let mv = g
                .board()
                .parse_move(w)
                .map_err(|e| format!("KIF move {w}: {e}"))?;
            g.play(mv);
        }
        Ok(g)
    };
    // The main line, then each 変化 block with its first move's number.
    let mut blocks: Vec<(usize, Vec<&str>)> = vec![(1, Vec::new())];
    for line in t.lines() {
        if let Some(rest) = line.trim().strip_prefix("変化：") {
            let n: usize = rest
                .trim()
                .trim_end_matches('手')
                .trim()
                .parse()
                .map_err(|_| format!("KIF: bad variation line '{line}'"))?;
            blocks.push((n, Vec::new()));
        } else if let Some((_, b)) = blocks.last_mut() {
            b.push(line);
        }
    }
    let mut g = game_at(&[])?;
    let main_line = kif_line(&mut g, None, &blocks[0].1, 1)?;
    if main_line.is_empty() && blocks.len() == 1 {
        return Err("the KIF record has no moves".into());
    }
    let (mut main, mut side): Tree = (Vec::new(), Vec::new());
    // The line read last: each move's position after it and square.
    let mut path: Vec<(Pos, KifSquare)> = Vec::new();
    for (wire, to) in main_line {
        let end = Pos::Main(main.len());
        let at = tree_push(&mut main, &mut side, end, wire);
        path.push((at, to));
    }
    for (n, lines) in &blocks[1..] {
        if *n == 0 || *n > path.len() + 1 {
            return Err(format!(
                "KIF: variation at move {n} has no line to branch from"
            ));
        }
        path.truncate(n - 1);
        let from = path.last().map_or(Pos::Main(0), |p| p.0);
        let mut g = game_at(&tree_wires(&main, &side, from))?;
        let mut at = from;
        for (wire, to) in kif_line(&mut g, path.last().map(|p| p.1), lines, *n)? {
            // Always a side move, even where the main line ends here.
            side.push((at, wire));
            at = Pos::Side(side.len() as u32 - 1);
            path.push((at, to));
        }
    }
    Ok(Loaded {
        kind: Kind::Shogi,
        start,
        moves: main,
        size: 0,
        side,
    })
}

/// One node of an SGF game tree: its properties (each with its values)
/// and its children, the first one the main line.
struct SgfNode {
    props: Vec<(String, Vec<String>)>,
    kids: Vec<usize>,
}

impl SgfNode {
    fn values(&self, name: &str) -> &[String] {
        self.props
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, v)| v.as_slice())
    }
}

/// The first game tree of an SGF text, its root first.
fn sgf_tree(t: &str) -> Result<Vec<SgfNode>, String> {
    let b: Vec<char> = t.chars().collect();
    let mut i = b.iter().position(|&c| c == '(').ok_or("no SGF game tree")?;
    let mut nodes: Vec<SgfNode> = Vec::new();
    // The node each open '(' goes on from.
    let mut stack: Vec<Option<usize>> = Vec::new();
    let mut cur: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            '(' => {
                stack.push(cur);
                i += 1;
            }
            ')' => {
                cur = stack.pop().ok_or("SGF: a ')' with no '('")?;
                i += 1;
                if stack.is_empty() {
                    break;
                }
            }
            ';' => {
                i += 1;
                let id = nodes.len();
                match cur {
                    Some(p) => nodes[p].kids.push(id),
                    None if id > 0 => return Err("SGF: a second root node".into()),
                    None => {}
                }
                let mut node = SgfNode {
                    props: Vec::new(),
                    kids: Vec::new(),
                };
                loop {
                    while i < b.len() && b[i].is_whitespace() {
                        i += 1;
                    }
                    let from = i;
                    while i < b.len() && b[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    if from == i {
                        break;
                    }
                    // Old SGF's lower-case letters in names are dropped.
                    let name: String = b[from..i]
                        .iter()
                        .filter(|c| c.is_ascii_uppercase())
                        .collect();
                    let mut values = Vec::new();
                    loop {
                        while i < b.len() && b[i].is_whitespace() {
                            i += 1;
                        }
                        if b.get(i) != Some(&'[') {
                            break;
                        }
                        i += 1;
                        let mut v = String::new();
                        while i < b.len() && b[i] != ']' {
                            if b[i] == '\\' {
                                i += 1;
                            }
                            if let Some(&c) = b.get(i) {
                                v.push(c);
                            }
                            i += 1;
                        }
                        if i >= b.len() {
                            return Err(format!("SGF: {name}[ is not closed"));
                        }
                        i += 1;
                        values.push(v);
                    }
                    if values.is_empty() {
                        return Err(format!("SGF: property {name} has no value"));
                    }
                    node.props.push((name, values));
                }
                nodes.push(node);
                cur = Some(id);
            }
            c if c.is_whitespace() => i += 1,
            c => return Err(format!("SGF: unexpected '{c}'")),
        }
    }
    if !stack.is_empty() {
        return Err("SGF: the game tree is not closed".into());
    }
    if nodes.is_empty() {
        return Err("the SGF has no nodes".into());
    }
    Ok(nodes)
}

/// An SGF point or pass (`B[dd]`, `W[]`, `W[tt]` up to 19x19) as a wire
/// move.
fn sgf_point(kind: Kind, size: u32, name: &str, v: &str) -> Result<String, String> {
    let v = v.trim();
    let b = v.as_bytes();
    if v.is_empty() || (v == "tt" && size <= 19) {
        return match kind {
            Kind::Go => Ok("pass".to_string()),
            _ => Err("a pass in a gomoku record".into()),
        };
    }
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return Err(format!("bad SGF point {name}[{v}]"));
    }
    let (x, y) = (u32::from(b[0] - b'a'), u32::from(b[1] - b'a'));
    crate::games::wire_of_vertex(kind, x, y, size)
        .ok_or_else(|| format!("{name}[{v}] is off the {size}x{size} board"))
}

/// SGF set-up stones (`AB`/`AW` in the root; `PL` the side to move) as
/// the first moves: here games start from the empty board, so the
/// stones are played alternately, Black first; in Go a pass stands in
/// for the side with fewer stones (and for the side not to move when
/// `PL` says so); in gomoku Black must have as many stones as White or
/// one more.
fn sgf_setup(kind: Kind, size: u32, root: &SgfNode) -> Result<Vec<String>, String> {
    if !root.values("AE").is_empty() {
        return Err("SGF: AE (points cleared) in a record that starts empty".into());
    }
    let points = |name: &str| -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for v in root.values(name) {
            // `AB[aa:cc]` rectangles are a later SGF's shorthand.
            if v.contains(':') {
                return Err(format!("SGF: {name}[{v}] (a rectangle) is not read"));
            }
            let w = sgf_point(kind, size, name, v)?;
            if w == "pass" {
                return Err(format!("SGF: {name}[{v}] is not a point"));
            }
            out.push(w);
        }
        Ok(out)
    };
    let (black, white) = (points("AB")?, points("AW")?);
    if kind != Kind::Go && !(black.len() == white.len() || black.len() == white.len() + 1) {
        return Err(format!(
            "SGF set-up stones: {} black and {} white cannot be played in turn",
            black.len(),
            white.len()
        ));
    }
    let mut moves = Vec::new();
    for i in 0..black.len().max(white.len()) {
        moves.push(black.get(i).cloned().unwrap_or_else(|| "pass".into()));
        if i < white.len() || i + 1 < black.len() {
            moves.push(white.get(i).cloned().unwrap_or_else(|| "pass".into()));
        }
    }
    let white_next = moves.len() % 2 == 1;
    match root.values("PL").first().map(|s| s.trim()) {
        Some("W") if !white_next && kind == Kind::Go && !moves.is_empty() => {
            moves.push("pass".into())
        }
        Some("B") if white_next && kind == Kind::Go => moves.push("pass".into()),
        _ => {}
    }
    Ok(moves)
}

/// SGF for Go (`GM[1]`, or none) and gomoku (`GM[4]`; `RU[renju]`), with
/// its variations (the first child at each node is the main line) and
/// the root's set-up stones.
fn sgf(t: &str) -> Result<Loaded, String> {
    let nodes = sgf_tree(t)?;
    let root = &nodes[0];
    let prop = |k: &str| root.values(k).first().cloned();
    let gm = prop("GM").unwrap_or_else(|| "1".into());
    let kind = match gm.trim() {
        "1" => Kind::Go,
        "4" if prop("RU").is_some_and(|r| r.eq_ignore_ascii_case("renju")) => Kind::Renju,
        "4" => Kind::Gomoku,
        other => return Err(format!("SGF game GM[{other}] is not Go or gomoku")),
    };
    let size: u32 = match prop("SZ") {
        Some(s) => s
            .split(':')
            .next()
            .unwrap_or("")
            .trim()
            .parse()
            .map_err(|_| format!("bad SZ[{s}]"))?,
        None => kind.sizes().1,
    };
    let (mut main, mut side): Tree = (sgf_setup(kind, size, root)?, Vec::new());
    // Depth first, the first child first: the main line is read whole
    // before any variation.
    let mut stack: Vec<(usize, Pos, bool)> = vec![(0, Pos::Main(main.len()), true)];
    while let Some((n, at, on_main)) = stack.pop() {
        let node = &nodes[n];
        if n > 0
            && ["AB", "AW", "AE"]
                .iter()
                .any(|p| !node.values(p).is_empty())
        {
            return Err("SGF set-up stones after the first node are not read".into());
        }
        let mut after = at;
        for (name, values) in node.props.iter().filter(|(n, _)| n == "B" || n == "W") {
            let wire = sgf_point(kind, size, name, values.first().map_or("", |v| v.as_str()))?;
            after = if on_main {
                tree_push(&mut main, &mut side, after, wire)
            } else {
                side.push((after, wire));
                Pos::Side(side.len() as u32 - 1)
            };
        }
        for (j, &k) in node.kids.iter().enumerate().rev() {
            stack.push((k, after, on_main && j == 0));
        }
    }
    Ok(Loaded {
        kind,
        start: None,
        moves: main,
        size,
        side,
    })
}

/// The file extension of the record format a game saves in by default.
pub fn default_format(kind: Kind) -> &'static str {
    match kind {
        Kind::Chess | Kind::Chess960 | Kind::Xiangqi => "pgn",
        Kind::Shogi => "csa",
        Kind::Go | Kind::Gomoku | Kind::Renju => "sgf",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_format_and_game() {
        let l = load("[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n", Kind::Chess).unwrap();
        assert_eq!(
            (l.kind, l.moves.clone()),
            (
                Kind::Chess,
                vec!["e2e4".to_string(), "e7e5".into(), "g1f3".into()]
            )
        );
        let l = load(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            Kind::Chess,
        )
        .unwrap();
        assert_eq!(l.kind, Kind::Xiangqi);
        let l = load("position startpos moves 7g7f 3c3d", Kind::Chess).unwrap();
        assert_eq!((l.kind, l.moves.len()), (Kind::Shogi, 2));
        let l = load(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Kind::Chess,
        )
        .unwrap();
        assert_eq!(l.kind, Kind::Shogi);
        let l = load(
            "PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n",
            Kind::Chess,
        )
        .unwrap();
        assert_eq!(l.moves, vec!["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
        let l = load("(;GM[1]SZ[9];B[ee];W[];B[cc])", Kind::Chess).unwrap();
        assert_eq!(
            (l.kind, l.size, l.moves.clone()),
            (
                Kind::Go,
                9,
                vec!["E5".to_string(), "pass".into(), "C7".into()]
            )
        );
        let l = load("(;GM[4]SZ[15]RU[renju];B[hh];W[ih])", Kind::Chess).unwrap();
        assert_eq!(
            (l.kind, l.moves.clone()),
            (Kind::Renju, vec!["7,7".to_string(), "8,7".into()])
        );
        let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角打\n   6 投了\n";
        let l = load(kif, Kind::Chess).unwrap();
        assert_eq!(l.moves, vec!["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
        assert!(load("手合割：香落ち\n   1 ７六歩(77)\n", Kind::Chess).is_err());
        for bad in [
            "",
            "hello",
            "(;GM[2])",
            "[Event \"x\"]\n1. e5 *",
            "position sfen",
        ] {
            assert!(load(bad, Kind::Chess).is_err(), "{bad}");
        }
    }

    #[test]
    fn shogi_records_from_a_set_up_position_read_back() {
        use tengen_arena::record::{Ending, GameRecord, PlayedMove, Side};
        // Gote to move with pieces in hand on both sides; one pawn
        // promotes, a drop follows.
        for sfen in [
            "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1SG4R1/LN2KGSNL w Bb 1",
            "4k4/9/4G4/9/9/9/9/9/4K4 b 3L2Pr2s 1",
        ] {
            let mut r = tengen_arena::variant::make_referee(&Kind::Shogi.variant(0, 7.5)).unwrap();
            r.reset(Some(sfen)).unwrap();
            let mut moves = Vec::new();
            for _ in 0..4 {
                let Some(w) = r.legal_moves().into_iter().max() else {
                    break;
                };
                let notation = r.play(&w).unwrap();
                moves.push(PlayedMove {
                    wire: w,
                    notation,
                    score: None,
                    depth: None,
                    elapsed_ms: 0,
                    book: false,
                });
            }
            let wires: Vec<String> = moves.iter().map(|m| m.wire.clone()).collect();
            let game = GameRecord {
                players: ["a".into(), "b".into()],
                start: Some(sfen.into()),
                moves,
                ending: Ending::win(Side::First, "Gote resigns"),
                round: 1,
                game_no: 1,
                event: "e".into(),
                date: "2026.11.26".into(),
                time_control: "-".into(),
            };
            for text in [
                tengen_arena::games::shogi::csa(&game),
                tengen_arena::games::shogi::kif(&game).unwrap(),
            ] {
                let l = load(&text, Kind::Shogi).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(l.kind, Kind::Shogi);
                assert_eq!(l.start.as_deref(), Some(sfen), "{text}");
                assert_eq!(l.moves, wires, "{text}");
            }
        }
        assert!(kanji_count("十八") == Some(18) && kanji_count("") == Some(1));
        assert!(load("P1 * \n+\n", Kind::Shogi).is_err(), "a short row");
        assert!(load("|v玉|一\n", Kind::Shogi).is_err(), "a broken board");
        // PI with pieces taken off: the rook handicap.
        let l = load("PI82HI\n-\n-3334FU\n", Kind::Shogi).unwrap();
        assert_eq!(
            l.start.as_deref(),
            Some("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
        );
        assert_eq!(l.moves, vec!["3c3d"]);
        assert!(load("PI55HI\n-\n", Kind::Shogi).is_err(), "no rook there");
    }

    #[test]
    fn handicaps_placed_pieces_and_set_up_stones() {
        // KIF's handicaps without a diagram: the giver (gote) moves first.
        let kif = "手合割：二枚落ち\n手数----指手---------消費時間--\n   1 ６二銀(71)\n   2 ７六歩(77)\n   3 投了\n";
        let l = load(kif, Kind::Shogi).unwrap();
        assert_eq!(
            l.start.as_deref(),
            Some("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
        );
        assert_eq!(l.moves, vec!["7a6b", "7g7f"]);
        let l = load("手合割：香落ち\n   1 ３四歩(33)\n", Kind::Shogi).unwrap();
        assert!(l.start.unwrap().starts_with("lnsgkgsn1/1r5b1/"));
        assert!(load("手合割：九枚落ち\n   1 ３四歩(33)\n", Kind::Shogi).is_err());
        // CSA: pieces placed with P+/P- on an empty board, AL the rest.
        let csa = "P-11OU\nP+59OU58KI\nP+00AL\n+\n+5848KI\n";
        let l = load(csa, Kind::Shogi).unwrap();
        assert_eq!(
            l.start.as_deref(),
            Some("8k/9/9/9/9/9/9/4G4/4K4 b 2R2B3G4S4N4L18P 1")
        );
        assert_eq!(l.moves, vec!["5h4h"]);
        // SGF set-up stones, played as the first moves.
        let l = load("(;GM[4]SZ[15]AB[hh][ii]AW[hi];W[jj])", Kind::Chess).unwrap();
        assert_eq!(l.moves, vec!["7,7", "7,8", "8,8", "9,9"]);
        let l = load("(;GM[1]SZ[9]HA[2]AB[cc][gg];W[ee])", Kind::Chess).unwrap();
        assert_eq!(l.moves, vec!["C7", "pass", "G3", "E5"]);
        let l = load("(;GM[1]SZ[9]AB[cc]PL[B];B[ee])", Kind::Chess).unwrap();
        assert_eq!(l.moves, vec!["C7", "pass", "E5"]);
        assert!(load("(;GM[4]SZ[15]AW[hh][ii])", Kind::Chess).is_err());
        // SGF variations: the first child is the main line.
        let l = load(
            "(;GM[1]SZ[9];B[ee](;W[cc];B[gg])(;W[gc](;B[cg])))",
            Kind::Chess,
        )
        .unwrap();
        assert_eq!(l.moves, vec!["E5", "C7", "G3"]);
        assert_eq!(
            l.side,
            vec![
                (Pos::Main(1), "G7".to_string()),
                (Pos::Side(0), "C3".to_string())
            ]
        );
        // PGN variations, nested, with comments and NAGs around them.
        let pgn = "[Event \"x\"]\n\n1. e4 {best} e5 $1 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3! *\n";
        let l = load(pgn, Kind::Chess).unwrap();
        assert_eq!(l.moves, vec!["e2e4", "e7e5", "g1f3"]);
        assert_eq!(
            l.side,
            vec![
                (Pos::Main(1), "c7c5".to_string()),
                (Pos::Side(0), "g1f3".to_string()),
                (Pos::Side(0), "c2c3".to_string()),
                (Pos::Side(1), "d7d6".to_string()),
            ]
        );
        for bad in [
            "1. e4 (e5",
            "1. e4 e5) 2. Nf3",
            "(1. e4)",
            "1. e4 (1. d4 d5 *) e5",
        ] {
            assert!(load(bad, Kind::Chess).is_err(), "{bad}");
        }
    }
}
