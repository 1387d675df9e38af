//! Pagoda functions found by linear programming: the best function on a finite window with a
//! geometric tail, made exact and confirmed by the checker's own test ([`crate::proof::lp`]).
//!
//! The variables are the weights of the window max(|x|, |y|) <= R and the tail factor τ
//! (weight τ·σ^(M − R) beyond the window, M the distance from the centre p: the target, or d
//! for a last jump over d, where the improved function of d has its source); the rows are the pagoda condition on every
//! jump touching the window (the tail lemma of [`crate::proof::lp`] covers the rest) and the
//! normalisation (the target, or {d, 2d} before a last jump over d, weighs 1). The objective
//! is the start region's weight (window start cells plus every cell outside the window), or,
//! for a bound on the army size K, the weight of the K heaviest start cells written as
//! K·u + Σ max(0, w − u). HiGHS solves it in floating point; the weights are then scaled by
//! 2^28, rounded to integers, τ lowered a little, and every window weight lowered to what
//! the jumps into it allow (exactly, in Z\[σ\]) until no jump gains weight, and
//! weighed exactly. Nothing is claimed from the floats.

use crate::error::Error;
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::format::LpFunction;
use crate::proof::lp::{self, Weighed, Weights};
use crate::weight::golden::Golden;
use highs::{HighsModelStatus, RowProblem, Sense};

/// How far the window reaches beyond the level by default.
pub const DEFAULT_MARGIN: i32 = 6;
/// The scale of the exact weights: the test position weighs about 2^28 (rounding errors grow
/// like Fibonacci numbers along tight chains of jumps towards the target, so the scale is
/// high; [`crate::proof::lp`] refuses any sum that would overflow).
const SCALE: f64 = (1u64 << 36) as f64;
/// Passes of the lowering repair before giving up.
const REPAIR_PASSES: usize = 200;

/// What one normalisation gave: the exact function and its weights.
#[derive(Clone, Debug)]
pub struct Found {
    pub function: LpFunction,
    pub weighed: Weighed,
    /// The LP's optimum (floating point), for display.
    pub lp_value: f64,
}

impl Found {
    /// The start region weighs less than the test position: no army (of that last jump).
    pub fn rules_out(&self) -> bool {
        self.weighed.rules_out().unwrap_or(false)
    }

    /// Start region over test position, for display.
    pub fn ratio(&self) -> f64 {
        self.weighed.start.to_f64() / self.weighed.goal.to_f64()
    }
}

/// The window radius for a level.
pub fn radius(level: i32, margin: i32) -> Result<i32, Error> {
    let r = level.saturating_add(margin).max(2);
    if r > lp::MAX_RADIUS {
        return Err(Error::Input(format!(
            "level {level} with margin {margin}: the window radius {r} exceeds {} (the exact arithmetic's limit)",
            lp::MAX_RADIUS
        )));
    }
    Ok(r)
}

/// The best function for the normalisation (None: the target; Some(d): {d, 2d}), minimising
/// the start region's weight (`heaviest` None) or the weight of its `heaviest` K cells.
pub fn best(
    lattice: &Lattice,
    level: i32,
    r: i32,
    normalised: Option<Cell>,
    heaviest: Option<u64>,
) -> Result<Found, Error> {
    lp::tail_lemma_applies(lattice).map_err(Error::Input)?;
    let (w, tau, lp_value) = solve_lp(lattice, level, r, normalised, heaviest)?;
    exact(lattice, level, r, &w, tau, normalised, lp_value)
}

fn index(r: i32, Cell(x, y, _): Cell) -> Option<usize> {
    (x.abs() <= r && y.abs() <= r).then(|| ((y + r) * (2 * r + 1) + x + r) as usize)
}

