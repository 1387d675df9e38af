//! The fewest moves: a search over all legal plays from a start position for the shortest
//! one (in moves) that reaches a goal, and the proof that none is shorter.
//!
//! A **move** is a run of jumps by one man (as [`crate::proof::verify::count_moves`] counts them): one
//! level of the search is one man making one or more jumps from one position. The search is
//! iterative deepening on the number of moves D, from an admissible lower bound up; depth D is
//! searched exhaustively, so when depth D − 1 fails and depth D finds a play (or a known play of
//! D moves is given as the upper bound), D is the minimum. Positions are sets of men; children
//! are deduplicated exactly, and a transposition table remembers, per position (exact key, up
//! to the lattice's mirror), the largest number of remaining moves shown not to suffice. A
//! problem is data ([`Problem`]): a lattice, optionally a finite set of allowed cells, a start
//! set and a goal ([`Goal::ManOn`] the target, or [`Goal::OneManOn`] it); the target is (0,0).
//!
//! **The bounds, and why each is admissible** (never more than the true number of moves left).
//! Let P be a position with the target empty (for `OneManOn`: P has two men or more).
//!
//! 1. *A move advances the front by at most one cell.* Let dist be the distance in the graph
//!    whose edges are the jump directions (the standard pagoda exponent) and r_t(P) the
//!    smallest dist(m, t) over the men m of P. During a move only the mover changes cells, so
//!    every man it jumps over is a man of P (other than the mover), and every cell it lands on
//!    is b + d for such a man b and a direction d: an edge away from b. So every landing cell
//!    is at distance >= r_t(P) − 1 from t, the other men have not moved, and after one move
//!    r_t >= r_t(P) − 1. Putting a man on t therefore needs at least r_t(P) moves.
//! 2. *The last jump.* Every play that reaches the goal ends with a jump 2d over d into the
//!    target, for a direction d with d and 2d allowed cells. Its over cell d holds a man of the
//!    position before the last move (bound 1's argument: over cells are men of the position
//!    before the move), so a man stood on d after all but one move: by bound 1 with t = d, at
//!    least r_d(P) + 1 moves. Moreover the position just before that last jump contains {d, 2d},
//!    which weighs σ + σ² = 1 under the improved pagoda function of d (exponent 1 + dist from d;
//!    for Pablito the paper's Figure 7b variant, weight 0 on the edge along the mirror of d),
//!    and no jump increases a pagoda weight, so every position of the play before the last jump
//!    weighs >= 1 under it. Hence the admissible bound
//!    `h(P) = min over d with W_d(P) >= 1 of (r_d(P) + 1)`, and h(P) = ∞ (P is dead) when no
//!    direction d has W_d(P) >= 1.
//! 3. *Standard weight.* Under the standard function (exponent = distance from the target) a
//!    position with a man on the target weighs >= 1 = σ^0, so a position weighing less is dead.
//! 4. *Weight near d comes in slowly.* Let e = 1 + dist(d, ·) (the plain improved exponent, a
//!    graph distance, so adjacent cells differ by at most 1), S_J the cells with e <= J (J >= 2,
//!    so S_J holds d and 2d) and T_J(P) the weight Σ σ^e of the men of P in S_J (a truncated
//!    pagoda weight: it can grow). The position before the last jump holds d and 2d, so
//!    T_J >= σ + σ² = 1 there. A move (or a prefix of one: a chain a_0 → … → a_k over
//!    b_1 … b_k) changes T_J by T(a_k) − T(a_0) − Σ T(b_i) <= T(a_k) − T(b_k). If b_k ∈ S_J,
//!    e(b_k) <= e(a_k) + 1, so the change is <= σ^e(a_k) − σ^(e(a_k)+1) = σ^(e(a_k)+2); if
//!    b_k ∉ S_J, e(b_k) >= J + 1, so e(a_k) >= J and the change is <= σ^J (0 if a_k ∉ S_J).
//!    By bound 1, move i lands on exponent >= e_i = max(1, r_d(P) + 1 − i). So move i raises
//!    T_J by at most γ_i = σ^min(e_i + 2, J) when e_i <= J, and not at all otherwise; the
//!    last jump happens in move m (after m − 1 moves and a prefix of move m) only if
//!    T_J(P) + γ_1 + … + γ_m >= 1. The least such m, for J = 3 … 6, is a lower bound for d;
//!    h(P) uses, per d, the largest of bounds 2 and 4.
//! 5. *Merson regions* (finite board, goal `OneManOn`). Call a set R of cells a Merson region
//!    if every jump over a cell of R that starts outside R lands inside R. While R is full,
//!    a jump starting outside R cannot touch it (it would land on a man), so the first jump
//!    that changes a full R starts inside R. Within one move, that first jump starts at the
//!    move's start cell: any later start cell of the chain is a landing cell, empty just
//!    before, so were it in R, R would already have changed in this move. Every full R must
//!    change before the goal: one man is left, on the target, so no other region is full
//!    then, and {target} (no jump passes over a region alone) must be empty when the last
//!    jump lands there, so its man jumps away first. One move starts in at most one of
//!    disjoint regions, so the number of disjoint full regions is a lower bound;
//!    h(P) is the larger of it and the bound of 2 and 4. The regions are found from the board
//!    (windows of up to 3 × 3 cells that pass the test, e.g. the English board's eight arm
//!    corners, which no jump passes over).
//!
//! Weights are exact (a + bσ with integers, [`crate::weight::golden::Golden`]); cells whose exponent lies
//! beyond the pagoda's trusted window are given the weight σ^(T+1) and the distance T + 1 − offset
//! (T the trusted exponent): an upper bound on the weight and a lower bound on the distance, so
//! every bound stays admissible. Distances on a finite board are at least those on the whole
//! lattice and a pagoda function restricted to a board is still one, so the bounds hold there
//! too. `tests/moves.rs` checks every bound against a plain breadth-first search on random small
//! positions.
//!
//! **The board is finite without loss**: a play of K men has at most K − 1 jumps and a jump moves
//! its man by 2d (at most 2 in each coordinate), so no man ever leaves the start's bounding box
//! widened by 2(K − 1); the search's grid is that box plus a wall.
//!
//! **Symmetry.** The lattice's mirror fixes the target and maps jumps to jumps, so a position and
//! its mirror image need the same number of moves: keys are canonical (the smaller of the two
//! sorted cell lists) whenever the allowed cells are mirror-symmetric, which the whole lattice is
//! — whether or not the start itself is symmetric ([`Problem::start_is_symmetric`] says which).
//!
//! The transposition table is capped (by entries); when full it stops storing, which only costs
//! time: the search stays exhaustive and correct without it.
//!
//! **Upper bounds** are plays, checked by replay: a seed play (the IP's), and what the *probes*
//! find before the proof starts ([`beam`]: beam searches by levels that reorder the best
//! play's jumps into fewer moves, then free ones over every legal move). Probes are heuristics
//! and prove nothing; the proof is the iterative deepening alone, which stops as soon as its
//! depth reaches the best play.
//!
//! The parts: the problem, the options and the answer (here), the search's grid and the
//! bounds above ([`tables`]), the depth-first search of one depth ([`search`]) or, on a board
//! of at most 64 holes, its breadth-first search ([`breadth`]), the iterative deepening that proves the minimum ([`deepen`]) and the probes ([`beam`]).

