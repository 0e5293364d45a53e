//! Zobrist keys, generated at compile time from a fixed seed.

use tengen_core::splitmix::step as splitmix;

pub struct Keys {
    pub piece: [[u64; 64]; 12],
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
    pub side: u64,
}

const fn make_keys() -> Keys {
    let mut state = 0x7465_6e67_656e_u64; // "tengen"
    let mut piece = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (ns, v) = splitmix(state);
            state = ns;
            piece[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    // Castling rights are four independent bits; xor their keys so that
    // dropping one right changes the key by that right's key alone.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (ns, v) = splitmix(state);
        state = ns;
        single[i] = v;
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut r = 0;
    while r < 16 {
        let mut b = 0;
        while b < 4 {
            if r & (1 << b) != 0 {
                castling[r] ^= single[b];
            }
            b += 1;
        }
        r += 1;
    }
    let mut ep_file = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let (ns, v) = splitmix(state);
        state = ns;
        ep_file[f] = v;
        f += 1;
    }
    let (_, side) = splitmix(state);
    Keys {
        piece,
        castling,
        ep_file,
        side,
    }
}

pub static KEYS: Keys = make_keys();
