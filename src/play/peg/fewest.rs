//! The fewest moves of a board problem, exactly: a search by levels over every position that
//! lies on some play from the start to the finish (boards of at most 64 holes, a position
//! being the set of its men as the bits of a `u64`).
//!
//! **Method.** Let S be the start (every hole but the vacancy v), T the finish (one man on f)
//! and N = holes − 2 the number of jumps of any play. Split N = J + K with J = ⌈N/2⌉.
//!
//! 1. *Forward levels.* F_j = the positions reached from S by j jumps (j = 0 … J), each level
//!    sorted, positions kept up to the stabiliser H_v of v among the board's symmetries.
//! 2. *Backward levels, by complement.* If a jump a → c over b turns P into P', the same jump
//!    a → c over b turns the complement of P' (a, b full, c empty) into the complement of P:
//!    so P reaches T in k jumps exactly when the complement of P is reached from the
//!    complement of T (every hole but f) in k jumps (the jumps in reverse order; chains of one
//!    man are not kept, so a problem and its reverse may differ in moves). The backward levels are the forward levels B_k of that start
//!    (k = 0 … K), kept up to H_f. (For the central game S is T's complement, and one set of
//!    levels serves both ways.)
//! 3. *The positions on some play*, G_j (j jumps made): G_J = {P ∈ F_J : comp(P) ∈ B_K}; for
//!    j < J, G_j = the parents (one jump back) of G_{j+1} that lie in F_j; for j > J,
//!    G_j = the children of G_{j−1} whose complement lies in B_{N−j}. A position is on some
//!    play exactly when it is reached from S and reaches T, and every position of a play is,
//!    so G is exactly the union of all plays' positions, kept up to H = H_v ∩ H_f (every
//!    symmetry in H fixes S and T and maps plays to plays).
//! 4. *Moves.* A move is one man's chain of jumps; every position inside a chain that is part
//!    of a play is itself in G (reached from S, and it reaches T through the rest of the
//!    play), so the moves between positions of G are found by chains that never leave G.
//!    The moves form an acyclic graph (each jump removes a man); its shortest path from S to T,
//!    by dynamic programming over the levels, is the fewest moves, and no shorter play exists
//!    because every play is a path of this graph. No bound or heuristic is involved: the
//!    search is exhaustive over the reachable positions.
//!
//! The play reported is walked on the concrete board (one move at a time, each move leading to
//! a position one move nearer T), and the caller replays it with the independent checker.

use super::PegBoard;
use crate::proof::levels::merge;
use crate::proof::verify::Step;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A jump as (from, over, to) hole indices.
type Jump3 = (u8, u8, u8);
/// What sees each move: its end position and its chain of jumps.
type Visit<'a> = dyn FnMut(u64, usize, &[Jump3]) + 'a;
/// The number of a position in the move graph, if it is on some play.
type Id<'a> = dyn Fn(u64) -> Option<usize> + 'a;
/// A part of the move graph: each position's number of children, and the children.
type Adjacency = (Vec<u32>, Vec<u32>);

/// A board as bits: its jumps and its symmetries (as byte tables, for fast images).
pub struct Bits {
    pub n: usize,
    pub full: u64,
    /// (from, over, to) hole indices.
    jumps: Vec<(u8, u8, u8)>,
    /// The jumps by from-hole: (over, to).
    from: Vec<Vec<(u8, u8)>>,
    /// Every symmetry as a permutation of the holes (the board's order, the identity first).
    perms: Vec<Vec<u8>>,
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
    fn compose(&self, g: usize, h: usize) -> usize {
        let gh: Vec<u8> = self.perms[h]
            .iter()
            .map(|&x| self.perms[g][x as usize])
            .collect();
        self.perms
            .iter()
            .position(|p| *p == gh)
            .expect("the symmetries form a group")
    }

    fn inverse(&self, g: usize) -> usize {
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

    /// Every child of p (one jump), appended to `out`.
    fn children(&self, p: u64, out: &mut Vec<u64>) {
        for &(a, b, c) in &self.jumps {
            if p >> a & 1 == 1 && p >> b & 1 == 1 && p >> c & 1 == 0 {
                out.push(p ^ (1 << a | 1 << b | 1 << c));
            }
        }
    }

    /// Every parent of p (one jump back), appended to `out`.
    fn parents(&self, p: u64, out: &mut Vec<u64>) {
        for &(a, b, c) in &self.jumps {
            if p >> c & 1 == 1 && p >> a & 1 == 0 && p >> b & 1 == 0 {
                out.push(p ^ (1 << a | 1 << b | 1 << c));
            }
        }
    }
}

/// Why a computation stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Interrupted,
    /// More positions than the cap: the memory would not suffice.
    TooMany,
}