/// The LP in floating point: (window weights, τ, optimum).
fn solve_lp(
    lattice: &Lattice,
    level: i32,
    r: i32,
    normalised: Option<Cell>,
    heaviest: Option<u64>,
) -> Result<(Vec<f64>, f64, f64), Error> {
    let side = 2 * r + 1;
    let cells: Vec<Cell> = (-r..=r)
        .flat_map(|y| (-r..=r).map(move |x| Cell::xy(x, y)))
        .collect();
    let centre = normalised.unwrap_or(Cell::ORIGIN);
    let outside = lp::outside_sum(r, centre).to_f64();
    let mut pb = RowProblem::default();
    let cost = costs(&cells, lattice, level, outside, heaviest);
    let w: Vec<_> = cost[..cells.len()]
        .iter()
        .map(|&c| pb.add_column(c, 0.0..))
        .collect();
    let tau = pb.add_column(cost[cells.len()], 0.0..);
    debug_assert_eq!(w.len(), (side * side) as usize);
    let term = |c: Cell| match index(r, c) {
        Some(i) => (w[i], 1.0),
        None => (tau, Golden::pow(lp::manhattan(centre, c) - r).to_f64()),
    };
    jump_rows(&mut pb, lattice, r, &term);
    match normalised {
        None => pb.add_row(1.0..=1.0, [(w[index(r, Cell::ORIGIN).unwrap()], 1.0)]),
        Some(d) => pb.add_row(
            1.0..=1.0,
            [
                (w[index(r, d).unwrap()], 1.0),
                (w[index(r, 2 * d).unwrap()], 1.0),
            ],
        ),
    }
    if heaviest.is_some() {
        // K·u + Σ s_c with s_c >= w_c − u: at least the K heaviest start cells of the window;
        // u at least the heaviest cell beyond it.
        let u = pb.add_column(cost[cells.len() + 1], 0.0..);
        for (i, c) in cells.iter().enumerate() {
            if lattice.in_start(*c, level) {
                let s = pb.add_column(1.0, 0.0..);
                pb.add_row(0.0.., [(s, 1.0), (u, 1.0), (w[i], -1.0)]);
            }
        }
        let nearest = Golden::pow(lp::nearest_outside(centre)).to_f64();
        pb.add_row(0.0.., [(u, 1.0), (tau, -nearest)]);
    }
    let mut model = pb
        .try_optimise(Sense::Minimise)
        .map_err(|e| Error::Solver(format!("HiGHS refused the pagoda LP: {e:?}")))?;
    model.make_quiet();
    let solved = model
        .try_solve()
        .map_err(|e| Error::Solver(format!("HiGHS failed on the pagoda LP: {e:?}")))?;
    if solved.status() != HighsModelStatus::Optimal {
        return Err(Error::Solver(format!(
            "HiGHS ended the pagoda LP with status {:?}",
            solved.status()
        )));
    }
    let sol = solved.get_solution();
    let cols = sol.columns();
    let value: f64 = cols.iter().zip(&cost).map(|(x, c)| x * c).sum();
    Ok((cols[..w.len()].to_vec(), cols[w.len()], value))
}

/// The pagoda condition on every jump touching the window: w(a) + w(b) − w(c) >= 0, each
/// cell's term from `term` (its column and coefficient).
fn jump_rows(
    pb: &mut RowProblem,
    lattice: &Lattice,
    r: i32,
    term: &dyn Fn(Cell) -> (highs::Col, f64),
) {
    for y in -r - 2..=r + 2 {
        for x in -r - 2..=r + 2 {
            for &d in &lattice.directions {
                let (a, b, c) = (Cell::xy(x, y), Cell::xy(x, y) + d, Cell::xy(x, y) + 2 * d);
                if [a, b, c].iter().all(|&e| index(r, e).is_none()) {
                    continue;
                }
                // τ may stand for two of the three cells: one entry per column.
                let mut row: Vec<(highs::Col, f64)> = Vec::with_capacity(3);
                for (col, v) in [term(a), term(b), (term(c).0, -term(c).1)] {
                    match row.iter_mut().find(|(k, _)| *k == col) {
                        Some(e) => e.1 += v,
                        None => row.push((col, v)),
                    }
                }
                pb.add_row(0.0.., row);
            }
        }
    }
}

