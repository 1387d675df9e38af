//! Pagoda weights: exact arithmetic in Z\[σ\] ([`golden`]) and the pagoda functions of a
//! lattice with the bounds they give ([`pagoda`]). Uses only [`crate::problem`] below it.

pub mod golden;
pub mod pagoda;
