//! The checker's solvers, both on its own rebuilt [`LinearSystem`] (never the search's
//! model or solver code): HiGHS ([`resolve`]), the fallback for an integer program without
//! an exact certificate, whose step then rests on the solver's word and is counted apart;
//! and CBC ([`cbc`]), the second opinion `check --cbc` asks of every infeasible program,
//! certified or not. HiGHS and CBC share no code (presolve, cuts, branching, tolerances), so
//! a program both call infeasible is far less likely to owe that to a solver bug. CBC comes
//! from Debian's coinor-libcbc-dev through the `coin_cbc` crate and is linked only in builds
//! with `--features cbc` ([`CBC_AVAILABLE`]).

use super::farkas::LinearSystem;
use highs::{HighsModelStatus, RowProblem, Sense};
use std::ops::Bound;

/// What a solver said of a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolved {
    Infeasible,
    Feasible,
    Unknown,
}

fn bounds(lo: Option<i64>, hi: Option<i64>) -> (Bound<f64>, Bound<f64>) {
    let b = |v: Option<i64>| v.map_or(Bound::Unbounded, |x| Bound::Included(x as f64));
    (b(lo), b(hi))
}

/// The objective HiGHS is given: the number of 0/1 columns set, which in the checker's jump
/// programs is the number of men (their STA columns), the search's own objective. It never
/// changes a verdict (any point is feasible whatever it costs) and in a case it is constant
/// (the classes' rows fix the men), but it sets HiGHS on the search's path: on hexagonal 7's
/// proof, with it, case 16 took 68 s (the search: 77 s) and the other 7 programs within 7%
/// of the search's recorded seconds; without it case 16 took 333 s.
pub fn men_cost(bounds: (i64, Option<i64>)) -> f64 {
    if bounds == (0, Some(1)) { 1.0 } else { 0.0 }
}

/// Solves `sys` as a pure integer feasibility problem with HiGHS (fewest men first, see
/// [`men_cost`]).
pub fn resolve(sys: &LinearSystem, time_limit: Option<f64>) -> Resolved {
    let mut pb = RowProblem::default();
    let cols: Vec<_> = sys
        .cols
        .iter()
        .map(|&(l, u)| pb.add_integer_column(men_cost((l, u)), bounds(Some(l), u)))
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

/// Whether this build links CBC, so that `check --cbc` can be refused up front without it.
pub const CBC_AVAILABLE: bool = cfg!(feature = "cbc");

/// CBC's verdict on one system.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Opinion {
    pub verdict: Resolved,
    /// Why: for Feasible, whether CBC's point satisfies every row exactly once rounded (a
    /// real counterexample) or only within CBC's tolerances; for Unknown, why CBC stopped.
    pub note: String,
    pub seconds: f64,
}

/// The note of a CBC call its time limit stopped (a check's record knows such calls by it).
pub const TIME_LIMIT_NOTE: &str = "time limit";

/// How CBC is set to search a system. A strategy changes CBC's path, never what it may
/// conclude: both solve the same integer feasibility question, and an infeasible verdict
/// under either is CBC's proof, a feasible one is checked exactly ([`exactly`]). CBC's time
/// on hexagonal 7's split leaves depends on the strategy by orders of magnitude, in no
/// single direction, so a check tries them in [`CbcStrategy::ORDER`] until one gives a
/// verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CbcStrategy {
    /// The search's objective, fewest men ([`men_cost`], as HiGHS is given), with CBC's
    /// preprocessing: the 13 leaves of hexagonal 7's split proof that gave
    /// [`CbcStrategy::Plain`] no verdict within 300 s (one of them within 9000 s) took it
    /// 4–120 s each (one CBC call a core, 2-core machine, 25 November 2026).
    Guided,
    /// No objective and no preprocessing, CBC's plain branch and bound: the strategy of
    /// every verdict recorded before `Guided` existed (preprocessing had cost most of the
    /// time on case 16's first split leaves: 253 s and 217 s with it, 6 s and 64 s without).
    Plain,
}

impl CbcStrategy {
    /// The order a check tries them in.
    pub const ORDER: [CbcStrategy; 2] = [CbcStrategy::Guided, CbcStrategy::Plain];

    pub fn name(self) -> &'static str {
        match self {
            CbcStrategy::Guided => "guided",
            CbcStrategy::Plain => "plain",
        }
    }

    pub fn parse(name: &str) -> Option<CbcStrategy> {
        Self::ORDER.into_iter().find(|s| s.name() == name)
    }
}

