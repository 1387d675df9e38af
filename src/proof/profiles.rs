//! The checker's own account of exponent profiles: the board argument's bounds, the
//! reductions, and an enumeration of every profile of K men that weighs enough.
//!
//! Premises (checked on the window by [`super::space::Space::premises`]): exponents of cells
//! one step apart differ by at most 1; every jump loses 0 or at least σ^top; the Fibonacci
//! extension g_G below is a pagoda function. Every argument is about a *pruned* play, in
//! which every start man is used and every position before the last jump contains {d, 2d}
//! and so weighs at least 1; a pruned play exists for every army of the round once every
//! smaller round has none (the checker takes rounds in increasing order).
//!
//! - **Reach.** g_G(e) = σ^e for e <= G, F_{k+2} σ^G at e = G + k. If every start man
//!   beyond G counts with g_G, an army of slack S weighs 1 + S + X_G under g_G (X_G its
//!   excess), and a man reaching exponent M needs g_G(M) − σ^M <= S + X_G.
//! - **Far group.** Split the men at an empty class into a body (up to class T) and a far
//!   group F. Until a man of one jumps over a man of the other they play apart; before that
//!   jump a body man stands next to a far man, at exponent >= m − 1 where σ^m <= w(F) is
//!   the nearest a far man can be; the body alone must reach there.
//! - **Proposition 1.** Lossless jumps never raise the farthest exponent E, so the first
//!   lossy jump loses at least σ^E: 0 < S < σ^E has no play.
//! - **Tableau.** With S = 0 only lossless jumps (a, a−1, a−2) occur; per class
//!   n_i − f_i − f_{i+1} + f_{i+2} = fin_i with f_i >= 0 jumps from class i.

use super::format::Reduction;
use super::space::{Space, extended};
use crate::weight::golden::Golden;

fn weight(profile: &[(i32, u64)]) -> Golden {
    profile
        .iter()
        .map(|&(e, n)| n as i128 * Golden::pow(e))
        .sum()
}

fn excess(profile: &[(i32, u64)], g: i32) -> Golden {
    profile
        .iter()
        .filter(|c| c.0 > g)
        .map(|&(e, n)| n as i128 * (extended(e, g) - Golden::pow(e)))
        .sum()
}

/// The largest exponent M >= `top` with g_G(M) − σ^M <= `budget`.
fn reach_from(g: i32, top: i32, budget: Golden) -> i32 {
    let mut m = top;
    while extended(m + 1, g) - Golden::pow(m + 1) <= budget {
        m += 1;
    }
    m
}

/// The farthest exponent real play of this profile, with slack `slack`, can reach.
pub fn reach(profile: &[(i32, u64)], slack: Golden) -> i32 {
    let top = profile.iter().map(|c| c.0).max().unwrap_or(0);
    let low = profile.iter().map(|c| c.0).min().unwrap_or(0);
    (low..=top)
        .map(|g| reach_from(g, top, slack + excess(profile, g)))
        .min()
        .unwrap_or(top)
}

/// Whether a far group weighing `far` can ever be met by `body`.
pub fn far_reachable(body: &[(i32, u64)], far: Golden) -> bool {
    let Some(top) = body.iter().map(|c| c.0).max() else {
        return true;
    };
    if far.signum() <= 0 {
        return false;
    }
    let slack = weight(body) + far - Golden::ONE;
    // The nearest class a far man can stand on: the least m with σ^m <= w(F).
    let mut m = 0;
    while Golden::pow(m) > far {
        m += 1;
    }
    let low = body.iter().map(|c| c.0).min().unwrap();
    (low..=top).all(|g| extended(m - 1, g) - Golden::pow(m - 1) <= slack + excess(body, g))
}

/// The first reduction that rules a profile out, if any.
pub fn reduction(profile: &[(i32, u64)], slack: Golden) -> Option<Reduction> {
    for k in 1..profile.len() {
        let (t, l) = (profile[k - 1].0, profile[k].0);
        if l > t + 1 && !far_reachable(&profile[..k], weight(&profile[k..])) {
            return Some(Reduction::FarGroup {
                body_top: t,
                far_from: l,
            });
        }
    }
    let farthest = profile.last().map_or(0, |c| c.0);
    if !slack.is_zero() && slack < Golden::pow(farthest) {
        return Some(Reduction::Proposition1 { farthest });
    }
    if slack.is_zero() {
        return tableau(profile).err();
    }
    None
}

