//! One problem from the levels of its vacancy and its finish ([`solve`]): the positions on
//! some play (step 3 of the method, [`super`]), the move graph on them (step 4: chains of
//! jumps by one man that stay among them), the fewest moves by dynamic programming over
//! that acyclic graph, Beasley's table of positions by distance, and a shortest play walked
//! on the concrete board.

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
/// A part of the move graph: each position's number of children, and the children.
type Adjacency = (Vec<u32>, Vec<u32>);

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
    solve_on_plays(board, bits, (v, f), &h, &levels, lim, started)
}

/// Solves one problem from its positions on some play (`levels[j]`: after j jumps, least
/// images under `h`, the symmetries fixing v and f), however they were found.
pub(super) fn solve_on_plays(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    h: &[usize],
    levels: &[Vec<u64>],
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
    let g = Graph::new(bits, h, levels, lim)?;
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
