//! Pagoda functions: exact weights σ^e, the highest reachable level, lower bounds on army size.
//!
//! Every pagoda function of the paper is a graph distance plus a constant: Figures 3, 4, 5a
//! and 5b are the distance from the target along jump directions (Manhattan, king-move,
//! hexagonal, row); the improved functions of Figures 6a and 7a are one plus the distance
//! from the cell d that the last jump passes over (2d over d into the target), and Figure 7b
//! is the same with one edge of Pablito's triangle at exponent ∞ (weight 0). So a
//! [`Pagoda`] is a source cell, an offset and an optional blind line, and its exponents come
//! from a breadth-first search on the lattice: no exponent table is typed in.
//!
//! The pagoda condition σ^a + σ^b >= σ^c is checked exactly for every jump in the window
//! ([`Pagoda::check`]), together with the jump types of the paper's Table 4 that occur.
//!
//! Premise (`exact_weights` in `problem::file`, which refuses every other model): jumps are
//! unit steps, so a cell of exponent e lies within Chebyshev distance e − offset of the
//! source and [`Pagoda::trusted_exponent`] holds; and in the plane the jumps cut it into
//! cones that are bases of the cells (in space: the six unit jumps, or the fcc lattice's
//! twelve), on which the distance is piecewise linear, so start cells per exponent are a
//! polynomial in each parity class from a
//! little above the level (a desert: above its own cells) on, which [`Profile`] reads off the
//! window. The checker does not use these counts: it weighs start regions in closed form
//! with its own argument (`proof::weigh`), and `tests/weights.rs` compares the two.

use crate::problem::Army;
use crate::problem::geometry::{Cell, Grid, Lattice, StartRegion};
use crate::weight::golden::Golden;
use std::collections::{BTreeSet, VecDeque};

/// Half-width of the window the exponents are computed in: a square in 2-D, a cube in 3-D.
/// Exponents are exact for every cell of the window; counts per exponent are exact up to
/// `trusted_exponent()`.
const RADIUS: i32 = 72;
const RADIUS_3D: i32 = 48;

/// A pagoda function on one lattice: exponent(c) = offset + distance(source, c), or ∞ on
/// blind cells.
#[derive(Clone, Debug)]
pub struct Pagoda {
    pub source: Cell,
    pub offset: i32,
    /// Direction of a line through the target whose cells weigh 0 (Figure 7b).
    pub blind: Option<Cell>,
    pub lattice: Lattice,
    grid: Grid<Option<i32>>,
}

impl Pagoda {
    /// The standard function: distance from the target (Figures 3, 4, 5a, 5b).
    pub fn standard(lattice: &Lattice) -> Pagoda {
        Pagoda::build(lattice, Cell::ORIGIN, 0, None)
    }

    /// One plus the distance from d: the position {d, 2d} before a last jump along d weighs
    /// σ + σ² = 1 (Figures 6a, 7a; Figure 3 for Conway's vertical d).
    pub fn improved(lattice: &Lattice, d: Cell) -> Pagoda {
        Pagoda::build(lattice, d, 1, None)
    }

    /// The paper's improved function for an army and a last jump d: as [`Pagoda::improved`],
    /// with the line along the mirror image of d weighing 0 where that is still a pagoda
    /// function ([`blind_line`]: Pablito's far edge, Figure 7b).
    pub fn paper_improved(army: Army, d: Cell) -> Pagoda {
        let lattice = army.lattice();
        let blind = blind_line(&lattice, d);
        Pagoda::build(&lattice, d, 1, blind)
    }

    fn build(lattice: &Lattice, source: Cell, offset: i32, blind: Option<Cell>) -> Pagoda {
        let dimension = lattice.dimension();
        let radius = if dimension == 3 { RADIUS_3D } else { RADIUS };
        let mut grid = Grid::new(radius, dimension, None);
        let is_blind = |c: Cell| blind.is_some_and(|b| on_line(b, c));
        let mut queue = VecDeque::new();
        if lattice.contains(source) && !is_blind(source) {
            grid.set(source, Some(offset));
            queue.push_back(source);
        }
        while let Some(c) = queue.pop_front() {
            let e = grid.get(c).unwrap();
            for &dd in &lattice.directions {
                let n = c + dd;
                if grid.inside(n) && lattice.contains(n) && !is_blind(n) && grid.get(n).is_none() {
                    grid.set(n, Some(e + 1));
                    queue.push_back(n);
                }
            }
        }
        Pagoda {
            source,
            offset,
            blind,
            lattice: lattice.clone(),
            grid,
        }
    }

