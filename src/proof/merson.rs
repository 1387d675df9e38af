//! Merson regions, the second half of the checker's bound on a board's moves ([`super::ground`]):
//! which sets of holes are regions, and how many moves a position's full regions still cost.
//!
//! **Regions.** A set R of holes is a *Merson region* when every jump over a hole of R starts
//! or lands in R. While R is full (a man on each of its holes) no jump lands in R, so the
//! first jump that empties a hole of R, whether it moves a man out of R or jumps over one,
//! starts in R. (Beasley, *Some observations on the analysis of peg solitaire by computer*,
//! after Robin Merson; on the 6×6 board they give the fewest moves of every problem that
//! starts in a corner and of most others.)
//!
//! **The bound, and why it is admissible.** Let D be disjoint regions, each full in a position
//! P that is not the goal (one man, on the target t). A move is one man's chain of jumps from
//! a hole x. A region of D that the move empties a hole of for the first time since P was
//! full when that happened, so the jump that did it started in it, from the moving man; the
//! man stood in it, and could only have landed there while it was full if it had been there
//! from the start: so the region holds x. The regions are disjoint, so a move empties a first
//! hole of at most one region of D. Every region of D has a hole emptied before the goal: one
//! other than {t} is not full at the goal, and {t} (a region alone: no jump passes over t)
//! must be empty when the last jump lands on t, so its man jumps away first. So a play from P
//! needs at least |D| moves. Any disjoint family of full regions will do; the checker takes
//! them greedily, smallest first (then in the order of their holes). On the 6×6 board this
//! is what makes a corner vacancy with its finish on the same corner cost 16: the first move
//! fills the corner, which must be emptied again (Beasley's remark).
//!
//! **Which regions.** The checker tries every window of up to 3 × 3 lattice cells (its holes
//! on the ground), keeps those that are regions by the definition above, each tested against
//! every jump of the ground. Fewer regions only weaken the bound.

use crate::problem::geometry::Cell;

/// The Merson regions of the ground's windows, as sorted hole indices, smallest first.
pub(super) fn regions(cells: &[Cell], jumps: &[Vec<(u32, u32)>]) -> Vec<Vec<u32>> {
    let index = |c: Cell| cells.iter().position(|&x| x == c).map(|i| i as u32);
    let mut found: Vec<Vec<u32>> = Vec::new();
    for &Cell(x, y, _) in cells {
        for (w, h) in (1..=3).flat_map(|w| (1..=3).map(move |h| (w, h))) {
            let mut r: Vec<u32> = (0..w)
                .flat_map(|i| (0..h).map(move |j| Cell::xy(x + i, y + j)))
                .filter_map(index)
                .collect();
            r.sort_unstable();
            if !r.is_empty() && !found.contains(&r) && is_region(&r, jumps) {
                found.push(r);
            }
        }
    }
    found.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    found
}

/// Whether every jump (from, over, to) of the ground with `over` in `r` starts or lands in
/// `r` (the definition of a region in the module doc).
fn is_region(r: &[u32], jumps: &[Vec<(u32, u32)>]) -> bool {
    let inside = |c: u32| r.binary_search(&c).is_ok();
    jumps.iter().enumerate().all(|(a, from)| {
        from.iter()
            .all(|&(b, c)| !inside(b) || inside(a as u32) || inside(c))
    })
}

/// The moves a play from the position of `men`, not the goal, still needs by its full
/// regions: the size of a disjoint family of regions full in it ([`family`]).
pub(super) fn bound(regions: &[Vec<u32>], men: &[u32]) -> u32 {
    family(regions, men).len() as u32
}

/// A disjoint family of the regions full in the position of `men` (sorted), taken greedily
/// in the order of `regions`.
fn family<'a>(regions: &'a [Vec<u32>], men: &[u32]) -> Vec<&'a [u32]> {
    let full = |r: &[u32]| r.iter().all(|c| men.binary_search(c).is_ok());
    let mut used: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for r in regions.iter().filter(|r| full(r)) {
        if r.iter().all(|c| !used.contains(c)) {
            used.extend_from_slice(r);
            out.push(&r[..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::ground::Ground;
    use super::*;

    /// The 6×6 board, -2 <= x, y <= 3, with its finish at `t`.
    fn square(t: Cell) -> Ground {
        Ground::rectangle(-2..=3, -2..=3, t)
    }

    fn all_but(g: &Ground, v: Cell) -> Vec<u32> {
        (0..g.cells.len() as u32)
            .filter(|&i| g.cells[i as usize] != v)
            .collect()
    }

    /// Beasley's count: 16 regions (corners, edge pairs, inner 2 × 2 blocks), so 15 moves at
    /// least from any single vacancy but a corner's own.
    #[test]
    fn the_six_by_six_start_costs_fifteen_moves() {
        let g = square(Cell::xy(-1, -1));
        assert_eq!(bound(&g.merson, &all_but(&g, Cell::xy(-1, -1))), 15);
        assert_eq!(bound(&g.merson, &all_but(&g, Cell::xy(0, 0))), 15);
        let corner = square(Cell::xy(1, 1));
        assert_eq!(
            bound(&corner.merson, &all_but(&corner, Cell::xy(-2, -2))),
            15
        );
    }

    /// From a1 to a1: the first move (a3 over a2) fills the corner again, and the corner,
    /// which is the finish, counts: 15 more moves after it, 16 in all.
    #[test]
    fn the_corner_that_is_the_finish_counts() {
        let a1 = Cell::xy(-2, -2);
        let g = square(a1);
        let (a2, a3) = (Cell::xy(-2, -1), Cell::xy(-2, 0));
        let after: Vec<u32> = (0..36u32)
            .filter(|&i| ![a2, a3].contains(&g.cells[i as usize]))
            .collect();
        assert_eq!(bound(&g.merson, &all_but(&g, a1)), 15);
        assert_eq!(bound(&g.merson, &after), 15);
    }

    /// Along random plays, every move leaves all but at most one region of the family taken
    /// before it full (the module doc's argument), and the goal costs nothing.
    #[test]
    fn a_move_breaks_at_most_one_region() {
        let g = square(Cell::xy(0, 0));
        assert_eq!(g.bound(&[g.target]), Some(0));
        let mut seed = 12345u64;
        for _ in 0..200 {
            let mut men = all_but(&g, Cell::xy(-1, 0));
            loop {
                let mut occ = vec![false; g.cells.len()];
                men.iter().for_each(|&m| occ[m as usize] = true);
                let mut kids = Vec::new();
                super::super::moves::runs(&g, &men, &mut occ, &mut kids);
                if kids.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let next = kids.swap_remove((seed >> 33) as usize % kids.len());
                let before = family(&g.merson, &men);
                let full = |r: &&&[u32]| r.iter().all(|c| next.binary_search(c).is_ok());
                assert!(before.iter().filter(full).count() + 1 >= before.len());
                men = next;
            }
        }
    }
}
