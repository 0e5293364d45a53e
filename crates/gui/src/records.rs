//! Game records in and out. Saving uses the arena's record writers (PGN
//! for chess and xiangqi, CSA or KIF for shogi, SGF for Go and gomoku);
//! loading reads a pasted text, finding its format and game by its look:
//! PGN, FEN, SFEN (or a USI `position` line), CSA, SGF. Every move read is
//! then played through the referee like a move from the board.

use crate::games::Kind;
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
    if t.lines()
        .any(|l| l.starts_with("PI") || l.starts_with("P1") || l.starts_with("V2"))
        || t.lines().any(|l| is_csa_move(l.trim()))
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
    let book = openings::parse(t, &spec, 0, 0, "the pasted PGN")?;
    let game = book.into_iter().next().ok_or("the PGN holds no game")?;
    // SAN (chess) or ICCS (xiangqi, maybe as `H2-E2`) to wire moves.
    let mut referee = make_referee(&kind.variant(0, 7.5))?;
    referee.reset(game.start.as_deref())?;
    let mut moves = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        let m = if kind == Kind::Xiangqi {
            m.to_ascii_lowercase().replace('-', "")
        } else {
            m.clone()
        };
        let wire = referee
            .wire_from_record(&m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        referee
            .play(&wire)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        moves.push(wire);
    }
    Ok(Loaded {
        kind,
        start: game.start,
        moves,
        size: 0,
    })
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

