//! The fewest moves as the `moves` and `catalog --moves` commands run them, as library
//! functions: an army's search resumed from its state ([`resume`]). The searches themselves
//! are [`crate::play::moves`] and [`crate::play::peg::fewest`]; here they are seeded, resumed,
//! and every play they report is replayed by [`crate::proof::verify`] before it is returned.

pub mod resume;
