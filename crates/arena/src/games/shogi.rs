//! Shogi refereed by `tengen-shogi`: checkmate, sennichite (a draw, or a
//! loss for the side giving perpetual check), entering-king declarations
//! (`bestmove win`), illegal drops (nifu, drop-pawn mate); records in CSA.

use crate::record::{Ending, GameRecord, GameSetup, Outcome, Side};
use crate::referee::Referee;
use std::fmt::Write as _;
use tengen_shogi::{Color, EndReason, Game, Kind, Outcome as ShogiOutcome};

pub struct ShogiReferee {
    pos: Game,
    start: Option<String>,
}

impl Default for ShogiReferee {
    fn default() -> Self {
        ShogiReferee {
            pos: Game::startpos(),
            start: None,
        }
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

/// CSA's two-letter piece names.
fn csa_kind(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "FU",
        Kind::Lance => "KY",
        Kind::Knight => "KE",
        Kind::Silver => "GI",
        Kind::Gold => "KI",
        Kind::Bishop => "KA",
        Kind::Rook => "HI",
        Kind::King => "OU",
        Kind::ProPawn => "TO",
        Kind::ProLance => "NY",
        Kind::ProKnight => "NK",
        Kind::ProSilver => "NG",
        Kind::Horse => "UM",
        Kind::Dragon => "RY",
    }
}

/// USI square `7g` to CSA digits `77`.
fn csa_square(usi: &str) -> Option<String> {
    let b = usi.as_bytes();
    if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'a'..=b'i').contains(&b[1]) {
        return None;
    }
    Some(format!("{}{}", b[0] as char, b[1] - b'a' + 1))
}

impl ShogiReferee {
    /// A legal USI move as CSA: `+7776FU`, `-0055KA` (drop), the piece
    /// written as it stands after the move.
    fn csa_move(&self, usi: &str) -> Option<String> {
        let board = self.pos.board();
        let sign = match board.side_to_move() {
            Color::Black => '+',
            Color::White => '-',
        };
        let m = board.parse_move(usi).ok()?;
        let to = csa_square(&m.to().to_string())?;
        match m.from() {
            Some(from) => {
                let kind = board.piece_at(from)?.kind();
                let kind = if m.is_promotion() {
                    kind.promote()
                } else {
                    kind
                };
                Some(format!(
                    "{sign}{}{to}{}",
                    csa_square(&from.to_string())?,
                    csa_kind(kind)
                ))
            }
            None => Some(format!("{sign}00{to}{}", csa_kind(m.drop_kind()?))),
        }
    }
}

impl Referee for ShogiReferee {
    fn reset(&mut self, start: Option<&str>) -> Result<(), String> {
        match start {
            None => {
                self.pos = Game::startpos();
                self.start = None;
            }
            Some(sfen) => {
                let sfen = sfen.trim().strip_prefix("sfen ").unwrap_or(sfen.trim());
                self.pos =
                    Game::from_usi(sfen, &[]).map_err(|e| format!("bad SFEN '{sfen}': {e}"))?;
                self.start = Some(self.pos.board().to_sfen());
            }
        }
        Ok(())
    }

    fn start_for_engines(&self) -> Option<String> {
        self.start.clone()
    }