/// A CSA set-up position (`P1`..`P9` rows of three-character cells,
/// `P+`/`P-` pieces in hand, then `+` or `-` for the side to move) as an
/// SFEN; `None` when the record has no such rows (`PI` or nothing: the
/// standard start).
fn csa_start(t: &str) -> Result<Option<String>, String> {
    let lines: Vec<&str> = t
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with('\''))
        .collect();
    if lines
        .iter()
        .any(|l| l.starts_with("PI") && l.trim_end().len() > 2)
    {
        return Err("CSA handicaps (PI with pieces taken off) are not read yet".into());
    }
    if !lines.iter().any(|l| l.starts_with("P1")) {
        return Ok(None);
    }
    let mut ranks = Vec::new();
    for r in 1..=9 {
        let row = lines
            .iter()
            .find_map(|l| l.strip_prefix(&format!("P{r}")))
            .ok_or_else(|| format!("CSA position: no row P{r}"))?;
        let cells: Vec<char> = row.chars().collect();
        if cells.len() < 27 {
            return Err(format!("CSA position: row P{r} has fewer than 9 squares"));
        }
        let mut rank = String::new();
        let mut empty = 0;
        for cell in cells.chunks(3).take(9) {
            let cell: String = cell.iter().collect();
            if cell.trim() == "*" {
                empty += 1;
                continue;
            }
            let sente = match cell.chars().next() {
                Some('+') => true,
                Some('-') => false,
                _ => return Err(format!("CSA position: '{cell}' in row P{r}")),
            };
            let piece = csa_piece_sfen(&cell[1..], sente)
                .ok_or_else(|| format!("CSA position: '{cell}' in row P{r}"))?;
            if empty > 0 {
                rank.push_str(&empty.to_string());
                empty = 0;
            }
            rank.push_str(&piece);
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    // Hands in SFEN order, counted.
    let mut hand: Vec<(char, u32)> = Vec::new();
    for l in &lines {
        let (sente, rest) = match (l.strip_prefix("P+"), l.strip_prefix("P-")) {
            (Some(r), _) => (true, r),
            (_, Some(r)) => (false, r),
            _ => continue,
        };
        if !rest.is_ascii() {
            return Err("CSA position: a broken hand line".into());
        }
        for i in (0..rest.len()).step_by(4) {
            let item = rest
                .get(i..i + 4)
                .ok_or("CSA position: a broken hand line")?;
            if &item[..2] != "00" {
                return Err(format!(
                    "CSA position: P{} pieces on the board are not read",
                    if sente { '+' } else { '-' }
                ));
            }
            if &item[2..] == "AL" {
                return Err("CSA position: `AL` (all the rest in hand) is not read".into());
            }
            let p = csa_piece_sfen(&item[2..], sente)
                .filter(|p| p.len() == 1 && !p.eq_ignore_ascii_case("k"))
                .ok_or_else(|| format!("CSA position: cannot hold '{}'", &item[2..]))?;
            let c = p.chars().next().unwrap_or('P');
            match hand.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => hand.push((c, 1)),
            }
        }
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
    let side = match lines.iter().find(|l| **l == "+" || **l == "-") {
        Some(&"-") => "w",
        _ => "b",
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

/// KIF (Kakinoki): the move lines, from the even game (`手合割：平手`, or
/// no 手合割) or from a board diagram. The page decodes Shift_JIS files
/// before they come here.
fn kif(t: &str) -> Result<Loaded, String> {
    let start = kif_start(t)?;
    if start.is_none()
        && t.lines()
            .any(|l| l.starts_with("手合割") && !l.contains("平手"))
    {
        return Err("KIF records with a handicap and no board diagram are not read yet".into());
    }
    const WIDE: &str = "１２３４５６７８９";
    const HAN: &str = "一二三四五六七八九";
    let mut g = match &start {
        Some(sfen) => {
            tengen_shogi::Game::from_usi(sfen, &[]).map_err(|e| format!("KIF board {sfen}: {e}"))?
        }
        None => tengen_shogi::Game::startpos(),
    };
    let mut moves: Vec<String> = Vec::new();
    let mut last_to: Option<(usize, usize)> = None;
    for line in t.lines() {
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
                    // 投了, 中断...: the game ends here.
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
            .map_err(|e| format!("KIF move {} '{text}': {e}", moves.len() + 1))?;
        g.play(mv);
        moves.push(wire);
        last_to = Some(to);
    }
    if moves.is_empty() {
        return Err("the KIF record has no moves".into());
    }
    Ok(Loaded {
        kind: Kind::Shogi,
        start,
        moves,
        size: 0,
    })
}

/// SGF for Go (`GM[1]`, or none) and gomoku (`GM[4]`; `RU[renju]`).
fn sgf(t: &str) -> Result<Loaded, String> {
    let rec = tengen_go::sgf::parse(t)?;
    let root = rec.nodes.first().ok_or("the SGF has no nodes")?;
    let prop = |k: &str| {
        root.iter()
            .find(|(n, _)| n == k)
            .and_then(|(_, v)| v.first().cloned())
    };
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
    if root.iter().any(|(n, _)| n == "AB" || n == "AW") {
        return Err("SGF set-up stones (AB/AW) are not read yet".into());
    }
    let mut moves = Vec::new();
    for node in &rec.nodes {
        for (name, values) in node {
            if name != "B" && name != "W" {
                continue;
            }
            let v = values.first().map(|s| s.trim()).unwrap_or("");
            let b = v.as_bytes();
            if v.is_empty() || (v == "tt" && size <= 19) {
                if kind == Kind::Go {
                    moves.push("pass".to_string());
                    continue;
                }
                return Err("a pass in a gomoku record".into());
            }
            if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
                return Err(format!("bad SGF point {name}[{v}]"));
            }
            let (x, y) = ((b[0] - b'a') as u32, (b[1] - b'a') as u32);
            let wire = crate::games::wire_of_vertex(kind, x, y, size)
                .ok_or_else(|| format!("{name}[{v}] is off the {size}x{size} board"))?;
            moves.push(wire);
        }
    }
    Ok(Loaded {
        kind,
        start: None,
        moves,
        size,
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
        assert!(
            load("PI82HI\n+\n+7776FU\n", Kind::Shogi).is_err(),
            "a handicap"
        );
    }
}
