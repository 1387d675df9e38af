//! The checker's pruned exhaustion out of core ([`meet`]): the search of
//! [`super::levels::meet`] with its levels on disk, for board claims whose levels do not fit
//! in memory (Wiegleb's a5 complement holds billions of positions a level). It is the
//! checker's own and shares no code with the solver's levels on disk.
//!
//! **Storage.** A level is `parts` files, part k holding the level's positions whose hash
//! ([`part_of`]) is k, sorted and without repeats, stored as varint gaps and closed by a
//! trailer (the count and a magic word). A part is made by streaming every part of the
//! level before, expanding it, keeping the children of hash k and sorting them in runs of
//! at most the memory budget, merged at the end. Files are written under a temporary name
//! and renamed when complete, so a file with its trailer is a complete part.
//!
//! **Resuming** (a premise, said where it is used): the work directory holds the parts
//! this checker wrote, under a name digesting the search (holes, jumps, group, pagodas,
//! start, finish); a rerun reads the complete parts there instead of building them again.
//! A resumed check is as sound as that directory is untouched; one check per directory at
//! a time.
//!
//! **Complement problems.** When the start is every hole but the finish, the map c(P) =
//! the least image of the complement of P takes the forward level k onto the backward
//! level k, so the backward side is not built. Complementing turns a jump into a jump
//! undone (P with a, b full and c empty jumps to P − a − b + c, whose complement is ∁P with
//! c emptied and a, b filled), the start into the finish alone, and one pruning into the
//! other: q(∁P) = q(all) − q(P), and the backward bound is q(start) = q(all) − q(f), since
//! every symmetry kept fixes the finish and so the start; so ∁P is pruned backward exactly
//! when P is pruned forward. It commutes with the group, so c is a bijection between the
//! orbits of F_k and those of B_k: |B_k| = |F_k|, and x ∈ B_k exactly when c(x) ∈ F_k.
//!
//! **Meeting by children.** With `children` the backward side stops one level short, at
//! N − 1 − d, and the sides meet when some child (not pruned) of a position of the forward
//! level d lies in the backward level N − 1 − d: a play's positions after d and d + 1 jumps
//! are such a pair, and such a pair joins into a play. The forward level d + 1 (the largest,
//! in a balanced search) is never stored.

use super::levels::{Grower, Outcome, Space};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use store::{Bloom, Reader, Sorter, Writer, complete};

mod store;

/// Where and how the levels are kept.
#[derive(Clone, Debug)]
pub struct Work {
    /// The directory of the levels (a subdirectory per search).
    pub dir: PathBuf,
    /// Bytes the sorting buffer may take.
    pub memory: usize,
    /// Files per level.
    pub parts: usize,
    /// One line on stderr per level (its positions, parts and seconds), for long checks.
    pub log: bool,
}

/// Positions expanded at once by one thread.
const CHUNK: usize = 1 << 16;

