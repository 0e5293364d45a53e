//! Feature sets: which inputs a piece on a square is, seen from one side
//! (the *perspective*), and which output bucket a position uses.
//!
//! Pieces come as the data format's `(square, colour * 8 + kind)` pairs
//! (`colour * 16 + kind` for shogi's 14 kinds, [`FeatureSet::COLOUR_SHIFT`]),
//! so the engine and the trainer compute the very same indices. Shogi's
//! pieces in hand come as pseudo-squares past the board
//! ([`Shogi::hand_square`]). Each
//! perspective sees the board from its own side (ranks flipped for the
//! second player) and mirrored left-right when its king stands on the
//! right half; the whole input set is repeated per *king bucket*, a region
//! of the perspective's own king. A *view* (bucket and mirroring) changes
//! only when that king moves; then the perspective's sums are rebuilt.

/// Most pieces on the board in chess and xiangqi: the most inputs active
/// in one perspective at once there (the default of
/// [`FeatureSet::MAX_ACTIVE`]; shogi has 40).
pub const MAX_ACTIVE: usize = 32;

/// A perspective's view of the board: king bucket and mirroring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct View {
    pub bucket: u8,
    pub mirror: bool,
}

/// A game's inputs and output buckets.
pub trait FeatureSet: Copy + Send + Sync + 'static {
    /// Game byte in a network header (the data format's game id).
    const GAME: u8;
    /// Feature-set byte in a network header.
    const ID: u8;
    const NAME: &'static str;
    const SQUARES: usize;
    const KINDS: usize;
    const KING_BUCKETS: usize;
    /// Inputs per king bucket.
    const PER_BUCKET: usize = 2 * Self::KINDS * Self::SQUARES;
    /// All inputs.
    const INPUTS: usize = Self::KING_BUCKETS * Self::PER_BUCKET;
    const OUTPUT_BUCKETS: usize;
    /// The piece kind of the king (its code's low bits).
    const KING: u8;
    /// A piece code is `colour << COLOUR_SHIFT | kind`.
    const COLOUR_SHIFT: u32 = 3;
    /// Most inputs active in one perspective at once.
    const MAX_ACTIVE: usize = MAX_ACTIVE;
    /// Largest feature weight and bias magnitudes a network file may
    /// hold: `MAX_ACTIVE * FT_WEIGHT_MAX + FT_BIAS_MAX` must fit in i16,
    /// so that no accumulator ever overflows (asserted for each feature
    /// set in this module's tests and checked on load).
    const FT_WEIGHT_MAX: i16 = 511;
    const FT_BIAS_MAX: i16 = 16_383;

    /// The colour (0 first player) and kind of piece `code`.
    #[inline]
    fn split(code: u8) -> (usize, usize) {
        (
            (code >> Self::COLOUR_SHIFT) as usize & 1,
            (code & ((1 << Self::COLOUR_SHIFT) - 1)) as usize,
        )
    }

    /// `perspective`'s view when its king stands on `king` (a raw square).
    fn view(perspective: usize, king: u8) -> View;
    /// The perspective's oriented square for a raw square, before mirroring.
    fn orient(perspective: usize, sq: u8) -> usize;
    /// Mirrors an oriented square left-right.
    fn mirror(sq: usize) -> usize;

    /// The input of piece `code` on raw square `sq`, from `perspective`
    /// with view `v`.
    #[inline]
    fn index(perspective: usize, v: View, sq: u8, code: u8) -> usize {
        let mut s = Self::orient(perspective, sq);
        if v.mirror {
            s = Self::mirror(s);
        }
        let (colour, kind) = Self::split(code);
        let rel = usize::from(colour != perspective);
        v.bucket as usize * Self::PER_BUCKET + (rel * Self::KINDS + kind) * Self::SQUARES + s
    }

    /// Output bucket for a position with `pieces` pieces on the board
    /// (kings included).
    #[inline]
    fn output_bucket(pieces: usize) -> usize {
        (pieces.saturating_sub(2) / 4).min(Self::OUTPUT_BUCKETS - 1)
    }
}

/// Chess: 4 king buckets x (own, enemy) x 6 kinds x 64 squares = 3,072
/// inputs, mirrored so the own king is always on files a-d; output
/// buckets by piece count, 8 of them.
///
/// King buckets (oriented, mirrored king square): 0 = a1, b1; 1 = c1, d1;
/// 2 = the second rank; 3 = anything further up.
#[derive(Clone, Copy, Debug)]
pub struct Chess;

