//! The board as the checker sees it: holes and jumps read from the model text alone, the
//! jump program, position classes by its own elimination, and the exhaustive enumeration of
//! the positions reachable from a start; and a problem's two ends as sets of holes
//! ([`Sides`]), a single vacancy and finish or a start and a finish pattern alike.

use super::farkas::{LinearSystem, Row};
use crate::problem::Problem;
use crate::problem::file::{Cells, Spec, Start};
use crate::problem::fingerprint::Ends;
use crate::problem::geometry::Cell;
use std::collections::{BTreeSet, HashSet};

/// The board as the checker sees it.
pub(in crate::proof) struct Board {
    pub(in crate::proof) holes: Vec<Cell>,
    pub(in crate::proof) directions: Vec<Cell>,
    /// (from, over, to) as hole indices.
    pub(in crate::proof) jumps: Vec<(usize, usize, usize)>,
}

impl Board {
    /// The board of a model file's text, with the model itself (to bind the proof to).
    pub(in crate::proof) fn from_model(text: &str) -> Result<(Spec, Board), String> {
        let p = Problem::parse(text)?;
        let s = &p.spec;
        let Cells::List(set) = &s.cells else {
            return Err("the model's cells are not a list of holes".into());
        };
        if s.start != Start::Board || s.dimension != 2 {
            return Err("the model is not a two-dimensional board".into());
        }
        let holes: Vec<Cell> = set
            .iter()
            .map(|q| Cell::xy(q[0] + s.target[0], q[1] + s.target[1]))
            .collect::<BTreeSet<Cell>>()
            .into_iter()
            .collect();
        let directions: Vec<Cell> = s.directions.iter().map(|d| Cell::xy(d[0], d[1])).collect();
        let at = |c: Cell| holes.binary_search(&c).ok();
        let mut jumps = Vec::new();
        for (a, &h) in holes.iter().enumerate() {
            for &dd in &directions {
                if let (Some(b), Some(c)) = (at(h + dd), at(h + 2 * dd)) {
                    jumps.push((a, b, c));
                }
            }
        }
        Ok((
            p.spec.clone(),
            Board {
                holes,
                directions,
                jumps,
            },
        ))
    }

    pub(in crate::proof) fn hole(&self, c: Cell) -> Option<usize> {
        self.holes.binary_search(&c).ok()
    }

    /// Every symmetry of the board as a permutation of the holes: the maps c ↦ M·c + t with
    /// M an integer matrix of entries −1, 0, 1 and determinant ±1 (the square and the
    /// triangular lattices' isometries among them) that map the holes onto the holes and the
    /// directions onto the directions, so that they map jumps to jumps.
    pub(in crate::proof) fn symmetries(&self) -> Vec<Vec<usize>> {
        let dirs: BTreeSet<Cell> = self.directions.iter().copied().collect();
        let mut out = Vec::new();
        let entries = [-1i32, 0, 1];
        for a in entries {
            for b in entries {
                for cc in entries {
                    for d in entries {
                        if (a * d - b * cc).abs() != 1 {
                            continue;
                        }
                        let map = |c: Cell| Cell::xy(a * c.0 + b * c.1, cc * c.0 + d * c.1);
                        if let Some(perm) = self.permutation(map, &dirs) {
                            out.push(perm);
                        }
                    }
                }
            }
        }
        out
    }

    /// The holes' permutation of a linear map followed by the translation that takes the
    /// least image to the least hole, if it maps holes onto holes and directions onto
    /// directions.
    fn permutation(&self, map: impl Fn(Cell) -> Cell, dirs: &BTreeSet<Cell>) -> Option<Vec<usize>> {
        let image: BTreeSet<Cell> = self.holes.iter().map(|&c| map(c)).collect();
        let t = *self.holes.first()? - *image.first()?;
        let turned: BTreeSet<Cell> = self.directions.iter().map(|&d| map(d)).collect();
        if turned != *dirs {
            return None;
        }
        self.holes.iter().map(|&c| self.hole(map(c) + t)).collect()
    }

    /// The jump program from the start to the finish: one column per jump, each at most the
    /// number of jumps of any play (men at the start − men at the finish), one balance row per
    /// hole.
    pub(super) fn system(&self, sides: &Sides) -> LinearSystem {
        let n = self.holes.len();
        let mut rows: Vec<Row> = (0..n)
            .map(|h| {
                let rhs = sides.finish[h] as i64 - sides.start[h] as i64;
                Row {
                    coefs: Vec::new(),
                    lo: Some(rhs),
                    hi: Some(rhs),
                }
            })
            .collect();
        for (j, &(a, b, c)) in self.jumps.iter().enumerate() {
            rows[a].coefs.push((j, -1));
            rows[b].coefs.push((j, -1));
            rows[c].coefs.push((j, 1));
        }
        LinearSystem {
            cols: vec![(0, Some(sides.jumps() as i64)); self.jumps.len()],
            rows,
        }
    }

