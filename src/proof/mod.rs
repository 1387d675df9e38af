//! Proofs: what a published minimum rests on, written to a file ([`format`](mod@format)) and re-checked
//! by a checker ([`check`]) that shares no search code with the solver, in the way a SAT
//! solver's proof checker is kept apart from the solver.
//!
//! The checker's parts: [`bind`] (the proof bound to the problem it claims, by fingerprint),
//! [`space`] (exponents, start cells, premises), [`weigh`] (the exact
//! weight of a start region in closed form, for impossible levels), [`profiles`] (board
//! limits, reductions, the enumeration of profiles), [`ip`] (its own jump-matrix builder),
//! [`system`] (the linear systems certificates are about), [`farkas`] (exact certificates), [`cut`] (the Chvátal–Gomory cuts in their trees), [`lp`] (pagoda functions stated by weights), [`resolve`]
//! (HiGHS on its own system, where no certificate exists, and CBC's second opinion on every
//! infeasible system with `--cbc`), and `deferred`, the queue that makes those solver calls
//! after the walk, in parallel; [`verify`], the independent replay of a play; [`peg`], the
//! board problems' checks; [`moves`], the fewest moves' (its own search by moves) and
//! [`fewest`], a board's fewest moves by its own search by levels; [`vipr`],
//! the export of the exact certificates to the VIPR format, for checkers outside solarmy.
//!
//! Uses only [`crate::problem`] and [`crate::weight`] below it, so nothing here imports the
//! search: not the board limits or cases ([`crate::reduce`]), the integer programs
//! ([`crate::ip`]), the backtracker ([`crate::play`]) or the rounds ([`crate::search`]).
//! `tests/house.rs` keeps it so.

pub mod bind;
pub mod check;
pub mod cut;
mod deferred;
pub mod farkas;
pub mod fewest;
pub mod format;
pub mod ground;
pub mod ip;
pub mod levels;
pub mod lp;
mod merson;
pub mod moves;
pub mod outcore;
pub mod peg;
pub mod profiles;
pub mod resolve;
mod rounds;
pub mod space;
pub mod summary;
pub mod system;
pub mod verify;
pub mod vipr;
pub mod weigh;
