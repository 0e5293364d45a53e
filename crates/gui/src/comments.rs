//! Engine lines written into saved records, in each format's usual form.
//! The arena's writers give the record (moves, times, the engine's score
//! and depth where the format has them); this adds, per move, the
//! engine's principal variation for that move and, per position, the
//! analysis line shown for it:
//!
//! - PGN: the PV in SAN inside the move's comment (`{+0.31/12 0.52s e4
//!   e5 Nf3}`: from the position before the move, so it starts with the
//!   move), and the analysis as a comment of its own after the move
//!   (`{tengen analysis +0.25/14: e5 Nf3 Nc6}`, from the position after).
//! - CSA: Floodgate's `'** <score> <moves>` lines after the move (the
//!   score in centipawns from sente's view, mates as ±(100000 − plies);
//!   the moves in CSA from the position after the move, so the engine's
//!   own move is left out), as Shogidokoro and ShogiHome read them.
//! - KIF: ShogiGUI's one-line comments: `**対局 時間 … 深さ … 評価値 …
//!   読み筋 ▲…` for an engine's move (the PV from its move on) and
//!   `**解析 0 候補1 深さ … ノード … 評価値 … 読み筋 …` for the analysis of
//!   the position after the move; scores from sente's view, mates as
//!   `詰 N` / `-詰 N`.
//! - SGF: a new line in the node's `C[]`.
//!
//! Comments before the first move hold the analysis of the start.

use crate::games::Kind;
use crate::msg::{Line, MoveEntry};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use tengen_arena::variant::make_referee;
use tengen_protocol::host::EngineScore;

/// The analysis line shown for a position of the game (the best one).
#[derive(Clone, Debug)]
pub(crate) struct Note {
    pub engine: String,
    pub line: Line,
    /// Whether the first side is to move in that position.
    pub first_to_move: bool,
}

/// The game to annotate.
pub(crate) struct Game<'a> {
    pub kind: Kind,
    pub size: u32,
    pub start: Option<&'a str>,
    pub moves: &'a [MoveEntry],
    pub notes: &'a BTreeMap<usize, Note>,
}

impl Game<'_> {
    fn wires(&self, ply: usize) -> Vec<String> {
        self.moves[..ply].iter().map(|m| m.wire.clone()).collect()
    }

    /// `pv` from the position after `ply` moves in the record's notation
    /// (the referee's), as far as its moves are legal.
    fn record_line(&self, ply: usize, pv: &[String]) -> Vec<String> {
        let Ok(mut r) = make_referee(&self.kind.variant(self.size, 7.5)) else {
            return Vec::new();
        };
        if r.reset(self.start).is_err() {
            return Vec::new();
        }
        for m in &self.moves[..ply] {
            if r.play(&m.wire).is_err() {
                return Vec::new();
            }
        }
        pv.iter().map_while(|m| r.play(m).ok()).collect()
    }

    /// `pv` from the position after `ply` moves for people (KIF's
    /// Japanese moves), as far as its moves are legal.
    fn shown_line(&self, ply: usize, pv: &[String]) -> Vec<String> {
        let legal = self.record_line(ply, pv).len();
        crate::notation::texts(self.kind, self.start, &self.wires(ply), &pv[..legal])
    }

    /// The engine's PV for move `k` (1-based), when it starts with the
    /// move played.
    fn move_pv(&self, k: usize) -> Option<&[String]> {
        let m = &self.moves[k - 1];
        (m.pv.len() > 1 && m.pv[0] == m.wire).then_some(&m.pv[..])
    }
}

/// A score in centipawns from the first side's view (mates as
/// ±(100000 − plies)), given the side the engine spoke for.
fn first_cp(s: EngineScore, first_spoke: bool) -> i64 {
    let own = match s {
        EngineScore::Cp(c) => i64::from(c),
        EngineScore::Mate(m) if m > 0 => 100_000 - i64::from(m),
        EngineScore::Mate(m) => -100_000 - i64::from(m),
    };
    if first_spoke {
        own
    } else {
        -own
    }
}

