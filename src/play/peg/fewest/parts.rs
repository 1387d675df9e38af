//! A level of the search by levels on disk built as a job array ([`run_step`]): part k of n
//! of level j holds the positions of level j whose hash ([`part_of`]) is k, built from the
//! complete level j − 1 by one process (one job), independent of the other parts; a merge
//! then writes level j from its n parts. Jobs of one level run anywhere that sees the work
//! directory (GNU parallel here, a Slurm array on a cluster), the merge after them, the next
//! level after the merge. `scripts/levels-array` drives it.
//!
//! The level written by a merge is the level the one-process search builds: the parts are
//! disjoint (a position's part is a function of the position) and together hold every child
//! kept (each part keeps the children of the whole level j − 1 that fall in it), each part
//! sorted without repeats, and their merge sorted without repeats. The pagodas are those kept
//! in the work directory, so every part prunes alike.

use super::disk::{Disk, Merged};
use super::outcore::{level_zero, next_level, plans};
use super::packed::{LevelFile, level_path, part_path};
use super::{Bits, Limits, Stop};
use crate::play::peg::PegBoard;
use std::path::Path;

/// One job of a level built as a job array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Part k of n of level `level`.
    Part { level: usize, k: u64, n: u64 },
    /// Level `level` from its n parts.
    Merge { level: usize, n: u64 },
}

impl Job {
    /// The command line's `J:K/N` (a part) or `J:N` (a merge, with `merge` true).
    pub fn parse(s: &str, merge: bool) -> Result<Job, String> {
        let bad = || {
            if merge {
                format!("'{s}': LEVEL:PARTS, e.g. 18:64")
            } else {
                format!("'{s}': LEVEL:PART/PARTS, e.g. 18:0/64")
            }
        };
        let (j, rest) = s.split_once(':').ok_or_else(bad)?;
        let level: usize = j.trim().parse().map_err(|_| bad())?;
        let step = if merge {
            let n: u64 = rest.trim().parse().map_err(|_| bad())?;
            Job::Merge { level, n }
        } else {
            let (k, n) = rest.split_once('/').ok_or_else(bad)?;
            let (k, n): (u64, u64) = (
                k.trim().parse().map_err(|_| bad())?,
                n.trim().parse().map_err(|_| bad())?,
            );
            Job::Part { level, k, n }
        };
        match step {
            Job::Part { level: 1.., k, n } if k < n => Ok(step),
            Job::Merge { level: 1.., n: 1.. } => Ok(step),
            _ => Err(format!("{}: a level from 1, a part below the parts", bad())),
        }
    }
}

/// Runs one job for the problem (v, f): the step on each side's levels that reach that deep
/// (a side's level already complete is left as it is). Returns what it did, one line a side.
pub fn run_step(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    step: Job,
    lim: &Limits,
    disk: &Disk,
) -> Result<Vec<String>, Stop> {
    let mut done = Vec::new();
    let width = bits.n.div_ceil(8);
    for (plan, depth) in plans(board, bits, (v, f), lim, disk)?.0 {
        let level = match step {
            Job::Part { level, .. } | Job::Merge { level, .. } => level,
        };
        if level > depth {
            continue;
        }
        let dir = plan.dir(bits, disk);
        std::fs::create_dir_all(&dir).map_err(|e| super::disk::io("cannot create", &dir, e))?;
        if let Some(l) = LevelFile::open_level(&dir, level, width, disk)? {
            done.push(format!(
                "{}: level {level} complete ({} positions)",
                dir.display(),
                l.len
            ));
            continue;
        }
        let line = match step {
            Job::Part { k, n, .. } => {
                let path = part_path(&dir, level, k, n);
                let prev = previous(bits, &plan, &dir, level, disk)?;
                let group = (&plan.group[..], &plan.keep);
                let part = match LevelFile::open(&path, width) {
                    Some(p) => p,
                    None => next_level(bits, group, (&prev, Some((k, n))), &path, lim, disk)?,
                };
                format!(
                    "{}: level {level} part {k} of {n}: {} positions",
                    dir.display(),
                    part.len
                )
            }
            Job::Merge { n, .. } => merge(&dir, level, n, width, disk)?,
        };
        done.push(line);
    }
    Ok(done)
}

/// Level j − 1, complete (level 0 is made here when missing: it is the start).
fn previous(
    bits: &Bits,
    plan: &super::outcore::Plan,
    dir: &Path,
    level: usize,
    disk: &Disk,
) -> Result<LevelFile, Stop> {
    let path = level_path(dir, level - 1);
    match LevelFile::open_level(dir, level - 1, bits.n.div_ceil(8), disk)? {
        Some(l) => Ok(l),
        None if level == 1 => level_zero(bits, (plan.hole, &plan.group, &plan.keep), &path, disk),
        None => Err(Stop::Disk(format!(
            "level {} is not complete in {}: build its parts and merge them first",
            level - 1,
            dir.display()
        ))),
    }
}

/// Level j from its n parts (each must be there), the parts removed once it is written.
fn merge(dir: &Path, level: usize, n: u64, width: usize, disk: &Disk) -> Result<String, Stop> {
    let paths: Vec<_> = (0..n).map(|k| part_path(dir, level, k, n)).collect();
    let parts: Vec<LevelFile> = paths
        .iter()
        .filter_map(|p| LevelFile::open(p, width))
        .collect();
    if parts.len() as u64 != n {
        let missing = n - parts.len() as u64;
        return Err(Stop::Disk(format!(
            "level {level}: {missing} of its {n} parts are missing in {}",
            dir.display()
        )));
    }
    let whole = level_path(dir, level);
    let mut m = Merged::<u64>::of_files(disk, &parts)?;
    let l = LevelFile::write(disk, &whole, width, &mut || m.next())?;
    drop(m);
    for p in &paths {
        let _ = std::fs::remove_file(p);
    }
    Ok(format!(
        "{}: level {level} merged from {n} parts: {} positions",
        dir.display(),
        l.len
    ))
}