impl FeatureSet for Chess {
    const GAME: u8 = 1;
    const ID: u8 = 1;
    const NAME: &'static str = "chess-halfka-4kb-mirrored";
    const SQUARES: usize = 64;
    const KINDS: usize = 6;
    const KING_BUCKETS: usize = 4;
    const OUTPUT_BUCKETS: usize = 8;
    const KING: u8 = 5;

    #[inline]
    fn orient(perspective: usize, sq: u8) -> usize {
        if perspective == 0 {
            sq as usize & 63
        } else {
            (sq as usize & 63) ^ 56
        }
    }

    #[inline]
    fn mirror(sq: usize) -> usize {
        sq ^ 7
    }

    #[inline]
    fn view(perspective: usize, king: u8) -> View {
        let k = Self::orient(perspective, king);
        let mirror = k & 7 >= 4;
        let k = if mirror { k ^ 7 } else { k };
        let bucket = match (k >> 3, k & 7) {
            (0, 0 | 1) => 0,
            (0, _) => 1,
            (1, _) => 2,
            _ => 3,
        };
        View { bucket, mirror }
    }
}

/// Xiangqi: 6 palace buckets x (own, enemy) x 7 kinds x 90 points =
/// 7,560 inputs, mirrored so the own general is on files d-e; output
/// buckets by piece count, 8 of them.
///
/// Palace buckets (oriented, mirrored general's point): rank 0, 1, 2 of
/// the palace times file d or e: `rank * 2 + (file - d)`.
#[derive(Clone, Copy, Debug)]
pub struct Xiangqi;

impl FeatureSet for Xiangqi {
    const GAME: u8 = 2;
    const ID: u8 = 1;
    const NAME: &'static str = "xiangqi-palace-6kb-mirrored";
    const SQUARES: usize = 90;
    const KINDS: usize = 7;
    const KING_BUCKETS: usize = 6;
    const OUTPUT_BUCKETS: usize = 8;
    const KING: u8 = 0;

    #[inline]
    fn orient(perspective: usize, sq: u8) -> usize {
        let sq = (sq as usize).min(89);
        if perspective == 0 {
            sq
        } else {
            (9 - sq / 9) * 9 + sq % 9
        }
    }

    #[inline]
    fn mirror(sq: usize) -> usize {
        sq - sq % 9 + (8 - sq % 9)
    }

    #[inline]
    fn view(perspective: usize, king: u8) -> View {
        let k = Self::orient(perspective, king);
        let (rank, file) = (k / 9, k % 9);
        let mirror = file > 4;
        let file = if mirror { 8 - file } else { file };
        // A legal general is in its palace: ranks 0-2, files d-f (3-5);
        // clamp anything else rather than index out of range.
        let bucket = rank.min(2) * 2 + file.clamp(3, 4) - 3;
        View {
            bucket: bucket as u8,
            mirror,
        }
    }
}

/// Shogi: (own, enemy) x 14 kinds x 81 squares, then a "thermometer"
/// of each side's pieces in hand (the first, second, ... pawn in hand are
/// separate inputs; 38 a side): 2,344 inputs, one king bucket, mirrored
/// so the own king stands on files 1-5 as its side sees them; one output
/// bucket. Piece codes are `colour * 16 + kind` (the shogi crate's kinds,
/// P L N S G B R K +P +L +N +S +B +R = 0..13; Black, sente, = 0).
///
/// The `n`-th (0-based) piece of hand kind `h` (P L N S G B R = 0..6) of
/// a colour is the pseudo-square [`Shogi::hand_square`]`(h, n)`, 81 and
/// up, with the colour in its code, so a capture or a drop is a
/// [`crate::accumulator::Change`] like any other move. A king square
/// past the board ([`Shogi::NO_KING`]) is a side without a king (tsume
/// positions): no mirroring.
///
/// The very inputs of `crates/shogi`'s own network before it moved here
/// (file format `TGSNNUE3`, one bucket, no king-relative inputs), so its
/// networks convert exactly (`tengen-shogi`'s `nnue_convert` example).
#[derive(Clone, Copy, Debug)]
pub struct Shogi;

