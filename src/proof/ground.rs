//! The ground of the checker's search by moves ([`super::moves`]): the cells it plays on,
//! the jumps, the target, and the tables of its lower bound on the moves a position still
//! needs.
//!
//! **The ground.** A board's ground is its holes. An army's is every lattice cell in the
//! bounding box of its start widened by 2(K − 1) on each side (K men): a play has at most
//! K − 1 jumps, and a jump moves its man by 2d, at most 2 in each coordinate, so no man of
//! any play ever stands outside it, and every jump of a play has its three cells in it.
//!
//! **The bound, and why it is admissible** (never more than the moves a play from P still
//! needs). Let dist_s be the distance from s in the graph on the ground whose edges join c and
//! c + d for every jump direction d (both cells in the ground), so |dist_s(c) − dist_s(c + d)|
//! <= 1. Let t be the target and B the cells a last jump into t passes over (every jump
//! b + e, b, t of the ground).
//! 1. *A man reaches s in at least r_s(P) = min over the men m of P of dist_s(m) moves.* In a
//!    move only the mover changes cells, and every cell it lands on is b + e for a man b of P
//!    it jumps over (not the mover) and a direction e, so every man after the move is at
//!    distance >= r_s(P) − 1 from s.
//! 2. *Weights.* w_s(c) = σ^(dist_s(c) + o) (0 where s cannot be reached) is a pagoda
//!    function on the ground: for a jump a, a + e, a + 2e the exponents x, y, z of its cells
//!    differ by at most 1 in turn, so σ^z <= σ^y when z >= y, and σ^z = σ^(y−1) = σ^y + σ^(y+1)
//!    <= σ^y + σ^x when z = y − 1: no jump increases the weight of a position. With o = 0 and
//!    s = t a position with a man on t weighs >= 1; with o = 1 and s = b ∈ B the position
//!    before a last jump over b holds b and its neighbour b + e, and weighs >= σ + σ² = 1. A
//!    position weighing less than 1 under w_t can never put a man on t; one weighing less
//!    than 1 under w_b can never make a last jump over b. Weights use exponents up to 80 only
//!    (σ^min(x, 80) >= σ^x), which can only keep more positions.
//! 3. The last jump over b happens in the last move, and b holds a man of the position before
//!    that move, reached after at least r_b(P) moves (1): so at least r_b(P) + 1 moves. Hence
//!    h(P) = min over b ∈ B with w_b(P) >= 1 of r_b(P) + 1, and P is dead (h = ∞) when
//!    w_t(P) < 1 or no b is left. A position k moves after the start is kept only if
//!    k + h(P) <= m − 1; the positions dropped have no play of fewer than m moves in all.
//! 4. On a board, h(P) is raised to the moves P's full Merson regions cost, a bound admissible
//!    by its own argument ([`super::merson`]); the larger of two admissible bounds is one.

use crate::problem::geometry::{Cell, Lattice};
use crate::weight::golden::Golden;
use std::collections::{HashMap, VecDeque};

/// The most cells an army's ground may have.
pub const MAX_CELLS: usize = 2_000_000;

/// The largest exponent a weight uses (coefficients of σ^80 are below 2^56).
const TOP: u32 = 80;

/// Where the search plays: cells, jumps, the target and the bound's tables.
pub struct Ground {
    pub cells: Vec<Cell>,
    /// Per cell: (over, to) of every jump from it.
    pub(super) jumps: Vec<Vec<(u32, u32)>>,
    pub(super) target: u32,
    /// The goal is one man left, on the target (a board), not a man on it (an army).
    pub(super) one_man: bool,
    /// The cells a last jump passes over, sorted.
    pub last_over: Vec<Cell>,
    /// dist[0] from the target, dist[1 + k] from last_over[k]; u32::MAX: out of reach.
    pub(super) dist: Vec<Vec<u32>>,
    /// Weights by the same index: σ^dist from the target, σ^(1 + dist) from each b.
    pub(super) weights: Vec<Vec<Golden>>,
    /// A board's Merson regions ([`super::merson`]); none for an army's ground.
    pub(super) merson: Vec<Vec<u32>>,
}

