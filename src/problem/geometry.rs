//! Lattices and jump directions: the geometry a model file ([`crate::problem`]) describes.
//!
//! Coordinates are the same everywhere in solarmy (CSV, JSON, pictures, tests): the target is
//! the origin; the row (y in 2-D, z in 3-D: the model's last coordinate) grows away from the
//! target; level n means men may start only in rows >= n. Two and three dimensions are one
//! mechanism: a [`Cell`] has three slots, the third 0 in 2-D.
//! A jump from a over b into c has b = a + d and c = a + 2d for a direction d of the army.
//! Problems differ only in the data held here: which cells exist, which directions jump, and
//! the mirror that maps the problem onto itself (derived from the model file). Nothing
//! downstream branches on a problem's name.

/// A lattice cell, in two or three dimensions, by one mechanism: `Cell(x, row, y)`.
///
/// Slot 0 is the model's first coordinate x; slot 1 is the *row*, the model's last
/// coordinate (y in 2-D, z in 3-D), the one a half-space start bounds ([`Cell::row`]); slot 2
/// is a 3-D model's middle coordinate y and is 0 for every 2-D cell. So all code that reads
/// "the row" reads slot 1 in every dimension, and a 2-D cell is (x, y, 0). Model files, CSV
/// files, proof files and messages use the model's order (x, y) or (x, y, z): see
/// [`Cell::from_coords`] and [`Cell::coords`]. Serialized (JSON), a cell of a 2-D model is
/// written [x, y] and one of a 3-D model [x, y, z] ([`set_write_dimension`]): 2-D files are
/// unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(pub i32, pub i32, pub i32);

impl Cell {
    pub const ORIGIN: Cell = Cell(0, 0, 0);

    /// A 2-D cell (x, y).
    pub const fn xy(x: i32, y: i32) -> Cell {
        Cell(x, y, 0)
    }

    /// The row: the model's last coordinate, distance from the target of a half-space start.
    pub const fn row(self) -> i32 {
        self.1
    }

    /// From the model's coordinates (x, y) or (x, y, z); None for any other length.
    pub fn from_coords(p: &[i32]) -> Option<Cell> {
        match *p {
            [x, y] => Some(Cell(x, y, 0)),
            [x, y, z] => Some(Cell(x, z, y)),
            _ => None,
        }
    }

    /// The model's coordinates of the cell in `dimension` 2 or 3.
    pub fn coords(self, dimension: usize) -> Vec<i32> {
        if dimension == 3 {
            vec![self.0, self.2, self.1]
        } else {
            vec![self.0, self.1]
        }
    }

    /// The cell in file names: `x_y`, or `x_y_z` in 3-D.
    pub fn tag(self) -> String {
        let c: Vec<String> = self
            .coords(self.write_dimension())
            .iter()
            .map(|v| v.to_string())
            .collect();
        c.join("_")
    }

    /// Chebyshev norm max |coordinate|.
    pub fn chebyshev(self) -> i32 {
        self.0.abs().max(self.1.abs()).max(self.2.abs())
    }

    /// Manhattan norm Σ |coordinate|.
    pub fn manhattan(self) -> i32 {
        self.0.abs() + self.1.abs() + self.2.abs()
    }

    pub fn dot(self, o: Cell) -> i32 {
        self.0 * o.0 + self.1 * o.1 + self.2 * o.2
    }

    /// Whether self and o are parallel (their cross product vanishes).
    pub fn parallel(self, o: Cell) -> bool {
        self.0 * o.1 == self.1 * o.0 && self.0 * o.2 == self.2 * o.0 && self.1 * o.2 == self.2 * o.1
    }

    /// Every cell with |coordinate| <= r, the third coordinate only in 3-D; rows outermost,
    /// then x, as the 2-D loops `for y { for x { … } }` did.
    pub fn window(r: i32, dimension: usize) -> impl Iterator<Item = Cell> {
        let rz = if dimension == 3 { r } else { 0 };
        (-r..=r)
            .flat_map(move |y| (-rz..=rz).flat_map(move |z| (-r..=r).map(move |x| Cell(x, y, z))))
    }
}

impl std::ops::Add for Cell {
    type Output = Cell;
    fn add(self, o: Cell) -> Cell {
        Cell(self.0 + o.0, self.1 + o.1, self.2 + o.2)
    }
}

impl std::ops::Sub for Cell {
    type Output = Cell;
    fn sub(self, o: Cell) -> Cell {
        Cell(self.0 - o.0, self.1 - o.1, self.2 - o.2)
    }
}

impl std::ops::Neg for Cell {
    type Output = Cell;
    fn neg(self) -> Cell {
        Cell(-self.0, -self.1, -self.2)
    }
}

impl std::ops::Mul<Cell> for i32 {
    type Output = Cell;
    fn mul(self, c: Cell) -> Cell {
        Cell(self * c.0, self * c.1, self * c.2)
    }
}

