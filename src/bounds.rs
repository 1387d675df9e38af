//! The pagoda bounds per level: the paper's Tables 1 and 3 as a computation.
//!
//! For each level up to the highest reachable one (Table 1, standard functions), the lower
//! bound on the army size is the fewest men whose heaviest army reaches weight 1 under the
//! improved function of some last jump d (Table 3), minimised over d since a play may end
//! with any of them. The heaviest army's slack is given exactly, as a + bσ and as powers of σ.

use crate::geometry::{Army, Cell};
use crate::golden::Golden;
use crate::pagoda::{self, Pagoda};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct LevelBound {
    pub level: i32,
    /// Fewest men any army reaching the level can have, by the pagoda argument.
    pub lower_bound: u64,
    /// The last jump d whose improved function gives the bound.
    pub last_jump: Cell,
    /// Men per exponent in the heaviest army of `lower_bound` men: (exponent, men).
    pub profile: Vec<(i32, u64)>,
    /// Slack of that army, a + bσ.
    pub slack: String,
    /// The same slack as a sum of powers of σ.
    pub slack_sigma: String,
    pub slack_value: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArmyBounds {
    pub army: Army,
    pub max_level: i32,
    pub levels: Vec<LevelBound>,
}

/// The bound for one level under the paper's improved functions, minimised over d.
pub fn level_bound(army: Army, level: i32) -> Option<LevelBound> {
    let lattice = army.lattice();
    lattice
        .last_jump_directions()
        .into_iter()
        .filter_map(|d| {
            let p = Pagoda::paper_improved(army, d);
            let profile = p.start_profile(level);
            let k = profile.lower_bound(Golden::ONE)?;
            let (per, w) = profile.heaviest(k);
            let slack = w - Golden::ONE;
            Some(LevelBound {
                level,
                lower_bound: k,
                last_jump: d,
                profile: per
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(e, n)| (e as i32, *n))
                    .collect(),
                slack: slack.to_string(),
                slack_sigma: slack.sigma_string(),
                slack_value: slack.to_f64(),
            })
        })
        .min_by_key(|b| b.lower_bound)
}

pub fn army_bounds(army: Army) -> ArmyBounds {
    let max_level = pagoda::highest_level(army);
    ArmyBounds {
        army,
        max_level,
        levels: (1..=max_level)
            .filter_map(|n| level_bound(army, n))
            .collect(),
    }
}
