//! Perft for Go: the game (board, ko rule, pass count) walked by the
//! shared algorithm of `tengen-games`. A pass is a legal move; two passes
//! in a row end the game, after which there is none.

use crate::board::{move_name, Move};
use crate::game::Game;

impl tengen_games::Perft for Game {
    type Move = Move;
    /// The game keeps its own history, which `undo` pops.
    type Undo = ();

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        out.extend(
            self.legal_points(self.to_move())
                .into_iter()
                .map(Move::Play),
        );
        out.push(Move::Pass);
    }

    fn play(&mut self, m: Move) -> Option<()> {
        self.play(self.to_move(), m).ok()
    }

    fn undo(&mut self, _: Move, _: ()) {
        Game::undo(self);
    }

    fn move_name(&self, m: Move) -> String {
        move_name(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::KoRule;
    use tengen_games::{divide, perft};

    #[test]
    fn tiny_boards_count_passes_and_the_end_of_the_game() {
        // 2x2: four points and a pass.
        let mut g = Game::new(2, 7.5);
        assert_eq!(perft(&mut g, 1), 5);
        // Depth 2 split by root move; after Black's pass White has all
        // five moves again.
        let d = divide(&mut g, 2);
        assert_eq!(d.len(), 5);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&mut g, 2));
        assert_eq!(d.last().copied(), Some((Move::Pass, 5)));
        // Two passes end the game: nothing below them.
        let mut g = Game::new(3, 7.5);
        let c = g.to_move();
        assert!(g.play(c, Move::Pass).is_ok());
        assert!(g.play(c.opp(), Move::Pass).is_ok());
        assert_eq!(perft(&mut g, 1), 0);
        assert_eq!(perft(&mut g, 3), 0);
        assert_eq!(g.moves().len(), 2);
    }

    #[test]
    fn a_rectangle_and_its_transpose_count_alike() {
        // Legality, captures and every ko rule do not care which way the
        // board lies: 3x2 and 2x3 (and 4x2, 2x4) give the same counts.
        for rule in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
            for (w, h, depth) in [(3usize, 2usize, 5u32), (4, 2, 4)] {
                let mut wide = Game::new_rect(w, h, 0.5);
                wide.set_ko_rule(rule);
                let mut tall = Game::new_rect(h, w, 0.5);
                tall.set_ko_rule(rule);
                assert_eq!(perft(&mut wide, 1), (w * h + 1) as u64);
                let a = perft(&mut wide, depth);
                assert_eq!(a, perft(&mut tall, depth), "{w}x{h} {rule:?}");
            }
        }
    }
}
