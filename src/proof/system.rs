//! The linear systems that certificates are about: integer columns in a box and rows
//! lo <= a·x <= hi with integer coefficients ([`super::farkas`] and [`super::cut`] check
//! certificates on them; [`super::ip`] builds them).

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
