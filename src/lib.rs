//! solarmy: the minimum size of a solitaire army, computed and checked.
//!
//! The modules form a house of one direction: each folder uses only the ones listed before
//! it (`tests/house.rs` checks this on every test run).
//!
//! - [`error`], [`files`]: typed errors; files written whole or not at all.
//! - [`problem`]: the model file, the lattice ([`problem::geometry`]), regions, symmetries.
//! - [`weight`]: exact Z\[σ\] and the pagoda functions with their bounds.
//! - [`proof`]: the proof file, its checker and the independent replay; shares no search code.
//! - [`reduce`]: the finite board and the case split with its reductions.
//! - [`ip`]: the integer program, HiGHS, CBC, exact certificates, LP pagoda functions.
//! - [`play`]: the jump-ordering backtracker, fewest moves, the peg-solitaire boards.
//! - [`search`]: rounds and sweeps towards a proven minimum; counting the minimum armies.
//! - [`report`]: CSV, SVG, the HTML viewer, the bounds table.
//! - [`cli`]: the commands.

pub mod cli;
pub mod error;
pub mod files;
pub mod ip;
pub mod play;
pub mod problem;
pub mod proof;
pub mod reduce;
pub mod report;
pub mod search;
pub mod weight;
