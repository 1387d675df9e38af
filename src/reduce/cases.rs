//! Splitting a hard instance into cases by exponent profile, as the paper's section 5.1 does
//! by hand (Tables 5 and 7), but enumerated by program.
//!
//! A case is a profile n_i: the number of men on start cells of exponent i under the improved
//! function of one last jump d. Every army of K men falls in exactly one case, so the IP is
//! infeasible for K men when it is infeasible for every case. Each case fixes the army's
//! weight, hence its slack S exactly, and that is what makes cases cheap.
//!
//! Reductions, each an argument about *real* play (the IP need only contain every real play
//! of the case, so a case with no real play may be dropped). Like the board limits, they
//! are about pruned plays, in which every man is used: a split of K men speaks for every
//! army of K men once no army of fewer men exists, which is how `solve` uses it (round K
//! comes after rounds K − 1, K − 2, … were infeasible).
//! - **Weight.** Σ n_i σ^i >= 1, or no play reaches {d, 2d} (pagoda condition).
//! - **Proposition 1.** No jump type 1.2.1 occurs (checked by `Pagoda::check`), so a jump
//!   loses nothing or at least σ^E, E the largest occupied exponent, and lossless jumps never
//!   raise E. A pruned play ends exactly on {d, 2d}, so its jumps lose exactly S in total:
//!   either S = 0, or the first lossy jump loses at least σ^E, so S >= σ^E. A case with
//!   0 < S < σ^E has no play.
//! - **Zero slack.** With S = 0 every jump is lossless, (a, a−1, a−2) for these functions;
//!   summed by exponent class the balance equations are the paper's one-dimensional tableau
//!   n_i − f_i − f_{i+1} + f_{i+2} = fin_i with f_i >= 0 jumps from class i; solved from the
//!   top down, a negative f_i, or a jump that would land below class 1, rules the case out.
//!
//! - **Far group** ([`crate::reduce::board::far_group_reachable`]). Where an empty class splits the
//!   men into a body and a group beyond it, the body must reach out to the far group before
//!   they can meet, and that costs more than the slack when the far group is light. This is
//!   also what makes the enumeration finite when one man could stand anywhere by weight: a
//!   branch that leaves classes empty with men still to place is cut once those men, at
//!   their heaviest, could not be met.
//!
//! Not applied: the paper's "no interior zero" and "n_{E−1} >= n_E". Both rest on the army
//! being minimal and on the first landing in a gap being a legal start cell; the cell where a
//! gap is bridged may lie outside the start rows (notes §5, §7), so the cases stay and are
//! solved.

use crate::proof::format::Reduction;
use crate::reduce::board::{Limit, reach_profile};
use crate::weight::golden::Golden;
use crate::weight::pagoda::Profile;
use serde::Serialize;

/// One case: men per exponent class, and what the reductions said of it.
#[derive(Clone, Debug, Serialize)]
pub struct Case {
    /// (exponent, men) for every class with men.
    pub profile: Vec<(i32, u64)>,
    /// Slack Σ n_i σ^i − 1, exact.
    #[serde(skip)]
    pub slack: Golden,
    pub slack_sigma: String,
    /// Largest exponent holding a man.
    pub max_exponent: i32,
    /// Why the case has no play, if a reduction says so.
    pub ruled_out: Option<String>,
    /// The same reduction, as the proof file states it.
    #[serde(skip)]
    pub reduction: Option<Reduction>,
}

