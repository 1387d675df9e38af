//! A forward search for a play on a board: depth-first from the start position, each
//! position a bit mask, positions already shown to lead nowhere remembered (the reference
//! solver of `001_…`). It is the second route to a play when the jump program's vectors
//! will not order; its "found" is checked by the independent replay like any other play,
//! and its "not found" is never taken as a proof.

use super::PegBoard;
use super::classes::Mask;
use std::collections::HashSet;

/// Jumps in the search's form: the masks of their three holes.
struct Search<'a> {
    jumps: Vec<(Mask, Mask, Mask)>,
    /// Jumps in the order tried: far from the finish first (clear the edges, come home last).
    finish: Mask,
    dead: HashSet<Mask>,
    path: Vec<usize>,
    nodes: u64,
    budget: u64,
    order: &'a [usize],
}

impl Search<'_> {
    /// Some(true) found, Some(false) none from here, None out of budget.
    fn dfs(&mut self, pos: Mask, left: u32) -> Option<bool> {
        if left == 1 {
            return Some(pos == self.finish);
        }
        if self.dead.contains(&pos) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        for k in 0..self.order.len() {
            let j = self.order[k];
            let (a, b, c) = self.jumps[j];
            if pos & a != 0 && pos & b != 0 && pos & c == 0 {
                self.path.push(j);
                match self.dfs(pos ^ a ^ b ^ c, left - 1) {
                    Some(true) => return Some(true),
                    None => return None,
                    Some(false) => {}
                }
                self.path.pop();
            }
        }
        self.dead.insert(pos);
        Some(false)
    }
}

/// A play (board jump indices in order) from every hole but `vacancy` to one man on
/// `finish`, or None when the search ends or runs out of `budget` nodes without one.
pub fn find(board: &PegBoard, vacancy: usize, finish: usize, budget: u64) -> Option<Vec<usize>> {
    let bit = |h: usize| -> Mask { 1 << h };
    let jumps: Vec<(Mask, Mask, Mask)> = board
        .jumps
        .iter()
        .map(|j| (bit(j.from), bit(j.over), bit(j.to)))
        .collect();
    let (fx, fy) = board.cells[finish];
    let far = |h: usize| {
        let (x, y) = board.cells[h];
        (x - fx).pow(2) + (y - fy).pow(2)
    };
    let mut order: Vec<usize> = (0..jumps.len()).collect();
    order.sort_by_key(|&j| -far(board.jumps[j].from));
    let mut s = Search {
        jumps,
        finish: bit(finish),
        dead: HashSet::new(),
        path: Vec::new(),
        nodes: 0,
        budget,
        order: &order,
    };
    let start = super::classes::start_mask(board, vacancy);
    let men = start.count_ones();
    match s.dfs(start, men) {
        Some(true) => Some(s.path),
        _ => None,
    }
}
