//! The fewest moves of a board problem, exactly: a search by levels over every position that
//! lies on some play from the start to the finish (boards of at most 64 holes, a position
//! being the set of its men as the bits of a `u64`).
//!
//! **Method.** Let S be the start (every hole but the vacancy v), T the finish (one man on f)
//! and N = holes − 2 the number of jumps of any play. Split N = J + K with J = ⌈N/2⌉.
//!
//! 1. *Forward levels.* F_j = the positions reached from S by j jumps (j = 0 … J), each level
//!    sorted, positions kept up to the stabiliser H_v of v among the board's symmetries.
//! 2. *Backward levels, by complement.* If a jump a → c over b turns P into P', the same jump
//!    a → c over b turns the complement of P' (a, b full, c empty) into the complement of P:
//!    so P reaches T in k jumps exactly when the complement of P is reached from the
//!    complement of T (every hole but f) in k jumps (the jumps in reverse order; chains of one
//!    man are not kept, so a problem and its reverse may differ in moves). The backward levels are the forward levels B_k of that start
//!    (k = 0 … K), kept up to H_f. (For the central game S is T's complement, and one set of
//!    levels serves both ways.)
//! 3. *The positions on some play*, G_j (j jumps made): G_J = {P ∈ F_J : comp(P) ∈ B_K}; for
//!    j < J, G_j = the parents (one jump back) of G_{j+1} that lie in F_j; for j > J,
//!    G_j = the children of G_{j−1} whose complement lies in B_{N−j}. A position is on some
//!    play exactly when it is reached from S and reaches T, and every position of a play is,
//!    so G is exactly the union of all plays' positions, kept up to H = H_v ∩ H_f (every
//!    symmetry in H fixes S and T and maps plays to plays).
//! 4. *Moves.* A move is one man's chain of jumps; every position inside a chain that is part
//!    of a play is itself in G (reached from S, and it reaches T through the rest of the
//!    play), so the moves between positions of G are found by chains that never leave G.
//!    The moves form an acyclic graph (each jump removes a man); its shortest path from S to T,
//!    by dynamic programming over the levels, is the fewest moves, and no shorter play exists
//!    because every play is a path of this graph. No bound or heuristic is involved: the
//!    search is exhaustive over the reachable positions.
//!
//! The play reported is walked on the concrete board (one move at a time, each move leading to
//! a position one move nearer T), and the caller replays it with the independent checker.
//!
//! The parts: a board as bits and its symmetries ([`bits`]), the forward levels from a hole
//! and the sets that hold them ([`levels`]), the positions on some play, the move graph on
//! them and its shortest path ([`graph`], which solves one problem from its levels), and the
//! catalogue of every problem of a board, its levels shared by hole class ([`catalogue()`]).

use super::PegBoard;
use crate::proof::verify::Step;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod bits;
mod catalogue;
mod graph;
mod levels;
pub use bits::Bits;
pub use catalogue::{Entry, REACH_BYTES, Status, catalogue};
pub use graph::solve;
pub use levels::{Lookup, Reach, Seen};

/// Why a computation stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Interrupted,
    /// More positions than the cap: the memory would not suffice.
    TooMany,
}

/// A progress callback: one line saying what is being built.
pub type Progress = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// Limits of a computation.
#[derive(Clone)]
pub struct Limits {
    /// The most positions any one level may hold (8 bytes each, sorted; building a level
    /// needs a few times that).
    pub max_level: usize,
    /// The most bytes a catalogue keeps in reaches ([`REACH_BYTES`] by default).
    pub reach_bytes: usize,
    pub interrupt: Option<&'static AtomicBool>,
    /// Told each level as it is built.
    pub progress: Option<Progress>,
}

impl Limits {
    fn tell(&self, line: impl FnOnce() -> String) {
        if let Some(p) = &self.progress {
            p(line());
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_level: 150_000_000,
            reach_bytes: REACH_BYTES,
            interrupt: None,
            progress: None,
        }
    }
}

/// The answer for one problem.
#[derive(Clone, Debug, Default)]
pub struct Solved {
    /// None: no play reaches the finish.
    pub min_moves: Option<u32>,
    /// A play of `min_moves` moves (board coordinates).
    pub play: Option<Vec<Step>>,
    /// `on_plays[j]` = positions (up to the problem's symmetry) after j jumps on some play.
    pub on_plays: Vec<u64>,
    /// `table[d][t]` = positions on some play whose fewest moves from the start is d and whose
    /// shortest play through them has t moves (Beasley's Tables 1–4, exact).
    pub table: Vec<Vec<u64>>,
    /// The size of the problem's symmetry group (positions are counted up to it).
    pub symmetry: usize,
    pub seconds: f64,
}

/// The levels each side needs: the forward reach ⌈N/2⌉ jumps deep, the backward ⌊N/2⌋.
pub fn depths(bits: &Bits) -> (usize, usize) {
    let n = bits.n - 2;
    (n - n / 2, n / 2)
}

/// One problem from scratch: the levels of the vacancy and of the finish (shared when the
/// two are one hole), then [`solve`]. Also returns the positions of the levels built.
pub fn solve_one(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    lim: &Limits,
) -> Result<(Solved, u64), String> {
    let bits = Bits::new(board)?;
    let started = Instant::now();
    let (jf, jb) = depths(&bits);
    let stop = |s: Stop| stop_line(s, lim);
    let fwd = Reach::new(&bits, vacancy, jf, lim).map_err(stop)?;
    let bwd_own;
    let bwd = if finish == vacancy {
        &fwd
    } else {
        bwd_own = Reach::new(&bits, finish, jb, lim).map_err(stop)?;
        &bwd_own
    };
    let positions = fwd.positions()
        + if finish == vacancy {
            0
        } else {
            bwd.positions()
        };
    let (a, b) = (Seen::new(&bits, &fwd, 0), Seen::new(&bits, bwd, 0));
    let mut s = solve(board, &bits, (&a, &b), lim).map_err(stop)?;
    s.seconds = started.elapsed().as_secs_f64();
    Ok((s, positions))
}

/// The one-line reason a computation stopped.
pub fn stop_line(s: Stop, lim: &Limits) -> String {
    match s {
        Stop::Interrupted => "interrupted".to_string(),
        Stop::TooMany => format!(
            "a level would hold more than {} positions: stopped before the memory runs out",
            lim.max_level
        ),
    }
}
