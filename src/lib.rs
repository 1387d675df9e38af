//! solarmy: the minimum size of a solitaire army, computed and checked.
//!
//! The modules depend on each other in one direction only:
//! [`golden`] (exact Z[σ]) → [`geometry`] (lattices, jumps) → [`pagoda`] (weights, bounds)
//! → [`board`] (finite cells and jumps, and why they suffice) → [`cases`] (exponent
//! profiles and their reductions) → [`model`] (the integer program) → [`solve`] (HiGHS;
//! [`second`]: CBC's second opinion) → [`order`] (jump-ordering backtracker) → [`verify`]
//! (independent replay) → [`minimum`] and [`sweep`] (the search for a proven minimum, round
//! by round or case by case) → [`export`] / [`regiment`] / [`render`] / [`viewer`] (files,
//! regiments, pictures, the HTML play viewer) → [`cli`] (the commands). [`bounds`]
//! tabulates the pagoda bounds; [`lp_pagoda`] finds pagoda functions by linear programming. [`cli_certify`] adds exact certificates to a proof file
//! ([`certify`]). [`count`] counts every minimum army ([`cli_count`]);
//! [`moves`] searches all plays of a given army for the fewest moves ([`cli_moves`]).
//! [`cli_jobs`] writes a case split as independent jobs (GNU parallel, a Slurm array) and
//! merges their results through the sweep's own re-checks.

pub mod board;
pub mod bounds;
pub mod cases;
pub mod certify;
pub mod cli;
pub mod cli_board;
pub mod cli_catalog_moves;
pub mod cli_certify;
pub mod cli_count;
pub mod cli_jobs;
pub mod cli_moves;
pub mod cli_moves_board;
pub mod cli_moves_levels;
pub mod cli_pagoda;
pub mod count;
pub mod error;
pub mod evidence;
pub mod export;
pub mod geometry;
pub mod golden;
pub mod layers;
pub mod lp_pagoda;
pub mod minimum;
pub mod model;
pub mod moves;
pub mod order;
pub mod pagoda;
pub mod peg;
pub mod problem;
pub mod proof;
pub mod record;
pub mod regiment;
pub mod render;
pub mod second;
pub mod solve;
pub mod sweep;
pub mod verify;
pub mod viewer;
