//! Variations written into saved records, in each format's usual form,
//! after the arena's writer (the main line) and the engine comments:
//!
//! - PGN: recursive annotation variations, `1. e4 e5 (1... c5 2. Nf3) 2.
//!   Nf3`, each after the move it stands beside (and that move's
//!   comments).
//! - SGF: sibling nodes, `;B[dd](;W[pp];B[dp])(;W[dp])`: the main line
//!   is the first child at every branch.
//! - KIF: Kakinoki's `変化：N手` blocks after the main line (a `+` ends
//!   each move line that has an alternative), the latest branch first so
//!   that every block branches from the line read just before it.
//! - CSA has no variations: the main line only.

use crate::comments::Game;
use crate::games::{self, Kind};
use crate::variations::{Pos, SideNode, Variations};
use std::fmt::Write as _;

/// Adds the variations to a record written in `format`.
pub(crate) fn write(g: &Game<'_>, vars: &Variations, format: &str, text: &str) -> String {
    if vars.is_empty() {
        return text.to_string();
    }
    match format {
        "pgn" => pgn(g, vars, text),
        "sgf" => sgf(g, vars, text),
        "kif" => kif(g, vars, text),
        _ => text.to_string(),
    }
}

/// PGN's move number and whether the first side (White, Red) moves,
/// before the move made after `ply` moves from the start (a FEN's side to
/// move and move number count).
fn pgn_number(start: Option<&str>, ply: usize) -> (usize, bool) {
    let fields: Vec<&str> = start
        .map(|s| s.split_whitespace().collect())
        .unwrap_or_default();
    let second_starts = fields.get(1).is_some_and(|s| *s == "b");
    let first_no: usize = fields
        .get(5)
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let q = ply + usize::from(second_starts);
    (first_no + q / 2, q.is_multiple_of(2))
}

/// The moves of the variation that starts with `v` (and its own
/// variations, in parentheses), as movetext words.
fn pgn_line(g: &Game<'_>, vars: &Variations, v: &SideNode) -> Vec<String> {
    let mut out = Vec::new();
    let mut numbered = true;
    let push = |out: &mut Vec<String>, n: &SideNode, numbered: &mut bool| {
        let (no, first) = pgn_number(g.start, n.ply - 1);
        if first {
            out.push(format!("{no}."));
        } else if *numbered {
            out.push(format!("{no}..."));
        }
        *numbered = false;
        out.push(n.entry.record.clone());
    };
    push(&mut out, v, &mut numbered);
    let mut cur = v;
    loop {
        let kids: Vec<&SideNode> = vars.children(Pos::Side(cur.id)).collect();
        let Some(&next) = kids.first() else { break };
        push(&mut out, next, &mut numbered);
        for alt in &kids[1..] {
            out.extend(parenthesised(pgn_line(g, vars, alt)));
            numbered = true;
        }
        cur = next;
    }
    out
}

fn parenthesised(mut words: Vec<String>) -> Vec<String> {
    if let Some(w) = words.first_mut() {
        w.insert(0, '(');
    }
    if let Some(w) = words.last_mut() {
        w.push(')');
    }
    words
}

fn pgn(g: &Game<'_>, vars: &Variations, text: &str) -> String {
    let Some(split) = text.find("\n\n") else {
        return text.to_string();
    };
    let (head, body) = text.split_at(split + 2);
    let tokens = crate::comments::pgn_tokens(body);
    let mut out: Vec<String> = Vec::new();
    // The main move just written (its index), until its comments are.
    let mut pending: Option<usize> = None;
    let mut k = 0;
    let flush = |out: &mut Vec<String>, at: usize, next_is_move: bool| {
        let alts: Vec<&SideNode> = vars.children(Pos::Main(at)).collect();
        for alt in &alts {
            out.extend(parenthesised(pgn_line(g, vars, alt)));
        }
        // The main line goes on with its number again after a variation.
        let (no, first) = pgn_number(g.start, at + 1);
        if !alts.is_empty() && next_is_move && !first && at + 1 < g.moves.len() {
            out.push(format!("{no}..."));
        }
    };
    let result_word = |t: &str| matches!(t, "*" | "1-0" | "0-1" | "1/2-1/2");
    for (i, t) in tokens.iter().enumerate() {
        let t = t.clone();
        // The comment right before the result is the game's ending, not
        // the last move's.
        let ending = t.starts_with('{') && tokens.get(i + 1).is_some_and(|n| result_word(n));
        let is_comment = t.starts_with('{') && !ending;
        let is_number = t.starts_with(|c: char| c.is_ascii_digit()) && t.ends_with('.');
        let is_result = result_word(&t) || ending;
        if let Some(at) = pending.filter(|_| !is_comment) {
            flush(&mut out, at, !is_number && !is_result);
            pending = None;
        }
        if !is_comment && !is_number && !is_result && k < g.moves.len() {
            pending = Some(k);
            k += 1;
        }
        out.push(t);
    }
    if let Some(at) = pending {
        flush(&mut out, at, false);
    }
    let mut s = head.to_string();
    tengen_arena::games::chess::push_movetext(&mut s, out);
    s
}

