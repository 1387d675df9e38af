//! The fewest moves: a search over all legal plays from a start position for the shortest
//! one (in moves) that reaches a goal, and the proof that none is shorter.
//!
//! A **move** is a run of jumps by one man (as [`crate::proof::verify::count_moves`] counts them): one
//! level of the search is one man making one or more jumps from one position. The search is
//! iterative deepening on the number of moves D, from an admissible lower bound up; depth D is
//! searched exhaustively, so when depth D − 1 fails and depth D finds a play (or a known play of
//! D moves is given as the upper bound), D is the minimum. Positions are sets of men; children
//! are deduplicated exactly, and a transposition table remembers, per position (exact key, up
//! to the lattice's mirror), the largest number of remaining moves shown not to suffice. A
//! problem is data ([`Problem`]): a lattice, optionally a finite set of allowed cells, a start
//! set and a goal ([`Goal::ManOn`] the target, or [`Goal::OneManOn`] it); the target is (0,0).
//!
//! **The bounds, and why each is admissible** (never more than the true number of moves left).
//! Let P be a position with the target empty (for `OneManOn`: P has two men or more).
//!
//! 1. *A move advances the front by at most one cell.* Let dist be the distance in the graph
//!    whose edges are the jump directions (the standard pagoda exponent) and r_t(P) the
//!    smallest dist(m, t) over the men m of P. During a move only the mover changes cells, so
//!    every man it jumps over is a man of P (other than the mover), and every cell it lands on
//!    is b + d for such a man b and a direction d: an edge away from b. So every landing cell
//!    is at distance >= r_t(P) − 1 from t, the other men have not moved, and after one move
//!    r_t >= r_t(P) − 1. Putting a man on t therefore needs at least r_t(P) moves.
//! 2. *The last jump.* Every play that reaches the goal ends with a jump 2d over d into the
//!    target, for a direction d with d and 2d allowed cells. Its over cell d holds a man of the
//!    position before the last move (bound 1's argument: over cells are men of the position
//!    before the move), so a man stood on d after all but one move: by bound 1 with t = d, at
//!    least r_d(P) + 1 moves. Moreover the position just before that last jump contains {d, 2d},
//!    which weighs σ + σ² = 1 under the improved pagoda function of d (exponent 1 + dist from d;
//!    for Pablito the paper's Figure 7b variant, weight 0 on the edge along the mirror of d),
//!    and no jump increases a pagoda weight, so every position of the play before the last jump
//!    weighs >= 1 under it. Hence the admissible bound
//!    `h(P) = min over d with W_d(P) >= 1 of (r_d(P) + 1)`, and h(P) = ∞ (P is dead) when no
//!    direction d has W_d(P) >= 1.
//! 3. *Standard weight.* Under the standard function (exponent = distance from the target) a
//!    position with a man on the target weighs >= 1 = σ^0, so a position weighing less is dead.
//! 4. *Weight near d comes in slowly.* Let e = 1 + dist(d, ·) (the plain improved exponent, a
//!    graph distance, so adjacent cells differ by at most 1), S_J the cells with e <= J (J >= 2,
//!    so S_J holds d and 2d) and T_J(P) the weight Σ σ^e of the men of P in S_J (a truncated
//!    pagoda weight: it can grow). The position before the last jump holds d and 2d, so
//!    T_J >= σ + σ² = 1 there. A move (or a prefix of one: a chain a_0 → … → a_k over
//!    b_1 … b_k) changes T_J by T(a_k) − T(a_0) − Σ T(b_i) <= T(a_k) − T(b_k). If b_k ∈ S_J,
//!    e(b_k) <= e(a_k) + 1, so the change is <= σ^e(a_k) − σ^(e(a_k)+1) = σ^(e(a_k)+2); if
//!    b_k ∉ S_J, e(b_k) >= J + 1, so e(a_k) >= J and the change is <= σ^J (0 if a_k ∉ S_J).
//!    By bound 1, move i lands on exponent >= e_i = max(1, r_d(P) + 1 − i). So move i raises
//!    T_J by at most γ_i = σ^min(e_i + 2, J) when e_i <= J, and not at all otherwise; the
//!    last jump happens in move m (after m − 1 moves and a prefix of move m) only if
//!    T_J(P) + γ_1 + … + γ_m >= 1. The least such m, for J = 3 … 6, is a lower bound for d;
//!    h(P) uses, per d, the largest of bounds 2 and 4.
//! 5. *Merson regions* (finite board, goal `OneManOn`). Call a set R of cells a Merson region
//!    if every jump over a cell of R that starts outside R lands inside R. While R is full,
//!    a jump starting outside R cannot touch it (it would land on a man), so the first jump
//!    that changes a full R starts inside R. Within one move, that first jump starts at the
//!    move's start cell: any later start cell of the chain is a landing cell, empty just
//!    before, so were it in R, R would already have changed in this move. Every full R other
//!    than {target} must change (one man is left, on the target), and one move starts in at
//!    most one of disjoint regions, so the number of disjoint full regions is a lower bound;
//!    h(P) is the larger of it and the bound of 2 and 4. The regions are found from the board
//!    (windows of up to 3 × 3 cells that pass the test, e.g. the English board's eight arm
//!    corners, which no jump passes over).
//!
//! Weights are exact (a + bσ with integers, [`crate::weight::golden::Golden`]); cells whose exponent lies
//! beyond the pagoda's trusted window are given the weight σ^(T+1) and the distance T + 1 − offset
//! (T the trusted exponent): an upper bound on the weight and a lower bound on the distance, so
//! every bound stays admissible. Distances on a finite board are at least those on the whole
//! lattice and a pagoda function restricted to a board is still one, so the bounds hold there
//! too. `tests/moves.rs` checks every bound against a plain breadth-first search on random small
//! positions.
//!
//! **The board is finite without loss**: a play of K men has at most K − 1 jumps and a jump moves
//! its man by 2d (at most 2 in each coordinate), so no man ever leaves the start's bounding box
//! widened by 2(K − 1); the search's grid is that box plus a wall.
//!
//! **Symmetry.** The lattice's mirror fixes the target and maps jumps to jumps, so a position and
//! its mirror image need the same number of moves: keys are canonical (the smaller of the two
//! sorted cell lists) whenever the allowed cells are mirror-symmetric, which the whole lattice is
//! — whether or not the start itself is symmetric ([`Problem::start_is_symmetric`] says which).
//!
//! The transposition table is capped (by entries); when full it stops storing, which only costs
//! time: the search stays exhaustive and correct without it.
//!
//! **Upper bounds** are plays, checked by replay: a seed play (the IP's), and what the *probes*
//! find before the proof starts ([`beam`]: beam searches by levels that reorder the best
//! play's jumps into fewer moves, then free ones over every legal move). Probes are heuristics
//! and prove nothing; the proof is the iterative deepening alone, which stops as soon as its
//! depth reaches the best play.