    /// Exponents up to this value are complete within the window (all such cells lie in it).
    pub fn trusted_exponent(&self) -> i32 {
        self.offset + self.grid.radius() - self.source.chebyshev() - 4
    }

    /// The exponent of a cell; None for ∞ (blind, or not a lattice cell).
    pub fn exponent(&self, c: Cell) -> Option<i32> {
        *self.grid.get(c)
    }

    pub fn weight(&self, c: Cell) -> Golden {
        Golden::weight(self.exponent(c))
    }

    /// Loss of a jump: w(from) + w(over) − w(to), exact.
    pub fn loss(&self, from: Cell, over: Cell, to: Cell) -> Golden {
        self.weight(from) + self.weight(over) - self.weight(to)
    }

    /// Start cells (the start region at `level`) counted by exponent, exactly, with the
    /// linear tail.
    /// Levels above [`WINDOW_LEVEL`] are beyond the window (see [`StartWeight`] for them).
    pub fn start_profile(&self, level: i32) -> Profile {
        let window = window_level(&self.lattice);
        assert!(
            level <= window,
            "start_profile: level {level} is beyond the pagoda window (at most {window})"
        );
        let top = self.trusted_exponent();
        let mut counts = vec![0u64; (top + 1).max(0) as usize];
        for c in self.lattice.window(self.grid.radius()) {
            if let Some(e) = self.exponent(c)
                && e <= top
                && self.lattice.start.contains(c, level)
            {
                counts[e as usize] += 1;
            }
        }
        Profile::with_linear_tail(counts)
    }

    /// Checks the pagoda condition for every jump in the window and reports which of the
    /// paper's Table 4 jump types occur; see [`PagodaCheck`].
    pub fn check(&self) -> Result<PagodaCheck, String> {
        let mut types = BTreeSet::new();
        let mut lossy_landing_ok = true;
        let mut loss_gap_ok = true;
        let r = self.trusted_exponent().min(self.grid.radius() - 2);
        for from in self.lattice.window(r) {
            for &dd in &self.lattice.directions {
                let (over, to) = (from + dd, from + 2 * dd);
                if !self.lattice.is_jump(from, over, to) {
                    continue;
                }
                let loss = self.loss(from, over, to);
                if loss.signum() < 0 {
                    return Err(format!(
                        "jump {from:?} over {over:?} into {to:?} gains weight: not a pagoda function"
                    ));
                }
                let (Some(a), Some(b), Some(c)) =
                    (self.exponent(from), self.exponent(over), self.exponent(to))
                else {
                    continue;
                };
                let top = a.max(b).max(c);
                types.insert(jump_type(a, b, c));
                // Board limit, step 2: landing above both other cells loses >= σ^{top−1}.
                if c == top && a < top && b < top && loss < Golden::pow(top - 1) {
                    lossy_landing_ok = false;
                }
                // Proposition 1(1): a jump loses nothing or at least σ^top.
                if !loss.is_zero() && loss < Golden::pow(top) {
                    loss_gap_ok = false;
                }
            }
        }
        Ok(PagodaCheck {
            types,
            lossy_landing_ok,
            loss_gap_ok,
        })
    }
}

/// The line through the target along the mirror image of the last jump d, when the improved
/// function with that line weighing 0 is still a pagoda function (checked on every jump of
/// the window) and the position {d, 2d} still weighs 1; derived per lattice, never named.
/// Pablito's triangle has one (Figure 7b: its far edge); on a full plane the line splits the
/// lattice and jumps across it gain weight.
pub fn blind_line(lattice: &Lattice, d: Cell) -> Option<Cell> {
    let b = lattice.reflect(d);
    if on_line(b, d) {
        return None;
    }
    let p = Pagoda::build(lattice, d, 1, Some(b));
    let before = p.weight(d) + p.weight(2 * d);
    (before == Golden::ONE && p.check().is_ok()).then_some(b)
}

