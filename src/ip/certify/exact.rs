//! Exact Farkas multipliers read off HiGHS's optimal phase-1 basis, for LPs whose duals no
//! rounding recovers (some of hexagonal 7's split leaves miss feasibility by 1e-4 and less:
//! their duals' denominators run to the basis determinant).
//!
//! At a vertex of the phase-1 LP ([`super::Lp::new`] with its violation columns v±_i) the
//! basis fixes the row duals: y_i = 0 where row i is basic, y_i = ±1 where its column v±_i
//! is, and y·a_j = 0 for every basic column x_j. That square system has integer
//! coefficients, so by Cramer's rule det·y is an integer vector. It is solved modulo two
//! primes below 2^62 and the residues are combined (Chinese remainder) into det·y, read as
//! the symmetric residue: exact whenever every |det·y_i| < 2^122. Nothing here is trusted;
//! a wrong reading (a larger value, an unlucky prime, a basis HiGHS got wrong) only fails
//! the exact check that [`farkas`] applies.

use super::{Highs, either_sign};
use crate::proof::farkas::{Farkas, LinearSystem};
use highs_sys::HighsInt;

const PRIMES: [u64; 2] = [(1 << 62) - 57, (1 << 62) - 87];

/// A certificate from the basis of the solved phase-1 LP of `sys` on the box `cols` held
/// by `h`, checked exactly (either sign); None if the basis gives none that verifies.
pub(super) fn farkas(h: &Highs, sys: &LinearSystem, cols: &[(i64, Option<i64>)]) -> Option<Farkas> {
    let y = scaled_duals(h, sys)?;
    let g = y.iter().fold(0i128, |g, &v| gcd_i128(g, v));
    if g == 0 {
        return None;
    }
    // Reduced here, in i128, so that multipliers past i64 before the division still fit.
    let m: Vec<(usize, i64)> = (y.iter().enumerate())
        .filter(|(_, v)| **v != 0)
        .map(|(i, v)| i64::try_from(v / g).ok().map(|v| (i, v)))
        .collect::<Option<_>>()?;
    either_sign(sys, cols, &m)
}

/// The basis's duals times its determinant, one per row of `sys`.
fn scaled_duals(h: &Highs, sys: &LinearSystem) -> Option<Vec<i128>> {
    let (n, m) = (sys.cols.len(), sys.rows.len());
    let mut basic = vec![0 as HighsInt; m];
    // SAFETY: a live, solved instance of the phase-1 LP, which has m rows.
    let ok = unsafe { highs_sys::Highs_getBasicVariables(h.0, basic.as_mut_ptr()) };
    if ok == highs_sys::kHighsStatusError {
        return None;
    }
    // Rows whose dual the basis fixes, and the basic columns x_j (one equation each).
    let mut fixed: Vec<Option<i64>> = vec![None; m];
    let mut equation: Vec<Option<usize>> = vec![None; n];
    let mut equations = 0;
    for &b in &basic {
        let (row, value) = match usize::try_from(b) {
            Ok(j) if j < n => {
                equation[j] = Some(equations);
                equations += 1;
                continue;
            }
            Ok(j) => ((j - n) / 2, if (j - n) % 2 == 0 { 1 } else { -1 }),
            Err(_) => (usize::try_from(-1 - b).ok()?, 0),
        };
        if row >= m || fixed[row].replace(value).is_some() {
            return None;
        }
    }
    let free: Vec<usize> = (0..m).filter(|&i| fixed[i].is_none()).collect();
    if free.len() != equations {
        return None;
    }
    // Σ_{i free} a_ij y_i = −Σ_{i fixed} a_ij y_i for each basic column j.
    let mut a = vec![vec![0i64; equations + 1]; equations];
    let mut unknown = vec![usize::MAX; m];
    for (u, &i) in free.iter().enumerate() {
        unknown[i] = u;
    }
    for (i, row) in sys.rows.iter().enumerate() {
        for &(j, c) in &row.coefs {
            let Some(e) = equation[j] else { continue };
            match fixed[i] {
                None => a[e][unknown[i]] += c,
                Some(v) => a[e][equations] -= c * v,
            }
        }
    }
    let residues: Vec<(Vec<u64>, u64)> = (PRIMES.iter())
        .map(|&p| solve_mod(&a, p))
        .collect::<Option<_>>()?;
    let [(x1, d1), (x2, d2)] = [&residues[0], &residues[1]];
    let det = crt(*d1, *d2);
    let mut y: Vec<i128> = (fixed.iter())
        .map(|f| f.map_or(0, |v| v as i128 * det))
        .collect();
    for (u, &i) in free.iter().enumerate() {
        y[i] = crt(x1[u], x2[u]);
    }
    Some(y)
}

fn mul(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn pow(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, a, p);
        }
        a = mul(a, a, p);
        e >>= 1;
    }
    r
}

