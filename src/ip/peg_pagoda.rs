//! Pagoda functions of a finite board that rule out given positions of one problem: a small
//! integer program over integer weights −L … L, one per hole, with p(to) <= p(from) + p(over)
//! on every jump, and one indicator per position, set only when the weights rule that position
//! out; it maximises the positions ruled out, within a time limit (HiGHS's best answer then).
//!
//! A position P is ruled out forward (it would have to reach the finish alone f) when
//! p(P) <= p(f) − 1, backward (it would have to be reached from the start S) when
//! p(P) >= p(S) + 1: a jump never raises p. Nothing rests on the solver: the rounded weights
//! are returned only if every jump keeps the pagoda condition in exact integers, and the
//! callers (and the checker) count a position ruled out only by exact sums.

use good_lp::solvers::highs::highs;
use good_lp::{
    Expression, ProblemVariables, Solution, SolverModel, Variable, constraint, variable,
};

/// Which side's positions are to be ruled out.
#[derive(Clone, Copy, Debug)]
pub enum Towards {
    /// Positions that must reach the finish hole alone.
    Finish(usize),
    /// Positions that must be reached from this start.
    Start(u64),
}

/// p(P) for a position given as a bit mask of holes.
pub fn value(p: &[i64], position: u64) -> i64 {
    (0..p.len())
        .filter(|&h| position >> h & 1 == 1)
        .map(|h| p[h])
        .sum()
}

/// Whether the weights rule the position out (exactly).
pub fn rules_out(p: &[i64], position: u64, towards: Towards) -> bool {
    match towards {
        Towards::Finish(f) => value(p, position) < p[f],
        Towards::Start(s) => value(p, position) > value(p, s),
    }
}

/// Integer weights in −`limit` … `limit` satisfying the pagoda condition on every jump
/// (from, over, to) and ruling out as many of `positions` as HiGHS finds within `seconds`;
/// None when it finds none that rules any out.
pub fn ruling_out(
    n: usize,
    jumps: &[(usize, usize, usize)],
    positions: &[u64],
    towards: Towards,
    limit: i32,
    seconds: f64,
) -> Option<Vec<i64>> {
    let mut vars = ProblemVariables::new();
    let p: Vec<Variable> = (0..n)
        .map(|_| vars.add(variable().integer().min(-limit).max(limit)))
        .collect();
    let out: Vec<Variable> = positions
        .iter()
        .map(|_| vars.add(variable().binary()))
        .collect();
    let ruled_out: Expression = out.iter().copied().sum();
    let mut model = vars
        .maximise(ruled_out)
        .using(highs)
        .set_time_limit(seconds);
    model.set_verbose(false);
    for &(a, b, c) in jumps {
        model.add_constraint(constraint!(p[c] <= p[a] + p[b]));
    }
    let sum = |m: u64| -> Expression { (0..n).filter(|&h| m >> h & 1 == 1).map(|h| p[h]).sum() };
    // Enough to switch a row off: |p(P) − p(f)| and |p(P) − p(S)| stay below it.
    let big = (2 * limit as usize * (n + 1) + 2) as f64;
    for (&m, &o) in positions.iter().zip(&out) {
        model.add_constraint(match towards {
            Towards::Finish(f) => constraint!(sum(m) - p[f] <= -1.0 + big * (1.0 - o)),
            Towards::Start(s) => constraint!(sum(m) - sum(s) >= 1.0 - big * (1.0 - o)),
        });
    }
    let solution = model.solve().ok()?;
    let w: Vec<i64> = p
        .iter()
        .map(|&v| solution.value(v).round() as i64)
        .collect();
    let pagoda = jumps.iter().all(|&(a, b, c)| w[c] <= w[a] + w[b]);
    let useful = positions.iter().any(|&m| rules_out(&w, m, towards));
    (pagoda && useful).then_some(w)
}
