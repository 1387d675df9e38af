//! The jump-matrix integer program of the paper's section 5, built with good_lp.
//!
//! Variables: STA_m ∈ {0,1} for every start cell m, J_n ∈ Z≥0 for every jump n.
//! Constraints: STA + A·J = FIN, one balance equation per cell (A has −1 at the jump's from
//! and over cells, +1 at its landing cell), plus whatever restricts a case: men per exponent
//! class, at most so many lossy jumps, a cap on the army, excluded start sets.
//! Objective: minimise Σ STA, the number of men.
//!
//! The model knows nothing of armies or pagoda arguments: it is built from a [`Board`], a
//! final position and a list of side constraints, so any lattice, desert or case split
//! reuses it unchanged.

use crate::proof::resolve::men_cost;
use crate::reduce::board::Board;
use good_lp::solvers::highs::{HighsProblem, highs};
use good_lp::{Expression, ProblemVariables, Solver, SolverModel, Variable, constraint, variable};

/// One integer program: the board, the final position and the side constraints.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// Cells holding a man at the end (FIN); every other cell ends empty.
    pub fin: Vec<usize>,
    /// At most this many men.
    pub max_men: Option<u64>,
    /// At least this many men (a bound proven before: lets HiGHS stop at the first army).
    pub min_men: Option<u64>,
    /// Σ STA over these cells = n (a case's men per exponent class).
    pub men_in: Vec<(Vec<usize>, u64)>,
    /// Σ J over these jumps <= n (e.g. at most one lossy jump).
    pub jumps_at_most: Vec<(Vec<usize>, u64)>,
    /// Start sets already tried and found unplayable (no-good cuts).
    pub excluded: Vec<Vec<usize>>,
    /// Pairs of start cells whose STA are equal, and pairs of jumps whose J are equal: a
    /// symmetry imposed on the army and its jumps (for finding only; it proves nothing).
    pub same_start: Vec<(usize, usize)>,
    pub same_jumps: Vec<(usize, usize)>,
    /// Cells that may end with a man or empty (a lifted army's leftover men, where the
    /// play that follows never lands); every other cell ends as `fin` says.
    pub spare: Vec<usize>,
}

/// The good_lp problem handed to HiGHS, with the variables in the order HiGHS sees them:
/// first STA for each start cell, then J for each jump.
pub struct Model {
    pub problem: HighsProblem,
    /// Board cell of each STA column.
    pub start_cells: Vec<usize>,
    pub jumps: usize,
    /// Readable names for a written model file ([`Model::named`]): every column (`s_<cell>`,
    /// `j_<from>_<over>`) and the first rows (`cell_<cell>`, one balance row per cell, when
    /// each cell has one); the rows after them are named `side_<k>` when written.
    pub names: Option<(Vec<String>, Vec<String>)>,
}

/// A cell in a name that MPS and LP files accept: coordinates joined by `_`, a minus as `m`.
fn cell_name(c: crate::problem::geometry::Cell) -> String {
    c.tag().replace('-', "m")
}

impl Model {
    pub fn build(board: &Board, spec: &Spec) -> Model {
        let (problem, start_cells, jumps) = formulate(board, spec, highs);
        Model {
            problem,
            start_cells,
            jumps,
            names: None,
        }
    }

    /// As [`Model::build`], with the names a written model file gives its columns and rows
    /// (only a program that is written needs them; the search builds thousands that are not).
    pub fn named(board: &Board, spec: &Spec) -> Model {
        let name = |m: usize| cell_name(board.cells[m]);
        let mut model = Model::build(board, spec);
        let mut cols: Vec<String> = (model.start_cells.iter())
            .map(|&m| format!("s_{}", name(m)))
            .collect();
        let jump = |j: &crate::reduce::board::Jump| format!("j_{}_{}", name(j.from), name(j.over));
        cols.extend(board.jumps.iter().map(jump));
        // A spare cell has two rows, so rows are named only when every cell has one.
        let rows = match spec.spare.is_empty() {
            true => (0..board.cells.len())
                .map(|m| format!("cell_{}", name(m)))
                .collect(),
            false => Vec::new(),
        };
        model.names = Some((cols, rows));
        model
    }

