//! The search for a proven minimum: what a request asks and how it ended ([`outcome`]), the
//! case sweeps of a split round ([`sweep`]), the rounds K, K + 1, … ([`minimum`]), an army
//! found fast with no proof, to cap them ([`find`]), the record
//! of settled rounds that a rerun may reuse ([`record`]), counting every minimum army
//! ([`count`]) and the fewest moves over all of them ([`fewest_armies`]); the fewest moves of
//! one army or board problem and of a board's catalogue, seeded and resumed
//! ([`fewest_moves`]); the state a long search keeps between runs so that a rerun resumes
//! ([`state`]); the live display every long command shares ([`progress`]). Uses everything
//! from [`crate::play`] down.

pub mod count;
pub mod fewest_armies;
pub mod fewest_moves;
pub mod find;
pub mod minimum;
pub mod outcome;
pub mod progress;
pub mod record;
pub mod state;
pub mod sweep;
