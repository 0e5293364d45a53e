//! Legal move generation. Pins and checks are found first from the king
//! outwards, so that every generated move is legal without making it; only
//! a pawn drop that gives check needs a trial (the drop-pawn-mate rule).

use crate::board::Board;
use crate::geometry::{self, between, direction, is_dead_end, opposite, KNIGHT_TO, NEIGHBOR, NONE};
use crate::types::{Color, Kind, Move, Piece, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    All,
    /// Captures and promotions only, no drops.
    Tactical,
}

#[inline]
fn bit(i: usize) -> u128 {
    1u128 << i
}

/// The direction pieces of `color` advance in.
#[inline]
pub fn forward(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 4,
    }
}

impl Board {
    /// Appends every legal move to `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(Gen::All, out);
    }

    /// Where the side to move's king on `k` may step in direction `d`:
    /// onto the board, not onto its own piece, nor onto a square the
    /// opponent reaches (the king's own square counts as empty, so a
    /// slider's line through it still covers the squares behind).
    /// `captures_only` skips empty squares before asking about attacks.
    #[inline]
    fn king_step(&self, k: Square, d: usize, captures_only: bool) -> Option<Square> {
        let us = self.side_to_move();
        let t = NEIGHBOR[k.index()][d];
        if t == NONE {
            return None;
        }
        let target = self.piece_at_index(t as usize);
        if target.is_some_and(|p| p.color() == us) || (captures_only && target.is_none()) {
            return None;
        }
        let ts = Square::from_index_unchecked(t as usize);
        (!self.attacked_by(ts, us.flip(), Some(k))).then_some(ts)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        // A safe king step is the usual answer, and is found without
        // generating every drop.
        let us = self.side_to_move();
        if let Some(k) = self.king(us) {
            if (0..8).any(|d| self.king_step(k, d, false).is_some()) {
                return true;
            }
            // In check with the king boxed in (the question a mate test
            // asks): only answers to the check are left to look for.
            let mut checkers = [k; 16];
            match self.attackers(k, us.flip(), &mut checkers) {
                0 => {}
                1 => return self.answers_check(k, checkers[0]),
                // Two checkers: only a king move would do.
                _ => return false,
            }
        }
        let mut v = Vec::with_capacity(64);
        self.generate(Gen::All, &mut v);
        !v.is_empty()
    }

    /// Whether a piece other than the king on `k` captures `checker` or
    /// blocks its line, by moving or by a drop. Each candidate is tried
    /// with [`Board::is_legal`], so pins and drop-pawn mate are respected.
    fn answers_check(&self, k: Square, checker: Square) -> bool {
        let us = self.side_to_move();
        let hand = self.hand(us);
        let mut targets = between(k, checker) | bit(checker.index());
        let mut movers = [k; 16];
        while targets != 0 {
            let sq = Square::from_index_unchecked(targets.trailing_zeros() as usize);
            targets &= targets - 1;
            let n = self.attackers(sq, us, &mut movers);
            for &from in movers[..n].iter().filter(|&&f| f != k) {
                if self.is_legal(Move::normal(from, sq, false))
                    || self.is_legal(Move::normal(from, sq, true))
                {
                    return true;
                }
            }
            if sq != checker
                && Kind::HAND
                    .iter()
                    .any(|&kind| hand[kind.index()] > 0 && self.is_legal(Move::drop(kind, sq)))
            {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is checkmated (in check, no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    pub fn generate(&self, mode: Gen, out: &mut Vec<Move>) {
        let us = self.side_to_move();
        let them = us.flip();
        let king = self.king(us);

        // Pins and checkers, looking outwards from our king.
        let mut pinned: u128 = 0;
        let mut checkers = 0u32;
        let mut check_mask: u128 = !0;
        if let Some(k) = king {
            for d in 0..8 {
                let back = 1u8 << opposite(d);
                let mut n = NEIGHBOR[k.index()][d];
                let mut dist = 1;
                let mut shield: Option<usize> = None;
                while n != NONE {
                    if let Some(p) = self.piece_at_index(n as usize) {
                        if p.color() == them {
                            let slides = geometry::slides(them, p.kind()) & back != 0;
                            match shield {
                                None => {
                                    let steps =
                                        dist == 1 && geometry::steps(them, p.kind()) & back != 0;
                                    if steps || slides {
                                        checkers += 1;
                                        let sq = Square::from_index_unchecked(n as usize);
                                        check_mask = between(k, sq) | bit(n as usize);
                                    }
                                }
                                Some(s) => {
                                    if slides {
                                        pinned |= bit(s);
                                    }
                                }
                            }
                            break;
                        }
                        if shield.is_some() {
                            break;
                        }
                        shield = Some(n as usize);
                    }
                    n = NEIGHBOR[n as usize][d];
                    dist += 1;
                }
            }
            for &n in &KNIGHT_TO[us.index()][k.index()] {
                if n != NONE {
                    if let Some(p) = self.piece_at_index(n as usize) {
                        if p.color() == them && p.kind() == Kind::Knight {
                            checkers += 1;
                            check_mask = bit(n as usize);
                        }
                    }
                }
            }
            if checkers >= 2 {
                check_mask = 0;
            }

            for d in 0..8 {
                if let Some(ts) = self.king_step(k, d, mode == Gen::Tactical) {
                    out.push(Move::normal(k, ts, false));
                }
            }
            if checkers >= 2 {
                return;
            }
        }

        let mut pawn_cols: u16 = 0;
        for i in 0..81 {
            let Some(p) = self.piece_at_index(i) else {
                continue;
            };
            if p.color() != us {
                continue;
            }
            let kind = p.kind();
            if kind == Kind::King {
                continue;
            }
            if kind == Kind::Pawn {
                pawn_cols |= 1 << (i % 9);
            }
            let from = Square::from_index_unchecked(i);
            // A pinned piece may only move along the line of its pin.
            let pin = if pinned & bit(i) != 0 {
                king.and_then(|k| direction(k, from))
            } else {
                None
            };
            let allowed = |d: usize| match pin {
                None => true,
                Some(pd) => d == pd || d == opposite(pd),
            };
            let steps = geometry::steps(us, kind);
            let slides = geometry::slides(us, kind);
            for d in 0..8 {
                if (steps | slides) & (1 << d) == 0 || !allowed(d) {
                    continue;
                }
                let sliding = slides & (1 << d) != 0;
                let mut t = NEIGHBOR[i][d];
                while t != NONE {
                    let target = self.piece_at_index(t as usize);
                    if target.is_some_and(|q| q.color() == us) {
                        break;
                    }
                    if check_mask & bit(t as usize) != 0 {
                        let to = Square::from_index_unchecked(t as usize);
                        self.push_piece_move(mode, us, kind, from, to, target.is_some(), out);
                    }
                    if target.is_some() || !sliding {
                        break;
                    }
                    t = NEIGHBOR[t as usize][d];
                }
            }
            if kind == Kind::Knight && pin.is_none() && pinned & bit(i) == 0 {
                for &t in &KNIGHT_TO[us.index()][i] {
                    if t == NONE || check_mask & bit(t as usize) == 0 {
                        continue;
                    }
                    let target = self.piece_at_index(t as usize);
                    if target.is_some_and(|q| q.color() == us) {
                        continue;
                    }
                    let to = Square::from_index_unchecked(t as usize);
                    self.push_piece_move(mode, us, kind, from, to, target.is_some(), out);
                }
            }
        }

        if mode == Gen::Tactical {
            return;
        }
        let hand = self.hand(us);
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        let held: Vec<Kind> = Kind::HAND
            .iter()
            .copied()
            .filter(|k| hand[k.index()] > 0)
            .collect();
        // The square in front of the enemy king: a pawn dropped there checks.
        let pawn_check_sq = self
            .king(them)
            .map(|k| NEIGHBOR[k.index()][forward(them)])
            .unwrap_or(NONE);
        for i in 0..81 {
            if check_mask & bit(i) == 0 || self.piece_at_index(i).is_some() {
                continue;
            }
            let to = Square::from_index_unchecked(i);
            let row = to.relative_row(us);
            for &k in &held {
                match k {
                    Kind::Pawn => {
                        if row == 0 || pawn_cols & (1 << (i % 9)) != 0 {
                            continue;
                        }
                        if i as u8 == pawn_check_sq && self.drop_pawn_mates(to) {
                            continue;
                        }
                    }
                    Kind::Lance if row == 0 => continue,
                    Kind::Knight if row < 2 => continue,
                    _ => {}
                }
                out.push(Move::drop(k, to));
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push_piece_move(
        &self,
        mode: Gen,
        us: Color,
        kind: Kind,
        from: Square,
        to: Square,
        capture: bool,
        out: &mut Vec<Move>,
    ) {
        let can_promote = kind.can_promote() && (from.in_zone(us) || to.in_zone(us));
        let must = is_dead_end(us, kind, to);
        if !must && (mode == Gen::All || capture) {
            out.push(Move::normal(from, to, false));
        }
        if can_promote {
            out.push(Move::normal(from, to, true));
        }
    }

    /// Whether dropping a pawn on `to` (which checks the enemy king) would
    /// leave the enemy without a legal move: the forbidden drop-pawn mate.
    fn drop_pawn_mates(&self, to: Square) -> bool {
        let mut b = self.clone();
        b.do_move(Move::drop(Kind::Pawn, to));
        !b.has_legal_move()
    }

    /// Whether `m` (possibly from another position: a hash or killer move)
    /// is legal here: a pseudo-legality test, then a trial move.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let to = m.to();
        match m.from() {
            Some(from) => {
                let Some(p) = self.piece_at(from) else {
                    return false;
                };
                if p.color() != us || self.piece_at(to).is_some_and(|q| q.color() == us) {
                    return false;
                }
                let kind = p.kind();
                if m.is_promotion() {
                    if !kind.can_promote() || !(from.in_zone(us) || to.in_zone(us)) {
                        return false;
                    }
                } else if is_dead_end(us, kind, to) {
                    return false;
                }
                if !self.reaches(us, kind, from, to) {
                    return false;
                }
            }
            None => {
                let Some(k) = m.drop_kind() else { return false };
                if self.hand_count(us, k) == 0
                    || self.piece_at(to).is_some()
                    || is_dead_end(us, k, to)
                {
                    return false;
                }
                if k == Kind::Pawn {
                    let own_pawn = Piece::new(us, Kind::Pawn);
                    let col = to.col();
                    if (0..9).any(|r| self.piece_at_index(r * 9 + col) == Some(own_pawn)) {
                        return false;
                    }
                }
            }
        }
        let mut b = self.clone();
        b.do_move(m);
        if let Some(k) = b.king(us) {
            if b.attacked_by(k, us.flip(), None) {
                return false;
            }
        }
        if m.drop_kind() == Some(Kind::Pawn) && b.in_check() && !b.has_legal_move() {
            return false;
        }
        true
    }

    /// Whether a `kind` of `us` on `from` attacks `to` on this board.
    fn reaches(&self, us: Color, kind: Kind, from: Square, to: Square) -> bool {
        if kind == Kind::Knight {
            return KNIGHT_TO[us.index()][from.index()].contains(&(to.index() as u8));
        }
        let Some(d) = direction(from, to) else {
            return false;
        };
        if geometry::steps(us, kind) & (1 << d) != 0
            && NEIGHBOR[from.index()][d] == to.index() as u8
        {
            return true;
        }
        geometry::slides(us, kind) & (1 << d) != 0 && between(from, to) & self.occupied() == 0
    }

    /// Occupied squares as a bit set (for `gives_check_in`).
    pub fn occupied(&self) -> u128 {
        let mut set = 0u128;
        for i in 0..81 {
            if self.piece_at_index(i).is_some() {
                set |= bit(i);
            }
        }
        set
    }

    /// Whether the legal move `m` gives check, without making it: a direct
    /// check from the destination, or a slider uncovered by the origin.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_in(m, self.occupied())
    }

    /// `gives_check` with the occupied squares (`occupied()`) already at
    /// hand, for callers that test many moves of one position.
    pub fn gives_check_in(&self, m: Move, occupied: u128) -> bool {
        let us = self.side_to_move();
        let Some(k) = self.king(us.flip()) else {
            return false;
        };
        let to = m.to();
        let from = m.from();
        let kind = match (from, m.drop_kind()) {
            (Some(f), _) => match self.piece_at(f) {
                Some(p) if m.is_promotion() => p.kind().promote(),
                Some(p) => p.kind(),
                None => return false,
            },
            (None, Some(k)) => k,
            (None, None) => return false,
        };
        let mut occupied = occupied | bit(to.index());
        if let Some(f) = from {
            occupied &= !bit(f.index());
        }
        // Direct check.
        if kind == Kind::Knight {
            if KNIGHT_TO[us.index()][to.index()].contains(&(k.index() as u8)) {
                return true;
            }
        } else if let Some(d) = direction(to, k) {
            if geometry::steps(us, kind) & (1 << d) != 0
                && NEIGHBOR[to.index()][d] == k.index() as u8
            {
                return true;
            }
            if geometry::slides(us, kind) & (1 << d) != 0 && between(to, k) & occupied == 0 {
                return true;
            }
        }
        // Discovered check: the origin was the only piece between the king
        // and one of our sliders, and the move leaves that line.
        let Some(f) = from else { return false };
        let Some(d) = direction(k, f) else {
            return false;
        };
        if direction(k, to) == Some(d) && between(k, to) & bit(f.index()) == 0 {
            return false;
        }
        let mut n = NEIGHBOR[k.index()][d];
        while n != NONE {
            if occupied & bit(n as usize) != 0 {
                return self.piece_at_index(n as usize).is_some_and(|p| {
                    p.color() == us
                        && n as usize != to.index()
                        && geometry::slides(us, p.kind()) & (1 << opposite(d)) != 0
                });
            }
            n = NEIGHBOR[n as usize][d];
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(sfen: &str) -> Vec<String> {
        let b = Board::from_sfen(sfen).unwrap();
        let mut v = Vec::new();
        b.legal_moves(&mut v);
        v.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn has_legal_move_agrees_with_generation() {
        // Random play from the bench positions, checked at every step and
        // after every legal reply (checkmates included as they come).
        let mut seed = 99u64;
        let mut mated = 0;
        let mut checked = 0;
        for fen in crate::searchable::BENCH_FENS {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..60 {
                let mut moves = Vec::new();
                b.generate(Gen::All, &mut moves);
                assert_eq!(b.has_legal_move(), !moves.is_empty(), "{}", b.to_sfen());
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut c = b.clone();
                    c.do_move(m);
                    let mut replies = Vec::new();
                    c.generate(Gen::All, &mut replies);
                    assert_eq!(c.has_legal_move(), !replies.is_empty(), "{}", c.to_sfen());
                    mated += replies.is_empty() as usize;
                    checked += 1;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(
            checked > 10_000 && mated > 0,
            "{checked} checked, {mated} mated"
        );
    }

    #[test]
    fn is_legal_agrees_with_the_generator_on_every_code() {
        for sfen in [
            "startpos",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "kn7/9/1G7/9/9/9/9/9/4K4 b P 1",
            "4r3k/9/9/9/9/9/9/9/4K4 b GSNP 1",
            "1n1g3n1/lskr1gs2/ppp+Rpp1pl/8p/2P1P4/PP3P1PP/2G3p1N/1B1K1G2L/LNS3S2 w BP2p 46",
            "4k4/2P6/8L/6N2/1N7/9/9/9/4K4 b - 1",
        ] {
            let b = Board::from_sfen(sfen).unwrap();
            let mut gen = Vec::new();
            b.legal_moves(&mut gen);
            let mut count = 0;
            for code in 0..=u16::MAX {
                if let Some(m) = Move::from_bits(code) {
                    let legal = b.is_legal(m);
                    assert_eq!(legal, gen.contains(&m), "{sfen}: {m}");
                    count += usize::from(legal);
                }
            }
            assert_eq!(count, gen.len(), "{sfen}");
        }
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        for sfen in [
            "startpos",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "4k4/9/4S4/9/4L4/9/4R4/9/4K4 b GSN 1",
            "8k/9/6S2/5B3/9/9/9/9/K8 b N 1",
            "2r4n1/l1b1gp2l/npP1p1P1p/P7s/2pk5/RP2g4/2KPGPpnP/4B1gLL/S6N1 w SPs4p 128",
            "5s3/1+P1p2k2/6ppn/3P1pn2/2p2g2G/P1K1RlPg1/5P3/L1Sb1R1G1/1N2L2NS b BSL7Pp 119",
        ] {
            let b = Board::from_sfen(sfen).unwrap();
            let mut v = Vec::new();
            b.legal_moves(&mut v);
            for m in v {
                let mut c = b.clone();
                c.do_move(m);
                assert_eq!(b.gives_check(m), c.in_check(), "{sfen}: {m}");
            }
        }
    }

    #[test]
    fn startpos_has_30_moves() {
        assert_eq!(legal("startpos").len(), 30);
    }

    #[test]
    fn nifu_is_refused() {
        let moves = legal("4k4/9/9/9/9/9/PPPP1PPPP/9/4K4 b P 1");
        let drops: Vec<_> = moves.iter().filter(|m| m.starts_with("P*")).collect();
        assert!(drops.iter().all(|m| m.starts_with("P*5")), "{drops:?}");
        // File 5 is free: ranks b..i minus the occupied/last ranks.
        assert_eq!(drops.len(), 7);
    }

    #[test]
    fn drop_pawn_mate_is_refused_but_pawn_push_mate_is_not() {
        // The pawn on 9b would mate: forbidden as a drop.
        let moves = legal("kn7/9/1G7/9/9/9/9/9/4K4 b P 1");
        assert!(!moves.contains(&"P*9b".to_string()));
        // Without the knight the king escapes to 8a... (the pawn is capturable), so legal.
        let moves = legal("k8/9/1G7/9/9/9/9/9/4K4 b P 1");
        assert!(moves.contains(&"P*9b".to_string()));
    }

    #[test]
    fn dead_square_drops_and_forced_promotions() {
        let moves = legal("4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
        for m in &moves {
            if let Some(sq) = m.strip_prefix("P*").or(m.strip_prefix("L*")) {
                assert!(!sq.ends_with('a'), "{m}");
            }
            if let Some(sq) = m.strip_prefix("N*") {
                assert!(!sq.ends_with('a') && !sq.ends_with('b'), "{m}");
            }
        }
        let moves = legal("4k4/2P6/8L/6N2/1N7/9/9/9/4K4 b - 1");
        assert!(moves.contains(&"7b7a+".to_string()));
        assert!(!moves.contains(&"7b7a".to_string()));
        assert!(moves.contains(&"3d4b+".to_string()));
        assert!(!moves.contains(&"3d4b".to_string()));
        assert!(moves.contains(&"8e7c".to_string()) && moves.contains(&"8e7c+".to_string()));
    }
}
