//! The search by levels out of memory: the same method as [`super`] (forward levels, backward
//! levels by complement, the positions on some play, the move graph on them), with every
//! level a sorted file on disk ([`super::disk`]) instead of a set in memory.
//!
//! **How each step reads the levels.** Building level j + 1 streams level j from its file,
//! in two threads, into an external sort (runs on disk once the memory budget is full), whose
//! merge, without repeats, is the new level's file. A membership test ("is p in level j?")
//! becomes a join: the candidates are paired with their key (the least image the level keeps,
//! [`Side::key`]), sorted by key, and merged with the level's sorted file. The positions on
//! some play, which are few beside the levels (12% of the middle level on the English board),
//! and the move graph on them stay in memory. The answer is that of the in-memory search
//! (`tests/levels_disk.rs` compares the two with budgets low enough to force the runs).
//!
//! **Resume and sharing.** A set of levels lives in a subdirectory of the work directory
//! named by a digest of everything that decides its content (the board's holes and jumps, the
//! start's hole, the symmetry group kept, the pagodas pruned by). A level file there is
//! complete (written under a temporary name, then renamed), so a later run, or another
//! problem with the same hole, reads it instead of building it again. These files are a
//! cache, not evidence: a proof of a minimum is [`crate::proof`]'s own search.

use super::bloom::Bloom;
use super::disk::{Disk, Join, Meet, Merged, Sorter, io};
use super::graph::{coset_reps, par_batches, par_filter, solve_on_plays};
use super::packed::{LevelFile, level_path};
use super::prune::Pagodas;
use super::{Bits, Limits, Lookup, Solved, Stop, depths};
use crate::play::peg::PegBoard;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What makes a join's candidates from an item: pairs (the key a level holds, the position).
type Make<'a> = dyn Fn(u64, &mut Vec<(u64, u64)>) + Sync + 'a;

/// Positions read from a level at a time.
const BLOCK: usize = 1 << 16;

/// Forward levels from a start of one man missing, each a file of least images under `group`.
pub struct DiskReach {
    pub group: Vec<usize>,
    pub levels: Vec<LevelFile>,
}

impl DiskReach {
    pub fn positions(&self) -> u64 {
        self.levels.iter().map(|l| l.len).sum()
    }
}

/// Level 0: the start (every hole but `hole`), its least image, if `keep` keeps it.
pub(super) fn level_zero(
    bits: &Bits,
    (hole, group, keep): (usize, &[usize], &Pagodas),
    path: &Path,
    disk: &Disk,
) -> Result<LevelFile, Stop> {
    let start = bits.canon(group, bits.full & !(1 << hole));
    let mut first = keep.keeps(start).then_some(start);
    LevelFile::write(disk, path, bits.n.div_ceil(8), &mut || Ok(first.take()))
}

/// The digest naming a set of levels: the board's holes and jumps, the start's hole, the
/// group kept and the pagodas (each a table of exact integers).
fn digest(bits: &Bits, hole: usize, group: &[usize], keep: &Pagodas) -> String {
    let mut h = Sha256::new();
    h.update(b"solarmy levels v1\n");
    bits.digest(&mut h);
    h.update(format!("hole {hole}\ngroup {group:?}\n").as_bytes());
    keep.digest(&mut h);
    digest_name(h)
}

