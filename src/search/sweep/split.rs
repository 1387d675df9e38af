//! A hard case split on the fly: when HiGHS has not settled a case within
//! [`super::Sweep::split_after`] seconds (default [`SPLIT_AFTER`]), the case is cut into
//! the boxes of [`crate::ip::certify::boxes`] (the first man, in the order of its farthest
//! class, on each cell of that class in turn, and then no man in the class at all, empty by
//! the class's row), and the boxes go to the sweep's workers as separate tasks. A box is
//! settled by an exact certificate when its LP relaxation is infeasible, else by HiGHS.
//! The case is infeasible when every box is: its certificate is the split's tree, whose
//! boxes without a certificate are left to the checker's solvers
//! ([`crate::proof::farkas::Tree::Solver`]), which re-solve them: the proof stays
//! checkable, and the checker accepts the boxes only because they cover the case's
//! program. A box HiGHS finds feasible gives no army (the checker's program has no play in
//! it): the case is then solved whole.
//!
//! Splitting only moves work between cores; it proves nothing by itself. It pays when a
//! case alone would outlast the rest of the sweep (the paper's Table 7 case 2, hexagonal
//! level 7, 144 men: about 210 s as one program).

use super::{CaseResult, Sweep};
use crate::error::Error;
use crate::ip::certify::Boxes;
use crate::ip::model::{Model, Spec};
use crate::ip::solve::{self, IpStatus, Options};
use crate::proof::farkas::{Farkas, LinearSystem, Tree};
use crate::proof::format::IpProof;
use crate::reduce::board::Board;

pub use crate::search::outcome::SPLIT_AFTER;

/// Workers needed before a case is split on the fly. The boxes cost more than the whole
/// (hexagonal level 7, Table 7's case 2: the whole program took 100 CPU seconds with its
/// certificate search, its 34 boxes about 9 CPU seconds each for the half that are not
/// trivial, on a loaded machine), so a split pays only where the longest case L outlasts
/// the rest, L > T/p; with the LP certificates settling 300 of the 310 cases, T is about
/// 350 s there and L about 100 to 200 s, so not on 2 cores, but on 4 and more.
pub const SPLIT_MIN_JOBS: usize = 4;

/// What settled one box.
#[derive(Clone, Debug)]
pub enum Child {
    /// An exact certificate of its LP relaxation.
    Certified(Farkas),
    /// HiGHS called it infeasible: left to the checker's solvers.
    Solver,
    Feasible,
    Stopped(IpStatus),
}

/// A case split into boxes, waiting for their verdicts.
pub struct Pending {
    pub index: usize,
    pub result: CaseResult,
    pub board: Board,
    pub spec: Spec,
    pub proof: IpProof,
    pub boxes: Boxes,
    pub verdicts: Vec<Option<Child>>,
}

impl Pending {
    /// Whether every box has its verdict.
    pub fn done(&self) -> bool {
        self.verdicts.iter().all(|v| v.is_some())
    }

    /// The box of task `k`.
    pub fn child(&self, k: usize) -> &LinearSystem {
        &self.boxes.children[k]
    }
}

/// How a split case ended: its log line (infeasible with the split's tree, or stopped), or
/// None when a box is feasible (the case is then solved whole).
fn finish(p: Pending) -> Option<CaseResult> {
    let Pending {
        mut result,
        mut proof,
        boxes,
        verdicts,
        ..
    } = p;
    let verdicts: Vec<Child> = verdicts.into_iter().map(Option::unwrap).collect();
    if verdicts.iter().any(|v| matches!(v, Child::Feasible)) {
        return None;
    }
    if let Some(Child::Stopped(s)) = verdicts.iter().find(|v| matches!(v, Child::Stopped(_))) {
        result.status = match s {
            IpStatus::Interrupted => "interrupted",
            _ => "time_limit",
        }
        .into();
        return Some(result);
    }
    let trees = verdicts
        .into_iter()
        .map(|v| match v {
            Child::Certified(f) => Some(Tree::Leaf(f)),
            _ => None,
        })
        .collect();
    let n = boxes.children.len();
    proof.certificate = Some(boxes.chain(trees));
    result.reason = Some(format!(
        "split on the fly into {} boxes: {n} with the first man on a cell of its farthest class, 1 with none",
        n + 1
    ));
    proof.seconds = result.seconds;
    result.status = "infeasible".into();
    result.ip = Some(proof);
    Some(result)
}

impl Sweep {
    /// The split case's log line once every box has its verdict, with CBC's verdict on the
    /// whole case when a second opinion is asked for; a feasible box sends the case to
    /// HiGHS whole, for its army.
    pub(super) fn finish_split(
        &self,
        p: Pending,
        f: &super::Family,
        c: &crate::reduce::cases::Case,
        time_limit: Option<f64>,
    ) -> Result<(CaseResult, Option<crate::search::outcome::Outcome>), Error> {
        let (board, spec) = (p.board.clone(), p.spec.clone());
        let Some(mut r) = finish(p) else {
            return match self.solve_case(f, c, time_limit, None, false)? {
                super::Attempt::Done(r, found) => Ok((r, found)),
                super::Attempt::Split(_) => unreachable!("a case solved whole is not split"),
            };
        };
        if r.status == "infeasible" {
            r.cbc = self.second(&board, &spec, time_limit, f.last_jump, c)?;
            if let Some(ip) = r.ip.as_mut() {
                ip.cbc = r.cbc.clone();
            }
        }
        Ok((r, None))
    }

    /// Settles one box: its LP's certificate, else HiGHS within `time_limit` seconds.
    pub(super) fn solve_child(
        &self,
        sys: &LinearSystem,
        time_limit: Option<f64>,
        label: String,
    ) -> Result<(Child, f64), Error> {
        let t0 = std::time::Instant::now();
        if let Some(cert) = crate::ip::certify::farkas_within(sys, time_limit) {
            return Ok((Child::Certified(cert), t0.elapsed().as_secs_f64()));
        }
        let left = time_limit.map(|t| t - t0.elapsed().as_secs_f64());
        if left.is_some_and(|l| l < 0.01) {
            return Ok((
                Child::Stopped(IpStatus::TimeLimit),
                t0.elapsed().as_secs_f64(),
            ));
        }
        let sol = solve::solve(
            Model::from_system(sys),
            &Options {
                time_limit: left,
                progress: None,
                label,
                stop: Some(self.stop.clone()),
            },
        )?;
        let child = match sol.status {
            IpStatus::Infeasible => Child::Solver,
            IpStatus::Optimal => Child::Feasible,
            s => Child::Stopped(s),
        };
        Ok((child, t0.elapsed().as_secs_f64()))
    }
}