fn on_line(b: Cell, c: Cell) -> bool {
    // c = t·b for an integer t.
    b.parallel(c) && c.dot(b) % b.dot(b) == 0
}

/// What [`Pagoda::check`] found.
#[derive(Clone, Debug)]
pub struct PagodaCheck {
    /// Table 4 types that occur (e.g. "1.3.1").
    pub types: BTreeSet<&'static str>,
    /// Every jump landing above both its other cells, at exponent a, loses at least σ^{a−1}.
    pub lossy_landing_ok: bool,
    /// Every jump loses 0 or at least σ^a (Proposition 1, needs no type 1.2.1).
    pub loss_gap_ok: bool,
}

/// The Table 4 type of a jump with exponents (from, over, to), read in whichever direction
/// matches the table.
pub fn jump_type(x: i32, y: i32, z: i32) -> &'static str {
    let a = x.max(y).max(z);
    let pattern = |p: (i32, i32, i32)| (x, y, z) == p || (z, y, x) == p;
    let table: [((i32, i32, i32), &str); 8] = [
        ((a, a, a), "1.1.1"),
        ((a, a, a - 1), "1.2.1"),
        ((a, a - 1, a), "1.2.2"),
        ((a, a - 1, a - 1), "1.2.3"),
        ((a - 1, a, a - 1), "1.2.4"),
        ((a, a - 1, a - 2), "1.3.1"),
        ((a, a - 2, a - 1), "1.3.2"),
        ((a - 1, a, a - 2), "1.3.3"),
    ];
    if let Some((_, t)) = table.iter().find(|(p, _)| pattern(*p)) {
        return t;
    }
    if x == z && y == a {
        return "2.1.1";
    }
    let three = |p: i32, q: i32, r: i32| p == a && q < r && r < a;
    if three(x, y, z) || three(z, y, x) {
        return "3.1.1";
    }
    "other"
}

/// Number of start cells per exponent: explicit below `counts.len()`, then a polynomial of
/// degree at most 2 in each parity class, α_r·e² + β_r·e + γ_r for e ≡ r (mod 2) (the skew
/// army's counts alternate; in 2-D α = 0, counts grow linearly; a 3-D half-space grows
/// quadratically).
#[derive(Clone, Debug)]
pub struct Profile {
    pub counts: Vec<u64>,
    /// (α, β, γ) for even and for odd exponents.
    pub tail: [(i64, i64, i64); 2],
}

impl Profile {
    /// Reads the polynomial off the last three explicit counts of each parity class and
    /// checks that it holds over a stretch of them, so the tail formula is derived, not
    /// assumed.
    fn with_linear_tail(mut counts: Vec<u64>) -> Profile {
        let n = counts.len();
        assert!(n > 40, "pagoda window too small");
        let c = |i: usize| counts[i] as i64;
        let mut tail = [(0, 0, 0); 2];
        for (r, t) in tail.iter_mut().enumerate() {
            let last = if (n - 1) % 2 == r { n - 1 } else { n - 2 };
            // Second differences over steps of 2 are 8α; first differences give β.
            let (e1, e2) = (last as i64 - 2, last as i64);
            let (c0, c1, c2) = (c(last - 4), c(last - 2), c(last));
            let second = c2 - 2 * c1 + c0;
            assert_eq!(
                second % 8,
                0,
                "start cells per exponent are not a polynomial"
            );
            let alpha = second / 8;
            let first = c2 - c1 - alpha * (e2 * e2 - e1 * e1);
            assert_eq!(
                first % 2,
                0,
                "start cells per exponent are not a polynomial"
            );
            let beta = first / 2;
            let gamma = c2 - alpha * e2 * e2 - beta * e2;
            for i in (last - 24..=last).rev().step_by(2) {
                let e = i as i64;
                assert_eq!(
                    c(i),
                    alpha * e * e + beta * e + gamma,
                    "start cells per exponent do not grow polynomially"
                );
            }
            *t = (alpha, beta, gamma);
        }
        counts.truncate(n - 8);
        Profile { counts, tail }
    }