use crate::problem::Army;
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::Step;
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod beam;
pub use beam::reorder;

/// What counts as solved. The target cell must be (0,0) (translate the problem otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Some man stands on the cell (the solitaire army's goal).
    ManOn(Cell),
    /// Exactly one man is left, on the cell (the classic board's goal).
    OneManOn(Cell),
}

impl Goal {
    pub fn target(self) -> Cell {
        match self {
            Goal::ManOn(c) | Goal::OneManOn(c) => c,
        }
    }
}

/// A search problem, as data.
#[derive(Clone, Debug)]
pub struct Problem {
    pub lattice: Lattice,
    /// The army whose improved pagoda functions to use (Pablito's blind edge); None: the plain
    /// improved functions of the lattice.
    pub army: Option<Army>,
    /// A finite board (allowed cells), or None for the whole lattice.
    pub cells: Option<Vec<Cell>>,
    pub start: Vec<Cell>,
    pub goal: Goal,
}

impl Problem {
    /// An army at a level: checks that every man stands on a lattice cell of the start region
    /// and that no two coincide; the error is one line naming the first bad man.
    pub fn army(army: Army, level: i32, men: &[Cell]) -> Result<Problem, String> {
        let lattice = army.lattice();
        crate::proof::verify::start_position(&lattice, level, men)?;
        if men.is_empty() {
            return Err("the army has no men".into());
        }
        Ok(Problem {
            lattice,
            army: Some(army),
            cells: None,
            start: men.to_vec(),
            goal: Goal::ManOn(Cell::ORIGIN),
        })
    }

