//! Rows worth branching on: parity aggregates of a system's equations.
//!
//! Take equality rows with 0/1 weights u (arithmetic mod 2) such that Σ u_i a_i is even on
//! every general-integer column (upper bound above 1). Then z = ½ Σ u_i a_i restricted to
//! those columns has integer coefficients, and Σ u_i b_i − (the binary part) = 2z ties the
//! parity of a sum of binaries to an integer z. The LP relaxation ignores that tie, so z is
//! often fractional at its optimum, and the split z <= v or z >= v + 1 cuts where single
//! columns do not (on the jump programs, u is a colouring argument: a set of cells every
//! jump meets an even number of times). The split is valid for any integer row; parity only
//! makes it a good guess.

use crate::proof::farkas::LinearSystem;

/// Most rows returned (the basis is small on the jump programs: 2 to 24 nontrivial rows).
const MOST: usize = 64;

/// The parity rows of `sys` ([`self`]), as (column, coefficient) lists.
pub fn rows(sys: &LinearSystem) -> Vec<Vec<(usize, i64)>> {
    let general = |j: usize| sys.cols[j].1.is_none_or(|u| u - sys.cols[j].0 > 1);
    let mut out: Vec<Vec<(usize, i64)>> = Vec::new();
    for u in basis(sys, general) {
        let mut r = vec![0i64; sys.cols.len()];
        for i in u {
            for &(j, a) in &sys.rows[i].coefs {
                r[j] = r[j].saturating_add(a);
            }
        }
        let z: Vec<(usize, i64)> = (0..r.len())
            .filter(|&j| general(j) && r[j] != 0)
            .map(|j| (j, r[j] / 2))
            .collect();
        if !z.is_empty() && !out.contains(&z) {
            out.push(z);
        }
        if out.len() >= MOST {
            break;
        }
    }
    out
}

/// A basis of {u over the equality rows : Σ u_i a_ij ≡ 0 mod 2 for every column j with
/// `keep(j)`}, each u as its row indices (Gaussian elimination over GF(2) on bit sets).
fn basis(sys: &LinearSystem, keep: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let eq: Vec<usize> = (0..sys.rows.len())
        .filter(|&i| sys.rows[i].lo.is_some() && sys.rows[i].lo == sys.rows[i].hi)
        .collect();
    let words = eq.len().div_ceil(64);
    // One equation per kept column: its odd coefficients, as a bit set over `eq`.
    let mut by_col = vec![vec![0u64; words]; sys.cols.len()];
    for (k, &i) in eq.iter().enumerate() {
        for &(j, a) in &sys.rows[i].coefs {
            if a % 2 != 0 {
                by_col[j][k / 64] ^= 1 << (k % 64);
            }
        }
    }
    let mut eqs: Vec<Vec<u64>> = (0..sys.cols.len())
        .filter(|&j| keep(j))
        .map(|j| std::mem::take(&mut by_col[j]))
        .filter(|v| v.iter().any(|&w| w != 0))
        .collect();
    let bit = |v: &[u64], b: usize| v[b / 64] >> (b % 64) & 1 != 0;
    // Reduced row echelon form: pivots[r] is the pivot bit of equation r.
    let mut pivots = Vec::new();
    for b in 0..eq.len() {
        let r = pivots.len();
        let Some(p) = (r..eqs.len()).find(|&e| bit(&eqs[e], b)) else {
            continue;
        };
        eqs.swap(r, p);
        let pivot = eqs[r].clone();
        for (e, v) in eqs.iter_mut().enumerate() {
            if e != r && bit(v, b) {
                v.iter_mut().zip(&pivot).for_each(|(w, p)| *w ^= p);
            }
        }
        pivots.push(b);
    }
    // One vector per free bit f: u_f = 1, and each pivot bit set where its equation has f.
    let mut is_pivot = vec![false; eq.len()];
    pivots.iter().for_each(|&b| is_pivot[b] = true);
    (0..eq.len())
        .filter(|&f| !is_pivot[f])
        .map(|f| {
            let mut u = vec![eq[f]];
            u.extend(
                (0..pivots.len())
                    .filter(|&r| bit(&eqs[r], f))
                    .map(|r| eq[pivots[r]]),
            );
            u
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::Row;

    #[test]
    fn a_parity_row_halves_an_even_combination() {
        // x + y + z = 1 and x − y + z + 2w = 0, z and w in [0, 5]: their sum 2x + 2z + 2w
        // is even on z and w, so z + w is a parity row; each row alone is odd on z.
        let eq = |coefs: &[(usize, i64)], b| Row {
            coefs: coefs.to_vec(),
            lo: Some(b),
            hi: Some(b),
        };
        let sys = LinearSystem {
            cols: vec![(0, Some(1)), (0, Some(1)), (0, Some(5)), (0, Some(5))],
            rows: vec![
                eq(&[(0, 1), (1, 1), (2, 1)], 1),
                eq(&[(0, 1), (1, -1), (2, 1), (3, 2)], 0),
            ],
        };
        assert_eq!(rows(&sys), vec![vec![(2, 1), (3, 1)]]);
    }
}
