//! The finite board: which cells and jumps the integer program sees, and why that is enough.
//!
//! # Why a finite board can prove a lower bound
//!
//! The IP is a relaxation of real play, so a board may leave out any cell that no real play
//! of at most K men ever uses. Fix a pagoda function w (exponents e, adjacent cells differing
//! by at most 1) under which the position before the last jump weighs 1. Prune a play that
//! reaches the target to the jumps the last jump depends on (notes §2): every start man is
//! used and the weight lost along the way is the slack S = w(army) − 1 (notes §1).
//!
//! 1. *Start cells.* Let the heaviest army of K−1 men weigh W(K−1) < 1. An army of K men
//!    whose farthest man has exponent E weighs at most W(K−1) + σ^E, and must weigh at least
//!    1, so σ^E >= 1 − W(K−1): E is bounded by E₁.
//! 2. *Cells beyond the start cells.* Let every start man have exponent <= E. The first man
//!    ever to land at exponent >= ℓ (ℓ > E) lands on exactly ℓ, from cells below ℓ, and
//!    since exponents change by at most 1 along a line its over-cell is at ℓ − 1: such a jump
//!    loses at least σ^{ℓ−1} (Table 4; checked for every function by
//!    [`crate::pagoda::Pagoda::check`]). Reaching exponent M therefore loses at least
//!    σ^E + … + σ^{M−1} = σ^{E−2} − σ^{M−2}, which must not exceed S ([`reach`]).
//! 3. *Jumps.* A jump that loses more than the greatest possible slack is never used.
//!
//! Together these give a board that contains every real play of at most K men: it is
//! *proven*. When W(K−1) >= 1 (one man could stand anywhere and the rest still weigh enough)
//! step 1 gives nothing; the board is then the heaviest army's exponents plus a margin, and
//! is reported as not proven.

use crate::geometry::Cell;
use crate::golden::Golden;
use crate::pagoda::{Pagoda, Profile};
use std::collections::HashMap;

/// How far to take the board for armies of at most `men` men.
#[derive(Clone, Debug, PartialEq)]
pub struct Limit {
    pub men: u64,
    /// Cells of exponent above this are left out.
    pub max_exponent: i32,
    /// Jumps losing more than this are left out.
    pub max_loss: Golden,
    /// Whether the argument in the module doc covers every real play of at most `men` men.
    pub proven: bool,
}

/// Extra exponents beyond the heaviest army when no limit can be proven.
pub const MARGIN: i32 = 2;

impl Limit {
    /// The limit for armies of at most `men` men whose final position weighs `fin`; None
    /// when no such army is heavy enough (the pagoda bound alone rules them out).
    pub fn new(profile: &Profile, men: u64, fin: Golden, margin: i32) -> Option<Limit> {
        let (per, heaviest) = profile.heaviest(men);
        let max_slack = heaviest - fin;
        if max_slack.signum() < 0 {
            return None;
        }
        let last_filled = per.len() as i32 - 1;
        let rest = profile.heaviest(men.saturating_sub(1)).1;
        if rest >= fin {
            return Some(Limit {
                men,
                max_exponent: last_filled + margin,
                max_loss: max_slack,
                proven: false,
            });
        }
        let gap = fin - rest;
        let mut max_exponent = last_filled;
        // Step 1: every farthest-man exponent E the weight allows; step 2 for each.
        let mut e = last_filled;
        while Golden::pow(e) >= gap {
            let slack = (rest + Golden::pow(e) - fin).min(max_slack);
            match reach(e, slack) {
                Some(m) => max_exponent = max_exponent.max(m),
                None => {
                    return Some(Limit {
                        men,
                        max_exponent: last_filled + margin,
                        max_loss: max_slack,
                        proven: false,
                    });
                }
            }
            e += 1;
        }
        Some(Limit {
            men,
            max_exponent,
            max_loss: max_slack,
            proven: true,
        })
    }
}

