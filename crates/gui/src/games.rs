//! What the page needs to draw a position: the board in its component's
//! terms (a chessgroundx FEN with its dimensions, or a Shudan sign map),
//! and each legal wire move as the squares or vertex it touches. Legality
//! itself comes from the arena's referees; this module only replays the
//! moves already accepted on the rules crates to show where things stand.

use serde::Serialize;
use tengen_arena::variant::Variant;
use tengen_games::Game;

/// The games the page offers (Chess960 and renju are variants of chess
/// and gomoku, but the page lists them apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Chess,
    Chess960,
    Xiangqi,
    Shogi,
    Go,
    Gomoku,
    Renju,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Chess,
        Kind::Chess960,
        Kind::Xiangqi,
        Kind::Shogi,
        Kind::Go,
        Kind::Gomoku,
        Kind::Renju,
    ];

    pub fn game(self) -> Game {
        match self {
            Kind::Chess | Kind::Chess960 => Game::Chess,
            Kind::Xiangqi => Game::Xiangqi,
            Kind::Shogi => Game::Shogi,
            Kind::Go => Game::Go,
            Kind::Gomoku | Kind::Renju => Game::Gomoku,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Chess => "chess",
            Kind::Chess960 => "chess960",
            Kind::Xiangqi => "xiangqi",
            Kind::Shogi => "shogi",
            Kind::Go => "go",
            Kind::Gomoku => "gomoku",
            Kind::Renju => "renju",
        }
    }

    /// Board sizes the page may ask for (Go and gomoku), and the default.
    pub fn sizes(self) -> (std::ops::RangeInclusive<u32>, u32) {
        match self {
            Kind::Go => (2..=25, 9),
            Kind::Gomoku | Kind::Renju => (5..=25, 15),
            _ => (0..=0, 0),
        }
    }

    /// The arena's variant for this game (Go without the clean-up phase:
    /// two passes score the board as it stands).
    pub fn variant(self, size: u32, komi: f64) -> Variant {
        Variant {
            kind: self.game(),
            chess960: self == Kind::Chess960,
            board_size: size,
            komi,
            handicap: 0,
            rule: match self {
                Kind::Renju => "renju".into(),
                _ => "freestyle".into(),
            },
            go_cleanup: false,
            swap2: false,
        }
    }

    /// Drawn with chessgroundx (else with Shudan).
    pub fn uses_chessground(self) -> bool {
        !matches!(self.game(), Game::Go | Game::Gomoku)
    }
}

/// A legal move as the page sees it: chessgroundx keys (`orig`, `dest`;
/// a drop's `orig` is `P@`) or a Shudan vertex `[x, y]` from the top left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spot {
    pub wire: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orig: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertex: Option<[u32; 2]>,
    /// What sets this move apart from others between the same squares
    /// (a promotion piece, `+` in shogi, `=` for a shogi non-promotion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
}

/// The board for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "component", rename_all = "lowercase")]
pub enum BoardView {
    /// chessgroundx: board FEN (with `[hand]` for shogi), dimensions.
    Chessground {
        fen: String,
        width: u32,
        height: u32,
        /// Whose turn, in chessgroundx colours (the first side is white).
        turn: &'static str,
        check: bool,
    },
    /// Shudan: `signs[y][x]` 1 black, -1 white, 0 empty; move numbers.
    Goban {
        size: u32,
        signs: Vec<Vec<i8>>,
        numbers: Vec<Vec<u32>>,
        /// Renju: points black may not play now.
        forbidden: Vec<[u32; 2]>,
        captures: [u32; 2],
    },
}

/// chessgroundx's rank characters: `1`..`9`, then `:` for the tenth.
const RANKS: &[u8] = b"123456789:";

fn cg_key(x: u32, y: u32) -> Option<String> {
    let f = b"abcdefghijklmnop".get(x as usize)?;
    let r = RANKS.get(y as usize)?;
    Some(format!("{}{}", *f as char, *r as char))
}

