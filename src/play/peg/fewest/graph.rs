//! One problem from the levels of its vacancy and its finish ([`solve`]): the positions on
//! some play (step 3 of the method, [`super`]), the move graph on them (step 4: chains of
//! jumps by one man that stay among them), the fewest moves by dynamic programming over
//! that acyclic graph, Beasley's table of positions by distance, and a shortest play walked
//! on the concrete board.

use super::levels::prefetch;
use super::{Bits, Limits, Lookup, Seen, Solved, Stop};
use crate::play::peg::PegBoard;
use crate::proof::verify::Step;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A jump as (from, over, to) hole indices.
type Jump3 = (u8, u8, u8);
/// What sees each move: its end position and its chain of jumps.
type Visit<'a> = dyn FnMut(u64, usize, &[Jump3]) + 'a;
/// The number of a position in the move graph, if it is on some play.
type Id<'a> = dyn Fn(u64) -> Option<usize> + 'a;

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
    let reps = coset_reps(bits, h, (fwd.g, fwd.g_inv), &fwd.reach.group);
    let mut levels: Vec<Vec<u64>> = vec![Vec::new(); n_jumps + 1];
    let stop = || lim.stopped();
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

/// Right cosets of H0 = g⁻¹Hg in `group` (the stabiliser of a reach's hole, seen through the
/// symmetry g): one image per H-orbit of a level's position.
pub(super) fn coset_reps(
    bits: &Bits,
    h: &[usize],
    (g, g_inv): (usize, usize),
    group: &[usize],
) -> Vec<usize> {
    let h0: Vec<usize> = h
        .iter()
        .map(|&x| bits.compose(g_inv, bits.compose(x, g)))
        .collect();
    let mut reps: Vec<usize> = Vec::new();
    let mut covered: Vec<usize> = Vec::new();
    for &x in group {
        if !covered.contains(&x) {
            reps.push(x);
            covered.extend(h0.iter().map(|&y| bits.compose(y, x)));
        }
    }
    reps
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
pub(super) fn par_filter<T: Send>(
    items: &[u64],
    stop: &(dyn Fn() -> bool + Sync),
    f: &(dyn Fn(u64, &mut Vec<T>) + Sync),
) -> Result<Vec<T>, Stop> {
    par_batches(items, stop, &|_, batch, out| {
        for &p in batch {
            f(p, out)
        }
    })
}

/// What [`par_batches`] applies: (where the batch starts among the items, the batch, the
/// outputs).
pub(super) type Batched<'a, T> = dyn Fn(usize, &[u64], &mut Vec<T>) + Sync + 'a;

/// `f` applied to the items in two threads, [`BATCH`] items at a time (each call told where
/// its batch starts among the items, and pushing what it keeps), the outputs in the items'
/// order; `stop` is asked every 65 536 items.
pub(super) fn par_batches<T: Send>(
    items: &[u64],
    stop: &(dyn Fn() -> bool + Sync),
    f: &Batched<'_, T>,
) -> Result<Vec<T>, Stop> {
    let half = items.len().div_ceil(2 * BATCH).max(1) * BATCH;
    let parts: Vec<Result<Vec<T>, Stop>> = std::thread::scope(|s| {
        let hs: Vec<_> = items
            .chunks(half)
            .enumerate()
            .map(|(t, part)| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (c, chunk) in part.chunks(1 << 16).enumerate() {
                        if stop() {
                            return Err(Stop::Interrupted);
                        }
                        for (b, batch) in chunk.chunks(BATCH).enumerate() {
                            f(t * half + (c << 16) + b * BATCH, batch, &mut out);
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        hs.into_iter()
            .map(|x| x.join().expect("a worker thread panicked"))
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

/// Positions whose moves [`Graph::move_ends`] finds together.
const BATCH: usize = 32;

/// A chain of jumps being followed: the position it came from (its index in the batch), the
/// position without the moving man, the hole the man stands on, and where the position's
/// images under H start in the round's list of images.
type Chain = (u32, u64, u8, usize);

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
    solve_on_plays(board, bits, (v, f), &h, levels, lim, started)
}

/// Solves one problem from its positions on some play (`levels[j]`: after j jumps, least
/// images under `h`, the symmetries fixing v and f), however they were found.
pub(super) fn solve_on_plays(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    h: &[usize],
    levels: Vec<Vec<u64>>,
    lim: &Limits,
    started: Instant,
) -> Result<Solved, Stop> {
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
    let g = Graph::new(h, levels);
    let id = |p: u64| g.id(bits, p);
    let (first, last) = (id(start).expect("in G"), id(1 << f).expect("in G"));
    let to_end = g.to_end(bits, last, lim)?;
    let best = to_end[first];
    if lim.table {
        out.table = beasley_table(&g.distances_from(bits, first, lim)?, &to_end);
    }
    out.min_moves = Some(u32::from(best));
    out.play = Some(walk(board, bits, &id, &to_end, start));
    out.seconds = started.elapsed().as_secs_f64();
    Ok(out)
}

/// Positions by fewest moves from the start (rows) and moves of the shortest play through
/// them (columns): Beasley's tables, exact.
fn beasley_table(from_start: &[u8], to_end: &[u8]) -> Vec<Vec<u64>> {
    let mut table: Vec<Vec<u64>> = Vec::new();
    for (&d, &e) in from_start.iter().zip(to_end) {
        if d == FAR || e == FAR {
            continue;
        }
        let (d, t) = (d as usize, d as usize + e as usize);
        if table.len() <= d {
            table.resize(d + 1, Vec::new());
        }
        if table[d].len() <= t {
            table[d].resize(t + 1, 0);
        }
        table[d][t] += 1;
    }
    table
}

/// The jumps made to reach a position (its men missing, less the vacancy), if any.
fn level_of(bits: &Bits, p: u64) -> Option<usize> {
    (bits.n - 1).checked_sub(p.count_ones() as usize)
}

/// Moves to or from a position not joined to the start or the finish (and empty slots).
const FAR: u8 = u8::MAX;

/// The move graph on the positions on some play, kept implicit: each level a [`Lookup`]
/// (found by the position's man count), a position numbered by its slot there after the
/// slots of the levels before, and a position's moves found again (by [`moves_from`])
/// whenever they are needed. Storing the moves took some 50 bytes a position, which on the
/// 6×6 board (hundreds of millions of positions on some play) is more than the machine; the
/// distances need 2 bytes a position (a play has fewer than 255 moves: a board has at most
/// 64 holes).
struct Graph<'a> {
    h: &'a [usize],
    tables: Vec<Lookup>,
    /// offsets[j]: the slots of the levels before j.
    offsets: Vec<usize>,
}

impl<'a> Graph<'a> {
    /// Each level's table, the level dropped as soon as its table is made (both at once
    /// would hold the positions twice).
    fn new(h: &'a [usize], levels: Vec<Vec<u64>>) -> Graph<'a> {
        let tables: Vec<Lookup> = levels.into_iter().map(|l| Lookup::new(&l)).collect();
        let mut offsets = vec![0];
        for t in &tables {
            offsets.push(offsets.last().expect("0") + t.slots.len());
        }
        Graph { h, tables, offsets }
    }

    /// The number of a position (any image), if it is on some play.
    fn id(&self, bits: &Bits, p: u64) -> Option<usize> {
        self.id_of_least(bits, bits.canon(self.h, p))
    }

    /// Every move from the positions of `batch` (empty slots skipped) as (the position's
    /// index in the batch, the number of the move's end): the same moves as [`moves_from`]
    /// (chains of one man's jumps that stay in G), found breadth-first over the chains so
    /// that each round's look-ups are asked of the memory together ([`Lookup::prefetch`]).
    /// Each chain carries its position's images under H, so a jump's images are those XOR
    /// the jump's three holes' images (not the whole position mapped again). A move reached
    /// by two chains is told twice.
    fn move_ends(&self, bits: &Bits, batch: &[u64], ends: &mut Vec<(u32, usize)>) {
        let hp: Vec<&[u8]> = self.h.iter().map(|&g| &bits.perms[g][..]).collect();
        let nh = hp.len();
        let (mut chains, mut imgs): (Vec<Chain>, Vec<u64>) = (Vec::new(), Vec::new());
        for (i, &p) in batch.iter().enumerate() {
            if p == u64::MAX {
                continue;
            }
            let first = imgs.len();
            imgs.extend(self.h.iter().map(|&g| bits.image(g, p)));
            for a in 0..bits.n as u8 {
                if p >> a & 1 == 1 && !bits.from[a as usize].is_empty() {
                    chains.push((i as u32, p ^ (1 << a), a, first));
                }
            }
        }
        let (mut next, mut next_imgs): (Vec<(Chain, u64)>, Vec<u64>) = (Vec::new(), Vec::new());
        while !chains.is_empty() {
            next.clear();
            next_imgs.clear();
            for &(i, rest, at, im) in &chains {
                for &(b, c) in &bits.from[at as usize] {
                    if rest >> b & 1 == 1 && rest >> c & 1 == 0 {
                        let at_ = next_imgs.len();
                        let mut key = u64::MAX;
                        for (k, perm) in hp.iter().enumerate() {
                            let moved = 1 << perm[at as usize] | 1 << perm[b as usize];
                            let x = imgs[im + k] ^ (moved | 1 << perm[c as usize]);
                            next_imgs.push(x);
                            key = key.min(x);
                        }
                        if let Some(t) = self.table(bits, key) {
                            t.prefetch(key);
                        }
                        next.push(((i, rest ^ (1 << b), c, at_), key));
                    }
                }
            }
            chains.clear();
            imgs.clear();
            for &((i, rest2, c, im), key) in &next {
                if let Some(id) = self.id_of_least(bits, key) {
                    ends.push((i, id));
                    chains.push((i, rest2, c, imgs.len()));
                    imgs.extend_from_slice(&next_imgs[im..im + nh]);
                }
            }
        }
    }

    /// The level's table a position belongs in, by its number of men.
    fn table(&self, bits: &Bits, p: u64) -> Option<&Lookup> {
        self.tables.get(level_of(bits, p)?)
    }

    /// The number of a position given as its least image under H, if it is on some play.
    fn id_of_least(&self, bits: &Bits, c: u64) -> Option<usize> {
        let j = level_of(bits, c)?;
        let slot = self.tables.get(j)?.find(c)?;
        Some(self.offsets[j] + slot)
    }

    /// The fewest moves from each position to the finish (number `last`), level by level from
    /// the last (a move ends at a later level: each jump removes a man), each level's
    /// positions in two threads, a batch at a time.
    fn to_end(&self, bits: &Bits, last: usize, lim: &Limits) -> Result<Vec<u8>, Stop> {
        let total = *self.offsets.last().expect("0");
        let mut to_end = vec![FAR; total];
        for j in (0..self.tables.len()).rev() {
            let n = self.tables[j].len();
            lim.tell(|| format!("moves to the finish: after {j} jumps, {n} positions"));
            let (lo, hi) = (self.offsets[j], self.offsets[j + 1]);
            let (here, later) = to_end.split_at_mut(hi);
            let later: &[u8] = later;
            let stop = || lim.stopped();
            let level = par_batches(&self.tables[j].slots, &stop, &|at, batch, out| {
                let mut ends = Vec::new();
                self.move_ends(bits, batch, &mut ends);
                for &(_, id) in &ends {
                    prefetch(&later[id - hi]);
                }
                let base = out.len();
                out.extend((0..batch.len()).map(|k| if lo + at + k == last { 0 } else { FAR }));
                for &(i, id) in &ends {
                    let best = &mut out[base + i as usize];
                    *best = (*best).min(later[id - hi].saturating_add(1));
                }
            })?;
            here[lo..].copy_from_slice(&level);
        }
        Ok(to_end)
    }

    /// The fewest moves from the start (number `first`) to each position, level by level from
    /// the first, each level's moves pushed in two threads, a batch at a time (an atomic
    /// least value per position: the levels a move ends at are not yet read).
    fn distances_from(&self, bits: &Bits, first: usize, lim: &Limits) -> Result<Vec<u8>, Stop> {
        use std::sync::atomic::AtomicU8;
        let total = *self.offsets.last().expect("0");
        let dist: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(FAR)).collect();
        dist[first].store(0, Ordering::Relaxed);
        for j in 0..self.tables.len() {
            let n = self.tables[j].len();
            lim.tell(|| format!("moves from the start: after {j} jumps, {n} positions"));
            let lo = self.offsets[j];
            let stop = || lim.stopped();
            par_batches(
                &self.tables[j].slots,
                &stop,
                &|at, batch, _: &mut Vec<()>| {
                    let d = |k: usize| dist[lo + at + k].load(Ordering::Relaxed);
                    // Positions not joined to the start have no moves to push.
                    let reached: Vec<u64> = (0..batch.len())
                        .map(|k| if d(k) == FAR { u64::MAX } else { batch[k] })
                        .collect();
                    let mut ends = Vec::new();
                    self.move_ends(bits, &reached, &mut ends);
                    for &(_, id) in &ends {
                        prefetch(&dist[id]);
                    }
                    for &(i, id) in &ends {
                        dist[id].fetch_min(d(i as usize) + 1, Ordering::Relaxed);
                    }
                },
            )?;
        }
        Ok(dist.into_iter().map(AtomicU8::into_inner).collect())
    }
}

/// A shortest play on the concrete board: from the start, each move one that leads to a
/// position one move nearer the finish.
fn walk(board: &PegBoard, bits: &Bits, id: &Id, to_end: &[u8], start: u64) -> Vec<Step> {
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