    /// Whether two positions (sets of holes) lie in different position classes: their sum
    /// is outside the GF(2) span of the jumps' hole triples.
    pub(super) fn classes_differ(&self, p: &[bool], q: &[bool]) -> bool {
        let n = self.holes.len();
        let mut basis: Vec<Vec<bool>> = Vec::new();
        let lead = |r: &[bool]| r.iter().position(|&b| b);
        for &(a, b, c) in &self.jumps {
            let mut r = vec![false; n];
            r[a] = true;
            r[b] = true;
            r[c] = true;
            reduce(&mut r, &basis, lead);
            if lead(&r).is_some() {
                basis.push(r);
                basis.sort_by_key(|r| lead(r));
            }
        }
        let mut d: Vec<bool> = p.iter().zip(q).map(|(x, y)| x ^ y).collect();
        reduce(&mut d, &basis, lead);
        d.iter().any(|&b| b)
    }
}

/// Reduces `r` by an echelon basis (each row's leading bit distinct).
fn reduce(r: &mut [bool], basis: &[Vec<bool>], lead: impl Fn(&[bool]) -> Option<usize>) {
    for row in basis {
        if let Some(l) = lead(row)
            && r[l]
        {
            for (x, y) in r.iter_mut().zip(row) {
                *x ^= y;
            }
        }
    }
}

/// The most positions the checker enumerates for an exhaustive claim (a proof needing more
/// is refused).
pub const MAX_POSITIONS: usize = 5_000_000;

/// Every position reachable from `start` (bit masks over the holes), or None beyond
/// [`MAX_POSITIONS`]. Breadth-first, level by level: each jump removes one man.
pub(in crate::proof) fn enumerate(board: &Board, start: u128) -> Option<HashSet<u128>> {
    let mut all: HashSet<u128> = HashSet::new();
    let mut level: HashSet<u128> = HashSet::from([start]);
    while !level.is_empty() {
        let mut next = HashSet::new();
        for &p in &level {
            for &(a, b, c) in &board.jumps {
                if p >> a & 1 == 1 && p >> b & 1 == 1 && p >> c & 1 == 0 {
                    next.insert(p ^ (1 << a) ^ (1 << b) ^ (1 << c));
                }
            }
        }
        all.extend(level);
        if all.len() + next.len() > MAX_POSITIONS {
            return None;
        }
        level = next;
    }
    Some(all)
}

/// A problem's two ends as sets of holes: the men of the start and of the finish, and for a
/// single-vacancy problem its vacancy and finish hole.
pub(in crate::proof) struct Sides {
    pub(in crate::proof) start: Vec<bool>,
    pub(in crate::proof) finish: Vec<bool>,
    pub(in crate::proof) holes: Option<(usize, usize)>,
}

impl Sides {
    /// The jumps of any play: each removes one man.
    pub(super) fn jumps(&self) -> usize {
        let men = |p: &[bool]| p.iter().filter(|&&b| b).count();
        men(&self.start).saturating_sub(men(&self.finish))
    }

    /// A position as a bit mask over the holes (at most 128 holes).
    pub(super) fn mask(p: &[bool]) -> u128 {
        (0..p.len()).filter(|&h| p[h]).fold(0, |m, h| m | 1 << h)
    }
}

impl Board {
    /// The ends of a problem on this board, or why they are not: a cell that is not a hole,
    /// a man named twice, a pattern with no man.
    pub(in crate::proof) fn sides(&self, ends: Ends) -> Result<Sides, String> {
        let n = self.holes.len();
        match ends {
            Ends::Model => Err("a board proof names its problem's ends".into()),
            Ends::Holes(v, f) => match (self.hole(v), self.hole(f)) {
                (Some(v), Some(f)) => Ok(Sides {
                    start: (0..n).map(|h| h != v).collect(),
                    finish: (0..n).map(|h| h == f).collect(),
                    holes: Some((v, f)),
                }),
                _ => Err("the vacancy or the finish is not a hole".into()),
            },
            Ends::Patterns(s, f) => Ok(Sides {
                start: self.position(s, "start")?,
                finish: self.position(f, "finish")?,
                holes: None,
            }),
        }
    }

    /// The holes of a pattern's men.
    fn position(&self, men: &[Cell], side: &str) -> Result<Vec<bool>, String> {
        let mut p = vec![false; self.holes.len()];
        for &c in men {
            let h = self
                .hole(c)
                .ok_or_else(|| format!("the {side} names ({},{}), not a hole", c.0, c.1))?;
            if std::mem::replace(&mut p[h], true) {
                return Err(format!("the {side} names ({},{}) twice", c.0, c.1));
            }
        }
        if men.is_empty() {
            return Err(format!("the {side} has no man"));
        }
        Ok(p)
    }
}