/// A small cost on every weight when minimising the heaviest cells: without it the cells
/// that are not start cells may take any weight the jumps allow, and rounding errors grow
/// along them.
const TIE_BREAK: f64 = 1e-4;

/// The objective's coefficients in column order: the window, τ, and for the heaviest cells
/// u and one s per start cell.
fn costs(
    cells: &[Cell],
    lattice: &Lattice,
    level: i32,
    outside: f64,
    heaviest: Option<u64>,
) -> Vec<f64> {
    let start = |c: &Cell| lattice.in_start(*c, level);
    let Some(k) = heaviest else {
        let mut v: Vec<f64> = cells
            .iter()
            .map(|c| if start(c) { 1.0 } else { 0.0 })
            .collect();
        v.push(outside);
        return v;
    };
    let mut v = vec![TIE_BREAK; cells.len()];
    v.push(TIE_BREAK * outside);
    v.push(k as f64);
    v.extend(cells.iter().filter(|c| start(c)).map(|_| 1.0));
    v
}

/// The float weights made exact: scaled, rounded, τ lowered by a small factor (jumps into the
/// tail then keep their room), and every window weight lowered to what the jumps into it
/// allow until no jump gains weight. Confirmed by the checker's test.
fn exact(
    lattice: &Lattice,
    level: i32,
    r: i32,
    w: &[f64],
    tau: f64,
    normalised: Option<Cell>,
    lp_value: f64,
) -> Result<Found, Error> {
    let rounded: Vec<Golden> = w
        .iter()
        .map(|x| Golden::from_int((x * SCALE).round().max(0.0) as i128))
        .collect();
    let mut last = String::new();
    for lower in [1e-6, 1e-4, 1e-3, 1e-2, 3e-2] {
        let mut function = LpFunction {
            radius: r,
            weights: rounded.clone(),
            tail: Golden::from_int((tau * SCALE * (1.0 - lower)).floor().max(0.0) as i128),
            normalised,
            centre: normalised.unwrap_or(Cell::ORIGIN),
        };
        repair(lattice, &mut function);
        match lp::weigh(lattice, level, &function) {
            Ok(weighed) => {
                return Ok(Found {
                    function,
                    weighed,
                    lp_value,
                });
            }
            Err(e) => last = e,
        }
    }
    Err(Error::Solver(format!(
        "the pagoda LP's weights could not be made exact: {last}"
    )))
}

/// Lowers each window weight to what the jumps into it allow, pass after pass, until no jump
/// into the window gains weight (or the passes run out).
fn repair(lattice: &Lattice, f: &mut LpFunction) {
    let r = f.radius;
    for _ in 0..REPAIR_PASSES {
        let mut changed = false;
        for y in -r..=r {
            for x in -r..=r {
                let c = Cell::xy(x, y);
                let i = index(r, c).unwrap();
                let allowed = lattice
                    .directions
                    .iter()
                    .map(|&d| {
                        let w = Weights::new(f);
                        w.get(Cell::xy(x - 2 * d.0, y - 2 * d.1))
                            + w.get(Cell::xy(x - d.0, y - d.1))
                    })
                    .min();
                if let Some(a) = allowed
                    && f.weights[i] > a
                {
                    // Exactly what the jumps allow (in Z[σ] when one comes from the tail).
                    f.weights[i] = a;
                    changed = true;
                }
            }
        }
        // τ last, to an integer: jumps from the window into the tail keep their footing.
        changed |= lower_tail(lattice, f);
        if !changed {
            return;
        }
    }
}

