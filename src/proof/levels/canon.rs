//! The orbits of positions under a group of symmetries ([`Canon`]): each position stands for
//! its orbit by its least image, computed by one table look-up per byte of the position.

/// A position's images: the least of them represents its orbit.
pub(in crate::proof) struct Canon {
    /// tables[g][k][byte] = the image under g of the holes 8k … 8k+7 given by `byte`.
    pub(super) tables: Vec<Vec<[u64; 256]>>,
}

/// Byte tables of a permutation `g` of `n` holes (at most 64): `t[k][byte]` is the image
/// under g of the holes 8k … 8k+7 set in `byte`, so the image of a position is the OR of
/// one look-up per byte.
pub fn byte_tables(n: usize, g: impl Fn(usize) -> usize) -> Vec<[u64; 256]> {
    (0..n.div_ceil(8))
        .map(|k| {
            let mut t = [0u64; 256];
            for (byte, slot) in t.iter_mut().enumerate() {
                for bit in 0..8 {
                    let h = 8 * k + bit;
                    if byte >> bit & 1 == 1 && h < n {
                        *slot |= 1 << g(h);
                    }
                }
            }
            t
        })
        .collect()
}

impl Canon {
    pub(in crate::proof) fn new(n: usize, perms: &[Vec<usize>]) -> Canon {
        let tables = perms.iter().map(|g| byte_tables(n, |h| g[h])).collect();
        Canon { tables }
    }

    /// The images of p under each symmetry, into `out`.
    pub(super) fn images(&self, p: u64, out: &mut [u64]) {
        for (slot, t) in out.iter_mut().zip(&self.tables) {
            *slot = t
                .iter()
                .enumerate()
                .fold(0, |acc, (k, t)| acc | t[(p >> (8 * k)) as usize & 255]);
        }
    }

    /// The least image of q = p ^ flip, from the images of p and those of `flip` (an image
    /// under a permutation is linear over XOR): the same as [`Canon::least`] of q.
    pub(super) fn least_after(&self, q: u64, images: &[u64], flips: &[u64]) -> u64 {
        images
            .iter()
            .zip(flips)
            .fold(q, |best, (img, f)| best.min(img ^ f))
    }

    /// The least of p and its images.
    pub(in crate::proof) fn least(&self, p: u64) -> u64 {
        self.tables.iter().fold(p, |best, t| {
            let img = t
                .iter()
                .enumerate()
                .fold(0, |acc, (k, t)| acc | t[(p >> (8 * k)) as usize & 255]);
            best.min(img)
        })
    }
}
