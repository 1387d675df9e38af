//! The checker's own view of one (army, level, last jump d): exponents of the improved
//! pagoda function, start cells per exponent class, and the premises the board argument
//! needs, all recomputed from the lattice alone.
//!
//! Exponents are 1 + the jump-direction distance from d, by breadth-first search in a
//! square (2-D) or cube (3-D) window. With every direction's entries at most `step` in
//! absolute value (1 for every lattice so far), a cell of exponent e lies within Chebyshev
//! distance (e − 1)·step of d, and so does every shortest path to it, so the search is exact
//! for every e <= (`radius` − |d|∞)/step − 1;
//! [`Space::exact_to`] is that limit, and nothing beyond it is ever used.

use crate::problem::Army;
use crate::problem::geometry::{Cell, Grid, Lattice};
use crate::weight::golden::Golden;
use std::collections::{HashSet, VecDeque};

pub struct Space {
    pub lattice: Lattice,
    pub level: i32,
    pub d: Cell,
    radius: i32,
    /// [`Space::exact_to`], computed once: every exponent read asks for it.
    exact: i32,
    grid: Grid<Option<i32>>,
    /// Start cells (row y >= level) per exponent, exact up to `exact_to`.
    pub counts: Vec<u64>,
    /// The line of cells that weigh 0 under the sharper function (Pablito's Figure 7b),
    /// and the start cells per exponent off it.
    blind: Option<Cell>,
    pub sharp_counts: Option<Vec<u64>>,
}

impl Space {
    /// The space of `army` at `level` for the last jump over `d`, exact for exponents up
    /// to at least `need`.
    pub fn new(army: Army, level: i32, d: Cell, need: i32) -> Space {
        let lattice = army.lattice();
        // Cells of exponent e lie within Chebyshev distance (e − 1)·step of d.
        let step = lattice
            .directions
            .iter()
            .map(|dd| dd.chebyshev())
            .max()
            .unwrap_or(1);
        let radius = (need.max(8) + 2) * step + d.chebyshev();
        let mut grid = Grid::new(radius, lattice.dimension(), None);
        let mut queue = VecDeque::from([d]);
        grid.set(d, Some(1));
        while let Some(c) = queue.pop_front() {
            let e = grid.get(c).unwrap();
            for &dd in &lattice.directions {
                let n = c + dd;
                if grid.inside(n) && lattice.contains(n) && grid.get(n).is_none() {
                    grid.set(n, Some(e + 1));
                    queue.push_back(n);
                }
            }
        }
        let blind = Some(lattice.reflect(d)).filter(|&b| !b.parallel(d));
        let mut space = Space {
            lattice,
            level,
            d,
            radius,
            exact: (radius - d.chebyshev()) / step - 1,
            grid,
            counts: Vec::new(),
            blind,
            sharp_counts: None,
        };
        space.counts = space.count_where(|_| true);
        if !space.sharp_is_pagoda() {
            space.blind = None;
        }
        if space.blind.is_some() {
            space.sharp_counts = Some(space.count_where(|c| !space.is_blind(c)));
        }
        space
    }

    fn count_where(&self, keep: impl Fn(Cell) -> bool) -> Vec<u64> {
        let top = self.exact_to();
        let mut counts = vec![0u64; top as usize + 1];
        for c in self
            .cells()
            .filter(|&c| self.lattice.in_start(c, self.level) && keep(c))
        {
            if let Some(e) = self.exponent(c) {
                counts[e as usize] += 1;
            }
        }
        counts
    }

    /// Whether the sharper function (the line along the mirror image of d weighing 0) is a
    /// pagoda function on every jump of the exact window and {d, 2d} still weighs 1: the
    /// checker's own derivation of which lattices have one (Pablito's far edge).
    fn sharp_is_pagoda(&self) -> bool {
        let (d, d2) = (self.d, (2 * self.d));
        if self.blind.is_none() || self.sharp_weight(d) + self.sharp_weight(d2) != Golden::ONE {
            return false;
        }
        let exact = |c: Cell| self.exponent(c).is_some() || !self.lattice.contains(c);
        self.cells().all(|from| {
            self.lattice.directions.iter().all(|&dd| {
                let over = from + dd;
                let to = from + 2 * dd;
                !(exact(from) && exact(over) && exact(to) && self.lattice.is_jump(from, over, to))
                    || self.sharp_weight(from) + self.sharp_weight(over) >= self.sharp_weight(to)
            })
        })
    }

    /// On the line through the target that weighs 0 under the sharper function.
    pub fn is_blind(&self, c: Cell) -> bool {
        self.blind.is_some_and(|b| {
            // c = t·b for an integer t.
            b.parallel(c) && c.dot(b) % b.dot(b) == 0
        })
    }

    /// The weight of a cell under the sharper function (the plain one when there is none).
    pub fn sharp_weight(&self, c: Cell) -> Golden {
        if self.is_blind(c) {
            Golden::ZERO
        } else {
            self.weight(c)
        }
    }

    /// The heaviest `men` men under the sharper function, if there is one.
    pub fn heaviest_sharp(&self, men: u64) -> Result<Option<Golden>, String> {
        let Some(counts) = &self.sharp_counts else {
            return Ok(None);
        };
        let (mut left, mut e, mut w) = (men, 0usize, Golden::ZERO);
        while left > 0 {
            let c = counts
                .get(e)
                .ok_or("the sharper function's window is too small")?;
            let take = (*c).min(left);
            w += take as i128 * Golden::pow(e as i32);
            left -= take;
            e += 1;
        }
        Ok(Some(w))
    }

