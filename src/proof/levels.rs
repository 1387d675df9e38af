//! The checker's search by levels for a board claim: every position reached from the start,
//! one level per jump, each kept up to a group of symmetries and pruned by pagoda functions
//! already verified, counted level by level so that a stated count can be compared.
//!
//! It is written for the checker alone (boards of at most 64 holes, positions as `u64` bit
//! masks) and shares no code with the search in `crate::play`. A level is built on every
//! core (slices of the level expanded apart, their sorted results merged), which changes
//! the time, not the set.
//!
//! **Premises of the pruning** (the caller verifies both before calling [`search`]):
//! 1. every pagoda p satisfies p(to) <= p(from) + p(over) for every jump, so a jump never
//!    increases p(position) (it removes from and over, adds to); a position P with
//!    p(P) < p(finish alone) therefore never reaches the finish alone, and dropping it loses no
//!    play;
//! 2. every symmetry g (a permutation of the holes) maps jumps to jumps and fixes the finish
//!    hole, so P reaches the finish alone exactly when g(P) does: keeping one image per orbit
//!    loses no play. The pagodas are closed under the group here (p∘g for every p and g), so
//!    whether a position is pruned does not depend on which image of its orbit is kept, and
//!    the counts do not depend on how an image is chosen.

pub(super) use canon::Canon;
pub use canon::byte_tables;
use indicatif::{ProgressBar, ProgressStyle};

/// The board and the prunings of a search.
pub struct Space<'a> {
    /// Number of holes (at most 64).
    pub n: usize,
    /// (from, over, to) hole indices.
    pub jumps: &'a [(usize, usize, usize)],
    /// Symmetries as permutations of the holes (image of hole h at index h); the identity
    /// may be among them or not.
    pub perms: &'a [Vec<usize>],
    /// Pagoda functions, one weight per hole.
    pub pagodas: &'a [Vec<i64>],
    /// The finish hole.
    pub finish: usize,
    /// The most positions one level may hold before the search stops.
    pub max_level: usize,
    /// Told (level index, positions kept) as each level after the first is built, on either
    /// side, besides the progress bar.
    pub log: Option<&'a dyn Fn(usize, usize)>,
    /// Whether each side draws its progress bar on stderr (the caller's choice: not under
    /// `-q`, nor when stderr is not a terminal).
    pub shown: bool,
    /// Asked before each level is built: true stops the search as a level over `max_level`
    /// would (the solver's Ctrl-C, which it tells apart itself; the checker passes None).
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// How a search ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Positions kept at each level, forward (level j: j jumps made from the start) and
    /// backward (level k: k jumps before the finish alone), and the positions the two last
    /// levels share (zero: no play).
    Counts {
        forward: Vec<u64>,
        backward: Vec<u64>,
        shared: u64,
    },
    /// A level would hold more than `max_level` positions: (forward?, its index).
    TooMany(bool, usize),
}

/// Pagodas closed under the group, as (weights, bound), without repeats: forward the value at
/// the finish alone, backward the greatest value at an image of `start`.
fn closure(s: &Space, start: u64, forward: bool) -> Vec<(Vec<i64>, i64)> {
    let mut out: Vec<(Vec<i64>, i64)> = Vec::new();
    for p in s.pagodas {
        for g in s.perms.iter().map(Some).chain([None]) {
            // q = p∘g⁻¹: q(g(h)) = p(h), so q(g(P)) = p(P).
            let mut q = vec![0i64; s.n];
            for h in 0..s.n {
                q[g.map_or(h, |g| g[h])] = p[h];
            }
            let value = |p: u64| (0..s.n).filter(|&h| p >> h & 1 == 1).map(|h| q[h]).sum();
            let bound = if forward {
                q[s.finish]
            } else {
                let images = s.perms.iter().map(|g| image(g, start));
                images.chain([start]).map(value).max().unwrap_or(0)
            };
            if !out.iter().any(|(r, _)| *r == q) {
                out.push((q, bound));
            }
        }
    }
    out
}

/// The image of a position under a permutation of the holes.
fn image(g: &[usize], p: u64) -> u64 {
    (0..g.len())
        .filter(|&h| p >> h & 1 == 1)
        .fold(0, |m, h| m | 1 << g[h])
}

/// The pagodas as per-byte sum tables: value(P) = Σ_k table[k][byte k of P], each with its
/// bound: forward, the value at the finish alone (a lower bound on every position that reaches
/// it); backward, the most it takes on any start of the orbit (an upper bound on every
/// position reached from one).
struct Values {
    tables: Vec<(Vec<[i64; 256]>, i64)>,
    /// The weights of each pagoda by hole.
    weights: Vec<Vec<i64>>,
    forward: bool,
}

