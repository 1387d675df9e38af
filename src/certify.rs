//! Placeholder until the certificate search lands.
use crate::proof::farkas::{Farkas, LinearSystem, Tree};

pub fn farkas(_sys: &LinearSystem) -> Option<Farkas> {
    None
}

pub fn tree(_sys: &LinearSystem, _node_limit: usize, _time_limit: Option<f64>) -> Option<Tree> {
    None
}
