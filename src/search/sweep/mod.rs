//! Solving a case split: one IP per case that no reduction rules out.
//!
//! Each case fixes the men per exponent class, hence the army's exact slack S, and so:
//! - the board: the case's largest start exponent E and S bound how far real play can go
//!   (`board` module doc, step 2: a man at exponent M > E needs g(M) − σ^M <= S);
//! - the jumps: none losing more than S; with S = 0 only lossless ones;
//! - the number of lossy jumps: by the weight identity Σ loss_n J_n = S (exact for every IP
//!   solution, notes §1), at most ⌊S / λ⌋ jumps lose anything, λ the smallest positive loss
//!   on the board; where S allows a single lossy jump this is the paper's "exactly one jump
//!   loses σ^j", derived rather than assumed;
//! - the finish {d, 2d}, which breaks the mirror symmetry.
//!
//! Cases are solved on `jobs` threads, each HiGHS instance single-threaded. Results go to a
//! case log (JSON lines: a stamp, then one line per case settled, written by one thread) so
//! that a sweep stopped by a time limit or Ctrl-C resumes where it stopped; the log is a
//! cache, and a resumed result counts only once it is verified again (`Sweep::resume`).
//! The same holds for results solved elsewhere, one case per job ([`crate::cli::jobs`]): they
//! are handed in as a seed and checked exactly as a resumed log line is.
//!
//! This module holds the sweep's cases (one [`Family`] per last jump, enumerated and
//! ordered) and what a sweep reports; solving one case is [`case`], the workers that solve
//! them all and certify the infeasible ones are [`run`], the case log that a rerun resumes
//! is [`log`], a hard case split on the fly into boxes is [`split`], and a count's case,
//! solved until every army of it is cut off, is [`count`].

use crate::error::Error;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::format::{CaseProof, IpProof};
use crate::proof::verify::Step;
use crate::reduce::board::{Limit, MARGIN};
use crate::reduce::cases::{self, Case};
use crate::search::outcome::Outcome;
use crate::weight::golden::Golden;
use crate::weight::pagoda::{Pagoda, Profile};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod case;
mod count;
mod log;
mod run;
mod split;
pub use count::COUNT_ORDER_BUDGET;
pub use split::{SPLIT_AFTER, SPLIT_MIN_JOBS};

/// A case's log line and, when it has one, its army.
type Solved = Result<(CaseResult, Option<Outcome>), Error>;

/// What solving a case gave: its log line (and army), or the case split into boxes.
#[allow(clippy::large_enum_variant)] // one per case solved: its size does not matter
enum Attempt {
    Done(CaseResult, Option<Outcome>),
    Split(Box<split::Pending>),
}

/// The cases of one last jump d.
#[derive(Clone, Debug, Serialize)]
pub struct Family {
    pub last_jump: Cell,
    /// Largest start exponent enumerated.
    pub max_exponent: i32,
    /// Whether every K-man army of this d has its men within `max_exponent`.
    pub complete: bool,
    pub cases: Vec<Case>,
    #[serde(skip)]
    pagoda: Option<Pagoda>,
    #[serde(skip)]
    profile: Option<Profile>,
}

pub struct Sweep {
    pub army: Army,
    pub level: i32,
    pub men: u64,
    pub families: Vec<Family>,
    /// How far the enumeration's cuts were widened (stability check).
    pub extra: i32,
    /// Re-prove every infeasible case with CBC ([`crate::ip::second`]).
    pub second_opinion: bool,
    /// Cases solved at once, each on its own thread.
    pub jobs: usize,
    /// One line on stderr per case solved, as it is solved.
    pub verbose: bool,
    /// Results solved elsewhere (job files), taken like resumed log lines: only once
    /// verified again.
    pub seed: Vec<CaseResult>,
    /// Whether cases without a result are solved here; when false (a merge of jobs) they
    /// stay open.
    pub solve_open: bool,
    /// Seconds HiGHS may spend on a whole case that can be split before it is split on the
    /// fly (`split`); None: never split.
    pub split_after: Option<f64>,
    /// Seconds each program may take at most (a case's, a box's of a case split on the fly,
    /// a certificate's), beside the sweep's deadline (`cases --case-time-limit`); None: only
    /// the deadline bounds them.
    pub case_time_limit: Option<f64>,
    /// A count's sweep ([`count`]): a case's armies are cut off one by one until its
    /// program is infeasible, instead of the first army ending the round.
    pub count: bool,
    /// Set once a worker found an army (or failed): the other workers' HiGHS runs stop,
    /// and their cases count as not attempted (the round has its answer).
    stop: Arc<AtomicBool>,
}

