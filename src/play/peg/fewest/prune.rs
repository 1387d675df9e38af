//! Pruning the levels of one problem by pagoda functions made for its vacancy v and finish f
//! ([`Pagodas`]): a position of a forward level (reached from the start S) that cannot reach
//! the finish alone is dropped before the next level is built from it, and likewise a
//! position of a backward level (a complement, reached from the complement of the finish).
//!
//! **Premise.** A pagoda p satisfies p(to) <= p(from) + p(over) for every jump (checked here
//! on every jump, exactly, before it is used), so a jump never raises p(position).
//! - Forward: a position P that reaches the finish alone has p(P) >= p(f); one with
//!   p(P) < p(f) reaches no play's end.
//! - Backward: the level holds complements Q of positions P = comp(Q) that reach the finish.
//!   Such a P on a play is reached from S, so p(P) <= p(S); as p(comp Q) = p(all) − p(Q) and
//!   p(S) = p(all) − p(v), that is p(Q) >= p(v). One with p(Q) < p(v) lies on no play.
//!
//! So the two sides are pruned alike, each toward its own "finish" (the forward side toward
//! f, the backward side toward v). Every position on a play is kept, and so is every
//! position before it on that play (each is on the play too): the positions on some play,
//! G, are exactly those of the unpruned search, the move graph on them is the same graph,
//! and the fewest moves are unchanged. Only the levels shrink, and with them the positions
//! counted as built. The pagodas are closed under the problem's symmetry group H (the
//! symmetries fixing v and f, which map pagodas to pagodas of the same bounds), so the kept
//! set is a union of H-orbits and does not depend on the image a level keeps.

use super::Bits;
use crate::play::peg::PegBoard;
use crate::play::peg::sharpen::Sharpening;

/// How a problem's levels are pruned.
#[derive(Clone, Debug, Default)]
pub enum Pruning {
    /// Not at all: the levels of a hole serve every problem that uses that hole (a
    /// catalogue shares them by hole class).
    #[default]
    Off,
    /// By the board's shape pagodas (resource counts: −1 on the rim, +1 on a lattice
    /// class, [`crate::play::peg::exhaust::candidates`]).
    Shape,
    /// By those and pagodas made for the problem by a small integer program
    /// ([`crate::play::peg::sharpen`]).
    Sharpened(Sharpening),
}

impl Pruning {
    pub fn is_off(&self) -> bool {
        matches!(self, Pruning::Off)
    }

    /// The pagodas for (v, f) (none when off).
    pub fn pagodas(&self, board: &PegBoard, v: usize, f: usize) -> Vec<Vec<i64>> {
        let shape = || crate::play::peg::exhaust::candidates(board);
        match self {
            Pruning::Off => Vec::new(),
            Pruning::Shape => shape(),
            Pruning::Sharpened(how) => {
                let mut all = shape();
                let more = crate::play::peg::sharpen::sharpen(board, &all, v, f, how);
                all.extend(more);
                all
            }
        }
    }

    /// The command line's value: off, shape or sharpened (the integer program's default
    /// effort, [`Sharpening::default`]).
    pub fn parse(s: &str) -> Result<Pruning, String> {
        match s.trim() {
            "off" => Ok(Pruning::Off),
            "shape" => Ok(Pruning::Shape),
            "sharpened" => Ok(Pruning::Sharpened(Sharpening::default())),
            _ => Err(format!("'{s}': one of off, shape, sharpened")),
        }
    }

    /// The name for CSV files and messages.
    pub fn name(&self) -> &'static str {
        match self {
            Pruning::Off => "off",
            Pruning::Shape => "shape",
            Pruning::Sharpened(_) => "sharpened",
        }
    }
}

/// Pagodas as per-byte sum tables (value(P) = Σ_k table[k][byte k of P]), each with the least
/// value a kept position may have: a position is kept when every pagoda is at least its bound.
#[derive(Default)]
pub struct Pagodas {
    tables: Vec<(Vec<[i64; 256]>, i64)>,
}

impl Pagodas {
    /// No pruning: every position is kept.
    pub fn none() -> Pagodas {
        Pagodas::default()
    }

    /// The pagodas of `weights` that never rise on a jump (the others are left out), closed
    /// under `group` (symmetries fixing `target`), each bounded by its value at `target`:
    /// a position is kept when it can still reach `target` alone by every pagoda.
    pub fn toward(bits: &Bits, weights: &[Vec<i64>], group: &[usize], target: usize) -> Pagodas {
        let mut closed: Vec<Vec<i64>> = Vec::new();
        for w in weights
            .iter()
            .filter(|w| w.len() == bits.n && never_rises(bits, w))
        {
            for &g in group {
                // q = w∘g⁻¹: q(g(h)) = w(h); g fixes target, so q(target) = w(target).
                let mut q = vec![0i64; bits.n];
                for (h, &x) in w.iter().enumerate() {
                    q[bits.perms[g][h] as usize] = x;
                }
                if !closed.contains(&q) {
                    closed.push(q);
                }
            }
        }
        let tables = closed
            .into_iter()
            .map(|q| {
                let bound = q[target];
                (byte_sums(bits.n, &q), bound)
            })
            .collect();
        Pagodas { tables }
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Feeds the pagodas (their byte tables and bounds) to a digest.
    pub(super) fn digest(&self, h: &mut sha2::Sha256) {
        use sha2::Digest;
        for (t, bound) in &self.tables {
            h.update(format!("pagoda {bound} {t:?}\n").as_bytes());
        }
    }

    /// Whether p may still lie on a play: no pagoda is below its bound.
    pub fn keeps(&self, p: u64) -> bool {
        self.tables.iter().all(|(t, bound)| {
            let v: i64 = t
                .iter()
                .enumerate()
                .map(|(k, t)| t[(p >> (8 * k)) as usize & 255])
                .sum();
            v >= *bound
        })
    }
}

/// Whether w(to) <= w(from) + w(over) on every jump of the board (exact integers; weights
/// beyond ±2⁴⁰ are refused, so that no sum over 64 holes overflows).
fn never_rises(bits: &Bits, w: &[i64]) -> bool {
    w.iter().all(|x| x.abs() <= 1 << 40)
        && bits.from.iter().enumerate().all(|(a, jumps)| {
            jumps
                .iter()
                .all(|&(b, c)| w[c as usize] <= w[a] + w[b as usize])
        })
}

/// Per-byte sums of the weights: t[k][byte] = Σ w(8k + bit) over the bits set in byte.
fn byte_sums(n: usize, w: &[i64]) -> Vec<[i64; 256]> {
    (0..n.div_ceil(8))
        .map(|k| {
            let mut t = [0i64; 256];
            for (byte, slot) in t.iter_mut().enumerate() {
                for bit in 0..8 {
                    let h = 8 * k + bit;
                    if byte >> bit & 1 == 1 && h < n {
                        *slot += w[h];
                    }
                }
            }
            t
        })
        .collect()
}