    fn side_to_move(&self) -> Side {
        side_of(self.pos.board().side_to_move())
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Sente",
            Side::Second => "Gote",
        }
    }

    fn play(&mut self, mv: &str) -> Result<String, String> {
        let m = self.pos.board().parse_move(mv.trim())?;
        let csa = self
            .csa_move(mv.trim())
            .ok_or_else(|| format!("cannot write {mv} in CSA"))?;
        self.pos.play(m);
        Ok(csa)
    }

    fn ending(&self) -> Option<Ending> {
        Some(match self.pos.outcome()? {
            ShogiOutcome::Draw => Ending::draw("Draw by sennichite"),
            ShogiOutcome::Win {
                winner,
                reason: EndReason::Checkmate,
            } => Ending::win(
                side_of(winner),
                format!("{} is checkmated", self.side_name(side_of(winner).other())),
            ),
            ShogiOutcome::Win {
                winner,
                reason: EndReason::PerpetualCheck,
            } => Ending::win(
                side_of(winner),
                format!(
                    "{} loses by perpetual check (sennichite)",
                    self.side_name(side_of(winner).other())
                ),
            ),
        })
    }

    fn claim_win(&self) -> Ending {
        let side = self.side_to_move();
        if self.pos.board().can_declare_win() {
            Ending::win(
                side,
                format!("{} wins by entering-king declaration", self.side_name(side)),
            )
        } else {
            Ending::win(
                side.other(),
                format!(
                    "{} makes a false entering-king declaration",
                    self.side_name(side)
                ),
            )
        }
    }

    fn legal_moves(&self) -> Vec<String> {
        tengen_games::legal_move_names(self.pos.board())
    }

    fn setup(&self) -> GameSetup {
        // Named for engines that play several games over one protocol
        // (CECP's `variant shogi`); USI engines ignore it.
        GameSetup {
            variant: Some(tengen_games::Game::Shogi.name()),
            ..GameSetup::default()
        }
    }

    fn record(&self, game: &GameRecord) -> String {
        csa(game)
    }

    fn record_as(&self, game: &GameRecord, ext: &str) -> String {
        match ext {
            "kif" => kif(game).unwrap_or_else(|| csa(game)),
            _ => csa(game),
        }
    }
}

/// CSA `P1`..`P9` lines, hands and side to move from an SFEN.
fn csa_position(sfen: &str) -> Option<String> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let (board, side, hand) = (f.first()?, f.get(1)?, f.get(2).copied().unwrap_or("-"));
    let kind_of = |c: char, promoted: bool| -> Option<&'static str> {
        let base = match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        };
        Some(csa_kind(if promoted { base.promote() } else { base }))
    };
    let mut out = String::new();
    for (r, rank) in board.split('/').enumerate() {
        let _ = write!(out, "P{}", r + 1);
        let mut promoted = false;
        for c in rank.chars() {
            if c == '+' {
                promoted = true;
            } else if let Some(n) = c.to_digit(10) {
                for _ in 0..n {
                    out.push_str(" * ");
                }
            } else {
                let sign = if c.is_ascii_uppercase() { '+' } else { '-' };
                let _ = write!(out, "{sign}{}", kind_of(c, promoted)?);
                promoted = false;
            }
        }
        out.push('\n');
    }
    let (mut black, mut white) = (String::new(), String::new());
    let mut count = 0u32;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
            continue;
        }
        let piece = format!("00{}", kind_of(c, false)?);
        let target = if c.is_ascii_uppercase() {
            &mut black
        } else {
            &mut white
        };
        for _ in 0..count.max(1) {
            target.push_str(&piece);
        }
        count = 0;
    }
    if !black.is_empty() {
        let _ = writeln!(out, "P+{black}");
    }
    if !white.is_empty() {
        let _ = writeln!(out, "P-{white}");
    }
    out.push_str(if *side == "w" { "-\n" } else { "+\n" });
    Some(out)
}

