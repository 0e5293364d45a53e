//! `--eval-file`: loads a network for the game its header names (chess,
//! xiangqi or shogi), so one flag serves every front-end.
//!
//! Hook for the protocol front-ends (UCI `EvalFile`, UCCI/UCI-for-xiangqi
//! `EvalFile`, USI `EvalFile`): call `tengen_chess::nnue::load_eval_file(value)`,
//! `tengen_xiangqi::nnue::load_eval_file(value)` or
//! `tengen_shogi::nnue::load_eval_file(value)` from `setoption`; each
//! returns the line to show (`info string ...`), or an error to show
//! while the evaluation stays as it was. New searches pick the network up.

use tengen_games::Game;

/// The game a network file's header names: xiangqi for game byte 2,
/// shogi for 3, chess for anything else (the chess loader then says what
/// is wrong).
fn game_of(bytes: &[u8]) -> Game {
    match bytes.get(8) {
        Some(2) => Game::Xiangqi,
        Some(3) => Game::Shogi,
        _ => Game::Chess,
    }
}

/// Loads `path` into the slot of the game its header names. The names
/// that are not files (`<default>`: the built-in networks; `<empty>`,
/// `none` or nothing: the hand-made evaluations) apply to every game.
pub fn load(path: &str) -> Result<String, String> {
    let name = path.trim();
    if tengen_nnue::slot::is_builtin_name(name) {
        let chess = tengen_chess::nnue::load_eval_file(name)?;
        let xiangqi = tengen_xiangqi::nnue::load_eval_file(name)?;
        let shogi = tengen_shogi::nnue::load_eval_file(name)?;
        return Ok(format!("chess {chess}; xiangqi {xiangqi}; shogi {shogi}"));
    }
    let bytes = std::fs::read(name).map_err(|e| format!("EvalFile {name}: {e}"))?;
    match game_of(&bytes) {
        Game::Xiangqi => tengen_xiangqi::nnue::load_eval_file(name),
        Game::Shogi => tengen_shogi::nnue::load_eval_file(name),
        _ => tengen_chess::nnue::load_eval_file(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_nnue::features::{Chess, Xiangqi};

    /// A xiangqi network goes to the xiangqi loader, a chess one to the
    /// chess loader, anything else is refused with its reason. Only
    /// refusals go through `load`: the slots are process-wide, and other
    /// tests of this binary search with the default evaluation.
    #[test]
    fn networks_go_to_the_game_their_header_names() {
        let dir = std::env::temp_dir().join(format!("tengen-evalfile-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let cfg = tengen_train::Config {
            hidden: 16,
            ..Default::default()
        };
        let xq = dir.join("xq.nnue");
        let chess = dir.join("chess.nnue");
        let junk = dir.join("junk.nnue");
        let write =
            |p: &std::path::Path, b: &[u8]| std::fs::write(p, b).unwrap_or_else(|e| panic!("{e}"));
        write(
            &xq,
            &tengen_train::Trainer::<Xiangqi>::new(cfg.clone())
                .quantise()
                .to_bytes(),
        );
        write(
            &chess,
            &tengen_train::Trainer::<Chess>::new(cfg)
                .quantise()
                .to_bytes(),
        );
        write(
            &junk,
            b"TGNNUEv1 but nothing after the magic that makes sense",
        );
        let read = |p: &std::path::Path| std::fs::read(p).unwrap_or_default();
        assert_eq!(game_of(&read(&xq)), Game::Xiangqi);
        assert_eq!(game_of(&read(&chess)), Game::Chess);
        let shogi = dir.join("shogi.nnue");
        write(
            &shogi,
            &tengen_shogi::nnue::random_network(16, 3).to_bytes(),
        );
        assert_eq!(game_of(&read(&shogi)), Game::Shogi);
        // The shogi loader refuses another game's network with the reason.
        let err = tengen_shogi::nnue::load_eval_file(&chess.to_string_lossy())
            .err()
            .unwrap_or_default();
        assert!(err.contains("a chess network, not a shogi one"), "{err}");
        assert!(tengen_shogi::nnue::current_network().is_some_and(|n| n.residual));
        assert!(tengen_nnue::network::Network::from_bytes::<Xiangqi>(&read(&xq)).is_ok());
        let err = load(&junk.to_string_lossy()).err().unwrap_or_default();
        assert!(err.contains("checksum"), "{err}");
        assert!(load("/no/such/file").is_err());
        assert!(tengen_chess::nnue::current_network().is_some_and(|n| n.residual));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
