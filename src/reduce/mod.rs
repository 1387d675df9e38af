//! What may be left out of an integer program, and why: the finite board proven to hold every
//! useful cell ([`board`]) and the split of a round into exponent-profile cases with the
//! reductions that rule cases out ([`cases`]). Each argument states its premises in its doc
//! and writes its numbers into the proof file ([`crate::proof::format`]), where the checker
//! recomputes them without this code. Uses [`crate::problem`], [`crate::weight`] and
//! [`crate::proof`] below it.

pub mod board;
pub mod cases;
