//! The board: bitboards plus a mailbox, a stack of irreversible state, and
//! make/unmake with an incremental Zobrist key.

use crate::attacks;
use crate::eval::{PHASE, PSQ, S};
use crate::moves::{Move, MoveKind, MoveList};
use crate::types::{Bitboard, Color, Piece, PieceKind, Square, Squares};
use crate::zobrist::KEYS;

pub use crate::fen::FenError;
pub use crate::notation::MoveError;
pub use crate::outcome::{DrawReason, Outcome, Reason};

/// What `unmake` cannot recompute, plus check information for the side to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub key: u64,
    /// Bit `2 * colour + side`, side 0 = towards the h-file, 1 = towards a.
    pub castling: u8,
    pub ep: Option<Square>,
    pub halfmove: u32,
    pub captured: Option<Piece>,
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Our pieces pinned to our king.
    pub pinned: Bitboard,
    /// Plies since the last null move (repetitions never look across one).
    pub since_null: u32,
}

#[derive(Clone)]
pub struct Board {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) squares: [Option<Piece>; 64],
    pub(crate) side: Color,
    pub(crate) fullmove: u32,
    /// Castling rook squares, `[colour][side]`; fixed when the FEN is read.
    pub(crate) castle_rooks: [[Option<Square>; 2]; 2],
    /// Castling bits that survive a move from or to each square.
    pub(crate) castle_mask: [u8; 64],
    pub(crate) states: Vec<State>,
    /// Material and piece-square values of the pieces on the board, from
    /// White's view, and their phase weights: kept by `put` and `remove`
    /// for the hand-made evaluation.
    pub(crate) psq: S,
    pub(crate) phase: i32,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen(true))
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

/// The standard start, kept with the other games' in `tengen-games`.
pub const START_FEN: &str = tengen_games::CHESS_START;

impl Board {
    pub(crate) fn empty() -> Board {
        Board {
            by_kind: [0; 6],
            by_color: [0; 2],
            squares: [None; 64],
            side: Color::White,
            fullmove: 1,
            castle_rooks: [[None; 2]; 2],
            castle_mask: [0xf; 64],
            states: Vec::with_capacity(256),
            psq: S(0, 0),
            phase: 0,
        }
    }

    pub fn startpos() -> Board {
        match Board::from_fen(START_FEN) {
            Ok(b) => b,
            // The constant above is valid; an empty board is the only
            // answer that cannot panic if it were not.
            Err(_) => Board::empty(),
        }
    }

    #[inline]
    pub(crate) fn st(&self) -> &State {
        // `states` always holds the root state; fall back on a blank state
        // rather than panic.
        const BLANK: State = State {
            key: 0,
            castling: 0,
            ep: None,
            halfmove: 0,
            captured: None,
            checkers: 0,
            pinned: 0,
            since_null: 0,
        };
        self.states.last().unwrap_or(&BLANK)
    }

    /// Material and piece-square values summed from White's view (what
    /// [`crate::eval::psq`] gives each piece, Black's negated).
    #[inline]
    pub(crate) fn psq(&self) -> S {
        self.psq
    }

    /// Game phase: 24 with every piece on the board, more after promotions.
    #[inline]
    pub(crate) fn phase(&self) -> i32 {
        self.phase
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.st().halfmove
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.st().key
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline]
    pub fn kind_bb(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    #[inline]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    #[inline]
    pub fn king_square(&self, c: Color) -> Square {
        Square::lsb(self.pieces(c, PieceKind::King))
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.st().checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.st().checkers != 0
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.st().ep
    }

    /// Castling rights as bits `2 * colour + side`.
    pub fn castling_rights(&self) -> u8 {
        self.st().castling
    }

    /// Number of moves played since the position was set up.
    pub fn plies_played(&self) -> usize {
        self.states.len().saturating_sub(1)
    }

    /// Rook square of a castling right still held, `side` 0 = h-side, 1 = a-side.
    pub fn castling_rook(&self, c: Color, side: usize) -> Option<Square> {
        if self.st().castling & (1 << (2 * c.index() + side)) != 0 {
            self.castle_rooks[c.index()][side & 1]
        } else {
            None
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        let b = sq.bb();
        self.by_kind[p.kind.index()] |= b;
        self.by_color[p.color.index()] |= b;
        self.squares[sq.index()] = Some(p);
        self.psq += PSQ[p.index()][sq.index()];
        self.phase += PHASE[p.kind.index()];
    }

    #[inline]
    pub(crate) fn remove(&mut self, p: Piece, sq: Square) {
        let b = !sq.bb();
        self.by_kind[p.kind.index()] &= b;
        self.by_color[p.color.index()] &= b;
        self.squares[sq.index()] = None;
        self.psq -= PSQ[p.index()][sq.index()];
        self.phase -= PHASE[p.kind.index()];
    }

    /// Every piece of either colour attacking `sq` given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = attacks::tables();
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (attacks::knight(sq) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::king(sq) & self.by_kind[PieceKind::King.index()])
            | (t.bishop(sq, occ)
                & (self.by_kind[PieceKind::Bishop.index()]
                    | self.by_kind[PieceKind::Queen.index()]))
            | (t.rook(sq, occ)
                & (self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()]))
    }