/// An SGF move node (`;B[dd]`, `;W[]` for a pass).
fn sgf_node(g: &Game<'_>, n: &SideNode) -> String {
    let colour = if (n.ply - 1).is_multiple_of(2) {
        'B'
    } else {
        'W'
    };
    let point = games::spot(g.kind, &n.entry.wire, g.size)
        .and_then(|s| s.vertex)
        .filter(|_| !(g.kind == Kind::Go && n.entry.wire == "pass"))
        .map(|[x, y]| {
            let c = |v: u32| char::from(b'a' + v as u8);
            format!("{}{}", c(x), c(y))
        })
        .unwrap_or_default();
    format!(";{colour}[{point}]")
}

/// The variation that starts with `v` as an SGF game tree.
fn sgf_line(g: &Game<'_>, vars: &Variations, v: &SideNode) -> String {
    let mut s = format!("({}", sgf_node(g, v));
    let mut cur = v;
    loop {
        let kids: Vec<&SideNode> = vars.children(Pos::Side(cur.id)).collect();
        match kids.as_slice() {
            [] => break,
            [only] => {
                s.push_str(&sgf_node(g, only));
                cur = only;
            }
            many => {
                for k in many {
                    s.push_str(&sgf_line(g, vars, k));
                }
                break;
            }
        }
    }
    s.push(')');
    s
}

fn sgf(g: &Game<'_>, vars: &Variations, text: &str) -> String {
    let mut s = text.to_string();
    // Move nodes begin "\n;" (the arena's writer); from the last branch,
    // so earlier offsets stay good.
    let starts: Vec<usize> = s.match_indices("\n;").map(|(i, _)| i).collect();
    for p in (0..g.moves.len()).rev() {
        let alts: Vec<&SideNode> = vars.children(Pos::Main(p)).collect();
        let (Some(&at), false) = (starts.get(p), alts.is_empty()) else {
            continue;
        };
        let Some(end) = s.rfind(')') else {
            return text.to_string();
        };
        let mut tail = String::from(")");
        for a in alts {
            tail.push_str(&sgf_line(g, vars, a));
        }
        s.insert_str(end, &tail);
        s.insert(at + 1, '(');
    }
    s
}

/// KIF's move text for a side node: the page's Japanese without the
/// side's mark, `同` followed by a wide space as KIF writes it.
fn kif_text(n: &SideNode) -> String {
    let t = n.entry.text.trim_start_matches(['▲', '△', '☗', '☖']);
    match t.strip_prefix('同') {
        Some(rest) if !rest.starts_with('　') => format!("同　{rest}"),
        _ => t.to_string(),
    }
}

/// One `変化：N手` block for the variation starting with `v`, then the
/// blocks of the variations off it, the latest branch first.
fn kif_block(vars: &Variations, v: &SideNode, out: &mut String) {
    let mut line = vec![v];
    let mut cur = v;
    while let Some(next) = vars.children(Pos::Side(cur.id)).next() {
        line.push(next);
        cur = next;
    }
    let _ = writeln!(out, "\n変化：{}手", v.ply);
    for (i, n) in line.iter().enumerate() {
        // A `+`: another move stands beside this one.
        let beside = match i {
            0 => false,
            _ => vars.children(Pos::Side(line[i - 1].id)).count() > 1,
        };
        let _ = writeln!(
            out,
            "{:>4} {}   ( 0:00/00:00:00){}",
            n.ply,
            kif_text(n),
            if beside { "+" } else { "" }
        );
    }
    for i in (1..line.len()).rev() {
        for alt in vars.children(Pos::Side(line[i - 1].id)).skip(1) {
            kif_block(vars, alt, out);
        }
    }
}

