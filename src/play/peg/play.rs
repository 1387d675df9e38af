//! A forward search for a play on a board: depth-first from the start position, each
//! position a bit mask, positions already shown to lead nowhere remembered (the reference
//! solver of `001_…`). It is the second route to a play when the jump program's vectors
//! will not order; its "found" is checked by the independent replay like any other play,
//! and its "not found" is never taken as a proof.

use super::PegBoard;
use super::classes::Mask;
use crate::problem::geometry::Cell;
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

/// What the forward search found.
pub enum Found {
    /// Board jump indices in order.
    Play(Vec<usize>),
    /// Every reachable position was searched: there is no play.
    Exhausted,
    Budget,
}

/// A play from every hole but `vacancy` to one man on `finish`, within `budget` nodes.
/// Jumps are tried far from the finish first, or (`edge`) far from the board's centre first.
pub fn find(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    budget: u64,
    edge_first: bool,
) -> Found {
    let bit = |h: usize| -> Mask { 1 << h };
    let jumps: Vec<(Mask, Mask, Mask)> = board
        .jumps
        .iter()
        .map(|j| (bit(j.from), bit(j.over), bit(j.to)))
        .collect();
    let Cell(fx, fy, _) = board.cells[finish];
    let far = |h: usize| {
        let Cell(x, y, _) = board.cells[h];
        (x - fx).pow(2) + (y - fy).pow(2)
    };
    let mut order: Vec<usize> = (0..jumps.len()).collect();
    let n = board.cells.len() as i32;
    let (sx, sy) = board
        .cells
        .iter()
        .fold((0, 0), |(a, b), &Cell(x, y, _)| (a + x, b + y));
    let edge = |h: usize| {
        let Cell(x, y, _) = board.cells[h];
        (n * x - sx).pow(2) + (n * y - sy).pow(2)
    };
    if edge_first {
        order.sort_by_key(|&j| -edge(board.jumps[j].from));
    } else {
        order.sort_by_key(|&j| -far(board.jumps[j].from));
    }
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
        Some(true) => Found::Play(s.path),
        Some(false) => Found::Exhausted,
        None => Found::Budget,
    }
}

/// The number of positions reachable from every hole but `vacancy` (the start included),
/// and whether one of them is the finish alone; None beyond `limit` positions.
pub fn reachable(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    limit: usize,
) -> Option<(usize, bool)> {
    let start = super::classes::start_mask(board, vacancy);
    reachable_between(board, (start, 1 << finish), limit)
}

/// The number of positions reachable from `start` (itself included), and whether `finish`
/// is one of them; None beyond `limit` positions.
pub fn reachable_between(
    board: &PegBoard,
    (start, finish): (Mask, Mask),
    limit: usize,
) -> Option<(usize, bool)> {
    let mut seen: HashSet<Mask> = HashSet::from([start]);
    let mut frontier = vec![start];
    while let Some(p) = frontier.pop() {
        for j in &board.jumps {
            let (a, b, c): (Mask, Mask, Mask) = (1 << j.from, 1 << j.over, 1 << j.to);
            if p & a != 0 && p & b != 0 && p & c == 0 && seen.insert(p ^ a ^ b ^ c) {
                if seen.len() > limit {
                    return None;
                }
                frontier.push(p ^ a ^ b ^ c);
            }
        }
    }
    Some((seen.len(), seen.contains(&finish)))
}
