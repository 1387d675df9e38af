//! The search's finite grid and the admissible lower bounds of the module doc
//! ([`super`]): cells numbered on a box around the start with a wall, the exact pagoda
//! weights of every cell (the standard function and the improved one per last jump), the
//! distance bounds, the Merson regions of a finite board, and the canonical key of a
//! position (up to the mirror).

use super::{Goal, Problem};
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
use std::collections::HashMap;

/// Exact weight a + bσ in 64 bits (every weight used here has |a|, |b| < 2^50).
pub(super) type W = (i64, i64);

fn golden_to_w(g: Golden) -> W {
    (g.a as i64, g.b as i64)
}

pub(super) fn at_least_one(w: W) -> bool {
    Golden::new(w.0 as i128 - 1, w.1 as i128).signum() >= 0
}

fn on_line(b: Cell, c: Cell) -> bool {
    b.0 * c.1 == b.1 * c.0 && (c.0 * b.0 + c.1 * b.1) % (b.0 * b.0 + b.1 * b.1) == 0
}

/// A lower bound on the exponent of a cell under a pagoda function (so σ^e bounds its weight
/// from above); None for a blind cell (weight exactly 0). Exact within the trusted window;
/// beyond it, T + 1.
fn exponent_lb(p: &Pagoda, c: Cell) -> Option<i32> {
    if p.blind.is_some_and(|b| on_line(b, c)) {
        return None;
    }
    let t = p.trusted_exponent();
    let inside = c.0.abs() <= 72 && c.1.abs() <= 72;
    match inside.then(|| p.exponent(c)).flatten() {
        Some(e) if e <= t => Some(e),
        _ => Some(t + 1),
    }
}

/// The pagoda weights of every grid cell (`cell(i)`, `n` cells): the standard function's
/// first, then per last jump d the improved function's (the paper's where it has one); and
/// per d the distance bound from d. Weights come as powers of σ from `pow`.
fn weight_tables(
    p: &Problem,
    last_dirs: &[Cell],
    n: usize,
    cell: &dyn Fn(usize) -> Cell,
    pow: &[W],
) -> (Vec<Vec<W>>, Vec<Vec<u16>>) {
    let mut weights = Vec::new();
    let mut dist_lb = Vec::new();
    let weigh = |f: &Pagoda, i: usize| match exponent_lb(f, cell(i)) {
        None => (0, 0),
        Some(e) => pow[e.clamp(0, 79) as usize],
    };
    let std = Pagoda::standard(&p.lattice);
    weights.push((0..n).map(|i| weigh(&std, i)).collect());
    for &d in last_dirs {
        let weight_fn = match p.army {
            Some(a) if a.lattice().directions == p.lattice.directions => {
                Pagoda::paper_improved(a, d)
            }
            _ => Pagoda::improved(&p.lattice, d),
        };
        let dist_fn = Pagoda::improved(&p.lattice, d);
        weights.push((0..n).map(|i| weigh(&weight_fn, i)).collect());
        dist_lb.push(
            (0..n)
                .map(|i| {
                    let e = exponent_lb(&dist_fn, cell(i)).unwrap_or(i32::MAX);
                    (e - dist_fn.offset).clamp(0, u16::MAX as i32) as u16
                })
                .collect(),
        );
    }
    (weights, dist_lb)
}

/// σ^e for e in 0..80, as exact 64-bit pairs (|coefficients| <= F_80 < 2^56; every exponent
/// used is at most the trusted exponent + 1 <= 69, and a larger one would only be clamped down,
/// which overestimates the weight).
fn powers() -> Vec<W> {
    let mut out = vec![(1i64, 0i64)];
    for _ in 1..80 {
        let g = Golden::new(out.last().unwrap().0 as i128, out.last().unwrap().1 as i128)
            * Golden::SIGMA;
        out.push(golden_to_w(g));
    }
    out
}