fn line_score(line: &Line) -> Option<EngineScore> {
    let s = line.score.as_ref()?;
    match (s.mate, s.cp) {
        (Some(m), _) => Some(EngineScore::Mate(m)),
        (None, Some(c)) => Some(EngineScore::Cp(c)),
        _ => None,
    }
}

/// PGN's score: pawns from White's view, `+M3` for mates.
fn pgn_score(s: EngineScore, white_spoke: bool) -> String {
    match s {
        EngineScore::Cp(c) => {
            let c = if white_spoke { c } else { -c };
            format!(
                "{}{:.2}",
                if c >= 0 { "+" } else { "-" },
                f64::from(c.unsigned_abs()) / 100.0
            )
        }
        EngineScore::Mate(n) => {
            let n = if white_spoke { n } else { -n };
            format!("{}M{}", if n >= 0 { "+" } else { "-" }, n.unsigned_abs())
        }
    }
}

/// KIF's 評価値 from sente's view.
fn kif_score(s: EngineScore, sente_spoke: bool) -> String {
    match s {
        EngineScore::Cp(c) => (if sente_spoke { c } else { -c }).to_string(),
        EngineScore::Mate(n) => {
            let sente_mates = (n > 0) == sente_spoke;
            format!(
                "{}詰 {}",
                if sente_mates { "" } else { "-" },
                n.unsigned_abs()
            )
        }
    }
}

/// Adds the engines' lines to a record the arena wrote in `format`.
pub(crate) fn annotate(g: &Game<'_>, format: &str, text: &str) -> String {
    match format {
        "pgn" => pgn(g, text),
        "csa" => csa(g, text),
        "kif" => kif(g, text),
        "sgf" => sgf(g, text),
        _ => text.to_string(),
    }
}

/// Movetext tokens; a `{...}` comment is one token.
pub(crate) fn pgn_tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '{' {
            let mut t = String::new();
            for c in chars.by_ref() {
                t.push(c);
                if c == '}' {
                    break;
                }
            }
            out.push(t);
        } else {
            let mut t = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '{' {
                    break;
                }
                t.push(c);
                chars.next();
            }
            out.push(t);
        }
    }
    out
}

fn pgn_comment(s: &str) -> String {
    format!("{{{}}}", s.replace(['{', '}'], ""))
}

fn pgn(g: &Game<'_>, text: &str) -> String {
    // Tags, a blank line, the movetext (one game).
    let Some(split) = text.find("\n\n") else {
        return text.to_string();
    };
    let (head, body) = text.split_at(split + 2);
    let analysis = |ply: usize| -> Option<String> {
        let n = g.notes.get(&ply)?;
        let line = g.record_line(ply, &n.line.pv);
        let score = line_score(&n.line)
            .map(|s| pgn_score(s, n.first_to_move))
            .unwrap_or_default();
        let depth = n.line.depth.map(|d| format!("/{d}")).unwrap_or_default();
        Some(pgn_comment(&format!(
            "{} analysis {score}{depth}: {}",
            n.engine,
            line.join(" ")
        )))
    };
    let mut out: Vec<String> = Vec::new();
    out.extend(analysis(0));
    let mut k = 0;
    let mut pending = false;
    for t in pgn_tokens(body) {
        let is_move = !t.starts_with('{')
            && !t.starts_with(|c: char| c.is_ascii_digit())
            && !matches!(t.as_str(), "*" | "1-0" | "0-1" | "1/2-1/2");
        let is_comment = t.starts_with('{');
        if pending && !is_comment {
            // A move without a comment of its own.
            out.extend(analysis(k));
            pending = false;
        }
        if is_comment && pending {
            pending = false;
            let mut c = t.trim_end_matches('}').to_string();
            if let Some(pv) = g.move_pv(k) {
                let line = g.record_line(k - 1, pv);
                if !line.is_empty() {
                    let _ = write!(c, " {}", line.join(" "));
                }
            }
            c.push('}');
            out.push(c);
            out.extend(analysis(k));
            continue;
        }
        if is_move && k < g.moves.len() {
            k += 1;
            pending = true;
        }
        out.push(t);
    }
    if pending {
        out.extend(analysis(k));
    }
    let mut s = head.to_string();
    tengen_arena::games::chess::push_movetext(&mut s, out);
    s
}