impl Case {
    /// A stable name for logs: "e:n,e:n,…".
    pub fn key(&self) -> String {
        self.profile
            .iter()
            .map(|(e, n)| format!("{e}:{n}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The cases of one last jump, and whether they cover every army.
#[derive(Clone, Debug)]
pub struct Enumeration {
    pub cases: Vec<Case>,
    /// False when `max_exponent` cut a branch that no reduction had closed, or a budget
    /// (nodes, cases kept) stopped the enumeration.
    pub complete: bool,
    /// What stopped the enumeration early, if anything: the node budget or the case cap.
    pub stopped: Option<Stop>,
}

/// Why an enumeration stopped before it had visited every branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `budget` nodes visited.
    Nodes,
    /// `max_cases` cases kept.
    Cases,
}

/// Nodes of the enumeration tree visited before giving up (armies far above their pagoda
/// bound have astronomically many profiles).
pub const BUDGET: u64 = 20_000_000;

/// Every profile of exactly `men` men whose weight reaches `fin` (the weight of the position
/// before the last jump), with the reductions applied. With `sharp`, the start cells counted
/// under a sharper pagoda function that agrees with this one where it is not zero (Pablito's
/// Figure 7b: the far edge weighs 0), a profile must also reach `fin` under it: at best
/// min(n_e, sharp_e) of its men in class e weigh σ^e there. `fin_classes` lists the exponent of
/// each cell of that position. Classes beyond `max_exponent` are not entered (a safety
/// cap: the far-group reduction normally closes every branch well before it), and at most
/// `budget` nodes are visited; either cut leaves the enumeration incomplete.
pub fn enumerate(
    profile: &Profile,
    men: u64,
    fin: Golden,
    fin_classes: &[i32],
    max_exponent: i32,
    budget: u64,
    sharp: Option<&Profile>,
) -> Enumeration {
    enumerate_capped(
        profile,
        men,
        fin,
        fin_classes,
        max_exponent,
        budget,
        usize::MAX,
        sharp,
    )
}

/// As [`enumerate`], keeping at most `max_cases` cases: the enumeration stops (incomplete,
/// [`Stop::Cases`]) when one more would be kept, so memory stays bounded far above the
/// minimum, where profiles are astronomically many.
#[allow(clippy::too_many_arguments)]
pub fn enumerate_capped(
    profile: &Profile,
    men: u64,
    fin: Golden,
    fin_classes: &[i32],
    max_exponent: i32,
    budget: u64,
    max_cases: usize,
    sharp: Option<&Profile>,
) -> Enumeration {
    let mut st = State {
        budget,
        max_cases,
        stopped: None,
        profile,
        sharp,
        fin,
        fin_classes,
        max_exponent,
        n: vec![0u64; max_exponent as usize + 2],
        out: Vec::new(),
        complete: true,
    };
    st.rec(0, men, (Golden::ZERO, Golden::ZERO), None);
    Enumeration {
        cases: st.out,
        complete: st.complete,
        stopped: st.stopped,
    }
}

impl Enumeration {
    /// A proven board limit for the IP of `men` men without a case split, from the cases:
    /// the farthest any case that survives the reductions can reach
    /// ([`crate::reduce::board::reach_profile`]) and the largest slack among them. This is what
    /// step 1 of the board argument cannot give when one man could stand anywhere by
    /// weight. None when the enumeration was cut.
    pub fn limit(&self, men: u64) -> Option<Limit> {
        if !self.complete {
            return None;
        }
        let open = || self.cases.iter().filter(|c| c.ruled_out.is_none());
        Some(Limit {
            men,
            max_exponent: open()
                .map(|c| reach_profile(&c.profile, c.slack))
                .chain(self.cases.iter().map(|c| c.max_exponent))
                .max()?,
            max_loss: open().map(|c| c.slack).max().unwrap_or(Golden::ZERO),
            proven: true,
        })
    }
}

struct State<'a> {
    budget: u64,
    max_cases: usize,
    stopped: Option<Stop>,
    profile: &'a Profile,
    sharp: Option<&'a Profile>,
    fin: Golden,
    fin_classes: &'a [i32],
    max_exponent: i32,
    n: Vec<u64>,
    out: Vec<Case>,
    complete: bool,
}

impl State<'_> {
    /// The heaviest weight `left` men can have on classes from `e` upward.
    fn best(&self, e: i32, left: u64) -> Golden {
        heaviest_from(self.profile, e, left)
    }

    /// The same under the sharper function (the plain one when there is none).
    fn best_sharp(&self, e: i32, left: u64) -> Golden {
        heaviest_from(self.sharp.unwrap_or(self.profile), e, left)
    }

    /// What `take` men in class `e` add under the sharper function, at best.
    fn sharp_part(&self, e: i32, take: u64) -> Golden {
        let n = self.sharp.map_or(take, |s| take.min(s.count(e)));
        n as i128 * Golden::pow(e)
    }

    /// The classes placed so far, as (exponent, men).
    fn body(&self) -> Vec<(i32, u64)> {
        self.n
            .iter()
            .enumerate()
            .filter(|c| *c.1 > 0)
            .map(|(e, &n)| (e as i32, n))
            .collect()
    }

    /// Class `e` next, `left` men to place, weight `w` so far (plain, sharper), `top` the
    /// largest class used.
    fn rec(&mut self, e: i32, left: u64, (w, ws): (Golden, Golden), top: Option<i32>) {
        if self.budget == 0 {
            self.complete = false;
            self.stopped.get_or_insert(Stop::Nodes);
            return;
        }
        self.budget -= 1;
        if left == 0 {
            if w >= self.fin && ws >= self.fin {
                if self.out.len() >= self.max_cases {
                    self.complete = false;
                    self.stopped = Some(Stop::Cases);
                    self.budget = 0;
                    return;
                }
                let case = make_case(&self.n, w - self.fin, self.fin, self.fin_classes);
                self.out.push(case);
            }
            return;
        }
        if w + self.best(e, left) < self.fin || ws + self.best_sharp(e, left) < self.fin {
            return;
        }
        // Classes top+1 .. e−1 are empty and every man left goes to class e or beyond: a
        // far group, at its heaviest, that the body cannot reach rules out the branch.
        if let Some(g) = top
            && e > g + 1
            && !crate::reduce::board::far_group_reachable(
                &self.body(),
                self.best(e, left),
                self.fin,
            )
        {
            return;
        }
        if e > self.max_exponent {
            self.complete = false;
            return;
        }
        let cap = self.profile.count(e).min(left);
        for take in (0..=cap).rev() {
            self.n[e as usize] = take;
            let top = if take > 0 { Some(e) } else { top };
            let ws = ws + self.sharp_part(e, take);
            self.rec(
                e + 1,
                left - take,
                (w + take as i128 * Golden::pow(e), ws),
                top,
            );
        }
        self.n[e as usize] = 0;
    }
}

/// The heaviest weight `left` men can have on the classes of `profile` from `e` upward.
fn heaviest_from(profile: &Profile, e: i32, left: u64) -> Golden {
    let mut w = Golden::ZERO;
    let (mut left, mut i) = (left, e);
    while left > 0 {
        let t = profile.count(i).min(left);
        w += t as i128 * Golden::pow(i);
        left -= t;
        i += 1;
    }
    w
}

fn make_case(n: &[u64], slack: Golden, fin: Golden, fin_classes: &[i32]) -> Case {
    let profile: Vec<(i32, u64)> = n
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(e, c)| (e as i32, *c))
        .collect();
    let max_exponent = profile.last().map_or(0, |p| p.0);
    // Every split at an empty class: body below, far group above.
    let far_gap = (1..profile.len()).find_map(|k| {
        let (g, l) = (profile[k - 1].0, profile[k].0);
        let body = &profile[..k];
        let far: Golden = profile[k..]
            .iter()
            .map(|q| q.1 as i128 * Golden::pow(q.0))
            .sum();
        (l > g + 1 && !crate::reduce::board::far_group_reachable(body, far, fin)).then_some((g, l))
    });
    let (ruled_out, reduction) = if let Some((g, l)) = far_gap {
        (
            Some(format!(
                "far group: the men from class {l} on cannot be reached from class {g}"
            )),
            Some(Reduction::FarGroup {
                body_top: g,
                far_from: l,
            }),
        )
    } else if !slack.is_zero() && slack < Golden::pow(max_exponent) {
        (
            Some(format!(
                "Proposition 1: slack {} < σ^{max_exponent} can never be spent",
                slack.sigma_string()
            )),
            Some(Reduction::Proposition1 {
                farthest: max_exponent,
            }),
        )
    } else if slack.is_zero() {
        match tableau(n, fin_classes) {
            Ok(_) => (None, None),
            Err(why) => (Some(why), Some(Reduction::Tableau { class: None })),
        }
    } else {
        (None, None)
    };
    Case {
        slack_sigma: slack.sigma_string(),
        profile,
        slack,
        max_exponent,
        ruled_out,
        reduction,
    }
}