    /// Exponents up to this are exact and complete within the window.
    pub fn exact_to(&self) -> i32 {
        self.exact
    }

    /// Every lattice cell of the window, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.lattice
            .window(self.radius)
            .filter(|&c| self.lattice.contains(c))
    }

    /// The exponent of a cell; None outside the lattice or the exact part of the window.
    pub fn exponent(&self, c: Cell) -> Option<i32> {
        if !self.grid.inside(c) {
            return None;
        }
        self.grid.get(c).filter(|&e| e <= self.exact_to())
    }

    pub fn weight(&self, c: Cell) -> Golden {
        Golden::weight(self.exponent(c))
    }

    /// Start cells of exponent `e`; an error beyond the exact window.
    pub fn count(&self, e: i32) -> Result<u64, String> {
        Self::count_in(&self.counts, e, self.exact_to())
    }

    /// Start cells of exponent `e` off the blind line (all of them when there is none).
    pub fn sharp_count(&self, e: i32) -> Result<u64, String> {
        Self::count_in(
            self.sharp_counts.as_ref().unwrap_or(&self.counts),
            e,
            self.exact_to(),
        )
    }

    fn count_in(counts: &[u64], e: i32, exact_to: i32) -> Result<u64, String> {
        if e < 0 {
            return Ok(0);
        }
        counts.get(e as usize).copied().ok_or_else(|| {
            format!("exponent {e} lies beyond the checker's window (exact to {exact_to})")
        })
    }

    /// The heaviest `men` men: classes filled in increasing exponent. Returns the last
    /// class used and the weight.
    pub fn heaviest(&self, men: u64) -> Result<(i32, Golden), String> {
        let (mut left, mut e, mut w) = (men, 0, Golden::ZERO);
        let mut last = 0;
        while left > 0 {
            let take = self.count(e)?.min(left);
            if take > 0 {
                last = e;
            }
            w += take as i128 * Golden::pow(e);
            left -= take;
            e += 1;
        }
        Ok((last, w))
    }

    /// The premises of the board argument and of Proposition 1, on every jump whose cells
    /// have exponents <= `q` (real play never uses another before a man passes q − 1):
    /// exponents of cells one step apart differ by at most 1; a jump loses 0 or at least
    /// σ^top (the pagoda condition, and no jump of type 1.2.1); the Fibonacci extension g_G
    /// is a pagoda function for every pivot G <= q.
    pub fn premises(&self, q: i32) -> Result<(), String> {
        if q > self.exact_to() {
            return Err(format!("exponent {q} lies beyond the checker's window"));
        }
        let ext: Vec<Vec<Golden>> = (0..=q)
            .map(|g| (0..=q).map(|e| extended(e, g)).collect())
            .collect();
        let pow: Vec<Golden> = (0..=q).map(Golden::pow).collect();
        let (d, d2) = (self.d, (2 * self.d));
        if self.weight(d) + self.weight(d2) != Golden::ONE
            || self.sharp_weight(d) + self.sharp_weight(d2) != Golden::ONE
        {
            return Err("the position {d, 2d} does not weigh 1".into());
        }
        let within = |c: Cell| self.exponent(c).filter(|&e| e <= q).map(|e| e as usize);
        let sharp_exponent = |c: Cell| self.exponent(c).filter(|_| !self.is_blind(c));
        // Every condition below depends only on the jump's exponents (plain and sharper):
        // each triple is checked once, at the first jump that has it.
        let mut seen = HashSet::new();
        for from in self.cells() {
            for &dd in &self.lattice.directions {
                let over = from + dd;
                let to = from + 2 * dd;
                let (Some(a), Some(b), Some(c)) = (within(from), within(over), within(to)) else {
                    continue;
                };
                let sharp = [from, over, to].map(sharp_exponent);
                if !seen.insert(([a, b, c], sharp)) {
                    continue;
                }
                if a.abs_diff(b) > 1 || b.abs_diff(c) > 1 {
                    return Err(format!("cells {from:?} and {over:?} differ by more than 1"));
                }
                let loss = pow[a] + pow[b] - pow[c];
                let top = a.max(b).max(c);
                if loss.signum() < 0 || (!loss.is_zero() && loss < pow[top]) {
                    return Err(format!(
                        "jump {from:?} over {over:?} loses {loss}: neither 0 nor >= σ^{top}"
                    ));
                }
                let [sa, sb, sc] = sharp.map(Golden::weight);
                if sa + sb < sc {
                    return Err(format!(
                        "jump {from:?} over {over:?} gains weight under the sharper function"
                    ));
                }
                if let Some(g) = ext.iter().position(|x| x[a] + x[b] < x[c]) {
                    return Err(format!(
                        "jump {from:?} over {over:?} gains weight under g_{g}"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// g_G(e): σ^e up to the pivot G, then Fibonacci multiples of σ^G.
pub fn extended(e: i32, g: i32) -> Golden {
    if e <= g {
        return Golden::pow(e);
    }
    let (mut f0, mut f1) = (1i128, 2i128);
    for _ in g + 1..e {
        (f0, f1) = (f1, f0 + f1);
    }
    f1 * Golden::pow(g)
}
