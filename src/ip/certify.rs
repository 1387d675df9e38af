//! Finding exact infeasibility certificates with HiGHS ([`crate::proof::farkas`] checks
//! them without it).
//!
//! [`farkas()`] solves the phase-1 LP of a [`LinearSystem`]: the box on x, one pair of
//! violation columns v⁺, v⁻ >= 0 per row, rows lo_i <= a_i·x + v⁺_i − v⁻_i <= hi_i, and
//! Σ v minimised. Its optimum is positive exactly when the LP relaxation is infeasible, and
//! then the row duals y satisfy |y_i| <= 1 and β − max_box c·x = optimum > 0, with
//! c = Σ y_i a_i and β = Σ y_i (lo_i if y_i > 0, else hi_i): a Farkas certificate in floating
//! point. It is scaled and rounded to integers in several ways until
//! [`crate::proof::farkas::check_in`] accepts one exactly; failing that, the duals are solved
//! exactly from the optimal basis (`exact`). HiGHS's dual ray on the plain LP is the last
//! source.
//!
//! [`tree`] is a depth-first branch and bound over those LPs for integer programs whose LP
//! relaxation is feasible (`branch`): a node is closed by a certificate or split, on a
//! column or on a parity row of the system (`parity`), chosen by strong branching.
//!
//! [`split`] covers a program by where its farthest man stands when the tree does not
//! close it, leaving the children it cannot certify to the checker's solvers.
//!
//! Nothing here is trusted: every certificate returned has passed the exact check.

use crate::proof::farkas::{self, Farkas, LinearSystem};
use highs_sys::HighsInt;
use std::ffi::{CString, c_char, c_int, c_void};
use std::time::{Duration, Instant};

mod branch;
mod exact;
mod gomory;
mod parity;
mod split;

/// The phase-1 optimum above which the LP relaxation counts as infeasible.
const TOLERANCE: f64 = 1e-7;

/// A fresh HiGHS instance, destroyed on drop.
struct Highs(*mut c_void);

impl Highs {
    fn new() -> Highs {
        // SAFETY: Highs_create has no preconditions; the pointer is owned by this value.
        let h = Highs(unsafe { highs_sys::Highs_create() });
        h.set_bool("output_flag", false);
        h
    }

    fn set_bool(&self, name: &str, value: bool) {
        let c = CString::new(name).unwrap();
        // SAFETY: a live instance and a NUL-terminated option name.
        unsafe { highs_sys::Highs_setBoolOptionValue(self.0, c.as_ptr(), value as HighsInt) };
    }

    fn set_string(&self, name: &str, value: &str) {
        let (c, v) = (CString::new(name).unwrap(), CString::new(value).unwrap());
        // SAFETY: as above.
        unsafe { highs_sys::Highs_setStringOptionValue(self.0, c.as_ptr(), v.as_ptr()) };
    }

    fn set_int(&self, name: &str, value: HighsInt) {
        let c = CString::new(name).unwrap();
        // SAFETY: as above.
        unsafe { highs_sys::Highs_setIntOptionValue(self.0, c.as_ptr(), value) };
    }

    fn set_double(&self, name: &str, value: f64) {
        let c = CString::new(name).unwrap();
        // SAFETY: as above.
        unsafe { highs_sys::Highs_setDoubleOptionValue(self.0, c.as_ptr(), value) };
    }
}

/// Stops an LP at Ctrl-C ([`crate::ip::solve::INTERRUPTED`]): HiGHS then ends with status "interrupt", which
/// yields no certificate (only an exactly checked Farkas certificate ever settles anything).
unsafe extern "C" fn interrupt(
    _kind: c_int,
    _message: *const c_char,
    _out: *const highs_sys::HighsCallbackDataOut,
    input: *mut highs_sys::HighsCallbackDataIn,
    _user: *mut c_void,
) {
    // SAFETY: `input` is what HiGHS passed to this callback.
    unsafe { crate::ip::solve::pass_interrupt(input, None) };
}

impl Drop for Highs {
    fn drop(&mut self) {
        // SAFETY: created by Highs_create and destroyed once.
        unsafe { highs_sys::Highs_destroy(self.0) }
    }
}

