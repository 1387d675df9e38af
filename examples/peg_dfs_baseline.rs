//! The baseline of `scripts/bench`'s board section: a plain depth-first search for one
//! problem of the English board, standalone (no solarmy code), the approach of the well-known
//! peg-solitaire blog posts. A position is the set of its men as the bits of a `u64`; the
//! search tries the jumps in a fixed order (by from-hole, holes in ascending (x, y), then the
//! directions +x, −x, +y, −y) and remembers every position it has shown cannot reach the
//! finish, kept up to the symmetries of the board that fix the finish. Nothing else: no
//! pagoda, no heuristic order, no restarts.
//!
//! usage: cargo run --release --example peg_dfs_baseline -- VX,VY FX,FY
//! prints one line: `play <jumps> <ms>` (the jumps as x,y>x,y) or `none <ms>`; the
//! milliseconds are the search's own, board set-up included.

use std::collections::HashSet;
use std::time::Instant;

/// A symmetry of the square, on cells.
type Map = fn((i32, i32)) -> (i32, i32);

fn cell(s: &str) -> (i32, i32) {
    let (x, y) = s.split_once(',').expect("a cell is x,y");
    (x.trim().parse().expect("x"), y.trim().parse().expect("y"))
}

struct Dfs {
    jumps: Vec<(u64, u64, u64)>,
    syms: Vec<Vec<usize>>,
    finish: u64,
    failed: HashSet<u64>,
    path: Vec<usize>,
}

impl Dfs {
    /// The least image of p under the symmetries fixing the finish.
    fn canon(&self, p: u64) -> u64 {
        self.syms
            .iter()
            .map(|perm| {
                perm.iter()
                    .enumerate()
                    .filter(|&(h, _)| p >> h & 1 == 1)
                    .fold(0u64, |acc, (_, &g)| acc | 1 << g)
            })
            .min()
            .unwrap_or(p)
    }

    fn solve(&mut self, p: u64) -> bool {
        if p.count_ones() == 1 {
            return p == self.finish;
        }
        let key = self.canon(p);
        if self.failed.contains(&key) {
            return false;
        }
        for j in 0..self.jumps.len() {
            let (a, b, c) = self.jumps[j];
            if p & a != 0 && p & b != 0 && p & c == 0 {
                self.path.push(j);
                if self.solve(p ^ a ^ b ^ c) {
                    return true;
                }
                self.path.pop();
            }
        }
        self.failed.insert(key);
        false
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 {
        eprintln!("usage: peg_dfs_baseline VX,VY FX,FY (English board cells, centre 0,0)");
        std::process::exit(2);
    }
    let t0 = Instant::now();
    let (v, f) = (cell(&args[0]), cell(&args[1]));
    let mut holes: Vec<(i32, i32)> = Vec::new();
    for x in -3i32..=3 {
        for y in -3i32..=3 {
            if x.abs().min(y.abs()) <= 1 {
                holes.push((x, y));
            }
        }
    }
    let at = |c: (i32, i32)| holes.iter().position(|&h| h == c);
    let (Some(vh), Some(fh)) = (at(v), at(f)) else {
        eprintln!("peg_dfs_baseline: not a hole of the English board");
        std::process::exit(2);
    };
    let mut jumps = Vec::new();
    let mut named = Vec::new();
    for (h, &(x, y)) in holes.iter().enumerate() {
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let (Some(o), Some(t)) = (at((x + dx, y + dy)), at((x + 2 * dx, y + 2 * dy))) {
                jumps.push((1u64 << h, 1u64 << o, 1u64 << t));
                named.push(((x, y), holes[t]));
            }
        }
    }
    // The square's eight symmetries, kept when they fix the finish.
    let maps: [Map; 8] = [
        |(x, y)| (x, y),
        |(x, y)| (-x, y),
        |(x, y)| (x, -y),
        |(x, y)| (-x, -y),
        |(x, y)| (y, x),
        |(x, y)| (-y, x),
        |(x, y)| (y, -x),
        |(x, y)| (-y, -x),
    ];
    let syms = maps
        .iter()
        .filter(|m| m(f) == f)
        .map(|m| holes.iter().map(|&c| at(m(c)).expect("a hole")).collect())
        .collect();
    let full = (1u64 << holes.len()) - 1;
    let mut dfs = Dfs {
        jumps,
        syms,
        finish: 1 << fh,
        failed: HashSet::new(),
        path: Vec::new(),
    };
    let found = dfs.solve(full & !(1 << vh));
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    if found {
        let play: Vec<String> = dfs
            .path
            .iter()
            .map(|&j| {
                let ((a, b), (c, d)) = named[j];
                format!("{a},{b}>{c},{d}")
            })
            .collect();
        println!("play {} {ms:.3}", play.join(" "));
    } else {
        println!("none {ms:.3}");
    }
}
