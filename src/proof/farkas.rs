//! Exact infeasibility certificates for integer programs, checked with integer arithmetic
//! and no solver.
//!
//! A [`LinearSystem`] is rows lo_i <= a_i·x <= hi_i over columns l_j <= x_j <= u_j, all
//! coefficients and bounds integers. A [`Farkas`] certificate is one integer multiplier y_i
//! per row (sparse). Each row used with y_i > 0 gives y_i·a_i·x >= y_i·lo_i, with y_i < 0
//! gives y_i·a_i·x >= y_i·hi_i; their sum c·x >= β with c = Σ y_i a_i holds for every
//! feasible x. If the largest value of c·x over the column box is below β, no x is
//! feasible, not even a fractional one. A [`Tree`] extends this to integer programs whose
//! LP relaxation is feasible: it splits on x_j <= v or x_j >= v + 1 (every integer point
//! lies on one side) until every leaf has a Farkas certificate on its narrowed box. It may
//! also split on a general disjunction a·x <= v or a·x >= v + 1 with integer a (a·x is an
//! integer at every integer point, as in the VIPR format of exact MIP solvers): each child
//! gets that row appended to the system, so a leaf's multipliers may name the rows added on
//! its path, numbered after the system's own rows in the order of the path.
//!
//! No Chvátal–Gomory rounding is applied, on purpose: for one combined row c·x >= β over a
//! box with integer bounds it gains nothing. The box maximum M of c·x is attained at a
//! vertex, an integer point, so with g = gcd(c_j) both M and c·x are multiples of g, and
//! M/g < ⌈β/g⌉ holds exactly when M/g < β/g, i.e. when M < β. A leaf is therefore a plain
//! LP infeasibility proof of its box; only the splits use integrality.
//!
//! Arithmetic is in i128 and checked: an overflow rejects the certificate, it never wraps.
//!
//! This module is the trusted part: it imports nothing but serde and std.

use serde::{Deserialize, Serialize};

/// One row: lo <= Σ coef·x_col <= hi (None: unbounded on that side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub coefs: Vec<(usize, i64)>,
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// Integer columns with box bounds, and rows over them (JSON: how `check --cbc` hands one
/// to CBC in a process of its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinearSystem {
    /// (lower, upper) bound of each column; upper None is +∞.
    pub cols: Vec<(i64, Option<i64>)>,
    pub rows: Vec<Row>,
}

/// Integer multipliers on rows: (row index, y_i), y_i != 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Farkas {
    pub multipliers: Vec<(usize, i64)>,
}

/// A branch-and-bound certificate: a leaf proves its box empty by a Farkas certificate;
/// a split covers its box by x_col <= value and x_col >= value + 1 (every column is
/// integer, so no point of the box is lost).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tree {
    Leaf(Farkas),
    /// A leaf whose box is empty by its bounds alone: some column has l > u after the
    /// splits above it (a split at a value outside the box). [`check_tree`] accepts it only
    /// when that is so; it proves nothing about rows.
    Empty,
    Split {
        col: usize,
        value: i64,
        below: Box<Tree>,
        above: Box<Tree>,
    },
    /// A split on a row: below adds the row a·x <= value, above a·x >= value + 1, as row
    /// number (system rows + splits on rows above it) in each subtree.
    SplitRow {
        coefs: Vec<(usize, i64)>,
        value: i64,
        below: Box<Tree>,
        above: Box<Tree>,
    },
    /// A leaf with no exact certificate: its box (the splits above it narrow the system)
    /// is left to the solvers. [`check_tree`] refuses it; [`check_tree_leaving`] returns
    /// its system, which the checker re-solves (HiGHS, and CBC when asked), so the step
    /// rests on the solvers' word for that part only.
    Solver,
    /// A Chvátal–Gomory cut ([`super::cut`]): the row it derives is appended to the rows
    /// in force, numbered after them, for `then`. Older files have none and read unchanged.
    Cut {
        cut: super::cut::Cut,
        then: Box<Tree>,
    },
}

