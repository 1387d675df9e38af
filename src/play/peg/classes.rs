//! Position classes (Bell's parity argument, the "rule of three"), found by linear algebra
//! over GF(2) rather than by a colouring typed in.
//!
//! A jump (a, b, c) empties a and b and fills c, so for any set W of holes the parity of the
//! number of men on W changes by |W ∩ {a, b, c}| mod 2. When W meets every jump's three
//! holes an even number of times, that parity never changes in play: W is an invariant, and
//! two positions whose parities differ on some invariant W are in different position
//! classes. The invariants are the null space of the jumps' incidence matrix over GF(2); on
//! the English board it is spanned by Bell's diagonal colourings. A problem is ruled out by
//! its class exactly when start ⊕ finish lies outside the row space of the jumps, and then
//! some basis vector of the null space is a witness.

use super::PegBoard;

/// A set of holes as a bit mask (boards have at most 128 holes).
pub type Mask = u128;

/// The mask of each jump's three holes.
fn jump_masks(board: &PegBoard) -> Vec<Mask> {
    board
        .jumps
        .iter()
        .map(|j| (1u128 << j.from) | (1u128 << j.over) | (1u128 << j.to))
        .collect()
}

/// A basis of the invariants: every W with |W ∩ jump| even for every jump.
pub fn invariants(board: &PegBoard) -> Vec<Mask> {
    let n = board.cells.len();
    // Reduced row echelon form of the jump rows: pivots[i] = (column, row).
    let mut rows: Vec<Mask> = Vec::new();
    let mut pivots: Vec<usize> = Vec::new();
    for mut r in jump_masks(board) {
        for (k, &p) in pivots.iter().enumerate() {
            if r >> p & 1 == 1 {
                r ^= rows[k];
            }
        }
        if r == 0 {
            continue;
        }
        let p = r.trailing_zeros() as usize;
        for row in rows.iter_mut() {
            if *row >> p & 1 == 1 {
                *row ^= r;
            }
        }
        rows.push(r);
        pivots.push(p);
    }
    // One null vector per free column f: w_f = 1, w_p = row(p)_f for each pivot p.
    (0..n)
        .filter(|c| !pivots.contains(c))
        .map(|f| {
            let mut w: Mask = 1 << f;
            for (k, &p) in pivots.iter().enumerate() {
                if rows[k] >> f & 1 == 1 {
                    w |= 1 << p;
                }
            }
            w
        })
        .collect()
}

/// Every hole of the board.
pub fn full_mask(board: &PegBoard) -> Mask {
    if board.cells.len() == 128 {
        Mask::MAX
    } else {
        (1 << board.cells.len()) - 1
    }
}

/// The start position: every hole but the vacancy.
pub fn start_mask(board: &PegBoard, vacancy: usize) -> Mask {
    full_mask(board) & !(1 << vacancy)
}

/// An invariant on which the start and the finish have different parities, if there is one.
pub fn witness(board: &PegBoard, vacancy: usize, finish: usize) -> Option<Mask> {
    witness_between(board, start_mask(board, vacancy), 1 << finish)
}

/// An invariant on which two positions have different parities, if there is one.
pub fn witness_between(board: &PegBoard, start: Mask, finish: Mask) -> Option<Mask> {
    let diff = start ^ finish;
    invariants(board)
        .into_iter()
        .find(|w| (w & diff).count_ones() % 2 == 1)
}

/// The holes of a mask, as cells.
pub fn cells_of(board: &PegBoard, w: Mask) -> Vec<crate::problem::geometry::Cell> {
    (0..board.cells.len())
        .filter(|&i| w >> i & 1 == 1)
        .map(|i| board.cells[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::geometry::Cell;
    use std::path::Path;

    #[test]
    fn english_central_game_passes_and_the_rule_of_three_holds() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml");
        let b = PegBoard::read(&path).unwrap();
        // Bell: 16 position classes, so 4 independent invariants.
        assert_eq!(invariants(&b).len(), 4);
        let c = b.index[&Cell::ORIGIN];
        assert!(witness(&b, c, c).is_none());
        // From the centre, the only finishes left are (0,0), (±3,0), (0,±3).
        let finishes: Vec<_> = b
            .cells
            .iter()
            .filter(|&&f| witness(&b, c, b.index[&f]).is_none())
            .copied()
            .collect();
        assert_eq!(
            finishes,
            [(-3, 0), (0, -3), (0, 0), (0, 3), (3, 0)].map(|(x, y)| Cell::xy(x, y))
        );
    }
}