impl Shogi {
    /// Board inputs per bucket: own/enemy x 14 kinds x 81 squares.
    pub const BOARD_INPUTS: usize = 2 * 14 * 81;
    /// Most pieces of each hand kind (P L N S G B R) that get an input.
    pub const HAND_MAX: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];
    /// Where each hand kind's thermometer starts within a side's inputs.
    pub const HAND_OFFSET: [u8; 7] = [0, 18, 22, 26, 30, 34, 36];
    /// Hand inputs of one side.
    pub const HAND_PER_SIDE: usize = 38;
    /// A king "square" meaning that side has no king.
    pub const NO_KING: u8 = 255;

    /// The pseudo-square of the `n`-th (0-based) piece of hand kind `h`
    /// (P L N S G B R = 0..6); `None` past the thermometer's end.
    #[inline]
    pub fn hand_square(h: usize, n: usize) -> Option<u8> {
        let max = *Self::HAND_MAX.get(h)?;
        (n < max as usize).then(|| 81 + Self::HAND_OFFSET[h] + n as u8)
    }
}

impl FeatureSet for Shogi {
    const GAME: u8 = 3;
    const ID: u8 = 1;
    const NAME: &'static str = "shogi-board-hand-mirrored";
    const SQUARES: usize = 81;
    const KINDS: usize = 14;
    const KING_BUCKETS: usize = 1;
    const PER_BUCKET: usize = Self::BOARD_INPUTS + 2 * Self::HAND_PER_SIDE;
    const OUTPUT_BUCKETS: usize = 1;
    const KING: u8 = 7;
    const COLOUR_SHIFT: u32 = 4;
    /// 40 pieces, each on the board or in a hand.
    const MAX_ACTIVE: usize = 40;
    /// `40 * 400 + 16,383 = 32,383 < 2^15`.
    const FT_WEIGHT_MAX: i16 = 400;

    #[inline]
    fn orient(perspective: usize, sq: u8) -> usize {
        let sq = (sq as usize).min(80);
        if perspective == 0 {
            sq
        } else {
            80 - sq
        }
    }

    #[inline]
    fn mirror(sq: usize) -> usize {
        sq - sq % 9 + (8 - sq % 9)
    }

    #[inline]
    fn view(perspective: usize, king: u8) -> View {
        if king as usize >= Self::SQUARES {
            return View::default();
        }
        View {
            bucket: 0,
            mirror: Self::orient(perspective, king) % 9 > 4,
        }
    }

    #[inline]
    fn index(perspective: usize, v: View, sq: u8, code: u8) -> usize {
        let (colour, kind) = Self::split(code);
        let rel = usize::from(colour != perspective);
        if (sq as usize) < Self::SQUARES {
            let mut s = Self::orient(perspective, sq);
            if v.mirror {
                s = Self::mirror(s);
            }
            (rel * Self::KINDS + kind) * Self::SQUARES + s
        } else {
            let slot = (sq as usize - Self::SQUARES).min(Self::HAND_PER_SIDE - 1);
            Self::BOARD_INPUTS + rel * Self::HAND_PER_SIDE + slot
        }
    }
}

