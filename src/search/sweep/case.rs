//! Solving one case: its board (step 2 of the board argument with the case's largest start
//! exponent and slack), its program (men per exponent class fixed, lossy jumps capped),
//! HiGHS's verdict on it (or the exact certificate of its LP relaxation, without HiGHS),
//! CBC's when a second opinion is asked for, and the log line and proof entry that say how
//! it was settled. A case that outlasts `split_after` seconds is handed back to be split.

use super::{Attempt, CaseResult, Family, Sweep, split};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::second::{self, Verdict};
use crate::ip::solve::{self, IpStatus, Options};
use crate::problem::geometry::Cell;
use crate::proof::farkas::Tree;
use crate::proof::format::{CaseOutcome, CaseProof, IpDef, IpProof};
use crate::reduce::board::{Board, Limit};
use crate::reduce::cases::Case;
use crate::search::outcome::{self, Outcome};
use indicatif::ProgressBar;
use std::time::Instant;

impl Sweep {
    /// Solves the `index`-th remaining case (from 1) as one job: its log line, with the
    /// exact certificate of an infeasible program (a job cannot know whether another finds
    /// an army, so it always certifies).
    pub fn solve_job(&self, index: usize, time_limit: Option<f64>) -> Result<CaseResult, Error> {
        let (d, c) = index
            .checked_sub(1)
            .and_then(|i| self.remaining().get(i).copied())
            .ok_or_else(|| Error::Input(format!("--case {index}: no such job")))?;
        let f = self.families.iter().find(|f| f.last_jump == d).unwrap();
        let Attempt::Done(mut r, _) = self.solve_case(f, c, time_limit, None, false)? else {
            unreachable!("a job solves its case whole")
        };
        if let Some(ip) = r.ip.as_mut().filter(|ip| ip.certificate.is_none()) {
            crate::ip::evidence::certify_proof(self.army, self.level, ip)?;
        }
        Ok(r)
    }

    /// The board of one case: step 2 of the board argument with this case's E and S; where
    /// the slack pays for any distance, the pagoda window, not proven.
    fn case_board(&self, f: &Family, c: &Case) -> (Board, Limit) {
        let pagoda = f.pagoda.as_ref().unwrap();
        let reached = crate::reduce::board::reach_profile(&c.profile, c.slack);
        let limit = Limit {
            men: self.men,
            max_exponent: reached.min(pagoda.trusted_exponent()),
            max_loss: c.slack,
            proven: reached <= pagoda.trusted_exponent(),
        };
        (Board::new(pagoda, self.level, &limit), limit)
    }

    /// Solves one case's program: its log line, and the army when the case has one; or,
    /// when `split` allows and HiGHS has not settled it within [`split::SPLIT_AFTER`]
    /// seconds, the case cut into boxes for the workers ([`split`]). A case whose LP
    /// relaxation is infeasible is settled by its exact certificate alone, without HiGHS.
    pub(super) fn solve_case(
        &self,
        f: &Family,
        c: &Case,
        time_limit: Option<f64>,
        bar: Option<&ProgressBar>,
        split: bool,
    ) -> Result<Attempt, Error> {
        let t0 = Instant::now();
        let mut r = blank(f.last_jump, c);
        let (board, limit) = self.case_board(f, c);
        r.board_proven = limit.proven;
        let (spec, def) = self.case_program(&board, f.last_jump, c, &limit);
        r.cells = board.cells.len();
        r.jumps = board.jumps.len();
        let sys = crate::ip::evidence::system(self.army, self.level, &def)?;
        let mut proof = crate::ip::evidence::evidence_of(&sys, def);
        if let Some(cert) = crate::ip::certify::farkas_within(&sys, time_limit) {
            r.seconds = t0.elapsed().as_secs_f64();
            r.status = "infeasible".into();
            r.cbc = self.second(&board, &spec, time_limit, f.last_jump, c)?;
            proof.highs = "not run: the LP relaxation is infeasible".into();
            proof.cbc = r.cbc.clone();
            proof.certificate = Some(Tree::Leaf(cert));
            proof.seconds = r.seconds;
            r.ip = Some(proof);
            return Ok(Attempt::Done(r, None));
        }
        let after = self
            .split_after
            .filter(|_| split && !self.count && self.jobs >= split::SPLIT_MIN_JOBS);
        let whole_limit = after.map_or(time_limit, |a| Some(time_limit.map_or(a, |t| t.min(a))));
        let label = format!("{:?} {}", f.last_jump, c.key());
        let mut sol = self.solve_whole(&board, &spec, whole_limit, bar, &label)?;
        if let Some(a) = after
            && sol.status == IpStatus::TimeLimit
            && time_limit.is_none_or(|t| t > a + 1.0)
        {
            // The boxes' LPs are paid only by a case that outlasted `after` seconds.
            let boxes = crate::ip::evidence::groups(self.army, self.level, &proof.def)
                .ok()
                .and_then(|groups| crate::ip::certify::boxes(&sys, &groups));
            let Some(boxes) = boxes else {
                // No split ends in an empty box: the whole case, in the time left.
                let left = time_limit.map(|t| t - t0.elapsed().as_secs_f64());
                sol = self.solve_whole(&board, &spec, left, bar, &label)?;
                r.seconds = t0.elapsed().as_secs_f64();
                let found =
                    self.settle_case(&mut r, &board, &spec, &sol, time_limit, f, c, proof)?;
                return Ok(Attempt::Done(r, found));
            };
            let verdicts = vec![None; boxes.children.len()];
            r.seconds = t0.elapsed().as_secs_f64();
            return Ok(Attempt::Split(Box::new(split::Pending {
                index: 0,
                result: r,
                board,
                spec,
                proof,
                boxes,
                verdicts,
            })));
        }
        if self.count {
            let program = (&board, spec, proof);
            return self.count_case(r, program, sol, (time_limit, t0), (f, c), bar);
        }
        r.seconds = t0.elapsed().as_secs_f64();
        let found = self.settle_case(&mut r, &board, &spec, &sol, time_limit, f, c, proof)?;
        Ok(Attempt::Done(r, found))
    }