/// How HiGHS solves an LP. On the phase-1 LPs of hexagonal 7's 144-man cases the interior
/// point method (with crossover) took half the primal simplex's time (3.9 s against 8.1 s
/// on 60 of them), and the primal simplex is much faster than the dual on them (0.7 s
/// against 9 s on diagonal level 8); the dual re-solves after a box changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Primal,
    Dual,
    Ipm,
}

/// An LP in HiGHS's column-wise form.
struct Lp {
    cost: Vec<f64>,
    col_lo: Vec<f64>,
    col_hi: Vec<f64>,
    row_lo: Vec<f64>,
    row_hi: Vec<f64>,
    start: Vec<HighsInt>,
    index: Vec<HighsInt>,
    value: Vec<f64>,
}

impl Lp {
    /// The LP relaxation of `sys` on the box `cols`, with the phase-1 violation columns
    /// when `phase1` (then the objective is Σ v, else 0).
    fn new(sys: &LinearSystem, cols: &[(i64, Option<i64>)], phase1: bool) -> Lp {
        let n = cols.len();
        let mut by_col: Vec<Vec<(HighsInt, f64)>> = vec![Vec::new(); n];
        for (i, row) in sys.rows.iter().enumerate() {
            for &(j, a) in &row.coefs {
                by_col[j].push((i as HighsInt, a as f64));
            }
        }
        let mut lp = Lp {
            cost: vec![0.0; n],
            col_lo: cols.iter().map(|c| c.0 as f64).collect(),
            col_hi: cols
                .iter()
                .map(|c| c.1.map_or(f64::INFINITY, |u| u as f64))
                .collect(),
            row_lo: sys
                .rows
                .iter()
                .map(|r| r.lo.map_or(f64::NEG_INFINITY, |b| b as f64))
                .collect(),
            row_hi: sys
                .rows
                .iter()
                .map(|r| r.hi.map_or(f64::INFINITY, |b| b as f64))
                .collect(),
            start: Vec::new(),
            index: Vec::new(),
            value: Vec::new(),
        };
        for col in by_col {
            lp.start.push(lp.index.len() as HighsInt);
            for (i, a) in col {
                lp.index.push(i);
                lp.value.push(a);
            }
        }
        if phase1 {
            for i in 0..sys.rows.len() {
                for sign in [1.0, -1.0] {
                    lp.start.push(lp.index.len() as HighsInt);
                    lp.index.push(i as HighsInt);
                    lp.value.push(sign);
                    lp.cost.push(1.0);
                    lp.col_lo.push(0.0);
                    lp.col_hi.push(f64::INFINITY);
                }
            }
        }
        lp
    }

    /// A HiGHS instance holding this LP, not yet solved, for `method`; None if HiGHS
    /// rejects it.
    fn load(&self, presolve: bool, method: Method) -> Option<Highs> {
        let h = Highs::new();
        h.set_string("presolve", if presolve { "on" } else { "off" });
        match method {
            Method::Primal | Method::Dual => {
                h.set_string("solver", "simplex");
                let strategy = if method == Method::Primal { 4 } else { 1 };
                h.set_int("simplex_strategy", strategy);
            }
            // Crossover (HiGHS's default) ends at a vertex: its duals round like the
            // simplex's.
            Method::Ipm => h.set_string("solver", "ipm"),
        }
        // SAFETY: every array has the length HiGHS expects for these counts.
        let status = unsafe {
            highs_sys::Highs_passLp(
                h.0,
                self.cost.len() as HighsInt,
                self.row_lo.len() as HighsInt,
                self.value.len() as HighsInt,
                highs_sys::kHighsMatrixFormatColwise,
                highs_sys::kHighsObjSenseMinimize,
                0.0,
                self.cost.as_ptr(),
                self.col_lo.as_ptr(),
                self.col_hi.as_ptr(),
                self.row_lo.as_ptr(),
                self.row_hi.as_ptr(),
                self.start.as_ptr(),
                self.index.as_ptr(),
                self.value.as_ptr(),
            )
        };
        (status != highs_sys::kHighsStatusError).then_some(h)
    }

