//! Gomory fractional cuts read off HiGHS's optimal LP basis, stated as exact Chvátal–Gomory
//! cuts ([`crate::proof::cut`]), in rounds at the root before the branch and bound.
//!
//! For a basic column x_j with a fractional value, u = e_r B⁻¹ (HiGHS's basis inverse row)
//! gives the identity x_j + Σ w_k x_k ≡ Σ u_i (a_i·x) with w = Σ u_i a_i, the sums over the
//! nonbasic columns and rows. Written in the slacks g ≥ 0 of the bounds and row sides that
//! are tight at the vertex, it reads x_j + Σ ā_t g_t = b̄, and the multipliers frac(ā_t) on
//! the g_t (any multiplier on an equation) make a combination with integer coefficients:
//! the Gomory cut is its rounding. Floating point only guesses the multipliers: they are
//! scaled to integers over a common denominator d, the coefficients d does not divide are
//! made divisible with the column's bounds (always valid, at some loss of strength), and
//! [`crate::proof::cut::derive`] computes the row exactly; a cut the LP point does not
//! violate is dropped.

use super::{Highs, Lp, Method, Node, attempt, denominator, gcd};
use crate::ip::solve::thread_seconds;
use crate::proof::cut::{Cut, combine, derive};
use crate::proof::farkas::{LinearSystem, Tree};
use highs_sys::HighsInt;
use std::time::{Duration, Instant};

/// Largest common denominator of a cut's multipliers.
const MOST_DENOMINATOR: i64 = 1 << 20;

/// Largest coefficient of a cut kept (larger ones make the LPs numerically fragile).
const MOST_COEFFICIENT: i64 = 1_000_000;

/// How the cut rounds are run: rounds, cuts added per round at most, and the branch and
/// bound's node budget after them.
#[derive(Clone, Copy, Debug)]
pub struct Rounds {
    pub rounds: usize,
    pub per_round: usize,
    pub nodes: usize,
}

/// A certificate tree for the integer program `sys`: Gomory cuts at the root in rounds, then
/// a Farkas leaf when they leave the LP infeasible, else [`super::tree_with_stats`] on the
/// system with the cuts; checked by the caller. Also the number of cuts made and of nodes.
pub fn tree_with_cuts(
    sys: &LinearSystem,
    r: Rounds,
    time_limit: Option<f64>,
) -> (Option<Tree>, usize, usize) {
    let cpu_end = time_limit.map(|t| thread_seconds() + t);
    let deadline = || {
        cpu_end.map(|e| Instant::now() + Duration::from_secs_f64((e - thread_seconds()).max(0.0)))
    };
    let mut aug = sys.clone();
    let mut cuts: Vec<Cut> = Vec::new();
    let mut end = None;
    for _ in 0..r.rounds {
        if cpu_end.is_some_and(|e| thread_seconds() >= e) {
            break;
        }
        let mut lp = Lp::new(&aug, &aug.cols, false);
        // The men (the binary start columns): their least number rises with the cuts, and
        // past the program's bound the LP is infeasible.
        for (cost, &(l, u)) in lp.cost.iter_mut().zip(&aug.cols) {
            *cost = (l == 0 && u == Some(1)) as u8 as f64;
        }
        let Some(h) = lp.solve(false, Method::Dual, deadline()) else {
            break;
        };
        // SAFETY: a live, solved instance.
        let status = unsafe { highs_sys::Highs_getModelStatus(h.0) };
        // Infeasible: the Farkas leaf below closes it; anything else ends the rounds too.
        if status != highs_sys::kHighsModelStatusOptimal {
            break;
        }
        let found = round(&h, &aug, r.per_round);
        if found.is_empty() {
            break;
        }
        for c in found {
            let row = derive(&aug.rows, &aug.cols, &c).expect("checked when made");
            aug.rows.push(row);
            cuts.push(c);
        }
    }
    if let Node::Proof(cert) = attempt(&aug, &aug.cols, deadline()) {
        end = Some(Tree::Leaf(cert));
    }
    let mut nodes = 0;
    if end.is_none() {
        let left = cpu_end.map(|e| (e - thread_seconds()).max(0.01));
        let (t, n) = super::tree_with_stats(&aug, r.nodes, left);
        (end, nodes) = (t, n);
    }
    let made = cuts.len();
    let tree = end.map(|mut t| {
        for cut in cuts.into_iter().rev() {
            t = Tree::Cut {
                cut,
                then: Box::new(t),
            };
        }
        t
    });
    (tree, made, nodes)
}

/// The basis of a solved LP: the basic variable of each basis row (a column j >= 0, or a
/// row as −1 − i), and the status of each column and row.
struct Basis {
    basic: Vec<HighsInt>,
    cols: Vec<HighsInt>,
    rows: Vec<HighsInt>,
}

fn basis(h: &Highs, n: usize, m: usize) -> Option<(Basis, Vec<f64>)> {
    let mut b = Basis {
        basic: vec![0; m],
        cols: vec![0; n],
        rows: vec![0; m],
    };
    let mut x = vec![0.0; n];
    let (mut cd, mut rv, mut rd) = (vec![0.0; n], vec![0.0; m], vec![0.0; m]);
    // SAFETY: a live, solved instance; every array has the model's length.
    let ok = unsafe {
        highs_sys::Highs_getBasis(h.0, b.cols.as_mut_ptr(), b.rows.as_mut_ptr())
            != highs_sys::kHighsStatusError
            && highs_sys::Highs_getBasicVariables(h.0, b.basic.as_mut_ptr())
                != highs_sys::kHighsStatusError
            && highs_sys::Highs_getSolution(
                h.0,
                x.as_mut_ptr(),
                cd.as_mut_ptr(),
                rv.as_mut_ptr(),
                rd.as_mut_ptr(),
            ) != highs_sys::kHighsStatusError
    };
    ok.then_some((b, x))
}