    pub fn count(&self, e: i32) -> u64 {
        if e < 0 {
            0
        } else if (e as usize) < self.counts.len() {
            self.counts[e as usize]
        } else {
            let (alpha, beta, gamma) = self.tail[(e % 2) as usize];
            let e = e as i64;
            (alpha * e * e + beta * e + gamma).max(0) as u64
        }
    }

    /// Exact weight of all start cells: the explicit part plus, for each parity class
    /// starting at e0, Σ_k p(e0 + 2k)σ^{e0+2k} for p(e) = αe² + βe + γ, which is
    /// σ^{e0}(p(e0)·S0 + (4αe0 + 2β)·S1 + 4α·S2) with S0 = Σ_k σ^{2k} = 1/σ = 1 + σ,
    /// S1 = Σ_k kσ^{2k} = 1 and S2 = Σ_k k²σ^{2k} = (1 + σ²)/σ = (1 + σ²)(1 + σ) (all by
    /// σ² + σ = 1 and Σ_k k²x^k = x(1 + x)/(1 − x)³ at x = σ²). For α = 0 this is the
    /// linear form (βe0 + γ)σ^{e0−1} + 2βσ^{e0}.
    pub fn total(&self) -> Golden {
        let m = self.counts.len() as i32;
        let explicit: Golden = (0..m).map(|e| self.count(e) as i128 * Golden::pow(e)).sum();
        let s0 = Golden::pow(-1);
        let s2 = (Golden::ONE + Golden::pow(2)) * Golden::pow(-1);
        let tail: Golden = [m, m + 1]
            .into_iter()
            .map(|e0| {
                let (alpha, beta, gamma) = self.tail[(e0 % 2) as usize];
                let (a, b, g, e) = (alpha as i128, beta as i128, gamma as i128, e0 as i128);
                let p = a * e * e + b * e + g;
                Golden::pow(e0) * (p * s0 + (4 * a * e + 2 * b) * Golden::ONE + 4 * a * s2)
            })
            .sum();
        explicit + tail
    }

    /// The heaviest army of k men, filling start cells by increasing exponent: the men per
    /// exponent (n_e, from exponent 0) and their total weight.
    pub fn heaviest(&self, k: u64) -> (Vec<u64>, Golden) {
        let mut left = k;
        let mut per = Vec::new();
        let mut w = Golden::ZERO;
        let mut e = 0;
        while left > 0 {
            let take = self.count(e).min(left);
            per.push(take);
            w += take as i128 * Golden::pow(e);
            left -= take;
            e += 1;
            assert!(e < 10_000, "start region too small for {k} men");
        }
        (per, w)
    }

    /// The fewest men whose heaviest army weighs at least `target`; None when even all
    /// start cells together weigh no more than `target` (no finite army reaches it).
    pub fn lower_bound(&self, target: Golden) -> Option<u64> {
        if self.total() <= target {
            return None;
        }
        let mut w = Golden::ZERO;
        let mut men = 0u64;
        let mut e = 0;
        loop {
            let c = self.count(e);
            let unit = Golden::pow(e);
            // Men of this exponent still needed, if all of them fit.
            if w + c as i128 * unit >= target {
                for _ in 0..c {
                    w += unit;
                    men += 1;
                    if w >= target {
                        return Some(men);
                    }
                }
            }
            w += c as i128 * unit;
            men += c;
            e += 1;
        }
    }
}

/// The highest level an army can reach: the largest n for which the start rows y >= n weigh
/// more than the target under the standard function (Table 1).
pub fn highest_level(army: Army) -> i32 {
    let p = Pagoda::standard(&army.lattice());
    let mut n = 1;
    while p.start_profile(n + 1).total() > Golden::ONE {
        n += 1;
    }
    n
}