    /// A fresh HiGHS instance holding this LP, solved; None if HiGHS reports an error.
    fn solve(&self, presolve: bool, method: Method, deadline: Option<Instant>) -> Option<Highs> {
        let h = self.load(presolve, method)?;
        h.run(deadline).then_some(h)
    }
}

impl Highs {
    /// Solves the model held, within the deadline; false if HiGHS reports an error.
    fn run(&self, deadline: Option<Instant>) -> bool {
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
            self.set_double("time_limit", left.max(0.01));
        }
        // SAFETY: a live instance holding a model; the callback keeps no data.
        unsafe {
            highs_sys::Highs_setCallback(self.0, Some(interrupt), std::ptr::null_mut());
            highs_sys::Highs_startCallback(self.0, highs_sys::kHighsCallbackSimplexInterrupt);
            highs_sys::Highs_startCallback(self.0, highs_sys::kHighsCallbackIpmInterrupt);
            highs_sys::Highs_run(self.0) != highs_sys::kHighsStatusError
        }
    }

    /// The optimum of the phase-1 LP held, with the first `n` column values; None unless
    /// HiGHS solved it to optimality.
    fn phase1(&self, n: usize) -> Option<Phase1> {
        // SAFETY: a live instance; the arrays have the model's lengths.
        unsafe {
            if highs_sys::Highs_getModelStatus(self.0) != highs_sys::kHighsModelStatusOptimal {
                return None;
            }
            let cols = highs_sys::Highs_getNumCols(self.0) as usize;
            let rows = highs_sys::Highs_getNumRows(self.0) as usize;
            let mut x = vec![0.0; cols];
            let mut col_dual = vec![0.0; cols];
            let mut row_value = vec![0.0; rows];
            let mut dual = vec![0.0; rows];
            let status = highs_sys::Highs_getSolution(
                self.0,
                x.as_mut_ptr(),
                col_dual.as_mut_ptr(),
                row_value.as_mut_ptr(),
                dual.as_mut_ptr(),
            );
            if status == highs_sys::kHighsStatusError {
                return None;
            }
            x.truncate(n);
            Some(Phase1 {
                objective: highs_sys::Highs_getObjectiveValue(self.0),
                x,
                dual,
            })
        }
    }
}

/// The phase-1 LP's optimum: objective, column values (x first) and row duals.
struct Phase1 {
    objective: f64,
    x: Vec<f64>,
    dual: Vec<f64>,
}