/// One line of the case log.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseResult {
    pub last_jump: Cell,
    pub case: String,
    pub slack: String,
    /// ruled_out, infeasible, feasible, unorderable, time_limit, interrupted
    pub status: String,
    pub reason: Option<String>,
    pub cells: usize,
    pub jumps: usize,
    pub seconds: f64,
    #[serde(default)]
    pub board_proven: bool,
    /// CBC's verdict on an infeasible case, when a second opinion was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cbc: Option<String>,
    /// An infeasible case's program, verdicts and certificate, as the proof states them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip: Option<IpProof>,
    /// A feasible case's army and play, replayed again before a resumed run counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<Vec<Cell>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Vec<Step>>,
    /// In a count's sweep, every army the case's program admitted, in the order found, with
    /// its verified play (None: no play found); each is cut off in `ip`'s program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counted: Vec<(Vec<Cell>, Option<Vec<Step>>)>,
}

/// What wrote a case log. A log is reused only when its stamp equals the current one: the
/// same program, problem, round, last jumps and enumeration limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    program: String,
    army: String,
    level: i32,
    men: u64,
    last_jumps: Vec<Cell>,
    extra: i32,
    budget: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    count: bool,
}

/// The first line of a case log.
#[derive(Serialize, Deserialize)]
struct Header {
    stamp: Stamp,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub army: Army,
    pub level: i32,
    pub men: u64,
    /// Every case settled (ruled out, infeasible, or an army found).
    pub complete: bool,
    /// Whether the enumeration covers every army of `men` men (no exponent cap cut it).
    pub enumeration_complete: bool,
    pub results: Vec<CaseResult>,
    /// A verified army of `men` men, if a case had one.
    #[serde(skip)]
    pub found: Option<Outcome>,
    pub log: PathBuf,
    /// Integer programs solved in this run (not taken from the log).
    pub solved: usize,
    /// Per last jump, every case settled with what settles it, for the proof file; None
    /// for a last jump some case of which is not settled by a reduction or an infeasible
    /// program (an army was found, or a case is open).
    #[serde(skip)]
    pub evidence: Vec<(Cell, Option<Vec<CaseProof>>)>,
}

impl Report {
    /// Cases per outcome: ruled out, infeasible, feasible, skipped (an army was found
    /// first) and open (anything else: not solved, time limit, unorderable).
    pub fn counts(&self) -> [(&'static str, usize); 5] {
        let count = |s: &str| self.results.iter().filter(|r| r.status == s).count();
        let settled = ["ruled_out", "infeasible", "feasible", "skipped"].map(count);
        let open = self.results.len() - settled.iter().sum::<usize>();
        [
            ("ruled_out", settled[0]),
            ("infeasible", settled[1]),
            ("feasible", settled[2]),
            ("skipped", settled[3]),
            ("open", open),
        ]
    }

    pub fn summary(&self) -> String {
        let count = |s: &str| self.results.iter().filter(|r| r.status == s).count();
        format!(
            "{} army level {}, {} men: {} cases: {} ruled out, {} infeasible, {} feasible, {} skipped, {} open; enumeration {}; log {}",
            self.army,
            self.level,
            self.men,
            self.results.len(),
            count("ruled_out"),
            count("infeasible"),
            count("feasible"),
            count("skipped"),
            self.results
                .iter()
                .filter(|r| {
                    !matches!(
                        r.status.as_str(),
                        "ruled_out" | "infeasible" | "feasible" | "skipped"
                    )
                })
                .count(),
            if self.enumeration_complete {
                "complete"
            } else {
                "capped (board not proven)"
            },
            self.log.display()
        )
    }
}

impl Sweep {
    /// The cases of every last jump d.
    pub fn new(army: Army, level: i32, men: u64) -> Sweep {
        Sweep::with_directions(army, level, men, &army.lattice().last_jump_directions(), 0)
    }