/// The king square of each colour among `pieces`, if there is one.
pub fn kings<F: FeatureSet>(pieces: &[(u8, u8)]) -> [Option<u8>; 2] {
    let mut k = [None; 2];
    for &(sq, code) in pieces {
        let (colour, kind) = F::split(code);
        if kind == F::KING as usize && (sq as usize) < F::SQUARES {
            k[colour] = Some(sq);
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_distinct_and_in_range<F: FeatureSet>() {
        for p in 0..2 {
            for king in 0..F::SQUARES as u8 {
                let v = F::view(p, king);
                assert!((v.bucket as usize) < F::KING_BUCKETS);
                let mut seen = vec![false; F::INPUTS];
                let second = 1u8 << F::COLOUR_SHIFT;
                for sq in 0..F::SQUARES as u8 {
                    for code in (0..F::KINDS as u8).chain(second..second + F::KINDS as u8) {
                        let i = F::index(p, v, sq, code);
                        assert!(i < F::INPUTS);
                        assert!(!seen[i], "{} p{p} king {king} sq {sq} code {code}", F::NAME);
                        seen[i] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn indices_are_distinct_and_in_range() {
        all_distinct_and_in_range::<Chess>();
        all_distinct_and_in_range::<Xiangqi>();
        all_distinct_and_in_range::<Shogi>();
        assert_eq!(Chess::INPUTS, 3072);
        assert_eq!(Xiangqi::INPUTS, 7560);
        assert_eq!(Shogi::INPUTS, 2344);
    }

    /// No accumulator can overflow: the most active inputs at the largest
    /// weight, plus the largest bias, fit in i16.
    #[test]
    fn accumulators_cannot_overflow() {
        fn fits<F: FeatureSet>() -> bool {
            F::MAX_ACTIVE as i32 * F::FT_WEIGHT_MAX as i32 + F::FT_BIAS_MAX as i32
                <= i16::MAX as i32
        }
        assert!(fits::<Chess>() && fits::<Xiangqi>() && fits::<Shogi>());
    }

    /// Shogi's hand inputs: every (side, kind, count) has its own input
    /// after the board's, the colour comes from the code, and the view
    /// (mirroring) does not move them.
    #[test]
    fn shogi_hand_inputs() {
        let mut seen = vec![false; Shogi::INPUTS];
        for p in 0..2 {
            for colour in 0..2u8 {
                for h in 0..7 {
                    for n in 0..Shogi::HAND_MAX[h] as usize {
                        let sq = Shogi::hand_square(h, n).unwrap_or(0);
                        assert!(sq >= 81);
                        let code = colour << 4 | h as u8;
                        let i = Shogi::index(p, View::default(), sq, code);
                        let m = View {
                            bucket: 0,
                            mirror: true,
                        };
                        assert_eq!(i, Shogi::index(p, m, sq, code));
                        assert!((Shogi::BOARD_INPUTS..Shogi::INPUTS).contains(&i));
                        if p == 0 {
                            assert!(!seen[i]);
                            seen[i] = true;
                        }
                    }
                    assert_eq!(Shogi::hand_square(h, Shogi::HAND_MAX[h] as usize), None);
                }
            }
        }
        assert!(seen[Shogi::BOARD_INPUTS..].iter().all(|&s| s));
        // Sente's king on square 76 (column 76 % 9 = 4) is on the centre
        // file: no mirror; on 77 it stands right of it as sente sees it.
        assert!(!Shogi::view(0, 76).mirror);
        assert!(Shogi::view(0, 77).mirror);
        assert_eq!(Shogi::view(0, 77), Shogi::view(1, 80 - 77));
        assert_eq!(Shogi::view(1, Shogi::NO_KING), View::default());
        // A king of either colour is found on the board, not in hand.
        let k = kings::<Shogi>(&[(76, 7), (4, 16 + 7), (81, 7)]);
        assert_eq!(k, [Some(76), Some(4)]);
    }

    #[test]
    fn perspectives_see_mirror_images_alike() {
        // White king e1 and Black king e8 share a view; a white knight on
        // g1 seen by White is a black knight on g8 seen by Black.
        let (e1, e8, g1, g8) = (4u8, 60u8, 6u8, 62u8);
        assert_eq!(Chess::view(0, e1), Chess::view(1, e8));
        assert!(Chess::view(0, e1).mirror);
        assert_eq!(Chess::view(0, e1).bucket, 1);
        let v = Chess::view(0, e1);
        assert_eq!(Chess::index(0, v, g1, 1), Chess::index(1, v, g8, 9));
        // The mirror puts g1 on b1.
        assert_eq!(Chess::index(0, v, g1, 1), 768 + 64 + 1);
        assert_eq!(Chess::view(0, 0).bucket, 0);
        assert_eq!(Chess::view(0, 12).bucket, 2);
        assert_eq!(Chess::view(0, 35).bucket, 3);
        // Xiangqi: Red general e0 (point 4) and Black general e9 (point 85).
        assert_eq!(Xiangqi::view(0, 4), Xiangqi::view(1, 85));
        assert_eq!(Xiangqi::view(0, 4).bucket, 1);
        assert!(!Xiangqi::view(0, 4).mirror);
        assert_eq!(Xiangqi::view(0, 23), Xiangqi::view(1, 68).clone());
        let f1 = Xiangqi::view(0, 14); // f1: mirrored to d1
        assert!(f1.mirror);
        assert_eq!(f1.bucket, 2);
    }

    #[test]
    fn output_buckets_follow_material() {
        assert_eq!(Chess::output_bucket(32), 7);
        assert_eq!(Chess::output_bucket(2), 0);
        assert_eq!(Chess::output_bucket(6), 1);
        assert_eq!(Xiangqi::output_bucket(0), 0);
        assert_eq!(Xiangqi::output_bucket(40), 7);
    }
}