/// The part of a position among `parts` (a multiplicative hash: the level's parts stay
/// about even whatever the holes).
pub fn part_of(p: u64, parts: usize) -> usize {
    ((p.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % parts as u64) as usize
}

/// A level on disk: its parts and its count.
struct Level {
    parts: Vec<PathBuf>,
    count: u64,
}

/// The work of the search on disk: the caller's, or a temporary directory of its own
/// (unique, so that checks at once never share one), removed when dropped.
pub struct Scratch {
    pub work: Work,
    _temporary: Option<tempfile::TempDir>,
}

impl Scratch {
    pub fn new(work: Option<&Work>) -> io::Result<Scratch> {
        if let Some(w) = work {
            return Ok(Scratch {
                work: w.clone(),
                _temporary: None,
            });
        }
        let temporary = tempfile::Builder::new()
            .prefix("solarmy-check-")
            .tempdir()?;
        Ok(Scratch {
            work: Work {
                dir: temporary.path().to_path_buf(),
                memory: 1 << 30,
                parts: 1,
                log: false,
            },
            _temporary: Some(temporary),
        })
    }
}

/// The pruned exhaustion that meets at forward depth `depth` (see [`super::levels::meet`]),
/// or by children (module doc), on disk in `work`.
pub fn meet(
    s: &Space,
    start: u64,
    depth: usize,
    children: bool,
    work: &Work,
) -> io::Result<Outcome> {
    let total = s.n.saturating_sub(2);
    let depth = depth.min(total);
    let back_depth = (total - depth).saturating_sub(usize::from(children));
    let dir = work.dir.join(digest(s, start));
    fs::create_dir_all(&dir)?;
    // Runs left by a check stopped part way (one check per directory at a time).
    for f in fs::read_dir(&dir)?.flatten() {
        if f.file_name().to_string_lossy().ends_with(".tmp") {
            fs::remove_file(f.path())?;
        }
    }
    let mask = if s.n >= 64 { !0 } else { (1u64 << s.n) - 1 };
    let dual = start == mask & !(1u64 << s.finish);
    let ahead = Grower::new(s, start, true);
    let reach = if dual { depth.max(back_depth) } else { depth };
    let fwd = side(s, &ahead, start, ("forward", reach), work, &dir)?;
    let forward: Vec<u64> = fwd.iter().take(depth + 1).map(|l| l.count).collect();
    if forward.last() == Some(&0) || forward.len() <= depth {
        // The forward side died out: nothing reaches the finish.
        let backward = Vec::new();
        return Ok(counts(forward, backward, 0));
    }
    let behind = Grower::new(s, start, false);
    let bwd = match dual {
        true => Vec::new(),
        false => side(
            s,
            &behind,
            1u64 << s.finish,
            ("backward", back_depth),
            work,
            &dir,
        )?,
    };
    let backward: Vec<u64> = match dual {
        true => fwd.iter().take(back_depth + 1).map(|l| l.count).collect(),
        false => bwd.iter().map(|l| l.count).collect(),
    };
    if backward.len() <= back_depth || backward.last() == Some(&0) {
        return Ok(counts(forward, backward, 0));
    }
    let near = &fwd[depth];
    let far = if dual {
        &fwd[back_depth]
    } else {
        &bwd[back_depth]
    };
    let complement = |p: u64| ahead.least(!p & mask);
    let shared = match (children, dual) {
        (false, false) => shared_parts(near, far)?,
        (false, true) => shared_by(
            far,
            near,
            &|l: &[u64]| l.iter().map(|&p| complement(p)).collect(),
            work,
            &dir,
        )?,
        (true, false) => shared_by(near, far, &|l: &[u64]| ahead.children(l), work, &dir)?,
        (true, true) => {
            let make = |l: &[u64]| ahead.children(l).into_iter().map(complement).collect();
            shared_by(near, far, &make, work, &dir)?
        }
    };
    Ok(counts(forward, backward, shared))
}

fn counts(forward: Vec<u64>, backward: Vec<u64>, shared: u64) -> Outcome {
    Outcome::Counts {
        forward,
        backward,
        shared,
    }
}

/// The levels 0 … `depth` of one side (fewer when one is empty), each built unless the
/// work directory holds it complete.
fn side(
    s: &Space,
    grow: &Grower,
    from: u64,
    (name, depth): (&str, usize),
    work: &Work,
    dir: &Path,
) -> io::Result<Vec<Level>> {
    let bar = bar(s.shown, name);
    let root = grow.root(from);
    let path = |j: usize, k: usize| dir.join(format!("{name}-{j}-{k}of{}.lvl", work.parts));
    let parts: Vec<PathBuf> = (0..work.parts).map(|k| path(0, k)).collect();
    let mut count = 0;
    for (k, p) in parts.iter().enumerate() {
        if let Some(c) = complete(p) {
            count += c;
            continue;
        }
        let mut w = Writer::create(p)?;
        for &x in root.iter().filter(|&&x| part_of(x, work.parts) == k) {
            w.push(x)?;
        }
        count += w.finish()?;
    }
    let mut levels = vec![Level { parts, count }];
    for j in 1..=depth {
        let started = std::time::Instant::now();
        if levels[j - 1].count == 0 {
            break;
        }
        let paths: Vec<PathBuf> = (0..work.parts).map(|k| path(j, k)).collect();
        // Each part's count: from its trailer when complete, else from its build.
        let mut counts: Vec<Option<u64>> = paths.iter().map(|p| complete(p)).collect();
        let missing: Vec<usize> = (0..work.parts).filter(|&k| counts[k].is_none()).collect();
        bar.set_message(format!("level {j}: {} parts to build", missing.len()));
        // As many parts a pass as the memory holds, if a level at most doubles: then no
        // part spills a run (a larger level spills, which costs time, not correctness).
        let per_part = (2 * levels[j - 1].count / work.parts as u64).max(1);
        let group = ((work.memory as u64 / 16) / per_part).max(1) as usize;
        for ks in missing.chunks(group) {
            let built = build(&levels[j - 1], grow, (ks, &paths), work, dir)?;
            ks.iter().zip(built).for_each(|(&k, c)| counts[k] = Some(c));
        }
        let level = Level {
            count: counts.into_iter().flatten().sum(),
            parts: paths,
        };
        if let Some(log) = s.log {
            log(j, level.count as usize);
        }
        if work.log {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "check: {name} level {j}: {} positions in {} parts ({secs:.0} s)",
                level.count, work.parts
            );
        }
        levels.push(level);
    }
    bar.finish_and_clear();
    Ok(levels)
}

/// The parts `ks` of the level after `prev`, written to their `paths`; their counts.
fn build(
    prev: &Level,
    grow: &Grower,
    (ks, paths): (&[usize], &[PathBuf]),
    work: &Work,
    dir: &Path,
) -> io::Result<Vec<u64>> {
    let sorters = gather(prev, &|l: &[u64]| grow.children(l), ks, work, dir)?;
    let mut counts = Vec::with_capacity(ks.len());
    for (&k, sorter) in ks.iter().zip(sorters) {
        let mut w = Writer::create(&paths[k])?;
        sorter.finish(&mut |p| w.push(p))?;
        counts.push(w.finish()?);
    }
    Ok(counts)
}

