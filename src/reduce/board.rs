//! The finite board: which cells and jumps the integer program sees, and why that is enough.
//!
//! # Why a finite board can prove a lower bound
//!
//! The IP is a relaxation of real play, so a board may leave out any cell that no real play
//! of at most K men ever uses. Fix a pagoda function w(c) = σ^e(c) (exponents e, cells one
//! step apart differing by at most 1) under which the position {d, 2d} before the last jump
//! weighs 1. Prune a play that reaches the target to the jumps the last jump depends on
//! (notes §2): every start man is used, every position before the last jump contains
//! {d, 2d} and so weighs at least 1, and the weight lost along the way is the slack
//! S = w(army) − 1 (notes §1).
//!
//! 1. *Start cells.* Let the heaviest army of K−1 men weigh W(K−1) < 1. An army of K men
//!    whose farthest man has exponent E weighs at most W(K−1) + σ^E, and must weigh at least
//!    1, so σ^E >= 1 − W(K−1): E is bounded by E₁.
//! 2. *Cells beyond the start cells* ([`reach`]). Let every start man have exponent <= E.
//!    The function g(e) = σ^e for e <= E, g(E + k) = F_{k+2} σ^E beyond (F the Fibonacci
//!    numbers: 2σ^E, 3σ^E, 5σ^E, …) is again a pagoda function: a jump (a, b, c) landing
//!    beyond E on its largest value has b = c − 1 and a ∈ {c − 2, c − 1}, and
//!    g(c) = min(2g(c−1), g(c−1) + g(c−2)) is exactly what that needs; every other jump has
//!    an over- or from-cell at least as heavy as its landing cell, or lies where g = σ^e.
//!    Since g >= σ^e everywhere and g = σ^e on the start cells, a position P reached in play
//!    with a man at exponent M > E satisfies
//!    1 + S = g(army) >= g(P) >= g(M) + (w(P) − σ^M) >= g(M) + 1 − σ^M,
//!    so g(M) − σ^M <= S: M is bounded, whatever S (tested on every lattice below).
//! 3. *Jumps.* A jump that loses more than the greatest possible slack is never used.
//!
//! Together these give a board that contains every real play of at most K men: it is
//! *proven*. When W(K−1) >= 1 (one man could stand anywhere and the rest still weigh enough)
//! step 1 gives nothing here; the case split ([`crate::reduce::cases`]) bounds E instead, with
//! [`far_group_reachable`]. Without it the board is the heaviest army's exponents plus a
//! margin, and is reported as not proven.
//!
//! The same argument bounds a *far group*: split the start men at an empty exponent class
//! into a body B (exponents <= G) and a far group F beyond it. Until the first jump in which
//! a man of one group jumps over a man of the other, each group plays alone, and such a jump
//! must happen, since every man is used. Just before it, a body man stands next to a far man.
//! Step 2 on the body alone, with w(body part) >= 1 − w(F) (the whole position weighs at
//! least 1, the far part at most w(F)), puts the body man within [`reach`](G, S), S the whole
//! army's slack; the far man then has exponent <= reach + 1, so w(F) >= σ^{reach + 1}.

use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use crate::weight::pagoda::{Pagoda, Profile};
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
            max_exponent = max_exponent.max(reach(e, slack));
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

/// The highest exponent real play can reach from start men of exponent <= `e` whose army
/// has slack `slack` (step 2 of the module doc): the largest M with g(M) − σ^M <= slack.
pub fn reach(e: i32, slack: Golden) -> i32 {
    let unit = Golden::pow(e);
    // g(m + 1) = f·σ^e, Fibonacci in f from g(e + 1) = 2σ^e, g(e + 2) = 3σ^e.
    let (mut f_prev, mut f) = (1i128, 2i128);
    let mut m = e;
    while f * unit - Golden::pow(m + 1) <= slack {
        m += 1;
        (f_prev, f) = (f, f + f_prev);
    }
    m
}

/// g_G of step 2: σ^e up to the pivot `g`, Fibonacci multiples of σ^g beyond.
pub fn extended_weight(e: i32, g: i32) -> Golden {
    if e <= g {
        return Golden::pow(e);
    }
    let (mut f_prev, mut f) = (1i128, 2i128);
    for _ in g + 1..e {
        (f_prev, f) = (f, f + f_prev);
    }
    f * Golden::pow(g)
}

/// The excess Σ (g_G(e) − σ^e) of an army given as (exponent, men) classes: what a pivot
/// below its farthest men adds to its weight.
fn excess(army: &[(i32, u64)], g: i32) -> Golden {
    army.iter()
        .filter(|c| c.0 > g)
        .map(|&(e, n)| n as i128 * (extended_weight(e, g) - Golden::pow(e)))
        .sum()
}

/// The highest exponent real play can reach from the army `profile` ((exponent, men)
/// classes) with slack `slack`: step 2 with every pivot G, not only the farthest man's
/// exponent. With G, the army weighs 1 + S + excess_G under g_G, so a man at M needs
/// g_G(M) − σ^M <= S + excess_G. Isolated far men make a low pivot much tighter.
pub fn reach_profile(profile: &[(i32, u64)], slack: Golden) -> i32 {
    let top = profile.iter().map(|c| c.0).max().unwrap_or(0);
    let lowest = profile.iter().map(|c| c.0).min().unwrap_or(0);
    (lowest..=top)
        .map(|g| reach(g, slack + excess(profile, g)).max(top))
        .min()
        .unwrap_or(top)
}