/// A set of positions by open addressing (linear probing, at most 70% full, the table sized
/// to the set rather than to a power of two): one or two memory reads per look-up where a
/// binary search of a large level takes some twenty, in under 12 bytes per position, so that
/// a catalogue keeps about twice as many levels within its memory budget as at half full.
/// `u64::MAX` marks an empty slot (never a position here: every position has a hole, as the
/// start has one and jumps keep the number of holes growing; complements have a man).
pub struct Lookup {
    slots: Vec<u64>,
    len: usize,
}

impl Lookup {
    fn new(keys: &[u64]) -> Lookup {
        let size = (keys.len() + keys.len() * 3 / 7 + 1).max(16);
        let mut t = Lookup {
            slots: vec![u64::MAX; size],
            len: keys.len(),
        };
        for &k in keys {
            let mut i = t.home(k);
            while t.slots[i] != u64::MAX {
                i = t.after(i);
            }
            t.slots[i] = k;
        }
        t
    }

    /// The first slot tried for k: the high bits of a multiplicative hash, scaled to the table.
    fn home(&self, k: u64) -> usize {
        let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h as u128 * self.slots.len() as u128) >> 64) as usize
    }

    fn after(&self, i: usize) -> usize {
        if i + 1 == self.slots.len() { 0 } else { i + 1 }
    }

    /// The slot holding k, if k is in the set.
    fn find(&self, k: u64) -> Option<usize> {
        let mut i = self.home(k);
        loop {
            match self.slots[i] {
                u64::MAX => return None,
                x if x == k => return Some(i),
                _ => i = self.after(i),
            }
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The positions, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().copied().filter(|&x| x != u64::MAX)
    }
}

/// A progress callback: one line saying what is being built.
pub type Progress = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// Limits of a computation.
#[derive(Clone)]
pub struct Limits {
    /// The most positions any one level may hold (8 bytes each, sorted; building a level
    /// needs a few times that).
    pub max_level: usize,
    /// The most bytes a catalogue keeps in reaches ([`REACH_BYTES`] by default).
    pub reach_bytes: usize,
    pub interrupt: Option<&'static AtomicBool>,
    /// Told each level as it is built.
    pub progress: Option<Progress>,
}

impl Limits {
    fn tell(&self, line: impl FnOnce() -> String) {
        if let Some(p) = &self.progress {
            p(line());
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_level: 150_000_000,
            reach_bytes: REACH_BYTES,
            interrupt: None,
            progress: None,
        }
    }
}

/// The forward levels from a start of one man missing: `levels[j]` = the positions after j
/// jumps, sorted, each the least image under `group` (the stabiliser of the vacancy).
pub struct Reach {
    pub hole: usize,
    pub group: Vec<usize>,
    pub levels: Vec<Lookup>,
}

impl Reach {
    /// The levels 0 … depth from every hole but `hole`.
    pub fn new(bits: &Bits, hole: usize, depth: usize, lim: &Limits) -> Result<Reach, Stop> {
        let group = bits.stabiliser(&[hole]);
        let start = bits.canon(&group, bits.full & !(1 << hole));
        let mut last = vec![start];
        let mut levels = Vec::new();
        let t0 = Instant::now();
        let mut total = 1u64;
        for j in 0..depth {
            let next = next_level(bits, &group, &last, lim)?;
            total += next.len() as u64;
            lim.tell(|| {
                format!(
                    "levels from hole {hole}: {} jumps, {} positions ({total} in all, {:.0}/s)",
                    j + 1,
                    next.len(),
                    total as f64 / t0.elapsed().as_secs_f64().max(1e-9)
                )
            });
            levels.push(Lookup::new(&last));
            last = next;
        }
        levels.push(Lookup::new(&last));
        Ok(Reach {
            hole,
            group,
            levels,
        })
    }

    /// Is p (any image) in level j?
    fn holds(&self, bits: &Bits, j: usize, p: u64) -> bool {
        self.levels
            .get(j)
            .is_some_and(|l| l.find(bits.canon(&self.group, p)).is_some())
    }

    pub fn positions(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// The memory its levels take.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(|l| 8 * l.slots.len()).sum()
    }
}

