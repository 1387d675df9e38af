//! Integer programs and what the solvers say of them: the jump-matrix model ([`model`]),
//! HiGHS ([`solve`]), CBC's second opinion ([`second`]), exact certificates of infeasibility
//! ([`certify`], [`evidence`]), and pagoda functions found by linear programming
//! ([`lp_pagoda`]), and integer pagodas of a finite board that rule out given positions
//! ([`peg_pagoda`]). A solver's word is evidence only once a certificate or the checker
//! confirms it. Uses everything from [`crate::reduce`] down.

pub mod certify;
pub mod evidence;
pub mod lp_pagoda;
pub mod model;
pub mod peg_pagoda;
pub mod second;
pub mod solve;
