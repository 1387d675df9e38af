//! The pagoda bounds per level: the paper's Tables 1 and 3 as a computation.
//!
//! For each level up to the highest reachable one (Table 1, standard functions), the lower
//! bound on the army size is the fewest men whose heaviest army reaches weight 1 under the
//! improved function of some last jump d (Table 3), minimised over d since a play may end
//! with any of them. The heaviest army's slack is given exactly, as a + bσ and as powers of σ.

use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use crate::weight::pagoda::{self, Pagoda};
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
    /// What results/min-sizes.csv holds for this level, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed: Option<crate::report::export::MinSizeRow>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArmyBounds {
    pub army: Army,
    /// The pagoda limit: the highest level the standard function does not rule out, an
    /// upper bound on the highest reachable level (the paper's Table 1 for the five armies).
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
                computed: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_3_as_the_minimum_over_last_jumps() {
        let want: [(Army, &[u64]); 5] = [
            (Army::conway(), &[2, 4, 8, 19]),
            (Army::skew(), &[2, 3, 5, 9, 18, 43]),
            (Army::pablito(), &[2, 3, 5, 9, 18, 51]),
            (Army::hexagonal(), &[2, 3, 5, 9, 16, 35, 140]),
            (Army::diagonal(), &[2, 3, 5, 7, 13, 23, 45, 122]),
        ];
        for (army, w) in want {
            let b = army_bounds(army);
            assert_eq!(b.max_level as usize, w.len());
            let got: Vec<u64> = b.levels.iter().map(|l| l.lower_bound).collect();
            assert_eq!(got, w, "{army}");
        }
    }

    #[test]
    fn equations_8_and_9() {
        let l7 = level_bound(Army::diagonal(), 7).unwrap();
        assert_eq!(
            (l7.lower_bound, l7.slack_sigma.as_str()),
            (45, "σ^11 + σ^13")
        );
        let l8 = level_bound(Army::diagonal(), 8).unwrap();
        assert_eq!(
            (l8.lower_bound, l8.slack_sigma.as_str()),
            (122, "σ^14 + σ^16")
        );
        // Table 5, case 1: n_i = 4i − 17 for 8 <= i <= 11, then 31 and 7.
        let n: Vec<u64> = l8.profile.iter().map(|p| p.1).collect();
        assert_eq!(n, vec![15, 19, 23, 27, 31, 7]);
        // Pablito level 5, equation 10: slack 2σ^9 (written greedily as σ^8 + σ^11).
        let p5 = level_bound(Army::pablito(), 5).unwrap();
        assert_eq!(p5.slack, (Golden::pow(9) + Golden::pow(9)).to_string());
    }
}
