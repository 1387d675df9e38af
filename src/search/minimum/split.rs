//! A round split into cases: the case sweep of round k for one last jump
//! ([`crate::search::sweep`]), run with the request's settings, and its report turned into
//! the round's line, its proof's evidence, or the army it found.

use super::{Pending, Search, Settled};
use crate::error::Error;
use crate::ip::solve::{INTERRUPTED, IpStatus};
use crate::problem::geometry::Cell;
use crate::proof::format::{Evidence, RoundProof};
use crate::search::outcome::Round;
use crate::search::sweep::{self, Sweep};

impl Search<'_> {
    /// Round k for the i-th last jump, split into cases.
    pub(super) fn split(&mut self, i: usize, k: u64) -> Result<Settled, Error> {
        let d = self.dirs[i].d;
        let (sweep, report) = self.sweep_cases(d, k)?;
        self.split.push((k, d, self.case_dir.clone()));
        self.out.case_logs.push(report.log.display().to_string());
        let proven = report.enumeration_complete && report.results.iter().all(|r| r.board_proven);
        let cells = report.results.iter().map(|r| r.cells).max().unwrap_or(0);
        let jumps = report.results.iter().map(|r| r.jumps).max().unwrap_or(0);
        self.out.ips += report.solved;
        (self.out.cells, self.out.jumps) = (cells, jumps);
        self.out.rounds.push(Round {
            men: k,
            last_jump: d,
            cells,
            jumps,
            board_max_exponent: sweep
                .families
                .iter()
                .map(|f| f.max_exponent)
                .max()
                .unwrap_or(0),
            board_proven: proven,
            status: format!("cases: {}", report.summary()),
            seconds: report.results.iter().map(|r| r.seconds).sum(),
            cbc: None,
        });
        if let Some(found) = report.found {
            self.take_army(found, (cells, jumps));
            self.conclude(k)?;
            return Ok(Settled::Found);
        }
        if !report.complete {
            let interrupted = INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed);
            if interrupted || self.remaining().is_some_and(|r| r <= 1.0) {
                let status = if interrupted {
                    IpStatus::Interrupted
                } else {
                    IpStatus::TimeLimit
                };
                self.stop(k, status, None);
                return Ok(Settled::Stopped);
            }
            // A case was left unsettled (an army that would not order): nothing is proven.
            return Ok(Settled::Unresolved);
        }
        match report
            .evidence
            .into_iter()
            .find(|e| e.0 == d)
            .and_then(|e| e.1)
        {
            Some(cases) if proven => self.pending.push(Pending::ready(RoundProof {
                men: k,
                last_jump: d,
                evidence: Evidence::Cases { cases },
            })),
            _ => self.out.proof_complete = false,
        }
        Ok(Settled::Infeasible { proven })
    }

    /// The case sweep of round k for the last jump d, run with the request's settings; the
    /// spinner steps aside while the sweep draws its own bar, so the two never overwrite
    /// each other on screen.
    fn sweep_cases(&mut self, d: Cell, k: u64) -> Result<(Sweep, sweep::Report), Error> {
        let mut sweep = Sweep::with_directions(self.req.army, self.req.level, k, &[d], 0);
        sweep.second_opinion = self.req.second_opinion;
        sweep.jobs = self.req.jobs;
        sweep.verbose = self.req.verbose;
        sweep.split_after = self.req.split_after;
        if let Some(pb) = &self.progress {
            pb.set_message(format!(
                "{} level {}: {k} men, direct IP too slow, splitting into cases",
                self.req.army, self.req.level
            ));
        }
        let remaining = self.remaining();
        let report = aside(self.progress.as_ref(), || {
            sweep.solve(&self.case_dir, remaining, self.req.progress)
        });
        Ok((sweep, report?))
    }
}

/// Runs `f` with the spinner `pb` (if any) off the screen: its line cleared first and drawn
/// again after, so that a case sweep's own bar neither draws over it nor leaves it behind
/// as a stale line (hiding it by its draw target left its last line on the terminal). The
/// spinner's lock is held meanwhile: `f` must not touch it.
pub(super) fn aside<R>(pb: Option<&indicatif::ProgressBar>, f: impl FnOnce() -> R) -> R {
    match pb {
        Some(pb) => pb.suspend(f),
        None => f(),
    }
}
