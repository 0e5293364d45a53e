//! Learned move strengths ("gammas", Coulom 2007): each feature value of
//! `features.rs` has a strength, a move's strength is the product of its
//! features', and the chance that a move is the one played is its share
//! of the sum over the legal moves (a Bradley-Terry model fitted with
//! minorization-maximization, `mm.rs`, on moves of GNU Go 3.8 by
//! `examples/pattern_fit.rs`).
//!
//! Two fitted tables are embedded, one for boards smaller than 13x13
//! (`tables/gammas9.txt`, fitted on 9x9 games) and one for the others
//! (`tables/gammas19.txt`, on 19x19 games): the line and distance
//! features mean different things on the two. A feature value a table
//! does not list has strength 1. GTP `tengen-gammas FILE` replaces the
//! table of the current board's class with one read from a file (the
//! fitter's output), for A/B matches of a new fit without a new build.

use crate::board::{Board, Color, Move, Point};
use crate::features::{self, Features, GROUPS, NAMES, NONE};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{OnceLock, RwLock};

/// The tables shipped in the binary; their headers say how they were made.
const EMBEDDED_SMALL: &str = include_str!("tables/gammas9.txt");
const EMBEDDED_BIG: &str = include_str!("tables/gammas19.txt");

/// Boards of this size and more use the big-board table.
pub const BIG_BOARD: usize = 13;

/// Values of the dense groups (all but the diamond) stay below this.
const DENSE_LIMIT: u32 = 1 << 16;

/// Strengths per group and value: arrays for the groups with small values
/// (the 3x3 shape's code is 16 bits), a map for the diamond's 24-bit
/// codes. The tree looks up ten values for each child it creates, so the
/// map hashes with one multiplication rather than SipHash, and it holds
/// every symmetric image of each listed diamond: the tree looks up the
/// raw code around a point and skips the canonicalisation.
#[derive(Debug, Default)]
pub struct Table {
    dense: Vec<Vec<f32>>,
    diamond: HashMap<u32, f32, BuildHasherDefault<CodeHasher>>,
    /// Feature values listed (counted once at parse: the tree asks
    /// whether a table is empty at every expansion).
    listed: usize,
}

/// A hasher for shape codes: Fibonacci hashing of the one `u32` written.
#[derive(Default)]
pub struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.0 = (v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Table {
    /// Reads `group value gamma` lines; `#` starts a comment. Lines that do
    /// not parse are skipped (the embedded table is checked by a test).
    pub fn parse(text: &str) -> Table {
        let mut t = Table {
            dense: vec![Vec::new(); GROUPS],
            diamond: HashMap::default(),
            listed: 0,
        };
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let mut w = line.split_whitespace();
            let (Some(name), Some(value), Some(gamma)) = (w.next(), w.next(), w.next()) else {
                continue;
            };
            let Some(g) = NAMES.iter().position(|&n| n == name) else {
                continue;
            };
            if let (Ok(v), Ok(x)) = (value.parse::<u32>(), gamma.parse::<f32>()) {
                if x.is_finite() && x > 0.0 {
                    t.set(g, v, x);
                }
            }
        }
        t
    }

    fn set(&mut self, group: usize, v: u32, gamma: f32) {
        if group == features::DIAMOND {
            // A value listed again replaces the first (and its images).
            self.listed += usize::from(!self.diamond.contains_key(&v));
            for image in features::diamond_images(v) {
                self.diamond.insert(image, gamma);
            }
        } else if v < DENSE_LIMIT {
            let d = &mut self.dense[group];
            if d.len() <= v as usize {
                d.resize(v as usize + 1, f32::NAN);
            }
            self.listed += usize::from(d[v as usize].is_nan());
            d[v as usize] = gamma;
        }
    }

    /// Number of feature values listed.
    pub fn len(&self) -> usize {
        self.listed
    }

    pub fn is_empty(&self) -> bool {
        self.listed == 0
    }

    /// The strength of one group's value (1 when unknown or absent); a
    /// diamond may be given by its canonical code or any of its images.
    pub fn value(&self, group: usize, v: u32) -> f32 {
        if v == NONE {
            return 1.0;
        }
        let x = if group == features::DIAMOND {
            self.diamond.get(&v).copied()
        } else {
            self.dense
                .get(group)
                .and_then(|d| d.get(v as usize))
                .copied()
        };
        // NaN marks a dense slot the table does not list.
        x.filter(|x| !x.is_nan()).unwrap_or(1.0)
    }

    /// The strength of a move with these features.
    pub fn gamma(&self, f: &Features) -> f64 {
        f.iter()
            .enumerate()
            .map(|(g, &v)| self.value(g, v) as f64)
            .product()
    }

    /// The strength of each of `moves` for `c` on `b`.
    pub fn gammas(&self, b: &Board, c: Color, moves: &[Move], prev2: Option<Point>) -> Vec<f64> {
        features::of_moves_raw(b, c, moves, prev2)
            .iter()
            .map(|f| self.gamma(f))
            .collect()
    }
}