    fn allowed(&self, c: Cell) -> bool {
        self.lattice.contains(c) && self.cells.as_ref().is_none_or(|v| v.contains(&c))
    }

    /// Is the board (lattice or finite cells) mapped onto itself by the mirror?
    pub fn board_is_symmetric(&self) -> bool {
        self.cells.as_ref().is_none_or(|v| {
            let s: HashSet<Cell> = v.iter().copied().collect();
            v.iter().all(|&c| s.contains(&self.lattice.reflect(c)))
        })
    }

    /// Is the start position its own mirror image?
    pub fn start_is_symmetric(&self) -> bool {
        let s: HashSet<Cell> = self.start.iter().copied().collect();
        self.start
            .iter()
            .all(|&c| s.contains(&self.lattice.reflect(c)))
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The minimum is proven (a play of that many moves, every shorter depth exhausted).
    Optimal,
    /// No play reaches the goal (the start is dead, or every depth up to K − 1 failed).
    Impossible,
    TimeLimit,
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Impossible => "impossible",
            Status::TimeLimit => "time_limit",
            Status::Interrupted => "interrupted",
        }
    }
}

/// A progress callback: (depth, positions this depth, positions in all).
pub type Progress = Box<dyn FnMut(u32, u64, u64)>;

/// Search options.
pub struct Options {
    pub time_limit: Option<f64>,
    /// Transposition-table cap, in entries.
    pub tt_entries: usize,
    /// A known legal play (its move count is an upper bound; it must reach the goal).
    pub seed: Option<Vec<Step>>,
    /// Set from outside (Ctrl-C) to stop.
    pub interrupt: Option<&'static AtomicBool>,
    /// Positions to spend, before the proof, looking for plays shorter than the seed (beam
    /// searches by levels, not part of the proof); 0: none.
    pub probe_positions: u64,
    /// Called about every quarter second with (depth, positions this depth, total positions).
    pub progress: Option<Progress>,
    /// Depths below this were searched exhaustively by an earlier run of this search on the
    /// same problem (the caller's stamped record of it): the deepening starts here, and the
    /// answer says so ([`Answer::resumed_below`]). 0: none.
    pub resume_depth: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            time_limit: None,
            tt_entries: 4_000_000,
            seed: None,
            probe_positions: 0,
            interrupt: None,
            progress: None,
            resume_depth: 0,
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: Status,
    /// The minimum number of moves, when proven.
    pub min_moves: Option<u32>,
    /// Proven: no play of fewer moves exists.
    pub lower_bound: u32,
    /// The admissible bound of the start position (None: dead).
    pub start_bound: Option<u32>,
    /// The best play known (found by the search, or the seed), with its move count.
    pub play: Option<Vec<Step>>,
    pub play_moves: Option<u32>,
    /// True when `play` was found by the search, false when it is the seed.
    pub found_by_search: bool,
    /// `positions[D]` = positions examined while searching depth D (0 for depths not searched).
    pub positions: Vec<u64>,
    pub seconds: f64,
    pub tt_entries: usize,
    pub tt_full: bool,
    pub start_symmetric: bool,
    /// Positions examined by the probes for shorter plays (not part of the proof).
    pub probe_positions: u64,
    /// Depths from the start bound up to this one (excluded) were not searched here but taken
    /// from an earlier run ([`Options::resume_depth`]): the proof spans both runs.
    pub resumed_below: Option<u32>,
}

