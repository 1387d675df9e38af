//! A last jump's count by exponent-profile cases (`count --cases`): the round of K men split
//! into the cases a minimum's hard round is split into ([`crate::search::sweep`]), each case
//! solved until its program, with a cut on each army found and its images, is infeasible
//! ([`Sweep::count`]). An army has one profile, so the cases count apart and at once (on
//! `jobs` threads), each program carrying only its own armies' cuts: smaller programs than
//! the direct round's with every cut, which exact certificates close more often. The
//! round's proof is then its cases, as for a minimum.

use super::CountOutcome;
use crate::error::Error;
use crate::problem::geometry::Cell;
use crate::proof::format::CaseProof;
use crate::proof::verify;
use crate::search::sweep::Sweep;
use std::path::Path;

/// Counts the armies of `k` men ending with the last jump over `d` by cases, their case log
/// in `dir`: the cases' proofs when every case is settled on a proven board, None (with
/// the reason in `out`) otherwise. Every army found goes to `out`: its play replayed here
/// again (a case log is a cache), kept in its canonical image.
pub(super) fn count_by_cases(
    out: &mut CountOutcome,
    (d, k): (Cell, u64),
    dir: &Path,
    remaining: Option<f64>,
    (jobs, progress): (usize, bool),
) -> Result<Option<Vec<CaseProof>>, Error> {
    let mut sweep = Sweep::with_directions(out.army, out.level, k, &[d], 0);
    if sweep.families.is_empty() {
        // No army of k men is heavy enough for this last jump: nothing to count.
        return Ok(Some(Vec::new()));
    }
    sweep.count = true;
    sweep.jobs = jobs;
    sweep.split_after = None;
    let report = sweep.solve(dir, remaining, progress)?;
    for r in &report.results {
        for (cells, play) in &r.counted {
            take(out, cells, play.as_deref());
        }
    }
    let proven = report.enumeration_complete && report.results.iter().all(|r| r.board_proven);
    let cases = report
        .evidence
        .into_iter()
        .find(|e| e.0 == d)
        .and_then(|e| e.1);
    if !report.complete {
        out.reason = Some("stopped by the time limit or Ctrl-C".into());
        return Ok(None);
    }
    if !proven {
        out.reason = Some(format!("a board of last jump {d:?} is not proven"));
        return Ok(None);
    }
    Ok(cases)
}

/// One army a case admitted, counted once ([`super::add_army`]); playable when its play
/// replays.
fn take(out: &mut CountOutcome, cells: &[Cell], play: Option<&[verify::Step]>) {
    let lattice = out.army.lattice();
    let play = play.filter(|p| verify::replay(&lattice, out.level, cells, p).is_ok());
    super::add_army(out, cells, play);
}