/// Deepest [`Tree`] that [`check_tree`] walks (it recurses once per split of either kind).
pub const MAX_TREE_DEPTH: usize = 1000;

/// Checks a Farkas certificate on the system's own column box: Ok when it proves that no
/// x (integer or not) satisfies every row within the box.
pub fn check(sys: &LinearSystem, cert: &Farkas) -> Result<(), String> {
    check_in(sys, &sys.cols, cert)
}

/// [`check`] with the column box `cols` in place of `sys.cols` (a node of a [`Tree`]).
pub fn check_in(
    sys: &LinearSystem,
    cols: &[(i64, Option<i64>)],
    cert: &Farkas,
) -> Result<(), String> {
    if cols.len() != sys.cols.len() {
        return Err(format!(
            "the box has {} columns, the system {}",
            cols.len(),
            sys.cols.len()
        ));
    }
    let overflow = |what: &str| format!("arithmetic overflow in {what}");
    let mut used = vec![false; sys.rows.len()];
    let mut beta: i128 = 0;
    let mut c: Vec<i128> = vec![0; cols.len()];
    for (k, &(i, y)) in cert.multipliers.iter().enumerate() {
        let row = sys.rows.get(i).ok_or_else(|| {
            format!(
                "multiplier {k} names row {i}, but the system has {} rows",
                sys.rows.len()
            )
        })?;
        if used[i] {
            return Err(format!("row {i} has more than one multiplier"));
        }
        used[i] = true;
        let y = y as i128;
        let bound = match y.signum() {
            0 => return Err(format!("row {i} has multiplier 0")),
            1 => row
                .lo
                .ok_or_else(|| format!("row {i} used with y > 0 has no lower bound"))?,
            _ => row
                .hi
                .ok_or_else(|| format!("row {i} used with y < 0 has no upper bound"))?,
        };
        beta = y
            .checked_mul(bound as i128)
            .and_then(|t| beta.checked_add(t))
            .ok_or_else(|| overflow("β"))?;
        for &(j, a) in &row.coefs {
            let cj = c.get_mut(j).ok_or_else(|| {
                format!(
                    "row {i} names column {j}, but the system has {} columns",
                    cols.len()
                )
            })?;
            *cj = y
                .checked_mul(a as i128)
                .and_then(|t| cj.checked_add(t))
                .ok_or_else(|| overflow(&format!("c_{j}")))?;
        }
    }
    let mut max: i128 = 0;
    for (j, (&cj, &(l, u))) in c.iter().zip(cols).enumerate() {
        let term = if cj > 0 {
            let u = u.ok_or_else(|| format!("column {j} has c_j = {cj} > 0 and no upper bound"))?;
            cj.checked_mul(u as i128)
        } else {
            cj.checked_mul(l as i128)
        };
        max = term
            .and_then(|t| max.checked_add(t))
            .ok_or_else(|| overflow("max c·x"))?;
    }
    if max < beta {
        Ok(())
    } else {
        Err(format!("max c·x = {max} is not below β = {beta}"))
    }
}

/// Checks a branch-and-bound certificate: Ok when no integer x satisfies every row within
/// the system's column box. Each split narrows one column's box (below: u = min(u, value);
/// above: l = max(l, value + 1)); each leaf is checked by [`check`] on its narrowed box,
/// and an [`Tree::Empty`] leaf only if some column of its box has l > u. A split on a row
/// appends that row, with the bound of each side, to the system of each subtree. Errors
/// name the path from the root to the failing node. Trees deeper than [`MAX_TREE_DEPTH`]
/// are rejected.
pub fn check_tree(sys: &LinearSystem, tree: &Tree) -> Result<(), String> {
    let mut cols = sys.cols.clone();
    let mut path = Vec::new();
    // Only a split on a row needs its own copy of the rows (to append to).
    let mut grown = None;
    walk(sys, &mut grown, tree, &mut cols, &mut path, &mut None)
}

