//! A count's case: every army of the case, found one by one. HiGHS solves the case's program;
//! each army it admits is decided (a play the backtracker orders and the independent replay
//! accepts, or none found) and cut off together with every image of it under the problem's
//! symmetries that fits the case (its cells start cells of the case's board, its men per
//! exponent class the case's profile; an image that does not fit cannot be a solution of
//! this program, so leaving its cut out changes nothing); the program is solved again until
//! it is infeasible. The case's line then lists its armies, and its program, with every
//! cut, is the one the proof states: infeasible, it says the case has no army beyond them.

use super::{Attempt, CaseResult, Family, Sweep};
use crate::error::Error;
use crate::ip::model::Spec;
use crate::ip::solve::{IpSolution, IpStatus};
use crate::problem::geometry::Cell;
use crate::proof::format::IpProof;
use crate::proof::verify::Step;
use crate::reduce::board::Board;
use crate::reduce::cases::Case;
use crate::search::outcome;
use indicatif::ProgressBar;
use std::time::Instant;

/// Nodes the backtracker may visit ordering one army of a count (ten times a search's: a
/// count must decide every army, not just find one).
pub const COUNT_ORDER_BUDGET: u64 = 20_000_000;

impl Sweep {
    /// Solves a count's case to the end from HiGHS's first verdict `sol` on its program
    /// (`board`, `spec`, `proof`): the case's line, its armies in `counted`, its program
    /// with their cuts in `ip` when it ends infeasible. Past the time limit the case is
    /// open, its armies kept only as a record.
    pub(super) fn count_case(
        &self,
        mut r: CaseResult,
        (board, mut spec, mut proof): (&Board, Spec, IpProof),
        mut sol: IpSolution,
        (time_limit, t0): (Option<f64>, Instant),
        (f, c): (&Family, &Case),
        bar: Option<&ProgressBar>,
    ) -> Result<Attempt, Error> {
        let label = format!("{:?} {}", f.last_jump, c.key());
        while sol.status == IpStatus::Optimal {
            let (cells, play) = decided(self, board, &sol, f.last_jump);
            for image in self.army.lattice().images(&cells) {
                // The army itself is always cut off, so that the loop ends.
                let own = (image == cells).then(|| sol.start.clone());
                if let Some(set) = own.or_else(|| fitting(board, c, &image))
                    && !spec.excluded.contains(&set)
                {
                    spec.excluded.push(set);
                    proof.def.cuts.push(image);
                    proof.rows += 1;
                }
            }
            r.counted.push((cells, play));
            let left = time_limit.map(|t| (t - t0.elapsed().as_secs_f64()).max(0.01));
            sol = self.solve_whole(board, &spec, left, bar, &label)?;
        }
        r.seconds = t0.elapsed().as_secs_f64();
        self.settle_case(&mut r, board, &spec, &sol, time_limit, f, c, proof)?;
        Ok(Attempt::Done(r, None))
    }
}

/// A solution's army, sorted, and its verified play (None when the backtracker finds no
/// order within [`COUNT_ORDER_BUDGET`] nodes, or the replay refuses it).
fn decided(
    sweep: &Sweep,
    board: &Board,
    sol: &IpSolution,
    d: Cell,
) -> (Vec<Cell>, Option<Vec<Step>>) {
    let mut cells: Vec<Cell> = sol.start.iter().map(|&m| board.cells[m]).collect();
    cells.sort();
    let decided = (sweep.army, sweep.level);
    let play = outcome::verified_play(board, sol, d, decided, COUNT_ORDER_BUDGET);
    (cells, play)
}

/// The start-cell indices of `image` on the case's board, when it fits the case: every
/// cell a start cell of the board, and as many men in each exponent class as the case has.
fn fitting(board: &Board, c: &Case, image: &[Cell]) -> Option<Vec<usize>> {
    let set: Vec<usize> = image
        .iter()
        .map(|x| board.index.get(x).copied().filter(|&m| board.start[m]))
        .collect::<Option<_>>()?;
    let mut profile: Vec<(i32, u64)> = Vec::new();
    for &m in &set {
        let e = board.exponent[m]?;
        match profile.iter_mut().find(|p| p.0 == e) {
            Some(p) => p.1 += 1,
            None => profile.push((e, 1)),
        }
    }
    profile.sort();
    let mut want: Vec<(i32, u64)> = c.profile.iter().copied().filter(|p| p.1 > 0).collect();
    want.sort();
    (profile == want).then_some(set)
}