/// A fast multiplicative hasher for the exact keys (cell lists) of the tables.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut it = bytes.chunks_exact(8);
        for c in &mut it {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        for &b in it.remainder() {
            self.add(b as u64);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

type FxBuild = BuildHasherDefault<Fx>;
type FxMap<K, V> = HashMap<K, V, FxBuild>;
type FxSet<K> = HashSet<K, FxBuild>;

/// Exact weight a + bσ in 64 bits (every weight used here has |a|, |b| < 2^50).
type W = (i64, i64);

fn golden_to_w(g: Golden) -> W {
    (g.a as i64, g.b as i64)
}

fn at_least_one(w: W) -> bool {
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
    base: Vec<u8>,
    dirs: Vec<isize>,
    target: usize,
    /// The last-jump directions d (d and 2d allowed), all of them.
    pub last_dirs: Vec<Cell>,
    /// Weight tables: [0] standard, [1 + k] improved for last_dirs[k].
    weights: Vec<Vec<W>>,
    /// dist_lb[k][cell]: lower bound on the distance from last_dirs[k].
    dist_lb: Vec<Vec<u16>>,
    key: Vec<u32>,
    mirror_key: Vec<u32>,
    use_mirror: bool,
    goal: Goal,
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
            use_mirror: p.board_is_symmetric(),
            goal: p.goal,
            pow,
            merson: Vec::new(),
            merson_of: Vec::new(),
        }
        .with_merson(p))
    }

    /// Adds bound 5's regions: windows of up to 3 × 3 cells (their allowed cells) such that
    /// every jump over a cell of the region from outside it lands inside it, other than the
    /// target alone.
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
                if merson && r != [Cell::ORIGIN] && !found.contains(&r) {
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

    fn weights_of(&self, men: &[u32]) -> Vec<W> {
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
    fn bound_with(&self, men: &[u32], w: &[W]) -> Option<u32> {
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

    fn is_goal(&self, men: &[u32]) -> bool {
        let t = self.target as u32;
        match self.goal {
            Goal::ManOn(_) => men.contains(&t),
            Goal::OneManOn(_) => men.len() == 1 && men[0] == t,
        }
    }

    /// The canonical key of a position: its sorted cells, or those of its mirror image if
    /// smaller.
    fn canonical(&self, men: &[u32]) -> Vec<u32> {
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

/// One child of a position: the mover's chain of jumps and the position after it.
struct Child {
    steps: Vec<(u32, u32, u32)>,
    men: Vec<u32>,
    weights: Vec<W>,
    key: Vec<u32>,
    bound: Option<u32>,
    goal: bool,
}

enum Verdict {
    Found,
    Fail,
    Stopped,
}

struct Search<'a> {
    t: &'a Tables,
    occ: Vec<u8>,
    tt: FxMap<Box<[u32]>, u8>,
    tt_cap: usize,
    tt_full: bool,
    visits: u64,
    total: u64,
    depth: u32,
    path: Vec<Vec<(u32, u32, u32)>>,
    started: Instant,
    deadline: Option<f64>,
    interrupt: Option<&'static AtomicBool>,
    stopped: Option<Status>,
    /// A cap on `visits` for the current run (probes for shorter plays); hitting it stops the
    /// run without stopping the whole search.
    budget: Option<u64>,
    /// Seconds after which the current probe ends (its budget is then spent).
    probe_deadline: Option<f64>,
    progress: Option<Progress>,
    last_report: f64,
    /// Jumps left per (start cell, direction) when a probe reorders a known play's jumps
    /// (see [`beam`]), used while `restrict` is set.
    avail: Vec<u8>,
    restrict: bool,
}

impl Search<'_> {
    fn should_stop(&mut self) -> bool {
        if self.stopped.is_some() || self.budget.is_some_and(|b| self.visits > b) {
            return true;
        }
        if !self.visits.is_multiple_of(1024) {
            return false;
        }
        let now = self.started.elapsed().as_secs_f64();
        if self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stopped = Some(Status::Interrupted);
        } else if self.deadline.is_some_and(|d| now >= d) {
            self.stopped = Some(Status::TimeLimit);
        } else if self.probe_deadline.is_some_and(|d| now >= d) {
            self.budget = Some(0);
        }
        if now - self.last_report >= 0.25 {
            self.last_report = now;
            let (d, v, t) = (self.depth, self.visits, self.total + self.visits);
            if let Some(f) = self.progress.as_mut() {
                f(d, v, t);
            }
        }
        self.stopped.is_some()
    }

    /// Every move of every man from the position `men` (on `self.occ`) whose resulting position
    /// has a bound below `limit` (so none when `limit` <= 1), deduplicated by resulting position.
    /// Stops early, returning only it, at a move that reaches the goal.
    fn children(&mut self, men: &[u32], w: &[W], limit: u32) -> Vec<Child> {
        let mut out: Vec<Child> = Vec::new();
        let mut seen_pos: FxSet<Vec<u32>> = FxSet::default();
        for (mi, &a0) in men.iter().enumerate() {
            let mut seen_state: FxSet<Vec<u32>> = FxSet::default();
            self.occ[a0 as usize] = 0;
            let mut steps = Vec::new();
            let mut removed = Vec::new();
            let found = self.chain(
                men,
                mi,
                a0,
                w,
                &mut steps,
                &mut removed,
                &mut seen_state,
                &mut seen_pos,
                &mut out,
                limit,
            );
            self.occ[a0 as usize] = 1;
            if found {
                let g = out.pop().unwrap();
                return vec![g];
            }
        }
        out
    }

    /// The weights after a move: the mover leaves `a0` and lands on `c`, the men in `removed`
    /// jumped over are gone (`w`: the weights before, one per function).
    fn weights_after(&self, a0: u32, c: usize, w: &[W], removed: &[u32]) -> Vec<W> {
        let a0 = a0 as usize;
        self.t
            .weights
            .iter()
            .zip(w)
            .map(|(tab, &(x, y))| {
                let (mut x, mut y) = (x + tab[c].0 - tab[a0].0, y + tab[c].1 - tab[a0].1);
                for &r in removed {
                    x -= tab[r as usize].0;
                    y -= tab[r as usize].1;
                }
                (x, y)
            })
            .collect()
    }

    /// Keeps the position after a move as a child when it is the goal, or when its bound
    /// leaves it within `limit` moves and it was not seen before: the men but the mover (and
    /// those jumped over, already off the board), plus `c`.
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &self,
        men: &[u32],
        mi: usize,
        c: usize,
        cw: Vec<W>,
        steps: &[(u32, u32, u32)],
        seen_pos: &mut FxSet<Vec<u32>>,
        out: &mut Vec<Child>,
        (limit, goal): (u32, bool),
    ) {
        let t = self.t;
        let mut child: Vec<u32> = men
            .iter()
            .enumerate()
            .filter(|&(i, m)| i != mi && self.occ[*m as usize] == 1)
            .map(|(_, &m)| m)
            .collect();
        child.push(c as u32);
        let bound = if goal {
            Some(0)
        } else {
            t.bound_with(&child, &cw)
        };
        if bound.is_some_and(|b| b < limit) || goal {
            let key = t.canonical(&child);
            if goal || seen_pos.insert(key.clone()) {
                out.push(Child {
                    steps: steps.to_vec(),
                    men: child,
                    weights: cw,
                    key,
                    bound,
                    goal,
                });
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn chain(
        &mut self,
        men: &[u32],
        mi: usize,
        at: u32,
        w: &[W],
        steps: &mut Vec<(u32, u32, u32)>,
        removed: &mut Vec<u32>,
        seen_state: &mut FxSet<Vec<u32>>,
        seen_pos: &mut FxSet<Vec<u32>>,
        out: &mut Vec<Child>,
        limit: u32,
    ) -> bool {
        let t = self.t;
        for k in 0..t.dirs.len() {
            let d = t.dirs[k];
            let b = (at as isize + d) as usize;
            let c = (at as isize + 2 * d) as usize;
            if self.occ[b] != 1 || self.occ[c] != 0 {
                continue;
            }
            // A probe restricted to a multiset of jumps takes only the jumps left in it.
            let id = at as usize * t.dirs.len() + k;
            let restricted = self.restrict;
            if restricted {
                if self.avail[id] == 0 {
                    continue;
                }
                self.avail[id] -= 1;
            }
            self.occ[b] = 0;
            steps.push((at, b as u32, c as u32));
            removed.push(b as u32);
            let mut state: Vec<u32> = removed.clone();
            state.sort_unstable();
            state.push(c as u32);
            let fresh = seen_state.insert(state);
            let mut found = false;
            if fresh {
                let left = men.len() - removed.len();
                let goal = c == t.target
                    && match t.goal {
                        Goal::ManOn(_) => true,
                        Goal::OneManOn(_) => left == 1,
                    };
                if goal || limit > 1 {
                    let cw = self.weights_after(men[mi], c, w, removed);
                    if goal || at_least_one(cw[0]) {
                        self.offer(men, mi, c, cw, steps, seen_pos, out, (limit, goal));
                    }
                }
                found = goal
                    || self.chain(
                        men, mi, c as u32, w, steps, removed, seen_state, seen_pos, out, limit,
                    );
            }
            removed.pop();
            steps.pop();
            self.occ[b] = 1;
            if restricted {
                self.avail[id] += 1;
            }
            if found {
                return true;
            }
        }
        false
    }

    /// Depth-first search with `r` moves left from `men` (not solved). `key` is its canonical key.
    fn dfs(&mut self, men: &[u32], w: &[W], key: &[u32], r: u32) -> Verdict {
        self.visits += 1;
        if self.should_stop() {
            return Verdict::Stopped;
        }
        if self.tt.get(key).is_some_and(|&f| f as u32 >= r) {
            return Verdict::Fail;
        }
        let kids = self.children(men, w, r);
        if kids.len() == 1 && kids[0].goal {
            self.path.push(kids.into_iter().next().unwrap().steps);
            return Verdict::Found;
        }
        if r > 1 {
            let mut kids: Vec<Child> = kids
                .into_iter()
                .filter(|k| k.bound.is_some_and(|b| b < r))
                .collect();
            kids.sort_by_key(|k| (k.bound, std::cmp::Reverse(k.men.len())));
            for kid in kids {
                self.apply(men, &kid.men);
                let v = self.dfs(&kid.men, &kid.weights, &kid.key, r - 1);
                self.apply(&kid.men, men);
                match v {
                    Verdict::Found => {
                        self.path.push(kid.steps);
                        return Verdict::Found;
                    }
                    Verdict::Stopped => return Verdict::Stopped,
                    Verdict::Fail => {}
                }
            }
        }
        self.remember(key, r);
        Verdict::Fail
    }

    /// The play on the path of the last search that found one.
    fn play(&self, t: &Tables) -> Vec<Step> {
        self.path
            .iter()
            .rev()
            .flatten()
            .map(|&(a, b, c)| Step {
                from: t.cell(a as usize),
                over: t.cell(b as usize),
                to: t.cell(c as usize),
            })
            .collect()
    }

    fn apply(&mut self, from: &[u32], to: &[u32]) {
        for &m in from {
            self.occ[m as usize] = 0;
        }
        for &m in to {
            self.occ[m as usize] = 1;
        }
    }

    fn remember(&mut self, key: &[u32], r: u32) {
        let r = r.min(255) as u8;
        if let Some(f) = self.tt.get_mut(key) {
            *f = (*f).max(r);
        } else if self.tt.len() < self.tt_cap {
            self.tt.insert(key.into(), r);
        } else {
            self.tt_full = true;
        }
    }
}

/// Finds the fewest moves from the problem's start to its goal, with the proof that none is
/// shorter (every smaller depth searched exhaustively under admissible bounds).
pub fn solve(p: &Problem, mut opts: Options) -> Result<Answer, String> {
    let started = Instant::now();
    let t = Tables::new(p)?;
    let men: Vec<u32> = p.start.iter().map(|&c| t.index(c) as u32).collect();
    let mut ans = Answer {
        status: Status::Optimal,
        min_moves: None,
        lower_bound: 0,
        start_bound: None,
        play: None,
        play_moves: None,
        found_by_search: false,
        positions: Vec::new(),
        seconds: 0.0,
        tt_entries: 0,
        tt_full: false,
        start_symmetric: p.start_is_symmetric(),
        probe_positions: 0,
        resumed_below: None,
    };
    let mut upper = match &opts.seed {
        Some(seed) => {
            let moves = check_play(p, seed)?;
            ans.play = Some(seed.clone());
            ans.play_moves = Some(moves);
            Some(moves)
        }
        None => None,
    };
    if t.is_goal(&men) {
        ans.min_moves = Some(0);
        ans.play = Some(Vec::new());
        ans.play_moves = Some(0);
        ans.found_by_search = true;
        ans.seconds = started.elapsed().as_secs_f64();
        return Ok(ans);
    }
    let w = t.weights_of(&men);
    let Some(h0) = t.bound_with(&men, &w) else {
        ans.status = Status::Impossible;
        ans.seconds = started.elapsed().as_secs_f64();
        return Ok(ans);
    };
    ans.start_bound = Some(h0);
    ans.lower_bound = h0;
    let mut s = Search::new(&t, &men, h0, started, &mut opts);
    ans.probe_positions = s.probe(
        p,
        (&men, &w),
        h0,
        &mut upper,
        &mut ans,
        opts.probe_positions,
    )?;
    if s.stopped.is_none() && ans.min_moves.is_none() {
        let first = h0.max(opts.resume_depth);
        if first > h0 {
            ans.resumed_below = Some(first);
            ans.lower_bound = first;
        }
        s.deepen(p, (&men, &w), first, upper, &mut ans)?;
    } else {
        ans.status = s.stopped.unwrap_or(Status::Optimal);
    }
    ans.tt_entries = s.tt.len();
    ans.tt_full = s.tt_full;
    ans.seconds = started.elapsed().as_secs_f64();
    Ok(ans)
}

impl<'a> Search<'a> {
    /// A search from the men `men` (on the board's base occupancy), its first depth `h0`.
    fn new(
        t: &'a Tables,
        men: &[u32],
        h0: u32,
        started: Instant,
        opts: &mut Options,
    ) -> Search<'a> {
        let mut occ = t.base.clone();
        for &m in men {
            occ[m as usize] = 1;
        }
        Search {
            t,
            occ,
            tt: FxMap::default(),
            tt_cap: opts.tt_entries,
            tt_full: false,
            visits: 0,
            total: 0,
            depth: h0,
            path: Vec::new(),
            started,
            deadline: opts.time_limit,
            interrupt: opts.interrupt,
            stopped: None,
            budget: None,
            probe_deadline: None,
            progress: opts.progress.take(),
            last_report: 0.0,
            avail: Vec::new(),
            restrict: false,
        }
    }

    /// Iterative deepening from depth `h0`: each depth searched exhaustively, until a play is
    /// found (its depth is the minimum), the seed's move count `upper` is reached (the seed is
    /// a minimum), no play can be that long (each move removes a man), or the search stops.
    fn deepen(
        &mut self,
        p: &Problem,
        (men, w): (&[u32], &[W]),
        h0: u32,
        upper: Option<u32>,
        ans: &mut Answer,
    ) -> Result<(), String> {
        let key = self.t.canonical(men);
        let most = men.len() as u32 - 1;
        let mut depth = h0;
        loop {
            if upper.is_some_and(|u| depth >= u) {
                ans.min_moves = upper;
                return Ok(());
            }
            if depth > most {
                ans.status = Status::Impossible;
                return Ok(());
            }
            self.depth = depth;
            self.visits = 0;
            self.path.clear();
            let v = self.dfs(men, w, &key, depth);
            if ans.positions.len() <= depth as usize {
                ans.positions.resize(depth as usize + 1, 0);
            }
            ans.positions[depth as usize] = self.visits;
            self.total += self.visits;
            match v {
                Verdict::Found => {
                    let play = self.play(self.t);
                    let moves = check_play(p, &play)?;
                    if moves != depth {
                        return Err(format!(
                            "internal error: the play found at depth {depth} has {moves} moves"
                        ));
                    }
                    ans.min_moves = Some(depth);
                    ans.play = Some(play);
                    ans.play_moves = Some(depth);
                    ans.found_by_search = true;
                    return Ok(());
                }
                Verdict::Fail => {
                    depth += 1;
                    ans.lower_bound = depth;
                }
                Verdict::Stopped => {
                    ans.status = self.stopped.unwrap_or(Status::Interrupted);
                    return Ok(());
                }
            }
        }
    }
}

/// Replays a play with the independent checker (armies) or the rules (other problems) and
/// returns its number of moves; it must reach the goal.
pub fn check_play(p: &Problem, play: &[Step]) -> Result<u32, String> {
    let mut board: HashSet<Cell> = p.start.iter().copied().collect();
    for (i, s) in play.iter().enumerate() {
        let ok = p.lattice.is_jump(s.from, s.over, s.to)
            && p.allowed(s.from)
            && p.allowed(s.over)
            && p.allowed(s.to)
            && board.contains(&s.from)
            && board.contains(&s.over)
            && !board.contains(&s.to);
        if !ok {
            return Err(format!(
                "jump {} {:?} over {:?} into {:?} is illegal",
                i + 1,
                s.from,
                s.over,
                s.to
            ));
        }
        board.remove(&s.from);
        board.remove(&s.over);
        board.insert(s.to);
    }
    let reached = match p.goal {
        Goal::ManOn(c) => board.contains(&c),
        Goal::OneManOn(c) => board.len() == 1 && board.contains(&c),
    };
    if !reached {
        return Err("the play does not reach the goal".into());
    }
    Ok(crate::proof::verify::count_moves(play) as u32)
}