impl Ground {
    /// The ground on `cells` with jumps along `directions`; `target` must be a cell.
    pub fn new(
        cells: Vec<Cell>,
        directions: &[Cell],
        target: Cell,
        one_man: bool,
    ) -> Result<Ground, String> {
        let at: HashMap<Cell, u32> = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect();
        let t = *at
            .get(&target)
            .ok_or("the target is not a cell of the ground")?;
        let jumps: Vec<Vec<(u32, u32)>> = cells
            .iter()
            .map(|&c| {
                let step = |d: Cell| Some((*at.get(&(c + d))?, *at.get(&(c + 2 * d))?));
                directions.iter().filter_map(|&d| step(d)).collect()
            })
            .collect();
        let over: Vec<Cell> = jumps
            .iter()
            .flatten()
            .filter(|&&(_, to)| to == t)
            .map(|&(b, _)| cells[b as usize])
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let neighbours = |i: usize| {
            let c = cells[i];
            directions
                .iter()
                .flat_map(move |&d| [c + d, c - d])
                .filter_map(|n| at.get(&n).copied())
        };
        let sources = std::iter::once(t).chain(over.iter().map(|b| at[b]));
        let dist: Vec<Vec<u32>> = sources
            .map(|s| distances(cells.len(), s, &neighbours))
            .collect();
        let weights = dist
            .iter()
            .enumerate()
            .map(|(k, d)| {
                let o = u32::from(k > 0);
                d.iter()
                    .map(|&x| match x {
                        u32::MAX => Golden::ZERO,
                        x => Golden::pow((x + o).min(TOP) as i32),
                    })
                    .collect()
            })
            .collect();
        let merson = match one_man {
            true => super::merson::regions(&cells, &jumps),
            false => Vec::new(),
        };
        Ok(Ground {
            cells,
            jumps,
            target: t,
            one_man,
            last_over: over,
            dist,
            weights,
            merson,
        })
    }

    /// The ground of an army's play: every lattice cell of the start's box widened by
    /// 2(K − 1) (see the module doc).
    pub fn army(lattice: &Lattice, start: &[Cell]) -> Result<Ground, String> {
        if lattice.dimension() != 2 || start.is_empty() {
            return Err("only two-dimensional armies with men are searched".into());
        }
        let m = 2 * (start.len() as i32 - 1);
        let (x0, x1) = span(start.iter().map(|c| c.0), m);
        let (y0, y1) = span(start.iter().map(|c| c.1), m);
        let size = (x1 - x0 + 1) as usize * (y1 - y0 + 1) as usize;
        if size > MAX_CELLS {
            return Err(format!(
                "the ground would have {size} cells, over {MAX_CELLS}"
            ));
        }
        let cells: Vec<Cell> = (y0..=y1)
            .flat_map(|y| (x0..=x1).map(move |x| Cell::xy(x, y)))
            .filter(|&c| lattice.contains(c))
            .collect();
        Ground::new(cells, &lattice.directions, Cell::ORIGIN, false)
    }

    pub(super) fn index(&self, c: Cell) -> Option<u32> {
        self.cells.iter().position(|&x| x == c).map(|i| i as u32)
    }

    pub(super) fn is_goal(&self, men: &[u32]) -> bool {
        match self.one_man {
            true => men == [self.target],
            false => men.contains(&self.target),
        }
    }

    /// The bound h of the module doc, and on a board at least the moves its full Merson
    /// regions cost ([`super::merson`]); None: dead. `men` sorted.
    pub(super) fn bound(&self, men: &[u32]) -> Option<u32> {
        if self.is_goal(men) {
            return Some(0);
        }
        let weighs_one = |k: usize| {
            let w = men
                .iter()
                .fold(Golden::ZERO, |s, &m| s + self.weights[k][m as usize]);
            w >= Golden::ONE
        };
        if !weighs_one(0) {
            return None;
        }
        (1..self.dist.len())
            .filter(|&k| weighs_one(k))
            .filter_map(|k| {
                let r = men.iter().map(|&m| self.dist[k][m as usize]).min()?;
                (r != u32::MAX).then_some(r + 1)
            })
            .min()
            .map(|h| h.max(super::merson::bound(&self.merson, men)))
    }
}

/// The least and greatest of `v`, widened by `m`.
fn span(v: impl Iterator<Item = i32> + Clone, m: i32) -> (i32, i32) {
    let lo = v.clone().min().unwrap_or(0).min(0);
    let hi = v.max().unwrap_or(0).max(0);
    (lo - m, hi + m)
}

/// Breadth-first distances from `s` over `n` cells.
fn distances<I: Iterator<Item = u32>>(
    n: usize,
    s: u32,
    neighbours: &dyn Fn(usize) -> I,
) -> Vec<u32> {
    let mut d = vec![u32::MAX; n];
    d[s as usize] = 0;
    let mut queue = VecDeque::from([s]);
    while let Some(c) = queue.pop_front() {
        for x in neighbours(c as usize) {
            if d[x as usize] == u32::MAX {
                d[x as usize] = d[c as usize] + 1;
                queue.push_back(x);
            }
        }
    }
    d
}

#[cfg(test)]
impl Ground {
    /// A rectangle of holes (row by row) with the four orthogonal jumps, finishing with one
    /// man on `t`: the tests' small boards.
    pub(super) fn rectangle(
        xs: std::ops::RangeInclusive<i32>,
        ys: std::ops::RangeInclusive<i32>,
        t: Cell,
    ) -> Ground {
        let cells = ys.flat_map(|y| xs.clone().map(move |x| Cell::xy(x, y)));
        let dirs = [
            Cell::xy(1, 0),
            Cell::xy(-1, 0),
            Cell::xy(0, 1),
            Cell::xy(0, -1),
        ];
        Ground::new(cells.collect(), &dirs, t, true).unwrap()
    }
}
