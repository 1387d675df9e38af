//! The checker's rounds: each round of K men ruled out, by weight, by a direct integer program
//! or by its exponent-profile cases; each infeasible program accepted from its exact
//! certificate or deferred to a solver's re-solve; and a count's rounds with their cuts on the
//! listed armies' images. A second floor of [`super::check`]'s walk, kept apart so that the
//! claim-level steps (impossible, minimum, play, symmetries) read on their own.

use super::check::{Checker, ENUMERATION_BUDGET};
use super::deferred::{self, Call, Solver};
use super::farkas::{self, LinearSystem};
use super::format::*;
use super::ip;
use super::profiles;
use super::space::Space;
use crate::error::CheckError;
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use std::collections::HashMap;

impl Checker<'_> {
    pub(super) fn round(&mut self, space: &Space, k: u64) -> Result<(), CheckError> {
        let d = space.d;
        let found = self
            .proof
            .rounds
            .iter()
            .find(|r| r.men == k && r.last_jump == d);
        let w = heaviest_weight(space, k).map_err(|e| self.fail(e))?;
        if w < Golden::ONE {
            // The weight alone rules the round out; a stated weight must be right.
            if let Some(RoundProof {
                evidence: Evidence::Weight { heaviest },
                ..
            }) = found
            {
                self.expect(w == *heaviest, || {
                    format!("heaviest army stated {heaviest}, computed {w}")
                })?;
            }
            return Ok(());
        }
        let Some(round) = found else {
            self.step += 1;
            return Err(self.fail("no evidence for this round".into()));
        };
        self.summary.rounds += 1;
        match &round.evidence {
            Evidence::Weight { heaviest } => {
                self.step += 1;
                Err(self.fail(format!(
                    "weight {heaviest} claimed, but {k} men can weigh {w} >= 1"
                )))
            }
            Evidence::Direct { board, ip } => self.direct(space, k, board, ip),
            Evidence::Cases { cases } => self.cases(space, k, cases),
        }
    }

    fn direct(
        &mut self,
        space: &Space,
        k: u64,
        basis: &BoardBasis,
        ip: &IpProof,
    ) -> Result<(), CheckError> {
        let (need_exp, need_loss) = self.board_need(space, k, basis)?;
        let def = &ip.def;
        self.expect(def.last_jump == space.d && def.max_men == k, || {
            format!(
                "the program is for {} men, d={:?}",
                def.max_men, def.last_jump
            )
        })?;
        self.expect(def.min_men.is_none_or(|m| m <= k), || {
            format!("at least {:?} men asked, more than {k}", def.min_men)
        })?;
        self.expect(def.classes.is_none() && def.lossy_cap.is_none(), || {
            "a direct program may not fix classes or cap lossy jumps".into()
        })?;
        self.cuts(k, &def.cuts)?;
        self.expect(def.max_exponent >= need_exp, || {
            format!(
                "board limit stated {}, computed {need_exp}",
                def.max_exponent
            )
        })?;
        self.expect(def.max_loss >= need_loss, || {
            format!(
                "largest jump loss stated {}, computed {}",
                def.max_loss.sigma_string(),
                need_loss.sigma_string()
            )
        })?;
        self.infeasible(space, ip)
    }

    /// The board a direct round needs: (largest exponent, largest jump loss).
    fn board_need(
        &mut self,
        space: &Space,
        k: u64,
        basis: &BoardBasis,
    ) -> Result<(i32, Golden), CheckError> {
        let (last, heaviest) = space.heaviest(k).map_err(|e| self.fail(e))?;
        let (_, rest) = space.heaviest(k - 1).map_err(|e| self.fail(e))?;
        let max_slack = heaviest - Golden::ONE;
        if rest < Golden::ONE {
            // Step 1: the farthest man E has σ^E >= 1 − W(k − 1); step 2 from each E.
            let (mut need, mut e) = (last, last);
            while Golden::pow(e) >= Golden::ONE - rest {
                let slack = (rest + Golden::pow(e) - Golden::ONE).min(max_slack);
                need = need.max(profiles::reach(&[(e, 1)], slack));
                e += 1;
            }
            if let BoardBasis::Weight { rest: r, .. } = basis {
                self.expect(*r == rest, || format!("W(k−1) stated {r}, computed {rest}"))?;
            }
            return Ok((need, max_slack));
        }
        self.expect(matches!(basis, BoardBasis::Cases { .. }), || {
            format!(
                "the heaviest {} men weigh {rest} >= 1: step 1 bounds nothing",
                k - 1
            )
        })?;
        let all = profiles::enumerate(space, k, ENUMERATION_BUDGET).map_err(|e| self.fail(e))?;
        let (mut need, mut loss) = (last, Golden::ZERO);
        for p in &all {
            let slack = slack_of(p);
            if profiles::reduction(p, slack).is_none() {
                need = need.max(profiles::reach(p, slack));
                loss = loss.max(slack);
            }
        }
        Ok((need, loss))
    }

    fn cases(&mut self, space: &Space, k: u64, cases: &[CaseProof]) -> Result<(), CheckError> {
        let all = profiles::enumerate(space, k, ENUMERATION_BUDGET).map_err(|e| self.fail(e))?;
        let listed: HashMap<&[(i32, u64)], &CaseProof> =
            cases.iter().map(|c| (c.profile.as_slice(), c)).collect();
        let base = self.context.clone();
        for p in &all {
            self.context = format!("{base}, case {}", key(p));
            let Some(case) = listed.get(p.as_slice()) else {
                self.step += 1;
                return Err(self.fail("this profile is missing from the case list".into()));
            };
            self.case(space, k, case)?;
            self.summary.cases += 1;
        }
        self.context = base;
        Ok(())
    }

    fn case(&mut self, space: &Space, k: u64, case: &CaseProof) -> Result<(), CheckError> {
        let slack = slack_of(&case.profile);
        self.expect(slack == case.slack, || {
            format!(
                "slack stated {}, computed {}",
                case.slack.sigma_string(),
                slack.sigma_string()
            )
        })?;
        match &case.outcome {
            CaseOutcome::RuledOut(r) => self
                .expect(profiles::holds(r, &case.profile, slack), || {
                    format!("the reduction {r:?} does not hold")
                }),
            CaseOutcome::Ip { ip, .. } => {
                let def = &ip.def;
                let reach = profiles::reach(&case.profile, slack);
                self.expect(
                    def.last_jump == space.d
                        && def.max_men == k
                        && def.classes.as_deref() == Some(case.profile.as_slice()),
                    || "the program is not this case's".into(),
                )?;
                // A count's case cuts off the listed armies of its profile.
                self.cuts(k, &def.cuts)?;
                self.expect(def.max_exponent >= reach, || {
                    format!("board limit stated {}, computed {reach}", def.max_exponent)
                })?;
                self.expect(def.max_loss >= slack, || {
                    format!(
                        "largest jump loss stated below the slack {}",
                        slack.sigma_string()
                    )
                })?;
                let board = ip::Board::new(space, def).map_err(|e| self.fail(e))?;
                let cap = ip::lossy_cap(&board, slack);
                self.expect(
                    def.lossy_cap.is_none_or(|c| cap.is_some_and(|n| c >= n)),
                    || {
                        format!(
                            "lossy jumps capped at {:?}, the slack allows {cap:?}",
                            def.lossy_cap
                        )
                    },
                )?;
                self.infeasible(space, ip)
            }
        }
    }

    /// The program of `ip` has no integer solution: by its certificate, or by HiGHS (the
    /// whole program, or failing a verdict in time the leaves its tree leaves to the
    /// solvers); and, when asked, by CBC too (on those leaves, or the whole program without
    /// a tree). Solver calls are queued and made after the walk ([`deferred`]).
    fn infeasible(&mut self, space: &Space, ip: &IpProof) -> Result<(), CheckError> {
        let sys = ip::build(space, &ip.def).map_err(|e| self.fail(e))?;
        self.expect(
            sys.rows.len() == ip.rows && sys.cols.len() == ip.cols,
            || {
                format!(
                    "the program has {} rows and {} columns, stated {} and {}",
                    sys.rows.len(),
                    sys.cols.len(),
                    ip.rows,
                    ip.cols
                )
            },
        )?;
        self.summary.ips += 1;
        let left = match &ip.certificate {
            Some(tree) => {
                let r = farkas::check_tree_leaving(&sys, tree);
                self.expect(r.is_ok(), || {
                    format!("certificate: {}", r.as_ref().unwrap_err())
                })?;
                r.unwrap()
            }
            None => vec![sys.clone()],
        };
        let program = self.summary.ips;
        if left.is_empty() {
            self.summary.certified += 1;
            if self.opts.cbc {
                self.defer(Solver::Cbc, vec![sys], program, ip.seconds);
            }
            return Ok(());
        }
        self.expect(!self.opts.certificates_only, || {
            "no exact certificate, and solvers were not allowed".into()
        })?;
        self.summary.solver_only += 1;
        // HiGHS gets the whole program (its boxes only as a fallback, see Call::leaves),
        // CBC the boxes: the split exists to give CBC smaller programs.
        let leaves = if ip.certificate.is_some() {
            left.clone()
        } else {
            Vec::new()
        };
        if self.opts.cbc {
            self.defer(Solver::Cbc, left, program, ip.seconds);
        }
        self.step += 1;
        self.deferred.push(Call {
            step: self.step,
            context: self.context.clone(),
            sys,
            solver: Solver::Highs,
            program,
            priority: ip.seconds,
            leaves,
        });
        Ok(())
    }

    /// Queues `systems` (one program's, the whole or its leaves) for a solver, under a new
    /// step; `seconds`, the search's time on the program, orders the work.
    fn defer(&mut self, solver: Solver, systems: Vec<LinearSystem>, program: usize, seconds: f64) {
        self.step += 1;
        let n = systems.len();
        for (i, sys) in systems.into_iter().enumerate() {
            let context = match n {
                1 => self.context.clone(),
                _ => format!("{}, solver leaf {} of {n}", self.context, i + 1),
            };
            self.deferred.push(Call {
                step: self.step,
                context,
                sys,
                solver,
                program,
                priority: seconds / n as f64,
                leaves: Vec::new(),
            });
        }
    }

    /// Makes the queued solver calls; fails with the first failing one, by step.
    pub(super) fn resolve_deferred(&mut self) -> Result<(), CheckError> {
        let record = self.opts.cbc_record.as_deref();
        let how = deferred::How {
            jobs: self.opts.jobs,
            time_limit: self.opts.time_limit,
            record,
            cbc_process: self.opts.cbc_process.as_deref(),
            progress: self.opts.progress,
        };
        let cbc = deferred::solve(&self.deferred, &how).map_err(|(step, context, message)| {
            CheckError {
                step,
                context,
                message,
            }
        })?;
        if self.opts.cbc {
            self.summary.cbc = Some(cbc.unwrap_or_default());
        }
        Ok(())
    }
}

