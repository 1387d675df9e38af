//! A round's direct IP for one last jump: the LP relaxation first (an exact certificate
//! settles the round without HiGHS), then HiGHS within the direct budget (a round predicted
//! or found too slow goes to its case split), re-solved after each no-good cut; CBC's
//! second opinion, the report line, the record a rerun resumes from, and the proof's
//! evidence, made only once the round has no army.

use super::program::round_limit;
use super::{MAX_CUTS, Pending, Search, Settled};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::second::{self, Verdict};
use crate::ip::solve::{self, IpStatus, Options};
use crate::problem::geometry::Cell;
use crate::proof::farkas::Tree;
use crate::proof::format::{BoardBasis, Evidence, IpProof, RoundProof};
use crate::reduce::board::{Board, Limit};
use crate::search::outcome::{Round, model_path, settle};
use crate::search::sweep::Sweep;
use std::time::Instant;

impl Search<'_> {
    /// The direct IP of round k for the i-th last jump, re-solved after each cut.
    pub(super) fn direct(&mut self, i: usize, k: u64) -> Result<Settled, Error> {
        if self.split_at_once(i, k) {
            return self.split(i, k);
        }
        let dir = &self.dirs[i];
        let (d, bound) = (dir.d, dir.bound);
        let (limit, basis) = round_limit(dir, k);
        let board = Board::new(&dir.pagoda, self.req.level, &limit);
        // Rounds below k found nothing, so only an army of exactly k men is looked for.
        let mut spec = Spec {
            fin: board.last_jump_position(d),
            max_men: Some(k),
            min_men: (k > bound.unwrap_or(k)).then_some(k),
            ..Spec::default()
        };
        if self.resumed(k, d, &spec, &limit, basis.as_ref()) {
            return Ok(Settled::Infeasible {
                proven: limit.proven,
            });
        }
        if self.lp_first(k, d, &board, &spec, &limit, basis.as_ref())? {
            return Ok(Settled::Infeasible {
                proven: limit.proven,
            });
        }
        loop {
            let sol = self.solve_direct(&board, &spec, d, k)?;
            if sol.status == IpStatus::TimeLimit && self.budget_hit(&spec, &sol) {
                // The direct IP is hopeless here: split this round into cases.
                return self.split(i, k);
            }
            let cbc = match sol.status {
                IpStatus::Infeasible => self.second_opinion(&board, &spec, k, d, "HiGHS")?,
                _ => None,
            };
            self.record(k, d, &board, &limit, &sol, cbc.clone());
            match sol.status {
                IpStatus::Infeasible if !spec.excluded.is_empty() => {
                    return Ok(Settled::Unresolved);
                }
                IpStatus::Infeasible => {
                    let def = crate::ip::evidence::direct_def(
                        d,
                        k,
                        spec.min_men,
                        limit.max_exponent,
                        limit.max_loss,
                    );
                    let (army, level) = (self.req.army, self.req.level);
                    self.evidence(k, d, basis, move |t| {
                        let s = sol.cpu_seconds;
                        crate::ip::evidence::infeasible(army, level, def, cbc, s, t)
                    });
                    return Ok(Settled::Infeasible {
                        proven: limit.proven,
                    });
                }
                IpStatus::TimeLimit | IpStatus::Interrupted => {
                    self.stop(k, sol.status, Some((&board, &sol, d)));
                    return Ok(Settled::Stopped);
                }
                IpStatus::Optimal => {
                    if self.play(&board, &sol, d) {
                        self.conclude(sol.objective.unwrap())?;
                        return Ok(Settled::Found);
                    }
                    self.out.unorderable += 1;
                    if spec.excluded.len() >= MAX_CUTS {
                        return Ok(Settled::Unresolved);
                    }
                    spec.excluded.push(sol.start.clone());
                }
            }
        }
    }

    /// Round k's LP relaxation before its integer program: when the LP is infeasible, its
    /// exact Farkas certificate settles the round, as it settles a case in the sweep, and
    /// HiGHS's branch-and-bound is not run (diagonal 8's 122-man rounds are LP-infeasible,
    /// yet took HiGHS 16–23 s each as integer programs). The certificate is found on the
    /// checker's own system of the round's definition: it is the proof's evidence as is.
    fn lp_first(
        &mut self,
        k: u64,
        d: Cell,
        board: &Board,
        spec: &Spec,
        limit: &Limit,
        basis: Option<&BoardBasis>,
    ) -> Result<bool, Error> {
        // With (almost) no time left the round is HiGHS's to stop, as a case's box is.
        if self.remaining().is_some_and(|t| t < 0.01) {
            return Ok(false);
        }
        let (t0, c0) = (Instant::now(), solve::thread_seconds());
        let def =
            crate::ip::evidence::direct_def(d, k, spec.min_men, limit.max_exponent, limit.max_loss);
        let sys = crate::ip::evidence::system(self.req.army, self.req.level, &def)?;
        let Some(cert) = crate::ip::certify::farkas_within(&sys, self.remaining()) else {
            return Ok(false);
        };
        let seconds = t0.elapsed().as_secs_f64();
        let cbc = self.second_opinion(board, spec, k, d, "the LP relaxation")?;
        let sol = solve::IpSolution {
            status: IpStatus::Infeasible,
            objective: None,
            bound: u64::MAX,
            start: Vec::new(),
            jumps: Vec::new(),
            seconds,
            cpu_seconds: solve::thread_seconds() - c0,
        };
        self.record(k, d, board, limit, &sol, cbc.clone());
        let ip = IpProof {
            highs: "not run: the LP relaxation is infeasible".into(),
            cbc,
            certificate: Some(Tree::Leaf(cert)),
            seconds: sol.cpu_seconds,
            ..crate::ip::evidence::evidence_of(&sys, def)
        };
        self.evidence(k, d, basis.cloned(), move |_| Ok(ip));
        Ok(true)
    }

    /// CBC's word on a round `who` called infeasible, when asked for (`--cbc`): CBC finding
    /// an army there is a disagreement, an error.
    fn second_opinion(
        &self,
        board: &Board,
        spec: &Spec,
        k: u64,
        d: Cell,
        who: &str,
    ) -> Result<Option<String>, Error> {
        if !self.req.second_opinion {
            return Ok(None);
        }
        let v = second::reprove(board, spec, self.remaining());
        if let Verdict::Feasible(_) = &v {
            return Err(Error::Disagreement(format!(
                "solvers disagree on {} level {}, {k} men, last jump {d:?}: {who} says infeasible, CBC {}",
                self.req.army,
                self.req.level,
                v.as_str()
            )));
        }
        Ok(Some(v.as_str()))
    }

    fn solve_direct(
        &self,
        board: &Board,
        spec: &Spec,
        d: Cell,
        k: u64,
    ) -> Result<solve::IpSolution, Error> {
        let mut opts = Options {
            time_limit: self.remaining(),
            progress: self.progress.clone(),
            label: format!(
                "{} level {}, round {k} men: last jump over {d:?}",
                self.req.army, self.req.level
            ),
            stop: None,
        };
        if let Some(base) = &self.req.write_model {
            let path = model_path(base, k, d);
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
            }
            solve::write_model(Model::named(board, spec), &path)?;
        }
        if let Some(b) = self.direct_budget(spec) {
            opts.time_limit = Some(opts.time_limit.map_or(b, |t| t.min(b)));
        }
        solve::solve(Model::build(board, spec), &opts)
    }

    /// Whether round k of the i-th last jump goes straight to its case split: when the
    /// direct IP of round k − 1 already ran out of its budget (round k is harder), or when a
    /// case log of round k is there to resume (a rerun does not pay the budget again).
    fn split_at_once(&self, i: usize, k: u64) -> bool {
        let d = self.dirs[i].d;
        let budget = self.req.direct_budget.is_some();
        let before = self.split.iter().any(|s| s.0 + 1 == k && s.1 == d);
        let log = Sweep::log_path(self.req.army, self.req.level, k, &[d], &self.case_dir);
        budget && (before || log.exists() || self.predicted_slow(d, k))
    }

    /// Whether the direct IP of round k is predicted to outrun its budget: from round k − 2
    /// to k − 1 its time grew by g = t(k−1)/t(k−2), and t(k−1)·g exceeds the budget
    /// (hexagonal level 7: 0.3 s at 142 men, 7 s at 143, so about 150 s predicted at 144,
    /// where the 30 s direct attempt always ran out). Only speed rests on this guess: a
    /// split round proves the same as a direct one.
    fn predicted_slow(&self, d: Cell, k: u64) -> bool {
        let t = |men: u64| {
            self.out
                .rounds
                .iter()
                .find(|r| r.men == men && r.last_jump == d && r.status == "infeasible")
                .map(|r| r.seconds)
        };
        match (
            self.req.direct_budget,
            k.checked_sub(1).and_then(t),
            k.checked_sub(2).and_then(t),
        ) {
            (Some(b), Some(last), Some(before)) if before > 0.0 => last * last / before > b,
            _ => false,
        }
    }

    /// The direct budget applies to the first solve of a round, not to re-solves after cuts.
    fn direct_budget(&self, spec: &Spec) -> Option<f64> {
        self.req.direct_budget.filter(|_| spec.excluded.is_empty())
    }

    fn budget_hit(&self, spec: &Spec, sol: &solve::IpSolution) -> bool {
        self.direct_budget(spec)
            .is_some_and(|b| self.remaining().is_none_or(|r| r > 1.0) && sol.seconds >= b - 1.0)
    }

    /// Orders and replays a solution; the fault injection of `refuse_orderings` first.
    fn play(&mut self, board: &Board, sol: &solve::IpSolution, d: Cell) -> bool {
        if self.out.unorderable < self.req.refuse_orderings {
            return false;
        }
        settle(&mut self.out, self.req, board, sol, d)
    }

    fn record(
        &mut self,
        k: u64,
        d: Cell,
        board: &Board,
        limit: &Limit,
        sol: &solve::IpSolution,
        cbc: Option<String>,
    ) {
        self.out.cells = board.cells.len();
        self.out.jumps = board.jumps.len();
        self.out.ips += 1;
        if self.req.verbose {
            let line = format!(
                "IP: {k} men, last jump over {d:?}, {} cells, {} jumps, board {}, {:?}, {:.2} s",
                board.cells.len(),
                board.jumps.len(),
                if limit.proven { "proven" } else { "not proven" },
                sol.status,
                sol.seconds
            );
            match &self.progress {
                Some(pb) => pb.println(line),
                None => eprintln!("{line}"),
            }
        }
        self.out.rounds.push(Round {
            men: k,
            last_jump: d,
            cells: board.cells.len(),
            jumps: board.jumps.len(),
            board_max_exponent: limit.max_exponent,
            board_proven: limit.proven,
            status: format!("{:?}", sol.status).to_lowercase(),
            seconds: sol.seconds,
            cbc,
        });
    }

    /// Round k of last jump d as an earlier run recorded it, when the record holds again
    /// ([`crate::search::record::Record::take`]): its evidence and report line are taken, no IP is
    /// solved.
    fn resumed(
        &mut self,
        k: u64,
        d: Cell,
        spec: &Spec,
        limit: &Limit,
        basis: Option<&BoardBasis>,
    ) -> bool {
        let def =
            crate::ip::evidence::direct_def(d, k, spec.min_men, limit.max_exponent, limit.max_loss);
        let Some(line) = basis.and_then(|b| self.record.take(k, d, &def, b)) else {
            return false;
        };
        if self.req.verbose {
            eprintln!(
                "IP: {k} men, last jump over {d:?}: infeasible, as recorded by an earlier run (certificate checked again)"
            );
        }
        self.out.rounds.push(line.round);
        self.pending.push(Pending::ready(line.proof));
        true
    }

    /// The proof's evidence for an infeasible direct round, made by `ip` (its certificate
    /// search, perhaps, within the seconds the search has left then) once the round turns
    /// out to have no army; only when the round's board has a basis, without which the
    /// proof is incomplete anyway.
    fn evidence(
        &mut self,
        k: u64,
        d: Cell,
        basis: Option<BoardBasis>,
        ip: impl FnOnce(Option<f64>) -> Result<IpProof, Error> + 'static,
    ) {
        let Some(board) = basis else {
            self.out.proof_complete = false;
            return;
        };
        let round = self.out.rounds.last().cloned();
        let proof = move |time_limit| {
            let evidence = Evidence::Direct {
                board,
                ip: ip(time_limit)?,
            };
            Ok(RoundProof {
                men: k,
                last_jump: d,
                evidence,
            })
        };
        self.pending.push(Pending {
            round: round.filter(|r| (r.men, r.last_jump) == (k, d)),
            proof: Box::new(proof),
        });
    }

    /// Round k has no army: its evidence goes into the proof, and the direct programs with
    /// an exact certificate into the record a resumed run reads. Deferred to here because a
    /// round with an army needs none (diagonal 8's 123 men: 18 s of trees on the infeasible
    /// last jump (0, 1), before (1, 1) found the army).
    pub(super) fn settle_round(&mut self) -> Result<(), Error> {
        for p in std::mem::take(&mut self.pending) {
            let proof = (p.proof)(self.remaining())?;
            let certified =
                matches!(&proof.evidence, Evidence::Direct { ip, .. } if ip.certificate.is_some());
            if let (true, Some(round)) = (certified, p.round) {
                let line = crate::search::record::Line {
                    round,
                    proof: proof.clone(),
                };
                self.record.add(line)?;
            }
            self.out.proof_rounds.push(proof);
        }
        Ok(())
    }
}
