//! One depth of the deepening searched breadth-first (Beasley's search by levels, a level
//! being one move) on a board of at most 64 holes, where a position is one word: level k
//! holds every position reached in k moves whose bound leaves it within the depth, each
//! once (up to the mirror), with the index of a position of level k − 1 it came from.
//!
//! It keeps the same positions the depth-first search of [`super::search`] visits (the same
//! children and the same admissible bounds, [`Search::children`]), so it is as exhaustive; it
//! only trades memory (16 bytes a position) for the transposition table that the depth-first
//! search fills and then thrashes when a depth holds tens of millions of positions. The play
//! it finds is rebuilt move by move from the start and replayed by the caller like any other.

use super::search::{Child, Verdict};
use super::{Search, Tables};

/// A position as a word: bit i for the board's i-th hole, and the mirror as a permutation
/// of the bits when the board is mirror-symmetric.
pub(super) struct Packing {
    /// The grid index of each bit.
    grid: Vec<u32>,
    /// The bit of each grid index (u8::MAX: a wall).
    bit: Vec<u8>,
    /// The bit of each bit's mirror image, when positions are kept up to the mirror.
    mirror: Option<Vec<u8>>,
}

/// Levels beyond this many positions (16 bytes each with its parent: about 2.4 GB in all) hand the
/// depth back to the depth-first search.
const MAX_POSITIONS: usize = 150_000_000;

impl Packing {
    /// The packing of the search's board, or None when it has more than 64 holes.
    pub(super) fn new(t: &Tables) -> Option<Packing> {
        let grid: Vec<u32> = (0..t.base.len() as u32)
            .filter(|&i| t.base[i as usize] == 0)
            .collect();
        if grid.len() > 64 {
            return None;
        }
        let mut bit = vec![u8::MAX; t.base.len()];
        for (b, &g) in grid.iter().enumerate() {
            bit[g as usize] = b as u8;
        }
        let mirror = t.mirror_grid().map(|m| {
            grid.iter()
                .map(|&g| bit.get(m[g as usize] as usize).copied().unwrap_or(u8::MAX))
                .collect::<Vec<u8>>()
        });
        // A mirror that leaves the board is not one of its symmetries: no reduction then.
        let mirror = mirror.filter(|m| m.iter().all(|&b| b != u8::MAX));
        Some(Packing { grid, bit, mirror })
    }

    fn pack(&self, men: &[u32]) -> u64 {
        men.iter().fold(0, |w, &m| w | 1 << self.bit[m as usize])
    }

    fn unpack(&self, mut w: u64) -> Vec<u32> {
        let mut men = Vec::with_capacity(w.count_ones() as usize);
        while w != 0 {
            men.push(self.grid[w.trailing_zeros() as usize]);
            w &= w - 1;
        }
        men
    }

    /// The smaller of a position and its mirror image.
    fn canonical(&self, w: u64) -> u64 {
        let Some(m) = &self.mirror else { return w };
        let (mut x, mut image) = (w, 0u64);
        while x != 0 {
            image |= 1 << m[x.trailing_zeros() as usize];
            x &= x - 1;
        }
        w.min(image)
    }
}

impl Search<'_> {
    /// Searches `depth` moves from `men` breadth-first; on `Found` the play is on
    /// `self.path` (moves last first, as the depth-first search leaves it). None: a level
    /// outgrew [`MAX_POSITIONS`] (nothing is decided; the caller searches depth-first).
    pub(super) fn breadth(&mut self, pk: &Packing, men: &[u32], depth: u32) -> Option<Verdict> {
        // The men are off the board while the levels and the play are made from words.
        self.clear_men(men);
        let verdict = match self.levels(pk, men, depth) {
            Err(v) => v,
            Ok((levels, at)) => {
                let mut chain = Vec::with_capacity(levels.len());
                let mut i = at;
                for level in levels.iter().rev() {
                    chain.push(level[i].0);
                    i = level[i].1 as usize;
                }
                chain.reverse();
                self.rebuild(pk, men, &chain[1..]);
                Some(Verdict::Found)
            }
        };
        self.set_men(men);
        verdict
    }

    /// The levels up to the one that holds a position with a move to the goal (and that
    /// position's index), or the verdict when none does.
    #[allow(clippy::type_complexity)]
    fn levels(
        &mut self,
        pk: &Packing,
        men: &[u32],
        depth: u32,
    ) -> Result<(Vec<Vec<(u64, u32)>>, usize), Option<Verdict>> {
        let mut levels: Vec<Vec<(u64, u32)>> = vec![vec![(pk.canonical(pk.pack(men)), 0)]];
        let mut total = 1usize;
        for k in 0..depth {
            let mut next: Vec<(u64, u32)> = Vec::new();
            // Repeats are dropped as they pile up, so the level before its last sort stays
            // within a few times its final size.
            let mut compact_at = 1 << 24;
            let last = levels.last().expect("the start's level");
            for (i, &(pos, _)) in last.iter().enumerate() {
                self.visits += 1;
                if self.should_stop() {
                    return Err(Some(Verdict::Stopped));
                }
                let kids = self.kids_of(&pk.unpack(pos), depth - k);
                if kids.len() == 1 && kids[0].goal {
                    return Ok((levels, i));
                }
                // Every child but the goal is within the moves left (its bound below them).
                next.extend(
                    kids.iter()
                        .map(|c| (pk.canonical(pk.pack(&c.men)), i as u32)),
                );
                if next.len() >= compact_at {
                    next.sort_unstable();
                    next.dedup_by_key(|e| e.0);
                    compact_at = 2 * next.len() + (1 << 24);
                }
            }
            next.sort_unstable();
            next.dedup_by_key(|e| e.0);
            total += next.len();
            if next.is_empty() {
                break;
            }
            if total > MAX_POSITIONS {
                return Err(None);
            }
            levels.push(next);
        }
        Err(Some(Verdict::Fail))
    }

    /// Replays the chain of kept positions (up to the mirror) from the start, one move each,
    /// then the move to the goal, onto `self.path` (last first).
    fn rebuild(&mut self, pk: &Packing, start: &[u32], chain: &[u64]) {
        self.path.clear();
        let mut here = start.to_vec();
        for &want in chain.iter().chain([&u64::MAX]) {
            let kids = self.kids_of(&here, u32::MAX);
            let goal = want == u64::MAX;
            let kid = kids
                .into_iter()
                .find(|c| {
                    if goal {
                        c.goal
                    } else {
                        pk.canonical(pk.pack(&c.men)) == want
                    }
                })
                .expect("a kept position is a child of the one it was kept from");
            self.path.push(kid.steps);
            here = kid.men;
        }
        self.path.reverse();
    }

    /// The children of `here` within `limit` moves ([`Search::children`]), the board being
    /// empty of men before and after.
    fn kids_of(&mut self, here: &[u32], limit: u32) -> Vec<Child> {
        let w = self.t.weights_of(here);
        self.set_men(here);
        let kids = self.children(here, &w, limit);
        self.clear_men(here);
        kids
    }
}