/// CSA file format v2.2: names, start position, moves with times
/// (`T<seconds>`), and the ending as a special move (`%TORYO` ...).
pub fn csa(game: &GameRecord) -> String {
    let mut s = String::from("V2.2\n");
    let _ = writeln!(s, "N+{}", game.players[0]);
    let _ = writeln!(s, "N-{}", game.players[1]);
    let _ = writeln!(s, "$EVENT:{}", game.event);
    let _ = writeln!(s, "$START_TIME:{} 00:00:00", game.date.replace('.', "/"));
    if game.time_control != "-" {
        let _ = writeln!(s, "'time control {}", game.time_control);
    }
    match game.start.as_deref().and_then(csa_position) {
        Some(p) => s.push_str(&p),
        None => s.push_str("PI\n+\n"),
    }
    for m in &game.moves {
        let _ = writeln!(s, "{}", m.notation);
        let _ = writeln!(s, "T{}", m.elapsed_ms / 1000);
    }
    let reason = &game.ending.reason;
    // CSA's endings speak of the side to move at the end, except
    // ILLEGAL_ACTION, which names the loser with its sign.
    let first_to_move = game
        .start
        .as_deref()
        .and_then(|f| f.split_whitespace().nth(1))
        != Some("w");
    let first_at_end = first_to_move == game.moves.len().is_multiple_of(2);
    let at_end = if first_at_end {
        Side::First
    } else {
        Side::Second
    };
    let special = match game.ending.outcome {
        Outcome::Draw if reason.contains("sennichite") => "%SENNICHITE".to_string(),
        Outcome::Draw if reason.contains("move limit") => "%JISHOGI".to_string(),
        Outcome::Draw => "%CHUDAN".to_string(),
        Outcome::Win(w) if w == at_end => {
            if reason.contains("declaration") {
                "%KACHI".to_string()
            } else {
                let sign = if w == Side::First { '-' } else { '+' };
                format!("%{sign}ILLEGAL_ACTION")
            }
        }
        Outcome::Win(_) => {
            if reason.contains("on time") {
                "%TIME_UP".to_string()
            } else if reason.contains("illegal")
                || reason.contains("false")
                || reason.contains("claims")
            {
                "%ILLEGAL_MOVE".to_string()
            } else {
                "%TORYO".to_string()
            }
        }
    };
    let _ = writeln!(s, "{special}");
    let result = match game.ending.outcome {
        Outcome::Win(Side::First) => "sente win",
        Outcome::Win(Side::Second) => "gote win",
        Outcome::Draw => "draw",
    };
    let _ = writeln!(s, "'{result}: {reason}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referees_and_writes_csa() {
        let mut r = ShogiReferee::default();
        r.reset(None).unwrap();
        assert_eq!(r.legal_moves().len(), 30);
        assert_eq!(r.play("7g7f").unwrap(), "+7776FU");
        assert_eq!(r.play("3c3d").unwrap(), "-3334FU");
        assert_eq!(r.play("8h2b+").unwrap(), "+8822UM");
        assert_eq!(r.play("3a2b").unwrap(), "-3122GI");
        assert_eq!(r.play("B*4e").unwrap(), "+0045KA");
        assert_eq!(r.play("B*5e").unwrap(), "-0055KA");
        assert!(r.play("B*1e").unwrap_err().contains("bishop"));
        assert!(r.play("junk").is_err());
        assert_eq!(r.side_to_move(), Side::First);
        assert!(!r.claim_win().reason.contains("wins"));
        assert!(r.reset(Some("nonsense")).is_err());
    }

    #[test]
    fn csa_start_positions() {
        let p = csa_position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap();
        assert!(
            p.starts_with("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n"),
            "{p}"
        );
        assert!(p.ends_with("+\n"));
        let p = csa_position("4k4/9/9/9/9/9/9/9/4K4 w 2Pb 1").unwrap();
        assert!(p.starts_with("P1 *  *  *  * -OU"), "{p}");
        assert!(p.contains("P+00FU00FU\nP-00KA\n-\n"), "{p}");
    }
}

/// KIF's piece names by CSA kind (piece as it stands after the move).
fn kif_piece(csa: &str) -> &'static str {
    match csa {
        "FU" => "歩",
        "KY" => "香",
        "KE" => "桂",
        "GI" => "銀",
        "KI" => "金",
        "KA" => "角",
        "HI" => "飛",
        "OU" => "玉",
        "TO" => "と",
        "NY" => "成香",
        "NK" => "成桂",
        "NG" => "成銀",
        "UM" => "馬",
        "RY" => "龍",
        _ => "？",
    }
}

/// The unpromoted CSA kind of a promoted one.
fn csa_unpromoted(csa: &str) -> &str {
    match csa {
        "TO" => "FU",
        "NY" => "KY",
        "NK" => "KE",
        "NG" => "GI",
        "UM" => "KA",
        "RY" => "HI",
        other => other,
    }
}

