//! Classical peg-solitaire boards: a finite board read from a model file (`start = { kind =
//! "board" }`), and the single-vacancy → single-survivor problems on it. This module holds
//! the board itself (holes, jumps, symmetries); [`classes`] finds position-class witnesses,
//! [`settle`] answers one problem (class, resource count, jump IP of [`vectors`],
//! backtracker), [`short`]
//! trades its play for one of the fewest moves when that is cheap, [`catalog`] settles every
//! problem of a board up to its symmetry, [`pattern`] settles a pattern problem (any start
//! position to exactly a finish position).
//!
//! Coordinates are the model file's (every hole a lattice point); the play, the CSV files and
//! the proof use them unchanged.

pub mod beam;
pub mod catalog;
pub mod classes;
pub mod dfs;
pub mod exhaust;
pub mod fewest;
pub mod pattern;
pub mod play;
pub mod settle;
pub mod sharpen;
pub mod short;
pub mod vectors;

use crate::problem::Problem;
use crate::problem::file::{Cells, Start};
use crate::problem::geometry::Cell;
use std::collections::HashMap;
use std::path::Path;

/// A jump between holes (indices into [`PegBoard::cells`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    pub from: usize,
    pub over: usize,
    pub to: usize,
}

/// A symmetry of a finite board: p ↦ M·p + t.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub m: [[i32; 2]; 2],
    pub t: Cell,
}

impl Affine {
    pub fn apply(&self, Cell(x, y, _): Cell) -> Cell {
        let [[a, b], [c, d]] = self.m;
        Cell::xy(a * x + b * y + self.t.0, c * x + d * y + self.t.1)
    }
}

/// A finite board: its holes in ascending (x, y) order, its jumps (by from-hole, then by
/// direction in the file's order), and every symmetry.
#[derive(Clone, Debug)]
pub struct PegBoard {
    pub name: String,
    pub cells: Vec<Cell>,
    pub index: HashMap<Cell, usize>,
    pub directions: Vec<Cell>,
    pub jumps: Vec<Jump>,
    /// Every symmetry, the identity first.
    pub symmetries: Vec<Affine>,
    pub embedding: String,
    /// The model file's text (a proof carries it).
    pub source: String,
    /// The model, as read from `source` (its problems' fingerprints are made from it).
    pub spec: crate::problem::file::Spec,
}

impl PegBoard {
    /// The start of a single-vacancy problem: every hole but the vacancy.
    pub fn start(&self, vacancy: Cell) -> Vec<Cell> {
        self.cells
            .iter()
            .copied()
            .filter(|&c| c != vacancy)
            .collect()
    }

    /// A play of the problem (vacancy, finish), replayed by the independent checker
    /// ([`crate::proof::verify::replay_board`]): legal, and one man left, on the finish.
    pub fn replay(
        &self,
        vacancy: Cell,
        play: &[crate::proof::verify::Step],
        finish: Cell,
    ) -> Result<crate::proof::verify::Replay, String> {
        let holes = self.cells.iter().copied().collect();
        let start = self.start(vacancy);
        crate::proof::verify::replay_board(&holes, &self.directions, &start, play, &[finish])
    }

    /// The fingerprint of the problem (vacancy, finish) on this board.
    pub fn fingerprint(&self, vacancy: Cell, finish: Cell) -> String {
        use crate::problem::fingerprint::{Ends, fingerprint};
        fingerprint(&self.spec, Ends::Holes(vacancy, finish))
    }

    /// Every symmetry as a permutation of the holes (the image of hole h at index h), the
    /// identity first.
    pub fn hole_perms(&self) -> Vec<Vec<usize>> {
        let image = |g: &Affine| {
            self.cells
                .iter()
                .map(|&c| self.index[&g.apply(c)])
                .collect()
        };
        self.symmetries.iter().map(image).collect()
    }

    /// The board of a model file, or why the file is not a two-dimensional board.
    pub fn new(problem: &Problem) -> Result<PegBoard, String> {
        let s = &problem.spec;
        let Cells::List(set) = &s.cells else {
            return Err(format!(
                "model '{}' is not a finite board (cells is not a list)",
                s.name
            ));
        };
        if s.start != Start::Board || s.dimension != 2 {
            return Err(format!(
                "model '{}' is not a two-dimensional board (start kind \"board\")",
                s.name
            ));
        }
        if set.len() > 128 {
            return Err(format!(
                "model '{}': boards of more than 128 holes are not supported",
                s.name
            ));
        }
        // Cells are stored relative to the target; a board's coordinates are the file's.
        let (tx, ty) = (s.target[0], s.target[1]);
        let mut cells: Vec<Cell> = set.iter().map(|p| Cell::xy(p[0] + tx, p[1] + ty)).collect();
        cells.sort();
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let directions: Vec<Cell> = s.directions.iter().map(|d| Cell::xy(d[0], d[1])).collect();
        let mut jumps = Vec::new();
        for (from, &c) in cells.iter().enumerate() {
            for &dd in &directions {
                if let (Some(&over), Some(&to)) = (index.get(&(c + dd)), index.get(&(c + 2 * dd))) {
                    jumps.push(Jump { from, over, to });
                }
            }
        }
        let symmetries = symmetries(&cells, &directions);
        Ok(PegBoard {
            name: s.name.clone(),
            cells,
            index,
            directions,
            jumps,
            symmetries,
            embedding: s.embedding.clone(),
            source: problem.source.clone(),
            spec: s.clone(),
        })
    }