fn kif(g: &Game<'_>, vars: &Variations, text: &str) -> String {
    let mut out = String::new();
    // The main line's move lines, with a `+` where a variation stands
    // beside the move.
    let mut k = 0;
    for l in text.lines() {
        out.push_str(l);
        if crate::comments::is_kif_move(l) {
            if vars.children(Pos::Main(k)).next().is_some() {
                out.push('+');
            }
            k += 1;
        }
        out.push('\n');
    }
    for p in (0..g.moves.len()).rev() {
        for alt in vars.children(Pos::Main(p)) {
            kif_block(vars, alt, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::MoveEntry;
    use std::collections::{BTreeMap, BTreeSet};
    use tengen_arena::variant::make_referee;

    /// A move at the end of `before`, as the hub makes it.
    fn entry(kind: Kind, size: u32, before: &[String], wire: &str) -> MoveEntry {
        let mut r = make_referee(&kind.variant(size, 7.5)).unwrap();
        r.reset(None).unwrap();
        for w in before {
            r.play(w).unwrap();
        }
        let record = r.play(wire).unwrap();
        let text = crate::notation::texts(kind, None, before, &[wire.to_string()])
            .pop()
            .unwrap();
        MoveEntry::plain(wire, text, record)
    }

    /// A main line and variations given as paths of wire moves (each
    /// path's last move is the side move; its earlier ones lead there).
    fn tree(
        kind: Kind,
        size: u32,
        main: &[&str],
        paths: &[&[&str]],
    ) -> (Vec<MoveEntry>, Variations) {
        let mut moves = Vec::new();
        let mut before: Vec<String> = Vec::new();
        for w in main {
            moves.push(entry(kind, size, &before, w));
            before.push(w.to_string());
        }
        let mut v = Variations::default();
        for path in paths {
            // Follow the path: main moves first, then side moves.
            let mut at = Pos::Main(0);
            for (i, w) in path.iter().enumerate() {
                let before: Vec<String> = path[..i].iter().map(|s| s.to_string()).collect();
                let next = match at {
                    Pos::Main(p) if moves.get(p).is_some_and(|m| m.wire == *w) => Pos::Main(p + 1),
                    _ => {
                        let found = v.children(at).find(|n| n.entry.wire == *w).map(|n| n.id);
                        match found {
                            Some(id) => Pos::Side(id),
                            None => Pos::Side(v.add(at, entry(kind, size, &before, w), i + 1)),
                        }
                    }
                };
                at = next;
            }
        }
        (moves, v)
    }

    fn paths_of(moves: &[MoveEntry], v: &Variations) -> BTreeSet<String> {
        v.nodes()
            .iter()
            .map(|n| v.wires(moves, Pos::Side(n.id)).unwrap().join(" "))
            .collect()
    }

    /// Writes the record (the arena's writer, the comments, the
    /// variations) and reads it back.
    fn round_trip(
        kind: Kind,
        size: u32,
        moves: &[MoveEntry],
        v: &Variations,
        format: &str,
    ) -> String {
        let notes = BTreeMap::new();
        let text = crate::comments::tests::round_trip(kind, size, moves, &notes, format);
        let g = Game {
            kind,
            size,
            start: None,
            moves,
            notes: &notes,
        };
        let text = write(&g, v, format, &text);
        let back = crate::records::load(&text, kind).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let wires: Vec<String> = moves.iter().map(|m| m.wire.clone()).collect();
        assert_eq!(back.moves, wires, "{text}");
        let read: BTreeSet<String> = (0..back.side.len())
            .map(|k| {
                crate::records::tree_wires(&back.moves, &back.side, Pos::Side(k as u32)).join(" ")
            })
            .collect();
        assert_eq!(read, paths_of(moves, v), "{text}");
        text
    }

    #[test]
    fn variations_go_into_pgn_sgf_kif_and_read_back() {
        // 1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 (2. d4) Nc6
        let (moves, v) = tree(
            Kind::Chess,
            0,
            &["e2e4", "e7e5", "g1f3", "b8c6"],
            &[
                &["e2e4", "c7c5", "g1f3", "d7d6"],
                &["e2e4", "c7c5", "c2c3"],
                &["e2e4", "e7e5", "d2d4"],
                &["d2d4"],
            ],
        );
        let pgn = round_trip(Kind::Chess, 0, &moves, &v, "pgn");
        let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in [
            "1. e4 {0.000s} (1. d4) 1... e5",
            "1... e5 {0.000s} (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3",
            "2. Nf3 {0.000s} (2. d4) 2... Nc6 {0.000s} {aborted: the game goes on} *",
        ] {
            assert!(flat.contains(part), "{part}\n{pgn}");
        }

        // Go: a pass and a nested variation.
        let (moves, v) = tree(
            Kind::Go,
            9,
            &["E5", "C3", "G7"],
            &[
                &["E5", "pass", "C7"],
                &["E5", "pass", "D4"],
                &["E5", "C3", "G3"],
            ],
        );
        let sgf = round_trip(Kind::Go, 9, &moves, &v, "sgf");
        assert!(sgf.contains("(;W[cg]"), "{sgf}");
        assert!(sgf.contains("(;W[](;B[cc])(;B[df]))"), "{sgf}");

        // Shogi: KIF blocks, the latest branch first, 同 in a variation.
        let (moves, v) = tree(
            Kind::Shogi,
            0,
            &["7g7f", "3c3d", "8h2b+", "3a2b"],
            &[
                &["7g7f", "3c3d", "8h2b+", "3a2b"],
                &["7g7f", "3c3d", "2g2f", "8c8d"],
                &["7g7f", "3c3d", "2g2f", "4a3b"],
                &["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"],
                &["7g7f", "3c3d", "2g2f", "8c8d", "6i7h"],
                &["7g7f", "3c3d", "8h2b+", "8b2b"],
                &["2g2f"],
            ],
        );
        let kif = round_trip(Kind::Shogi, 0, &moves, &v, "kif");
        assert!(kif.contains("変化：4手\n   4 同　飛(82)"), "{kif}");
        assert!(kif.contains("   1 ７六歩(77)   ( 0:00/00:00:00)+"), "{kif}");
        let latest = kif.find("変化：4手").unwrap();
        assert!(
            latest < kif.find("変化：3手").unwrap()
                && kif.find("変化：3手").unwrap() < kif.find("変化：1手").unwrap(),
            "{kif}"
        );
    }
}