/// det·x and det modulo the prime `p` for the square system `a` (each row: coefficients,
/// then the right-hand side); None if the system is singular modulo `p`.
fn solve_mod(a: &[Vec<i64>], p: u64) -> Option<(Vec<u64>, u64)> {
    let k = a.len();
    let reduce = |v: i64| (v as i128).rem_euclid(p as i128) as u64;
    let mut m: Vec<Vec<u64>> = (a.iter())
        .map(|r| r.iter().map(|&v| reduce(v)).collect())
        .collect();
    let mut det = 1u64;
    for c in 0..k {
        let r = (c..k).find(|&r| m[r][c] != 0)?;
        if r != c {
            m.swap(r, c);
            det = (p - det) % p;
        }
        det = mul(det, m[c][c], p);
        let inv = pow(m[c][c], p - 2, p);
        let (top, rest) = m.split_at_mut(c + 1);
        let pivot = &top[c];
        let nonzero: Vec<usize> = (c..=k).filter(|&j| pivot[j] != 0).collect();
        for row in rest.iter_mut().filter(|row| row[c] != 0) {
            let f = mul(row[c], inv, p);
            for &j in &nonzero {
                row[j] = (row[j] + p - mul(f, pivot[j], p)) % p;
            }
        }
    }
    let mut x = vec![0u64; k];
    for c in (0..k).rev() {
        let mut s = m[c][k];
        for j in c + 1..k {
            if m[c][j] != 0 {
                s = (s + p - mul(m[c][j], x[j], p)) % p;
            }
        }
        x[c] = mul(s, pow(m[c][c], p - 2, p), p);
    }
    Some((x.iter().map(|&v| mul(v, det, p)).collect(), det))
}

/// The integer of least absolute value congruent to `r1` and `r2` modulo the two primes.
fn crt(r1: u64, r2: u64) -> i128 {
    let [p1, p2] = PRIMES;
    let inv = pow(p1 % p2, p2 - 2, p2);
    let t = mul((r2 + p2 - r1 % p2) % p2, inv, p2);
    let modulus = p1 as u128 * p2 as u128;
    let v = r1 as u128 + p1 as u128 * t as u128;
    if v > modulus / 2 {
        -((modulus - v) as i128)
    } else {
        v as i128
    }
}

fn gcd_i128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_system_is_solved_exactly() {
        // 2x + y = 1, x + 3y = 2: det 5, x = 1/5, y = 3/5.
        let a = vec![vec![2, 1, 1], vec![1, 3, 2]];
        let r: Vec<_> = PRIMES.iter().map(|&p| solve_mod(&a, p).unwrap()).collect();
        assert_eq!(crt(r[0].1, r[1].1), 5);
        assert_eq!(crt(r[0].0[0], r[1].0[0]), 1);
        assert_eq!(crt(r[0].0[1], r[1].0[1]), 3);
    }

    /// A 14 × 14 system B·x = b whose determinant is 38,998,748,800,106: its unique solution
    /// has x_0 = 0.38…, outside the box x_0 = 0, so the LP is infeasible; the exact duals
    /// have denominators of that size.
    #[test]
    fn duals_with_large_denominators_are_solved_exactly() {
        #[rustfmt::skip]
        let b: [[i64; 14]; 14] = [
            [-6, 1, 6, 4, 6, 2, 0, 0, 0, 0, -5, 1, 4, 0],
            [-6, -3, -5, -3, 1, -4, -5, -1, 3, -6, -5, -6, 3, -4],
            [2, -5, -1, 3, -6, -5, -3, 3, 0, -4, 4, -2, -1, 3],
            [-1, 1, -5, -5, 1, 1, 1, 1, -2, -5, -4, -5, 5, -1],
            [5, -2, 1, 5, -4, 2, -6, -3, 2, -1, -4, 5, 2, -6],
            [6, 2, -2, 4, -5, 5, -2, 2, -1, -4, -1, 6, -3, 2],
            [2, 6, 2, -1, 4, -3, 3, 6, 6, 6, -3, 6, -3, 0],
            [5, 6, -3, -3, 2, 1, -1, 5, -6, -6, 6, -2, 1, -2],
            [-3, 5, 3, -1, 1, 6, 5, -1, -1, -5, -3, -5, -3, 1],
            [-3, -1, -3, 1, 3, 3, -6, 1, 4, -1, 6, 4, -5, 4],
            [-5, 0, 6, 5, 6, -3, 1, -4, 0, 6, 4, -1, -5, 6],
            [5, 0, 1, 0, 5, -5, 5, -4, -4, -4, -6, -4, 3, 1],
            [6, 4, -4, 3, 3, 1, 4, -1, -4, 2, 2, -4, -6, -6],
            [6, 5, 4, -5, 2, 5, -4, 0, -3, -3, -6, -2, -3, -2],
        ];
        let rhs = [3, -2, 4, 0, -1, 3, 1, -3, -5, 0, 2, 5, 4, 3];
        let mut cols = vec![(-2, Some(2)); 14];
        cols[0] = (0, Some(0));
        let sys = LinearSystem {
            cols: cols.clone(),
            rows: (b.iter().zip(rhs))
                .map(|(r, v)| crate::proof::farkas::Row {
                    coefs: r.iter().enumerate().map(|(j, &a)| (j, a)).collect(),
                    lo: Some(v),
                    hi: Some(v),
                })
                .collect(),
        };
        let lp = super::super::Lp::new(&sys, &cols, true);
        let h = lp.solve(false, super::super::Method::Primal, None).unwrap();
        let p = h.phase1(14).unwrap();
        assert!(p.objective > 1e-3);
        let cert = farkas(&h, &sys, &cols).unwrap();
        assert!(crate::proof::farkas::check(&sys, &cert).is_ok());
    }

    #[test]
    fn negative_values_come_back_negative() {
        // x − y = 0, x + y = −2: x = y = −1, det 2.
        let a = vec![vec![1, -1, 0], vec![1, 1, -2]];
        let r: Vec<_> = PRIMES.iter().map(|&p| solve_mod(&a, p).unwrap()).collect();
        assert_eq!(crt(r[0].1, r[1].1), 2);
        assert_eq!(crt(r[0].0[0], r[1].0[0]), -2);
    }
}