/// The children of a level, each the least image under `group`, sorted and without repeats;
/// built in two threads ([`children_sorted`]) whose lists are merged at the end.
fn next_level(bits: &Bits, group: &[usize], level: &[u64], lim: &Limits) -> Result<Vec<u64>, Stop> {
    let half = level.len().div_ceil(2).max(1);
    let runs: Vec<Result<Vec<u64>, Stop>> = std::thread::scope(|s| {
        let handles: Vec<_> = level
            .chunks(half)
            .map(|part| s.spawn(move || children_sorted(bits, group, part, lim)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a level thread panicked"))
            .collect()
    });
    let mut out: Vec<u64> = Vec::new();
    for r in runs {
        out = merge(&out, &r?);
    }
    if out.len() > lim.max_level {
        return Err(Stop::TooMany);
    }
    Ok(out)
}

/// The children of `part` (least images under `group`), sorted without repeats. Each chunk's
/// children are sorted on their own, a run; runs are merged pairwise in linear time whenever
/// the newest is at least half as long as the one before. So each run is more than twice the
/// next, the runs together hold less than twice the longest (the transient memory stays
/// within a few times the level's own size), and a child is merged about log(n / chunk)
/// times, where sorting the growing list again would sort it whole each time.
fn children_sorted(
    bits: &Bits,
    group: &[usize],
    part: &[u64],
    lim: &Limits,
) -> Result<Vec<u64>, Stop> {
    let mut runs: Vec<Vec<u64>> = Vec::new();
    for chunk in part.chunks(1 << 16) {
        if lim.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Interrupted);
        }
        let mut buf = Vec::new();
        for &p in chunk {
            let from = buf.len();
            bits.children(p, &mut buf);
            for c in &mut buf[from..] {
                *c = bits.canon(group, *c);
            }
        }
        buf.sort_unstable();
        buf.dedup();
        runs.push(buf);
        while runs.len() >= 2 && 2 * runs[runs.len() - 1].len() >= runs[runs.len() - 2].len() {
            let (b, a) = (
                runs.pop().unwrap_or_default(),
                runs.pop().unwrap_or_default(),
            );
            let merged = merge(&a, &b);
            if merged.len() > lim.max_level {
                return Err(Stop::TooMany);
            }
            runs.push(merged);
        }
    }
    let mut out = Vec::new();
    while let Some(r) = runs.pop() {
        out = merge(&r, &out);
        if out.len() > lim.max_level {
            return Err(Stop::TooMany);
        }
    }
    Ok(out)
}

/// A reach from a hole, seen from another hole of the same class: the levels of `reach`
/// mapped by the symmetry `g` (g(reach.hole) = the hole meant).
pub struct Seen<'a> {
    pub reach: &'a Reach,
    pub g: usize,
    g_inv: usize,
}