/// A digest as a name: its first 12 bytes in hexadecimal.
pub(super) fn digest_name(h: Sha256) -> String {
    h.finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Removes the temporary files of runs no longer alive (their process id is in the name).
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let pid = name.strip_suffix(".tmp").and_then(|s| s.split('-').nth(1));
        if let Some(pid) = pid
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Items a sorter may hold in memory: three quarters of what the budget leaves beside
/// `held` bytes, shared by `ways` sorters.
fn sort_cap(lim: &Limits, held: usize, words: usize, ways: usize) -> usize {
    lim.memory.saturating_sub(held) / (8 * words) / 4 * 3 / ways
}

/// The part (of n) a position belongs to when a level is built as a job array: a hash, so
/// that the parts are of about one size.
pub(super) fn part_of(p: u64, n: u64) -> u64 {
    (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % n
}

/// Level j + 1 from level j (or its part k of n: the positions with [`part_of`] = k): each
/// half of level j's file read by a thread, whose children (least images, kept by `keep`) go
/// to its own external sort; the sorts merged into the new file.
pub(super) fn next_level(
    bits: &Bits,
    (group, keep): (&[usize], &Pagodas),
    (prev, part): (&LevelFile, Option<(u64, u64)>),
    path: &Path,
    lim: &Limits,
    disk: &Disk,
) -> Result<LevelFile, Stop> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let cap = sort_cap(lim, 0, 1, 2);
    let half = prev.len.div_ceil(2);
    let parts: Vec<Result<Sorter<u64>, Stop>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut sorter = Sorter::new(disk, dir, prev.width, cap);
                    let mut buf = Vec::new();
                    prev.stream(t * half, half)?.each_block(BLOCK, |block| {
                        if lim.stopped() {
                            return Err(Stop::Interrupted);
                        }
                        buf.clear();
                        for &p in block {
                            let from = buf.len();
                            bits.children(p, &mut buf);
                            for c in &mut buf[from..] {
                                *c = bits.canon(group, *c);
                            }
                        }
                        buf.retain(|&c| {
                            keep.keeps(c) && part.is_none_or(|(k, n)| part_of(c, n) == k)
                        });
                        buf.sort_unstable();
                        buf.dedup();
                        sorter.extend(&buf)
                    })?;
                    Ok(sorter)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("a level thread panicked"))
            .collect()
    });
    let sorters = parts.into_iter().collect::<Result<Vec<_>, Stop>>()?;
    let mut merged = Merged::new(disk, sorters, prev.width)?;
    LevelFile::write(disk, path, prev.width, &mut || merged.next())
}

/// A reach on disk seen from a hole of its class through the symmetry g.
pub struct Side<'a> {
    pub reach: &'a DiskReach,
    pub g: usize,
    g_inv: usize,
}