/// [`check_tree`] for a tree that may leave some leaves to the solvers ([`Tree::Solver`]):
/// Ok with the system of each such leaf (its narrowed box, and the rows of the splits on
/// rows above it) when every other node checks exactly. The program is infeasible if, and
/// only if, every returned system is: the splits cover the box and the other leaves are
/// proven empty.
pub fn check_tree_leaving(sys: &LinearSystem, tree: &Tree) -> Result<Vec<LinearSystem>, String> {
    let mut cols = sys.cols.clone();
    let mut left = Some(Vec::new());
    walk(sys, &mut None, tree, &mut cols, &mut Vec::new(), &mut left)?;
    Ok(left.unwrap_or_default())
}

/// Whether a tree leaves any leaf to the solvers.
pub fn leaves_to_solvers(tree: &Tree) -> bool {
    match tree {
        Tree::Solver => true,
        Tree::Leaf(_) | Tree::Empty => false,
        Tree::Split { below, above, .. } | Tree::SplitRow { below, above, .. } => {
            leaves_to_solvers(below) || leaves_to_solvers(above)
        }
        Tree::Cut { then, .. } => leaves_to_solvers(then),
    }
}

pub(super) fn describe(path: &[String]) -> String {
    if path.is_empty() {
        "at the root".into()
    } else {
        path.join(", ")
    }
}

/// Checks `tree` on the box `cols`, against `grown` (the system with the rows of the
/// splits on rows above) when there is one, else `sys`. Solver leaves are collected into
/// `left` when it is Some, refused when it is None.
pub(super) fn walk(
    sys: &LinearSystem,
    grown: &mut Option<LinearSystem>,
    tree: &Tree,
    cols: &mut [(i64, Option<i64>)],
    path: &mut Vec<String>,
    left: &mut Option<Vec<LinearSystem>>,
) -> Result<(), String> {
    let inner = matches!(
        tree,
        Tree::Split { .. } | Tree::SplitRow { .. } | Tree::Cut { .. }
    );
    if path.len() >= MAX_TREE_DEPTH && inner {
        return Err(format!(
            "split {}, …: the tree is deeper than {MAX_TREE_DEPTH}",
            describe(&path[..3])
        ));
    }
    match tree {
        Tree::Leaf(cert) => check_in(grown.as_ref().unwrap_or(sys), cols, cert)
            .map_err(|e| format!("leaf {}: {e}", describe(path))),
        Tree::Solver => match left {
            Some(v) => {
                v.push(LinearSystem {
                    cols: cols.to_vec(),
                    rows: grown.as_ref().unwrap_or(sys).rows.clone(),
                });
                Ok(())
            }
            None => Err(format!(
                "leaf {}: left to the solvers, no exact certificate",
                describe(path)
            )),
        },
        Tree::Empty => {
            if cols.iter().any(|&(l, u)| u.is_some_and(|u| l > u)) {
                Ok(())
            } else {
                Err(format!(
                    "empty leaf {}: every column's box is nonempty",
                    describe(path)
                ))
            }
        }
        Tree::Split {
            col,
            value,
            below,
            above,
        } => split_col(
            sys,
            grown,
            (*col, *value),
            (below, above),
            cols,
            (path, left),
        ),
        Tree::SplitRow {
            coefs,
            value,
            below,
            above,
        } => split_row(
            sys,
            grown,
            (coefs, *value),
            (below, above),
            cols,
            (path, left),
        ),
        Tree::Cut { cut, then } => {
            super::cut::walk_cut(sys, grown, (cut, then), cols, (path, left))
        }
    }
}

