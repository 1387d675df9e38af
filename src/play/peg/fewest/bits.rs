//! A board as bits, for the search by levels: a position is the set of its men as the bits of
//! a `u64`; the board's jumps as hole indices, and its symmetries as permutations of the
//! holes with byte tables for fast images, least images (the canonical positions) and
//! stabilisers.

use super::PegBoard;

/// A board as bits: its jumps and its symmetries (as byte tables, for fast images).
pub struct Bits {
    pub n: usize,
    pub full: u64,
    /// (from, over, to) hole indices.
    jumps: Vec<(u8, u8, u8)>,
    /// The jumps by from-hole: (over, to).
    pub(super) from: Vec<Vec<(u8, u8)>>,
    /// Every symmetry as a permutation of the holes (the board's order, the identity first).
    pub(super) perms: Vec<Vec<u8>>,
    /// tables[g][k][byte] = the image under g of the holes 8k … 8k+7 given by `byte`.
    tables: Vec<Vec<[u64; 256]>>,
}

impl Bits {
    /// The board's bits, or why it has too many holes.
    pub fn new(board: &PegBoard) -> Result<Bits, String> {
        let n = board.cells.len();
        if !(2..=64).contains(&n) {
            return Err(format!(
                "board '{}' has {n} holes: the exact fewest-move search takes boards of 2 to 64 holes",
                board.name
            ));
        }
        let jumps: Vec<(u8, u8, u8)> = board
            .jumps
            .iter()
            .map(|j| (j.from as u8, j.over as u8, j.to as u8))
            .collect();
        let mut from = vec![Vec::new(); n];
        for &(a, b, c) in &jumps {
            from[a as usize].push((b, c));
        }
        let perms: Vec<Vec<u8>> = board
            .hole_perms()
            .into_iter()
            .map(|p| p.into_iter().map(|h| h as u8).collect())
            .collect();
        let tables = perms
            .iter()
            .map(|p| crate::proof::levels::byte_tables(n, |h| p[h] as usize))
            .collect();
        let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        Ok(Bits {
            n,
            full,
            jumps,
            from,
            perms,
            tables,
        })
    }

    /// The image of a position under symmetry g.
    pub fn image(&self, g: usize, p: u64) -> u64 {
        self.tables[g]
            .iter()
            .enumerate()
            .fold(0, |acc, (k, t)| acc | t[(p >> (8 * k)) as usize & 255])
    }

    /// The least image of p under the symmetries of `group` (which holds the identity).
    pub fn canon(&self, group: &[usize], p: u64) -> u64 {
        group.iter().map(|&g| self.image(g, p)).min().unwrap_or(p)
    }

    /// The symmetries fixing every hole of `holes`.
    pub fn stabiliser(&self, holes: &[usize]) -> Vec<usize> {
        (0..self.perms.len())
            .filter(|&g| holes.iter().all(|&h| self.perms[g][h] as usize == h))
            .collect()
    }

    /// The symmetry g∘h (first h, then g).
    pub(super) fn compose(&self, g: usize, h: usize) -> usize {
        let gh: Vec<u8> = self.perms[h]
            .iter()
            .map(|&x| self.perms[g][x as usize])
            .collect();
        self.perms
            .iter()
            .position(|p| *p == gh)
            .expect("the symmetries form a group")
    }

    pub(super) fn inverse(&self, g: usize) -> usize {
        (0..self.perms.len())
            .find(|&h| self.compose(g, h) == 0)
            .expect("the symmetries form a group")
    }

    /// The class representative of a hole (its least image) and a symmetry g with
    /// g(representative) = hole.
    pub fn representative(&self, hole: usize) -> (usize, usize) {
        let rep = (0..self.perms.len())
            .map(|g| self.perms[g][hole] as usize)
            .min()
            .expect("the identity");
        let g = (0..self.perms.len())
            .find(|&g| self.perms[g][rep] as usize == hole)
            .expect("rep is in the orbit");
        (rep, g)
    }

    /// Feeds what decides the levels of this board to a digest: its holes, jumps and
    /// symmetries.
    pub(super) fn digest(&self, h: &mut sha2::Sha256) {
        use sha2::Digest;
        h.update(
            format!(
                "holes {}\njumps {:?}\nsymmetries {:?}\n",
                self.n, self.jumps, self.perms
            )
            .as_bytes(),
        );
    }

    /// Every child of p (one jump), appended to `out`.
    pub(super) fn children(&self, p: u64, out: &mut Vec<u64>) {
        for &(a, b, c) in &self.jumps {
            if p >> a & 1 == 1 && p >> b & 1 == 1 && p >> c & 1 == 0 {
                out.push(p ^ (1 << a | 1 << b | 1 << c));
            }
        }
    }

    /// Every child of p (`back` false) or every parent (`back` true), given to `f`.
    pub(super) fn neighbours(&self, p: u64, back: bool, mut f: impl FnMut(u64)) {
        for &(a, b, c) in &self.jumps {
            let (full, empty) = if back { (c, a) } else { (a, c) };
            if p >> full & 1 == 1 && p >> b & 1 == u64::from(!back) && p >> empty & 1 == 0 {
                f(p ^ (1 << a | 1 << b | 1 << c))
            }
        }
    }

    /// Every parent of p (one jump back), appended to `out`.
    pub(super) fn parents(&self, p: u64, out: &mut Vec<u64>) {
        for &(a, b, c) in &self.jumps {
            if p >> c & 1 == 1 && p >> a & 1 == 0 && p >> b & 1 == 0 {
                out.push(p ^ (1 << a | 1 << b | 1 << c));
            }
        }
    }
}
