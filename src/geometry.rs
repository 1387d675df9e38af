//! Lattices and jump directions: the geometry a model file ([`crate::problem`]) describes.
//!
//! Coordinates are the same everywhere in solarmy (CSV, JSON, pictures, tests): the target is
//! (0,0); row y grows away from the target; level n means men may start only in rows y >= n.
//! A jump from a over b into c has b = a + d and c = a + 2d for a direction d of the army.
//! Problems differ only in the data held here: which cells exist, which directions jump, and
//! the mirror that maps the problem onto itself (derived from the model file). Nothing
//! downstream branches on a problem's name.

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

/// Where men may stand at level n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartRegion {
    /// Rows y >= n (the paper's armies).
    HalfSpace,
    /// max(|x|, |y|) >= n: outside a square desert of side 2n − 1.
    OutsideSquare,
    /// |x| + |y| >= n: outside a rhombus desert.
    OutsideRhombus,
}

impl StartRegion {
    pub fn contains(self, (x, y): Cell, level: i32) -> bool {
        match self {
            StartRegion::HalfSpace => y >= level,
            StartRegion::OutsideSquare => x.abs().max(y.abs()) >= level,
            StartRegion::OutsideRhombus => x.abs() + y.abs() >= level,
        }
    }
}

/// A linear map of the plane, row by row: (x, y) ↦ (a·x + b·y, c·x + d·y).
pub type Symmetry = [[i32; 2]; 2];

pub fn apply(s: &Symmetry, (x, y): Cell) -> Cell {
    (s[0][0] * x + s[0][1] * y, s[1][0] * x + s[1][1] * y)
}

/// A lattice: its cells, its jump directions, where men start, and its symmetries (derived
/// from the model file), among them a mirror fixing the target's column.
#[derive(Clone, Debug)]
pub struct Lattice {
    pub region: Region,
    pub directions: Vec<Cell>,
    pub start: StartRegion,
    /// Every symmetry of the problem, the identity first.
    pub symmetries: Vec<Symmetry>,
    /// The mirror (x, y) -> (p·x + q·y, y), stored as (p, q): the symmetry that keeps every
    /// row, or the identity (1, 0) when there is none.
    pub mirror: (i32, i32),
    pub embedding: Embedding,
}

impl Lattice {
    pub fn new(
        region: Region,
        directions: &[Cell],
        start: StartRegion,
        symmetries: Vec<Symmetry>,
        embedding: Embedding,
    ) -> Lattice {
        let mirror = symmetries
            .iter()
            .find(|s| s[1] == [0, 1] && s[0] != [1, 0])
            .map_or((1, 0), |s| (s[0][0], s[0][1]));
        Lattice {
            region,
            directions: directions.to_vec(),
            start,
            symmetries,
            mirror,
            embedding,
        }
    }

    /// Whether a man may start on the cell at `level`.
    pub fn in_start(&self, c: Cell, level: i32) -> bool {
        self.start.contains(c, level) && self.contains(c)
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
    /// each class under the symmetries: every play ends with one of these or with an image.
    pub fn last_jump_directions(&self) -> Vec<Cell> {
        let mut out: Vec<Cell> = Vec::new();
        for &d in &self.directions {
            if !self.contains(d) || !self.contains((2 * d.0, 2 * d.1)) {
                continue;
            }
            if !self.symmetries.iter().any(|s| out.contains(&apply(s, d))) {
                out.push(d);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::problem::Army;

    #[test]
    fn mirrors_map_directions_onto_directions() {
        for army in Army::all() {
            let l = army.lattice();
            for &d in &l.directions {
                assert!(l.directions.contains(&l.reflect(d)), "{army} {d:?}");
                assert_eq!(l.reflect(l.reflect(d)), d);
            }
        }
    }

    #[test]
    fn last_jumps_up_to_mirror() {
        assert_eq!(Army::pablito().lattice().last_jump_directions().len(), 1);
        assert_eq!(Army::skew().lattice().last_jump_directions().len(), 2);
        assert_eq!(Army::hexagonal().lattice().last_jump_directions().len(), 3);
        assert_eq!(Army::conway().lattice().last_jump_directions().len(), 3);
        assert_eq!(Army::diagonal().lattice().last_jump_directions().len(), 5);
    }
}
