//! The checker's fallback for an integer program without an exact certificate: solve the
//! checker's own [`LinearSystem`] again with HiGHS (through the `highs` crate, not the
//! search's model or solver code). Such a step rests on the solver's word, and the checker
//! counts it apart from the certified ones.

use super::farkas::LinearSystem;
use highs::{HighsModelStatus, RowProblem, Sense};
use std::ops::Bound;

/// What HiGHS said of a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    Infeasible,
    Feasible,
    Unknown,
}

fn bounds(lo: Option<i64>, hi: Option<i64>) -> (Bound<f64>, Bound<f64>) {
    let b = |v: Option<i64>| v.map_or(Bound::Unbounded, |x| Bound::Included(x as f64));
    (b(lo), b(hi))
}

/// Solves `sys` as a pure integer feasibility problem.
pub fn resolve(sys: &LinearSystem, time_limit: Option<f64>) -> Resolved {
    let mut pb = RowProblem::default();
    let cols: Vec<_> = sys
        .cols
        .iter()
        .map(|&(l, u)| pb.add_integer_column(0.0, bounds(Some(l), u)))
        .collect();
    for r in &sys.rows {
        let coefs: Vec<_> = r.coefs.iter().map(|&(c, a)| (cols[c], a as f64)).collect();
        pb.add_row(bounds(r.lo, r.hi), coefs);
    }
    let mut model = pb.optimise(Sense::Minimise);
    model.make_quiet();
    if let Some(t) = time_limit {
        model.set_option("time_limit", t.max(0.01));
    }
    match model.try_solve().map(|s| s.status()) {
        Ok(HighsModelStatus::Infeasible) => Resolved::Infeasible,
        Ok(HighsModelStatus::Optimal) => Resolved::Feasible,
        _ => Resolved::Unknown,
    }
}