/// A count's claim and its rounds of K men; the armies' men are below in the file.
impl Checker<'_> {
    /// A count: the minimum (K − 1 men ruled out, the proof's play), every listed army
    /// played and distinct from the others under the symmetries, the stated numbers, then
    /// for every last jump the round of K men with cuts on the listed armies' images only.
    pub(super) fn count(
        &mut self,
        men: u64,
        armies: &[Play],
        (up_to_symmetry, total): (usize, usize),
    ) -> Result<(), CheckError> {
        let spaces = self.minimum_spaces(men)?;
        self.summary.claim = format!("count {up_to_symmetry} / {total} of {men} men");
        let lattice = self.army.lattice();
        let mut seen: Vec<Vec<Cell>> = Vec::new();
        let mut images_total = 0;
        for (i, a) in armies.iter().enumerate() {
            self.context = format!("{} {}, army {}", self.proof.army, self.proof.level, i + 1);
            let steps = super::moves::steps_of(a);
            let r = crate::proof::verify::replay(&lattice, self.proof.level, &a.army, &steps);
            self.expect(r.is_ok(), || r.as_ref().unwrap_err().to_string())?;
            self.expect(a.army.len() as u64 == men, || {
                format!("the army has {} men, the claim {men}", a.army.len())
            })?;
            let images = lattice.images(&a.army);
            self.expect(!images.iter().any(|im| seen.contains(im)), || {
                "this army is an image of one listed before it".into()
            })?;
            images_total += images.len();
            seen.extend(images);
        }
        self.expect(
            armies.len() == up_to_symmetry && images_total == total,
            || {
                format!(
                    "{} armies, {images_total} images; stated {up_to_symmetry} and {total}",
                    armies.len()
                )
            },
        )?;
        self.counted = seen;
        for space in &spaces {
            self.context = format!(
                "{} {}, {men} men, d={:?}",
                self.proof.army, self.proof.level, space.d
            );
            self.round(space, men)?;
        }
        Ok(())
    }

    /// Cuts are allowed only in a count's round of K men, each on an image of a listed army.
    fn cuts(&mut self, k: u64, cuts: &[Vec<Cell>]) -> Result<(), CheckError> {
        if cuts.is_empty() {
            return Ok(());
        }
        let counting = matches!(self.proof.claim, Claim::Count { men, .. } if men == k);
        self.expect(counting, || {
            "only a count's program of K men may carry cuts".into()
        })?;
        let bad = cuts.iter().find(|c| {
            let mut c = c.to_vec();
            c.sort();
            !self.counted.contains(&c)
        });
        self.expect(bad.is_none(), || {
            format!(
                "the cut {:?} is not an image of a listed army",
                bad.unwrap()
            )
        })
    }
}

fn slack_of(profile: &[(i32, u64)]) -> Golden {
    profile
        .iter()
        .map(|&(e, n)| n as i128 * Golden::pow(e))
        .sum::<Golden>()
        - Golden::ONE
}

/// The weight the heaviest army of k men brings to the round: the sharpened function's where
/// the plain one reaches 1 (the round is ruled out by weight when it is below 1).
pub(super) fn heaviest_weight(space: &Space, k: u64) -> Result<Golden, String> {
    let plain = space.heaviest(k)?.1;
    let sharp = space.heaviest_sharp(k)?;
    Ok(sharp.filter(|_| plain >= Golden::ONE).unwrap_or(plain))
}

/// A case's profile as the proof names it, "exponent:men,…".
pub(super) fn key(profile: &[(i32, u64)]) -> String {
    let parts: Vec<String> = profile.iter().map(|(e, n)| format!("{e}:{n}")).collect();
    parts.join(",")
}