/// KIF's board diagram (the "BOD" of Kakinoki's format) for a set-up
/// start given as an SFEN: gote's hand, the board with `v` before gote's
/// pieces, sente's hand, and `後手番` when gote moves first.
fn kif_position(sfen: &str) -> Option<String> {
    const COUNT: [&str; 19] = [
        "", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三",
        "十四", "十五", "十六", "十七", "十八",
    ];
    const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let (board, side, hand) = (f.first()?, f.get(1)?, f.get(2).copied().unwrap_or("-"));
    let name = |c: char, promoted: bool| -> Option<&'static str> {
        Some(match (c.to_ascii_uppercase(), promoted) {
            ('P', false) => "歩",
            ('L', false) => "香",
            ('N', false) => "桂",
            ('S', false) => "銀",
            ('G', false) => "金",
            ('B', false) => "角",
            ('R', false) => "飛",
            ('K', false) => "玉",
            ('P', true) => "と",
            ('L', true) => "杏",
            ('N', true) => "圭",
            ('S', true) => "全",
            ('B', true) => "馬",
            ('R', true) => "龍",
            _ => return None,
        })
    };
    let mut hands = [String::new(), String::new()];
    let mut count = 0usize;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d as usize;
            continue;
        }
        let h = &mut hands[usize::from(!c.is_ascii_uppercase())];
        if !h.is_empty() {
            h.push('　');
        }
        h.push_str(name(c, false)?);
        h.push_str(COUNT.get(count)?);
        count = 0;
    }
    let none = |h: &str| {
        if h.is_empty() {
            "なし".to_string()
        } else {
            h.to_string()
        }
    };
    let mut out = format!("後手の持駒：{}\n", none(&hands[1]));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for (r, rank) in board.split('/').enumerate() {
        out.push('|');
        let mut promoted = false;
        for c in rank.chars() {
            if c == '+' {
                promoted = true;
            } else if let Some(n) = c.to_digit(10) {
                for _ in 0..n {
                    out.push_str(" ・");
                }
            } else {
                out.push(if c.is_ascii_uppercase() { ' ' } else { 'v' });
                out.push_str(name(c, promoted)?);
                promoted = false;
            }
        }
        let _ = writeln!(out, "|{}", RANKS.get(r)?);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", none(&hands[0]));
    if *side == "w" {
        out.push_str("後手番\n");
    }
    Some(out)
}