/// Precomputed tables on the search's finite grid.
pub struct Tables {
    width: i32,
    x0: i32,
    y0: i32,
    /// 0 free, 2 wall (not an allowed cell, or outside the reachable box).
    pub(super) base: Vec<u8>,
    pub(super) dirs: Vec<isize>,
    pub(super) target: usize,
    /// The last-jump directions d (d and 2d allowed), all of them.
    pub last_dirs: Vec<Cell>,
    /// Weight tables: [0] standard, [1 + k] improved for last_dirs[k].
    pub(super) weights: Vec<Vec<W>>,
    /// dist_lb[k][cell]: lower bound on the distance from last_dirs[k].
    dist_lb: Vec<Vec<u16>>,
    key: Vec<u32>,
    mirror_key: Vec<u32>,
    /// The grid index of each grid cell's mirror image (u32::MAX: off the grid).
    mirror_index: Vec<u32>,
    use_mirror: bool,
    pub(super) goal: Goal,
    /// σ^e, e < 80.
    pow: Vec<W>,
    /// Bound 5's Merson regions (finite board, `OneManOn` only), smallest first: each as a
    /// bit mask over the board's cells (for disjointness) and its size.
    merson: Vec<(u128, u32)>,
    /// For each grid cell, the regions that contain it.
    merson_of: Vec<Vec<u16>>,
}

/// The largest region exponent J used by bound 4.
const NEAR: usize = 6;

