//! Lattices, jump directions and the five armies, as data.
//!
//! Coordinates are the same everywhere in solarmy (CSV, JSON, pictures, tests): the target is
//! (0,0); row y grows away from the target; level n means men may start only in rows y >= n.
//! A jump from a over b into c has b = a + d and c = a + 2d for a direction d of the army.
//! The five armies differ only in the data held here: which cells exist, which directions
//! jump, and the mirror that maps the army onto itself. Nothing downstream branches on the
//! army's name.

use std::fmt;
use std::str::FromStr;

/// A lattice cell (x, y).
pub type Cell = (i32, i32);

/// Which cells of Z² belong to the lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Every cell.
    All,
    /// Cells with x + y even (the skew army's colour class of the target).
    EvenParity,
    /// The triangle 0 <= x <= y (Pablito's board, apex at the target).
    Triangle,
}

impl Region {
    pub fn contains(self, (x, y): Cell) -> bool {
        match self {
            Region::All => true,
            Region::EvenParity => (x + y).rem_euclid(2) == 0,
            Region::Triangle => 0 <= x && x <= y,
        }
    }
}

/// How the lattice is drawn in the plane: square cells, hexagons (axial coordinates), or a
/// triangle of circles (Pablito). Pictures use the same (x, y) as everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Embedding {
    Square,
    Hexagonal,
    Triangle,
}

impl Embedding {
    /// Centre of a cell in the plane, in cell widths; y grows away from the target.
    pub fn point(self, (x, y): Cell) -> (f64, f64) {
        let h = 3f64.sqrt() / 2.0;
        match self {
            Embedding::Square => (x as f64, y as f64),
            Embedding::Hexagonal => (x as f64 + y as f64 / 2.0, y as f64 * h),
            Embedding::Triangle => (x as f64 - y as f64 / 2.0, y as f64 * h),
        }
    }
}

/// The five armies of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Army {
    Conway,
    Skew,
    Diagonal,
    Hexagonal,
    Pablito,
}

impl Army {
    pub const ALL: [Army; 5] = [
        Army::Conway,
        Army::Skew,
        Army::Pablito,
        Army::Hexagonal,
        Army::Diagonal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Army::Conway => "conway",
            Army::Skew => "skew",
            Army::Diagonal => "diagonal",
            Army::Hexagonal => "hexagonal",
            Army::Pablito => "pablito",
        }
    }

    /// The lattice this army plays on.
    pub fn lattice(self) -> Lattice {
        const ORTHO: [Cell; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const DIAG: [Cell; 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];
        match self {
            Army::Conway => Lattice::new(Region::All, &ORTHO, (-1, 0), Embedding::Square),
            Army::Skew => Lattice::new(Region::EvenParity, &DIAG, (-1, 0), Embedding::Square),
            Army::Diagonal => {
                let dirs = [ORTHO.as_slice(), &DIAG].concat();
                Lattice::new(Region::All, &dirs, (-1, 0), Embedding::Square)
            }
            // Axial coordinates: rows are lines of constant y; the mirror through the
            // target's column is (x, y) -> (-x - y, y).
            Army::Hexagonal => Lattice::new(
                Region::All,
                &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)],
                (-1, -1),
                Embedding::Hexagonal,
            ),
            // The triangle's mirror is (x, y) -> (y - x, y).
            Army::Pablito => Lattice::new(
                Region::Triangle,
                &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)],
                (-1, 1),
                Embedding::Triangle,
            ),
        }
    }

    /// Pablito's improved pagoda function (paper, Figure 7b) gives weight zero to the edge of
    /// the triangle that the last jump does not come along; the other armies have no such edge.
    pub fn improved_has_blind_edge(self) -> bool {
        self == Army::Pablito
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Army {
    type Err = String;
    fn from_str(s: &str) -> Result<Army, String> {
        Army::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown army '{s}': expected one of conway, skew, diagonal, hexagonal, pablito"
                )
            })
    }
}

/// A lattice: its cells, its jump directions, and a mirror symmetry fixing the target's column.
#[derive(Clone, Debug)]
pub struct Lattice {
    pub region: Region,
    pub directions: Vec<Cell>,
    /// The mirror (x, y) -> (p·x + q·y, y), stored as (p, q).
    pub mirror: (i32, i32),
    pub embedding: Embedding,
}

impl Lattice {
    fn new(
        region: Region,
        directions: &[Cell],
        mirror: (i32, i32),
        embedding: Embedding,
    ) -> Lattice {
        Lattice {
            region,
            directions: directions.to_vec(),
            mirror,
            embedding,
        }
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.region.contains(c)
    }

    pub fn reflect(&self, (x, y): Cell) -> Cell {
        (self.mirror.0 * x + self.mirror.1 * y, y)
    }

    /// Is (from, over, to) a jump of this lattice?
    pub fn is_jump(&self, from: Cell, over: Cell, to: Cell) -> bool {
        let d = (over.0 - from.0, over.1 - from.1);
        self.directions.contains(&d)
            && to == (over.0 + d.0, over.1 + d.1)
            && [from, over, to].iter().all(|&c| self.contains(c))
    }

    /// The directions d along which a last jump (2d over d into the target) exists, one of
    /// each mirror pair: every play ends with one of these or with its mirror image.
    pub fn last_jump_directions(&self) -> Vec<Cell> {
        let mut out: Vec<Cell> = Vec::new();
        for &d in &self.directions {
            if !self.contains(d) || !self.contains((2 * d.0, 2 * d.1)) {
                continue;
            }
            let m = self.reflect(d);
            if !out.contains(&d) && !out.contains(&m) {
                out.push(d);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_map_directions_onto_directions() {
        for army in Army::ALL {
            let l = army.lattice();
            for &d in &l.directions {
                assert!(l.directions.contains(&l.reflect(d)), "{army} {d:?}");
                assert_eq!(l.reflect(l.reflect(d)), d);
            }
        }
    }

    #[test]
    fn last_jumps_up_to_mirror() {
        assert_eq!(Army::Pablito.lattice().last_jump_directions().len(), 1);
        assert_eq!(Army::Skew.lattice().last_jump_directions().len(), 2);
        assert_eq!(Army::Hexagonal.lattice().last_jump_directions().len(), 3);
        assert_eq!(Army::Conway.lattice().last_jump_directions().len(), 3);
        assert_eq!(Army::Diagonal.lattice().last_jump_directions().len(), 5);
    }
}
