//! A second opinion on "infeasible": the same integer program, built again through good_lp
//! and solved by CBC instead of HiGHS.
//!
//! A lower bound rests on the solver's word that an IP has no solution. HiGHS and CBC share
//! no code (presolve, cuts, branching, tolerances), so an IP that both call infeasible is
//! far less likely to owe that verdict to a solver bug. CBC comes from Debian's
//! coinor-libcbc-dev and is linked only in builds with `--features cbc`; the default build
//! answers that it is not there.
//!
//! This is the search's second opinion, on the search's model. The proof checker asks CBC
//! on its own rebuilt system instead (`check --cbc`, [`crate::proof::resolve::cbc`]), which
//! is what `scripts/cbc-check` runs over every published proof.

use crate::ip::model::Spec;
use crate::reduce::board::Board;

/// What CBC said about one IP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Infeasible,
    /// CBC found an army of this many men: the two solvers disagree.
    Feasible(u64),
    /// No verdict (time limit, or CBC stopped for another reason).
    Unknown(String),
}

impl Verdict {
    pub fn as_str(&self) -> String {
        match self {
            Verdict::Infeasible => "infeasible".into(),
            Verdict::Feasible(n) => format!("feasible ({n} men)"),
            Verdict::Unknown(why) => format!("unknown ({why})"),
        }
    }
}

/// Whether this build can ask CBC.
pub const AVAILABLE: bool = cfg!(feature = "cbc");

/// Solves the IP of `board` and `spec` with CBC.
#[cfg(feature = "cbc")]
pub fn reprove(board: &Board, spec: &Spec, time_limit: Option<f64>) -> Verdict {
    use good_lp::solvers::coin_cbc::coin_cbc;
    use good_lp::{ResolutionError, Solution, SolutionStatus, SolverModel, WithTimeLimit};
    let (mut problem, _, _) = crate::ip::model::formulate(board, spec, coin_cbc);
    problem.set_parameter("log", "0");
    problem.set_parameter("threads", "1");
    if let Some(t) = time_limit {
        problem = problem.with_time_limit(t.max(1.0));
    }
    match problem.solve() {
        Err(ResolutionError::Infeasible) => Verdict::Infeasible,
        Err(e) => Verdict::Unknown(e.to_string()),
        Ok(sol)
            if matches!(sol.status(), SolutionStatus::Optimal)
                && sol.model().is_proven_optimal() =>
        {
            Verdict::Feasible(sol.model().obj_value().round() as u64)
        }
        Ok(_) => Verdict::Unknown("time limit".into()),
    }
}

#[cfg(not(feature = "cbc"))]
pub fn reprove(_board: &Board, _spec: &Spec, _time_limit: Option<f64>) -> Verdict {
    Verdict::Unknown("built without the cbc feature".into())
}