thread_local! {
    /// The dimension cells are written in on this thread (0: as each cell needs, 2 or 3).
    static WRITE_DIMENSION: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Cells written (JSON, messages) on this thread from now on have `dimension` coordinates:
/// set when a model is loaded ([`crate::problem::Army::new`]), so a 3-D model's cells are
/// written [x, y, z] even in the plane y = 0. Without it a cell is written [x, y] when its
/// slot 2 is 0 and [x, y, z] otherwise; readers take both.
pub fn set_write_dimension(dimension: usize) {
    WRITE_DIMENSION.with(|d| d.set(dimension));
}

impl Cell {
    /// The dimension this cell is written in on this thread ([`set_write_dimension`]).
    fn write_dimension(self) -> usize {
        match WRITE_DIMENSION.with(|d| d.get()) {
            3 => 3,
            _ if self.2 != 0 => 3,
            _ => 2,
        }
    }
}

/// In the model's order: `(x, y)` for a 2-D cell as before, `(x, y, z)` for a 3-D one.
impl std::fmt::Debug for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.write_dimension() == 2 {
            write!(f, "({}, {})", self.0, self.1)
        } else {
            write!(f, "({}, {}, {})", self.0, self.2, self.1)
        }
    }
}

impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.write_dimension() == 2 {
            (self.0, self.1).serialize(s)
        } else {
            (self.0, self.2, self.1).serialize(s)
        }
    }
}

impl<'de> serde::Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let v: Vec<i32> = Vec::deserialize(d)?;
        Cell::from_coords(&v).ok_or_else(|| {
            serde::de::Error::custom(format!("a cell has 2 or 3 coordinates, not {}", v.len()))
        })
    }
}

/// A dense table over the window |coordinate| <= radius of a lattice's dimension (slot 2
/// only in 3-D): the exponent tables of pagoda functions.
#[derive(Clone, Debug)]
pub struct Grid<T> {
    radius: i32,
    depth: i32,
    side: usize,
    data: Vec<T>,
}

impl<T: Clone> Grid<T> {
    pub fn new(radius: i32, dimension: usize, fill: T) -> Grid<T> {
        let depth = if dimension == 3 { radius } else { 0 };
        let side = (2 * radius + 1) as usize;
        let layers = (2 * depth + 1) as usize;
        Grid {
            radius,
            depth,
            side,
            data: vec![fill; side * side * layers],
        }
    }

    pub fn radius(&self) -> i32 {
        self.radius
    }

    pub fn inside(&self, c: Cell) -> bool {
        c.0.abs() <= self.radius && c.1.abs() <= self.radius && c.2.abs() <= self.depth
    }

    fn index(&self, c: Cell) -> usize {
        assert!(
            self.inside(c),
            "cell {c:?} is outside the window of radius {}",
            self.radius
        );
        let layer = (c.2 + self.depth) as usize;
        (layer * self.side + (c.1 + self.radius) as usize) * self.side
            + (c.0 + self.radius) as usize
    }

    pub fn get(&self, c: Cell) -> &T {
        &self.data[self.index(c)]
    }

    pub fn set(&mut self, c: Cell, v: T) {
        let i = self.index(c);
        self.data[i] = v;
    }

    /// The window's dimension.
    pub fn dimension(&self) -> usize {
        if self.depth > 0 { 3 } else { 2 }
    }
}

/// Which cells of the lattice exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Every cell.
    All,
    /// Cells with coordinate sum even (the skew army's colour class of the target; the fcc
    /// lattice in 3-D).
    EvenParity,
    /// The triangle 0 <= x <= y (Pablito's board, apex at the target; 2-D only).
    Triangle,
}

impl Region {
    pub fn contains(self, c: Cell) -> bool {
        match self {
            Region::All => true,
            Region::EvenParity => (c.0 + c.1 + c.2).rem_euclid(2) == 0,
            Region::Triangle => c.2 == 0 && 0 <= c.0 && c.0 <= c.1,
        }
    }
}

/// How the lattice is drawn in the plane: square cells, hexagons (axial coordinates), a
/// triangle of circles (Pablito), or 3-D cubes drawn one layer (row) at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Embedding {
    Square,
    Hexagonal,
    Triangle,
    Cubic,
}

impl Embedding {
    /// Centre of a cell in the plane, in cell widths; y grows away from the target. A 3-D
    /// cell is drawn at (x, y) of its layer: the row is the layer, drawn apart.
    pub fn point(self, c: Cell) -> (f64, f64) {
        let (x, y) = (c.0 as f64, c.1 as f64);
        let h = 3f64.sqrt() / 2.0;
        match self {
            Embedding::Square => (x, y),
            Embedding::Hexagonal => (x + y / 2.0, y * h),
            Embedding::Triangle => (x - y / 2.0, y * h),
            Embedding::Cubic => (x, c.2 as f64),
        }
    }
}