    /// Whether a piece of colour `by` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn attacked_by(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let t = attacks::tables();
        let them = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        (attacks::knight(sq) & them & self.by_kind[PieceKind::Knight.index()]) != 0
            || (attacks::pawn(by.flip(), sq) & them & self.by_kind[PieceKind::Pawn.index()]) != 0
            || (attacks::king(sq) & them & self.by_kind[PieceKind::King.index()]) != 0
            || (t.bishop(sq, occ) & them & (self.by_kind[PieceKind::Bishop.index()] | queens)) != 0
            || (t.rook(sq, occ) & them & (self.by_kind[PieceKind::Rook.index()] | queens)) != 0
    }

    /// Checkers and pins against the side to move's king.
    pub(crate) fn check_info(&self) -> (Bitboard, Bitboard) {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let theirs = self.by_color[them.index()];
        let checkers = self.attackers_to(ksq, occ) & theirs;
        let t = attacks::tables();
        let queens = self.by_kind[PieceKind::Queen.index()];
        let snipers = ((t.rook(ksq, 0) & (self.by_kind[PieceKind::Rook.index()] | queens))
            | (t.bishop(ksq, 0) & (self.by_kind[PieceKind::Bishop.index()] | queens)))
            & theirs;
        let mut pinned = 0;
        let ours = self.by_color[us.index()];
        for s in Squares(snipers) {
            let b = t.between(ksq, s) & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b & ours;
            }
        }
        (checkers, pinned)
    }

    /// King and rook destinations of a castle with the rook on `rook`.
    #[inline]
    pub(crate) fn castle_targets(king: Square, rook: Square) -> (Square, Square) {
        let rank = king.rank();
        if rook.file() > king.file() {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        }
    }

    /// Plays a legal move. Use [`Board::play`] or the `Position` trait.
    pub fn make_move(&mut self, m: Move) {
        let prev = *self.st();
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let mut key = prev.key ^ KEYS.side;
        if let Some(ep) = prev.ep {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        let mut st = State {
            key: 0,
            castling: prev.castling,
            ep: None,
            halfmove: prev.halfmove + 1,
            captured: None,
            checkers: 0,
            pinned: 0,
            since_null: prev.since_null + 1,
        };
        if let Some(piece) = self.squares[from.index()] {
            match m.kind() {
                MoveKind::Castle => {
                    let rook = Piece::new(us, PieceKind::Rook);
                    let (kto, rto) = Board::castle_targets(from, to);
                    self.remove(piece, from);
                    self.remove(rook, to);
                    self.put(piece, kto);
                    self.put(rook, rto);
                    let kk = &KEYS.piece[piece.index()];
                    let rk = &KEYS.piece[rook.index()];
                    key ^= kk[from.index()] ^ kk[kto.index()] ^ rk[to.index()] ^ rk[rto.index()];
                }
                MoveKind::EnPassant => {
                    let cap_sq = Square::from_coords(to.file(), from.rank());
                    let cap = Piece::new(them, PieceKind::Pawn);
                    self.remove(cap, cap_sq);
                    self.remove(piece, from);
                    self.put(piece, to);
                    let pk = &KEYS.piece[piece.index()];
                    key ^=
                        KEYS.piece[cap.index()][cap_sq.index()] ^ pk[from.index()] ^ pk[to.index()];
                    st.captured = Some(cap);
                    st.halfmove = 0;
                }
                MoveKind::Normal | MoveKind::Promotion => {
                    if let Some(cap) = self.squares[to.index()] {
                        self.remove(cap, to);
                        key ^= KEYS.piece[cap.index()][to.index()];
                        st.captured = Some(cap);
                        st.halfmove = 0;
                    }
                    self.remove(piece, from);
                    key ^= KEYS.piece[piece.index()][from.index()];
                    let placed = match m.promotion_piece() {
                        Some(k) => Piece::new(us, k),
                        None => piece,
                    };
                    self.put(placed, to);
                    key ^= KEYS.piece[placed.index()][to.index()];
                    if piece.kind == PieceKind::Pawn {
                        st.halfmove = 0;
                        if from.index() ^ to.index() == 16 {
                            let mid = Square::from_index((from.index() + to.index()) / 2);
                            // Only record a square some pawn can capture on,
                            // so equal positions get equal keys.
                            if attacks::pawn(us, mid) & self.pieces(them, PieceKind::Pawn) != 0 {
                                st.ep = Some(mid);
                                key ^= KEYS.ep_file[mid.file() as usize];
                            }
                        }
                    }
                }
            }
        }
        let rights = prev.castling & self.castle_mask[from.index()] & self.castle_mask[to.index()];
        if rights != prev.castling {
            key ^= KEYS.castling[prev.castling as usize] ^ KEYS.castling[rights as usize];
            st.castling = rights;
        }
        st.key = key;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        let (checkers, pinned) = self.check_info();
        st.checkers = checkers;
        st.pinned = pinned;
        self.states.push(st);
    }

    /// Takes back `m`, which must be the last move made.
    pub fn unmake_move(&mut self, m: Move) {
        if self.states.len() <= 1 {
            return;
        }
        let st = match self.states.pop() {
            Some(s) => s,
            None => return,
        };
        let us = self.side.flip();
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Castle => {
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                let (kto, rto) = Board::castle_targets(from, to);
                self.remove(king, kto);
                self.remove(rook, rto);
                self.put(king, from);
                self.put(rook, to);
            }
            MoveKind::EnPassant => {
                let pawn = Piece::new(us, PieceKind::Pawn);
                self.remove(pawn, to);
                self.put(pawn, from);
                let cap_sq = Square::from_coords(to.file(), from.rank());
                self.put(Piece::new(us.flip(), PieceKind::Pawn), cap_sq);
            }
            MoveKind::Normal | MoveKind::Promotion => {
                if let Some(moved) = self.squares[to.index()] {
                    self.remove(moved, to);
                    let orig = if m.kind() == MoveKind::Promotion {
                        Piece::new(us, PieceKind::Pawn)
                    } else {
                        moved
                    };
                    self.put(orig, from);
                }
                if let Some(cap) = st.captured {
                    self.put(cap, to);
                }
            }
        }
    }

    /// Passes the turn (for null-move pruning).
    pub fn make_null_move(&mut self) {
        let prev = *self.st();
        let mut key = prev.key ^ KEYS.side;
        if let Some(ep) = prev.ep {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        self.side = self.side.flip();
        let (checkers, pinned) = self.check_info();
        self.states.push(State {
            key,
            castling: prev.castling,
            ep: None,
            halfmove: prev.halfmove + 1,
            captured: None,
            checkers,
            pinned,
            since_null: 0,
        });
    }

    pub fn unmake_null_move(&mut self) {
        if self.states.len() > 1 {
            self.states.pop();
            self.side = self.side.flip();
        }
    }

    /// Plays a move and keeps it in the history (for repetitions).
    pub fn play(&mut self, m: Move) {
        self.make_move(m);
    }

    /// Recomputes the key from scratch (for tests and FEN loading).
    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in Squares(self.occupied()) {
            if let Some(p) = self.squares[sq.index()] {
                k ^= KEYS.piece[p.index()][sq.index()];
            }
        }
        if self.side == Color::Black {
            k ^= KEYS.side;
        }
        let st = self.st();
        k ^= KEYS.castling[st.castling as usize];
        if let Some(ep) = st.ep {
            k ^= KEYS.ep_file[ep.file() as usize];
        }
        k
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::default();
        self.generate_legal(&mut list, false);
        list.as_slice().to_vec()
    }

    /// Whether `m` is one of the legal moves here.
    pub fn is_legal_move(&self, m: Move) -> bool {
        let from = m.from();
        match self.squares[from.index()] {
            Some(p) if p.color == self.side => {}
            _ => return false,
        }
        let mut list = MoveList::default();
        self.generate_legal(&mut list, false);
        list.as_slice().contains(&m)
    }
}