impl Values {
    fn new(n: usize, pagodas: Vec<(Vec<i64>, i64)>, forward: bool) -> Values {
        let weights = pagodas.iter().map(|(w, _)| w.clone()).collect();
        let tables = pagodas
            .into_iter()
            .map(|(w, at)| {
                let t = (0..n.div_ceil(8))
                    .map(|k| {
                        let mut t = [0i64; 256];
                        for (byte, slot) in t.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let h = 8 * k + bit;
                                if byte >> bit & 1 == 1 && h < n {
                                    *slot += w[h];
                                }
                            }
                        }
                        t
                    })
                    .collect();
                (t, at)
            })
            .collect();
        Values {
            tables,
            weights,
            forward,
        }
    }

    /// The value of p under each pagoda, into `out`.
    fn values(&self, p: u64, out: &mut [i64]) {
        for (slot, (t, _)) in out.iter_mut().zip(&self.tables) {
            *slot = t
                .iter()
                .enumerate()
                .map(|(k, t)| t[(p >> (8 * k)) as usize & 255])
                .sum();
        }
    }

    /// [`Values::pruned`] of the position whose values are `values` plus `change`.
    fn pruned_after(&self, values: &[i64], change: &[i64]) -> bool {
        values
            .iter()
            .zip(change)
            .zip(&self.tables)
            .any(|((v, d), (_, bound))| {
                let v = v + d;
                if self.forward { v < *bound } else { v > *bound }
            })
    }

    /// Premise 1: forward, some pagoda is lower on p than on the finish alone; backward,
    /// some pagoda is higher on p than on every start of the orbit.
    fn pruned(&self, p: u64) -> bool {
        self.tables.iter().any(|(t, bound)| {
            let v: i64 = t
                .iter()
                .enumerate()
                .map(|(k, t)| t[(p >> (8 * k)) as usize & 255])
                .sum();
            if self.forward { v < *bound } else { v > *bound }
        })
    }
}

/// The meet in the middle: forward levels 0 … `depth` from `start` (or fewer, when a level
/// is empty), backward levels 0 … N − `depth` from the finish alone (N = holes − 2 jumps in
/// any play; backward a jump is undone: `to` full, `from` and `over` empty), and the positions
/// the forward level `depth` and the backward level N − `depth` share. Both sides are kept up
/// to the group (which fixes the finish, premise 2), so both are unions of orbits: they share
/// an orbit exactly when some start of the orbit reaches the finish alone, which holds exactly
/// when `start` does (a symmetry fixing the finish maps the plays of one to the other).
pub fn meet(s: &Space, start: u64, depth: usize) -> Outcome {
    let total = s.n.saturating_sub(2);
    let depth = depth.min(total);
    let mut ahead = Side::new(s, start, start, true);
    while ahead.depth() < depth && !ahead.level.is_empty() {
        if let Err(j) = ahead.advance(s) {
            return Outcome::TooMany(true, j);
        }
    }
    if ahead.level.is_empty() {
        // No position survives: nothing reaches the finish, and no backward side is needed.
        return ahead.alone();
    }
    // The forward side's last level is held while the backward side runs.
    ahead.level.shrink_to_fit();
    let mut back = Side::new(s, start, 1u64 << s.finish, false);
    while back.depth() < total - depth && !back.level.is_empty() {
        if let Err(k) = back.advance(s) {
            return Outcome::TooMany(false, k);
        }
    }
    met(ahead, back, total)
}

/// [`meet`] at the depth where the two sides' levels stay smallest, found as they grow: each
/// step extends the side whose last level is smaller, until the two depths add up to N. The
/// outcome is the one [`meet`] gives at the forward depth reached (the levels of a side do not
/// depend on the other, and a forward side that dies out ends the search there in both), so a
/// checker calling [`meet`] with the stated depth recomputes the same counts. A side's level
/// is built only when it is the smaller one, so the largest level held is about the smaller
/// of the two sides' middle levels, not the forward side's.
pub fn balanced(s: &Space, start: u64) -> Outcome {
    let total = s.n.saturating_sub(2);
    let mut ahead = Side::new(s, start, start, true);
    let mut back = Side::new(s, start, 1u64 << s.finish, false);
    loop {
        if ahead.level.is_empty() {
            return ahead.alone();
        }
        if back.level.is_empty() || ahead.depth() + back.depth() == total {
            return met(ahead, back, total);
        }
        let forward = ahead.level.len() <= back.level.len();
        let side = if forward { &mut ahead } else { &mut back };
        if let Err(j) = side.advance(s) {
            return Outcome::TooMany(forward, j);
        }
    }
}