impl<'a> Seen<'a> {
    pub fn new(bits: &Bits, reach: &'a Reach, g: usize) -> Seen<'a> {
        Seen {
            reach,
            g,
            g_inv: bits.inverse(g),
        }
    }

    fn holds(&self, bits: &Bits, j: usize, p: u64) -> bool {
        let q = if self.g_inv == 0 {
            p
        } else {
            bits.image(self.g_inv, p)
        };
        self.reach.holds(bits, j, q)
    }
}

/// The answer for one problem.
#[derive(Clone, Debug, Default)]
pub struct Solved {
    /// None: no play reaches the finish.
    pub min_moves: Option<u32>,
    /// A play of `min_moves` moves (board coordinates).
    pub play: Option<Vec<Step>>,
    /// `on_plays[j]` = positions (up to the problem's symmetry) after j jumps on some play.
    pub on_plays: Vec<u64>,
    /// `table[d][t]` = positions on some play whose fewest moves from the start is d and whose
    /// shortest play through them has t moves (Beasley's Tables 1–4, exact).
    pub table: Vec<Vec<u64>>,
    /// The size of the problem's symmetry group (positions are counted up to it).
    pub symmetry: usize,
    pub seconds: f64,
}

/// Every position on some play, by jumps made, each the least image under `h`.
fn on_plays(
    bits: &Bits,
    h: &[usize],
    fwd: &Seen,
    bwd: &Seen,
    lim: &Limits,
) -> Result<Vec<Vec<u64>>, Stop> {
    let n_jumps = bits.n - 2;
    let j_mid = fwd.reach.levels.len() - 1;
    let k_mid = n_jumps - j_mid;
    // Right cosets of H0 = g⁻¹Hg in the stabiliser of the reach's hole: one image per H-orbit.
    let h0: Vec<usize> = h
        .iter()
        .map(|&x| bits.compose(fwd.g_inv, bits.compose(x, fwd.g)))
        .collect();
    let mut reps: Vec<usize> = Vec::new();
    let mut covered: Vec<usize> = Vec::new();
    for &x in &fwd.reach.group {
        if !covered.contains(&x) {
            reps.push(x);
            covered.extend(h0.iter().map(|&y| bits.compose(y, x)));
        }
    }
    let mut levels: Vec<Vec<u64>> = vec![Vec::new(); n_jumps + 1];
    let stop = || lim.interrupt.is_some_and(|f| f.load(Ordering::Relaxed));
    let meet: Vec<u64> = fwd.reach.levels[j_mid].iter().collect();
    let mut mid = par_filter(&meet, &stop, &|r, out| {
        for &x in &reps {
            let p = bits.image(fwd.g, bits.image(x, r));
            if bwd.holds(bits, k_mid, bits.full ^ p) {
                out.push(bits.canon(h, p));
            }
        }
    })?;
    mid.sort_unstable();
    mid.dedup();
    levels[j_mid] = mid;
    // Membership in a level is the same for every image under H (H fixes both holes), so
    // candidates are reduced to their least images before they are tested.
    let mut buf = Vec::new();
    for j in (0..j_mid).rev() {
        buf.clear();
        for &q in &levels[j + 1] {
            bits.parents(q, &mut buf);
        }
        canon_all(bits, h, &mut buf);
        levels[j] = par_filter(&buf, &stop, &|p, out| {
            if fwd.holds(bits, j, p) {
                out.push(p)
            }
        })?;
    }
    for j in j_mid + 1..=n_jumps {
        buf.clear();
        for &q in &levels[j - 1] {
            bits.children(q, &mut buf);
        }
        canon_all(bits, h, &mut buf);
        levels[j] = par_filter(&buf, &stop, &|p, out| {
            if bwd.holds(bits, n_jumps - j, bits.full ^ p) {
                out.push(p)
            }
        })?;
    }
    Ok(levels)
}

/// Replaces every position by its least image under `h`, sorted, without repeats.
fn canon_all(bits: &Bits, h: &[usize], v: &mut Vec<u64>) {
    for p in v.iter_mut() {
        *p = bits.canon(h, *p);
    }
    v.sort_unstable();
    v.dedup();
}

/// `f` applied to every item in two threads (each pushing what it keeps), the outputs in the
/// items' order.
fn par_filter(
    items: &[u64],
    stop: &(dyn Fn() -> bool + Sync),
    f: &(dyn Fn(u64, &mut Vec<u64>) + Sync),
) -> Result<Vec<u64>, Stop> {
    let half = items.len().div_ceil(2).max(1);
    let parts: Vec<Result<Vec<u64>, Stop>> = std::thread::scope(|s| {
        let hs: Vec<_> = items
            .chunks(half)
            .map(|part| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for chunk in part.chunks(1 << 16) {
                        if stop() {
                            return Err(Stop::Interrupted);
                        }
                        for &p in chunk {
                            f(p, &mut out);
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        hs.into_iter()
            .map(|x| x.join().expect("a filter thread panicked"))
            .collect()
    });
    let mut out = Vec::new();
    for p in parts {
        out.extend(p?);
    }
    Ok(out)
}

/// The moves of the graph on G: every chain of jumps by one man from p whose positions stay
/// in G; `visit` sees each end position with its number and the chain's jumps (hole indices).
fn moves_from(bits: &Bits, in_g: &Id, p: u64, visit: &mut Visit) {
    fn chain(
        bits: &Bits,
        in_g: &Id,
        rest: u64,
        at: u8,
        steps: &mut Vec<(u8, u8, u8)>,
        visit: &mut Visit,
    ) {
        for &(b, c) in &bits.from[at as usize] {
            if rest >> b & 1 == 1 && rest >> c & 1 == 0 {
                let rest2 = rest ^ (1 << b);
                let pos = rest2 | 1 << c;
                if let Some(k) = in_g(pos) {
                    steps.push((at, b, c));
                    visit(pos, k, steps);
                    chain(bits, in_g, rest2, c, steps, visit);
                    steps.pop();
                }
            }
        }
    }
    let mut steps = Vec::new();
    for a in 0..bits.n as u8 {
        if p >> a & 1 == 1 {
            chain(bits, in_g, p ^ (1 << a), a, &mut steps, visit);
        }
    }
}

/// Solves one problem from the forward levels of its vacancy and of its finish (`fwd`: the
/// levels 0 … ⌈N/2⌉ seen from the vacancy, `bwd`: 0 … ⌊N/2⌋ seen from the finish).
pub fn solve(
    board: &PegBoard,
    bits: &Bits,
    (fwd, bwd): (&Seen, &Seen),
    lim: &Limits,
) -> Result<Solved, Stop> {
    let started = Instant::now();
    let v = bits.perms[fwd.g][fwd.reach.hole] as usize;
    let f = bits.perms[bwd.g][bwd.reach.hole] as usize;
    let h = bits.stabiliser(&[v, f]);
    lim.tell(|| "the positions on some play".to_string());
    let levels = on_plays(bits, &h, fwd, bwd, lim)?;
    lim.tell(|| {
        format!(
            "the move graph on {} positions",
            levels.iter().map(Vec::len).sum::<usize>()
        )
    });
    let mut out = Solved {
        on_plays: levels.iter().map(|l| l.len() as u64).collect(),
        symmetry: h.len(),
        ..Solved::default()
    };
    let start = bits.full & !(1 << v);
    if levels.iter().any(|l| l.is_empty()) {
        out.seconds = started.elapsed().as_secs_f64();
        return Ok(out);
    }
    let g = Graph::new(bits, &h, &levels, lim)?;
    let id = |p: u64| g.id(bits, p);
    // Fewest moves to the finish (last position first: children come after their parents)
    // and from the start (first position first).
    // Numbers are slots: an empty slot has no moves and stays FAR both ways.
    const FAR: u32 = u32::MAX;
    let total = g.offsets[levels.len()];
    let (first, last) = (id(start).expect("in G"), id(1 << f).expect("in G"));
    let mut to_end = vec![FAR; total];
    to_end[last] = 0;
    for k in (0..total).rev().filter(|&k| k != last) {
        to_end[k] = g
            .children(k)
            .iter()
            .map(|&c| to_end[c as usize].saturating_add(1))
            .min()
            .unwrap_or(FAR);
    }
    let mut from_start = vec![FAR; total];
    from_start[first] = 0;
    for k in 0..total {
        let d = from_start[k].saturating_add(1);
        for &c in g.children(k) {
            from_start[c as usize] = from_start[c as usize].min(d);
        }
    }
    let best = to_end[first];
    let mut table: Vec<Vec<u64>> = Vec::new();
    for k in (0..total).filter(|&k| from_start[k] != FAR && to_end[k] != FAR) {
        let (d, t) = (from_start[k] as usize, (from_start[k] + to_end[k]) as usize);
        if table.len() <= d {
            table.resize(d + 1, Vec::new());
        }
        if table[d].len() <= t {
            table[d].resize(t + 1, 0);
        }
        table[d][t] += 1;
    }
    out.table = table;
    out.min_moves = Some(best);
    out.play = Some(walk(board, bits, &id, &to_end, start));
    out.seconds = started.elapsed().as_secs_f64();
    Ok(out)
}

/// The move graph on the positions on some play: each level a [`Lookup`] (found by the
/// position's man count), a position numbered by its slot there after the slots of the
/// levels before (one memory read per number: the search spends most of its time numbering
/// the ends of moves), and each position's move children, found in two threads.
struct Graph<'a> {
    h: &'a [usize],
    tables: Vec<Lookup>,
    /// offsets[j]: the slots of the levels before j.
    offsets: Vec<usize>,
    /// children of k: targets[starts[k] .. starts[k + 1]].
    starts: Vec<usize>,
    targets: Vec<u32>,
}

impl<'a> Graph<'a> {
    fn new(
        bits: &Bits,
        h: &'a [usize],
        levels: &'a [Vec<u64>],
        lim: &Limits,
    ) -> Result<Graph<'a>, Stop> {
        let tables: Vec<Lookup> = levels.iter().map(|l| Lookup::new(l)).collect();
        let mut offsets = vec![0];
        for t in &tables {
            offsets.push(offsets.last().expect("0") + t.slots.len());
        }
        let mut g = Graph {
            h,
            tables,
            offsets,
            starts: vec![0],
            targets: Vec::new(),
        };
        // Every slot in number order, level by level; an empty one (u64::MAX) gets no moves.
        for j in 0..g.tables.len() {
            for (lens, targets) in g.moves_of_level(bits, j, lim)? {
                for l in lens {
                    let last = *g.starts.last().expect("0");
                    g.starts.push(last + l as usize);
                }
                g.targets.extend(targets);
            }
        }
        Ok(g)
    }

    /// The move children of every slot of level j, in two threads (each half of the slots:
    /// per slot the number of children, and the children).
    fn moves_of_level(&self, bits: &Bits, j: usize, lim: &Limits) -> Result<Vec<Adjacency>, Stop> {
        let slots = &self.tables[j].slots;
        let half = slots.len().div_ceil(2).max(1);
        let parts: Vec<Result<Adjacency, Stop>> = std::thread::scope(|s| {
            let hs: Vec<_> = slots
                .chunks(half)
                .map(|part| {
                    s.spawn(move || {
                        let in_g = |p: u64| self.id(bits, p);
                        let (mut lens, mut targets) = (Vec::new(), Vec::new());
                        let mut kids: Vec<u32> = Vec::new();
                        for (i, &p) in part.iter().enumerate() {
                            if i % 4096 == 0
                                && lim.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
                            {
                                return Err(Stop::Interrupted);
                            }
                            kids.clear();
                            if p != u64::MAX {
                                moves_from(bits, &in_g, p, &mut |_, k, _| kids.push(k as u32));
                            }
                            kids.sort_unstable();
                            kids.dedup();
                            lens.push(kids.len() as u32);
                            targets.extend_from_slice(&kids);
                        }
                        Ok((lens, targets))
                    })
                })
                .collect();
            hs.into_iter()
                .map(|x| x.join().expect("a graph thread panicked"))
                .collect()
        });
        parts.into_iter().collect()
    }

    /// The number of a position (any image), if it is on some play.
    fn id(&self, bits: &Bits, p: u64) -> Option<usize> {
        let j = (bits.n - 1).checked_sub(p.count_ones() as usize)?;
        let c = bits.canon(self.h, p);
        let slot = self.tables.get(j)?.find(c)?;
        Some(self.offsets[j] + slot)
    }

    fn children(&self, k: usize) -> &[u32] {
        &self.targets[self.starts[k]..self.starts[k + 1]]
    }
}

/// A shortest play on the concrete board: from the start, each move one that leads to a
/// position one move nearer the finish.
fn walk(board: &PegBoard, bits: &Bits, id: &Id, to_end: &[u32], start: u64) -> Vec<Step> {
    let mut play = Vec::new();
    let mut at = start;
    let far = |p: u64| to_end[id(p).expect("on some play")];
    while far(at) > 0 {
        let want = far(at) - 1;
        let mut next: Option<(u64, Vec<Jump3>)> = None;
        moves_from(bits, id, at, &mut |c, k, steps| {
            if next.is_none() && to_end[k] == want {
                next = Some((c, steps.to_vec()));
            }
        });
        let (c, steps) = next.expect("a position one move nearer the finish");
        play.extend(steps.iter().map(|&(a, b, c)| Step {
            from: board.cells[a as usize],
            over: board.cells[b as usize],
            to: board.cells[c as usize],
        }));
        at = c;
    }
    play
}

/// The most bytes the catalogue keeps in reaches (the current problem's two are kept
/// whatever their size): its memory stays near that of its largest problem solved alone
/// (3.3 GB for an English problem with no symmetry) instead of growing with the reaches
/// later problems could reuse (10 GB and more on the English board).
pub const REACH_BYTES: usize = 3 << 30;

/// Drops the reaches no later problem needs, then, while the cache holds more than `budget`
/// bytes, the one needed last (the current problem's `keep` stay): a reach dropped and
/// needed again is only built again.
fn evict(cache: &mut HashMap<usize, Reach>, needed: &[usize], keep: [usize; 2], budget: usize) {
    cache.retain(|r, _| needed.contains(r));
    while cache.values().map(Reach::bytes).sum::<usize>() > budget {
        let next_use = |r: &usize| needed.iter().position(|x| x == r).unwrap_or(usize::MAX);
        let Some(&last) = cache
            .keys()
            .filter(|r| !keep.contains(r))
            .max_by_key(|r| next_use(r))
        else {
            break;
        };
        cache.remove(&last);
    }
}

/// The levels each side needs: the forward reach ⌈N/2⌉ jumps deep, the backward ⌊N/2⌋.
pub fn depths(bits: &Bits) -> (usize, usize) {
    let n = bits.n - 2;
    (n - n / 2, n / 2)
}

/// One problem from scratch: the levels of the vacancy and of the finish (shared when the
/// two are one hole), then [`solve`]. Also returns the positions of the levels built.
pub fn solve_one(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    lim: &Limits,
) -> Result<(Solved, u64), String> {
    let bits = Bits::new(board)?;
    let started = Instant::now();
    let (jf, jb) = depths(&bits);
    let stop = |s: Stop| stop_line(s, lim);
    let fwd = Reach::new(&bits, vacancy, jf, lim).map_err(stop)?;
    let bwd_own;
    let bwd = if finish == vacancy {
        &fwd
    } else {
        bwd_own = Reach::new(&bits, finish, jb, lim).map_err(stop)?;
        &bwd_own
    };
    let positions = fwd.positions()
        + if finish == vacancy {
            0
        } else {
            bwd.positions()
        };
    let (a, b) = (Seen::new(&bits, &fwd, 0), Seen::new(&bits, bwd, 0));
    let mut s = solve(board, &bits, (&a, &b), lim).map_err(stop)?;
    s.seconds = started.elapsed().as_secs_f64();
    Ok((s, positions))
}

/// One problem of a board's catalogue, with its fewest moves.
#[derive(Clone, Debug)]
pub struct Entry {
    pub vacancy: crate::problem::geometry::Cell,
    pub finish: crate::problem::geometry::Cell,
    /// How many problems the entry stands for (its orbit under the board's symmetries).
    pub orbit: usize,
    pub solved: Solved,
    /// Positions in the levels built for this entry (0 when it reused levels built before).
    pub built: u64,
    /// Whether it was searched to the end; otherwise `solved` is empty.
    pub status: Status,
}

/// How far a catalogue entry's search went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Searched to the end: `solved` holds the fewest moves, or none when no play exists.
    Searched,
    /// Not searched: the catalogue's deadline had passed.
    TimeLimit,
    /// Stopped: a level would have held more than `max_level` positions.
    TooMany,
    /// Not searched, or stopped: the catalogue was interrupted.
    Interrupted,
}

impl Status {
    /// The CSV's `status` column for an entry not searched to the end.
    pub fn name(self) -> &'static str {
        match self {
            Status::Searched => "searched",
            Status::TimeLimit => "time_limit",
            Status::TooMany => "too_many_positions",
            Status::Interrupted => "interrupted",
        }
    }
}