/// The start cells counted under the paper's sharper improved function for the last jump d
/// (Figure 7b: Pablito's far edge weighs 0), when the army has one and it agrees with the
/// plain improved function on every cell where it is not zero; None otherwise. An army
/// must reach the weight of {d, 2d} under both functions, so this only sharpens bounds,
/// while the plain function, finite everywhere, still bounds the board.
pub fn sharper_profile(army: Army, d: Cell, level: i32) -> Option<Profile> {
    let lattice = army.lattice();
    blind_line(&lattice, d)?;
    let (plain, sharp) = (
        Pagoda::improved(&lattice, d),
        Pagoda::paper_improved(army, d),
    );
    let r = sharp.trusted_exponent();
    let agree = lattice.window(r).all(|c| {
        sharp
            .exponent(c)
            .is_none_or(|e| plain.exponent(c) == Some(e))
    });
    agree.then(|| sharp.start_profile(level))
}

/// Levels whose start rows the pagoda window counts exactly: above it the counts per
/// exponent no longer reach their linear tail inside the window. Above this level
/// [`StartWeight`] uses its closed form, and every army is far beyond its highest level.
pub const WINDOW_LEVEL: i32 = 40;

/// Up to this level σ^n (and the start rows' weight) is printed as a + bσ; beyond it the
/// integers outgrow i128 and the weight is printed as σ^n times its exact factor.
const PRINT_EXACT_LEVEL: i32 = 150;

/// The weight of all start rows y >= n under the standard function, exactly, as
/// σ^n (p·n² + q·n + r) with p, q, r in Z\[σ\] (p = 0 in the plane).
///
/// Why that form holds for every n: under the standard function (the distance from the
/// target) row y >= 1 of every army holds a number of cells at exponent y that is a
/// polynomial in y, and beyond them cells at exponents y + 1, y + 2, … in a pattern that
/// does not depend on y (Conway: 1 cell at y, 2 at each e > y; diagonal: 2y + 1 at y and 2
/// at each e > y; hexagonal: y + 1 at y and 2 at each e > y; skew: y + 1 at y and 2 at every
/// second e > y; Pablito: y + 1 at y, none beyond; Z^3: 1 at z, 4(e − z) at each e > z; the
/// fcc lattice: (z + 1)² at z, 4e at each e > z). So the weight of row y is σ^y times a
/// polynomial of degree at most 2 in y, and summing over y >= n gives σ^n times one of the
/// same degree. It is read off the window at three levels and [`StartWeight::of`] checks it
/// against a fourth; the test `closed_form_matches_the_window` checks it at every level the
/// window counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartWeight {
    pub level: i32,
    /// p·n² + q·n + r: the weight divided by σ^n.
    pub factor: Golden,
}

impl StartWeight {
    /// The weight of rows y >= `level` (level >= 1) for `army`.
    pub fn of(army: Army, level: i32) -> StartWeight {
        let p = Pagoda::standard(&army.lattice());
        let factor_at = |n: i32| p.start_profile(n).total() * Golden::pow(-n);
        let window = window_level(&p.lattice);
        if level <= window {
            return StartWeight {
                level,
                factor: factor_at(level),
            };
        }
        // Newton's forward differences from n0: f(n0 + t) = f0 + t·Δ1 + t(t − 1)/2·Δ2.
        let n0 = window - 3;
        let f: Vec<Golden> = (n0..=window).map(factor_at).collect();
        let (d1, d2) = (f[1] - f[0], f[2] - 2 * f[1] + f[0]);
        let third = f[3] - 3 * f[2] + 3 * f[1] - f[0];
        assert!(
            third.is_zero(),
            "start rows' weight is not σ^n (p·n² + q·n + r)"
        );
        let t = (level - n0) as i128;
        StartWeight {
            level,
            factor: f[0] + t * d1 + (t * (t - 1) / 2) * d2,
        }
    }

    /// The exact weight as a + bσ, when it fits (levels up to 150).
    pub fn exact(&self) -> Option<Golden> {
        (self.level <= PRINT_EXACT_LEVEL).then(|| Golden::pow(self.level) * self.factor)
    }

    /// Whether the start rows weigh more than the target. Above [`WINDOW_LEVEL`] they never
    /// do: the weight falls as the level grows, and the test `closed_form_matches_the_window`
    /// checks that it is already at most 1 at that level for every army.
    pub fn exceeds_one(&self) -> bool {
        self.level <= WINDOW_LEVEL && Golden::pow(self.level) * self.factor > Golden::ONE
    }

