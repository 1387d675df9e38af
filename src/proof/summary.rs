//! What a successful check saw ([`Summary`]) and what CBC said along the way
//! ([`CbcSummary`]): the checker's report, kept apart so that its parts (the board checks of
//! [`super::peg`], the solver queue of `deferred`) fill it without importing the
//! checker.

use serde::Serialize;

/// What a successful check saw.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub army: String,
    /// The rebuilt problem's fingerprint ([`crate::problem::fingerprint`]), and whether the
    /// proof recorded it (it then matched).
    pub fingerprint: String,
    pub fingerprint_recorded: bool,
    pub level: i32,
    /// A board problem's proof: no level, rounds or cases to speak of.
    #[serde(skip)]
    pub board: bool,
    pub claim: String,
    pub steps: usize,
    pub rounds: usize,
    pub cases: usize,
    /// Infeasible integer programs: how many carry an exact certificate, how many rest on
    /// HiGHS solving the checker's system again.
    pub ips: usize,
    pub certified: usize,
    pub solver_only: usize,
    pub seconds: f64,
    /// CBC's second opinion, when asked for (flattened: `cbc_confirmed`, ...).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub cbc: Option<CbcSummary>,
}

/// What CBC said of the infeasible integer programs of a proof.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CbcSummary {
    /// Programs CBC also proved infeasible.
    pub cbc_confirmed: usize,
    /// Programs CBC gave no verdict on (time limit, or stopped otherwise): not confirmed.
    pub cbc_no_verdict: usize,
    /// Seconds CBC spent, in all and on the slowest program.
    pub cbc_seconds: f64,
    pub cbc_max_seconds: f64,
    /// The step and context of each program left without a verdict, to rerun with more time.
    pub cbc_no_verdict_at: Vec<String>,
}
