//! The generic searcher playing xiangqi through `Position`/`Evaluator`.

use tengen_core::{SearchLimits, Signals};
use tengen_search::Searcher;
use tengen_xiangqi::{format_move, Board, Notation, XiangqiEval};

fn best(fen: &str, depth: u32) -> (String, i32) {
    let board = Board::from_fen(fen).unwrap();
    let mut s: Searcher<Board, XiangqiEval> = Searcher::new(8);
    let r = s.search(
        &board,
        &XiangqiEval,
        &SearchLimits::depth(depth),
        &Signals::new(),
        None,
        &mut |_| {},
    );
    (format_move(r.best.unwrap(), Notation::Iccs), r.score.0)
}

#[test]
fn finds_mate_in_one() {
    // Ra9 mates: the pawn on d7 covers d8, the red general the e-file.
    let (m, score) = best("3k5/9/3P5/9/9/9/9/9/9/R3K4 w", 3);
    assert_eq!(m, "a0a9");
    assert!(score > 30_000, "expected a mate score, got {score}");
}

#[test]
fn takes_a_hanging_rook() {
    let (m, score) = best("4k4/9/9/9/9/r8/9/9/9/R2K5 w", 4);
    assert_eq!(m, "a0a4");
    assert!(score > 600, "a rook up: {score}");
}

#[test]
fn does_not_repeat_into_a_lost_perpetual_check() {
    // Red has checked with the rook twice from h9/h8; playing h8h9 again
    // would complete a forbidden perpetual check. Red is a rook down, so
    // a repetition draw would be its best result, but perpetual check
    // loses: the searcher must play on instead.
    let b = Board::from_fen("3k5/9/9/9/rr7/9/9/9/9/5K1R1 w").unwrap();
    let b =
        tengen_xiangqi::play_moves(&b, "h0h9 d9d8 h9h8 d8d9".split(' '), Notation::Iccs).unwrap();
    let mut s: Searcher<Board, XiangqiEval> = Searcher::new(8);
    let r = s.search(
        &b,
        &XiangqiEval,
        &SearchLimits::depth(5),
        &Signals::new(),
        None,
        &mut |_| {},
    );
    let m = format_move(r.best.unwrap(), Notation::Iccs);
    assert_ne!(m, "h8h9");
    assert!(r.score.0 < -300, "red stands worse: {}", r.score.0);
}

#[test]
fn no_move_means_no_best_move() {
    let board = Board::from_fen("3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22").unwrap();
    let mut s: Searcher<Board, XiangqiEval> = Searcher::new(8);
    let r = s.search(
        &board,
        &XiangqiEval,
        &SearchLimits::depth(3),
        &Signals::new(),
        None,
        &mut |_| {},
    );
    assert!(r.best.is_none());
}

#[test]
fn does_not_complete_a_perpetual_chase() {
    // The red rook has chased the unprotected black horse twice; c0a0
    // would repeat the position. Red is two rooks down, so a repetition
    // draw would be its best result, but a perpetual chase loses: the
    // searcher must play on instead.
    let b = Board::from_fen("3k2rr1/9/n8/9/9/9/9/9/9/2R2K3 w").unwrap();
    let b =
        tengen_xiangqi::play_moves(&b, "c0a0 a7c8 a0c0 c8a7".split(' '), Notation::Iccs).unwrap();
    let mut s: Searcher<Board, XiangqiEval> = Searcher::new(8);
    let r = s.search(
        &b,
        &XiangqiEval,
        &SearchLimits::depth(5),
        &Signals::new(),
        None,
        &mut |_| {},
    );
    assert_ne!(format_move(r.best.unwrap(), Notation::Iccs), "c0a0");
    assert!(r.score.0 < -300, "red stands worse: {}", r.score.0);
}

#[test]
fn banned_root_moves_are_respected() {
    let b = Board::startpos();
    let mut all = Vec::new();
    b.legal_moves(&mut all);
    let only: Vec<_> = all
        .iter()
        .copied()
        .filter(|m| m.to_string() == "i0i1")
        .collect();
    let mut s: Searcher<Board, XiangqiEval> = Searcher::new(8);
    let r = s.search(
        &b,
        &XiangqiEval,
        &SearchLimits::depth(4),
        &Signals::new(),
        Some(&only),
        &mut |_| {},
    );
    assert_eq!(format_move(r.best.unwrap(), Notation::Iccs), "i0i1");
}
