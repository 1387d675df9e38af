//! The forward levels from a start of one man missing ([`Reach`]): each level the children
//! of the one before, least images under the vacancy's stabiliser, built in two threads
//! and kept in an open-addressing set ([`Lookup`]); and a reach seen from another hole of
//! the same class through a symmetry ([`Seen`]).

use super::prune::Pagodas;
use super::{Bits, Limits, Stop};
use crate::proof::levels::merge;
use std::time::Instant;

/// A set of positions by open addressing (linear probing, at most 70% full, the table sized
/// to the set rather than to a power of two): one or two memory reads per look-up where a
/// binary search of a large level takes some twenty, in under 12 bytes per position, so that
/// a catalogue keeps about twice as many levels within its memory budget as at half full.
/// `u64::MAX` marks an empty slot (never a position here: every position has a hole, as the
/// start has one and jumps keep the number of holes growing; complements have a man).
pub struct Lookup {
    pub(super) slots: Vec<u64>,
    len: usize,
}

impl Lookup {
    pub(super) fn new(keys: &[u64]) -> Lookup {
        let mut t = Lookup::sized(keys.len());
        keys.iter().for_each(|&k| t.insert(k));
        t
    }

    /// The slots of a table for `n` keys (at 70% full).
    fn slots_for(n: usize) -> usize {
        (n + n * 3 / 7 + 1).max(16)
    }

    /// An empty table with room for `n` keys.
    pub(super) fn sized(n: usize) -> Lookup {
        Lookup {
            slots: vec![u64::MAX; Lookup::slots_for(n)],
            len: 0,
        }
    }

    /// Adds k, not yet in the table, which has room for it.
    pub(super) fn insert(&mut self, k: u64) {
        let mut i = self.home(k);
        while self.slots[i] != u64::MAX {
            i = self.after(i);
        }
        self.slots[i] = k;
        self.len += 1;
    }

    /// The bytes a table of `n` keys takes.
    pub(super) fn bytes(n: usize) -> usize {
        8 * Lookup::slots_for(n)
    }

    /// The first slot tried for k: the high bits of a multiplicative hash, scaled to the table.
    fn home(&self, k: u64) -> usize {
        let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h as u128 * self.slots.len() as u128) >> 64) as usize
    }

    fn after(&self, i: usize) -> usize {
        if i + 1 == self.slots.len() { 0 } else { i + 1 }
    }

    /// Asks the memory for k's first slot ahead of a [`Lookup::find`] of k: a hint, with no
    /// effect on any answer. The tables of a large level are far larger than the caches, so
    /// a look-up waits for memory; asked together, a batch's waits overlap.
    pub(super) fn prefetch(&self, k: u64) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(k)]);
        }
    }

    /// The slot holding k, if k is in the set.
    pub(super) fn find(&self, k: u64) -> Option<usize> {
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

/// Asks the memory for the cache line holding `x` (a hint: it changes no result).
pub(super) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault; the address is a valid reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The forward levels from a start of one man missing: `levels[j]` = the positions after j
/// jumps, sorted, each the least image under `group` (the stabiliser of the vacancy).
pub struct Reach {
    pub hole: usize,
    pub group: Vec<usize>,
    pub levels: Vec<Lookup>,
}

impl Reach {
    /// The levels 0 … depth from every hole but `hole`, kept up to the hole's stabiliser.
    pub fn new(bits: &Bits, hole: usize, depth: usize, lim: &Limits) -> Result<Reach, Stop> {
        let group = bits.stabiliser(&[hole]);
        Reach::pruned(bits, hole, group, &Pagodas::none(), depth, lim)
    }

    /// The levels 0 … depth from every hole but `hole`, each the least images under `group`
    /// (symmetries fixing `hole`), of the positions `keep` keeps: a position dropped is not
    /// expanded (see [`super::prune`] for why no position on a play is lost).
    pub fn pruned(
        bits: &Bits,
        hole: usize,
        group: Vec<usize>,
        keep: &Pagodas,
        depth: usize,
        lim: &Limits,
    ) -> Result<Reach, Stop> {
        let start = bits.canon(&group, bits.full & !(1 << hole));
        let mut last = if keep.keeps(start) {
            vec![start]
        } else {
            Vec::new()
        };
        let mut levels = Vec::new();
        let t0 = Instant::now();
        let mut total = last.len() as u64;
        for j in 0..depth {
            // Within the budget: the levels stored, the last one read, the next one built.
            let held: usize = levels.iter().map(|l: &Lookup| 8 * l.slots.len()).sum();
            let room = lim.memory.saturating_sub(held + 8 * last.len()) / super::BUILD_BYTES;
            let cap = lim.max_level.min(room);
            let next = next_level(bits, (&group, keep), &last, cap, lim)?;
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
    pub(super) fn holds(&self, bits: &Bits, j: usize, p: u64) -> bool {
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

/// The group and the pruning a level is built with.
type Keep<'a> = (&'a [usize], &'a Pagodas);

/// The children of a level that `keep` keeps, each the least image under its group, sorted
/// and without repeats; built in two threads ([`children_sorted`]) whose lists are merged.
/// Err(TooMany) when it would hold more than `cap` positions.
fn next_level(
    bits: &Bits,
    keep: Keep,
    level: &[u64],
    cap: usize,
    lim: &Limits,
) -> Result<Vec<u64>, Stop> {
    let half = level.len().div_ceil(2).max(1);
    let runs: Vec<Result<Vec<u64>, Stop>> = std::thread::scope(|s| {
        let handles: Vec<_> = level
            .chunks(half)
            .map(|part| s.spawn(move || children_sorted(bits, keep, part, cap, lim)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a level thread panicked"))
            .collect()
    });
    let mut out: Vec<u64> = Vec::new();
    for r in runs {
        if lim.stopped() {
            return Err(Stop::Interrupted);
        }
        out = merge(&out, &r?);
    }
    if out.len() > cap {
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
    (group, keep): Keep,
    part: &[u64],
    cap: usize,
    lim: &Limits,
) -> Result<Vec<u64>, Stop> {
    let mut runs: Vec<Vec<u64>> = Vec::new();
    for chunk in part.chunks(1 << 16) {
        if lim.stopped() {
            return Err(Stop::Interrupted);
        }
        let mut buf = Vec::new();
        for &p in chunk {
            let from = buf.len();
            bits.children(p, &mut buf);
            for c in &mut buf[from..] {
                *c = bits.canon(group, *c);
            }
            if !keep.is_empty() {
                let mut k = from;
                for i in from..buf.len() {
                    if keep.keeps(buf[i]) {
                        buf[k] = buf[i];
                        k += 1;
                    }
                }
                buf.truncate(k);
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
            if merged.len() > cap {
                return Err(Stop::TooMany);
            }
            runs.push(merged);
        }
    }
    let mut out = Vec::new();
    while let Some(r) = runs.pop() {
        out = merge(&r, &out);
        if out.len() > cap {
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
    pub(super) g_inv: usize,
}

impl<'a> Seen<'a> {
    pub fn new(bits: &Bits, reach: &'a Reach, g: usize) -> Seen<'a> {
        Seen {
            reach,
            g,
            g_inv: bits.inverse(g),
        }
    }

    pub(super) fn holds(&self, bits: &Bits, j: usize, p: u64) -> bool {
        let q = if self.g_inv == 0 {
            p
        } else {
            bits.image(self.g_inv, p)
        };
        self.reach.holds(bits, j, q)
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