/// Lowers τ to the largest integer the jumps from the window into the tail allow; true when
/// it changed.
fn lower_tail(lattice: &Lattice, f: &mut LpFunction) -> bool {
    let r = f.radius;
    let mut tail = f.tail;
    let w = Weights::new(f);
    for y in -r..=r {
        for x in -r..=r {
            for &d in &lattice.directions {
                let (b, c) = (Cell::xy(x, y) + d, Cell::xy(x, y) + 2 * d);
                // With b outside too, c is one step farther out than b: the jump holds for
                // every τ.
                if w.inside(c) || !w.inside(b) {
                    continue;
                }
                // τ·σ^k <= w(a) + w(b).
                let k = lp::manhattan(f.centre, c) - r;
                let room = (w.get(Cell::xy(x, y)) + w.get(b)) * Golden::pow(-k);
                if tail > room {
                    tail = floor(room);
                }
            }
        }
    }
    let changed = tail != f.tail;
    f.tail = tail;
    changed
}

/// The largest integer at most g (and at least 0).
fn floor(g: Golden) -> Golden {
    let mut n = (g.to_f64().floor() as i128).max(0);
    while n > 0 && Golden::from_int(n) > g {
        n -= 1;
    }
    while Golden::from_int(n + 1) <= g {
        n += 1;
    }
    Golden::from_int(n)
}

/// An upper bound on the weight of the `k` heaviest start cells: the i-th heaviest is at most
/// the larger of the i-th heaviest in the window and the heaviest beyond it (the nearest).
pub fn heaviest_weight(
    lattice: &Lattice,
    level: i32,
    f: &LpFunction,
    k: u64,
) -> Result<Golden, Error> {
    let r = f.radius;
    let w = Weights::new(f);
    let mut start: Vec<Golden> = (-r..=r)
        .flat_map(|y| (-r..=r).map(move |x| Cell::xy(x, y)))
        .filter(|&c| lattice.in_start(c, level))
        .map(|c| w.get(c))
        .collect();
    start.sort_unstable_by(|a, b| b.cmp(a));
    let beyond = lp::checked::mul(f.tail, Golden::pow(lp::nearest_outside(f.centre)))
        .map_err(Error::Solver)?;
    let mut sum = Golden::ZERO;
    for i in 0..k as usize {
        sum = lp::checked::add(
            sum,
            start.get(i).copied().unwrap_or(Golden::ZERO).max(beyond),
        )
        .map_err(Error::Solver)?;
    }
    Ok(sum)
}

/// The largest army size ruled out for the last jump d by one function per size (the K
/// heaviest start cells weigh less than {d, 2d}), searched by bisection up to `cap`; None
/// when no size is ruled out. Some(cap) means every size up to `cap` is.
pub fn ruled_out_up_to(
    lattice: &Lattice,
    level: i32,
    r: i32,
    d: Cell,
    cap: u64,
) -> Result<Option<u64>, Error> {
    let rules_out = |k: u64| -> Result<bool, Error> {
        let f = best(lattice, level, r, Some(d), Some(k))?;
        let heaviest = heaviest_weight(lattice, level, &f.function, k)?;
        Ok(lp::checked::less(heaviest, f.weighed.goal).unwrap_or(false))
    };
    if !rules_out(1)? {
        return Ok(None);
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while hi <= cap && rules_out(hi)? {
        lo = hi;
        hi *= 2;
    }
    if hi > cap {
        if rules_out(cap)? {
            return Ok(Some(cap));
        }
        hi = cap;
    }
    // lo is ruled out, hi is not.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if rules_out(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Some(lo))
}

/// Every LP function of a level: normalised on the target, and per last jump of the split.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub level: i32,
    pub radius: i32,
    pub target: Found,
    pub last_jumps: Vec<(Cell, Found)>,
    /// Per last jump, the sizes ruled out (up to the cap) when asked for.
    pub ruled_out: Vec<(Cell, Option<u64>)>,
}

impl Analysis {
    /// Impossible, proven: the target's function or every last jump's rules every army out.
    pub fn impossible(&self) -> bool {
        self.target.rules_out() || self.last_jumps.iter().all(|(_, f)| f.rules_out())
    }