/// Solves `sys` as a pure integer feasibility problem with CBC, one thread, with `strategy`,
/// at most `time_limit` seconds of wall-clock time (CBC's `timeMode elapsed`: its default
/// counts the process's CPU seconds, which with `--jobs 2` gave each call about half its
/// limit). A time-out is Unknown, never Infeasible.
#[cfg(feature = "cbc")]
pub fn cbc(sys: &LinearSystem, time_limit: Option<f64>, strategy: CbcStrategy) -> Opinion {
    use coin_cbc::raw::{SecondaryStatus, Status};
    let t0 = std::time::Instant::now();
    let mut m = coin_cbc::Model::default();
    let guided = strategy == CbcStrategy::Guided;
    let cols: Vec<_> = sys
        .cols
        .iter()
        .map(|&(l, u)| {
            let c = m.add_integer();
            m.set_col_lower(c, l as f64);
            m.set_col_upper(c, u.map_or(f64::INFINITY, |u| u as f64));
            if guided {
                m.set_obj_coeff(c, men_cost((l, u)));
            }
            c
        })
        .collect();
    for r in &sys.rows {
        let row = m.add_row();
        m.set_row_lower(row, r.lo.map_or(f64::NEG_INFINITY, |v| v as f64));
        m.set_row_upper(row, r.hi.map_or(f64::INFINITY, |v| v as f64));
        for &(c, a) in &r.coefs {
            m.set_weight(row, cols[c], a as f64);
        }
    }
    m.set_obj_sense(coin_cbc::Sense::Minimize);
    // Quiet, or CBC's log would mix into `check --json` on stdout.
    m.set_log_level(0);
    m.set_parameter("log", "0");
    // 0 is CBC's serial search: one thread (1 would start its threaded code with one worker).
    m.set_parameter("threads", "0");
    // A feasibility question that is (we expect) infeasible: CBC's primal heuristics can
    // only look for a point. Neither setting below can turn an infeasible verdict into a
    // feasible one or back: they only change how CBC searches.
    m.set_parameter("heuristicsOnOff", "off");
    m.set_parameter("preprocess", if guided { "on" } else { "off" });
    if let Some(t) = time_limit {
        m.set_parameter("timeMode", "elapsed");
        m.set_parameter("seconds", &format!("{}", t.max(0.01)));
    }
    let sol = m.solve();
    let raw = sol.raw();
    let (verdict, note) = match (raw.status(), raw.secondary_status()) {
        (Status::Finished | Status::Unlaunched, _) if raw.is_proven_infeasible() => {
            (Resolved::Infeasible, String::new())
        }
        // With a time limit set, CBC (2.10) ends a system whose LP relaxation its initial
        // solve proves infeasible as "unlaunched" and not "proven infeasible"; no integer
        // point exists then either, on CBC's own word (measured: skew 6, step 17).
        (Status::Unlaunched, _) if raw.is_initial_solve_proven_primal_infeasible() => {
            (Resolved::Infeasible, "LP relaxation infeasible".into())
        }
        (Status::Finished | Status::Unlaunched, _) if raw.is_proven_optimal() => {
            (Resolved::Feasible, exactly(sys, raw.col_solution()))
        }
        (_, SecondaryStatus::StoppedOnTime) => (Resolved::Unknown, TIME_LIMIT_NOTE.into()),
        (s, why) => (Resolved::Unknown, format!("CBC stopped: {s:?}, {why:?}")),
    };
    Opinion {
        verdict,
        note,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// [`cbc`] in a child process: `exe cbc-system FILE [--time-limit T]` on the system written
/// to a temporary file, its opinion read back as JSON. Separate processes share none of
/// libcbc's global state, so several can run at once; a child that crashes or answers
/// nothing readable is no verdict, never a confirmation.
pub fn cbc_in_process(
    exe: &std::path::Path,
    sys: &LinearSystem,
    time_limit: Option<f64>,
    strategy: CbcStrategy,
) -> Opinion {
    let t0 = std::time::Instant::now();
    let unknown = |note: String| Opinion {
        verdict: Resolved::Unknown,
        note,
        seconds: t0.elapsed().as_secs_f64(),
    };
    let file = match tempfile::NamedTempFile::new() {
        Ok(f) => f,
        Err(e) => return unknown(format!("no temporary file for CBC's process: {e}")),
    };
    let written = serde_json::to_vec(sys)
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(file.path(), json).map_err(|e| e.to_string()));
    if let Err(e) = written {
        return unknown(format!("cannot write the system for CBC's process: {e}"));
    }
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("cbc-system").arg(file.path());
    cmd.arg("--strategy").arg(strategy.name());
    if let Some(t) = time_limit {
        cmd.arg("--time-limit").arg(t.to_string());
    }
    match cmd.stderr(std::process::Stdio::null()).output() {
        Ok(out) if out.status.success() => serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| unknown(format!("CBC's process answered no opinion: {e}"))),
        Ok(out) => unknown(format!("CBC's process ended with {}", out.status)),
        Err(e) => unknown(format!("CBC's process could not start: {e}")),
    }
}

