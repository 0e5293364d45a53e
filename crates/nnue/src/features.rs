//! Feature sets: which inputs a piece on a square is, seen from one side
//! (the *perspective*), and which output bucket a position uses.
//!
//! Pieces come as the data format's `(square, colour * 8 + kind)` pairs,
//! so the engine and the trainer compute the very same indices. Each
//! perspective sees the board from its own side (ranks flipped for the
//! second player) and mirrored left-right when its king stands on the
//! right half; the whole input set is repeated per *king bucket*, a region
//! of the perspective's own king. A *view* (bucket and mirroring) changes
//! only when that king moves; then the perspective's sums are rebuilt.

/// Most pieces on the board in any game here (chess, xiangqi): the most
/// inputs active in one perspective at once.
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
        let rel = usize::from((code >> 3) as usize != perspective);
        let kind = (code & 7) as usize;
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

/// The king square of each colour among `pieces`, if there is one.
pub fn kings<F: FeatureSet>(pieces: &[(u8, u8)]) -> [Option<u8>; 2] {
    let mut k = [None; 2];
    for &(sq, code) in pieces {
        if code & 7 == F::KING {
            k[(code >> 3) as usize & 1] = Some(sq);
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
                for sq in 0..F::SQUARES as u8 {
                    for code in (0..F::KINDS as u8).chain(8..8 + F::KINDS as u8) {
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
        assert_eq!(Chess::INPUTS, 3072);
        assert_eq!(Xiangqi::INPUTS, 7560);
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
