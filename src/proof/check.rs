//! The proof checker: re-verifies a [`Proof`] step by step and names the first step that
//! fails. The rounds of K men, their programs and a count's cuts are walked in [`super::rounds`].
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

use super::deferred::Call;
pub use super::deferred::Record;
use super::format::*;
use super::space::Space;
use crate::problem::Army;
use crate::problem::fingerprint::Ends;
use crate::problem::geometry::{Cell, apply};
use crate::weight::golden::Golden;
use std::time::Instant;

/// Nodes the checker's profile enumeration may visit per round.
pub(super) const ENUMERATION_BUDGET: u64 = 50_000_000;

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
    /// Where a board claim's pruned exhaustion keeps its levels (`check --work DIR`), for
    /// searches too large for memory ([`super::outcore`]); None: in memory.
    pub work: Option<super::outcore::Work>,
}

pub(super) struct Checker<'a> {
    pub(super) proof: &'a Proof,
    pub(super) opts: &'a Options,
    pub(super) army: Army,
    pub(super) step: usize,
    pub(super) context: String,
    pub(super) summary: Summary,
    /// Solver calls, made after the walk (in parallel), each with the step and context it
    /// fails under.
    pub(super) deferred: Vec<Call>,
    /// Under a count's claim: every image of every listed army, each sorted.
    pub(super) counted: Vec<Vec<Cell>>,
}

/// Checks a proof; Ok with a summary only if every step holds.
pub fn check(proof: &Proof, opts: &Options) -> Result<Summary, CheckError> {
    let how = (opts.expected.as_ref(), opts.progress, opts.work.as_ref());
    match &proof.claim {
        Claim::Board(b) => {
            return super::peg::check(proof, Ends::Holes(b.vacancy, b.finish), &b.verdict, how);
        }
        Claim::Pattern(p) => {
            return super::peg::check(proof, Ends::Patterns(&p.start, &p.finish), &p.verdict, how);
        }
        _ => {}
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
    pub(super) fn expect(
        &mut self,
        ok: bool,
        message: impl FnOnce() -> String,
    ) -> Result<(), CheckError> {
        self.step += 1;
        if ok {
            return Ok(());
        }
        Err(self.fail(message()))
    }

    pub(super) fn fail(&self, message: String) -> CheckError {
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
            Ends::Model,
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
            Claim::AtLeast { men } => self.at_least(men),
            Claim::Count {
                men,
                ref armies,
                up_to_symmetry,
                total,
            } => self.count(men, armies, (up_to_symmetry, total)),
            Claim::Board(_) | Claim::Pattern(_) => {
                Err(self.fail("a board claim is checked by proof::peg".into()))
            }
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

    /// A bound: the best army's play replayed when the proof carries one, then every round
    /// below `men` ruled out, as under a minimum.
    fn at_least(&mut self, men: u64) -> Result<(), CheckError> {
        let best = self.proof.play.as_ref().map(|p| p.army.len() as u64);
        if let Some(b) = best {
            self.play(b)?;
            self.expect(b >= men, || {
                format!("the play's army of {b} men is below the bound claimed, {men}")
            })?;
        }
        self.rounds_below(men)?;
        self.summary.claim = match best {
            Some(b) => format!("at least {men} (best army {b})"),
            None => format!("at least {men}"),
        };
        Ok(())
    }

    /// The minimum's steps; Ok with the space of each last jump of the split (its premises
    /// checked), for a count's rounds of K men.
    pub(super) fn minimum_spaces(&mut self, men: u64) -> Result<Vec<Space>, CheckError> {
        self.summary.claim = format!("minimum {men}");
        self.play(men)?;
        self.rounds_below(men)
    }

    /// The split's symmetries, each last jump's space (its premises checked), and every
    /// round of fewer than `men` men ruled out; Ok with the spaces.
    fn rounds_below(&mut self, men: u64) -> Result<Vec<Space>, CheckError> {
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
        let steps = super::moves::steps_of(play);
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
}

/// the proof, and at least 40 exponents.
pub(super) fn window(proof: &Proof) -> i32 {
    let widest = (proof.rounds.iter())
        .map(|r| board_exponent(&r.evidence))
        .max();
    8 + widest.unwrap_or(0).max(40)
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