/// Every level of one side, 0 … `depth` (fewer when one is empty), each sorted: forward from
/// `start`, backward from the finish alone. Err(j): level j would hold more than
/// `max_level` positions.
pub fn every_level(
    s: &Space,
    start: u64,
    forward: bool,
    depth: usize,
) -> Result<Vec<Vec<u64>>, usize> {
    let from = if forward { start } else { 1u64 << s.finish };
    let mut side = Side::new(s, start, from, forward);
    let mut levels = vec![side.level.clone()];
    while side.depth() < depth && !side.level.is_empty() {
        side.advance(s)?;
        levels.push(side.level.clone());
    }
    Ok(levels)
}

/// The outcome of two sides grown as far as they go: the positions their last levels share
/// when together they span the N jumps of a play, else none.
fn met(mut ahead: Side, mut back: Side, total: usize) -> Outcome {
    let shared = if ahead.depth() + back.depth() == total {
        count_shared(&ahead.level, &back.level)
    } else {
        0
    };
    Outcome::Counts {
        forward: std::mem::take(&mut ahead.counts),
        backward: std::mem::take(&mut back.counts),
        shared,
    }
}

/// What a side needs to make the next level from a level: its moves, the group's images
/// and the pruning (shared by [`Side`] and the out-of-core search of [`super::outcore`]).
pub(super) struct Grower {
    canon: Canon,
    values: Values,
    moves: Vec<Move>,
}

impl Grower {
    /// Forward the jumps from `start`, backward the jumps undone towards it.
    pub(super) fn new(s: &Space, start: u64, forward: bool) -> Grower {
        let canon = Canon::new(s.n, s.perms);
        let values = Values::new(s.n, closure(s, start, forward), forward);
        let moves = Step::moves(s.jumps, &canon, &values, forward);
        Grower {
            canon,
            values,
            moves,
        }
    }

    /// Level 0 of a side that starts at `from`: its least image, or none when pruned.
    pub(super) fn root(&self, from: u64) -> Vec<u64> {
        match self.values.pruned(from) {
            true => Vec::new(),
            false => vec![self.canon.least(from)],
        }
    }

    /// The least image of a position.
    pub(super) fn least(&self, p: u64) -> u64 {
        self.canon.least(p)
    }

    /// The children of a slice of a level that survive the pruning, each its orbit's least
    /// image, sorted and without repeats, however many.
    pub(super) fn children(&self, slice: &[u64]) -> Vec<u64> {
        self.step(usize::MAX).expand(slice).unwrap_or_default()
    }

    fn step(&self, max_level: usize) -> Step<'_> {
        Step {
            moves: &self.moves,
            max_level,
            canon: &self.canon,
            values: &self.values,
        }
    }
}

/// One side of a search as it grows: its moves, its last level and every level's count.
struct Side {
    grow: Grower,
    level: Vec<u64>,
    counts: Vec<u64>,
    bar: ProgressBar,
}

impl Side {
    /// Level 0 of a side: `from` (the start forward, the finish alone backward), unless pruned.
    fn new(s: &Space, start: u64, from: u64, forward: bool) -> Side {
        let grow = Grower::new(s, start, forward);
        let bar = match s.shown {
            true => ProgressBar::new(s.n.saturating_sub(2) as u64),
            false => ProgressBar::hidden(),
        }
        .with_finish(indicatif::ProgressFinish::AndClear);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {prefix} level {pos} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(if forward { "forward" } else { "backward" });
        let level = grow.root(from);
        let counts = vec![level.len() as u64];
        Side {
            grow,
            level,
            counts,
            bar,
        }
    }

    /// Jumps made (forward) or undone (backward) to reach the last level.
    fn depth(&self) -> usize {
        self.counts.len() - 1
    }

    /// Builds the next level; Err(its index) when it would hold more than `max_level`.
    fn advance(&mut self, s: &Space) -> Result<(), usize> {
        let j = self.counts.len();
        if s.stop.is_some_and(|stop| stop()) {
            self.bar.finish_and_clear();
            return Err(j);
        }
        self.bar.set_position(j as u64);
        self.bar
            .set_message(format!("{} positions before", self.level.len()));
        let Some(next) = self.grow.step(s.max_level).next(&self.level) else {
            self.bar.finish_and_clear();
            return Err(j);
        };
        self.level = next;
        self.counts.push(self.level.len() as u64);
        if let Some(log) = s.log {
            log(j, self.level.len());
        }
        if self.level.is_empty() {
            self.bar.finish_and_clear();
        }
        Ok(())
    }