/// Tables loaded at run time, for boards below `BIG_BOARD` and the
/// others, with the file each came from. A loaded table is leaked: every
/// search thread reads it for as long as the process lives, and loads are
/// rare commands, so each costs its table's memory once.
static LOADED: [RwLock<Option<(&'static Table, String)>>; 2] =
    [RwLock::new(None), RwLock::new(None)];

fn class(size: usize) -> usize {
    usize::from(size >= BIG_BOARD)
}

/// The table in use for a board of `size`: a loaded one, else the
/// embedded one.
pub fn table(size: usize) -> &'static Table {
    // Called at every tree expansion, under the tree's lock: copy out the
    // reference only, never the source's name.
    let loaded = LOADED[class(size)]
        .read()
        .ok()
        .and_then(|g| g.as_ref().map(|&(t, _)| t));
    loaded.unwrap_or_else(|| embedded(size))
}

/// Replaces the table for boards of `size`'s class with the one in
/// `text` (from the file `source`); refused when it lists nothing.
/// Returns the number of feature values listed.
pub fn load(size: usize, text: &str, source: &str) -> Result<usize, String> {
    let t = Table::parse(text);
    if t.is_empty() {
        return Err("no move strengths in the file".into());
    }
    let n = t.len();
    let t: &'static Table = Box::leak(Box::new(t));
    let mut slot = LOADED[class(size)]
        .write()
        .map_err(|_| "table lock poisoned".to_string())?;
    *slot = Some((t, source.to_string()));
    Ok(n)
}

/// Goes back to the embedded table for boards of `size`'s class.
pub fn unload(size: usize) {
    if let Ok(mut slot) = LOADED[class(size)].write() {
        *slot = None;
    }
}

/// The file of the table loaded for boards of `size`'s class, if any.
pub fn loaded_from(size: usize) -> Option<String> {
    LOADED[class(size)]
        .read()
        .ok()
        .and_then(|g| g.as_ref().map(|(_, f)| f.clone()))
}

/// The embedded table for a board of `size`.
pub fn embedded(size: usize) -> &'static Table {
    static SMALL: OnceLock<Table> = OnceLock::new();
    static BIG: OnceLock<Table> = OnceLock::new();
    if size >= BIG_BOARD {
        BIG.get_or_init(|| Table::parse(EMBEDDED_BIG))
    } else {
        SMALL.get_or_init(|| Table::parse(EMBEDDED_SMALL))
    }
}

/// Which priors the tree gives new nodes: 0 not decided yet (the
/// environment's `TENGEN_GO_PRIORS` decides), 1 learned, 2 hand-made.
static PRIORS: AtomicU8 = AtomicU8::new(0);

/// Whether new tree nodes get their priors from the learned table (the
/// default) or from the hand-made rules of `mcts.rs`. The learned priors
/// predict a stronger player's moves far better and won 91% against GNU
/// Go 10 at 1 s a move, against 86.5% for the hand-made ones on the same
/// openings (docs/strength.md, "Session 39"). The hand-made ones stay for
/// A/B matches (GTP `tengen-priors hand`, or `TENGEN_GO_PRIORS=hand` in
/// the environment), for a table that lists nothing (`expand` falls back
/// to them), and for the pass where a table rates it too highly.
pub fn learned_priors() -> bool {
    match PRIORS.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let learned = std::env::var("TENGEN_GO_PRIORS").map_or(true, |v| v != "hand");
            PRIORS.store(if learned { 1 } else { 2 }, Ordering::Relaxed);
            learned
        }
    }
}

