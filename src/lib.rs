//! solarmy: the minimum size of a solitaire army, computed and checked.
//!
//! The modules depend on each other in one direction only:
//! [`golden`] (exact Z[σ]) → [`geometry`] (lattices, jumps) → [`pagoda`] (weights, bounds) →
//! [`board`] (finite cells and jumps) → [`model`] (the integer program) → [`solve`] (HiGHS)
//! → [`order`] (jump-ordering backtracker) → [`verify`] (independent replay) → [`export`].

pub mod golden;
pub mod geometry;
pub mod pagoda;