/// Up to `most` cuts from the basic columns with the most fractional values.
fn round(h: &Highs, sys: &LinearSystem, most: usize) -> Vec<Cut> {
    let (n, m) = (sys.cols.len(), sys.rows.len());
    let Some((b, x)) = basis(h, n, m) else {
        return Vec::new();
    };
    let frac = |v: f64| v - v.floor();
    let mut rows: Vec<(f64, usize)> = (b.basic.iter().enumerate())
        .filter(|&(_, &v)| v >= 0)
        .map(|(r, &v)| ((frac(x[v as usize]) - 0.5).abs(), r))
        .filter(|&(d, _)| d < 0.5 - 1e-6)
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let (mut u, mut index) = (vec![0.0; m], vec![0 as HighsInt; m]);
    for &(_, r) in &rows {
        let mut nz: HighsInt = 0;
        // SAFETY: a live, solved instance; u and index have num_row entries.
        let s = unsafe {
            highs_sys::Highs_getBasisInverseRow(
                h.0,
                r as HighsInt,
                u.as_mut_ptr(),
                &mut nz,
                index.as_mut_ptr(),
            )
        };
        if s == highs_sys::kHighsStatusError {
            continue;
        }
        if let Some(c) = gomory(sys, &b, &x, &u) {
            out.push(c);
            if out.len() >= most {
                break;
            }
        }
    }
    out
}

/// The Gomory cut of the basis inverse row `u`, exact, if the LP point violates it.
fn gomory(sys: &LinearSystem, b: &Basis, x: &[f64], u: &[f64]) -> Option<Cut> {
    let n = sys.cols.len();
    let tiny = 1e-9;
    let frac = |v: f64| {
        let f = v - v.floor();
        if f < tiny || f > 1.0 - tiny { 0.0 } else { f }
    };
    let mut w = vec![0.0; n];
    // Rational guesses: (row, y) and (column, z), before scaling.
    let mut ys: Vec<(usize, f64)> = Vec::new();
    let mut zs: Vec<(usize, f64)> = Vec::new();
    for (i, row) in sys.rows.iter().enumerate() {
        let ui = u[i];
        if ui.abs() < tiny || b.rows[i] == highs_sys::kHighsBasisStatusBasic {
            continue;
        }
        for &(j, a) in &row.coefs {
            w[j] += ui * a as f64;
        }
        if row.lo.is_some() && row.lo == row.hi {
            ys.push((i, -ui));
        } else if b.rows[i] == highs_sys::kHighsBasisStatusUpper {
            ys.push((i, -frac(ui)));
        } else {
            ys.push((i, frac(-ui)));
        }
    }
    for (k, &wk) in w.iter().enumerate() {
        match b.cols[k] {
            s if s == highs_sys::kHighsBasisStatusBasic || wk.abs() < tiny => {}
            s if s == highs_sys::kHighsBasisStatusUpper => zs.push((k, -frac(-wk))),
            _ => zs.push((k, frac(wk))),
        }
    }
    ys.retain(|v| v.1 != 0.0);
    zs.retain(|v| v.1 != 0.0);
    exact(sys, x, &ys, &zs)
}

/// Scales the guesses to integers over a common denominator, repairs the coefficients it
/// does not divide with bounds, and keeps the cut if it is violated at `x`.
fn exact(sys: &LinearSystem, x: &[f64], ys: &[(usize, f64)], zs: &[(usize, f64)]) -> Option<Cut> {
    let mut d: i64 = 1;
    for &(_, v) in ys.iter().chain(zs) {
        let q = denominator(v, 1000);
        d = d / gcd(d, q) * q;
        if d > MOST_DENOMINATOR {
            d = MOST_DENOMINATOR;
            break;
        }
    }
    let scale = |v: f64| (v * d as f64).round() as i64;
    let mut cut = Cut {
        multipliers: ys
            .iter()
            .map(|&(i, v)| (i, scale(v)))
            .filter(|v| v.1 != 0)
            .collect(),
        bounds: Vec::new(),
        divisor: d,
    };
    let mut z = vec![0i64; sys.cols.len()];
    for &(k, v) in zs {
        z[k] = scale(v);
    }
    cut.bounds = nonzero(&z);
    let (c, _) = combine(&sys.rows, &sys.cols, &cut).ok()?;
    let loss = |k: usize, z: i64| {
        let (l, u) = sys.cols[k];
        match z >= 0 {
            true => z as f64 * (x[k] - l as f64),
            false => u.map_or(f64::INFINITY, |u| -z as f64 * (u as f64 - x[k])),
        }
    };
    for (k, &ck) in c.iter().enumerate() {
        let r = ck.rem_euclid(d as i128) as i64;
        if r == 0 {
            continue;
        }
        let (down, up) = (z[k] - r, z[k] + d - r);
        z[k] = if loss(k, down) <= loss(k, up) {
            down
        } else {
            up
        };
    }
    cut.bounds = nonzero(&z);
    let row = derive(&sys.rows, &sys.cols, &cut).ok()?;
    if row.coefs.iter().any(|c| c.1.abs() > MOST_COEFFICIENT) || row.coefs.is_empty() {
        return None;
    }
    let lhs: f64 = row.coefs.iter().map(|&(j, a)| a as f64 * x[j]).sum();
    (lhs < row.lo? as f64 - 1e-6).then_some(cut)
}

/// The nonzero multipliers of `z` with their column indices.
fn nonzero(z: &[i64]) -> Vec<(usize, i64)> {
    z.iter()
        .enumerate()
        .filter(|v| *v.1 != 0)
        .map(|(k, &v)| (k, v))
        .collect()
}