    /// The proof claim of an impossible level (the fewest functions that carry it).
    pub fn claim(&self) -> Option<crate::proof::format::Claim> {
        use crate::proof::format::Claim;
        if self.target.rules_out() {
            return Some(Claim::PagodaLp {
                functions: vec![self.target.function.clone()],
            });
        }
        self.impossible().then(|| Claim::PagodaLp {
            functions: self
                .last_jumps
                .iter()
                .map(|(_, f)| f.function.clone())
                .collect(),
        })
    }

    /// The army-size lower bound the per-size functions prove: one more than the fewest
    /// sizes ruled out over the last jumps; None when asked for no sizes or when one is
    /// ruled out up to the cap (then the bound is at least cap + 1).
    pub fn size_bound(&self) -> Option<u64> {
        if self.ruled_out.is_empty() {
            return None;
        }
        Some(
            self.ruled_out
                .iter()
                .map(|(_, k)| k.unwrap_or(0) + 1)
                .min()
                .unwrap_or(1),
        )
    }
}

/// The level's LP functions; with `cap`, also the army sizes each last jump's per-size
/// functions rule out (up to `cap`), unless the level is impossible already.
pub fn analyse(
    lattice: &Lattice,
    level: i32,
    margin: i32,
    cap: Option<u64>,
) -> Result<Analysis, Error> {
    let r = radius(level, margin)?;
    let target = best(lattice, level, r, None, None)?;
    let mut last_jumps = Vec::new();
    for d in lattice.last_jump_directions() {
        last_jumps.push((d, best(lattice, level, r, Some(d), None)?));
    }
    let mut a = Analysis {
        level,
        radius: r,
        target,
        last_jumps,
        ruled_out: Vec::new(),
    };
    if let (Some(cap), false) = (cap, a.impossible()) {
        for d in lattice.last_jump_directions() {
            a.ruled_out
                .push((d, ruled_out_up_to(lattice, level, r, d, cap)?));
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;
    use crate::proof::format::{Claim, FORMAT, Proof};

    fn desert(name: &str) -> Army {
        Army::read(std::path::Path::new(&format!("models/{name}.toml"))).unwrap()
    }

    /// The rhombus desert at level 9: the LP's functions (one per last jump) rule it out, and
    /// the checker accepts the claim they make; at level 8 they leave it open.
    #[test]
    fn rhombus_nine_is_ruled_out_and_eight_is_not() {
        let army = desert("desert-rhombus");
        let a = analyse(&army.lattice(), 9, DEFAULT_MARGIN, None).unwrap();
        assert!(a.impossible() && !a.target.rules_out());
        let claim = a.claim().unwrap();
        assert!(matches!(&claim, Claim::PagodaLp { functions } if functions.len() == 1));
        let proof = Proof {
            format: FORMAT.into(),
            program: "test".into(),
            army: army.name().into(),
            model: Some(army.problem().source.clone()),
            fingerprint: Some(army.problem().fingerprint()),
            level: 9,
            claim,
            play: None,
            rounds: Vec::new(),
        };
        crate::proof::check::check(&proof, &Default::default()).unwrap();
        let open = analyse(&army.lattice(), 8, DEFAULT_MARGIN, None).unwrap();
        assert!(!open.impossible() && open.claim().is_none());
    }

    /// Exact weights within a millionth of the LP's optimum: the repair costs almost nothing.
    #[test]
    fn exact_weights_stay_close_to_the_lp() {
        let l = desert("desert-square").lattice();
        for level in [3, 6] {
            let f = best(
                &l,
                level,
                radius(level, DEFAULT_MARGIN).unwrap(),
                Some(Cell::xy(1, 0)),
                None,
            )
            .unwrap();
            assert!((f.ratio() - f.lp_value).abs() < 1e-6, "{level}: {f:?}");
        }
    }
}