use crate::problem::Army;
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::Step;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

mod beam;
mod breadth;
mod deepen;
mod search;
mod tables;
pub use beam::reorder;
pub use deepen::solve;
use search::{Child, FxSet, Search};
use tables::W;
pub use tables::{Tables, lower_bound};

/// What counts as solved. The target cell must be (0,0) (translate the problem otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Some man stands on the cell (the solitaire army's goal).
    ManOn(Cell),
    /// Exactly one man is left, on the cell (the classic board's goal).
    OneManOn(Cell),
}

impl Goal {
    pub fn target(self) -> Cell {
        match self {
            Goal::ManOn(c) | Goal::OneManOn(c) => c,
        }
    }
}

/// A search problem, as data.
#[derive(Clone, Debug)]
pub struct Problem {
    pub lattice: Lattice,
    /// The army whose improved pagoda functions to use (Pablito's blind edge); None: the plain
    /// improved functions of the lattice.
    pub army: Option<Army>,
    /// A finite board (allowed cells), or None for the whole lattice.
    pub cells: Option<Vec<Cell>>,
    pub start: Vec<Cell>,
    pub goal: Goal,
}

impl Problem {
    /// An army at a level: checks that every man stands on a lattice cell of the start region
    /// and that no two coincide; the error is one line naming the first bad man.
    pub fn army(army: Army, level: i32, men: &[Cell]) -> Result<Problem, String> {
        let lattice = army.lattice();
        crate::proof::verify::start_position(&lattice, level, men)?;
        if men.is_empty() {
            return Err("the army has no men".into());
        }
        Ok(Problem {
            lattice,
            army: Some(army),
            cells: None,
            start: men.to_vec(),
            goal: Goal::ManOn(Cell::ORIGIN),
        })
    }

    fn allowed(&self, c: Cell) -> bool {
        self.lattice.contains(c) && self.cells.as_ref().is_none_or(|v| v.contains(&c))
    }

