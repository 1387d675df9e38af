//! Turning an IP solution (a start set and a multiset of jumps, unordered) into a legal play.
//!
//! Depth-first search over the jump multiset. A jump is legal when its from and over cells
//! hold a man and its landing cell is empty. The board is a bitset; positions already shown
//! to fail are remembered by a 128-bit Zobrist key of (position, jumps left), so each is
//! searched once; a node budget bounds the work. Move order follows the reference notes:
//! first let the man who just landed jump on (a move is a run of jumps by one man), then
//! prefer jumps far from the target (armies advance from the back), nearest the last jump.
//!
//! The balance equations guarantee that when no jump is left the position is the final one,
//! so the search needs no goal test beyond "multiset empty". Its answer is checked again by
//! the independent replay in [`crate::proof::verify`].

use crate::reduce::board::Board;
use std::collections::HashSet;

/// The outcome of an ordering attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Board jump indices in a legal order.
    Found(Vec<usize>),
    /// The search space was exhausted: no order exists.
    Impossible,
    /// The node budget ran out first.
    Budget,
}

/// A small deterministic generator for Zobrist keys.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

struct Search<'a> {
    from: Vec<usize>,
    over: Vec<usize>,
    to: Vec<usize>,
    /// Priority of each jump: larger is tried first (after continuing the same man).
    priority: Vec<i64>,
    board: &'a Board,
    count: Vec<u32>,
    occupied: Vec<u64>,
    zob_cell: Vec<(u64, u64)>,
    zob_jump: Vec<(u64, u64)>,
    key: (u64, u64),
    failed: HashSet<(u64, u64)>,
    path: Vec<usize>,
    nodes: u64,
    budget: u64,
    left: u32,
}

impl Search<'_> {
    fn occ(&self, c: usize) -> bool {
        self.occupied[c / 64] >> (c % 64) & 1 == 1
    }

    fn flip(&mut self, c: usize) {
        self.occupied[c / 64] ^= 1 << (c % 64);
        self.key.0 ^= self.zob_cell[c].0;
        self.key.1 ^= self.zob_cell[c].1;
    }

    fn apply(&mut self, j: usize, undo: bool) {
        self.flip(self.from[j]);
        self.flip(self.over[j]);
        self.flip(self.to[j]);
        let (a, b) = self.zob_jump[j];
        if undo {
            self.count[j] += 1;
            self.left += 1;
            self.key = (self.key.0.wrapping_add(a), self.key.1.wrapping_add(b));
        } else {
            self.count[j] -= 1;
            self.left -= 1;
            self.key = (self.key.0.wrapping_sub(a), self.key.1.wrapping_sub(b));
        }
    }

    fn legal(&self, j: usize) -> bool {
        self.count[j] > 0
            && self.occ(self.from[j])
            && self.occ(self.over[j])
            && !self.occ(self.to[j])
    }

    /// Depth-first search; Some(true) found, Some(false) exhausted, None out of budget.
    fn dfs(&mut self) -> Option<bool> {
        if self.left == 0 {
            return Some(true);
        }
        if self.failed.contains(&self.key) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let last = self.path.last().copied();
        let mut cands: Vec<usize> = (0..self.count.len()).filter(|&j| self.legal(j)).collect();
        if let Some(l) = last {
            let landed = self.to[l];
            let l = self.board.cells[landed];
            let dist = |j: usize| (self.board.cells[self.from[j]] - l).manhattan() as i64;
            cands.sort_by_key(|&j| (self.from[j] != landed, -self.priority[j], dist(j)));
        } else {
            cands.sort_by_key(|&j| -self.priority[j]);
        }
        for j in cands {
            self.apply(j, false);
            self.path.push(j);
            match self.dfs() {
                Some(true) => return Some(true),
                None => {
                    self.path.pop();
                    self.apply(j, true);
                    return None;
                }
                Some(false) => {}
            }
            self.path.pop();
            self.apply(j, true);
        }
        self.failed.insert(self.key);
        Some(false)
    }
}

/// Orders `jumps` ((board jump index, count) pairs) from the army `start` (board cells).
/// `priority` ranks jumps (larger first), e.g. the pagoda exponent of the from-cell.
pub fn order(
    board: &Board,
    start: &[usize],
    jumps: &[(usize, u32)],
    priority: impl Fn(usize) -> i64,
    budget: u64,
) -> Ordering {
    let mut rng = SplitMix(0x5EED);
    let n = board.cells.len();
    let mut s = Search {
        from: jumps.iter().map(|&(j, _)| board.jumps[j].from).collect(),
        over: jumps.iter().map(|&(j, _)| board.jumps[j].over).collect(),
        to: jumps.iter().map(|&(j, _)| board.jumps[j].to).collect(),
        priority: jumps.iter().map(|&(j, _)| priority(j)).collect(),
        board,
        count: jumps.iter().map(|&(_, c)| c).collect(),
        occupied: vec![0; n.div_ceil(64)],
        zob_cell: (0..n).map(|_| (rng.next(), rng.next())).collect(),
        zob_jump: jumps.iter().map(|_| (rng.next(), rng.next())).collect(),
        key: (0, 0),
        failed: HashSet::new(),
        path: Vec::new(),
        nodes: 0,
        budget,
        left: jumps.iter().map(|&(_, c)| c).sum(),
    };
    for &c in start {
        s.flip(c);
    }
    match s.dfs() {
        Some(true) => Ordering::Found(s.path.iter().map(|&k| jumps[k].0).collect()),
        Some(false) => Ordering::Impossible,
        None => Ordering::Budget,
    }
}
