//! What the searcher needs from a game, and nothing more.

use std::fmt::Debug;
use tengen_core::Score;

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Captures and promotions (the moves quiescence searches). When the
    /// side to move is in check the searcher asks for `All` instead.
    Tactical,
}

/// A verdict on the game history at a node, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// Draw by repetition, move limit, insufficient material, ...
    Draw,
    /// The side to move has lost (it is the one that repeated illegally,
    /// e.g. by perpetual check in xiangqi or shogi).
    Loss,
    /// The side to move has won (the opponent is the forbidden repeater).
    Win,
}

/// Pruning and reduction margins a game may tune; the algorithm stays one.
/// Values are in the game's evaluation units (100 = a pawn in chess).
#[derive(Clone, Copy, Debug)]
pub struct SearchParams {
    /// Value of the smallest piece, the unit of the margins below.
    pub pawn: i32,
    /// Reverse futility (static null move): margin per ply of depth.
    pub rfp_margin: i32,
    /// Deepest depth at which reverse futility applies.
    pub rfp_depth: i32,
    /// Futility pruning of quiet moves: base + per ply.
    pub futility_base: i32,
    pub futility_per_ply: i32,
    pub futility_depth: i32,
    /// Null move: minimum depth, base reduction, depth divisor.
    pub null_min_depth: i32,
    pub null_base_reduction: i32,
    pub null_depth_divisor: i32,
    /// Late-move reductions: `base + ln(depth) * ln(moveno) / divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    /// Late-move pruning: quiet moves searched at depth d ≤ `lmp_depth`
    /// before the rest are skipped, as `lmp_base + d * d`.
    pub lmp_base: i32,
    pub lmp_depth: i32,
    /// SEE thresholds for pruning bad captures / quiets: per ply of depth.
    pub see_capture_margin: i32,
    pub see_quiet_margin: i32,
    /// Quiescence delta pruning margin.
    pub delta_margin: i32,
    /// Aspiration window half-width at the first try.
    pub aspiration: i32,
    /// Extend only checks that do not lose material by SEE (in shogi most
    /// checking drops are sacrifices, and extending them all blows up the
    /// tree); otherwise every check is extended.
    pub safe_check_extension: bool,
    /// Time scaling by the best root move's share of the nodes:
    /// `(base, per share of the other moves)`, so a soft limit times
    /// `base + per * (1 - best share)`; `None` leaves the limit alone.
    pub effort_time: Option<(f64, f64)>,
    /// Late-move reduction refinements: quiet moves reduced one more
    /// when the hash move is a capture or the children keep failing high,
    /// and a reduced move that beat alpha re-searched a ply deeper or
    /// shallower by its margin.
    pub lmr_refinements: bool,
}

impl SearchParams {
    /// Margins that suit chess-like games with a 100-unit pawn.
    pub const CHESS_LIKE: SearchParams = SearchParams {
        pawn: 100,
        rfp_margin: 80,
        rfp_depth: 8,
        futility_base: 90,
        futility_per_ply: 90,
        futility_depth: 8,
        null_min_depth: 2,
        null_base_reduction: 3,
        null_depth_divisor: 4,
        lmr_base: 0.75,
        lmr_divisor: 2.25,
        lmp_base: 3,
        lmp_depth: 8,
        see_capture_margin: -90,
        see_quiet_margin: -50,
        delta_margin: 200,
        aspiration: 20,
        safe_check_extension: false,
        effort_time: None,
        lmr_refinements: false,
    };
}

/// A game position the alpha-beta searcher can work on.
///
/// `make`/`unmake` keep the game history inside the position so that
/// [`Position::ruling`] can look at it (repetitions, perpetual checks).
pub trait Position: Clone + Send + 'static {
    /// A move; must round-trip through [`Position::encode`] in 16 bits.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// Number of distinct [`Position::history_index`] values.
    const HISTORY_SIZE: usize;
    /// Pruning and reduction margins for this game.
    const PARAMS: SearchParams;

    /// Zobrist key of the position (side to move and hands included).
    fn key(&self) -> u64;
    /// A key of the position's slow-changing structure (its pawns,
    /// say), side to move included, under which the searcher's correction
    /// history learns how far the static evaluation misses. `None`: the
    /// game keeps no correction history.
    #[inline]
    fn correction_key(&self) -> Option<u64> {
        None
    }
    fn in_check(&self) -> bool;

    /// Appends legal moves of `kind` to `moves` (the caller clears it).
    fn generate(&self, kind: GenKind, moves: &mut Vec<Self::Move>);
    /// Whether `m` (from the transposition table, a killer or a counter
    /// move, so possibly from another position) is legal here.
    fn is_legal(&self, m: Self::Move) -> bool;

    fn make(&mut self, m: Self::Move);
    fn unmake(&mut self, m: Self::Move);
    /// Passes the turn; only called when [`Position::null_move_ok`].
    fn make_null(&mut self);
    fn unmake_null(&mut self);
    /// Whether a null move is a sound test here (not in check; the side
    /// to move has material that makes zugzwang unlikely).
    fn null_move_ok(&self) -> bool;

    /// A capture or a promotion.
    fn is_tactical(&self, m: Self::Move) -> bool;
    /// Whether [`Position::gives_check`] tells checks apart.
    const REPORTS_CHECKS: bool = false;

    /// Whether `m` gives check, for games that can tell without making
    /// it ([`Position::REPORTS_CHECKS`]); quiet checks are then spared
    /// futility, history and SEE pruning. Other games answer `false`.
    #[inline]
    fn gives_check(&self, _m: Self::Move) -> bool {
        false
    }
    /// Value of what `m` captures (0 if nothing) plus promotion gain, for
    /// most-valuable-victim ordering.
    fn tactical_value(&self, m: Self::Move) -> i32;
    /// Static exchange evaluation: does `m` win at least `threshold`?
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// Index into history tables: which piece goes where.
    fn history_index(&self, m: Self::Move) -> usize;

    fn encode(m: Self::Move) -> u16;
    /// The move a 16-bit code names in this position, if it is legal.
    fn decode(&self, code: u16) -> Option<Self::Move>;

    /// The game's verdict on the history at this node, `ply` plies after
    /// the root. Called at every non-root node before searching it.
    fn ruling(&self, ply: usize) -> Option<Ruling>;
    /// Score when the side to move has no legal move: checkmate (and in
    /// xiangqi stalemate) is a loss, stalemate a draw in chess.
    fn no_moves_score(&self, ply: usize) -> Score;
}

/// A static evaluation from the side to move's point of view. Kept apart
/// from [`Position`] so a hand-made evaluation and a network can be swapped.
///
/// The searcher tells the evaluator about every move it makes and takes
/// back, so an evaluation that keeps incremental state (a network's
/// accumulators) can follow the tree; the hooks do nothing by default.
pub trait Evaluator<P: Position>: Clone + Send + 'static {
    fn evaluate(&mut self, pos: &P) -> i32;

    /// A search starts at `root`: forget any state from another position.
    #[inline]
    fn reset(&mut self, _root: &P) {}
    /// `m` is about to be made in `pos`.
    #[inline]
    fn push(&mut self, _pos: &P, _m: P::Move) {}
    /// A null move is about to be made in `pos`.
    #[inline]
    fn push_null(&mut self, _pos: &P) {}
    /// The last move (or null move) pushed has been taken back.
    #[inline]
    fn pop(&mut self) {}
}
