//! How a search for a minimum ends: an army found (by a round, a case sweep or beforehand)
//! and every round below it settled, concluded with its lower bound and, where the last
//! board below was not proven, its stability on wider boards; or a stop (time limit,
//! Ctrl-C) with what was found and the bound so far.

use super::program::round_limit;
use super::{Outcome, Search, Status};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::solve::{self, IpStatus, Options};
use crate::problem::geometry::Cell;
use crate::reduce::board::Board;
use crate::search::outcome::settle;
use crate::search::sweep::Sweep;

impl Search<'_> {
    /// The army a case sweep found becomes the outcome, keeping what the search has
    /// gathered so far (its rounds, logs, proof rounds and counts).
    pub(super) fn take_army(&mut self, found: Outcome, (cells, jumps): (usize, usize)) {
        self.out = Outcome {
            rounds: std::mem::take(&mut self.out.rounds),
            case_logs: std::mem::take(&mut self.out.case_logs),
            proof_rounds: std::mem::take(&mut self.out.proof_rounds),
            unresolved: std::mem::take(&mut self.out.unresolved),
            proof_complete: self.out.proof_complete,
            board_proven: self.out.board_proven,
            pagoda_bound: self.out.pagoda_bound,
            unorderable: self.out.unorderable,
            ips: self.out.ips,
            cells,
            jumps,
            ..found
        };
    }

    /// The army found before the climb, once every round below its size has no army.
    pub(super) fn take_incumbent(&mut self) {
        let Some(f) = &self.req.incumbent else {
            return;
        };
        self.out.min_size = Some(f.men());
        self.out.verified = true;
        self.out.army_cells = f.army_cells.clone();
        self.out.play = f.play.clone();
        self.out.moves = f.moves;
        self.out.last_jump = Some(f.last_jump);
    }

    /// A time limit or Ctrl-C in round k: report what was found and the bound so far. The
    /// bound rests on the rounds below k only, so `board_proven` says nothing of round k's
    /// board: a stop by either cause in the same round reports the same.
    pub(super) fn stop(
        &mut self,
        k: u64,
        status: IpStatus,
        best: Option<(&Board, &solve::IpSolution, Cell)>,
    ) {
        self.out.status = if status == IpStatus::TimeLimit {
            Status::TimeLimit
        } else {
            Status::Interrupted
        };
        if let Some(pb) = &self.progress {
            pb.finish_and_clear();
        }
        if let Some((board, sol, d)) = best.filter(|b| b.1.objective.is_some()) {
            settle(&mut self.out, self.req, board, sol, d);
        }
        self.out.lower_bound = Some(self.lower(k));
        // A verified army as large as the proven bound is the minimum, whatever the clock
        // says: the rounds below it are all settled.
        if self.out.verified
            && self.out.min_size.is_some()
            && self.out.min_size == self.out.lower_bound
        {
            self.out.status = Status::Optimal;
        }
        self.out.seconds = self.t0.elapsed().as_secs_f64();
    }

    /// The proven lower bound when rounds below k are done: k, or the first unresolved one.
    fn lower(&self, k: u64) -> u64 {
        self.out
            .unresolved
            .iter()
            .copied()
            .min()
            .unwrap_or(k)
            .min(k)
    }

    /// An army of k men was found and every round below k was settled: k is the minimum,
    /// unless a round below was unresolved.
    pub(super) fn conclude(&mut self, k: u64) -> Result<(), Error> {
        let stable = match self.last_unproven.filter(|&u| u + 1 == k) {
            Some(u) if self.req.stability_margin > 0 => Some(self.stable(u)?),
            _ => None,
        };
        if let Some(pb) = &self.progress {
            pb.finish_and_clear();
        }
        self.out.status = if self.out.unresolved.is_empty() {
            Status::Optimal
        } else {
            Status::Open
        };
        self.out.lower_bound = Some(self.lower(k));
        self.out.stable = stable;
        self.out.seconds = self.t0.elapsed().as_secs_f64();
        Ok(())
    }

    /// Re-solves round k on boards larger by the stability margin: still infeasible?
    fn stable(&self, k: u64) -> Result<bool, Error> {
        let req = self.req;
        for dir in self.dirs.iter().filter(|x| x.bound.is_some_and(|b| b <= k)) {
            let (mut limit, _) = round_limit(dir, k);
            if let Some((_, _, log_dir)) = self.split.iter().find(|s| s.0 == k && s.1 == dir.d) {
                // That round was split into cases: widen the case split instead.
                let mut sweep =
                    Sweep::with_directions(req.army, req.level, k, &[dir.d], req.stability_margin);
                sweep.second_opinion = req.second_opinion;
                sweep.jobs = req.jobs;
                let remaining = self.remaining();
                let report = super::split::aside(self.progress.as_ref(), || {
                    sweep.solve(log_dir, remaining, req.progress)
                })?;
                if !report.complete || report.found.is_some() {
                    return Ok(false);
                }
                continue;
            }
            if limit.proven {
                continue;
            }
            limit.max_exponent += req.stability_margin;
            let board = Board::new(&dir.pagoda, req.level, &limit);
            let spec = Spec {
                fin: board.last_jump_position(dir.d),
                max_men: Some(k),
                ..Spec::default()
            };
            let opts = Options {
                time_limit: self.remaining(),
                ..Options::default()
            };
            if solve::solve(Model::build(&board, &spec), &opts)?.status != IpStatus::Infeasible {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