/// Whether the stated reduction holds for this profile.
pub fn holds(r: &Reduction, profile: &[(i32, u64)], slack: Golden) -> bool {
    match *r {
        Reduction::Proposition1 { farthest } => {
            profile.last().map(|c| c.0) == Some(farthest)
                && !slack.is_zero()
                && slack < Golden::pow(farthest)
        }
        Reduction::Tableau { .. } => slack.is_zero() && tableau(profile).is_err(),
        Reduction::FarGroup { body_top, far_from } => {
            let k = profile.iter().position(|c| c.0 == far_from);
            k.is_some_and(|k| {
                k > 0
                    && profile[k - 1].0 == body_top
                    && far_from > body_top + 1
                    && !far_reachable(&profile[..k], weight(&profile[k..]))
            })
        }
    }
}

/// The zero-slack tableau: Ok when every jump count comes out non-negative.
fn tableau(profile: &[(i32, u64)]) -> Result<(), Reduction> {
    let top = profile.last().map_or(0, |c| c.0) + 2;
    let n = |i: i32| profile.iter().find(|c| c.0 == i).map_or(0, |c| c.1 as i64);
    let fin = |i: i32| (i == 1 || i == 2) as i64;
    let (mut f1, mut f2) = (0i64, 0i64); // f_{i+1}, f_{i+2}
    for i in (0..=top).rev() {
        let f = n(i) - f1 + f2 - fin(i);
        if f < 0 {
            return Err(Reduction::Tableau { class: Some(i) });
        }
        if i <= 2 && f != 0 {
            return Err(Reduction::Tableau { class: None });
        }
        (f1, f2) = (f, f1);
    }
    Ok(())
}

/// Every profile of exactly `men` men weighing at least 1, under the plain function and,
/// at best (min(n_e, cells off the blind line) men of class e weigh σ^e), under the sharper
/// one, in the order of a depth-first search over classes 0, 1, 2, … taking the most men
/// first. A branch whose men still to place, at their heaviest, cannot make either weight,
/// is dropped; so is one whose men still
/// to place lie beyond an empty class, at their heaviest a far group the body cannot meet.
/// Errors when `budget` nodes do not suffice or the window ends first.
pub fn enumerate(space: &Space, men: u64, budget: u64) -> Result<Vec<Vec<(i32, u64)>>, String> {
    let mut walk = Walk {
        space,
        budget,
        placed: Vec::new(),
        out: Vec::new(),
    };
    walk.visit(0, men, (Golden::ZERO, Golden::ZERO))?;
    Ok(walk.out)
}

struct Walk<'a> {
    space: &'a Space,
    budget: u64,
    placed: Vec<(i32, u64)>,
    out: Vec<Vec<(i32, u64)>>,
}

impl Walk<'_> {
    fn heaviest_from(&self, e: i32, men: u64, sharp: bool) -> Result<Golden, String> {
        let (mut left, mut i, mut w) = (men, e, Golden::ZERO);
        while left > 0 {
            let c = if sharp {
                self.space.sharp_count(i)?
            } else {
                self.space.count(i)?
            };
            let t = c.min(left);
            w += t as i128 * Golden::pow(i);
            left -= t;
            i += 1;
        }
        Ok(w)
    }

    fn visit(&mut self, e: i32, left: u64, (w, ws): (Golden, Golden)) -> Result<(), String> {
        if self.budget == 0 {
            return Err("the profile enumeration ran out of its node budget".into());
        }
        self.budget -= 1;
        if left == 0 {
            if w >= Golden::ONE && ws >= Golden::ONE {
                self.out.push(self.placed.clone());
            }
            return Ok(());
        }
        let best = self.heaviest_from(e, left, false)?;
        if w + best < Golden::ONE || ws + self.heaviest_from(e, left, true)? < Golden::ONE {
            return Ok(());
        }
        let top = self.placed.last().map(|c| c.0);
        if top.is_some_and(|t| e > t + 1) && !far_reachable(&self.placed, best) {
            return Ok(());
        }
        for take in (0..=self.space.count(e)?.min(left)).rev() {
            if take > 0 {
                self.placed.push((e, take));
            }
            let unit = Golden::pow(e);
            let sharp = take.min(self.space.sharp_count(e)?) as i128 * unit;
            self.visit(e + 1, left - take, (w + take as i128 * unit, ws + sharp))?;
            if take > 0 {
                self.placed.pop();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zero_slack_tableau_of_the_123_man_diagonal_army_holds() {
        let mut p: Vec<(i32, u64)> = (8..=11).map(|i| (i, 4 * i as u64 - 17)).collect();
        p.extend([(12, 28), (13, 11)]);
        assert_eq!(weight(&p), Golden::ONE);
        assert_eq!(reduction(&p, Golden::ZERO), None);
    }

    #[test]
    fn a_lone_far_man_is_never_met() {
        // A body weighing exactly 1 has nothing to spend on walking out to a man at 12.
        let body = [(1, 1), (2, 1)];
        assert!(!far_reachable(&body, Golden::pow(12)));
        assert!(far_reachable(&body, Golden::pow(3)));
    }
}