/// HiGHS's dual ray for the plain LP relaxation, when it finds the LP infeasible.
fn dual_ray(lp: &Lp, deadline: Option<Instant>) -> Option<Vec<f64>> {
    let h = lp.load(false, Method::Dual)?;
    if !h.run(deadline) {
        return None;
    }
    // SAFETY: a live, solved instance; the ray has one entry per row.
    unsafe {
        if highs_sys::Highs_getModelStatus(h.0) != highs_sys::kHighsModelStatusInfeasible {
            return None;
        }
        let mut has: HighsInt = 0;
        let mut ray = vec![0.0; lp.row_lo.len()];
        let status = highs_sys::Highs_getDualRay(h.0, &mut has, ray.as_mut_ptr());
        (status != highs_sys::kHighsStatusError && has != 0).then_some(ray)
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// The denominator of the best rational approximation of `v` with denominator at most
/// `max` (continued fractions).
fn denominator(v: f64, max: i64) -> i64 {
    let (mut k0, mut k1) = (1i64, 0i64);
    let mut r = v.abs();
    for _ in 0..40 {
        let a = r.floor();
        if a > 1e12 {
            break;
        }
        let k2 = (a as i64).saturating_mul(k1).saturating_add(k0);
        if k2 > max {
            break;
        }
        (k0, k1) = (k1, k2);
        let f = r - a;
        if f < 1e-9 {
            break;
        }
        r = 1.0 / f;
    }
    k1.max(1)
}

/// The least common multiple of the denominators of every entry's best rational
/// approximation with denominator at most `each`; None past `most`.
fn common_denominator(y: &[f64], each: i64, most: i64) -> Option<i64> {
    let mut lcm: i64 = 1;
    for &v in y.iter().filter(|v| **v != 0.0) {
        let d = denominator(v, each);
        lcm = (lcm / gcd(lcm, d)).checked_mul(d)?;
        if lcm > most {
            return None;
        }
    }
    Some(lcm)
}

/// Integer multipliers from floating-point ones: several scalings, rounded, each sign;
/// the first that the exact check accepts on the box `cols`, divided by its gcd.
fn integerize(sys: &LinearSystem, cols: &[(i64, Option<i64>)], y: &[f64]) -> Option<Farkas> {
    let top = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(top > 0.0 && top.is_finite()) {
        return None;
    }
    let y: Vec<f64> = y
        .iter()
        .map(|v| v / top)
        .map(|v| if v.abs() < 1e-9 { 0.0 } else { v })
        .collect();
    let least = y
        .iter()
        .filter(|v| **v != 0.0)
        .fold(1.0f64, |m, v| m.min(v.abs()));
    let mut scales = vec![top, 1.0, 1.0 / least];
    // A common denominator of small rational approximations.
    let relative: Vec<f64> = y.iter().map(|v| v / least).collect();
    if let Some(d) = common_denominator(&relative, 1000, 1_000_000_000) {
        scales.push(d as f64 / least);
    }
    // On 0/±1 systems a vertex's duals share a denominator as large as the basis's
    // determinant (one of hexagonal 7's split leaves has an LP that misses by 1/64049).
    if let Some(d) = common_denominator(&y, 100_000_000, 1_000_000_000_000) {
        scales.push(d as f64);
    }
    scales.extend((1..=8).map(|k| 10f64.powi(k)));
    scales.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    for s in scales {
        let m: Vec<(usize, i64)> = y
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let r = (v * s).round();
                (r != 0.0 && r.abs() < 1e15).then_some((i, r as i64))
            })
            .collect();
        if m.is_empty() {
            continue;
        }
        if let Some(cert) = either_sign(sys, cols, &m) {
            return Some(cert);
        }
    }
    None
}

/// The integer multipliers `m` (non-zero), divided by their gcd, as a certificate that the
/// exact check accepts on the box `cols`, with one sign or the other.
fn either_sign(
    sys: &LinearSystem,
    cols: &[(i64, Option<i64>)],
    m: &[(usize, i64)],
) -> Option<Farkas> {
    let g = m.iter().fold(0, |g, &(_, v)| gcd(g, v));
    [1, -1].into_iter().find_map(|sign| {
        let cert = Farkas {
            multipliers: m.iter().map(|&(i, v)| (i, sign * v / g)).collect(),
        };
        farkas::check_in(sys, cols, &cert).is_ok().then_some(cert)
    })
}

/// What one node's LP says.
enum Node {
    /// The box holds no point: a checked certificate.
    Proof(Farkas),
    /// The LP relaxation on the box is feasible (a phase-1 point with no violation).
    Feasible(Vec<f64>),
    /// HiGHS finds the LP infeasible but no certificate was verified; the phase-1 point,
    /// if any.
    Stuck(Option<Vec<f64>>),
}

fn attempt(sys: &LinearSystem, cols: &[(i64, Option<i64>)], deadline: Option<Instant>) -> Node {
    let lp = Lp::new(sys, cols, true);
    let mut point = None;
    let ways = [
        (true, Method::Ipm),
        (true, Method::Primal),
        (false, Method::Primal),
    ];
    for (presolve, method) in ways {
        let Some(h) = lp.solve(presolve, method, deadline) else {
            continue;
        };
        let Some(p) = h.phase1(cols.len()) else {
            continue;
        };
        if p.objective <= TOLERANCE {
            return Node::Feasible(p.x);
        }
        let exact = || exact::farkas(&h, sys, cols);
        if let Some(cert) = integerize(sys, cols, &p.dual).or_else(exact) {
            return Node::Proof(cert);
        }
        point = Some(p.x);
    }
    let plain = Lp::new(sys, cols, false);
    if let Some(cert) = dual_ray(&plain, deadline).and_then(|r| integerize(sys, cols, &r)) {
        return Node::Proof(cert);
    }
    Node::Stuck(point)
}