/// Without CBC linked: no verdict (the command line refuses `--cbc` before this is reached).
#[cfg(not(feature = "cbc"))]
pub fn cbc(_sys: &LinearSystem, _time_limit: Option<f64>, _strategy: CbcStrategy) -> Opinion {
    Opinion {
        verdict: Resolved::Unknown,
        note: "built without the cbc feature".into(),
        seconds: 0.0,
    }
}

/// Whether CBC's point, rounded to integers, satisfies every bound and row of `sys` exactly
/// (i128, no tolerance): says which, so that a disagreement tells a counterexample to the
/// proof from a tolerance artefact of CBC's.
#[cfg_attr(not(feature = "cbc"), allow(dead_code))]
fn exactly(sys: &LinearSystem, x: &[f64]) -> String {
    let x: Vec<i128> = x.iter().map(|v| v.round() as i128).collect();
    if x.len() != sys.cols.len() {
        return "CBC returned no point".into();
    }
    let out = |v: i128, lo: Option<i64>, hi: Option<i64>| {
        lo.is_some_and(|l| v < l as i128) || hi.is_some_and(|h| v > h as i128)
    };
    if let Some(c) = (0..x.len()).find(|&c| out(x[c], Some(sys.cols[c].0), sys.cols[c].1)) {
        return format!("its point breaks the bounds of column {c} once rounded");
    }
    for (i, r) in sys.rows.iter().enumerate() {
        let v: i128 = r.coefs.iter().map(|&(c, a)| a as i128 * x[c]).sum();
        if out(v, r.lo, r.hi) {
            return format!("its point breaks row {i} once rounded (within CBC's tolerances only)");
        }
    }
    "its point, rounded, satisfies every row exactly".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::Row;

    /// x, y in 0..=3 with x + y = 3 (feasible), or with 2x + 2y = 3 (the parity trap:
    /// LP-feasible, integer-infeasible, so CBC must branch or cut to say so).
    fn system(parity_trap: bool) -> LinearSystem {
        let row = |coefs: Vec<(usize, i64)>, v| Row {
            coefs,
            lo: Some(v),
            hi: Some(v),
        };
        LinearSystem {
            cols: vec![(0, Some(3)), (0, Some(3))],
            rows: if parity_trap {
                vec![row(vec![(0, 2), (1, 2)], 3)]
            } else {
                vec![row(vec![(0, 1), (1, 1)], 3)]
            },
        }
    }

    #[test]
    fn a_rounded_point_is_checked_exactly() {
        let sys = system(false);
        assert!(exactly(&sys, &[1.0, 2.0]).contains("exactly"));
        assert!(exactly(&sys, &[1.0, 1.0]).contains("row 0"));
        assert!(exactly(&sys, &[4.0, -1.0]).contains("column 0"));
        assert!(exactly(&sys, &[1.0]).contains("no point"));
    }

    #[cfg(feature = "cbc")]
    #[test]
    fn cbc_tells_feasible_from_infeasible() {
        for s in CbcStrategy::ORDER {
            let no = cbc(&system(true), Some(60.0), s);
            assert_eq!(no.verdict, Resolved::Infeasible, "{s:?}: {no:?}");
            let yes = cbc(&system(false), Some(60.0), s);
            assert_eq!(yes.verdict, Resolved::Feasible, "{s:?}: {yes:?}");
            assert!(yes.note.contains("exactly"), "{s:?}: {yes:?}");
        }
        assert_eq!(resolve(&system(true), Some(60.0)), Resolved::Infeasible);
    }

    #[cfg(not(feature = "cbc"))]
    #[test]
    fn without_cbc_there_is_no_verdict() {
        const { assert!(!CBC_AVAILABLE) };
        let o = cbc(&system(true), None, CbcStrategy::Guided);
        assert_eq!(o.verdict, Resolved::Unknown);
    }

    /// A child that fails or answers nothing readable is no verdict, never a confirmation.
    #[test]
    fn a_failed_cbc_process_is_no_verdict() {
        let sys = system(false);
        for exe in ["/bin/false", "/bin/true", "/no/such/program"] {
            let o = cbc_in_process(
                std::path::Path::new(exe),
                &sys,
                Some(1.0),
                CbcStrategy::Plain,
            );
            assert_eq!(o.verdict, Resolved::Unknown, "{exe}: {o:?}");
            assert!(o.note.contains("CBC's process"), "{exe}: {o:?}");
        }
    }
}