/// The fewest moves of every problem of the board up to symmetry whose position class allows
/// a finish ([`super::classes::witness`] finds none; the others cannot be solved at all). The
/// cheapest first: the problems with the most symmetries (their positions are kept up to
/// them), then by the classes of their holes. The levels of each hole class are built once
/// (from the class's least hole) and serve every problem whose vacancy or finish is in the
/// class; a class's levels are dropped once no problem left needs them. Past `deadline` the
/// problems left are returned not searched, after an interrupt too, and a problem whose
/// levels outgrow `max_level` is returned stopped ([`Status`]): what was settled is kept.
/// `each` sees every entry.
pub fn catalogue(
    board: &PegBoard,
    lim: &Limits,
    deadline: Option<Instant>,
    each: &mut dyn FnMut(&Entry),
) -> Result<Vec<Entry>, String> {
    let bits = Bits::new(board)?;
    let problems = catalogue_problems(board, &bits);
    let mut cache = Reaches::default();
    let mut out = Vec::new();
    let mut interrupted = false;
    for (i, &(v, f)) in problems.iter().enumerate() {
        let started = Instant::now();
        let (vc, fc) = (board.cells[v], board.cells[f]);
        let mut e = Entry {
            vacancy: vc,
            finish: fc,
            orbit: board.orbit_size(vc, fc),
            solved: Solved::default(),
            built: 0,
            status: Status::TimeLimit,
        };
        if interrupted {
            e.status = Status::Interrupted;
        } else if deadline.is_none_or(|d| started < d) {
            let needed = &problems[i..];
            match entry(&bits, board, (v, f), needed, &mut cache, lim, &mut e.built) {
                Ok(mut solved) => {
                    solved.seconds = started.elapsed().as_secs_f64();
                    e.solved = solved;
                    e.status = Status::Searched;
                }
                Err(stop) => {
                    // The seconds spent before stopping are kept: they say what was tried.
                    e.solved.seconds = started.elapsed().as_secs_f64();
                    e.status = match stop {
                        Stop::TooMany => Status::TooMany,
                        Stop::Interrupted => Status::Interrupted,
                    };
                    interrupted = stop == Stop::Interrupted;
                }
            }
        }
        each(&e);
        out.push(e);
    }
    Ok(out)
}

