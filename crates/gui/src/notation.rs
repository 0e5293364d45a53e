//! Moves in each game's own notation for the page: SAN for chess, the
//! Chinese notation for xiangqi (`炮二平五`), the Japanese for shogi
//! (`▲７六歩`), vertices for Go and points for gomoku. Each function reads
//! the position before the move from the rules crate; anything it cannot
//! read falls back to the wire move, so a line is always shown.

use crate::games::Kind;

/// The moves `moves` played from the position reached by `start` and
/// `before`, in the game's notation (a PV, or the game's own moves).
pub fn texts(kind: Kind, start: Option<&str>, before: &[String], moves: &[String]) -> Vec<String> {
    let fallback = || moves.to_vec();
    match kind {
        Kind::Chess | Kind::Chess960 => chess(kind == Kind::Chess960, start, before, moves),
        Kind::Xiangqi => xiangqi(start, before, moves),
        Kind::Shogi => shogi(start, before, moves),
        Kind::Go | Kind::Gomoku | Kind::Renju => None,
    }
    .unwrap_or_else(fallback)
}

fn chess(
    chess960: bool,
    start: Option<&str>,
    before: &[String],
    moves: &[String],
) -> Option<Vec<String>> {
    let mut b = match start {
        Some(f) => tengen_chess::Board::from_fen(f).ok()?,
        None => tengen_chess::Board::startpos(),
    };
    for m in before {
        let mv = b.parse_uci_move(m, chess960).ok()?;
        b.play(mv);
    }
    let mut out = Vec::new();
    for m in moves {
        let Ok(mv) = b.parse_uci_move(m, chess960) else {
            out.push(m.clone());
            break;
        };
        out.push(b.to_san(mv));
        b.play(mv);
    }
    Some(out)
}

const HAN: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const WIDE: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];

fn xiangqi(start: Option<&str>, before: &[String], moves: &[String]) -> Option<Vec<String>> {
    use tengen_xiangqi::{parse_move, Board, Notation};
    let mut b = match start {
        Some(f) => Board::from_fen(f).ok()?,
        None => Board::startpos(),
    };
    for m in before {
        let mv = parse_move(&b, m, Notation::Iccs).ok()?;
        b.make(mv);
    }
    let mut out = Vec::new();
    for m in moves {
        let Ok(mv) = parse_move(&b, m, Notation::Iccs) else {
            out.push(m.clone());
            break;
        };
        out.push(xiangqi_move(&b, m).unwrap_or_else(|| m.clone()));
        b.make(mv);
    }
    Some(out)
}

/// One xiangqi move (ICCS `h2e2`) in Chinese notation: piece, file (Red
/// counts files from its right in Chinese numerals, Black from its own
/// right in digits), then 平 (across), 进 (forward) or 退 (back) and the
/// distance or, for the pieces that move diagonally, the file reached.
/// Two like pieces on one file are told apart by 前 and 后.
fn xiangqi_move(b: &tengen_xiangqi::Board, wire: &str) -> Option<String> {
    use tengen_xiangqi::{Color, Kind as K, Square};
    let w = wire.as_bytes();
    let (ff, fr) = (
        w.first()?.checked_sub(b'a')?,
        (*w.get(1)? as char).to_digit(10)? as u8,
    );
    let (tf, tr) = (
        w.get(2)?.checked_sub(b'a')?,
        (*w.get(3)? as char).to_digit(10)? as u8,
    );
    let piece = b.piece_at(Square::new(ff, fr)?)?;
    let red = piece.color == Color::Red;
    let name = match (piece.kind, red) {
        (K::King, true) => "帅",
        (K::King, false) => "将",
        (K::Advisor, true) => "仕",
        (K::Advisor, false) => "士",
        (K::Elephant, true) => "相",
        (K::Elephant, false) => "象",
        (K::Horse, _) => "马",
        (K::Rook, _) => "车",
        (K::Cannon, _) => "炮",
        (K::Pawn, true) => "兵",
        (K::Pawn, false) => "卒",
    };
    // A file as its side counts it: Red from the right (file i = 1), Black
    // from its own right (file a = 1).
    let file_no = |f: u8| if red { 9 - f as usize } else { f as usize + 1 };
    let num = |n: usize| -> String {
        if red {
            HAN.get(n.wrapping_sub(1))
                .map_or("?".into(), |s| s.to_string())
        } else {
            WIDE.get(n.wrapping_sub(1))
                .map_or("?".into(), |s| s.to_string())
        }
    };
    // Another like piece on the same file: front or back.
    let twins: Vec<u8> = (0..10u8)
        .filter(|&r| {
            Square::new(ff, r)
                .and_then(|s| b.piece_at(s))
                .is_some_and(|p| p == piece)
        })
        .collect();
    let head = if twins.len() == 2 {
        let other = if twins[0] == fr { twins[1] } else { twins[0] };
        // Front is nearer the opponent: higher ranks for Red.
        let front = if red { fr > other } else { fr < other };
        format!("{}{name}", if front { "前" } else { "后" })
    } else {
        format!("{name}{}", num(file_no(ff)))
    };
    let forward = if red { tr > fr } else { tr < fr };
    let diagonal = matches!(piece.kind, K::Horse | K::Elephant | K::Advisor);
    let (verb, n) = if tr == fr {
        ("平", file_no(tf))
    } else if diagonal {
        (if forward { "进" } else { "退" }, file_no(tf))
    } else {
        (
            if forward { "进" } else { "退" },
            (tr as i32 - fr as i32).unsigned_abs() as usize,
        )
    };
    Some(format!("{head}{verb}{}", num(n)))
}