/// The highest exponent real play can reach from start men of exponent <= `e` losing at
/// most `slack` in all (step 2 of the module doc), or None when the slack pays for any
/// distance (slack >= σ^{e−2}).
pub fn reach(e: i32, slack: Golden) -> Option<i32> {
    if slack >= Golden::pow(e - 2) {
        return None;
    }
    let mut m = e;
    // Reaching m + 1 loses σ^{e−2} − σ^{m−1}.
    while Golden::pow(e - 2) - Golden::pow(m - 1) <= slack {
        m += 1;
    }
    Some(m)
}

/// A jump between board cells (indices into [`Board::cells`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    pub from: usize,
    pub over: usize,
    pub to: usize,
}

/// The cells and jumps of one finite board, with each cell's exponent and each jump's loss
/// under the board's pagoda function.
#[derive(Clone, Debug)]
pub struct Board {
    pub cells: Vec<Cell>,
    pub index: HashMap<Cell, usize>,
    pub exponent: Vec<Option<i32>>,
    /// Whether a man may start on the cell (row y >= level).
    pub start: Vec<bool>,
    pub jumps: Vec<Jump>,
    pub loss: Vec<Golden>,
    pub level: i32,
}

impl Board {
    /// Every lattice cell of exponent <= `limit.max_exponent`, and every jump among them
    /// losing at most `limit.max_loss`.
    pub fn new(pagoda: &Pagoda, level: i32, limit: &Limit) -> Board {
        assert!(
            limit.max_exponent <= pagoda.trusted_exponent(),
            "board exponent {} beyond the pagoda window",
            limit.max_exponent
        );
        let r = limit.max_exponent + 4;
        let mut cells = Vec::new();
        for y in -r..=r {
            for x in -r..=r {
                if let Some(e) = pagoda.exponent((x, y))
                    && e <= limit.max_exponent
                {
                    cells.push((x, y));
                }
            }
        }
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let exponent = cells.iter().map(|&c| pagoda.exponent(c)).collect();
        let start = cells.iter().map(|&(_, y)| y >= level).collect();
        let mut jumps = Vec::new();
        let mut loss = Vec::new();
        for &from in &cells {
            for &(dx, dy) in &pagoda.lattice.directions {
                let over = (from.0 + dx, from.1 + dy);
                let to = (from.0 + 2 * dx, from.1 + 2 * dy);
                let (Some(&o), Some(&t)) = (index.get(&over), index.get(&to)) else {
                    continue;
                };
                let l = pagoda.loss(from, over, to);
                if l <= limit.max_loss {
                    jumps.push(Jump {
                        from: index[&from],
                        over: o,
                        to: t,
                    });
                    loss.push(l);
                }
            }
        }
        Board {
            cells,
            index,
            exponent,
            start,
            jumps,
            loss,
            level,
        }
    }

    /// The position {d, 2d} before a last jump along d, as board cells (the IP's FIN).
    pub fn last_jump_position(&self, d: Cell) -> Vec<usize> {
        vec![self.index[&d], self.index[&(2 * d.0, 2 * d.1)]]
    }

    pub fn start_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(|&i| self.start[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Army;

    #[test]
    fn conway_level_4_board_for_19_men_is_proven_and_small() {
        let l = Army::Conway.lattice();
        let p = Pagoda::improved(&l, (0, 1));
        let lim = Limit::new(&p.start_profile(4), 19, Golden::ONE, MARGIN).unwrap();
        // 19 men weigh exactly 1 at best: no slack, so only lossless jumps, and no man can
        // stand beyond the 19th man's exponent 8.
        assert!(lim.proven);
        assert_eq!(lim.max_loss, Golden::ZERO);
        assert_eq!(lim.max_exponent, 8);
        assert!(Limit::new(&p.start_profile(4), 18, Golden::ONE, MARGIN).is_none());
        assert!(
            !Limit::new(&p.start_profile(4), 20, Golden::ONE, MARGIN)
                .unwrap()
                .proven
        );
    }
}