    /// Reads a board's model file; errors are one line naming the file.
    pub fn read(path: &Path) -> Result<PegBoard, String> {
        let problem = Problem::read(path)?;
        PegBoard::new(&problem).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The hole at a cell, or a one-line error naming `what`.
    pub fn hole(&self, c: Cell, what: &str) -> Result<usize, String> {
        self.index.get(&c).copied().ok_or_else(|| {
            format!(
                "{what} ({},{}) is not a hole of board '{}'",
                c.0, c.1, self.name
            )
        })
    }

    /// The problem's canonical form under the symmetries: the least image of (vacancy, finish).
    pub fn canonical(&self, vacancy: Cell, finish: Cell) -> (Cell, Cell) {
        self.symmetries
            .iter()
            .map(|g| (g.apply(vacancy), g.apply(finish)))
            .min()
            .expect("the identity is a symmetry")
    }

    /// Every single-vacancy → single-survivor problem up to symmetry, as the least member of
    /// its orbit, in ascending order.
    pub fn problems(&self) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for &v in &self.cells {
            for &f in &self.cells {
                if self.canonical(v, f) == (v, f) {
                    out.push((v, f));
                }
            }
        }
        out
    }

    /// How many problems an orbit stands for (the group's size over the pair's stabiliser).
    pub fn orbit_size(&self, vacancy: Cell, finish: Cell) -> usize {
        let mut images: Vec<(Cell, Cell)> = self
            .symmetries
            .iter()
            .map(|g| (g.apply(vacancy), g.apply(finish)))
            .collect();
        images.sort();
        images.dedup();
        images.len()
    }
}

/// Every symmetry of a finite board, the identity first. A symmetry fixes the board's
/// centroid c = S/N (S the sum of the holes), so for a linear part M permuting the
/// directions the translation is t = (S − M·S)/N, and it must be integral; then the map is a
/// symmetry exactly when it sends every hole to a hole. The linear parts are the integer
/// matrices with entries in {−1, 0, 1} and determinant ±1 (as for the armies,
/// [`crate::problem::symmetry`]), which hold every lattice symmetry of the square and the
/// triangular lattice.
pub fn symmetries(cells: &[Cell], directions: &[Cell]) -> Vec<Affine> {
    let n = cells.len() as i64;
    let sum = cells.iter().fold((0i64, 0i64), |(a, b), &Cell(x, y, _)| {
        (a + x as i64, b + y as i64)
    });
    let set: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    let mut dirs = directions.to_vec();
    dirs.sort();
    let mut out: Vec<Affine> = Vec::new();
    for code in 0..81 {
        let e = |k: u32| (code / 3i32.pow(k)) % 3 - 1;
        let m = [[e(0), e(1)], [e(2), e(3)]];
        if (m[0][0] * m[1][1] - m[0][1] * m[1][0]).abs() != 1 {
            continue;
        }
        let lin =
            |Cell(x, y, _): Cell| Cell::xy(m[0][0] * x + m[0][1] * y, m[1][0] * x + m[1][1] * y);
        let mut image: Vec<Cell> = directions.iter().map(|&d| lin(d)).collect();
        image.sort();
        let ms = (
            m[0][0] as i64 * sum.0 + m[0][1] as i64 * sum.1,
            m[1][0] as i64 * sum.0 + m[1][1] as i64 * sum.1,
        );
        let (tx, ty) = (sum.0 - ms.0, sum.1 - ms.1);
        if image != dirs || tx % n != 0 || ty % n != 0 {
            continue;
        }
        let g = Affine {
            m,
            t: Cell::xy((tx / n) as i32, (ty / n) as i32),
        };
        if cells.iter().all(|&c| set.contains(&g.apply(c))) {
            out.push(g);
        }
    }
    let id = Affine {
        m: [[1, 0], [0, 1]],
        t: Cell::ORIGIN,
    };
    out.retain(|g| *g != id);
    out.insert(0, id);
    out
}

/// Parses "x,y" (a hole's coordinates on the command line).
pub fn parse_cell(s: &str) -> Result<Cell, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts[..] {
        [x, y] => match (x.parse::<i32>(), y.parse::<i32>()) {
            (Ok(x), Ok(y)) => Ok(Cell::xy(x, y)),
            _ => Err(format!("'{s}' is not a cell: expected two integers x,y")),
        },
        _ => Err(format!("'{s}' is not a cell: expected x,y")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(name: &str) -> PegBoard {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
        PegBoard::read(&path).unwrap()
    }

    #[test]
    fn the_boards_have_their_holes_and_symmetries() {
        for (name, holes, syms) in [
            ("english", 33, 8),
            ("french", 37, 8),
            ("diamond41", 41, 8),
            ("diamond32", 32, 4),
            ("6x6", 36, 8),
            ("wiegleb", 45, 8),
            ("triangle5", 15, 6),
        ] {
            let b = board(name);
            assert_eq!(b.cells.len(), holes, "{name}");
            assert_eq!(b.symmetries.len(), syms, "{name}: {:?}", b.symmetries);
        }
        assert_eq!(board("english").jumps.len(), 76);
    }

    #[test]
    fn orbits_cover_every_problem_once() {
        for name in ["english", "6x6", "triangle5", "diamond32"] {
            let b = board(name);
            let total: usize = b.problems().iter().map(|&(v, f)| b.orbit_size(v, f)).sum();
            assert_eq!(total, b.cells.len() * b.cells.len(), "{name}");
        }
    }
}