fn shogi(start: Option<&str>, before: &[String], moves: &[String]) -> Option<Vec<String>> {
    let sfen = start.unwrap_or(tengen_shogi::STARTPOS);
    let refs: Vec<&str> = before.iter().map(String::as_str).collect();
    let mut g = tengen_shogi::Game::from_usi(sfen, &refs).ok()?;
    let mut prev_dest = before.last().and_then(|m| m.get(2..4).map(str::to_string));
    let mut out = Vec::new();
    for m in moves {
        let Ok(mv) = g.board().parse_move(m) else {
            out.push(m.clone());
            break;
        };
        let declined = !m.ends_with('+')
            && m.as_bytes().get(1) != Some(&b'*')
            && g.board().parse_move(&format!("{m}+")).is_ok();
        out.push(
            shogi_move(g.board(), m, prev_dest.as_deref(), declined).unwrap_or_else(|| m.clone()),
        );
        prev_dest = m.get(2..4).map(str::to_string);
        g.play(mv);
    }
    Some(out)
}

fn shogi_kind_name(k: tengen_shogi::Kind) -> &'static str {
    use tengen_shogi::Kind as K;
    match k {
        K::Pawn => "歩",
        K::Lance => "香",
        K::Knight => "桂",
        K::Silver => "銀",
        K::Gold => "金",
        K::Bishop => "角",
        K::Rook => "飛",
        K::King => "玉",
        K::ProPawn => "と",
        K::ProLance => "成香",
        K::ProKnight => "成桂",
        K::ProSilver => "成銀",
        K::Horse => "馬",
        K::Dragon => "龍",
    }
}

/// One shogi move (USI) in the usual Japanese form: ▲ or △, the square
/// reached (or 同 for the previous move's square), the piece, 成 / 不成 /
/// 打, and the square it came from in brackets (`▲２二角成(88)`).
fn shogi_move(
    b: &tengen_shogi::Board,
    wire: &str,
    prev_dest: Option<&str>,
    declined: bool,
) -> Option<String> {
    let w = wire.as_bytes();
    let mark = if b.side_to_move() == tengen_shogi::Color::Black {
        "▲"
    } else {
        "△"
    };
    let dest = wire.get(2..4)?;
    let df = (*w.get(2)? as char).to_digit(10)? as usize;
    let dr = (w.get(3)?.checked_sub(b'a')? + 1) as usize;
    let to = if prev_dest == Some(dest) {
        "同".to_string()
    } else {
        format!(
            "{}{}",
            WIDE.get(df.checked_sub(1)?)?,
            HAN.get(dr.checked_sub(1)?)?
        )
    };
    if w.get(1) == Some(&b'*') {
        let k = match w[0].to_ascii_uppercase() {
            b'P' => "歩",
            b'L' => "香",
            b'N' => "桂",
            b'S' => "銀",
            b'G' => "金",
            b'B' => "角",
            b'R' => "飛",
            _ => return None,
        };
        return Some(format!("{mark}{to}{k}打"));
    }
    let ff = (*w.first()? as char).to_digit(10)? as usize;
    let fr = (w.get(1)?.checked_sub(b'a')? + 1) as usize;
    let sq = tengen_shogi::Square::from_file_rank(ff, fr)?;
    let piece = b.piece_at(sq)?;
    let suffix = if wire.ends_with('+') {
        "成"
    } else if declined {
        "不成"
    } else {
        ""
    };
    Some(format!(
        "{mark}{to}{}{suffix}({ff}{fr})",
        shogi_kind_name(piece.kind())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn chess_in_san() {
        assert_eq!(
            texts(Kind::Chess, None, &[], &s(&["e2e4", "e7e5", "g1f3"])),
            s(&["e4", "e5", "Nf3"])
        );
    }

    #[test]
    fn xiangqi_in_chinese() {
        // 炮二平五, 马８进７, 马二进三, 车９平８.
        assert_eq!(
            texts(
                Kind::Xiangqi,
                None,
                &[],
                &s(&["h2e2", "h9g7", "h0g2", "i9h9"])
            ),
            s(&["炮二平五", "马８进７", "马二进三", "车９平８"])
        );
        // Two red cannons on the e file: 炮八平五 brings the second, and
        // the one behind moves by 后炮.
        let line = s(&["h2e2", "a6a5", "b2b4", "a5a4", "b4e4", "d9e8", "e2f2"]);
        let out = texts(Kind::Xiangqi, None, &line[..4], &line[4..]);
        assert_eq!(out, s(&["炮八平五", "士４进５", "后炮平四"]));
    }

    #[test]
    fn shogi_in_japanese() {
        assert_eq!(
            texts(
                Kind::Shogi,
                None,
                &[],
                &s(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"])
            ),
            s(&[
                "▲７六歩(77)",
                "△３四歩(33)",
                "▲２二角成(88)",
                "△同銀(31)",
                "▲５五角打"
            ])
        );
    }

    #[test]
    fn unreadable_moves_fall_back_to_the_wire() {
        assert_eq!(texts(Kind::Chess, None, &[], &s(&["e2e5"])), s(&["e2e5"]));
        assert_eq!(texts(Kind::Go, None, &[], &s(&["D4"])), s(&["D4"]));
    }
}