    /// A case's log line from HiGHS's verdict on the whole program.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn settle_case(
        &self,
        r: &mut CaseResult,
        board: &Board,
        spec: &Spec,
        sol: &solve::IpSolution,
        time_limit: Option<f64>,
        f: &Family,
        c: &Case,
        mut proof: IpProof,
    ) -> Result<Option<Outcome>, Error> {
        let mut found = None;
        r.status = match sol.status {
            IpStatus::Infeasible => {
                r.cbc = self.second(board, spec, time_limit, f.last_jump, c)?;
                proof.cbc = r.cbc.clone();
                // HiGHS's work, not the wall time (see IpProof::seconds).
                proof.seconds = sol.cpu_seconds;
                r.ip = Some(proof);
                "infeasible".into()
            }
            IpStatus::TimeLimit => "time_limit".into(),
            IpStatus::Interrupted => "interrupted".into(),
            IpStatus::Optimal => {
                let req = outcome::Request::new(self.army, self.level);
                let mut out = outcome::empty_outcome(&req);
                if outcome::settle(&mut out, &req, board, sol, f.last_jump) {
                    out.status = outcome::Status::Optimal;
                    r.army = Some(out.army_cells.clone());
                    r.play = Some(out.play.clone());
                    found = Some(out);
                    "feasible".into()
                } else {
                    "unorderable".into()
                }
            }
        };
        Ok(found)
    }

    /// HiGHS on a whole case, stopped early once another worker finds an army.
    pub(super) fn solve_whole(
        &self,
        board: &Board,
        spec: &Spec,
        time_limit: Option<f64>,
        bar: Option<&ProgressBar>,
        label: &str,
    ) -> Result<solve::IpSolution, Error> {
        solve::solve(
            Model::build(board, spec),
            &Options {
                time_limit,
                progress: bar.cloned(),
                label: label.to_string(),
                stop: Some(self.stop.clone()),
            },
        )
    }

    /// A case's program: the board's men per exponent class fixed to the profile, and at
    /// most ⌊S/λ⌋ lossy jumps; as the search solves it and as the proof states it.
    fn case_program(&self, board: &Board, d: Cell, c: &Case, limit: &Limit) -> (Spec, IpDef) {
        let mut spec = Spec {
            fin: board.last_jump_position(d),
            max_men: Some(self.men),
            ..Spec::default()
        };
        for i in 0..=limit.max_exponent {
            let cells: Vec<usize> = board
                .start_cells()
                .filter(|&x| board.exponent[x] == Some(i))
                .collect();
            if !cells.is_empty() {
                let n = c.profile.iter().find(|p| p.0 == i).map_or(0, |p| p.1);
                spec.men_in.push((cells, n));
            }
        }
        let lossy: Vec<usize> = (0..board.jumps.len())
            .filter(|&j| !board.loss[j].is_zero())
            .collect();
        let mut cap = None;
        if let Some(least) = lossy.iter().map(|&j| board.loss[j]).min() {
            let mut most = 0u64;
            while (most + 1) as i128 * least <= c.slack {
                most += 1;
            }
            spec.jumps_at_most.push((lossy, most));
            cap = Some(most);
        }
        let def = IpDef {
            last_jump: d,
            max_men: self.men,
            min_men: None,
            max_exponent: limit.max_exponent,
            max_loss: limit.max_loss,
            classes: Some(c.profile.clone()),
            lossy_cap: cap,
            cuts: Vec::new(),
        };
        (spec, def)
    }

    /// CBC's verdict on an infeasible case, when asked for; a disagreement is an error.
    pub(super) fn second(
        &self,
        board: &Board,
        spec: &Spec,
        time_limit: Option<f64>,
        d: Cell,
        c: &Case,
    ) -> Result<Option<String>, Error> {
        if !self.second_opinion {
            return Ok(None);
        }
        let v = second::reprove(board, spec, time_limit);
        if let Verdict::Feasible(_) = v {
            return Err(Error::Disagreement(format!(
                "solvers disagree on {} level {}, {} men, last jump {:?}, case {}: HiGHS says infeasible, CBC {}",
                self.army,
                self.level,
                self.men,
                d,
                c.key(),
                v.as_str()
            )));
        }
        Ok(Some(v.as_str()))
    }
}

/// A case's log line before anything is solved: ruled out if a reduction says so.
pub(super) fn blank(d: Cell, c: &Case) -> CaseResult {
    CaseResult {
        last_jump: d,
        case: c.key(),
        slack: c.slack_sigma.clone(),
        status: "ruled_out".into(),
        reason: c.ruled_out.clone(),
        cells: 0,
        jumps: 0,
        seconds: 0.0,
        board_proven: true,
        cbc: None,
        ip: None,
        army: None,
        play: None,
        counted: Vec::new(),
    }
}

/// What settles a case in the proof: its reduction, or its infeasible program.
pub(super) fn case_proof(c: &Case, r: &CaseResult) -> Option<CaseProof> {
    let outcome = match (r.status.as_str(), &c.reduction, &r.ip) {
        ("ruled_out", Some(red), _) => CaseOutcome::RuledOut(red.clone()),
        ("infeasible", _, Some(ip)) => CaseOutcome::Ip {
            reach: ip.def.max_exponent,
            ip: ip.clone(),
        },
        _ => return None,
    };
    Some(CaseProof {
        profile: c.profile.clone(),
        slack: c.slack,
        outcome,
    })
}
