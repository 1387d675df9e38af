//! The symmetries of a problem, derived, never typed in: every integer linear map with
//! entries in {−1, 0, 1} and determinant ±1 that permutes the jump directions and preserves
//! the cells, the start region at every level, and the target (the origin, fixed by any
//! linear map).
//!
//! Premise of the window test: a named cell set ("all", "even", "triangle") is a lattice or a
//! cone, and a start region is a half-space or a norm ball, each the same under a linear map
//! exactly when it is the same on the points of the window |x_i| <= `WINDOW` (it holds the
//! generators of every such set). Finite boards are compared cell by cell, exactly.

use super::file::{Cells, Point, Spec, Start, contains, in_start};

/// A square integer matrix, row by row: the map p ↦ M·p.
pub type Matrix = Vec<Vec<i32>>;

/// Half-width of the window on which named regions are compared.
const WINDOW: i32 = 3;

pub fn apply(m: &Matrix, p: &[i32]) -> Point {
    m.iter()
        .map(|row| row.iter().zip(p).map(|(a, b)| a * b).sum())
        .collect()
}

pub fn identity(dimension: usize) -> Matrix {
    (0..dimension)
        .map(|i| (0..dimension).map(|j| (i == j) as i32).collect())
        .collect()
}

/// Every symmetry of the problem, the identity first.
pub fn derive(spec: &Spec) -> Vec<Matrix> {
    let n = spec.dimension;
    let mut out = vec![identity(n)];
    let total = 3usize.pow((n * n) as u32);
    for code in 0..total {
        let mut c = code;
        let m: Matrix = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        let v = (c % 3) as i32 - 1;
                        c /= 3;
                        v
                    })
                    .collect()
            })
            .collect();
        if m != out[0] && is_symmetry(spec, &m) {
            out.push(m);
        }
    }
    out
}

fn is_symmetry(spec: &Spec, m: &Matrix) -> bool {
    if determinant(m).abs() != 1 {
        return false;
    }
    let mut image: Vec<Point> = spec.directions.iter().map(|d| apply(m, d)).collect();
    let mut dirs = spec.directions.clone();
    image.sort();
    dirs.sort();
    if image != dirs {
        return false;
    }
    if let Cells::List(set) = &spec.cells {
        // A bijection of a finite set: the image lies in the set.
        if !set.iter().all(|p| set.contains(&apply(m, p))) {
            return false;
        }
    }
    window(spec.dimension).all(|p| {
        let q = apply(m, &p);
        contains(&spec.cells, &p) == contains(&spec.cells, &q) && same_start(spec, &p, &q)
    })
}

/// p and its image are in the start region at the same levels (checked at the levels the
/// window can tell apart).
fn same_start(spec: &Spec, p: &[i32], q: &[i32]) -> bool {
    match spec.start {
        Start::Board => true,
        Start::HalfSpace | Start::Outside { .. } => {
            (-WINDOW * 3..=WINDOW * 3).all(|l| in_start(spec, p, l) == in_start(spec, q, l))
        }
    }
}

fn window(dimension: usize) -> impl Iterator<Item = Point> {
    let side = (2 * WINDOW + 1) as usize;
    (0..side.pow(dimension as u32)).map(move |mut c| {
        (0..dimension)
            .map(|_| {
                let v = (c % side) as i32 - WINDOW;
                c /= side;
                v
            })
            .collect()
    })
}

fn determinant(m: &Matrix) -> i64 {
    super::file::det(&m.iter().collect::<Vec<_>>())
}