    /// The outcome when the forward side died out: its counts, no backward side.
    fn alone(mut self) -> Outcome {
        debug_assert!(self.grow.values.forward);
        Outcome::Counts {
            forward: std::mem::take(&mut self.counts),
            backward: Vec::new(),
            shared: 0,
        }
    }
}

impl Drop for Side {
    /// A side's bar goes with it, however the search ended.
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// One jump of a side: what a level needs to build the next.
struct Step<'a> {
    /// Per jump of this side: the holes that must be full and empty, the holes it flips,
    /// their images under each symmetry and the change it makes to each pagoda.
    moves: &'a [Move],
    max_level: usize,
    canon: &'a Canon,
    values: &'a Values,
}

/// One jump as a side makes it (forward a jump, backward a jump undone).
struct Move {
    full: u64,
    empty: u64,
    flip: u64,
    flips: Vec<u64>,
    change: Vec<i64>,
}

impl Step<'_> {
    /// The moves of a side: forward from, over full and to empty, backward the reverse.
    fn moves(
        jumps: &[(usize, usize, usize)],
        canon: &Canon,
        values: &Values,
        forward: bool,
    ) -> Vec<Move> {
        let mut images = vec![0u64; canon.tables.len()];
        jumps
            .iter()
            .map(|&(a, b, c)| {
                let (full, empty) = if forward {
                    (1 << a | 1 << b, 1 << c)
                } else {
                    (1 << c, 1 << a | 1 << b)
                };
                let flip = full | empty;
                canon.images(flip, &mut images);
                let sign = if forward { 1 } else { -1 };
                let change = values
                    .weights
                    .iter()
                    .map(|w| sign * (w[c] - w[a] - w[b]))
                    .collect();
                Move {
                    full,
                    empty,
                    flip,
                    flips: images.clone(),
                    change,
                }
            })
            .collect()
    }

    /// The next level, sorted and without repeats, or None when it holds more than
    /// `max_level` positions. The level is cut into one slice per core, each expanded on a
    /// thread of its own, and the slices' results merged: the same set as one thread builds.
    fn next(&self, level: &[u64]) -> Option<Vec<u64>> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.next_on(level, threads, 1 << 16)
    }

    /// [`Step::next`] on `threads` threads, none given fewer than `least` positions.
    fn next_on(&self, level: &[u64], threads: usize, least: usize) -> Option<Vec<u64>> {
        let chunk = level.len().div_ceil(threads.max(1)).max(least.max(1));
        let parts: Vec<Option<Vec<u64>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = level
                .chunks(chunk)
                .map(|c| scope.spawn(move || self.expand(c)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().ok().flatten())
                .collect()
        });
        let mut parts = parts.into_iter();
        let mut merged = parts.next().unwrap_or(Some(Vec::new()))?;
        for part in parts {
            merged = merge(&merged, &part?);
            if merged.len() > self.max_level {
                return None;
            }
        }
        Some(merged)
    }

    /// The children of a slice of a level, sorted and without repeats (None: over the limit).
    /// A child's pagoda values and images are its parent's changed by the jump's.
    fn expand(&self, slice: &[u64]) -> Option<Vec<u64>> {
        let mut buf = Vec::new();
        let mut merged = 1usize << 20;
        let mut values = vec![0i64; self.values.tables.len()];
        let mut images = vec![0u64; self.canon.tables.len()];
        for &p in slice {
            self.values.values(p, &mut values);
            self.canon.images(p, &mut images);
            for m in self.moves {
                if p & m.full == m.full
                    && p & m.empty == 0
                    && !self.values.pruned_after(&values, &m.change)
                {
                    buf.push(self.canon.least_after(p ^ m.flip, &images, &m.flips));
                }
            }
            // Merged whenever it doubles, so the buffer stays a few times the level's size.
            if buf.len() > 2 * merged {
                buf.sort_unstable();
                buf.dedup();
                merged = buf.len().max(1 << 20);
                if buf.len() > self.max_level {
                    return None;
                }
            }
        }
        buf.sort_unstable();
        buf.dedup();
        (buf.len() <= self.max_level).then_some(buf)
    }
}

/// The union of two sorted lists without repeats, sorted and without repeats (in linear
/// time, where sorting their concatenation would take n log n on one core).
pub fn merge(a: &[u64], b: &[u64]) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() { b.to_vec() } else { a.to_vec() };
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Positions in both sorted lists.
fn count_shared(a: &[u64], b: &[u64]) -> u64 {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

mod canon;
#[cfg(test)]
mod tests;
