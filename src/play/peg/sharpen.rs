//! Pagodas made for one problem, to prune its exhaustive search harder than the board's
//! shape alone can ([`super::exhaust::candidates`]): random plays from the start (and
//! backwards from the finish) give positions the search would keep at its middle levels,
//! and a small integer program ([`crate::ip::peg_pagoda`]) finds the pagoda that rules out
//! the most of them. Rounds go on while each rules out some.
//!
//! Whatever this finds is only a heuristic's choice: every pagoda is an integer function
//! checked on every jump here, and again by the checker, so a pagoda found here cannot make
//! the search drop a position that reaches the finish (premise 1 of [`crate::proof::levels`]).

use super::PegBoard;
use crate::ip::peg_pagoda::{Towards, rules_out, ruling_out};

/// How hard to look: rounds per side, positions sampled per round, weights −L … L, and
/// HiGHS's seconds per round.
#[derive(Clone, Debug)]
pub struct Sharpening {
    pub rounds: usize,
    pub samples: usize,
    pub limit: i32,
    pub seconds: f64,
}

impl Default for Sharpening {
    fn default() -> Sharpening {
        // Measured on the 41-hole diamond's (−3,−1) → (3,1): 12 rounds of 2 s cut its
        // largest level from 286 to 126 million positions.
        Sharpening {
            rounds: 6,
            samples: 300,
            limit: 2,
            seconds: 2.0,
        }
    }
}

/// New pagodas for (v, f), beyond `known` (which they are meant to add to).
pub fn sharpen(
    board: &PegBoard,
    known: &[Vec<i64>],
    v: usize,
    f: usize,
    how: &Sharpening,
) -> Vec<Vec<i64>> {
    let n = board.cells.len();
    let jumps: Vec<_> = board.jumps.iter().map(|j| (j.from, j.over, j.to)).collect();
    let start = (0..n).filter(|&h| h != v).fold(0u64, |m, h| m | 1 << h);
    let mut all = known.to_vec();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (v as u64) << 8 ^ f as u64);
    for towards in [Towards::Finish(f), Towards::Start(start)] {
        for _ in 0..how.rounds {
            let kept = sample(&jumps, &all, start, f, towards, how.samples, &mut rng);
            let found = ruling_out(n, &jumps, &kept, towards, how.limit, how.seconds);
            match found {
                Some(p) if !all.contains(&p) => all.push(p),
                _ => break,
            }
        }
    }
    all.split_off(known.len())
}

/// A xorshift generator: the samples need only vary, and the same problem gets the same.
struct Rng(u64);

impl Rng {
    fn below(&mut self, k: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % k.max(1) as u64) as usize
    }
}

/// Up to `count` positions that the pagodas keep, from random plays (forward from the start
/// towards the finish, or backward from the finish alone towards the start) between 30% and
/// 70% of the way, where the search's levels are largest.
fn sample(
    jumps: &[(usize, usize, usize)],
    pagodas: &[Vec<i64>],
    start: u64,
    f: usize,
    towards: Towards,
    count: usize,
    rng: &mut Rng,
) -> Vec<u64> {
    let total = start.count_ones() as usize - 1;
    let (lo, hi) = (total * 3 / 10, total * 7 / 10);
    let kept = |m: u64| pagodas.iter().all(|p| !rules_out(p, m, towards));
    let forward = matches!(towards, Towards::Finish(_));
    let mut out = Vec::new();
    for _ in 0..count * 20 {
        let mut m = if forward { start } else { 1u64 << f };
        for depth in 1..=hi {
            let next: Vec<u64> = jumps
                .iter()
                .filter_map(|&(a, b, c)| {
                    let (full, empty) = if forward {
                        (1 << a | 1 << b, 1u64 << c)
                    } else {
                        (1u64 << c, 1 << a | 1 << b)
                    };
                    let child = m ^ full ^ empty;
                    (m & full == full && m & empty == 0 && kept(child)).then_some(child)
                })
                .collect();
            if next.is_empty() {
                break;
            }
            m = next[rng.below(next.len())];
            if depth >= lo && rng.below(4) == 0 {
                out.push(m);
            }
        }
        if out.len() >= count {
            break;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