    /// Is the board (lattice or finite cells) mapped onto itself by the mirror?
    pub fn board_is_symmetric(&self) -> bool {
        self.cells.as_ref().is_none_or(|v| {
            let s: HashSet<Cell> = v.iter().copied().collect();
            v.iter().all(|&c| s.contains(&self.lattice.reflect(c)))
        })
    }

    /// Is the start position its own mirror image?
    pub fn start_is_symmetric(&self) -> bool {
        let s: HashSet<Cell> = self.start.iter().copied().collect();
        self.start
            .iter()
            .all(|&c| s.contains(&self.lattice.reflect(c)))
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The minimum is proven (a play of that many moves, every shorter depth exhausted).
    Optimal,
    /// No play reaches the goal (the start is dead, or every depth up to K − 1 failed).
    Impossible,
    TimeLimit,
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Impossible => "impossible",
            Status::TimeLimit => "time_limit",
            Status::Interrupted => "interrupted",
        }
    }
}

/// A progress callback: (depth, positions this depth, positions in all).
pub type Progress = Box<dyn FnMut(u32, u64, u64)>;

/// Search options.
pub struct Options {
    pub time_limit: Option<f64>,
    /// Transposition-table cap, in entries.
    pub tt_entries: usize,
    /// A known legal play (its move count is an upper bound; it must reach the goal).
    pub seed: Option<Vec<Step>>,
    /// Set from outside (Ctrl-C) to stop.
    pub interrupt: Option<&'static AtomicBool>,
    /// Positions to spend, before the proof, looking for plays shorter than the seed (beam
    /// searches by levels, not part of the proof); 0: none.
    pub probe_positions: u64,
    /// Called about every quarter second with (depth, positions this depth, total positions).
    pub progress: Option<Progress>,
    /// Depths below this were searched exhaustively by an earlier run of this search on the
    /// same problem (the caller's stamped record of it): the deepening starts here, and the
    /// answer says so ([`Answer::resumed_below`]). 0: none.
    pub resume_depth: u32,
    /// Search each depth breadth-first, a position as one word ([`breadth`]), on boards of
    /// at most 64 holes; depth-first otherwise, or when a level outgrows its cap.
    pub breadth_first: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            time_limit: None,
            tt_entries: 4_000_000,
            seed: None,
            probe_positions: 0,
            interrupt: None,
            progress: None,
            resume_depth: 0,
            breadth_first: false,
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: Status,
    /// The minimum number of moves, when proven.
    pub min_moves: Option<u32>,
    /// Proven: no play of fewer moves exists.
    pub lower_bound: u32,
    /// The admissible bound of the start position (None: dead).
    pub start_bound: Option<u32>,
    /// The best play known (found by the search, or the seed), with its move count.
    pub play: Option<Vec<Step>>,
    pub play_moves: Option<u32>,
    /// True when `play` was found by the search, false when it is the seed.
    pub found_by_search: bool,
    /// `positions[D]` = positions examined while searching depth D (0 for depths not searched).
    pub positions: Vec<u64>,
    pub seconds: f64,
    pub tt_entries: usize,
    pub tt_full: bool,
    pub start_symmetric: bool,
    /// Positions examined by the probes for shorter plays (not part of the proof).
    pub probe_positions: u64,
    /// Depths from the start bound up to this one (excluded) were not searched here but taken
    /// from an earlier run ([`Options::resume_depth`]): the proof spans both runs.
    pub resumed_below: Option<u32>,
}

/// Replays a play with the independent checker (armies) or the rules (other problems) and
/// returns its number of moves; it must reach the goal.
pub fn check_play(p: &Problem, play: &[Step]) -> Result<u32, String> {
    let mut board: HashSet<Cell> = p.start.iter().copied().collect();
    for (i, s) in play.iter().enumerate() {
        let ok = p.lattice.is_jump(s.from, s.over, s.to)
            && p.allowed(s.from)
            && p.allowed(s.over)
            && p.allowed(s.to)
            && board.contains(&s.from)
            && board.contains(&s.over)
            && !board.contains(&s.to);
        if !ok {
            return Err(format!(
                "jump {} {:?} over {:?} into {:?} is illegal",
                i + 1,
                s.from,
                s.over,
                s.to
            ));
        }
        board.remove(&s.from);
        board.remove(&s.over);
        board.insert(s.to);
    }
    let reached = match p.goal {
        Goal::ManOn(c) => board.contains(&c),
        Goal::OneManOn(c) => board.len() == 1 && board.contains(&c),
    };
    if !reached {
        return Err("the play does not reach the goal".into());
    }
    Ok(crate::proof::verify::count_moves(play) as u32)
}