/// Sets the priors: learned (true) or hand-made.
pub fn set_learned_priors(on: bool) {
    PRIORS.store(if on { 1 } else { 2 }, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_vertex;

    #[test]
    fn embedded_tables_parse_and_rank_captures_high() {
        for (size, text) in [(9, EMBEDDED_SMALL), (19, EMBEDDED_BIG)] {
            let lines = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .count();
            assert_eq!(
                embedded(size).len(),
                lines,
                "every line of the table parses"
            );
        }
        let t = table(9);
        if t.is_empty() {
            return;
        }
        // A capture that saves an own chain in atari beats a random first-
        // line move.
        let mut b = Board::new(9);
        let play = |b: &mut Board, c: Color, v: &str| {
            if let Some(m) = parse_vertex(v, 9) {
                b.play(c, m);
            }
        };
        play(&mut b, Color::Black, "D5");
        for v in ["C5", "E5", "D6"] {
            play(&mut b, Color::White, v);
        }
        play(&mut b, Color::Black, "C6");
        play(&mut b, Color::Black, "B5");
        play(&mut b, Color::White, "E4");
        // White C5 is in atari (B5, C6 black; C4 the last liberty).
        let m = |v: &str| parse_vertex(v, 9).unwrap_or(Move::Pass);
        let g = t.gammas(&b, Color::Black, &[m("C4"), m("J1")], None);
        assert!(g[0] > g[1], "{g:?}");
    }

    #[test]
    fn a_loaded_table_replaces_its_class_only_until_unloaded() {
        // The embedded text itself, so that other tests' searches see the
        // same values while it is loaded.
        let n = load(19, EMBEDDED_BIG, "copy").expect("the embedded table loads");
        assert_eq!(n, embedded(19).len());
        assert!(
            !std::ptr::eq(table(13), embedded(13)),
            "13x13 shares 19x19's class"
        );
        assert!(
            std::ptr::eq(table(9), embedded(9)),
            "small boards keep theirs"
        );
        assert_eq!(loaded_from(19).as_deref(), Some("copy"));
        assert!(load(19, "shape3 1 nan\n# nothing else\n", "bad").is_err());
        assert_eq!(
            loaded_from(19).as_deref(),
            Some("copy"),
            "a refused file changes nothing"
        );
        unload(19);
        assert!(std::ptr::eq(table(19), embedded(19)));
        assert_eq!(loaded_from(19), None);
    }

    #[test]
    fn raw_diamond_lookups_match_the_canonical_features() {
        // The tree looks up raw diamonds in a map of every image; the
        // fitter's canonical features must give the same strengths.
        let mut rng = crate::playout::Rng::new(5);
        let mut seen_diamond = 0;
        for (size, plies) in [(9, 10), (9, 40), (9, 70), (13, 60), (19, 120)] {
            let t = table(size);
            let mut b = Board::new(size);
            crate::board::test_util::play_random(&mut b, &mut rng, plies);
            for c in [Color::Black, Color::White] {
                let moves: Vec<Move> = b
                    .points()
                    .filter(|&p| b.is_legal(c, Move::Play(p)))
                    .map(Move::Play)
                    .chain([Move::Pass])
                    .collect();
                let fast = t.gammas(&b, c, &moves, None);
                let slow: Vec<f64> = features::of_moves(&b, c, &moves, None)
                    .iter()
                    .map(|f| {
                        seen_diamond +=
                            usize::from(t.value(features::DIAMOND, f[features::DIAMOND]) != 1.0);
                        t.gamma(f)
                    })
                    .collect();
                assert_eq!(fast, slow, "size {size}, {plies} plies, {c:?}");
            }
        }
        assert!(seen_diamond > 0, "some listed diamond was looked up");
    }

    #[test]
    fn parse_skips_junk_and_defaults_to_one() {
        let t = Table::parse(
            "# header\nline 1 0.5\nline x 2\nnosuch 1 3\ncapture 1 4.0 # note\nline 1 0.5\n",
        );
        assert_eq!(t.len(), 2, "a value listed twice counts once");
        assert_eq!(t.value(features::LINE, 1), 0.5);
        assert_eq!(t.value(features::LINE, 2), 1.0);
        assert_eq!(t.value(features::CAPTURE, NONE), 1.0);
        let mut f = [NONE; GROUPS];
        f[features::LINE] = 1;
        f[features::CAPTURE] = 1;
        assert!((t.gamma(&f) - 2.0).abs() < 1e-6);
    }
}