/// The one-dimensional tableau for a zero-slack profile: jumps f_i from class i over i−1
/// into i−2, solved from the top class down. Returns the f_i, or why none exist.
pub fn tableau(n: &[u64], fin_classes: &[i32]) -> Result<Vec<i64>, String> {
    let top = n.len() + 2;
    let mut f = vec![0i64; top + 2];
    let fin = |i: usize| fin_classes.iter().filter(|&&c| c as usize == i).count() as i64;
    for i in (0..top).rev() {
        let ni = n.get(i).copied().unwrap_or(0) as i64;
        f[i] = ni - f[i + 1] + f[i + 2] - fin(i);
        if f[i] < 0 {
            return Err(format!(
                "zero-slack tableau: class {i} would need {} jumps",
                f[i]
            ));
        }
    }
    // A lossless jump from class i lands in class i − 2 >= 1 (exponent 0 holds no cell).
    if f[0] != 0 || f[1] != 0 || f[2] != 0 {
        return Err("zero-slack tableau: jumps would land below the last-jump position".into());
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;
    use crate::problem::geometry::Cell;
    use crate::weight::pagoda::Pagoda;

    #[test]
    fn table_5_diagonal_122_men_at_level_8() {
        let p = Pagoda::improved(&Army::diagonal().lattice(), Cell::xy(1, 1)).start_profile(8);
        let all = enumerate(&p, 122, Golden::ONE, &[1, 2], 40, BUDGET, None);
        assert!(all.complete);
        let cases = all.cases;
        // Every 122-man profile is ruled out: the paper's Table 5 by hand, here by program.
        assert!(!cases.is_empty());
        for c in &cases {
            assert!(c.ruled_out.is_some(), "{} survives", c.key());
        }
        // Table 5, case 1: the heaviest army, n_12 = 31, n_13 = 7, slack σ^14 + σ^16.
        let heaviest = cases
            .iter()
            .find(|c| c.key().ends_with("12:31,13:7"))
            .unwrap();
        assert_eq!(heaviest.slack_sigma, "σ^14 + σ^16");
    }

    #[test]
    fn the_case_cap_stops_the_enumeration() {
        let p = Pagoda::improved(&Army::hexagonal().lattice(), Cell::xy(0, 1)).start_profile(6);
        let all = enumerate(&p, 40, Golden::ONE, &[1, 2], 60, BUDGET, None);
        assert!(all.cases.len() > 10 && all.stopped.is_none());
        let capped = enumerate_capped(&p, 40, Golden::ONE, &[1, 2], 60, BUDGET, 10, None);
        assert_eq!(capped.cases.len(), 10);
        assert!(!capped.complete && capped.stopped == Some(Stop::Cases));
        let few = enumerate(&p, 40, Golden::ONE, &[1, 2], 60, 100, None);
        assert!(!few.complete && few.stopped == Some(Stop::Nodes));
    }

    #[test]
    fn zero_slack_tableau_of_the_123_man_army() {
        // Figure 9e's profile (Table 5, last row) has zero slack and passes the tableau.
        let mut n = vec![0u64; 14];
        for (i, n_i) in n.iter_mut().enumerate().take(12).skip(8) {
            *n_i = 4 * i as u64 - 17;
        }
        n[12] = 28;
        n[13] = 11;
        let w: Golden = n
            .iter()
            .enumerate()
            .map(|(e, &c)| c as i128 * Golden::pow(e as i32))
            .sum();
        assert_eq!(w, Golden::ONE);
        assert!(tableau(&n, &[1, 2]).is_ok());
    }
}
