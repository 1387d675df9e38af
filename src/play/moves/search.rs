//! The depth-first search of one depth: a position's children (every move of every man,
//! a chain of jumps, deduplicated by the position it leaves), kept only when their bound
//! leaves them within the moves left, and the transposition table that remembers, per
//! position, how many moves were shown not to suffice. Also the stops (time limit, Ctrl-C,
//! a probe's budget) and the progress reports.

use super::tables::{Tables, W, at_least_one};
use super::{Goal, Options, Progress, Status};
use crate::proof::verify::Step;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A fast multiplicative hasher for the exact keys (cell lists) of the tables.
#[derive(Default, Clone, Copy)]
pub(super) struct Fx(u64);

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

pub(super) type FxBuild = BuildHasherDefault<Fx>;
pub(super) type FxMap<K, V> = HashMap<K, V, FxBuild>;
pub(super) type FxSet<K> = HashSet<K, FxBuild>;

/// One child of a position: the mover's chain of jumps and the position after it.
pub(super) struct Child {
    pub(super) steps: Vec<(u32, u32, u32)>,
    pub(super) men: Vec<u32>,
    pub(super) weights: Vec<W>,
    pub(super) key: Vec<u32>,
    pub(super) bound: Option<u32>,
    pub(super) goal: bool,
}

pub(super) enum Verdict {
    Found,
    Fail,
    Stopped,
}

pub(super) struct Search<'a> {
    pub(super) t: &'a Tables,
    pub(super) occ: Vec<u8>,
    pub(super) tt: FxMap<Box<[u32]>, u8>,
    tt_cap: usize,
    pub(super) tt_full: bool,
    pub(super) visits: u64,
    pub(super) total: u64,
    pub(super) depth: u32,
    pub(super) path: Vec<Vec<(u32, u32, u32)>>,
    started: Instant,
    pub(super) deadline: Option<f64>,
    interrupt: Option<&'static AtomicBool>,
    pub(super) stopped: Option<Status>,
    /// A cap on `visits` for the current run (probes for shorter plays); hitting it stops the
    /// run without stopping the whole search.
    pub(super) budget: Option<u64>,
    /// Seconds after which the current probe ends (its budget is then spent).
    pub(super) probe_deadline: Option<f64>,
    progress: Option<Progress>,
    last_report: f64,
    /// Jumps left per (start cell, direction) when a probe reorders a known play's jumps
    /// (see [`beam`]), used while `restrict` is set.
    pub(super) avail: Vec<u8>,
    pub(super) restrict: bool,
    /// Search each depth breadth-first where the board allows ([`Options::breadth_first`]).
    pub(super) breadth_first: bool,
}

impl Search<'_> {
    pub(super) fn should_stop(&mut self) -> bool {
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
    pub(super) fn children(&mut self, men: &[u32], w: &[W], limit: u32) -> Vec<Child> {
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
    pub(super) fn dfs(&mut self, men: &[u32], w: &[W], key: &[u32], r: u32) -> Verdict {
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
    pub(super) fn play(&self, t: &Tables) -> Vec<Step> {
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
        self.clear_men(from);
        self.set_men(to);
    }

    /// Puts the men on the board (`occ`).
    pub(super) fn set_men(&mut self, men: &[u32]) {
        for &m in men {
            self.occ[m as usize] = 1;
        }
    }

    /// Takes the men off the board (`occ`).
    pub(super) fn clear_men(&mut self, men: &[u32]) {
        for &m in men {
            self.occ[m as usize] = 0;
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

impl<'a> Search<'a> {
    /// A search from the men `men` (on the board's base occupancy), its first depth `h0`.
    pub(super) fn new(
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
            breadth_first: opts.breadth_first,
        }
    }
}
