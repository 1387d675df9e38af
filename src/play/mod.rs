//! Plays: ordering an integer program's jumps into a legal play ([`order`]), the fewest-moves
//! search for an army ([`moves`]) and the finite peg-solitaire boards ([`peg`]). Every play
//! found here is replayed by [`crate::proof::verify`] before it counts. Uses everything from
//! [`crate::ip`] down.

pub mod moves;
pub mod order;
pub mod peg;
