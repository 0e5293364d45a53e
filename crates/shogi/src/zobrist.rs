//! Zobrist keys, generated at compile time from a fixed seed so that keys
//! (and therefore bench signatures) are the same on every build.

use tengen_core::splitmix::step as splitmix;

const fn build() -> ([[u64; 81]; 28], [[u64; 7]; 2], u64) {
    let mut board = [[0u64; 81]; 28];
    let mut hand = [[0u64; 7]; 2];
    let mut state = 0x7465_6E67_656E_7368u64; // "tengensh"
    let mut p = 0;
    while p < 28 {
        let mut s = 0;
        while s < 81 {
            let (ns, v) = splitmix(state);
            state = ns;
            board[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let (ns, v) = splitmix(state);
            state = ns;
            hand[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    (board, hand, side)
}

const KEYS: ([[u64; 81]; 28], [[u64; 7]; 2], u64) = build();

/// Key of a coloured piece (by `Piece::index`) on a square.
pub static PIECE_SQUARE: [[u64; 81]; 28] = KEYS.0;
/// Added once per piece in hand (so the key depends on the count).
pub static HAND: [[u64; 7]; 2] = KEYS.1;
/// Xored in when White is to move.
pub const SIDE: u64 = KEYS.2;