/// `e2e4q`, `b0c2` (xiangqi ICCS), `7g7f+`, `P*5e` (shogi), `D4` (Go),
/// `7,7` (gomoku) as the page's squares.
pub fn spot(kind: Kind, wire: &str, size: u32) -> Option<Spot> {
    let mut s = Spot {
        wire: wire.to_string(),
        orig: None,
        dest: None,
        vertex: None,
        choice: None,
    };
    let b = wire.as_bytes();
    let file = |c: u8| (c as char).is_ascii_lowercase().then(|| (c - b'a') as u32);
    match kind {
        Kind::Chess | Kind::Chess960 => {
            if b.len() < 4 {
                return None;
            }
            let digit = |c: u8| (c as char).to_digit(10).filter(|d| (1..=8).contains(d));
            s.orig = cg_key(file(b[0])?, digit(b[1])? - 1);
            s.dest = cg_key(file(b[2])?, digit(b[3])? - 1);
            if b.len() > 4 {
                s.choice = Some(wire[4..].to_string());
            }
        }
        Kind::Xiangqi => {
            if b.len() != 4 {
                return None;
            }
            let digit = |c: u8| (c as char).to_digit(10);
            s.orig = cg_key(file(b[0])?, digit(b[1])?);
            s.dest = cg_key(file(b[2])?, digit(b[3])?);
        }
        Kind::Shogi => {
            let sq = |f: u8, r: u8| -> Option<String> {
                let f = (f as char).to_digit(10).filter(|d| (1..=9).contains(d))?;
                let r = (r as char)
                    .is_ascii_lowercase()
                    .then(|| (r - b'a') as u32)?;
                if r > 8 {
                    return None;
                }
                cg_key(9 - f, 8 - r)
            };
            if b.len() == 4 && b[1] == b'*' {
                s.orig = Some(format!("{}@", (b[0] as char).to_ascii_uppercase()));
                s.dest = sq(b[2], b[3]);
            } else if b.len() >= 4 {
                s.orig = sq(b[0], b[1]);
                s.dest = sq(b[2], b[3]);
                s.choice = Some(if b.len() == 5 && b[4] == b'+' {
                    "+".to_string()
                } else {
                    "=".to_string()
                });
            } else {
                return None;
            }
        }
        Kind::Go => {
            if wire.eq_ignore_ascii_case("pass") {
                return Some(s);
            }
            let m = tengen_go::board::parse_vertex(wire, size as usize)?;
            match m {
                tengen_go::board::Move::Play(p) => {
                    s.vertex = Some([p.x() as u32, size - 1 - p.y() as u32]);
                }
                tengen_go::board::Move::Pass => {}
            }
        }
        Kind::Gomoku | Kind::Renju => {
            let p = tengen_gomoku::Point::parse_xy(wire).ok()?;
            s.vertex = Some([p.x as u32, p.y as u32]);
        }
    }
    if kind.uses_chessground() && (s.orig.is_none() || s.dest.is_none()) {
        return None;
    }
    Some(s)
}

/// A wire move of the page's vertex (Go, gomoku).
pub fn wire_of_vertex(kind: Kind, x: u32, y: u32, size: u32) -> Option<String> {
    if x >= size || y >= size {
        return None;
    }
    match kind {
        Kind::Go => Some(tengen_go::board::vertex_name(
            tengen_go::board::Point::from_xy(x as usize, (size - 1 - y) as usize),
        )),
        Kind::Gomoku | Kind::Renju => Some(format!("{x},{y}")),
        _ => None,
    }
}

