//! The jump integer program of a board problem (step 3 of [`super::settle`]): one integer
//! column per jump, its count, one row per hole; HiGHS gives a jump vector, the backtracker
//! ([`crate::play::order`]) orders it into a play, and a vector it cannot order gets a
//! no-good cut that removes that vector only before the program is solved again.

use super::PegBoard;
use crate::play::order::{self, Ordering};
use crate::problem::geometry::Cell;
use crate::proof::farkas::LinearSystem;
use highs::{HighsModelStatus, RowProblem, Sense};

/// The jump program's vectors, each tried by the backtracker.
pub(super) struct Vectors {
    arena: crate::reduce::board::Board,
    start: Vec<usize>,
    target: Cell,
    /// The vectors not ordered, in the order found: each a cut.
    pub(super) cuts: Vec<Vec<(usize, u32)>>,
}

/// What the next vector gave.
pub(super) enum Step3 {
    Play(Vec<usize>),
    Infeasible,
    Cut,
}

impl Vectors {
    /// The vectors of (vacancy `v`, finish `f`), with these cuts already made.
    pub(super) fn new(
        board: &PegBoard,
        (v, f): (usize, usize),
        cuts: Vec<Vec<(usize, u32)>>,
    ) -> Vectors {
        Vectors {
            arena: arena(board),
            start: (0..board.cells.len()).filter(|&h| h != v).collect(),
            target: board.cells[f],
            cuts,
        }
    }

    /// The program's next vector, ordered into a play within `order_budget` nodes, or cut.
    pub(super) fn next(&mut self, sys: &LinearSystem, order_budget: u64) -> Step3 {
        let Some(jumps) = solve(sys, &self.cuts) else {
            return Step3::Infeasible;
        };
        let (arena, target) = (&self.arena, self.target);
        let priority = |j: usize| {
            let Cell(x, y, _) = arena.cells[arena.jumps[j].from];
            ((x - target.0).pow(2) + (y - target.1).pow(2)) as i64
        };
        match order::order(arena, &self.start, &jumps, priority, order_budget) {
            Ordering::Found(seq) => Step3::Play(seq),
            Ordering::Impossible | Ordering::Budget => {
                self.cuts.push(jumps);
                Step3::Cut
            }
        }
    }
}

/// The board in the backtracker's form (every hole may hold a man at the start).
fn arena(board: &PegBoard) -> crate::reduce::board::Board {
    let n = board.cells.len();
    crate::reduce::board::Board {
        cells: board.cells.clone(),
        index: board.index.clone(),
        exponent: vec![None; n],
        start: vec![true; n],
        jumps: board
            .jumps
            .iter()
            .map(|j| crate::reduce::board::Jump {
                from: j.from,
                over: j.over,
                to: j.to,
            })
            .collect(),
        loss: vec![crate::weight::golden::Golden::ZERO; board.jumps.len()],
        level: 0,
    }
}

/// Solves the program with every cut: a jump vector (jump, count > 0), or None when HiGHS
/// finds it infeasible. A cut on a vector x* says some jump j of its support has
/// x_j <= x*_j − 1 (binary z_j picks it): since every solution has the same number of jumps,
/// x != x* exactly when some count of x*'s support drops, so this removes x* and nothing else.
fn solve(sys: &LinearSystem, cuts: &[Vec<(usize, u32)>]) -> Option<Vec<(usize, u32)>> {
    let mut pb = RowProblem::default();
    let upper = sys.cols.first().and_then(|c| c.1).unwrap_or(0) as f64;
    let cols: Vec<_> = sys
        .cols
        .iter()
        .map(|_| pb.add_integer_column(0.0, 0.0..=upper))
        .collect();
    for r in &sys.rows {
        let rhs = r.lo.unwrap_or(0) as f64;
        pb.add_row(rhs..=rhs, r.coefs.iter().map(|&(c, a)| (cols[c], a as f64)));
    }
    for cut in cuts {
        let z: Vec<_> = cut
            .iter()
            .map(|_| pb.add_integer_column(0.0, 0.0..=1.0))
            .collect();
        pb.add_row(1.0.., z.iter().map(|&zj| (zj, 1.0)));
        for (&(j, count), &zj) in cut.iter().zip(&z) {
            // x_j + U·z_j <= x*_j − 1 + U
            pb.add_row(
                ..=(count as f64 - 1.0 + upper),
                [(cols[j], 1.0), (zj, upper)],
            );
        }
    }
    let mut model = pb.optimise(Sense::Minimise);
    model.make_quiet();
    let solved = model.try_solve().ok()?;
    if solved.status() != HighsModelStatus::Optimal {
        return None;
    }
    let sol = solved.get_solution();
    Some(
        sol.columns()[..sys.cols.len()]
            .iter()
            .enumerate()
            .filter(|(_, x)| **x > 0.5)
            .map(|(j, x)| (j, x.round() as u32))
            .collect(),
    )
}