/// Positions shared by two levels of the same parts, part by part.
fn shared_parts(a: &Level, b: &Level) -> io::Result<u64> {
    let mut n = 0;
    for (pa, pb) in a.parts.iter().zip(&b.parts) {
        let mut r = Reader::open(pb)?;
        let mut meet = Meet::new(&mut r)?;
        let mut ra = Reader::open(pa)?;
        while let Some(p) = ra.next()? {
            n += u64::from(meet.holds(p)?);
        }
    }
    Ok(n)
}

/// Positions `make` gives from `source` that `target` holds.
fn shared_by(
    source: &Level,
    target: &Level,
    make: &(dyn Fn(&[u64]) -> Vec<u64> + Sync),
    work: &Work,
    dir: &Path,
) -> io::Result<u64> {
    // Only what may be in the target goes through the sort: in a level with no play, hardly
    // anything (the filter has no false negatives, so the count below stays exact).
    let filter = Bloom::of(target, work.memory / 2)?;
    let kept = |l: &[u64]| {
        let mut made = make(l);
        made.retain(|&p| filter.may_hold(p));
        made
    };
    let ks: Vec<usize> = (0..work.parts).collect();
    let half = Work {
        memory: work.memory / 2,
        ..work.clone()
    };
    let sorters = gather(source, &kept, &ks, &half, dir)?;
    let mut n = 0;
    for (part, sorter) in target.parts.iter().zip(sorters) {
        let mut r = Reader::open(part)?;
        let mut meet = Meet::new(&mut r)?;
        sorter.finish(&mut |p| {
            n += u64::from(meet.holds(p)?);
            Ok(())
        })?;
    }
    Ok(n)
}

/// A sorted file read alongside increasing positions: whether it holds each.
struct Meet<'a> {
    file: &'a mut Reader,
    head: Option<u64>,
}

impl<'a> Meet<'a> {
    fn new(file: &'a mut Reader) -> io::Result<Meet<'a>> {
        let head = file.next()?;
        Ok(Meet { file, head })
    }

    /// Whether the file holds p (p increasing from call to call).
    fn holds(&mut self, p: u64) -> io::Result<bool> {
        while self.head.is_some_and(|h| h < p) {
            self.head = self.file.next()?;
        }
        Ok(self.head == Some(p))
    }
}

/// The positions `make` gives from every part of `level`, sorted out of core for each part
/// k of `ks` (in one pass over the level, whatever the number of parts): expanded a chunk
/// per core, each part's share sorted in runs of its share of the memory budget. The caller
/// drains each [`Sorter`] in increasing order.
fn gather<'a>(
    level: &Level,
    make: &(dyn Fn(&[u64]) -> Vec<u64> + Sync),
    ks: &[usize],
    work: &Work,
    dir: &'a Path,
) -> io::Result<Vec<Sorter<'a>>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let share = work.memory / ks.len().max(1);
    let mut sorters: Vec<Sorter> = ks.iter().map(|&k| Sorter::new(dir, k, share)).collect();
    // slot[k]: the sorter of part k, if wanted.
    let mut slot = vec![usize::MAX; work.parts];
    ks.iter().enumerate().for_each(|(i, &k)| slot[k] = i);
    for path in &level.parts {
        let mut r = Reader::open(path)?;
        loop {
            let chunks: Vec<Vec<u64>> = (0..threads)
                .map(|_| r.chunk(CHUNK))
                .collect::<io::Result<_>>()?;
            if chunks[0].is_empty() {
                break;
            }
            let made: Vec<Vec<Vec<u64>>> = std::thread::scope(|scope| {
                let hs: Vec<_> = chunks
                    .iter()
                    .map(|c| scope.spawn(|| route(make(c), &slot, work.parts)))
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            for shares in made {
                for (sorter, share) in sorters.iter_mut().zip(shares) {
                    sorter.extend(share)?;
                }
            }
        }
    }
    Ok(sorters)
}

/// Positions split by the sorter of their part (`slot`), those of no wanted part dropped.
fn route(made: Vec<u64>, slot: &[usize], parts: usize) -> Vec<Vec<u64>> {
    let wanted = slot.iter().filter(|&&i| i != usize::MAX).count();
    let mut out = vec![Vec::new(); wanted];
    for p in made {
        let i = slot[part_of(p, parts)];
        if i != usize::MAX {
            out[i].push(p);
        }
    }
    out
}

/// The name of a search's directory: an FNV-1a digest of everything its levels depend on.
fn digest(s: &Space, start: u64) -> String {
    let text = format!(
        "{} {:?} {:?} {:?} {} {start}",
        s.n, s.jumps, s.perms, s.pagodas, s.finish
    );
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("levels-{h:016x}")
}

fn bar(shown: bool, name: &str) -> ProgressBar {
    let bar = match shown {
        true => ProgressBar::new_spinner(),
        false => ProgressBar::hidden(),
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} {prefix} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_prefix(format!("{name} (on disk)"));
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
}
