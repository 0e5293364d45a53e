//! Perft: leaf counts of the legal move tree, the rules' proof.

use crate::board::Board;
use crate::types::Move;

/// Number of leaves `depth` plies below the position.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move buffer per ply, reused across the whole tree.
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
    count(board, depth, &mut buffers)
}

fn count(board: &mut Board, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    board.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &m in moves.iter() {
        board.make(m);
        n += count(board, depth - 1, rest);
        board.unmake(m);
    }
    n
}

/// Each root move with its leaf count, in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::with_capacity(64);
    board.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            board.make(m);
            let n = if depth <= 1 {
                1
            } else {
                perft(board, depth - 1)
            };
            board.unmake(m);
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERFT: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/testdata/xiangqi/perft.txt"
    ));

    /// Every position of the reference file at every listed depth (counts
    /// by Fairy-Stockfish 11.1). Depths whose count exceeds the budget are
    /// too slow for a debug build; release runs all of them.
    #[test]
    fn reference_perft() {
        let budget: u64 = if cfg!(debug_assertions) {
            200_000
        } else {
            u64::MAX
        };
        let mut checked = 0;
        for line in PERFT
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().unwrap();
            let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for field in parts {
                let Some(rest) = field.strip_prefix('D') else {
                    continue;
                };
                let (d, n) = rest.split_once(' ').unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                if n > budget {
                    continue;
                }
                assert_eq!(perft(&mut board, d), n, "{fen} depth {d}");
                checked += 1;
            }
            assert_eq!(board.fen(), Board::from_fen(fen).unwrap().fen());
        }
        assert!(checked >= 30 * 3, "only {checked} counts checked");
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut b = Board::startpos();
        let d = divide(&mut b, 3);
        assert_eq!(d.len(), 44);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 79666);
    }
}
