//! Legal move generation on bitboards. Checkers and pinned pieces are
//! found first from the king's square, so that every generated move is
//! legal without making it; a pawn drop that gives check is tested for
//! drop-pawn mate by looking at the enemy king's answers (capture the
//! pawn, or step away) on the board as it would be.
//!
//! Moves come out in the order the mailbox generator gave them, which
//! the search's move ordering falls back on for equal scores: king steps
//! by direction; then each other piece by square, its targets by
//! direction and, along a slide, nearest first, the plain move before the
//! promotion; then drops by square, hand kinds in hand order.

use crate::bitboard::{
    attacks, between, bishop_attacks, bishop_pseudo, drop_zone, far_rows, file_mask, king_attacks,
    lance_attacks, line, ray_attacks, rook_attacks, rook_pseudo, step_attacks, Bitboard,
};
use crate::board::Board;
use crate::geometry::{
    self, direction, is_dead_end, opposite, NEIGHBOR, NEIGHBORS, NONE, STEP_DIRS,
};
use crate::types::{Color, Kind, Move, Square};

const fn build_step_order() -> [[[[u8; 8]; 81]; 14]; 2] {
    let mut t = [[[[NONE; 8]; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let dirs = STEP_DIRS[c][k];
            let mut sq = 0;
            while sq < 81 {
                let mut n = 0;
                let mut d = 0;
                while d < 8 {
                    let to = NEIGHBORS[sq][d];
                    if dirs & (1 << d) != 0 && to != NONE {
                        t[c][k][sq][n] = to;
                        n += 1;
                    }
                    d += 1;
                }
                if k == Kind::Knight as usize {
                    // File 9's side first, as `KNIGHT_TO` has them.
                    let row = (sq / 9) as i32 + if c == 0 { -2 } else { 2 };
                    let col = (sq % 9) as i32;
                    if row >= 0 && row < 9 {
                        if col > 0 {
                            t[c][k][sq][n] = (row * 9 + col - 1) as u8;
                            n += 1;
                        }
                        if col < 8 {
                            t[c][k][sq][n] = (row * 9 + col + 1) as u8;
                        }
                    }
                }
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// `STEP_ORDER[color][kind][sq]`: the squares a stepping piece (or a
/// knight) reaches, by direction as the mailbox generator walked them,
/// `NONE` after the last.
static STEP_ORDER: [[[[u8; 8]; 81]; 14]; 2] = build_step_order();

/// What a check generator lets through: destinations from which each
/// kind would check directly, and the pieces whose departure uncovers one
/// of our sliders on the enemy king (on `king`). Both are exact for legal
/// moves, so the generator needs no check test per move.
struct CheckFilter {
    direct: [Bitboard; 14],
    discoverers: Bitboard,
    king: Square,
}

impl CheckFilter {
    /// Where a `kind` on `from` gives check, moving unpromoted and
    /// promoted: its direct checks, and anywhere off the line to the king
    /// when it uncovers a slider.
    #[inline]
    fn targets(&self, kind: Kind, from: Square) -> (Bitboard, Bitboard) {
        let mut plain = self.direct[kind.index()];
        let mut promo = if kind.can_promote() {
            self.direct[kind.promote().index()]
        } else {
            Bitboard::EMPTY
        };
        if self.discoverers.has(from) {
            let off_line = !line(self.king, from);
            plain |= off_line;
            promo |= off_line;
        }
        (plain, promo)
    }
}

/// What [`Board::count_evasions`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evasions {
    /// Legal moves.
    pub moves: u32,
    /// Drops among them on squares that no piece of the side to move but
    /// its king reaches.
    pub unguarded_drops: u32,
}

/// [`attacks`] with the steppers' table lookup inlined (the sliders'
/// computation stays a call).
#[inline]
fn piece_attacks(color: Color, kind: Kind, sq: Square, occ: Bitboard) -> Bitboard {
    if geometry::slides(color, kind) == 0 {
        step_attacks(color, kind, sq)
    } else {
        attacks(color, kind, sq, occ)
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    All,
    /// Captures and promotions only, no drops.
    Tactical,
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
        let ts = Square::from_index_unchecked(t as usize);
        let target = self.piece_at(ts);
        if target.is_some_and(|p| p.color() == us) || (captures_only && target.is_none()) {
            return None;
        }
        (!self.attacked_in(us.flip(), ts, self.occupied().without(k))).then_some(ts)
    }

    /// Where the side to move's king on `k` may step: onto the board, not
    /// onto its own piece, nor onto a square the opponent reaches (the
    /// king's own square counting as empty). All of [`Board::king_step`]'s
    /// answers at once.
    #[inline]
    fn king_steps(&self, k: Square) -> Bitboard {
        let us = self.side_to_move();
        let occ = self.occupied().without(k);
        let open = king_attacks(k) & !self.pieces(us);
        if !open.more_than_one() {
            // None or one square: one attack question at most.
            return match open.first() {
                Some(s) if !self.attacked_in(us.flip(), s, occ) => open,
                _ => Bitboard::EMPTY,
            };
        }
        open & !self.attacks_among(us.flip(), open, occ)
    }

    /// `color`'s pieces that stand alone between its king on `k` and an
    /// enemy slider looking at the king along that line, the occupied
    /// squares being `occ`.
    pub fn pinned(&self, color: Color, k: Square, occ: Bitboard) -> Bitboard {
        self.blockers(k, color.flip(), color, occ)
    }

    /// Pieces of `shields` that stand alone between `k` and a slider of
    /// `snipers` looking at `k` along that line: pinned pieces when `k` is
    /// the shields' own king, discovered-check candidates when it is the
    /// enemy king and the snipers are the shields' own side.
    fn blockers(&self, k: Square, snipers: Color, shields: Color, occ: Bitboard) -> Bitboard {
        let orth = rook_pseudo(k);
        let diag = bishop_pseudo(k);
        let candidates = ((orth
            & (self.kind_squares(Kind::Rook) | self.kind_squares(Kind::Dragon)))
            | (diag & (self.kind_squares(Kind::Bishop) | self.kind_squares(Kind::Horse)))
            | (lance_attacks(snipers.flip(), k, Bitboard::EMPTY) & self.kind_squares(Kind::Lance)))
            & self.pieces(snipers)
            & occ;
        let mine = self.pieces(shields);
        let mut found = Bitboard::EMPTY;
        for s in candidates {
            let shield = between(k, s) & occ;
            if !shield.more_than_one() && (shield & mine).any() {
                found |= shield;
            }
        }
        found
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
            let checkers = self.attackers_to(us.flip(), k, self.occupied());
            if checkers.more_than_one() {
                // Two checkers: only a king move would do.
                return false;
            }
            if let Some(c) = checkers.first() {
                return self.answers_check(k, c);
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
        let occ = self.occupied();
        for sq in between(k, checker).with(checker) {
            let movers = self.attackers_to(us, sq, occ).without(k);
            for from in movers {
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
        self.gen_moves(mode, None, out);
    }

    /// Appends the legal moves that give check, in the order
    /// [`Board::generate`] gives them (the checks among `legal_moves`).
    pub fn generate_checks(&self, out: &mut Vec<Move>) {
        if let Some(filter) = self.check_filter() {
            self.gen_moves(Gen::All, Some(&filter), out);
        }
    }

    /// Where each kind of the side to move would check the enemy king
    /// from, and its discovered-check candidates; `None` without an enemy
    /// king.
    fn check_filter(&self) -> Option<CheckFilter> {
        let us = self.side_to_move();
        let them = us.flip();
        let ek = self.king(them)?;
        let occ = self.occupied();
        // Where each kind of ours would check from: the squares a piece of
        // that kind and the enemy's colour on the king's square reaches.
        // Computed on the board as it is, which can only miss a line that
        // the mover itself opens; a mover on such a line would already be
        // checking, unless it does not slide along it, and promotion adds
        // no slides.
        let mut direct = [Bitboard::EMPTY; 14];
        for kind in [Kind::Pawn, Kind::Knight, Kind::Silver, Kind::Gold] {
            direct[kind.index()] = step_attacks(them, kind, ek);
        }
        let gold = direct[Kind::Gold.index()];
        for kind in [
            Kind::ProPawn,
            Kind::ProLance,
            Kind::ProKnight,
            Kind::ProSilver,
        ] {
            direct[kind.index()] = gold;
        }
        // The sliders' sets only for kinds we have (on the board or in
        // hand): the others are never asked for.
        let hand = self.hand(us);
        let have = |kinds: [Kind; 2]| {
            kinds.iter().any(|&k| {
                self.pieces_of(us, k).any() || hand.get(k.index()).is_some_and(|&n| n > 0)
            })
        };
        if have([Kind::Lance, Kind::Lance]) {
            direct[Kind::Lance.index()] = lance_attacks(them, ek, occ);
        }
        let near = king_attacks(ek);
        if have([Kind::Bishop, Kind::Horse]) {
            let diag = bishop_attacks(ek, occ);
            direct[Kind::Bishop.index()] = diag;
            direct[Kind::Horse.index()] = diag | near;
        }
        if have([Kind::Rook, Kind::Dragon]) {
            let orth = rook_attacks(ek, occ);
            direct[Kind::Rook.index()] = orth;
            direct[Kind::Dragon.index()] = orth | near;
        }
        Some(CheckFilter {
            direct,
            discoverers: self.blockers(ek, us, us, occ),
            king: ek,
        })
    }

    /// How many legal moves give check (the length of
    /// [`Board::generate_checks`]'s list), counted without listing them;
    /// `None` when the side to move is in check (generate them instead).
    pub fn count_checks(&self) -> Option<u32> {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let king = self.king(us);
        let mut pinned = Bitboard::EMPTY;
        if let Some(k) = king {
            if self.attacked_in(them, k, occ) {
                return None;
            }
            pinned = self.pinned(us, k, occ);
        }
        let Some(f) = self.check_filter() else {
            return Some(0);
        };
        let ours = self.pieces(us);
        let mut n = 0;
        if let Some(k) = king {
            if f.discoverers.has(k) {
                n += (self.king_steps(k) & !line(f.king, k)).count();
            }
        }
        let zone = far_rows(us, 3);
        for from in ours & !self.kind_squares(Kind::King) {
            let Some(p) = self.piece_at(from) else {
                continue;
            };
            let kind = p.kind();
            let (plain_ok, promo_ok) = f.targets(kind, from);
            let mut reach = !ours & (plain_ok | promo_ok);
            if reach.is_empty() {
                continue;
            }
            reach &= piece_attacks(us, kind, from, occ);
            if pinned.has(from) {
                if let Some(k) = king {
                    reach &= line(k, from);
                }
            }
            // Unpromoted only where the piece can still move; promoted
            // where the move starts or ends in the enemy camp.
            let plain = reach & plain_ok & drop_zone(us, kind);
            let promo = if !kind.can_promote() {
                Bitboard::EMPTY
            } else if from.in_zone(us) {
                reach & promo_ok
            } else {
                reach & promo_ok & zone
            };
            n += plain.count() + promo.count();
        }
        let hand = self.hand(us);
        if hand.iter().all(|&c| c == 0) {
            return Some(n);
        }
        let empty = !occ;
        for k in Kind::HAND {
            if hand[k.index()] == 0 {
                continue;
            }
            let mut set = drop_zone(us, k) & empty & f.direct[k.index()];
            if k == Kind::Pawn && set.any() {
                set &= !self.nifu_files(us);
                // The square in front of the enemy king: a pawn dropped
                // there checks, and must not mate.
                if let Some(sq) = crate::geometry::neighbor(f.king, forward(them)) {
                    if set.has(sq) && self.drop_pawn_mates(sq) {
                        set = set.without(sq);
                    }
                }
            }
            n += set.count();
        }
        Some(n)
    }

    /// The files that hold an unpromoted pawn of `color` (nifu).
    fn nifu_files(&self, color: Color) -> Bitboard {
        let mut files = Bitboard::EMPTY;
        for p in self.pieces_of(color, Kind::Pawn) {
            files |= file_mask(p.col());
        }
        files
    }

    /// For the side to move in check: how many legal moves it has (the
    /// length of [`Board::legal_moves`]' list), and how many of them are
    /// drops on squares that no piece of its own but the king reaches;
    /// counted without listing them. `None` when not in check or without
    /// a king.
    pub fn count_evasions(&self) -> Option<Evasions> {
        self.evasions(None, 0)
    }

    /// [`Board::count_evasions`], and where there are at most `max` legal
    /// moves, the moves themselves appended to `out`, in no particular
    /// order (king steps, then answers by pieces square by square, then
    /// drops); with more, `out` is left as it was.
    pub fn list_few_evasions(&self, max: u32, out: &mut Vec<Move>) -> Option<Evasions> {
        let start = out.len();
        let e = self.evasions(Some(&mut *out), max);
        if e.is_none_or(|e| e.moves > max) {
            out.truncate(start);
        }
        e
    }

    /// `count_evasions`, with the moves pushed on `out` as they are found
    /// (drops only when all the moves fit in `max`).
    fn evasions(&self, mut out: Option<&mut Vec<Move>>, max: u32) -> Option<Evasions> {
        let us = self.side_to_move();
        let them = us.flip();
        let k = self.king(us)?;
        let occ = self.occupied();
        let checkers = self.attackers_to(them, k, occ);
        let checker = checkers.first()?;
        let steps = self.king_steps(k);
        let mut moves = steps.count();
        if let Some(o) = out.as_deref_mut() {
            for t in steps {
                o.push(Move::normal(k, t, false));
            }
        }
        if checkers.more_than_one() {
            return Some(Evasions {
                moves,
                unguarded_drops: 0,
            });
        }
        let block = between(k, checker);
        let mut guarded = Bitboard::EMPTY;
        // Captures of the checker and interpositions by pieces: a pinned
        // piece never has one (its line and the check's meet only at the
        // king). The pins are looked for only once a piece can answer.
        let mut pinned = None;
        let others = self.pieces(us).without(k).any();
        for t in block.with(checker) {
            if !others {
                break;
            }
            let movers = self.attackers_to(us, t, occ).without(k);
            if movers.is_empty() {
                continue;
            }
            guarded = guarded.with(t);
            let pinned = *pinned.get_or_insert_with(|| self.pinned(us, k, occ));
            for from in movers & !pinned {
                let Some(p) = self.piece_at(from) else {
                    continue;
                };
                let kind = p.kind();
                if !is_dead_end(us, kind, t) {
                    moves += 1;
                    if let Some(o) = out.as_deref_mut() {
                        o.push(Move::normal(from, t, false));
                    }
                }
                if kind.can_promote() && (from.in_zone(us) || t.in_zone(us)) {
                    moves += 1;
                    if let Some(o) = out.as_deref_mut() {
                        o.push(Move::normal(from, t, true));
                    }
                }
            }
        }
        let hand = self.hand(us);
        let mut unguarded_drops = 0;
        if block.any() && hand.iter().any(|&c| c > 0) {
            let mut sets = [Bitboard::EMPTY; 7];
            for kind in Kind::HAND {
                if hand[kind.index()] == 0 {
                    continue;
                }
                let mut set = block & drop_zone(us, kind);
                if kind == Kind::Pawn && set.any() {
                    set &= !self.nifu_files(us);
                    let check_sq = self
                        .king(them)
                        .and_then(|ek| crate::geometry::neighbor(ek, forward(them)));
                    if let Some(sq) = check_sq {
                        if set.has(sq) && self.drop_pawn_mates(sq) {
                            set = set.without(sq);
                        }
                    }
                }
                moves += set.count();
                unguarded_drops += (set & !guarded).count();
                sets[kind.index()] = set;
            }
            if let Some(o) = out.filter(|_| moves <= max) {
                for kind in Kind::HAND {
                    for t in sets[kind.index()] {
                        o.push(Move::drop(kind, t));
                    }
                }
            }
        }
        Some(Evasions {
            moves,
            unguarded_drops,
        })
    }

    /// The generator: every legal move of `mode`, or with `checks` only
    /// the legal moves that give check (a direct check is a destination in
    /// `direct` for the kind after the move; a discoverer checks by
    /// leaving its line to the king).
    fn gen_moves(&self, mode: Gen, checks: Option<&CheckFilter>, out: &mut Vec<Move>) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.pieces(us);
        let king = self.king(us);

        let mut pinned = Bitboard::EMPTY;
        let mut check_mask = Bitboard::ALL;
        if let Some(k) = king {
            let checkers = self.attackers_to(them, k, occ);
            let double = checkers.more_than_one();
            if double {
                check_mask = Bitboard::EMPTY;
            } else if let Some(c) = checkers.first() {
                check_mask = between(k, c).with(c);
            }
            // A king move checks only by uncovering a slider.
            if mode == Gen::Tactical {
                for d in 0..8 {
                    if let Some(ts) = self.king_step(k, d, true) {
                        out.push(Move::normal(k, ts, false));
                    }
                }
            } else if checks.is_none_or(|f| f.discoverers.has(k)) {
                let off_line = checks.map_or(Bitboard::ALL, |f| !line(f.king, k));
                let steps = self.king_steps(k) & off_line;
                if steps.any() {
                    for &t in &NEIGHBOR[k.index()] {
                        if t != NONE {
                            let ts = Square::from_index_unchecked(t as usize);
                            if steps.has(ts) {
                                out.push(Move::normal(k, ts, false));
                            }
                        }
                    }
                }
            }
            if double {
                return;
            }
            pinned = self.pinned(us, k, occ);
        }

        let targets = !ours & check_mask;
        for from in ours & !self.kind_squares(Kind::King) {
            let Some(p) = self.piece_at(from) else {
                continue;
            };
            let kind = p.kind();
            let mut reach = piece_attacks(us, kind, from, occ) & targets;
            // Where the move may go unpromoted and promoted (with `checks`:
            // where it then gives check).
            let mut plain_ok = Bitboard::ALL;
            let mut promo_ok = Bitboard::ALL;
            if let Some(f) = checks {
                (plain_ok, promo_ok) = f.targets(kind, from);
                reach &= plain_ok | promo_ok;
            }
            if pinned.has(from) {
                // A pinned piece may only move along the line of its pin
                // (a pinned knight never can).
                if let Some(k) = king {
                    reach &= line(k, from);
                }
            }
            if reach.is_empty() {
                continue;
            }
            // The targets again, in the mailbox generator's order.
            let steps = geometry::steps(us, kind);
            let slides = geometry::slides(us, kind);
            if slides == 0 {
                for &t in &STEP_ORDER[us.index()][kind.index()][from.index()] {
                    if t == NONE {
                        break;
                    }
                    let to = Square::from_index_unchecked(t as usize);
                    if reach.has(to) {
                        let ok = (plain_ok.has(to), promo_ok.has(to));
                        self.push_piece_move(mode, us, kind, from, to, occ.has(to), ok, out);
                    }
                }
                continue;
            }
            for d in 0..8 {
                if (steps | slides) & (1 << d) == 0 {
                    continue;
                }
                let sliding = slides & (1 << d) != 0;
                let mut t = NEIGHBOR[from.index()][d];
                while t != NONE {
                    let to = Square::from_index_unchecked(t as usize);
                    let occupied = occ.has(to);
                    if reach.has(to) {
                        let ok = (plain_ok.has(to), promo_ok.has(to));
                        self.push_piece_move(mode, us, kind, from, to, occupied, ok, out);
                    }
                    if occupied || !sliding {
                        break;
                    }
                    t = NEIGHBOR[t as usize][d];
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
        let empty = !occ & check_mask;
        if empty.is_empty() {
            return;
        }
        let held = |k: Kind| hand[k.index()] > 0;
        let mut pawn_to = Bitboard::EMPTY;
        if held(Kind::Pawn) {
            // Nifu: no second unpromoted pawn on a file.
            let mut files = Bitboard::EMPTY;
            for p in self.pieces_of(us, Kind::Pawn) {
                files |= file_mask(p.col());
            }
            pawn_to = drop_zone(us, Kind::Pawn) & !files & empty;
            // The square in front of the enemy king: a pawn dropped there
            // checks, and must not mate.
            let check_sq = self
                .king(them)
                .and_then(|k| crate::geometry::neighbor(k, forward(them)));
            if let Some(sq) = check_sq {
                if pawn_to.has(sq) && self.drop_pawn_mates(sq) {
                    pawn_to = pawn_to.without(sq);
                }
            }
        }
        if let Some(f) = checks {
            // Drops check only directly.
            let mut sets = [Bitboard::EMPTY; 7];
            let mut all = Bitboard::EMPTY;
            for k in Kind::HAND {
                let set = match k {
                    Kind::Pawn => pawn_to,
                    _ if held(k) => drop_zone(us, k) & empty,
                    _ => Bitboard::EMPTY,
                } & f.direct[k.index()];
                sets[k.index()] = set;
                all |= set;
            }
            for to in all {
                for k in Kind::HAND {
                    if sets[k.index()].has(to) {
                        out.push(Move::drop(k, to));
                    }
                }
            }
            return;
        }
        let lance_to = if held(Kind::Lance) {
            drop_zone(us, Kind::Lance) & empty
        } else {
            Bitboard::EMPTY
        };
        let knight_to = if held(Kind::Knight) {
            drop_zone(us, Kind::Knight) & empty
        } else {
            Bitboard::EMPTY
        };
        // Silver, gold, bishop and rook drop anywhere empty.
        let mut free = [Kind::Silver; 4];
        let mut n_free = 0;
        for k in [Kind::Silver, Kind::Gold, Kind::Bishop, Kind::Rook] {
            if held(k) {
                free[n_free] = k;
                n_free += 1;
            }
        }
        let free = &free[..n_free];
        out.reserve(empty.count() as usize * (n_free + 3));
        // By square, then in hand order.
        for to in empty {
            if pawn_to.has(to) {
                out.push(Move::drop(Kind::Pawn, to));
            }
            if lance_to.has(to) {
                out.push(Move::drop(Kind::Lance, to));
            }
            if knight_to.has(to) {
                out.push(Move::drop(Kind::Knight, to));
            }
            for &k in free {
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
        (plain_ok, promo_ok): (bool, bool),
        out: &mut Vec<Move>,
    ) {
        let can_promote = kind.can_promote() && (from.in_zone(us) || to.in_zone(us));
        let must = is_dead_end(us, kind, to);
        if !must && plain_ok && (mode == Gen::All || capture) {
            out.push(Move::normal(from, to, false));
        }
        if can_promote && promo_ok {
            out.push(Move::normal(from, to, true));
        }
    }

    /// Whether dropping a pawn on `to`, which checks the enemy king from
    /// the square in front of it, would leave the enemy without a legal
    /// move: the forbidden drop-pawn mate. The check is a contact check,
    /// so it cannot be blocked: the king must take the pawn, step away,
    /// or another piece must take it.
    fn drop_pawn_mates(&self, to: Square) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(ek) = self.king(them) else {
            return false;
        };
        let occ = self.occupied().with(to);
        let without_king = occ.without(ek);
        // The king takes the pawn, which nothing of ours defends.
        if !self.attacked_in(us, to, without_king) {
            return false;
        }
        // Another piece takes it. A pinned one cannot: its pin line runs
        // from the king away from `to` (the pawn stands next to the king,
        // so nothing pinned lies between them).
        let takers = self.attackers_to(them, to, occ).without(ek);
        if takers.any() && (takers & !self.pinned(them, ek, occ)).any() {
            return false;
        }
        // The king steps to a neighbour that none of ours reaches, the
        // pawn standing and the king's own square empty.
        let free = crate::bitboard::king_attacks(ek) & !self.pieces(them) & !Bitboard::square(to);
        for e in free {
            if !self.attacked_in(us, e, without_king) {
                return false;
            }
        }
        true
    }

    /// Whether `m` (possibly from another position: a hash or killer move)
    /// is legal here, without making it.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let to = m.to();
        match m.from() {
            Some(from) => {
                let Some(p) = self.piece_at(from) else {
                    return false;
                };
                if p.color() != us || self.pieces(us).has(to) {
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
                if !attacks(us, kind, from, occ).has(to) {
                    return false;
                }
                let Some(k) = self.king(us) else {
                    return true;
                };
                if from == k {
                    return !self.attacked_in(them, to, occ.without(from));
                }
                // Whatever stood on `to` is taken and attacks no more.
                let after = occ.without(from).with(to);
                self.attackers_to(them, k, after).without(to).is_empty()
            }
            None => {
                let Some(k) = m.drop_kind() else { return false };
                if self.hand_count(us, k) == 0 || occ.has(to) || is_dead_end(us, k, to) {
                    return false;
                }
                if k == Kind::Pawn && (self.pieces_of(us, Kind::Pawn) & file_mask(to.col())).any() {
                    return false;
                }
                if let Some(own) = self.king(us) {
                    if self.attacked_in(them, own, occ.with(to)) {
                        return false;
                    }
                }
                let checks = self
                    .king(them)
                    .is_some_and(|ek| step_attacks(us, Kind::Pawn, to).has(ek));
                !(k == Kind::Pawn && checks && self.drop_pawn_mates(to))
            }
        }
    }

    /// Whether the legal move `m` gives check, without making it: a direct
    /// check from the destination, or a slider uncovered by the origin.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_in(m, self.occupied())
    }

    /// `gives_check` with the occupied squares (`occupied()`) already at
    /// hand, for callers that test many moves of one position.
    pub fn gives_check_in(&self, m: Move, occupied: Bitboard) -> bool {
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
        let mut occ = occupied.with(to);
        if let Some(f) = from {
            occ = occ.without(f);
        }
        // Direct check.
        if attacks(us, kind, to, occ).has(k) {
            return true;
        }
        // Discovered check: the first piece beyond the vacated origin, seen
        // from the king, is one of our sliders looking back along the line
        // (not the mover itself, which may have stayed on the line).
        let Some(f) = from else { return false };
        let Some(d) = direction(k, f) else {
            return false;
        };
        match (ray_attacks(d, k, occ) & occ).first() {
            Some(b) if b != to => self.piece_at(b).is_some_and(|p| {
                p.color() == us && geometry::slides(us, p.kind()) & (1 << opposite(d)) != 0
            }),
            _ => false,
        }
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

    /// The check generator gives exactly the checks among the legal moves,
    /// in the same order: on random play from the bench positions (with
    /// full hands) and on positions built for discovered checks.
    #[test]
    fn check_generator_gives_the_checking_legal_moves_in_order() {
        let mut seed = 77u64;
        let mut total = 0;
        let mut discovered = 0;
        let mut fens: Vec<String> = crate::searchable::BENCH_FENS
            .iter()
            .map(|s| s.to_string())
            .collect();
        fens.push("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1".into());
        // Sente's silver on 5e stands between the rook on 5i and the king
        // on 5a; the bishop's line to 1a is shut by the gold on 3c.
        fens.push("4k3l/9/6G2/9/4S4/9/2B6/9/K3R4 b GSNLP 1".into());
        for fen in &fens {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..80 {
                let mut all = Vec::new();
                b.legal_moves(&mut all);
                let want: Vec<Move> = all.iter().copied().filter(|&m| b.gives_check(m)).collect();
                let mut got = Vec::new();
                b.generate_checks(&mut got);
                assert_eq!(got, want, "{}", b.to_sfen());
                total += got.len();
                discovered += got
                    .iter()
                    .filter(|m| {
                        let mut c = b.clone();
                        c.do_move(**m);
                        let k = c.king(c.side_to_move()).unwrap();
                        !c.attackers_to(b.side_to_move(), k, c.occupied())
                            .has(m.to())
                    })
                    .count();
                if all.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(all[(seed >> 33) as usize % all.len()]);
            }
        }
        assert!(
            total > 1000 && discovered > 10,
            "{total} checks, {discovered} discovered"
        );
    }

    /// The counters agree with the generators: checks at every position of
    /// random play (bench positions and tsume problems, whose hands are
    /// full), evasions after every check.
    #[test]
    fn counters_agree_with_the_generators() {
        let mut seed = 1234u64;
        let mut fens: Vec<String> = crate::searchable::BENCH_FENS
            .iter()
            .map(|s| s.to_string())
            .collect();
        for set in [
            include_str!("../tests/tsume.txt"),
            include_str!("../tests/tsume_hard.txt"),
        ] {
            for line in set
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            {
                fens.push(line.split(" ;").next().unwrap_or(line).to_string());
            }
        }
        let (mut positions, mut evasions, mut unguarded) = (0, 0, 0);
        for fen in &fens {
            let Ok(mut b) = Board::from_sfen(fen) else {
                continue;
            };
            for _ in 0..30 {
                let mut checks = Vec::new();
                b.generate_checks(&mut checks);
                if b.in_check() {
                    assert_eq!(b.count_checks(), None, "{}", b.to_sfen());
                } else {
                    assert_eq!(
                        b.count_checks(),
                        Some(checks.len() as u32),
                        "{}",
                        b.to_sfen()
                    );
                    assert_eq!(b.count_evasions(), None, "{}", b.to_sfen());
                }
                positions += 1;
                for &m in &checks {
                    let mut c = b.clone();
                    c.do_move(m);
                    let mut replies = Vec::new();
                    c.legal_moves(&mut replies);
                    let us = c.side_to_move();
                    let k = c.king(us).unwrap();
                    let loose = replies
                        .iter()
                        .filter(|r| {
                            r.is_drop()
                                && c.attackers_to(us, r.to(), c.occupied())
                                    .without(k)
                                    .is_empty()
                        })
                        .count() as u32;
                    let mut listed = Vec::new();
                    let few = c.list_few_evasions(8, &mut listed).unwrap();
                    let mut all = Vec::new();
                    c.list_few_evasions(u32::MAX, &mut all);
                    let mut want: Vec<u16> = replies.iter().map(|m| m.bits()).collect();
                    want.sort_unstable();
                    let mut got_all: Vec<u16> = all.iter().map(|m| m.bits()).collect();
                    got_all.sort_unstable();
                    assert_eq!(got_all, want, "{}", c.to_sfen());
                    if replies.len() <= 8 {
                        assert_eq!(listed.len(), replies.len(), "{}", c.to_sfen());
                    } else {
                        assert!(listed.is_empty(), "{}", c.to_sfen());
                    }
                    let got = c.count_evasions().unwrap();
                    assert_eq!(few, got);
                    assert_eq!(
                        got,
                        Evasions {
                            moves: replies.len() as u32,
                            unguarded_drops: loose
                        },
                        "{}",
                        c.to_sfen()
                    );
                    evasions += 1;
                    unguarded += usize::from(loose > 0);
                }
                let mut all = Vec::new();
                b.legal_moves(&mut all);
                if all.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Half the time a check, to go deeper into mating nets.
                let pick = if !checks.is_empty() && seed >> 63 == 0 {
                    checks[(seed >> 33) as usize % checks.len()]
                } else {
                    all[(seed >> 33) as usize % all.len()]
                };
                b.do_move(pick);
            }
        }
        assert!(
            positions > 1000 && evasions > 3000 && unguarded > 100,
            "{positions} positions, {evasions} evasions, {unguarded} with unguarded drops"
        );
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