impl Tables {
    pub fn new(p: &Problem) -> Result<Tables, String> {
        if p.goal.target() != Cell::ORIGIN {
            return Err("the target must be (0,0)".into());
        }
        if p.lattice.dimension() != 2 {
            return Err("the fewest-moves search takes two-dimensional lattices only".into());
        }
        let men = p.start.len() as i32;
        let margin = 2 * (men - 1).max(0) + 1;
        let wall = 2;
        let pad = margin + wall;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, 0, 0, 0);
        for &Cell(x, y, _) in &p.start {
            xmin = xmin.min(x);
            xmax = xmax.max(x);
            ymin = ymin.min(y);
            ymax = ymax.max(y);
        }
        let (x0, y0) = (xmin - pad, ymin - pad);
        let width = xmax - xmin + 1 + 2 * pad;
        let height = ymax - ymin + 1 + 2 * pad;
        let n = (width as usize) * (height as usize);
        if n > 50_000_000 {
            return Err(format!("the search grid would have {n} cells: too large"));
        }
        let cell = |i: usize| Cell::xy(x0 + (i as i32 % width), y0 + (i as i32 / width));
        let base: Vec<u8> = (0..n)
            .map(|i| {
                let Cell(x, y, _) = cell(i);
                let inner = x >= x0 + wall
                    && x < x0 + width - wall
                    && y >= y0 + wall
                    && y < y0 + height - wall;
                if inner && p.allowed(Cell::xy(x, y)) {
                    0
                } else {
                    2
                }
            })
            .collect();
        let dirs = p
            .lattice
            .directions
            .iter()
            .map(|&Cell(dx, dy, _)| (dy * width + dx) as isize)
            .collect();
        let last_dirs: Vec<Cell> = p
            .lattice
            .directions
            .iter()
            .copied()
            .filter(|&d| p.allowed(d) && p.allowed(2 * d) && p.allowed(Cell::ORIGIN))
            .collect();
        let pow = powers();
        let (weights, dist_lb) = weight_tables(p, &last_dirs, n, &cell, &pow);
        let pack = |Cell(x, y, _): Cell| ((x + 32768) as u32) << 16 | (y + 32768) as u32;
        let key = (0..n).map(|i| pack(cell(i))).collect();
        let mirror_key = (0..n).map(|i| pack(p.lattice.reflect(cell(i)))).collect();
        let grid_index = |Cell(x, y, _): Cell| {
            let (gx, gy) = (x - x0, y - y0);
            let inside = (0..width).contains(&gx) && (0..height).contains(&gy);
            if inside {
                (gy * width + gx) as u32
            } else {
                u32::MAX
            }
        };
        let mirror_index = (0..n)
            .map(|i| grid_index(p.lattice.reflect(cell(i))))
            .collect();
        let target = ((0 - y0) * width + (0 - x0)) as usize;
        Ok(Tables {
            width,
            x0,
            y0,
            base,
            dirs,
            target,
            last_dirs,
            weights,
            dist_lb,
            key,
            mirror_key,
            mirror_index,
            use_mirror: p.board_is_symmetric(),
            goal: p.goal,
            pow,
            merson: Vec::new(),
            merson_of: Vec::new(),
        }
        .with_merson(p))
    }

    /// Adds bound 5's regions: windows of up to 3 × 3 cells (their allowed cells) such that
    /// every jump over a cell of the region from outside it lands inside it.
    fn with_merson(mut self, p: &Problem) -> Tables {
        let (Some(cells), Goal::OneManOn(_)) = (&p.cells, p.goal) else {
            return self;
        };
        if cells.len() > 128 {
            return self;
        }
        let id: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let jumps: Vec<(Cell, Cell, Cell)> = cells
            .iter()
            .flat_map(|&a| p.lattice.directions.iter().map(move |&d| (a, d)))
            .map(|(a, d)| (a, a + d, a + 2 * d))
            .filter(|&(_, b, c)| id.contains_key(&b) && id.contains_key(&c))
            .collect();
        let mut found: Vec<Vec<Cell>> = Vec::new();
        for &Cell(x, y, _) in cells {
            for (w, h) in [
                (1, 1),
                (2, 1),
                (1, 2),
                (2, 2),
                (3, 1),
                (1, 3),
                (3, 2),
                (2, 3),
                (3, 3),
            ] {
                let mut r: Vec<Cell> = (0..w)
                    .flat_map(|i| (0..h).map(move |j| Cell::xy(x + i, y + j)))
                    .filter(|c| id.contains_key(c))
                    .collect();
                r.sort();
                let inside = |c: Cell| r.contains(&c);
                let merson = jumps
                    .iter()
                    .all(|&(a, b, c)| !inside(b) || inside(a) || inside(c));
                if merson && !r.is_empty() && !found.contains(&r) {
                    found.push(r);
                }
            }
        }
        found.sort_by_key(|r| r.len());
        self.merson_of = vec![Vec::new(); self.base.len()];
        for (k, r) in found.iter().enumerate() {
            let mask = r.iter().fold(0u128, |m, c| m | 1u128 << id[c]);
            self.merson.push((mask, r.len() as u32));
            for &c in r {
                let i = self.index(c);
                self.merson_of[i].push(k as u16);
            }
        }
        self
    }

    /// Bound 5: the number of disjoint Merson regions full in the position (chosen greedily,
    /// smallest first; any disjoint family gives a lower bound).
    fn merson_bound(&self, men: &[u32]) -> u32 {
        if self.merson.is_empty() {
            return 0;
        }
        let mut count = vec![0u32; self.merson.len()];
        for &m in men {
            for &k in &self.merson_of[m as usize] {
                count[k as usize] += 1;
            }
        }
        let mut used = 0u128;
        let mut n = 0;
        for (k, &(mask, size)) in self.merson.iter().enumerate() {
            if count[k] == size && used & mask == 0 {
                used |= mask;
                n += 1;
            }
        }
        n
    }

    pub fn index(&self, Cell(x, y, _): Cell) -> usize {
        ((y - self.y0) * self.width + (x - self.x0)) as usize
    }

    pub fn cell(&self, i: usize) -> Cell {
        Cell::xy(
            self.x0 + (i as i32 % self.width),
            self.y0 + (i as i32 / self.width),
        )
    }

    pub(super) fn weights_of(&self, men: &[u32]) -> Vec<W> {
        self.weights
            .iter()
            .map(|t| {
                men.iter().fold((0, 0), |acc, &m| {
                    (acc.0 + t[m as usize].0, acc.1 + t[m as usize].1)
                })
            })
            .collect()
    }

    /// The admissible lower bound of the module doc on the moves still needed from a position
    /// that is not yet solved; None when it is dead (no play from it reaches the goal).
    pub(super) fn bound_with(&self, men: &[u32], w: &[W]) -> Option<u32> {
        if !at_least_one(w[0]) {
            return None;
        }
        let mut best: Option<u32> = None;
        for k in 0..self.last_dirs.len() {
            if !at_least_one(w[1 + k]) {
                continue;
            }
            let t = &self.dist_lb[k];
            // Men per exponent 1 + dist(d, ·), for the exponents up to NEAR.
            let mut near = [0i64; NEAR + 1];
            let mut r = u16::MAX;
            for &m in men {
                let e = t[m as usize];
                r = r.min(e);
                if (e as usize) < NEAR {
                    near[e as usize + 1] += 1;
                }
            }
            let r = r as u32;
            let mut h = r + 1;
            for j in 3..=NEAR {
                h = h.max(self.gain_bound(&near, r, j));
            }
            best = Some(best.map_or(h, |b| b.min(h)));
        }
        best.map(|b| b.max(self.merson_bound(men)))
    }

    /// Bound 4 of the module doc for one last-jump direction d and one region S_J (exponent
    /// 1 + dist(d, ·) at most J): the fewest m with T_J + Σ_{i<=m} γ_i >= 1, where T_J is the
    /// weight of the men in S_J and γ_i = σ^{min(e_i + 2, J)} if e_i <= J, else 0, with
    /// e_i = max(1, r + 1 − i) the smallest exponent move i can land on.
    fn gain_bound(&self, near: &[i64; NEAR + 1], r: u32, j: usize) -> u32 {
        let pow = &self.pow;
        let mut total = (0i64, 0i64);
        for (e, &n) in near.iter().enumerate().take(j + 1).skip(1) {
            total.0 += n * pow[e].0;
            total.1 += n * pow[e].1;
        }
        if at_least_one(total) {
            return 0;
        }
        let mut m = 0u32;
        loop {
            m += 1;
            let e = (r as i64 + 1 - m as i64).max(1) as usize;
            if e <= j {
                let g = pow[(e + 2).min(j)];
                total.0 += g.0;
                total.1 += g.1;
            }
            if at_least_one(total) {
                return m;
            }
        }
    }

    pub(super) fn is_goal(&self, men: &[u32]) -> bool {
        let t = self.target as u32;
        match self.goal {
            Goal::ManOn(_) => men.contains(&t),
            Goal::OneManOn(_) => men.len() == 1 && men[0] == t,
        }
    }

    /// The grid index of each grid cell's mirror image (u32::MAX: off the grid), when
    /// positions are kept up to the mirror; None otherwise.
    pub(super) fn mirror_grid(&self) -> Option<&[u32]> {
        self.use_mirror.then_some(&self.mirror_index[..])
    }

    /// The canonical key of a position: its sorted cells, or those of its mirror image if
    /// smaller.
    pub(super) fn canonical(&self, men: &[u32]) -> Vec<u32> {
        let mut a: Vec<u32> = men.iter().map(|&m| self.key[m as usize]).collect();
        a.sort_unstable();
        if self.use_mirror {
            let mut b: Vec<u32> = men.iter().map(|&m| self.mirror_key[m as usize]).collect();
            b.sort_unstable();
            if b < a {
                return b;
            }
        }
        a
    }
}

/// The lower bound of the module doc for a position given in cells: Some(0) when it is solved,
/// None when it is dead. Public so tests can check it against a breadth-first search.
pub fn lower_bound(p: &Problem, position: &[Cell]) -> Result<Option<u32>, String> {
    let t = Tables::new(&Problem {
        start: position.to_vec(),
        ..p.clone()
    })?;
    let men: Vec<u32> = position.iter().map(|&c| t.index(c) as u32).collect();
    if t.is_goal(&men) {
        return Ok(Some(0));
    }
    let w = t.weights_of(&men);
    Ok(t.bound_with(&men, &w))
}