/// Replays accepted moves on the rules crate and describes the board.
pub fn view(
    kind: Kind,
    start: Option<&str>,
    moves: &[String],
    size: u32,
) -> Result<BoardView, String> {
    match kind {
        Kind::Chess | Kind::Chess960 => {
            let chess960 = kind == Kind::Chess960;
            let mut b = match start {
                Some(f) => tengen_chess::Board::from_fen(f).map_err(|e| e.to_string())?,
                None => tengen_chess::Board::startpos(),
            };
            for m in moves {
                let mv = b.parse_uci_move(m, chess960).map_err(|e| e.to_string())?;
                b.play(mv);
            }
            let fen = b.to_fen(chess960);
            let turn = if b.side_to_move() == tengen_chess::Color::White {
                "white"
            } else {
                "black"
            };
            Ok(BoardView::Chessground {
                fen: first_field(&fen),
                width: 8,
                height: 8,
                turn,
                check: b.is_check(),
            })
        }
        Kind::Xiangqi => {
            let mut b = match start {
                Some(f) => tengen_xiangqi::Board::from_fen(f)?,
                None => tengen_xiangqi::Board::startpos(),
            };
            for m in moves {
                let mv = tengen_xiangqi::parse_move(&b, m, tengen_xiangqi::Notation::Iccs)?;
                b.make(mv);
            }
            let fen = b.fen();
            let turn = if b.side_to_move() == tengen_xiangqi::Color::Red {
                "white"
            } else {
                "black"
            };
            Ok(BoardView::Chessground {
                fen: first_field(&fen),
                width: 9,
                height: 10,
                turn,
                check: b.in_check(),
            })
        }
        Kind::Shogi => {
            let sfen = start.unwrap_or(tengen_shogi::STARTPOS);
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            let g = tengen_shogi::Game::from_usi(sfen, &refs)?;
            let sfen = g.board().to_sfen();
            let mut fields = sfen.split_whitespace();
            let board = fields.next().unwrap_or("");
            let side = fields.next().unwrap_or("b");
            let hand = fields.next().unwrap_or("-");
            Ok(BoardView::Chessground {
                fen: format!("{board}[{}]", expand_hand(hand)),
                width: 9,
                height: 9,
                turn: if side == "b" { "white" } else { "black" },
                check: g.board().in_check(),
            })
        }
        Kind::Go => {
            use tengen_go::board::{parse_vertex, Cell, Point};
            let n = size as usize;
            let mut g = tengen_go::game::Game::new(n, 7.5);
            let mut numbers = vec![vec![0u32; n]; n];
            for (i, m) in moves.iter().enumerate() {
                let mv = parse_vertex(m, n).ok_or_else(|| format!("bad vertex {m}"))?;
                let c = g.to_move();
                g.play(c, mv).map_err(|e| e.to_string())?;
                if let tengen_go::board::Move::Play(p) = mv {
                    numbers[n - 1 - p.y()][p.x()] = i as u32 + 1;
                }
            }
            let mut signs = vec![vec![0i8; n]; n];
            for (y, row) in signs.iter_mut().enumerate() {
                for (x, cell) in row.iter_mut().enumerate() {
                    let p = Point::from_xy(x, n - 1 - y);
                    *cell = match g.board().cell(p) {
                        Cell::Black => 1,
                        Cell::White => -1,
                        _ => 0,
                    };
                    if *cell == 0 {
                        numbers[y][x] = 0;
                    }
                }
            }
            let b = g.board();
            Ok(BoardView::Goban {
                size,
                signs,
                numbers,
                forbidden: Vec::new(),
                captures: [
                    b.captures(tengen_go::board::Color::Black),
                    b.captures(tengen_go::board::Color::White),
                ],
            })
        }
        Kind::Gomoku | Kind::Renju => {
            use tengen_gomoku::{Board, Cell, Color, Point, Rule};
            let n = size as usize;
            let rule = if kind == Kind::Renju {
                Rule::Renju
            } else {
                Rule::Freestyle
            };
            let mut b = Board::new(n, n, rule)?;
            let mut numbers = vec![vec![0u32; n]; n];
            for (i, m) in moves.iter().enumerate() {
                let p = Point::parse_xy(m)?;
                b.play(p).map_err(|e| e.to_string())?;
                numbers[p.y as usize][p.x as usize] = i as u32 + 1;
            }
            let mut signs = vec![vec![0i8; n]; n];
            let mut forbidden = Vec::new();
            for (y, row) in signs.iter_mut().enumerate() {
                for (x, cell) in row.iter_mut().enumerate() {
                    let Some(sq) = Point::new(x, y).and_then(|p| b.sq(p)) else {
                        continue;
                    };
                    *cell = match b.cell(sq) {
                        Cell::Black => 1,
                        Cell::White => -1,
                        _ => 0,
                    };
                    if *cell == 0
                        && rule == Rule::Renju
                        && b.to_move() == Color::Black
                        && b.is_forbidden(sq, Color::Black)
                    {
                        forbidden.push([x as u32, y as u32]);
                    }
                }
            }
            Ok(BoardView::Goban {
                size,
                signs,
                numbers,
                forbidden,
                captures: [0, 0],
            })
        }
    }
}