/// Where men may stand at level n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartRegion {
    /// The row (last coordinate) >= n (the paper's armies; z >= n in 3-D).
    HalfSpace,
    /// Chebyshev distance >= n: outside a square desert of side 2n − 1.
    OutsideSquare,
    /// Manhattan distance >= n: outside a rhombus desert.
    OutsideRhombus,
}

impl StartRegion {
    pub fn contains(self, c: Cell, level: i32) -> bool {
        match self {
            StartRegion::HalfSpace => c.row() >= level,
            StartRegion::OutsideSquare => c.chebyshev() >= level,
            StartRegion::OutsideRhombus => c.manhattan() >= level,
        }
    }
}

/// A linear map of the lattice in the cell's slot order ([`Cell`]), row by row: slot i of
/// the image is Σ_j `s[i][j]`·c_j. A 2-D map leaves slot 2 alone.
pub type Symmetry = [[i32; 3]; 3];

pub const IDENTITY: Symmetry = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

pub fn apply(s: &Symmetry, c: Cell) -> Cell {
    let v = [c.0, c.1, c.2];
    let r = |i: usize| s[i].iter().zip(v).map(|(a, b)| a * b).sum();
    Cell(r(0), r(1), r(2))
}

/// The map of a model's matrix (acting on the model's coordinates) on cells.
pub fn symmetry_of(m: &[Vec<i32>]) -> Symmetry {
    let dimension = m.len();
    let mut s = IDENTITY;
    for j in 0..3 {
        let mut e = [0; 3];
        e[j] = 1;
        let basis = Cell(e[0], e[1], e[2]);
        if dimension == 2 && j == 2 {
            continue;
        }
        let p = basis.coords(dimension);
        let q: Vec<i32> = m
            .iter()
            .map(|row| row.iter().zip(&p).map(|(a, b)| a * b).sum())
            .collect();
        let image = Cell::from_coords(&q).expect("a square matrix of the model's dimension");
        s[0][j] = image.0;
        s[1][j] = image.1;
        s[2][j] = image.2;
    }
    s
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
    /// The mirror: an involution among the symmetries that keeps every row (in 2-D
    /// (x, y) -> (p·x + q·y, y)), or the identity when there is none.
    pub mirror: Symmetry,
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
        let keeps_rows = |s: &Symmetry| s[1] == [0, 1, 0];
        let involution = |s: &Symmetry| {
            (0..3).all(|j| {
                let mut e = [0; 3];
                e[j] = 1;
                let c = Cell(e[0], e[1], e[2]);
                apply(s, apply(s, c)) == c
            })
        };
        let mirror = symmetries
            .iter()
            .find(|s| **s != IDENTITY && keeps_rows(s) && involution(s))
            .copied()
            .unwrap_or(IDENTITY);
        Lattice {
            region,
            directions: directions.to_vec(),
            start,
            symmetries,
            mirror,
            embedding,
        }
    }

    /// 2, or 3 when a jump direction leaves the plane of slot 2 = 0.
    pub fn dimension(&self) -> usize {
        if self.directions.iter().any(|d| d.2 != 0) {
            3
        } else {
            2
        }
    }

    /// Every cell with |coordinate| <= r in the lattice's dimension ([`Cell::window`]).
    pub fn window(&self, r: i32) -> impl Iterator<Item = Cell> {
        Cell::window(r, self.dimension())
    }

    /// Whether a man may start on the cell at `level`.
    pub fn in_start(&self, c: Cell, level: i32) -> bool {
        self.start.contains(c, level) && self.contains(c)
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.region.contains(c)
    }

    pub fn reflect(&self, c: Cell) -> Cell {
        apply(&self.mirror, c)
    }

    /// The distinct images of a set of cells under the symmetries, each sorted (the set
    /// itself among them: the identity is a symmetry).
    pub fn images(&self, cells: &[Cell]) -> Vec<Vec<Cell>> {
        let mut out: Vec<Vec<Cell>> = (self.symmetries.iter())
            .chain([&IDENTITY])
            .map(|s| {
                let mut v: Vec<Cell> = cells.iter().map(|&c| apply(s, c)).collect();
                v.sort();
                v
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Is (from, over, to) a jump of this lattice?
    pub fn is_jump(&self, from: Cell, over: Cell, to: Cell) -> bool {
        let d = over - from;
        self.directions.contains(&d)
            && to == over + d
            && [from, over, to].iter().all(|&c| self.contains(c))
    }

    /// The directions d along which a last jump (2d over d into the target) exists, one of
    /// each class under the symmetries: every play ends with one of these or with an image.
    pub fn last_jump_directions(&self) -> Vec<Cell> {
        let mut out: Vec<Cell> = Vec::new();
        for &d in &self.directions {
            if !self.contains(d) || !self.contains(2 * d) {
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