    /// A feasibility program given row by row (the checker's own system, or a box of it
    /// that a case split hands to a worker): integer columns in their bounds, and the
    /// checker's objective, fewest men ([`men_cost`]), so that HiGHS takes here the time it
    /// takes in the checker. It has no STA columns: a solution gives no army, only a verdict.
    pub fn from_system(sys: &crate::proof::farkas::LinearSystem) -> Model {
        let mut vars = ProblemVariables::new();
        let mut cost = Expression::default();
        let cols: Vec<Variable> = sys
            .cols
            .iter()
            .map(|&(lo, hi)| {
                let v = variable().integer().min(lo as f64);
                let v = vars.add(match hi {
                    Some(h) => v.max(h as f64),
                    None => v,
                });
                cost += men_cost((lo, hi)) * v;
                v
            })
            .collect();
        let mut problem = vars.minimise(cost).using(highs);
        for row in &sys.rows {
            let lhs: Expression = row.coefs.iter().map(|&(c, a)| a as f64 * cols[c]).sum();
            problem = match (row.lo, row.hi) {
                // An equation stays one row (two inequalities would hide it from presolve).
                (Some(lo), Some(hi)) if lo == hi => problem.with(constraint!(lhs == lo as f64)),
                (lo, hi) => {
                    if let Some(lo) = lo {
                        problem = problem.with(constraint!(lhs.clone() >= lo as f64));
                    }
                    match hi {
                        Some(hi) => problem.with(constraint!(lhs <= hi as f64)),
                        None => problem,
                    }
                }
            };
        }
        Model {
            problem,
            start_cells: Vec::new(),
            jumps: 0,
            names: None,
        }
    }
}

/// The same integer program handed to any solver good_lp knows (HiGHS for the search, CBC
/// for the optional second opinion): the solver's model, the board cell of each STA column,
/// and the number of jump columns.
pub fn formulate<S: Solver>(
    board: &Board,
    spec: &Spec,
    solver: S,
) -> (S::Model, Vec<usize>, usize) {
    let mut vars = ProblemVariables::new();
    let start_cells: Vec<usize> = board.start_cells().collect();
    let men_cap = spec.max_men.unwrap_or(start_cells.len() as u64) as f64;
    let mut sta: Vec<Option<Variable>> = vec![None; board.cells.len()];
    for &m in &start_cells {
        sta[m] = Some(vars.add(variable().binary()));
    }
    let jumps: Vec<Variable> = board
        .jumps
        .iter()
        .map(|_| vars.add(variable().integer().min(0).max(men_cap)))
        .collect();
    let men: Expression = start_cells.iter().map(|&m| sta[m].unwrap()).sum();
    let mut problem = vars.minimise(men.clone()).using(solver);

    // STA_m + Σ_n A_{m,n} J_n = FIN_m.
    let mut balance: Vec<Expression> = (0..board.cells.len())
        .map(|m| sta[m].map_or_else(Expression::default, Expression::from))
        .collect();
    for (n, jump) in board.jumps.iter().enumerate() {
        balance[jump.from] -= jumps[n];
        balance[jump.over] -= jumps[n];
        balance[jump.to] += jumps[n];
    }
    let spare: std::collections::HashSet<usize> = spec.spare.iter().copied().collect();
    for (m, lhs) in balance.into_iter().enumerate() {
        if spare.contains(&m) {
            problem = problem.with(constraint!(lhs.clone() >= 0));
            problem = problem.with(constraint!(lhs <= 1));
            continue;
        }
        let fin = spec.fin.contains(&m) as i32;
        problem = problem.with(constraint!(lhs == fin));
    }
    if let Some(k) = spec.max_men {
        problem = problem.with(constraint!(men.clone() <= k as f64));
    }
    if let Some(k) = spec.min_men {
        problem = problem.with(constraint!(men.clone() >= k as f64));
    }
    for (cells, n) in &spec.men_in {
        let sum: Expression = cells.iter().filter_map(|&m| sta[m]).sum();
        problem = problem.with(constraint!(sum == *n as f64));
    }
    for (js, n) in &spec.jumps_at_most {
        let sum: Expression = js.iter().map(|&j| jumps[j]).sum();
        problem = problem.with(constraint!(sum <= *n as f64));
    }
    for &(a, b) in &spec.same_start {
        if let (Some(x), Some(y)) = (sta[a], sta[b]) {
            problem = problem.with(constraint!(x == y));
        }
    }
    for &(a, b) in &spec.same_jumps {
        problem = problem.with(constraint!(jumps[a] == jumps[b]));
    }
    // A start set S is excluded by Σ_{m∈S} (1 − STA_m) + Σ_{m∉S} STA_m >= 1.
    for set in &spec.excluded {
        let mut e = Expression::default();
        for &m in &start_cells {
            if set.contains(&m) {
                e -= sta[m].unwrap();
                e += 1.0;
            } else {
                e += sta[m].unwrap();
            }
        }
        problem = problem.with(constraint!(e >= 1.0));
    }
    (problem, start_cells, jumps.len())
}
