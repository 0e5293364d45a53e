//! Game records the engine reads: Go SGF (`loadsgf`).

use tengen_go::board::Color;
use tengen_go::game::KoRule;
use tengen_go::sgf::{self, Upto};

/// An SGF file from a hostile user, as GTP `loadsgf` reads it: the main
/// line is parsed and replayed under a ko rule picked by the input's
/// length. Nothing may panic. A record that loads is written back as SGF,
/// and that text reads and loads to the same moves, the same stones and
/// the same side to move, and writes out to the same text (komi is
/// compared through the text only: the writer rounds it); loading up to
/// a move number gives the moves before it.
pub fn go_sgf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = sgf::parse(&text) else {
        return;
    };
    assert!(!record.nodes.is_empty(), "a parsed record has a root node");
    let rule = [KoRule::Simple, KoRule::Positional, KoRule::Situational][data.len() % 3];
    let Ok((game, to_move)) = sgf::load(&record, None, rule) else {
        return;
    };
    let written = sgf::write(&game, None);
    let again = sgf::parse(&written)
        .unwrap_or_else(|e| panic!("written SGF {written:?} does not parse: {e}"));
    let (back, back_to_move) = sgf::load(&again, None, rule)
        .unwrap_or_else(|e| panic!("written SGF {written:?} does not load: {e}"));
    assert_eq!(back.moves(), game.moves(), "{written}");
    assert_eq!(back.size(), game.size());
    for c in [Color::Black, Color::White] {
        assert_eq!(back.board().stones(c), game.board().stones(c), "{written}");
    }
    assert_eq!(back_to_move, to_move, "{written}");
    assert_eq!(sgf::write(&back, None), written);
    // `loadsgf FILE N` stops before move N.
    let n = game.moves().len();
    if n > 0 {
        let upto = n / 2 + 1;
        let (part, _) = sgf::load(&record, Some(Upto::Number(upto)), rule)
            .unwrap_or_else(|e| panic!("the record loads whole but not up to move {upto}: {e}"));
        assert_eq!(part.moves(), &game.moves()[..upto - 1]);
    }
}
