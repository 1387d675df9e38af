//! The proof checker: re-verifies a [`Proof`] step by step and names the first step that
//! fails.
//!
//! It imports nothing of the search (board, cases, sweep, minimum, model, order, solve):
//! only the lattices ([`crate::problem::geometry`]), exact Z\[σ\] ([`crate::weight::golden`]), the rules of
//! play ([`crate::proof::verify`]); the weight of an impossible level's start region it
//! computes in closed form with its own argument ([`super::weigh`]), not the solver's window;
//! pagoda functions stated by weights (an LP's) it tests with [`super::lp`]. Everything else it recomputes: the improved pagoda functions and the
//! premises of the board argument ([`super::space`]), every board limit, the profiles of
//! every split round and every reduction ([`super::profiles`]), and every integer program
//! ([`super::ip`]), whose infeasibility it accepts from an exact certificate
//! ([`super::farkas`]) or, failing one, from HiGHS solving the checker's own system again
//! ([`super::resolve`]), counted apart. With [`Options::cbc`], CBC solves every infeasible
//! program's system too, certified or not: a CBC "feasible" fails the step (the solvers
//! disagree), and a CBC time-out is counted as no verdict, never as a confirmation.

pub use super::deferred::Record;
use super::deferred::{self, Call, Solver};
use super::farkas::{self, LinearSystem};
use super::format::*;
use super::ip;
use super::profiles;
use super::space::Space;
use crate::problem::Army;
use crate::problem::geometry::{Cell, apply};
use crate::weight::golden::Golden;
use std::collections::HashMap;
use std::time::Instant;

/// Nodes the checker's profile enumeration may visit per round.
const ENUMERATION_BUDGET: u64 = 50_000_000;

pub use super::summary::{CbcSummary, Summary};
pub use crate::error::CheckError;

#[derive(Clone, Default)]
pub struct Options {
    /// Refuse integer programs without an exact certificate instead of re-solving them.
    pub certificates_only: bool,
    /// Seconds HiGHS may spend on one integer program without a certificate, and CBC on
    /// any one program.
    pub time_limit: Option<f64>,
    /// Programs without a certificate re-solved at once, one HiGHS each (0: one per core).
    pub jobs: usize,
    /// Ask CBC too about every infeasible integer program (a build with `--features cbc`).
    pub cbc: bool,
    /// CBC's verdicts kept across runs: systems it already proved infeasible are not solved
    /// again ([`deferred::Record`]).
    pub cbc_record: Option<std::sync::Arc<Record>>,
    /// Run each CBC call in its own process of this executable (`solarmy cbc-system`), so
    /// that `jobs` CBC calls can run at once: libcbc is not thread-safe, and in one
    /// process its calls are serialised. None: in this process, one at a time.
    pub cbc_process: Option<std::path::PathBuf>,
    /// Show the solver calls' progress on stderr.
    pub progress: bool,
    /// The problem the reader asks about (`check --model FILE` or `--army NAME`): a proof
    /// about any other is refused ([`super::bind`]).
    pub expected: Option<crate::problem::file::Spec>,
}

struct Checker<'a> {
    proof: &'a Proof,
    opts: &'a Options,
    army: Army,
    step: usize,
    context: String,
    summary: Summary,
    /// Solver calls, made after the walk (in parallel), each with the step and context it
    /// fails under.
    deferred: Vec<Call>,
    /// Under a count's claim: every image of every listed army, each sorted.
    counted: Vec<Vec<Cell>>,
}

/// Checks a proof; Ok with a summary only if every step holds.
pub fn check(proof: &Proof, opts: &Options) -> Result<Summary, CheckError> {
    if let Claim::Board(claim) = &proof.claim {
        return super::peg::check(proof, claim, (opts.expected.as_ref(), opts.progress));
    }
    if let Claim::Moves(claim) = &proof.claim {
        if let Some(stated) = &claim.levels {
            return super::fewest::check(
                proof,
                claim,
                stated,
                (opts.expected.as_ref(), opts.progress),
            );
        }
        return super::moves::check(proof, claim, opts.expected.as_ref());
    }
    let t0 = Instant::now();
    let mut c = Checker {
        proof,
        opts,
        army: Army::conway(),
        step: 0,
        context: format!("{} {}", proof.army, proof.level),
        summary: Summary {
            army: proof.army.clone(),
            level: proof.level,
            cbc: opts.cbc.then(CbcSummary::default),
            ..Summary::default()
        },
        deferred: Vec::new(),
        counted: Vec::new(),
    };
    c.run()?;
    c.resolve_deferred()?;
    c.summary.steps = c.step;
    c.summary.seconds = t0.elapsed().as_secs_f64();
    Ok(c.summary)
}