    /// The cases of the given last jumps only; `extra` widens the enumeration's cuts for the
    /// stability check: its largest start exponent by that many exponents (within the
    /// pagoda window) and its node budget by that many multiples. Case boards need no
    /// widening: each is bounded by its own slack.
    pub fn with_directions(army: Army, level: i32, men: u64, dirs: &[Cell], extra: i32) -> Sweep {
        let lattice = army.lattice();
        let families = dirs
            .iter()
            .copied()
            .filter_map(|d| {
                let pagoda = Pagoda::improved(&lattice, d);
                let profile = pagoda.start_profile(level);
                // Only to say whether any army of `men` men is heavy enough.
                Limit::new(&profile, men, Golden::ONE, MARGIN)?;
                let cap = pagoda.trusted_exponent() - 8 + extra.clamp(0, 8);
                let budget = cases::BUDGET * (1 + extra.max(0) as u64);
                let sharp = crate::weight::pagoda::sharper_profile(army, d, level);
                let all = cases::enumerate(
                    &profile,
                    men,
                    Golden::ONE,
                    &[1, 2],
                    cap,
                    budget,
                    sharp.as_ref(),
                );
                let max_exponent = if all.complete {
                    all.cases.iter().map(|c| c.max_exponent).max().unwrap_or(0)
                } else {
                    cap
                };
                Some(Family {
                    last_jump: d,
                    max_exponent,
                    complete: all.complete,
                    cases: all.cases,
                    pagoda: Some(pagoda),
                    profile: Some(profile),
                })
            })
            .collect();
        Sweep {
            army,
            level,
            men,
            families,
            extra,
            second_opinion: false,
            jobs: 1,
            verbose: false,
            seed: Vec::new(),
            solve_open: true,
            split_after: Some(split::SPLIT_AFTER),
            case_time_limit: None,
            count: false,
            stop: Arc::default(),
        }
    }

    /// The case table, as the paper prints it: classes filled to capacity in every case are
    /// summarised, then one line per case.
    pub fn table(&self) -> String {
        let mut s = String::new();
        for f in &self.families {
            let profile = f.profile.as_ref().unwrap();
            // Classes full in every case.
            let full_to = (0..=f.max_exponent)
                .take_while(|&e| {
                    f.cases.iter().all(|c| {
                        let n = c.profile.iter().find(|p| p.0 == e).map_or(0, |p| p.1);
                        n == profile.count(e)
                    })
                })
                .last();
            s += &format!(
                "{} army, level {}, {} men, last jump over {:?}: {} cases (start exponents up to {}{})\n",
                self.army,
                self.level,
                self.men,
                f.last_jump,
                f.cases.len(),
                f.max_exponent,
                if f.complete {
                    ""
                } else {
                    ", a cap: the enumeration is not proven complete"
                }
            );
            if let Some(t) = full_to {
                s += &format!(
                    "  in every case n_i = {} cells, all full, for i <= {t}\n",
                    "all"
                );
            }
            for (k, c) in f.cases.iter().enumerate() {
                let rest: Vec<String> = c
                    .profile
                    .iter()
                    .filter(|p| full_to.is_none_or(|t| p.0 > t))
                    .map(|(e, n)| format!("n{e}={n}"))
                    .collect();
                s += &format!(
                    "  case {:>3}: {:<40} slack {:<16} {}\n",
                    k + 1,
                    rest.join(" "),
                    c.slack_sigma,
                    c.ruled_out.as_deref().unwrap_or("to solve")
                );
            }
        }
        s
    }

    /// The cases no reduction rules out, each with its last jump, in the order the sweep
    /// solves them: job I of an emitted sweep is the I-th of this list (from 1).
    pub fn remaining(&self) -> Vec<(Cell, &Case)> {
        self.families
            .iter()
            .flat_map(|f| {
                Self::order(f)
                    .into_iter()
                    .filter(|c| c.ruled_out.is_none())
                    .map(move |c| (f.last_jump, c))
            })
            .collect()
    }

    /// Minimum armies usually have zero slack (paper, section 4.3) and no far men: try
    /// those first, so that a sweep that has an army finds it early.
    fn order(f: &Family) -> Vec<&Case> {
        let mut order: Vec<&Case> = f.cases.iter().collect();
        order.sort_by_key(|c| (!c.slack.is_zero(), c.ruled_out.is_none(), c.max_exponent));
        order
    }
}