/// KIF (Kakinoki) text for a game, as `cshogi.KIF` and the Japanese GUIs
/// read it: from the standard start (`手合割：平手`) or from a set-up
/// position (its board diagram). Moves come from the CSA notation
/// already checked by the referee, plus the USI text to tell a promotion
/// from a move of a promoted piece.
pub fn kif(game: &GameRecord) -> Option<String> {
    let position = match &game.start {
        Some(sfen) => Some(kif_position(sfen)?),
        None => None,
    };
    // Who made the first move (gote, from a set-up position so marked).
    let first = match &game.start {
        Some(sfen) if sfen.split_whitespace().nth(1) == Some("w") => Side::Second,
        _ => Side::First,
    };
    const FILES: [&str; 10] = ["", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
    const RANKS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let mut s = String::from("# ---- tengen-arena ----\n");
    let _ = writeln!(s, "開始日時：{}", game.date.replace('.', "/"));
    let _ = writeln!(s, "棋戦：{}", game.event);
    if game.time_control != "-" {
        let _ = writeln!(s, "持ち時間：{}", game.time_control);
    }
    match &position {
        Some(p) => s.push_str(p),
        None => s.push_str("手合割：平手\n"),
    }
    let _ = writeln!(s, "先手：{}", game.players[0]);
    let _ = writeln!(s, "後手：{}", game.players[1]);
    s.push_str("手数----指手---------消費時間--\n");
    let mut last_to: Option<(u32, u32)> = None;
    let mut totals = [0u64; 2];
    for (k, m) in game.moves.iter().enumerate() {
        let b = m.notation.as_bytes();
        if b.len() != 7 {
            return None;
        }
        let digit = |i: usize| u32::from(b[i].wrapping_sub(b'0'));
        let (from, to) = ((digit(1), digit(2)), (digit(3), digit(4)));
        let kind = &m.notation[5..7];
        let dest = if last_to == Some(to) {
            "同　".to_string()
        } else {
            format!("{}{}", FILES.get(to.0 as usize)?, RANKS.get(to.1 as usize)?)
        };
        let text = if from == (0, 0) {
            format!("{dest}{}打", kif_piece(kind))
        } else if m.wire.ends_with('+') {
            format!(
                "{dest}{}成({}{})",
                kif_piece(csa_unpromoted(kind)),
                from.0,
                from.1
            )
        } else {
            format!("{dest}{}({}{})", kif_piece(kind), from.0, from.1)
        };
        last_to = Some(to);
        let secs = m.elapsed_ms / 1000;
        totals[k % 2] += secs;
        let t = totals[k % 2];
        let _ = writeln!(
            s,
            "{:>4} {text}   ({:>2}:{:02}/{:02}:{:02}:{:02})",
            k + 1,
            secs / 60,
            secs % 60,
            t / 3600,
            t / 60 % 60,
            t % 60
        );
    }
    let reason = &game.ending.reason;
    let n = game.moves.len();
    let at_end = if n.is_multiple_of(2) {
        first
    } else {
        first.other()
    };
    let (word, tail) = match game.ending.outcome {
        Outcome::Draw if reason.contains("sennichite") => ("千日手", format!("まで{n}手で千日手")),
        Outcome::Draw if reason.contains("move limit") => ("持将棋", format!("まで{n}手で持将棋")),
        Outcome::Draw => ("中断", format!("まで{n}手で中断")),
        Outcome::Win(w) => {
            let who = if w == Side::First { "先手" } else { "後手" };
            let word = if w == at_end {
                if reason.contains("declaration") {
                    "入玉勝ち"
                } else {
                    "反則勝ち"
                }
            } else if reason.contains("on time") {
                "切れ負け"
            } else if reason.contains("illegal")
                || reason.contains("false")
                || reason.contains("claims")
            {
                "反則負け"
            } else if reason.contains("checkmated") {
                "詰み"
            } else {
                "投了"
            };
            (word, format!("まで{n}手で{who}の勝ち"))
        }
    };
    let _ = writeln!(s, "{:>4} {word}", n + 1);
    let _ = writeln!(s, "{tail}");
    let _ = writeln!(s, "*{reason}");
    Some(s)
}

#[cfg(test)]
mod kif_tests {
    use super::*;
    use crate::record::PlayedMove;

    #[test]
    fn kif_moves_and_ending() {
        let mut r = ShogiReferee::default();
        r.reset(None).unwrap();
        let mut moves = Vec::new();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let notation = r.play(usi).unwrap();
            moves.push(PlayedMove {
                wire: usi.into(),
                notation,
                score: None,
                depth: None,
                elapsed_ms: 1500,
                book: false,
            });
        }
        let game = GameRecord {
            players: ["a".into(), "b".into()],
            start: None,
            moves,
            ending: Ending::win(Side::First, "Gote resigns"),
            round: 1,
            game_no: 1,
            event: "e".into(),
            date: "2026.11.22".into(),
            time_control: "-".into(),
        };
        let text = kif(&game).unwrap();
        assert!(text.contains("   3 ２二角成(88)"), "{text}");
        assert!(text.contains("   4 同　銀(31)"), "{text}");
        assert!(text.contains("   5 ４五角打"), "{text}");
        assert!(text.contains("   6 投了\nまで5手で先手の勝ち"), "{text}");
        assert!(text.contains("( 0:01/00:00:03)"), "{text}");
    }

    #[test]
    fn kif_from_a_set_up_position_draws_the_board() {
        // Gote to move, a promoted rook and hands on both sides.
        let sfen = "8k/9/9/9/9/9/9/9/K6+R1 w 2Pb 1";
        let mut r = ShogiReferee::default();
        r.reset(Some(sfen)).unwrap();
        let notation = r.play("B*5e").unwrap();
        let game = GameRecord {
            players: ["a".into(), "b".into()],
            start: Some(sfen.into()),
            moves: vec![PlayedMove {
                wire: "B*5e".into(),
                notation,
                score: None,
                depth: None,
                elapsed_ms: 0,
                book: false,
            }],
            ending: Ending::win(Side::Second, "Sente resigns"),
            round: 1,
            game_no: 1,
            event: "e".into(),
            date: "2026.11.22".into(),
            time_control: "-".into(),
        };
        let text = kif(&game).unwrap();
        assert!(!text.contains("手合割"), "{text}");
        assert!(text.contains("後手の持駒：角\n"), "{text}");
        assert!(text.contains("| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n"), "{text}");
        assert!(text.contains("| 玉 ・ ・ ・ ・ ・ ・ 龍 ・|九\n"), "{text}");
        assert!(text.contains("先手の持駒：歩二\n後手番\n"), "{text}");
        assert!(text.contains("   1 ５五角打"), "{text}");
        assert!(text.contains("   2 投了\nまで1手で後手の勝ち"), "{text}");
    }
}