impl Checker<'_> {
    /// A new step: fails with `message` unless `ok`.
    fn expect(&mut self, ok: bool, message: impl FnOnce() -> String) -> Result<(), CheckError> {
        self.step += 1;
        if ok {
            return Ok(());
        }
        Err(self.fail(message()))
    }

    fn fail(&self, message: String) -> CheckError {
        CheckError {
            step: self.step,
            context: self.context.clone(),
            message,
        }
    }

    fn run(&mut self) -> Result<(), CheckError> {
        let p = self.proof;
        self.expect(p.format == FORMAT, || {
            format!("format '{}', expected '{FORMAT}'", p.format)
        })?;
        let army = match &p.model {
            Some(text) => Army::parse(text).and_then(|a| {
                (a.name() == p.army)
                    .then_some(a)
                    .ok_or_else(|| format!("the model is named '{}', not '{}'", a.name(), p.army))
            }),
            None => p.army.parse::<Army>(),
        };
        self.expect(army.is_ok() && p.level >= 1, || match &army {
            Err(e) => format!("no such problem: {e}"),
            Ok(_) => format!("no such level: {}", p.level),
        })?;
        self.army = army.unwrap();
        let bound = super::bind::bind(
            &self.army.problem().spec,
            None,
            p.fingerprint.as_deref(),
            self.opts.expected.as_ref(),
        );
        self.expect(bound.is_ok(), || {
            format!("not the problem claimed: {}", bound.clone().unwrap_err())
        })?;
        let bound = bound.unwrap();
        self.summary.fingerprint = bound.fingerprint;
        self.summary.fingerprint_recorded = bound.recorded;
        match p.claim {
            Claim::Impossible { weight, counted_at } => self.impossible(weight, counted_at),
            Claim::Unreachable { ref last_jumps } => self.unreachable(last_jumps),
            Claim::PagodaLp { ref functions } => self.pagoda_lp(functions),
            Claim::Minimum { men } => self.minimum(men),
            Claim::Count {
                men,
                ref armies,
                up_to_symmetry,
                total,
            } => self.count(men, armies, (up_to_symmetry, total)),
            Claim::Board(_) => Err(self.fail("a board claim is checked by proof::peg".into())),
            Claim::Moves(_) => Err(self.fail("a moves claim is checked by proof::moves".into())),
        }
    }

    /// The start region at level `at` <= the claimed level holds the region of every level
    /// above it (rows y >= n, or the outside of a growing desert), so its weight bounds theirs.
    fn impossible(&mut self, weight: Golden, counted_at: Option<i32>) -> Result<(), CheckError> {
        self.summary.claim = "impossible".into();
        let level = self.proof.level;
        let at = counted_at.unwrap_or(level);
        self.expect((1..=level).contains(&at), || {
            format!("the weight is counted at level {at}: not between 1 and {level}")
        })?;
        // The checker's own closed form (super::weigh), not the solver's window.
        let total = super::weigh::start_weight(&self.army.lattice(), at, Cell::ORIGIN, 0);
        self.expect(total.is_ok(), || total.clone().unwrap_err())?;
        let total = total.unwrap();
        self.expect(total == weight && total <= Golden::ONE, || {
            format!("start rows weigh {total}, stated {weight}; impossible needs <= 1")
        })
    }

    /// Every last jump of the split, with the improved function of d a pagoda function on
    /// the window (the premises) and the whole start region weighing at most 1 under it
    /// (its weight in the checker's own closed form, [`super::weigh`]).
    fn unreachable(&mut self, last_jumps: &[(Cell, Golden)]) -> Result<(), CheckError> {
        self.summary.claim = "impossible".into();
        self.symmetries()?;
        let lattice = self.army.lattice();
        let level = self.proof.level;
        for d in lattice.last_jump_directions() {
            self.context = format!("{} {level}, d={d:?}", self.proof.army);
            let stated = last_jumps.iter().find(|(e, _)| *e == d).map(|&(_, w)| w);
            self.expect(stated.is_some(), || "this last jump is missing".into())?;
            let space = Space::new(self.army, level, d, 40);
            let premises = space.premises(space.exact_to());
            self.expect(premises.is_ok(), || premises.clone().unwrap_err())?;
            let total = super::weigh::start_weight(&lattice, level, d, 1);
            self.expect(total.is_ok(), || total.clone().unwrap_err())?;
            let total = total.unwrap();
            self.expect(Some(total) == stated && total <= Golden::ONE, || {
                format!("start cells weigh {total}, stated {stated:?}; impossible needs <= 1")
            })?;
        }
        Ok(())
    }

    /// One function normalised on the target, or one per last jump of the split (the
    /// symmetries checked), each a pagoda function under which the start region weighs less
    /// than the test position ([`super::lp`]).
    fn pagoda_lp(&mut self, functions: &[LpFunction]) -> Result<(), CheckError> {
        self.summary.claim = "impossible".into();
        let lattice = self.army.lattice();
        if let Some(f) = functions.iter().find(|f| f.normalised.is_none()) {
            self.context = format!(
                "{} {}, LP function on the target",
                self.proof.army, self.proof.level
            );
            return self.lp_function(&lattice, f);
        }
        self.symmetries()?;
        for d in lattice.last_jump_directions() {
            self.context = format!(
                "{} {}, LP function of d={d:?}",
                self.proof.army, self.proof.level
            );
            let f = functions.iter().find(|f| f.normalised == Some(d));
            self.expect(f.is_some(), || "no function for this last jump".into())?;
            self.lp_function(&lattice, f.unwrap())?;
        }
        Ok(())
    }

    fn lp_function(
        &mut self,
        lattice: &crate::problem::geometry::Lattice,
        f: &LpFunction,
    ) -> Result<(), CheckError> {
        let weighed = super::lp::weigh(lattice, self.proof.level, f);
        self.expect(weighed.is_ok(), || weighed.clone().unwrap_err())?;
        let w = weighed.unwrap();
        let below = w.rules_out();
        self.expect(below.is_ok(), || below.clone().unwrap_err())?;
        self.expect(below == Ok(true), || {
            format!(
                "the start region weighs up to {} ≈ {:.6}, not below the test position's {} ≈ {:.6}",
                w.start,
                w.start.to_f64(),
                w.goal,
                w.goal.to_f64()
            )
        })
    }

    fn minimum(&mut self, men: u64) -> Result<(), CheckError> {
        self.minimum_spaces(men).map(|_| ())
    }

    /// The minimum's steps; Ok with the space of each last jump of the split (its premises
    /// checked), for a count's rounds of K men.
    fn minimum_spaces(&mut self, men: u64) -> Result<Vec<Space>, CheckError> {
        self.summary.claim = format!("minimum {men}");
        self.play(men)?;
        self.symmetries()?;
        let lattice = self.army.lattice();
        let need = window(self.proof);
        let mut dirs = Vec::new();
        for d in lattice.last_jump_directions() {
            let space = Space::new(self.army, self.proof.level, d, need);
            self.context = format!("{} {}, d={d:?}", self.proof.army, self.proof.level);
            let premises = space.premises(space.exact_to());
            self.expect(premises.is_ok(), || premises.clone().unwrap_err())?;
            dirs.push(space);
        }
        // Every smaller army: ruled out by its weight, or by the evidence of its round.
        for k in 1..men {
            for space in &dirs {
                self.context = format!(
                    "{} {}, {k} men, d={:?}",
                    self.proof.army, self.proof.level, space.d
                );
                self.round(space, k)?;
            }
        }
        Ok(dirs)
    }

    fn play(&mut self, men: u64) -> Result<(), CheckError> {
        self.context = format!("{} {}, play", self.proof.army, self.proof.level);
        let Some(play) = &self.proof.play else {
            return Err(self.fail("a minimum needs a play".into()));
        };
        let steps: Vec<crate::proof::verify::Step> = play
            .jumps
            .iter()
            .map(|&(from, over, to)| crate::proof::verify::Step { from, over, to })
            .collect();
        let r = crate::proof::verify::replay(
            &self.army.lattice(),
            self.proof.level,
            &play.army,
            &steps,
        );
        self.expect(r.is_ok(), || r.as_ref().unwrap_err().to_string())?;
        self.expect(play.army.len() as u64 == men, || {
            format!("the play has {} men, the claim {men}", play.army.len())
        })
    }

    /// The last-jump split takes one d of each class under the problem's symmetries: each
    /// symmetry must map the jump directions, the cells and the start region at this level
    /// onto themselves (checked on a window around the target, where the regions, being
    /// lattices, cones, half-planes or norm balls, are decided), and every last jump must be
    /// the image of one the split takes.
    fn symmetries(&mut self) -> Result<(), CheckError> {
        let l = self.army.lattice();
        let level = self.proof.level;
        let window: Vec<Cell> = l.window(30).collect();
        let bad = l.symmetries.iter().find(|s| {
            let image = |c: Cell| apply(s, c);
            let dirs_ok = l
                .directions
                .iter()
                .all(|&d| l.directions.contains(&image(d)));
            let cells_ok = window.iter().all(|&c| {
                l.contains(c) == l.contains(image(c))
                    && l.in_start(c, level) == l.in_start(image(c), level)
            });
            !(dirs_ok && cells_ok)
        });
        self.expect(bad.is_none(), || {
            format!(
                "the map {:?} is not a symmetry of the problem",
                bad.unwrap()
            )
        })?;
        let last = l.last_jump_directions();
        let covered = l.directions.iter().all(|&d| {
            !(l.contains(d) && l.contains(2 * d))
                || l.symmetries.iter().any(|s| last.contains(&apply(s, d)))
        });
        self.expect(covered, || {
            "a last jump is not the image of one the split takes".into()
        })
    }

    fn round(&mut self, space: &Space, k: u64) -> Result<(), CheckError> {
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
                        && def.cuts.is_empty()
                        && def.classes.as_deref() == Some(case.profile.as_slice()),
                    || "the program is not this case's".into(),
                )?;
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
    fn resolve_deferred(&mut self) -> Result<(), CheckError> {
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
    fn count(
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
            let steps: Vec<crate::proof::verify::Step> = a
                .jumps
                .iter()
                .map(|&(from, over, to)| crate::proof::verify::Step { from, over, to })
                .collect();
            let r = crate::proof::verify::replay(&lattice, self.proof.level, &a.army, &steps);
            self.expect(r.is_ok(), || r.as_ref().unwrap_err().to_string())?;
            self.expect(a.army.len() as u64 == men, || {
                format!("the army has {} men, the claim {men}", a.army.len())
            })?;
            let images = images(&lattice, &a.army);
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

/// The distinct images of a start set under the problem's symmetries, each sorted.
fn images(lattice: &crate::problem::geometry::Lattice, cells: &[Cell]) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = lattice
        .symmetries
        .iter()
        .map(|s| {
            let mut v: Vec<Cell> = cells.iter().map(|&c| apply(s, c)).collect();
            v.sort();
            v
        })
        .collect();
    out.sort();
    out.dedup();
    out
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

/// The pagoda window the checker builds a proof's spaces on: wide enough for every board of
/// the proof, and at least 40 exponents.
pub(super) fn window(proof: &Proof) -> i32 {
    let widest = (proof.rounds.iter())
        .map(|r| board_exponent(&r.evidence))
        .max();
    8 + widest.unwrap_or(0).max(40)
}

/// A case's profile as the proof names it, "exponent:men,…".
pub(super) fn key(profile: &[(i32, u64)]) -> String {
    let parts: Vec<String> = profile.iter().map(|(e, n)| format!("{e}:{n}")).collect();
    parts.join(",")
}

fn board_exponent(e: &Evidence) -> i32 {
    match e {
        Evidence::Weight { .. } => 0,
        Evidence::Direct { ip, .. } => ip.def.max_exponent,
        Evidence::Cases { cases } => cases
            .iter()
            .filter_map(|c| match &c.outcome {
                CaseOutcome::Ip { ip, .. } => Some(ip.def.max_exponent),
                CaseOutcome::RuledOut(_) => c.profile.last().map(|p| p.0),
            })
            .max()
            .unwrap_or(0),
    }
}