/// Whether the men beyond an empty class (the far group, weighing `far`) can ever meet the
/// men below it (the body, given as (exponent, men) classes), for a final position weighing
/// `fin` (module doc, last paragraph). False rules the army out.
///
/// Every pivot G is tried: with g_G, the body's start weighs w(body) + Σ (g_G(e) − σ^e) over
/// its men beyond G, and a body man next to a far man (at exponent >= m, the first with
/// σ^m <= w(far)) needs g_G(m−1) − σ^{m−1} <= that excess plus the slack.
pub fn far_group_reachable(body: &[(i32, u64)], far: Golden, fin: Golden) -> bool {
    let Some(&(top, _)) = body.iter().max_by_key(|c| c.0) else {
        return true;
    };
    if far.signum() <= 0 {
        return false;
    }
    let weight: Golden = body.iter().map(|&(e, n)| n as i128 * Golden::pow(e)).sum();
    let slack = weight + far - fin;
    // The nearest a far man ever stands: σ^m <= w(far).
    let mut m = top;
    while Golden::pow(m) > far {
        m += 1;
    }
    while m > 0 && Golden::pow(m - 1) <= far {
        m -= 1;
    }
    let lowest = body.iter().map(|c| c.0).min().unwrap();
    (lowest..=top)
        .all(|g| extended_weight(m - 1, g) - Golden::pow(m - 1) <= slack + excess(body, g))
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
    /// Whether a man may start on the cell (its start region at `level`).
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
        let cells: Vec<Cell> = pagoda
            .lattice
            .window(r)
            .filter(|&c| pagoda.exponent(c).is_some_and(|e| e <= limit.max_exponent))
            .collect();
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let exponent = cells.iter().map(|&c| pagoda.exponent(c)).collect();
        let start = cells
            .iter()
            .map(|&c| pagoda.lattice.in_start(c, level))
            .collect();
        let mut jumps = Vec::new();
        let mut loss = Vec::new();
        for &from in &cells {
            for &dd in &pagoda.lattice.directions {
                let over = from + dd;
                let to = from + 2 * dd;
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
        vec![self.index[&d], self.index[&(2 * d)]]
    }

    pub fn start_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(|&i| self.start[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    #[test]
    fn conway_level_4_board_for_19_men_is_proven_and_small() {
        let l = Army::conway().lattice();
        let p = Pagoda::improved(&l, Cell::xy(0, 1));
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

    fn g(e: i32, e_max: i32) -> Golden {
        extended_weight(e, e_max)
    }

    #[test]
    fn the_fibonacci_extension_is_a_pagoda_function_on_every_lattice() {
        for army in Army::all() {
            let l = army.lattice();
            for d in l.last_jump_directions() {
                let p = Pagoda::improved(&l, d);
                for e_max in [2, 5, 9] {
                    for from in l.window(14) {
                        let Some(a) = p.exponent(from) else {
                            continue;
                        };
                        for &dd in &l.directions {
                            let (Some(b), Some(c)) =
                                (p.exponent(from + dd), p.exponent(from + 2 * dd))
                            else {
                                continue;
                            };
                            assert!(
                                g(a, e_max) + g(b, e_max) >= g(c, e_max),
                                "{army} d={d:?} E={e_max}: jump ({a},{b},{c}) gains weight"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn reach_is_finite_and_tighter_than_first_landings() {
        for e in 4..16 {
            assert_eq!(reach(e, Golden::ZERO), e);
            assert_eq!(reach(e, -Golden::pow(e)), e);
            // One step out costs g(e+1) − σ^{e+1} = σ^e + σ^{e+2} exactly.
            let one = Golden::pow(e) + Golden::pow(e + 2);
            assert_eq!(reach(e, one), e + 1);
            assert_eq!(reach(e, one - Golden::pow(e + 30)), e);
            for s in 0..6 {
                let slack = Golden::pow(e - s);
                let m = reach(e, slack);
                assert!(m >= e && m < e + 30);
                // The first-landing argument (each new level ℓ loses σ^{ℓ−1}) allows at least
                // as much, whenever it bounds anything at all.
                if slack < Golden::pow(e - 2) {
                    assert!(Golden::pow(e - 2) - Golden::pow(m - 2) <= slack);
                }
            }
        }
    }

    #[test]
    fn a_low_pivot_tightens_reach() {
        // One class: the pivot is its exponent, as in `reach`.
        for s in 0..5 {
            let slack = Golden::pow(10 + s);
            assert_eq!(reach_profile(&[(10, 3)], slack), reach(10, slack));
        }
        // A body at 10 and one man at 11: pivot 11 lets the slack σ^10 buy class 12;
        // pivot 10 counts the man at 11 as already paid for, and allows nothing beyond him.
        let army = [(10, 4), (11, 1)];
        let slack = Golden::pow(10);
        assert_eq!(reach(11, slack), 12);
        assert_eq!(reach_profile(&army, slack), 11);
    }

    #[test]
    fn a_lone_far_man_cannot_be_met() {
        // A body weighing exactly 1 up to exponent 10 and one man far beyond: the body has
        // nothing to spend on going out to him.
        // A lone man at 10 meets a man at 11 next to him, not one at 12.
        assert!(!far_group_reachable(
            &[(10, 1)],
            Golden::pow(12),
            Golden::pow(10)
        ));
        assert!(far_group_reachable(
            &[(10, 1)],
            Golden::pow(11),
            Golden::pow(10)
        ));
    }
}