impl<'a> Side<'a> {
    pub fn new(bits: &Bits, reach: &'a DiskReach, g: usize) -> Side<'a> {
        Side {
            reach,
            g,
            g_inv: bits.inverse(g),
        }
    }

    /// What the reach's levels hold for p: its least image, seen from the reach's hole.
    fn key(&self, bits: &Bits, p: u64) -> u64 {
        let q = if self.g_inv == 0 {
            p
        } else {
            bits.image(self.g_inv, p)
        };
        bits.canon(&self.reach.group, q)
    }
}

/// The positions of `pairs` (key, position) whose key is in `level`, sorted, without repeats.
fn join(mut pairs: Merged<(u64, u64)>, level: &LevelFile) -> Result<Vec<u64>, Stop> {
    let mut keys = level.stream(0, level.len)?;
    let mut key = keys.next()?;
    let mut out = Vec::new();
    while let Some((k, p)) = pairs.next()? {
        while key.is_some_and(|x| x < k) {
            key = keys.next()?;
        }
        match key {
            Some(x) if x == k => out.push(p),
            Some(_) => {}
            None => break,
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The candidates made by `make` from each item of `items` (positions in memory, or a level
/// streamed from disk), joined with `level`.
fn filter(
    source: Source,
    make: &Make<'_>,
    level: &LevelFile,
    (lim, disk, held): (&Limits, &Disk, usize),
) -> Result<Vec<u64>, Stop> {
    let dir = level.path.parent().unwrap_or(Path::new("."));
    let mut sorter = Sorter::new(disk, dir, level.width, sort_cap(lim, held, 2, 1));
    let mut feed = |block: &[u64]| -> Result<(), Stop> {
        let mut pairs = par_filter(block, &|| lim.stopped(), make)?;
        pairs.sort_unstable();
        pairs.dedup();
        sorter.extend(&pairs)
    };
    match source {
        Source::Memory(items) => items.chunks(BLOCK).try_for_each(&mut feed)?,
        Source::File(l) => l.stream(0, l.len)?.each_block(BLOCK, feed)?,
    }
    join(sorter.finish()?, level)
}

/// The positions on some play one jump from `next` (the positions on some play one level
/// nearer the middle), found by reading a whole level: every position the level holds (each
/// image up to H: the coset representatives `reps`; the complement of it on the backward
/// side) with a neighbour in `next` (a child, forward; a parent, backward). The same set as
/// the join of [`filter`]; cheaper when `next` is large beside the level, and it needs no
/// sort and no disk.
fn scan(
    bits: &Bits,
    h: &[usize],
    (side, reps, backward): (&Side, &[usize], bool),
    level: &LevelFile,
    next: &[u64],
    lim: &Limits,
) -> Result<Vec<u64>, Stop> {
    let next = Lookup::new(next);
    // A batch's look-ups are asked of the memory together (`next` is far larger than the
    // caches), then made: the same test as "some neighbour is in `next`".
    let keep = |_: usize, batch: &[u64], out: &mut Vec<u64>| {
        let (mut ps, mut keys) = (Vec::new(), Vec::new());
        for &r in batch {
            for &x in reps {
                let q = bits.image(side.g, bits.image(x, r));
                let p = if backward { bits.full ^ q } else { q };
                let owner = ps.len() as u32;
                ps.push(p);
                bits.neighbours(p, backward, |c| {
                    let k = bits.canon(h, c);
                    next.prefetch(k);
                    keys.push((owner, k));
                });
            }
        }
        let mut hit = vec![false; ps.len()];
        for (o, k) in keys {
            if !hit[o as usize] && next.find(k).is_some() {
                hit[o as usize] = true;
            }
        }
        out.extend(
            ps.iter()
                .zip(hit)
                .filter(|x| x.1)
                .map(|x| bits.canon(h, *x.0)),
        );
    };
    let mut out = Vec::new();
    level.stream(0, level.len)?.each_block(BLOCK, |block| {
        out.extend(par_batches(block, &|| lim.stopped(), &keep)?);
        Ok(())
    })?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The way `level` is tested against `next` (the positions on some play one jump nearer the
/// middle) under `join`: `Auto` loads the level when its table and [`probe`]'s answer fit in
/// `room` bytes; else it scans the level when the level (each position once per coset
/// representative, `reps`) is small beside `next`, and sorts the candidates otherwise.
fn how(join: Join, level: &LevelFile, reps: usize, next: usize, room: usize) -> Join {
    match join {
        // The table, and the answer with its repeats (about twice the next's size).
        Join::Auto if Lookup::bytes(level.len as usize) + 24 * next <= room => Join::Load,
        Join::Auto if level.len * (reps as u64) < 16 * next as u64 => Join::Scan,
        Join::Auto => Join::Pairs,
        chosen => chosen,
    }
}

/// The positions of `items` with a candidate (made by `make`: the key a level holds, the
/// position) whose key `level` holds, sorted, without repeats: the level read once into a
/// table in memory, each candidate one look-up. The same set as [`filter`], with no sort.
fn probe(
    items: &[u64],
    make: &Make<'_>,
    level: &LevelFile,
    lim: &Limits,
) -> Result<Vec<u64>, Stop> {
    let mut table = Lookup::sized(level.len as usize);
    level.stream(0, level.len)?.each_block(BLOCK, |block| {
        if lim.stopped() {
            return Err(Stop::Interrupted);
        }
        for (i, &k) in block.iter().enumerate() {
            // The table is far larger than the caches: ask for a slot ahead of its insert.
            if let Some(&ahead) = block.get(i + 16) {
                table.prefetch(ahead);
            }
            table.insert(k);
        }
        Ok(())
    })?;
    let keep = |_: usize, batch: &[u64], out: &mut Vec<u64>| {
        let mut pairs = Vec::new();
        batch.iter().for_each(|&q| make(q, &mut pairs));
        pairs.iter().for_each(|&(k, _)| table.prefetch(k));
        out.extend(
            pairs
                .iter()
                .filter(|x| table.find(x.0).is_some())
                .map(|x| x.1),
        );
    };
    // A position is found once per neighbour it has among the items: repeats are dropped a
    // chunk at a time, and the whole again whenever it has doubled, so that memory holds
    // about twice the answer, not every hit.
    let (mut out, mut clean) = (Vec::new(), 0);
    for chunk in items.chunks(1 << 22) {
        let mut hits = par_batches(chunk, &|| lim.stopped(), &keep)?;
        hits.sort_unstable();
        hits.dedup();
        out.extend_from_slice(&hits);
        if out.len() > 2 * clean + (1 << 24) {
            out.sort_unstable();
            out.dedup();
            clean = out.len();
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Where a join's candidates come from.
enum Source<'a> {
    Memory(&'a [u64]),
    File(&'a LevelFile),
}

/// Every position on some play, by jumps made, each the least image under `h` (the method's
/// step 3, as [`super::graph`] does it in memory).
fn on_plays(
    bits: &Bits,
    h: &[usize],
    (fwd, bwd): (&Side, &Side),
    lim: &Limits,
    disk: &Disk,
) -> Result<Vec<Vec<u64>>, Stop> {
    let n_jumps = bits.n - 2;
    let built = fwd.reach.levels.len() - 1;
    // Met by children, the forward levels stop one short of the middle.
    let j_mid = built + usize::from(disk.meet == Meet::Children);
    let k_mid = n_jumps - j_mid;
    let reps = coset_reps(bits, h, (fwd.g, fwd.g_inv), &fwd.reach.group);
    let mut levels: Vec<Vec<u64>> = vec![Vec::new(); n_jumps + 1];
    let held = |levels: &[Vec<u64>]| levels.iter().map(|l| 8 * l.len()).sum::<usize>();
    levels[j_mid] = meet(bits, h, (fwd, bwd), &reps, (built, k_mid), lim, disk)?;
    let back = |q: u64, out: &mut Vec<(u64, u64)>| {
        let mut ps = Vec::new();
        bits.parents(q, &mut ps);
        for p in ps {
            let c = bits.canon(h, p);
            out.push((fwd.key(bits, c), c));
        }
    };
    let on = |q: u64, out: &mut Vec<(u64, u64)>| {
        let mut cs = Vec::new();
        bits.children(q, &mut cs);
        for p in cs {
            let c = bits.canon(h, p);
            out.push((bwd.key(bits, bits.full ^ c), c));
        }
    };
    let reps_b = coset_reps(bits, h, (bwd.g, bwd.g_inv), &bwd.reach.group);
    let test = |level: &LevelFile, (reps, backward): (&[usize], bool), next: &[u64], held| {
        // No position on some play one level nearer the middle: none here either, and the
        // level need not be read (the sides did not meet: no play at all).
        if next.is_empty() {
            return Ok(Vec::new());
        }
        let side = if backward { bwd } else { fwd };
        let make: &Make<'_> = if backward { &on } else { &back };
        match how(
            disk.join,
            level,
            reps.len(),
            next.len(),
            lim.memory.saturating_sub(held),
        ) {
            Join::Scan => scan(bits, h, (side, reps, backward), level, next, lim),
            Join::Load => probe(next, make, level, lim),
            _ => filter(Source::Memory(next), make, level, (lim, disk, held)),
        }
    };
    for j in (0..j_mid).rev() {
        lim.tell(|| format!("the positions on some play after {j} jumps"));
        let (now, after) = levels.split_at_mut(j + 1);
        let level = &fwd.reach.levels[j];
        now[j] = test(level, (&reps, false), &after[0], held(after))?;
    }
    for j in j_mid + 1..=n_jumps {
        lim.tell(|| format!("the positions on some play after {j} jumps"));
        let (before, now) = levels.split_at_mut(j);
        let level = &bwd.reach.levels[n_jumps - j];
        now[0] = test(level, (&reps_b, true), &before[j - 1], held(before))?;
    }
    Ok(levels)
}

/// The positions on some play at the middle, from the forward level `built` (the middle
/// itself, or the level before it when met by children) against the backward level `k_mid`.
fn meet(
    bits: &Bits,
    h: &[usize],
    (fwd, bwd): (&Side, &Side),
    reps: &[usize],
    (built, k_mid): (usize, usize),
    lim: &Limits,
    disk: &Disk,
) -> Result<Vec<u64>, Stop> {
    let level = &bwd.reach.levels[k_mid];
    let from = Source::File(&fwd.reach.levels[built]);
    // Each image up to H of a forward position, as H's least image with its key.
    let pair = |p: u64, out: &mut Vec<(u64, u64)>| {
        out.push((bwd.key(bits, bits.full ^ p), bits.canon(h, p)))
    };
    if disk.meet == Meet::Level {
        let same = |r: u64, out: &mut Vec<(u64, u64)>| {
            for &x in reps {
                pair(bits.image(fwd.g, bits.image(x, r)), out);
            }
        };
        return filter(from, &same, level, (lim, disk, 0));
    }
    lim.tell(|| format!("a Bloom filter of {} positions", level.len));
    let bloom = Bloom::of(level, &|| lim.stopped())?;
    thread_local! {
        // A buffer for each thread's children: billions of positions pass through here.
        static CHILDREN: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let children = |r: u64, out: &mut Vec<(u64, u64)>| {
        let from = out.len();
        CHILDREN.with_borrow_mut(|cs| {
            cs.clear();
            for &x in reps {
                bits.children(bits.image(fwd.g, bits.image(x, r)), cs);
            }
            for &c in cs.iter() {
                pair(c, out);
            }
        });
        for &(k, _) in &out[from..] {
            bloom.prefetch(k);
        }
        let mut i = from;
        for j in from..out.len() {
            if bloom.may_hold(out[j].0) {
                out[i] = out[j];
                i += 1;
            }
        }
        out.truncate(i);
    };
    lim.tell(|| {
        format!(
            "the children of {} positions met",
            fwd.reach.levels[built].len
        )
    });
    filter(
        from,
        &children,
        level,
        (lim, disk, Bloom::bytes_for(level.len)),
    )
}

/// What decides one side's levels: the start's hole, the group kept, the pagodas pruned by,
/// and the symmetry g through which the problem's hole sees them (its class representative's
/// levels, unpruned).
pub(super) struct Plan {
    pub hole: usize,
    pub group: Vec<usize>,
    pub keep: Pagodas,
    pub g: usize,
}

impl Plan {
    /// The directory of its levels in the work directory.
    pub(super) fn dir(&self, bits: &Bits, disk: &Disk) -> PathBuf {
        disk.dir
            .join(digest(bits, self.hole, &self.group, &self.keep))
    }

    /// The levels 0 … depth from every hole but `hole`, least images under `group` (which
    /// fixes `hole`), of the positions `keep` keeps; those already complete in the work
    /// directory are read, not built.
    pub(super) fn build(
        &self,
        bits: &Bits,
        depth: usize,
        lim: &Limits,
        disk: &Disk,
    ) -> Result<DiskReach, Stop> {
        let (hole, group, keep) = (self.hole, &self.group[..], &self.keep);
        let width = bits.n.div_ceil(8);
        let dir = self.dir(bits, disk);
        std::fs::create_dir_all(&dir).map_err(|e| io("cannot create", &dir, e))?;
        remove_stale(&dir);
        let t0 = Instant::now();
        let mut levels: Vec<LevelFile> = Vec::new();
        for j in 0..=depth {
            let path = level_path(&dir, j);
            let level = match LevelFile::open_level(&dir, j, width, disk)? {
                Some(l) => {
                    disk.charge(l.bytes)?;
                    l
                }
                None if j == 0 => level_zero(bits, (hole, group, keep), &path, disk)?,
                None => {
                    let prev = (&levels[j - 1], None);
                    next_level(bits, (group, keep), prev, &path, lim, disk)?
                }
            };
            lim.tell(|| {
                format!(
                    "levels from hole {hole} on disk: {j} jumps, {} positions ({:.0} s)",
                    level.len,
                    t0.elapsed().as_secs_f64()
                )
            });
            levels.push(level);
        }
        Ok(DiskReach {
            group: group.to_vec(),
            levels,
        })
    }
}

/// Pagodas by hole, as a problem's levels are pruned by them.
type Weights = Vec<Vec<i64>>;

/// The plans of a problem's two sides, and their depths: the forward levels from v, and the
/// backward ones from f unless they are the forward ones (both holes of one class, unpruned,
/// or one hole); with the pagodas they prune by, as kept ([`super::pagodas_kept`]).
pub(super) fn plans(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    lim: &Limits,
    disk: &Disk,
) -> Result<(Vec<(Plan, usize)>, Weights), Stop> {
    let (jf, jb) = depths(bits);
    // Met by children, the forward levels stop one short of the middle.
    let jf = if disk.meet == Meet::Children {
        jf.saturating_sub(1)
    } else {
        jf
    };
    let weights = super::pagodas_kept(board, bits, (v, f), lim, disk)?;
    let plan = |from: usize, to: usize| {
        if lim.pruning.is_off() {
            let (rep, g) = bits.representative(from);
            let group = bits.stabiliser(&[rep]);
            return Plan {
                hole: rep,
                group,
                keep: Pagodas::none(),
                g,
            };
        }
        let group = bits.stabiliser(&[v, f]);
        let keep = Pagodas::toward(bits, &weights, &group, to);
        Plan {
            hole: from,
            group,
            keep,
            g: 0,
        }
    };
    let fwd = plan(v, f);
    let same = if lim.pruning.is_off() {
        bits.representative(v).0 == bits.representative(f).0
    } else {
        v == f
    };
    // One set of levels serves both sides: deep enough for the backward side too.
    let mut out = vec![(fwd, if same { jf.max(jb) } else { jf })];
    if !same {
        out.push((plan(f, v), jb));
    }
    Ok((out, weights))
}

/// One problem with its levels on disk ([`super::solve_pair`] with `lim.disk` set): unpruned
/// levels are those of the holes' class representatives (shared by every problem of the
/// class), pruned ones the problem's own. Also returns the positions of the levels.
pub fn solve_pair(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    lim: &Limits,
    disk: &Disk,
) -> Result<(Solved, u64), Stop> {
    let started = Instant::now();
    let (_, jb) = depths(bits);
    let (plans, weights) = plans(board, bits, (v, f), lim, disk)?;
    let (fp, jf) = &plans[0];
    let fwd = fp.build(bits, *jf, lim, disk)?;
    let bwd_own = match plans.get(1) {
        Some((bp, jb)) => Some((bp.build(bits, *jb, lim, disk)?, bp.g)),
        None => None,
    };
    // One class unpruned: the finish sees the vacancy's levels through its own symmetry.
    let gf = bwd_own.as_ref().map_or_else(
        || {
            if lim.pruning.is_off() {
                bits.representative(f).1
            } else {
                0
            }
        },
        |b| b.1,
    );
    let bwd = bwd_own.as_ref().map_or(&fwd, |b| &b.0);
    let h = bits.stabiliser(&[v, f]);
    lim.tell(|| "the positions on some play".to_string());
    let sides = (&Side::new(bits, &fwd, fp.g), &Side::new(bits, bwd, gf));
    let levels = on_plays(bits, &h, sides, lim, disk)?;
    let mut s = solve_on_plays(board, bits, (v, f), &h, levels, lim, started)?;
    s.pagodas = fp.keep.len();
    s.weights = weights;
    let sizes = |r: &DiskReach| r.levels.iter().map(|l| l.len).collect();
    s.forward = sizes(&fwd);
    s.backward = sizes(bwd);
    if v != f {
        // As in memory: the finish's own levels, to their depth.
        s.backward.truncate(jb + 1);
    }
    s.seconds = started.elapsed().as_secs_f64();
    let positions = fwd.positions() + bwd_own.as_ref().map_or(0, |b| b.0.positions());
    Ok((s, positions))
}
