//! Chvátal–Gomory cuts in a certificate tree (`Tree::Cut` of [`super::farkas`], which walks it): this module
//! derives the row a cut adds, in exact integer arithmetic, or says why it cannot.
//!
//! A cut names integer multipliers y_i on the rows in force at its node (the system's, the
//! rows of the splits on rows above it, earlier cuts), signed as in a Farkas certificate
//! (y_i > 0 takes the row's lower side, y_i < 0 its upper side), integer multipliers z_j on
//! the node's column bounds (z_j > 0 takes x_j >= l_j, z_j < 0 takes x_j <= u_j), and a
//! divisor d >= 1. Their sum c·x >= β holds at every point of the node, with
//! c = Σ y_i a_i + Σ z_j e_j. If d divides every c_j, then (c/d)·x is an integer at every
//! integer point, so (c/d)·x >= ⌈β/d⌉ holds at every integer point of the node: that row is
//! the cut, appended to the node's rows for the subtree below it. The multipliers on the
//! rows are y_i/d, rational, as in VIPR's `rnd` derivation. Every column is integer in the
//! programs checked here, so the rounding needs nothing else.
//!
//! Arithmetic is in i128 and checked: an overflow rejects the cut, it never wraps.

use super::system::Row;
use serde::{Deserialize, Serialize};

/// A Chvátal–Gomory cut, as [`self`] states it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    /// (row index among the rows in force, y_i), y_i != 0.
    pub multipliers: Vec<(usize, i64)>,
    /// (column, z_j), z_j != 0: the node's bounds, as the box narrowed by the splits above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bounds: Vec<(usize, i64)>,
    /// d >= 1: the sum is divided by it, then its right-hand side rounded up.
    pub divisor: i64,
}

/// The combined row Σ y_i a_i + Σ z_j e_j >= β of a cut, before division: (c, β).
pub fn combine(
    rows: &[Row],
    cols: &[(i64, Option<i64>)],
    cut: &Cut,
) -> Result<(Vec<i128>, i128), String> {
    let overflow = |what: &str| format!("arithmetic overflow in {what}");
    let mut c: Vec<i128> = vec![0; cols.len()];
    let mut beta: i128 = 0;
    let mut used = vec![false; rows.len()];
    let add = |c: &mut Vec<i128>, j: usize, v: i128| -> Result<(), String> {
        let cj = c
            .get_mut(j)
            .ok_or_else(|| format!("column {j}, but the system has {} columns", cols.len()))?;
        *cj = cj
            .checked_add(v)
            .ok_or_else(|| overflow(&format!("c_{j}")))?;
        Ok(())
    };
    for (k, &(i, y)) in cut.multipliers.iter().enumerate() {
        let row = rows.get(i).ok_or_else(|| {
            format!(
                "multiplier {k} names row {i}, but {} rows are in force",
                rows.len()
            )
        })?;
        if std::mem::replace(&mut used[i], true) {
            return Err(format!("row {i} has more than one multiplier"));
        }
        let side = match y.signum() {
            0 => return Err(format!("row {i} has multiplier 0")),
            1 => row
                .lo
                .ok_or_else(|| format!("row {i} used with y > 0 has no lower bound")),
            _ => row
                .hi
                .ok_or_else(|| format!("row {i} used with y < 0 has no upper bound")),
        }?;
        let y = y as i128;
        beta = y
            .checked_mul(side as i128)
            .and_then(|t| beta.checked_add(t))
            .ok_or_else(|| overflow("β"))?;
        for &(j, a) in &row.coefs {
            let t = y.checked_mul(a as i128).ok_or_else(|| overflow("c"))?;
            add(&mut c, j, t).map_err(|e| format!("row {i} names {e}"))?;
        }
    }
    let mut seen = vec![false; cols.len()];
    for &(j, z) in &cut.bounds {
        let &(l, u) = cols.get(j).ok_or_else(|| {
            format!(
                "a bound multiplier names column {j}, but the system has {} columns",
                cols.len()
            )
        })?;
        if std::mem::replace(&mut seen[j], true) {
            return Err(format!("column {j}'s bound has more than one multiplier"));
        }
        let side = match z.signum() {
            0 => return Err(format!("column {j}'s bound has multiplier 0")),
            1 => l,
            _ => u.ok_or_else(|| format!("column {j} used with z < 0 has no upper bound"))?,
        };
        beta = (z as i128)
            .checked_mul(side as i128)
            .and_then(|t| beta.checked_add(t))
            .ok_or_else(|| overflow("β"))?;
        add(&mut c, j, z as i128)?;
    }
    Ok((c, beta))
}

/// The row a cut adds at a node whose rows in force are `rows` and whose box is `cols`:
/// (c/d)·x >= ⌈β/d⌉, or why the cut does not hold (a multiplier that names nothing, a
/// coefficient d does not divide, a number too large).
pub fn derive(rows: &[Row], cols: &[(i64, Option<i64>)], cut: &Cut) -> Result<Row, String> {
    if cut.divisor < 1 {
        return Err(format!("divisor {} is not positive", cut.divisor));
    }
    let (c, beta) = combine(rows, cols, cut)?;
    let d = cut.divisor as i128;
    let mut coefs = Vec::new();
    for (j, &cj) in c.iter().enumerate() {
        if cj % d != 0 {
            return Err(format!(
                "c_{j} = {cj} is not a multiple of the divisor {d}: the rounding is not valid"
            ));
        }
        if cj != 0 {
            let a =
                i64::try_from(cj / d).map_err(|_| format!("c_{j}/d = {} is too large", cj / d))?;
            coefs.push((j, a));
        }
    }
    // ⌈β/d⌉ with d > 0.
    let rhs = beta.div_euclid(d) + (beta.rem_euclid(d) != 0) as i128;
    let lo = i64::try_from(rhs).map_err(|_| format!("⌈β/d⌉ = {rhs} is too large"))?;
    Ok(Row {
        coefs,
        lo: Some(lo),
        hi: None,
    })
}
