//! Proofs: what a published minimum rests on, written to a file and re-checked by a checker
//! that shares no search code with the solver.
//!
//! [`farkas`] holds the exact certificates for infeasible integer programs.

pub mod farkas;
