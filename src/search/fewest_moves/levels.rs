//! A classical board problem's fewest moves by the exact search by levels (`moves --model
//! BOARD --vacancy X,Y --finish X,Y`, the default for boards of at most 64 holes) as library
//! calls: the levels' place on disk ([`disk`]), the search with its play replayed by the
//! independent checker ([`solve`]), one job of a level built as a job array ([`job`]), and the
//! positions on some play per level ([`per_level`]). The search is
//! [`crate::play::peg::fewest`]'s; a search stopped short (Ctrl-C, a budget) is not an error
//! but the line saying why, which the commands print with exit 3.

use crate::error::{Error, Result};
use crate::play::peg::PegBoard;
use crate::play::peg::fewest::{self, Disk, Job, Join, Limits, Meet, Solved};
use crate::problem::geometry::Cell;
use std::path::Path;

/// An answer, or the line that says why the search stopped before it.
pub type Stopped<T> = std::result::Result<T, String>;

/// The levels' place on disk, `work` (created when missing), and the disk they may take at
/// once: `budget`, else the space free there; None without `work`.
pub fn disk(
    work: Option<&Path>,
    budget: Option<u64>,
    (meet, join): (Meet, Join),
) -> Result<Option<Disk>> {
    let Some(dir) = work else {
        return Ok(None);
    };
    let dir = fewest::work_dir(dir).map_err(Error::Input)?;
    let budget = match budget {
        Some(b) => b,
        None => fewest::free_space(&dir).unwrap_or(u64::MAX),
    };
    Ok(Some(Disk::new(dir, budget).met(meet).joined(join)))
}

/// The fewest moves from `v` to `f` on `board` within `lim`, and the positions the levels
/// built: the play found replayed by the independent checker in that many moves.
pub fn solve(
    board: &PegBoard,
    (v, f): (Cell, Cell),
    lim: &Limits,
) -> Result<Stopped<(Solved, u64)>> {
    let bits = fewest::Bits::new(board).map_err(Error::Input)?;
    let (vi, fi) = (board.index[&v], board.index[&f]);
    let (s, built) = match fewest::solve_pair(board, &bits, (vi, fi), lim) {
        Ok(x) => x,
        Err(st) => return Ok(Err(fewest::stop_line(st, lim))),
    };
    if let Some(play) = &s.play {
        let r = super::board::replay(board, (v, f), play).map_err(|e| {
            Error::Solver(format!(
                "internal error: the play found does not replay: {e}"
            ))
        })?;
        if Some(r.moves as u32) != s.min_moves {
            return Err(Error::Solver(
                "internal error: the play's move count differs".into(),
            ));
        }
    }
    Ok(Ok((s, built)))
}

/// One job of a level built as a job array (`--level-part`, `--level-merge`) on `disk`: the
/// lines saying what it did.
pub fn job(
    board: &PegBoard,
    (v, f): (Cell, Cell),
    job: Job,
    lim: &Limits,
    disk: &Disk,
) -> Result<Stopped<Vec<String>>> {
    let bits = fewest::Bits::new(board).map_err(Error::Input)?;
    let (vi, fi) = (board.index[&v], board.index[&f]);
    Ok(fewest::run_step(board, &bits, (vi, fi), job, lim, disk)
        .map_err(|st| fewest::stop_line(st, lim)))
}

/// Positions on some play per fewest moves from the start (the table's row sums).
pub fn per_level(s: &Solved) -> Vec<u64> {
    s.table.iter().map(|r| r.iter().sum()).collect()
}