/// The Chess960 start position numbered `n` (0..959, Scharnagl's
/// numbering: 518 is the standard start), as a Shredder-FEN.
pub fn chess960_fen(n: u32) -> Option<String> {
    if n > 959 {
        return None;
    }
    let mut rank = [b'.'; 8];
    let mut n = n as usize;
    rank[2 * (n % 4) + 1] = b'B';
    n /= 4;
    rank[2 * (n % 4)] = b'B';
    n /= 4;
    let empty = |rank: &[u8; 8], i: usize| (0..8).filter(|&f| rank[f] == b'.').nth(i).unwrap_or(0);
    let q = empty(&rank, n % 6);
    rank[q] = b'Q';
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n % 10];
    let (a, b) = (empty(&rank, k1), empty(&rank, k2));
    rank[a] = b'N';
    rank[b] = b'N';
    let rest: Vec<usize> = (0..8).filter(|&f| rank[f] == b'.').collect();
    let [r1, k, r2] = rest[..] else {
        return None;
    };
    rank[r1] = b'R';
    rank[k] = b'K';
    rank[r2] = b'R';
    let white = String::from_utf8_lossy(&rank).into_owned();
    let black = white.to_ascii_lowercase();
    let file = |f: usize| (b'a' + f as u8) as char;
    let rights = format!(
        "{}{}{}{}",
        file(r2).to_ascii_uppercase(),
        file(r1).to_ascii_uppercase(),
        file(r2),
        file(r1)
    );
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1"
    ))
}

/// Go after `moves`: the game, for scoring and chains.
fn go_game(moves: &[String], size: u32, komi: f64) -> Result<tengen_go::game::Game, String> {
    let n = size as usize;
    let mut g = tengen_go::game::Game::new(n, komi);
    for m in moves {
        let mv = tengen_go::board::parse_vertex(m, n).ok_or_else(|| format!("bad vertex {m}"))?;
        let c = g.to_move();
        g.play(c, mv).map_err(|e| e.to_string())?;
    }
    Ok(g)
}

fn go_point(x: u32, y: u32, size: u32) -> Option<tengen_go::board::Point> {
    (x < size && y < size)
        .then(|| tengen_go::board::Point::from_xy(x as usize, (size - 1 - y) as usize))
}

/// Go: the stones of the chain at page vertex `(x, y)` (none on an
/// empty point).
pub fn go_chain(moves: &[String], size: u32, x: u32, y: u32) -> Result<Vec<[u32; 2]>, String> {
    let g = go_game(moves, size, 0.0)?;
    let p = go_point(x, y, size).ok_or("off the board")?;
    if g.board().cell(p).color().is_none() {
        return Ok(Vec::new());
    }
    Ok(g.board()
        .chain_stones(p)
        .into_iter()
        .map(|q| [q.x() as u32, size - 1 - q.y() as u32])
        .collect())
}

/// Go: the area score (Black's points minus White's minus komi) with the
/// `dead` stones (page vertices) taken off.
pub fn go_score(moves: &[String], size: u32, komi: f64, dead: &[[u32; 2]]) -> Result<f64, String> {
    let g = go_game(moves, size, komi)?;
    let dead: Vec<_> = dead
        .iter()
        .filter_map(|[x, y]| go_point(*x, *y, size))
        .collect();
    Ok(g.score_without(&dead).0)
}

fn first_field(fen: &str) -> String {
    fen.split_whitespace().next().unwrap_or("").to_string()
}

/// SFEN's hand (`2Pb`, `-`) as chessgroundx's pocket letters (`PPb`).
fn expand_hand(hand: &str) -> String {
    let mut out = String::new();
    let mut count = 0u32;
    for c in hand.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
        } else if c.is_ascii_alphabetic() {
            for _ in 0..count.max(1) {
                out.push(c);
            }
            count = 0;
        }
    }
    out
}

