//! The search for a proven minimum: what a request asks and how it ended ([`outcome`]), the
//! case sweeps of a split round ([`sweep`]), the rounds K, K + 1, … ([`minimum`]), the record
//! of settled rounds that a rerun may reuse ([`record`]), and counting every minimum army
//! ([`count`]). Uses everything from [`crate::play`] down.

pub mod count;
pub mod minimum;
pub mod outcome;
pub mod record;
pub mod sweep;
