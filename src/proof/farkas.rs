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
//! A leaf applies no Chvátal–Gomory rounding, on purpose: for one combined row c·x >= β
//! over a box with integer bounds it gains nothing. The box maximum M of c·x is attained at a
//! vertex, an integer point, so with g = gcd(c_j) both M and c·x are multiples of g, and
//! M/g < ⌈β/g⌉ holds exactly when M/g < β/g, i.e. when M < β. A leaf is therefore a plain
//! LP infeasibility proof of its box; the splits use integrality, and so do the cuts
//! ([`Tree::Cut`], [`super::cut`]), whose rounded rows later leaves and cuts combine.
//!
//! Arithmetic is in i128 and checked: an overflow rejects the certificate, it never wraps.
//!
//! This module is the trusted part: it imports nothing but serde, std, the systems
//! ([`super::system`]) and the cuts ([`super::cut`]), which import nothing else.

use serde::{Deserialize, Serialize};

pub use super::system::{LinearSystem, Row};

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

fn describe(path: &[String]) -> String {
    if path.is_empty() {
        "at the root".into()
    } else {
        path.join(", ")
    }
}

/// Checks `tree` on the box `cols`, against `grown` (the system with the rows of the
/// splits on rows above) when there is one, else `sys`. Solver leaves are collected into
/// `left` when it is Some, refused when it is None.
fn walk(
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
        Tree::Cut { cut, then } => walk_cut(sys, grown, (cut, then), cols, (path, left)),
    }
}

/// Checks a [`Tree::Cut`] node ([`super::cut`]): derives its row on the rows in force and the box `cols`,
/// then walks `then` with that row appended (numbered after the rows in force). An error
/// names the node's path and the cut: its number among the cuts on the path, and its row.
fn walk_cut(
    sys: &LinearSystem,
    grown: &mut Option<LinearSystem>,
    (cut, then): (&super::cut::Cut, &Tree),
    cols: &mut [(i64, Option<i64>)],
    (path, left): (&mut Vec<String>, &mut Option<Vec<LinearSystem>>),
) -> Result<(), String> {
    let rows = &grown.as_ref().unwrap_or(sys).rows;
    let number = rows.len();
    let k = 1 + path.iter().filter(|s| s.starts_with("cut ")).count();
    let row = super::cut::derive(rows, cols, cut)
        .map_err(|e| format!("cut {k} (row {number}) {}: {e}", describe(path)))?;
    grown.get_or_insert_with(|| sys.clone()).rows.push(row);
    path.push(format!("cut {k} (row {number})"));
    let r = walk(sys, grown, then, cols, path, left);
    path.pop();
    grown.as_mut().unwrap().rows.pop();
    r
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
mod tests;
