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
//! lies on one side) until every leaf has a Farkas certificate on its narrowed box.
//!
//! This module is the trusted part: it imports nothing but serde.

use serde::{Deserialize, Serialize};

/// One row: lo <= Σ coef·x_col <= hi (None: unbounded on that side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub coefs: Vec<(usize, i64)>,
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// Integer columns with box bounds, and rows over them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
/// a split covers its box by x_col <= value and x_col >= value + 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tree {
    Leaf(Farkas),
    Split {
        col: usize,
        value: i64,
        below: Box<Tree>,
        above: Box<Tree>,
    },
}

/// Placeholder until the exact checker lands: accepts nothing.
pub fn check_tree(_sys: &LinearSystem, _tree: &Tree) -> Result<(), String> {
    Err("exact certificate checking is not built yet".into())
}