fn is_csa_move(l: &str) -> bool {
    let b = l.as_bytes();
    b.len() == 7
        && (b[0] == b'+' || b[0] == b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
}

/// Inserts each ply's comment lines after the line that ends that ply
/// (`ends[k]`: the index of the last line of move `k`, or of the header
/// for the start).
fn insert_lines(lines: &[&str], ends: &[usize], comments: &BTreeMap<usize, Vec<String>>) -> String {
    let mut at: BTreeMap<usize, &Vec<String>> = BTreeMap::new();
    for (k, c) in comments {
        if let Some(&i) = ends.get(*k) {
            at.insert(i, c);
        }
    }
    let mut s = String::new();
    for (i, l) in lines.iter().enumerate() {
        s.push_str(l);
        s.push('\n');
        for c in at.get(&i).into_iter().flat_map(|v| v.iter()) {
            s.push_str(c);
            s.push('\n');
        }
    }
    s
}

fn csa(g: &Game<'_>, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    // The line each ply ends on: the start's side line (`+`/`-`) before
    // the first move, then each move's time line.
    let mut ends = Vec::new();
    let first = lines.iter().position(|l| is_csa_move(l));
    let header = match first {
        Some(i) => i.saturating_sub(1),
        None => lines
            .iter()
            .position(|l| l.starts_with('%'))
            .map_or(lines.len().saturating_sub(1), |i| i.saturating_sub(1)),
    };
    ends.push(header);
    for (i, l) in lines.iter().enumerate() {
        if is_csa_move(l) {
            let t = lines.get(i + 1).is_some_and(|n| n.starts_with('T'));
            ends.push(if t { i + 1 } else { i });
        }
    }
    let sente_first = g
        .start
        .and_then(|f| f.split_whitespace().nth(1))
        .is_none_or(|s| s != "w");
    let floodgate = |ply: usize, score: Option<EngineScore>, sente_spoke: bool, pv: &[String]| {
        let moves = g.record_line(ply, pv);
        let cp = score.map_or(0, |s| first_cp(s, sente_spoke));
        format!("'** {cp} {}", moves.join(" "))
            .trim_end()
            .to_string()
    };
    let mut comments: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for k in 0..=g.moves.len() {
        let mut c = Vec::new();
        if k >= 1 {
            let m = &g.moves[k - 1];
            if let Some(pv) = g.move_pv(k) {
                // Floodgate: the line after the engine's own move.
                let sente_moved = (k - 1).is_multiple_of(2) == sente_first;
                c.push(floodgate(k, m.score, sente_moved, &pv[1..]));
            }
        }
        if let Some(n) = g.notes.get(&k) {
            c.push(floodgate(
                k,
                line_score(&n.line),
                n.first_to_move,
                &n.line.pv,
            ));
        }
        if !c.is_empty() {
            comments.insert(k, c);
        }
    }
    insert_lines(&lines, &ends, &comments)
}

/// A KIF move line: `   1 ７六歩(77)   ( 0:00/00:00:00)`.
pub(crate) fn is_kif_move(l: &str) -> bool {
    let t = l.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && t[digits..]
            .trim_start()
            .starts_with(|c: char| "１２３４５６７８９同".contains(c))
}

fn kif(g: &Game<'_>, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(header) = lines.iter().position(|l| l.starts_with("手数")) else {
        return text.to_string();
    };
    let mut ends = vec![header];
    ends.extend(
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| is_kif_move(l))
            .map(|(i, _)| i),
    );
    let mut comments: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for k in 0..=g.moves.len() {
        let mut c = Vec::new();
        if k >= 1 {
            let m = &g.moves[k - 1];
            if let Some(pv) = g.move_pv(k) {
                let sente_spoke = (k - 1).is_multiple_of(2);
                let secs = m.elapsed_ms as f64 / 1000.0;
                let mut s = format!(
                    "**対局 時間 {:02}:{:04.1}",
                    (secs / 60.0).floor() as u64,
                    secs % 60.0
                );
                if let Some(d) = m.depth {
                    let _ = write!(s, " 深さ {d}");
                }
                if let Some(sc) = m.score {
                    let _ = write!(s, " 評価値 {}", kif_score(sc, sente_spoke));
                }
                let _ = write!(s, " 読み筋 {}", g.shown_line(k - 1, pv).join(" "));
                c.push(s);
            }
        }
        if let Some(n) = g.notes.get(&k) {
            let mut s = "**解析 0 候補1".to_string();
            if let Some(d) = n.line.depth {
                let _ = write!(s, " 深さ {d}");
            }
            if let Some(nodes) = n.line.nodes {
                let _ = write!(s, " ノード {nodes}");
            }
            if let Some(sc) = line_score(&n.line) {
                let _ = write!(s, " 評価値 {}", kif_score(sc, n.first_to_move));
            }
            let _ = write!(s, " 読み筋 {}", g.shown_line(k, &n.line.pv).join(" "));
            let _ = write!(s, " ({})", n.engine);
            c.push(s);
        }
        if !c.is_empty() {
            comments.insert(k, c);
        }
    }
    insert_lines(&lines, &ends, &comments)
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn sgf(g: &Game<'_>, text: &str) -> String {
    let note_text = |k: usize| -> Option<String> {
        let n = g.notes.get(&k)?;
        let score = match n.line.score.as_ref() {
            Some(s) if s.winrate.is_some() => {
                let w = s.winrate.unwrap_or(0.5) * 100.0;
                match s.lead {
                    Some(l) => format!("{w:.1}% {l:+.1}"),
                    None => format!("{w:.1}%"),
                }
            }
            _ => line_score(&n.line)
                .map(|s| pgn_score(s, true))
                .unwrap_or_default(),
        };
        let visits = n.line.nodes.map(|v| format!(" ({v})")).unwrap_or_default();
        Some(format!(
            "{} analysis {score}{visits}: {}",
            n.engine,
            n.line.pv.join(" ")
        ))
    };
    let move_text = |k: usize| -> Option<String> {
        let m = &g.moves[k - 1];
        let pv = g.move_pv(k)?;
        let score = m.score.map(|s| pgn_score(s, true)).unwrap_or_default();
        let depth = m.depth.map(|d| format!("/{d}")).unwrap_or_default();
        Some(
            format!("{score}{depth} {}", pv.join(" "))
                .trim()
                .to_string(),
        )
    };
    let mut s = text.to_string();
    // Move nodes begin "\n;"; from the last, so offsets stay good.
    let starts: Vec<usize> = s.match_indices("\n;").map(|(i, _)| i).collect();
    for k in (1..=g.moves.len()).rev() {
        let extra: Vec<String> = [move_text(k), note_text(k)].into_iter().flatten().collect();
        if extra.is_empty() {
            continue;
        }
        let Some(&at) = starts.get(k - 1) else {
            continue;
        };
        let end = starts.get(k).copied().unwrap_or(s.len());
        let add = sgf_escape(&extra.join("\n"));
        match s[at..end].find("C[") {
            Some(c) => {
                let close = s[at + c..end].find(']').map(|e| at + c + e);
                if let Some(close) = close {
                    s.insert_str(close, &format!("\n{add}"));
                }
            }
            None => {
                let node_end = s[..end].trim_end().len();
                s.insert_str(node_end, &format!("C[{add}]"));
            }
        }
    }
    if let (Some(t), Some(&first)) = (note_text(0), starts.first()) {
        s.insert_str(first, &format!("C[{}]", sgf_escape(&t)));
    }
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::msg::Score;
    use tengen_arena::record::{Ending, GameRecord, PlayedMove};

    fn entry(wire: &str, record: &str, pv: &[&str]) -> MoveEntry {
        MoveEntry {
            wire: wire.into(),
            text: String::new(),
            record: record.into(),
            score: (!pv.is_empty()).then_some(EngineScore::Cp(-31)),
            depth: (!pv.is_empty()).then_some(9),
            pv: pv.iter().map(|m| m.to_string()).collect(),
            elapsed_ms: 1500,
            book: false,
        }
    }

    fn note(pv: &[&str], first_to_move: bool) -> Note {
        Note {
            engine: "tengen".into(),
            line: Line {
                multipv: 1,
                depth: Some(12),
                score: Some(Score {
                    cp: Some(25),
                    mate: None,
                    winrate: None,
                    lead: None,
                    first_cp: 25,
                }),
                nodes: Some(1000),
                pv: pv.iter().map(|m| m.to_string()).collect(),
                pv_text: String::new(),
                first: None,
            },
            first_to_move,
        }
    }

    /// Writes the record with the arena's writer, annotates it, reads it
    /// back: the same moves. (`tree_records`' tests add the variations.)
    pub(crate) fn round_trip(
        kind: Kind,
        size: u32,
        moves: &[MoveEntry],
        notes: &BTreeMap<usize, Note>,
        format: &str,
    ) -> String {
        let referee = make_referee(&kind.variant(size, 7.5)).unwrap();
        let rec = GameRecord {
            players: ["a".into(), "b".into()],
            start: None,
            moves: moves
                .iter()
                .map(|m| PlayedMove {
                    wire: m.wire.clone(),
                    notation: m.record.clone(),
                    score: m.score,
                    depth: m.depth,
                    elapsed_ms: m.elapsed_ms,
                    book: false,
                })
                .collect(),
            ending: Ending::draw("aborted: the game goes on"),
            round: 1,
            game_no: 1,
            event: "t".into(),
            date: "2026.01.01".into(),
            time_control: "-".into(),
        };
        let text = referee.record_as(&rec, format);
        let g = Game {
            kind,
            size,
            start: None,
            moves,
            notes,
        };
        let out = annotate(&g, format, &text);
        let back = crate::records::load(&out, kind).unwrap();
        let wires: Vec<String> = moves.iter().map(|m| m.wire.clone()).collect();
        assert_eq!(back.moves, wires, "{out}");
        out
    }

    #[test]
    fn lines_go_into_each_format_and_read_back() {
        let notes: BTreeMap<usize, Note> = [
            (0, note(&["e2e4", "e7e5"], true)),
            (2, note(&["g1f3", "b8c6"], true)),
        ]
        .into();
        let moves = [
            entry("e2e4", "e4", &[]),
            entry("e7e5", "e5", &["e7e5", "g1f3", "b8c6"]),
        ];
        let pgn = round_trip(Kind::Chess, 0, &moves, &notes, "pgn");
        let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            pgn.contains("{tengen analysis +0.25/12: e4 e5} 1. e4"),
            "{pgn}"
        );
        assert!(pgn.contains("1... e5 {+0.31/9 1.500s e5 Nf3 Nc6}"), "{pgn}");
        assert!(pgn.contains("{tengen analysis +0.25/12: Nf3 Nc6}"), "{pgn}");

        let notes: BTreeMap<usize, Note> = [(0, note(&["7g7f"], true))].into();
        let moves = [
            entry("7g7f", "+7776FU", &[]),
            entry("3c3d", "-3334FU", &["3c3d", "2g2f", "8c8d"]),
        ];
        let csa = round_trip(Kind::Shogi, 0, &moves, &notes, "csa");
        assert!(csa.contains("+\n'** 25 +7776FU\n+7776FU"), "{csa}");
        assert!(
            csa.contains("-3334FU\nT1\n'** 31 +2726FU -8384FU\n"),
            "{csa}"
        );
        let kif = round_trip(Kind::Shogi, 0, &moves, &notes, "kif");
        assert!(kif.contains("消費時間--\n**解析 0 候補1 深さ 12 ノード 1000 評価値 25 読み筋 ▲７六歩(77) (tengen)\n"), "{kif}");
        assert!(
            kif.contains(
                "**対局 時間 00:01.5 深さ 9 評価値 31 読み筋 △３四歩(33) ▲２六歩(27) △８四歩(83)"
            ),
            "{kif}"
        );

        let notes: BTreeMap<usize, Note> =
            [(0, note(&["E5", "C3"], true)), (1, note(&["C3"], false))].into();
        let moves = [entry("E5", "E5", &[])];
        let sgf = round_trip(Kind::Go, 9, &moves, &notes, "sgf");
        assert!(sgf.contains("C[tengen analysis +0.25 (1000): E5 C3]\n;B[ee]C[1.500s\ntengen analysis +0.25 (1000): C3]"), "{sgf}");
    }
}