/// A Farkas certificate that the LP relaxation of `sys` is infeasible, checked exactly by
/// [`farkas::check`]; None when HiGHS finds the LP feasible or no rounding of its duals
/// verifies.
pub fn farkas(sys: &LinearSystem) -> Option<Farkas> {
    farkas_within(sys, None)
}

/// [`farkas()`] within `time_limit` seconds (HiGHS's own time limit on each LP).
pub fn farkas_within(sys: &LinearSystem, time_limit: Option<f64>) -> Option<Farkas> {
    let deadline = time_limit.map(|t| Instant::now() + Duration::from_secs_f64(t));
    match attempt(sys, &sys.cols, deadline) {
        Node::Proof(cert) => Some(cert),
        _ => None,
    }
}

pub use branch::{size, tree, tree_with_stats};
pub use gomory::{Rounds, tree_with_cuts};
pub use split::{Boxes, Budget, LeafBudget, boxes, refine, split};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::{Row, Tree};

    fn eq(coefs: &[(usize, i64)], b: i64) -> Row {
        Row {
            coefs: coefs.to_vec(),
            lo: Some(b),
            hi: Some(b),
        }
    }

    #[test]
    fn an_infeasible_lp_gets_a_checked_certificate() {
        // x + y = 1, x + y + z = 3 over binaries.
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 3],
            rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, 1), (2, 1)], 3)],
        };
        let cert = farkas(&sys).expect("a certificate");
        assert_eq!(farkas::check(&sys, &cert), Ok(()));
        assert_eq!(size(&tree(&sys, 10, None).unwrap()), 1);
    }

    #[test]
    fn a_feasible_lp_gets_none_and_an_infeasible_ip_gets_a_tree() {
        // x1 + x2 = 1, x1 − x2 = 0 over binaries: x = (1/2, 1/2) only.
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 2],
            rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
        };
        assert_eq!(farkas(&sys), None);
        let (t, nodes) = tree_with_stats(&sys, 10, Some(10.0));
        let t = t.expect("a tree");
        assert_eq!(farkas::check_tree(&sys, &t), Ok(()));
        assert!(matches!(t, Tree::Split { .. }));
        assert_eq!((size(&t), nodes), (3, 3));
        // 2x = 1 with x in [0, 3].
        let sys = LinearSystem {
            cols: vec![(0, Some(3))],
            rows: vec![eq(&[(0, 2)], 1)],
        };
        assert_eq!(
            farkas::check_tree(&sys, &tree(&sys, 10, None).unwrap()),
            Ok(())
        );
        // A node limit too small gives up.
        assert_eq!(tree(&sys, 1, None), None);
    }

    #[test]
    fn a_feasible_ip_gets_no_tree() {
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 2],
            rows: vec![eq(&[(0, 1), (1, 1)], 1)],
        };
        assert_eq!(tree(&sys, 100, None), None);
    }

    #[test]
    fn a_large_common_denominator_is_found() {
        let y = [3.0 / 64049.0, -5.0 / 64049.0, 1.0, 0.0];
        assert_eq!(
            common_denominator(&y, 100_000_000, 1_000_000_000_000),
            Some(64049)
        );
        assert_eq!(common_denominator(&y, 1000, 1_000_000_000), Some(1));
        assert_eq!(common_denominator(&y, 100_000, 10_000), None);
    }

    #[test]
    fn fractional_duals_are_scaled_to_integers() {
        // 3x = 1, 3y = 1, x + y = 1 over [0, 1]: the LP is infeasible (x = y = 1/3, sum 2/3).
        // HiGHS's duals are like (−1/3, −1/3, 1); (−1, −1, 3) gives 0 >= 1.
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 2],
            rows: vec![eq(&[(0, 3)], 1), eq(&[(1, 3)], 1), eq(&[(0, 1), (1, 1)], 1)],
        };
        let cert = farkas(&sys).expect("a certificate");
        assert_eq!(farkas::check(&sys, &cert), Ok(()));
    }
}