/// A split on column `col`: `below` with x_col <= value, `above` with x_col >= value + 1,
/// each checked on its half of the box, which is restored after.
fn split_col(
    sys: &LinearSystem,
    grown: &mut Option<LinearSystem>,
    (col, value): (usize, i64),
    (below, above): (&Tree, &Tree),
    cols: &mut [(i64, Option<i64>)],
    (path, left): (&mut Vec<String>, &mut Option<Vec<LinearSystem>>),
) -> Result<(), String> {
    let Some(&saved) = cols.get(col) else {
        return Err(format!(
            "split {}: column {col}, but the system has {} columns",
            describe(path),
            cols.len()
        ));
    };
    let Some(next) = value.checked_add(1) else {
        return Err(format!(
            "split {}: value {value} has no successor",
            describe(path)
        ));
    };
    cols[col].1 = Some(saved.1.map_or(value, |u| u.min(value)));
    path.push(format!("below x{col}<={value}"));
    let r = walk(sys, grown, below, cols, path, left);
    path.pop();
    cols[col] = saved;
    r?;
    cols[col].0 = saved.0.max(next);
    path.push(format!("above x{col}>={next}"));
    let r = walk(sys, grown, above, cols, path, left);
    path.pop();
    cols[col] = saved;
    r
}

/// A split on the row a·x (`coefs`): `below` with a·x <= value appended, `above` with
/// a·x >= value + 1. Columns are checked here so that an error names this split.
fn split_row(
    sys: &LinearSystem,
    grown: &mut Option<LinearSystem>,
    (coefs, value): (&[(usize, i64)], i64),
    (below, above): (&Tree, &Tree),
    cols: &mut [(i64, Option<i64>)],
    (path, left): (&mut Vec<String>, &mut Option<Vec<LinearSystem>>),
) -> Result<(), String> {
    let here = describe(path);
    if let Some(&(j, _)) = coefs.iter().find(|&&(j, _)| j >= cols.len()) {
        return Err(format!(
            "split on a row {here}: column {j}, but the system has {} columns",
            cols.len()
        ));
    }
    let Some(next) = value.checked_add(1) else {
        return Err(format!(
            "split on a row {here}: value {value} has no successor"
        ));
    };
    let number = grown.as_ref().unwrap_or(sys).rows.len();
    let mut sides = [
        (
            below,
            None,
            Some(value),
            format!("below row{number}<={value}"),
        ),
        (
            above,
            Some(next),
            None,
            format!("above row{number}>={next}"),
        ),
    ];
    for (tree, lo, hi, step) in sides.iter_mut() {
        let g = grown.get_or_insert_with(|| sys.clone());
        g.rows.push(Row {
            coefs: coefs.to_vec(),
            lo: *lo,
            hi: *hi,
        });
        path.push(std::mem::take(step));
        let r = walk(sys, grown, tree, cols, path, left);
        path.pop();
        grown.as_mut().unwrap().rows.pop();
        r?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(coefs: &[(usize, i64)], lo: Option<i64>, hi: Option<i64>) -> Row {
        Row {
            coefs: coefs.to_vec(),
            lo,
            hi,
        }
    }

    fn eq(coefs: &[(usize, i64)], b: i64) -> Row {
        row(coefs, Some(b), Some(b))
    }

    fn farkas(m: &[(usize, i64)]) -> Farkas {
        Farkas {
            multipliers: m.to_vec(),
        }
    }

    /// x + y = 1, x + y >= 3 over binaries: 1·(row 1) − 1·(row 0) gives 0 >= 2.
    fn two_rows() -> LinearSystem {
        LinearSystem {
            cols: vec![(0, Some(1)), (0, Some(1))],
            rows: vec![
                eq(&[(0, 1), (1, 1)], 1),
                row(&[(0, 1), (1, 1)], Some(3), None),
            ],
        }
    }

    #[test]
    fn a_valid_certificate_is_accepted() {
        let sys = two_rows();
        assert_eq!(check(&sys, &farkas(&[(1, 1), (0, -1)])), Ok(()));
        // Scaled, and the box alone: x + y >= 3 with x, y <= 1 (max 2 < 3).
        assert_eq!(check(&sys, &farkas(&[(1, 5), (0, -5)])), Ok(()));
        assert_eq!(check(&sys, &farkas(&[(1, 1)])), Ok(()));
    }

    #[test]
    fn tampered_certificates_are_rejected() {
        let sys = two_rows();
        // Sign flipped: row 1 has no upper bound.
        assert_eq!(
            check(&sys, &farkas(&[(1, -1)])),
            Err("row 1 used with y < 0 has no upper bound".into())
        );
        // A multiplier changed, −1 to 1 on row 0: c = (2, 2), β = 3 + 1, max c·x = 4.
        assert_eq!(
            check(&sys, &farkas(&[(1, 1), (0, 1)])),
            Err("max c·x = 4 is not below β = 4".into())
        );
        // A row dropped: −1·row0 alone gives −x − y >= −1, max 0.
        assert_eq!(
            check(&sys, &farkas(&[(0, -1)])),
            Err("max c·x = 0 is not below β = -1".into())
        );
        assert!(check(&sys, &farkas(&[])).is_err());
        assert_eq!(
            check(&sys, &farkas(&[(2, 1)])),
            Err("multiplier 0 names row 2, but the system has 2 rows".into())
        );
        assert_eq!(
            check(&sys, &farkas(&[(1, 1), (1, 1)])),
            Err("row 1 has more than one multiplier".into())
        );
        assert_eq!(
            check(&sys, &farkas(&[(1, 0)])),
            Err("row 1 has multiplier 0".into())
        );
    }

    #[test]
    fn an_unbounded_column_with_positive_coefficient_is_named() {
        let sys = LinearSystem {
            cols: vec![(0, Some(1)), (0, None)],
            rows: vec![row(&[(0, 1), (1, 3)], Some(5), None)],
        };
        assert_eq!(
            check(&sys, &farkas(&[(0, 1)])),
            Err("column 1 has c_j = 3 > 0 and no upper bound".into())
        );
        let bad = LinearSystem {
            cols: vec![(0, Some(1))],
            rows: vec![row(&[(3, 1)], Some(5), None)],
        };
        assert_eq!(
            check(&bad, &farkas(&[(0, 1)])),
            Err("row 0 names column 3, but the system has 1 columns".into())
        );
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        let sys = LinearSystem {
            cols: vec![(0, Some(i64::MAX))],
            rows: vec![
                row(&[(0, i64::MAX)], None, Some(i64::MIN)),
                row(&[(0, i64::MAX)], None, Some(i64::MIN)),
                row(&[(0, i64::MAX)], None, Some(i64::MIN)),
            ],
        };
        let e = check(
            &sys,
            &farkas(&[(0, i64::MIN), (1, i64::MIN), (2, i64::MIN)]),
        );
        assert!(e.unwrap_err().contains("overflow"));
    }

    /// x1 + x2 = 1, x1 − x2 = 0 over binaries: the LP has x = (1/2, 1/2), the IP nothing.
    fn half() -> LinearSystem {
        LinearSystem {
            cols: vec![(0, Some(1)), (0, Some(1))],
            rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
        }
    }

    fn split(col: usize, value: i64, below: Tree, above: Tree) -> Tree {
        Tree::Split {
            col,
            value,
            below: Box::new(below),
            above: Box::new(above),
        }
    }

    #[test]
    fn a_split_proves_what_no_farkas_certificate_can() {
        let sys = half();
        // The LP relaxation is feasible, so no multipliers work on the whole box.
        for m in [
            [(0, 1), (1, 1)],
            [(0, 1), (1, -1)],
            [(0, -1), (1, 1)],
            [(0, 2), (1, 1)],
        ] {
            assert!(check(&sys, &farkas(&m)).is_err());
        }
        // x0 <= 0: y = (1, 1) gives 2·x0 >= 1 (c = (2, 0), β = 1), and max c·x = 0 < 1.
        let below = Tree::Leaf(farkas(&[(0, 1), (1, 1)]));
        // x0 >= 1: y = (−1, −1) gives −2·x0 >= −1, and max c·x = −2 < −1.
        let above = Tree::Leaf(farkas(&[(0, -1), (1, -1)]));
        let t = split(0, 0, below.clone(), above.clone());
        assert_eq!(check_tree(&sys, &t), Ok(()));
        // Swapped leaves fail, and the error names the path.
        let bad = split(0, 0, above.clone(), below.clone());
        let e = check_tree(&sys, &bad).unwrap_err();
        assert!(e.starts_with("leaf below x0<=0: max c·x"), "{e}");
        // A nested path is named in full.
        let nested = split(1, 0, t.clone(), split(0, 0, below.clone(), below.clone()));
        let e = check_tree(&sys, &nested).unwrap_err();
        assert!(
            e.starts_with("leaf above x1>=1, above x0>=1: max c·x"),
            "{e}"
        );
        // A leaf at the root is a plain Farkas check.
        let e = check_tree(&sys, &below).unwrap_err();
        assert!(e.starts_with("leaf at the root: "), "{e}");
    }

    #[test]
    fn two_x_equals_one_needs_a_split() {
        // 2x = 1, x in {0, 1}.
        let sys = LinearSystem {
            cols: vec![(0, Some(1))],
            rows: vec![eq(&[(0, 2)], 1)],
        };
        assert!(check(&sys, &farkas(&[(0, 1)])).is_err());
        assert!(check(&sys, &farkas(&[(0, -1)])).is_err());
        let t = split(
            0,
            0,
            Tree::Leaf(farkas(&[(0, 1)])),
            Tree::Leaf(farkas(&[(0, -1)])),
        );
        assert_eq!(check_tree(&sys, &t), Ok(()));
    }

    #[test]
    fn empty_leaves_need_an_empty_box() {
        let sys = half();
        // x0 <= 0 then x0 >= 1 inside it: empty. Its sibling is a real leaf.
        let below = Tree::Leaf(farkas(&[(0, 1), (1, 1)]));
        let above = Tree::Leaf(farkas(&[(0, -1), (1, -1)]));
        let t = split(0, 0, split(0, 0, below.clone(), Tree::Empty), above.clone());
        assert_eq!(check_tree(&sys, &t), Ok(()));
        let t = split(0, 0, Tree::Empty, above);
        assert_eq!(
            check_tree(&sys, &t),
            Err("empty leaf below x0<=0: every column's box is nonempty".into())
        );
        assert!(check_tree(&sys, &Tree::Empty).is_err());
        let t = split(5, 0, below.clone(), below);
        assert!(check_tree(&sys, &t).unwrap_err().contains("column 5"));
    }

    #[test]
    fn depth_is_bounded() {
        let sys = half();
        let mut t = Tree::Empty;
        for _ in 0..=MAX_TREE_DEPTH {
            t = split(0, 5, t, Tree::Empty);
        }
        let e = check_tree(&sys, &t).unwrap_err();
        assert_eq!(
            e,
            "split below x0<=5, below x0<=5, below x0<=5, …: the tree is deeper than 1000"
        );
    }

    /// 2x + 2y = 1 over x, y in [−3, 3]: the LP relaxation is feasible, the split on the
    /// row x + y (<= 0 or >= 1) closes it at once.
    fn twice() -> LinearSystem {
        LinearSystem {
            cols: vec![(-3, Some(3)); 2],
            rows: vec![eq(&[(0, 2), (1, 2)], 1)],
        }
    }

    fn split_row(coefs: &[(usize, i64)], value: i64, below: Tree, above: Tree) -> Tree {
        Tree::SplitRow {
            coefs: coefs.to_vec(),
            value,
            below: Box::new(below),
            above: Box::new(above),
        }
    }

    #[test]
    fn a_split_on_a_row_adds_that_row_to_each_side() {
        let sys = twice();
        assert!(check(&sys, &farkas(&[(0, 1)])).is_err());
        // Below: 2x + 2y >= 1 and −2(x + y) >= 0 sum to 0 >= 1. Above: −(2x + 2y) >= −1
        // and 2(x + y) >= 2 sum to 0 >= 1.
        let below = Tree::Leaf(farkas(&[(0, 1), (1, -2)]));
        let above = Tree::Leaf(farkas(&[(0, -1), (1, 2)]));
        let t = split_row(&[(0, 1), (1, 1)], 0, below.clone(), above.clone());
        assert_eq!(check_tree(&sys, &t), Ok(()));
        // Nested: the inner split's row is row 2; the outer one's row 1 stays usable.
        let inner = split_row(&[(0, 1)], 7, below.clone(), Tree::Leaf(farkas(&[(2, 1)])));
        let t = split_row(&[(0, 1), (1, 1)], 0, inner, above.clone());
        assert_eq!(check_tree(&sys, &t), Ok(()));
        // With a split on a column too.
        let t = split(0, 0, t.clone(), t);
        assert_eq!(check_tree(&sys, &t), Ok(()));
    }

    #[test]
    fn tampered_splits_on_rows_are_rejected() {
        let sys = twice();
        let below = Tree::Leaf(farkas(&[(0, 1), (1, -2)]));
        let above = Tree::Leaf(farkas(&[(0, -1), (1, 2)]));
        // The value moved: x + y <= 1 and x + y >= 2 leave x + y = 1/2 on the low side.
        let t = split_row(&[(0, 1), (1, 1)], 1, below.clone(), above.clone());
        assert_eq!(
            check_tree(&sys, &t),
            Err("leaf below row1<=1: max c·x = 0 is not below β = -1".into())
        );
        // A coefficient changed: the sum no longer cancels.
        let t = split_row(&[(0, 1), (1, 2)], 0, below.clone(), above.clone());
        let e = check_tree(&sys, &t).unwrap_err();
        assert!(e.starts_with("leaf below row1<=0: max c·x = 6"), "{e}");
        // The leaves swapped: the added row has no lower bound below, no upper one above.
        let t = split_row(&[(0, 1), (1, 1)], 0, above.clone(), below.clone());
        assert_eq!(
            check_tree(&sys, &t),
            Err("leaf below row1<=0: row 1 used with y > 0 has no lower bound".into())
        );
        // A row of another path, or of no split, is not there.
        assert_eq!(
            check_tree(&sys, &below),
            Err("leaf at the root: multiplier 1 names row 1, but the system has 1 rows".into())
        );
        let t = split_row(
            &[(0, 1), (1, 1)],
            0,
            split(0, 0, below.clone(), Tree::Empty),
            above.clone(),
        );
        assert_eq!(
            check_tree(&sys, &t),
            Err("empty leaf below row1<=0, above x0>=1: every column's box is nonempty".into())
        );
        let t = split_row(&[(5, 1)], 0, below.clone(), above.clone());
        assert_eq!(
            check_tree(&sys, &t),
            Err("split on a row at the root: column 5, but the system has 2 columns".into())
        );
        let t = split_row(&[(0, 1)], i64::MAX, below, above);
        assert!(check_tree(&sys, &t).unwrap_err().contains("no successor"));
    }

    #[test]
    fn splits_on_rows_count_toward_the_depth() {
        let sys = twice();
        let mut t = Tree::Empty;
        for _ in 0..=MAX_TREE_DEPTH {
            t = split_row(&[(0, 1)], 5, t, Tree::Empty);
        }
        let e = check_tree(&sys, &t).unwrap_err();
        assert!(e.ends_with("the tree is deeper than 1000"), "{e}");
    }

    #[test]
    fn trees_survive_json() {
        let t = split(0, 0, Tree::Leaf(farkas(&[(0, 1), (1, 1)])), Tree::Empty);
        let s = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<Tree>(&s).unwrap(), t);
        // The form written before splits on rows existed still reads.
        let old = r#"{"split":{"col":0,"value":0,"below":{"leaf":{"multipliers":[[0,1]]}},"above":"empty"}}"#;
        assert!(matches!(
            serde_json::from_str::<Tree>(old),
            Ok(Tree::Split { .. })
        ));
        let t = split_row(&[(0, 1), (1, 1)], 0, Tree::Empty, Tree::Empty);
        let s = serde_json::to_string(&t).unwrap();
        assert!(
            s.starts_with(r#"{"split_row":{"coefs":[[0,1],[1,1]],"value":0,"#),
            "{s}"
        );
        assert_eq!(serde_json::from_str::<Tree>(&s).unwrap(), t);
    }
}
