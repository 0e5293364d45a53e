//! `tengen legal` and `tengen perft` arguments: a game's position and
//! moves, read as the engine's per-game glue (`crates/engine/src/games/`)
//! reads them, with the rules crates' own functions.
//!
//! Input: one byte, then `POSITION|MOVES|BLACK|WHITE|TO_MOVE`. The byte
//! picks the game (`byte % 8`, 5..7 read as chess) and, with `0x80`,
//! Chess960 castling. For Go and gomoku POSITION is `SIZE RULE` (the
//! `--size` and `--rule` options); BLACK, WHITE and TO_MOVE are gomoku's
//! set-up options.
//!
//! Nothing may panic. For a position that is accepted: every legal move's
//! name reads back to a legal move with the same name, and perft to depth
//! 1 counts the legal moves.

use tengen_games::{legal_move_names, perft};

struct Args<'a> {
    position: &'a str,
    moves: &'a str,
    black: Option<&'a str>,
    white: Option<&'a str>,
    to_move: Option<&'a str>,
    chess960: bool,
}

pub fn position_args(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut fields = text.split('|');
    let args = Args {
        position: fields.next().unwrap_or(""),
        moves: fields.next().unwrap_or(""),
        black: fields.next(),
        white: fields.next(),
        to_move: fields.next(),
        chess960: pick & 0x80 != 0,
    };
    match pick & 7 {
        1 => xiangqi(&args),
        2 => shogi(&args),
        3 => go(&args),
        4 => gomoku(&args),
        _ => chess(&args),
    }
}

/// Every name reads back (through `read`) to a move named the same, and
/// perft(1) counts the names.
fn check_names<P: tengen_games::Perft>(pos: &mut P, read: impl Fn(&P, &str) -> Option<String>) {
    let names = legal_move_names(pos);
    for name in &names {
        assert_eq!(read(pos, name).as_deref(), Some(name.as_str()), "{name}");
    }
    assert_eq!(perft(pos, 1), names.len() as u64);
}

fn chess(args: &Args) {
    use tengen_chess::Board;
    let mut board = if args.position.trim() == "startpos" {
        Board::startpos()
    } else {
        let Ok(board) = Board::from_fen(args.position) else {
            return;
        };
        board
    };
    for text in args.moves.split_whitespace().take(64) {
        let Ok(m) = board.parse_uci_move(text, args.chess960) else {
            return;
        };
        board.play(m);
    }
    let chess960 = args.chess960;
    for m in board.legal_moves() {
        let name = board.move_to_uci(m, chess960);
        assert_eq!(board.parse_uci_move(&name, chess960), Ok(m), "{name}");
    }
    let _ = board.outcome();
    check_names(&mut board, |b, name| {
        b.parse_uci_move(name, false)
            .ok()
            .map(|m| b.move_to_uci(m, false))
    });
}

fn xiangqi(args: &Args) {
    use tengen_xiangqi::board::Board;
    use tengen_xiangqi::notation::{format_move, parse_move, Notation};
    let board = if args.position.trim() == "startpos" {
        Ok(Board::startpos())
    } else {
        Board::from_fen(args.position)
    };
    let Ok(mut board) = board else {
        return;
    };
    for text in args.moves.split_whitespace().take(64) {
        let Ok(m) = parse_move(&board, text, Notation::Iccs) else {
            return;
        };
        board.make(m);
    }
    let _ = board.outcome();
    check_names(&mut board, |b, name| {
        parse_move(b, name, Notation::Iccs)
            .ok()
            .map(|m| format_move(m, Notation::Iccs))
    });
}

fn shogi(args: &Args) {
    use tengen_shogi::Game;
    let moves: Vec<&str> = args.moves.split_whitespace().take(64).collect();
    let Ok(game) = Game::from_usi(args.position, &moves) else {
        return;
    };
    let _ = game.outcome().map(|o| o.describe());
    let _ = game.board().can_declare_win();
    let mut board = game.board().clone();
    check_names(&mut board, |b, name| {
        b.parse_move(name).ok().map(|m| m.to_string())
    });
}

/// `SIZE RULE` of Go and gomoku: the size when it reads as a number.
fn size_and_rule(position: &str) -> (Option<usize>, Option<&str>) {
    let mut words = position.split_whitespace();
    let size = words.next().and_then(|w| w.parse().ok());
    (size, words.next())
}

fn go(args: &Args) {
    use tengen_go::board::{move_name, parse_vertex, Color};
    use tengen_go::game::{Game, KoRule};
    let (size, rule) = size_and_rule(args.position);
    let size = size.unwrap_or(19);
    if !(2..=25).contains(&size) {
        return;
    }
    let mut game = Game::new(size, 7.5);
    if let Some(r) = rule {
        let Some(rule) = KoRule::parse(r) else {
            return;
        };
        game.set_ko_rule(rule);
    }
    let mut next = Color::Black;
    for token in args.moves.split_whitespace().take(200) {
        let (color, vertex) = match token.split_once(':') {
            Some((c, v)) => {
                let Some(c) = Color::parse(c) else {
                    return;
                };
                (c, v)
            }
            None => (next, token),
        };
        let Some(mv) = parse_vertex(vertex, size) else {
            return;
        };
        if game.play(color, mv).is_err() {
            return;
        }
        next = color.opp();
    }
    if game.is_over() {
        let _ = game.tromp_taylor().to_string();
    }
    check_names(&mut game, |g, name| {
        parse_vertex(name, g.size())
            .filter(|&m| g.is_legal(g.to_move(), m))
            .map(move_name)
    });
}

fn gomoku(args: &Args) {
    use tengen_gomoku::{Board, Color, Point, Rule};
    let points = |s: &str| -> Result<Vec<Point>, String> {
        s.split(|c: char| c.is_whitespace() || c == ';')
            .filter(|t| !t.is_empty())
            .map(Point::parse_xy)
            .collect()
    };
    let (size, rule) = size_and_rule(args.position);
    let rule: Rule = match rule.map(str::parse) {
        None => Rule::Freestyle,
        Some(Ok(r)) => r,
        Some(Err(_)) => return,
    };
    let size = size.unwrap_or(15);
    let Ok(mut b) = Board::new(size, size, rule) else {
        return;
    };
    let set_up = args.black.is_some() || args.white.is_some() || args.to_move.is_some();
    if set_up {
        for (text, c) in [(args.black, Color::Black), (args.white, Color::White)] {
            let Ok(list) = points(text.unwrap_or("")) else {
                return;
            };
            for p in list {
                if b.place(p, c).is_err() {
                    return;
                }
            }
        }
        if let Some(t) = args.to_move {
            let Ok(c) = t.trim().parse::<Color>() else {
                return;
            };
            b.set_to_move(c);
        }
        b.rejudge();
    } else {
        let Ok(list) = points(args.moves) else {
            return;
        };
        for p in list {
            if b.play(p).is_err() {
                return;
            }
        }
    }
    let _ = b.outcome();
    check_names(&mut b, |b, name| {
        let p = Point::parse_xy(name).ok()?;
        b.clone().play(p).ok().map(|()| p.to_string())
    });
}