/// The problems a catalogue searches, cheapest first (see [`catalogue`]).
fn catalogue_problems(board: &PegBoard, bits: &Bits) -> Vec<(usize, usize)> {
    let mut problems: Vec<(usize, usize)> = board
        .problems()
        .into_iter()
        .map(|(v, f)| (board.index[&v], board.index[&f]))
        .filter(|&(v, f)| super::classes::witness(board, v, f).is_none())
        .collect();
    problems.sort_by_key(|&(v, f)| {
        (
            std::cmp::Reverse(bits.stabiliser(&[v, f]).len()),
            bits.representative(v).0,
            bits.representative(f).0,
            v,
            f,
        )
    });
    problems
}

/// One catalogue problem (v, f) from the cached levels of its holes' classes, building those
/// missing (their positions added to `built`) and dropping those no problem of `needed` uses.
fn entry(
    bits: &Bits,
    board: &PegBoard,
    (v, f): (usize, usize),
    needed: &[(usize, usize)],
    cache: &mut Reaches,
    lim: &Limits,
    built: &mut u64,
) -> Result<Solved, Stop> {
    let (jf, _) = depths(bits);
    let (rv, gv) = bits.representative(v);
    let (rf, gf) = bits.representative(f);
    let needed: Vec<usize> = needed
        .iter()
        .flat_map(|&(a, b)| [bits.representative(a).0, bits.representative(b).0])
        .collect();
    for r in [rv, rf] {
        if cache.too_many.contains(&r) {
            return Err(Stop::TooMany);
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = cache.reaches.entry(r) {
            let reach = Reach::new(bits, r, jf, lim).inspect_err(|&s| {
                if s == Stop::TooMany {
                    cache.too_many.insert(r);
                }
            })?;
            *built += reach.positions();
            slot.insert(reach);
        }
        evict(&mut cache.reaches, &needed, [rv, rf], lim.reach_bytes);
    }
    let a = Seen::new(bits, &cache.reaches[&rv], gv);
    let b = Seen::new(bits, &cache.reaches[&rf], gf);
    solve(board, bits, (&a, &b), lim)
}

/// A catalogue's levels by hole class, and the classes whose levels outgrew `max_level`
/// (the same limits give the same levels, so such a class stops each problem it is in at
/// once instead of being built again).
#[derive(Default)]
struct Reaches {
    reaches: HashMap<usize, Reach>,
    too_many: std::collections::HashSet<usize>,
}

/// The one-line reason a computation stopped.
pub fn stop_line(s: Stop, lim: &Limits) -> String {
    match s {
        Stop::Interrupted => "interrupted".to_string(),
        Stop::TooMany => format!(
            "a level would hold more than {} positions: stopped before the memory runs out",
            lim.max_level
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::Lookup;

    /// Every key is found and no other, at sizes that are not powers of two, with the table
    /// at most 70% full, and keys crowded at the table's end wrap to its start.
    #[test]
    fn a_lookup_finds_exactly_its_keys() {
        for len in [0usize, 1, 2, 7, 100, 1000, 4097] {
            let keys: Vec<u64> = (0..len as u64).map(|k| k * 0x9E37_79B9 + 3).collect();
            let t = Lookup::new(&keys);
            assert_eq!(t.len(), len);
            assert!(
                10 * len <= 7 * t.slots.len() + 10,
                "{len} in {}",
                t.slots.len()
            );
            assert!(keys.iter().all(|&k| t.find(k).is_some()));
            assert!((0..500u64).all(|k| t.find(k * 0x9E37_79B9 + 4).is_none()));
            let mut back: Vec<u64> = t.iter().collect();
            back.sort_unstable();
            assert_eq!(back, keys);
        }
        // Keys whose home is the last slot: the probe wraps to the start.
        let t = Lookup::new(&[]);
        let last: Vec<u64> = (1..u64::MAX / 4)
            .step_by(7919)
            .filter(|&k| t.home(k) == t.slots.len() - 1)
            .take(3)
            .collect();
        let t = Lookup::new(&last);
        assert!(last.iter().all(|&k| t.find(k).is_some()));
    }
}