/// The words each side is called by, first side first.
pub fn side_names(kind: Kind) -> [&'static str; 2] {
    match kind.game() {
        Game::Chess => ["White", "Black"],
        Game::Xiangqi => ["Red", "Black"],
        Game::Shogi => ["Sente", "Gote"],
        Game::Go | Game::Gomoku => ["Black", "White"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_of_each_notation() {
        let s = spot(Kind::Chess, "e7e8q", 0).unwrap();
        assert_eq!(
            (s.orig.as_deref(), s.dest.as_deref()),
            (Some("e7"), Some("e8"))
        );
        assert_eq!(s.choice.as_deref(), Some("q"));
        // Xiangqi's tenth rank is chessgroundx's ':'.
        let s = spot(Kind::Xiangqi, "h9g7", 0).unwrap();
        assert_eq!(
            (s.orig.as_deref(), s.dest.as_deref()),
            (Some("h:"), Some("g8"))
        );
        let s = spot(Kind::Shogi, "7g7f", 0).unwrap();
        assert_eq!(
            (s.orig.as_deref(), s.dest.as_deref()),
            (Some("c3"), Some("c4"))
        );
        let s = spot(Kind::Shogi, "P*5e", 0).unwrap();
        assert_eq!(
            (s.orig.as_deref(), s.dest.as_deref()),
            (Some("P@"), Some("e5"))
        );
        let s = spot(Kind::Shogi, "8h2b+", 0).unwrap();
        assert_eq!(s.choice.as_deref(), Some("+"));
        assert_eq!(spot(Kind::Go, "A1", 9).unwrap().vertex, Some([0, 8]));
        assert_eq!(spot(Kind::Go, "J9", 9).unwrap().vertex, Some([8, 0]));
        assert_eq!(spot(Kind::Gomoku, "7,3", 15).unwrap().vertex, Some([7, 3]));
        assert!(spot(Kind::Chess, "e9e4", 0).is_none());
        assert!(spot(Kind::Shogi, "0a1b", 0).is_none());
        assert_eq!(wire_of_vertex(Kind::Go, 8, 0, 9).as_deref(), Some("J9"));
        assert_eq!(wire_of_vertex(Kind::Go, 9, 0, 9), None);
    }

    #[test]
    fn chess960_positions() {
        assert_eq!(
            chess960_fen(518).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
        );
        assert_eq!(
            chess960_fen(0).as_deref(),
            Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
        );
        assert!(chess960_fen(960).is_none());
        for n in 0..960 {
            let fen = chess960_fen(n).unwrap();
            assert!(tengen_chess::Board::from_fen(&fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn go_chains_and_scores() {
        let moves: Vec<String> = ["C3", "D4", "B3"].iter().map(|s| s.to_string()).collect();
        // 5x5: C3 is page (2, 2), B3 (1, 2).
        let mut chain = go_chain(&moves, 5, 2, 2).unwrap();
        chain.sort();
        assert_eq!(chain, vec![[1, 2], [2, 2]]);
        assert!(go_chain(&moves, 5, 0, 0).unwrap().is_empty());
        let all = go_score(&moves, 5, 0.5, &[]).unwrap();
        let white_dead = go_score(&moves, 5, 0.5, &[[3, 1]]).unwrap();
        assert!(white_dead > all, "{white_dead} {all}");
        assert_eq!(white_dead, 24.5);
    }

    #[test]
    fn views_replay_moves() {
        let v = view(Kind::Chess, None, &["e2e4".into()], 0).unwrap();
        match v {
            BoardView::Chessground { fen, turn, .. } => {
                assert_eq!(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
                assert_eq!(turn, "black");
            }
            _ => panic!("chess is drawn by chessgroundx"),
        }
        let v = view(
            Kind::Shogi,
            None,
            &["7g7f".into(), "3c3d".into(), "8h2b+".into()],
            0,
        )
        .unwrap();
        match v {
            BoardView::Chessground { fen, .. } => assert!(fen.ends_with("[B]"), "{fen}"),
            _ => panic!(),
        }
        // A capture in Go removes the stone.
        let moves: Vec<String> = ["B1", "A1", "A2"].iter().map(|s| s.to_string()).collect();
        match view(Kind::Go, None, &moves, 9).unwrap() {
            BoardView::Goban {
                signs, captures, ..
            } => {
                assert_eq!(signs[8][0], 0);
                assert_eq!(captures[0], 1);
            }
            _ => panic!(),
        }
        assert!(view(Kind::Chess, None, &["e2e5".into()], 0).is_err());
    }
}