    /// log10 of the weight (the weight itself underflows f64 beyond level ~1,500).
    pub fn log10(&self) -> f64 {
        self.level as f64 * ((5f64.sqrt() - 1.0) / 2.0).log10() + self.factor.to_f64().log10()
    }
}

impl std::fmt::Display for StartWeight {
    /// "σ^42·(…) = a + bσ ≈ 1.2e-9", or without the a + bσ form above level 150.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "σ^{}·({})", self.level, self.factor)?;
        if let Some(g) = self.exact() {
            write!(f, " = {g}")?;
        }
        let l = self.log10();
        let (e, m) = (l.floor(), 10f64.powf(l - l.floor()));
        write!(f, " ≈ {m:.6}e{e}")
    }
}

/// The highest level whose start region [`Pagoda::start_profile`] counts exactly.
pub fn window_level(lattice: &Lattice) -> i32 {
    match lattice.start {
        _ if lattice.dimension() == 3 => WINDOW_LEVEL_3D,
        StartRegion::HalfSpace => WINDOW_LEVEL,
        _ => desert_window_level(lattice),
    }
}

/// A desert's start region is every cell but the desert's. Every cell of the lattice counted
/// per exponent grows linearly in each parity class from exponent 1 on (the cones of the
/// premise in `problem::file`), and the desert's counts end at its largest exponent, so the
/// region's counts are in their tail from one above it; [`Profile`] reads the tail off the
/// last 26 exponents of the window. So the level is the highest, at most [`WINDOW_LEVEL`],
/// whose desert's cells all have exponent <= top − 29 under the standard function (under an
/// improved one they are at most 2 higher): Conway's square desert of side 2n − 1 reaches
/// 2n − 2, so 20 (38 <= 39), its rhombus n − 1, so 40; a lattice with longer corners stops
/// lower.
fn desert_window_level(lattice: &Lattice) -> i32 {
    let p = Pagoda::standard(lattice);
    let limit = p.trusted_exponent() - 29;
    let top = |n: i32| {
        lattice
            .window(n)
            .filter(|&c| lattice.contains(c) && !lattice.start.contains(c, n))
            .filter_map(|c| p.exponent(c))
            .max()
            .unwrap_or(0)
    };
    let mut n = 1;
    while n < WINDOW_LEVEL && top(n + 1) <= limit {
        n += 1;
    }
    n
}

/// Levels a 3-D start region is counted at exactly: its counts per exponent grow
/// quadratically from the level on (Z^3: 1 + 2(e − n)(e − n + 1) cells at exponent e >= n of
/// the layers z >= n; fcc: (e + 1)² + 4e(e − n)), and the cube window of radius 48 sees them
/// do so over a stretch only up to here.
pub const WINDOW_LEVEL_3D: i32 = 16;

/// Why a level is out of reach: the exact weight of all start cells against the target's.
pub fn impossibility_reason(army: Army, level: i32) -> Option<String> {
    let lattice = army.lattice();
    if lattice.start != StartRegion::HalfSpace {
        return desert_impossibility(&lattice, level);
    }
    let w = StartWeight::of(army, level);
    (!w.exceeds_one()).then(|| {
        let rows = match lattice.dimension() {
            3 => "layers z",
            _ => "rows y",
        };
        format!("pagoda: all {rows} >= {level} together weigh {w} <= 1, the target's weight")
    })
}

/// A desert's start region at level n + 1 lies inside the one at level n, so once a level's
/// region weighs at most 1 every higher level is out of reach too; the weight is counted
/// exactly up to [`window_level`] and borrowed from there beyond it.
fn desert_impossibility(lattice: &Lattice, level: i32) -> Option<String> {
    let at = level.min(window_level(lattice));
    let w = Pagoda::standard(lattice).start_profile(at).total();
    if w > Golden::ONE {
        return None;
    }
    Some(if at == level {
        format!(
            "pagoda: every cell outside the desert of level {level} together weighs {w} ≈ {:.6} <= 1, the target's weight",
            w.to_f64()
        )
    } else {
        format!(
            "pagoda: every cell outside the desert of level {at} together weighs {w} ≈ {:.6} <= 1, and the start region of level {level} lies inside it",
            w.to_f64()
        )
    })
}

#[cfg(test)]
mod tests;
