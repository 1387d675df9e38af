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
//! Results go to a case log (JSON lines, rewritten atomically after every case) so that a
//! sweep stopped by a time limit or Ctrl-C resumes where it stopped.

use crate::board::{Board, Limit, MARGIN};
use crate::cases::{self, Case};
use crate::export;
use crate::geometry::{Army, Cell};
use crate::golden::Golden;
use crate::minimum::{self, Outcome};
use crate::model::{Model, Spec};
use crate::pagoda::{Pagoda, Profile};
use crate::second::{self, Verdict};
use crate::solve::{self, INTERRUPTED, IpStatus, Options};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

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
    /// Re-prove every infeasible case with CBC ([`crate::second`]).
    pub second_opinion: bool,
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
}

impl Report {
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
                let all = cases::enumerate(&profile, men, Golden::ONE, &[1, 2], cap, budget);
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

    /// Solves every case still open, resuming from the case log in `dir`.
    pub fn solve(
        &self,
        dir: &Path,
        time_limit: Option<f64>,
        progress: bool,
    ) -> Result<Report, String> {
        let dirs: Vec<String> = self
            .families
            .iter()
            .map(|f| format!("d{}_{}", f.last_jump.0, f.last_jump.1))
            .collect();
        let wider = if self.extra > 0 {
            format!("-wider{}", self.extra)
        } else {
            String::new()
        };
        let log = dir.join(format!(
            "{}-{}-{}-{}{wider}-cases.jsonl",
            self.army,
            self.level,
            self.men,
            dirs.join("-")
        ));
        let mut done: HashMap<(Cell, String), CaseResult> = HashMap::new();
        let settled =
            |r: &CaseResult| matches!(r.status.as_str(), "ruled_out" | "infeasible" | "feasible");
        let read = |path: &Path| -> Vec<CaseResult> {
            std::fs::read_to_string(path)
                .map(|t| {
                    t.lines()
                        .filter_map(|l| serde_json::from_str(l).ok())
                        .collect()
                })
                .unwrap_or_default()
        };
        // A case proven before without the second opinion now asked for is solved again.
        let unchecked =
            |r: &CaseResult| self.second_opinion && r.status == "infeasible" && r.cbc.is_none();
        if self.extra > 0 {
            // A case whose board was proven (or that a reduction ruled out) is the same IP
            // however wide the caps: take its result from the narrower sweep.
            let base = dir.join(format!(
                "{}-{}-{}-{}-cases.jsonl",
                self.army,
                self.level,
                self.men,
                dirs.join("-")
            ));
            for r in read(&base) {
                if settled(&r) && (r.board_proven || r.status == "ruled_out") && !unchecked(&r) {
                    done.insert((r.last_jump, r.case.clone()), r);
                }
            }
        }
        for r in read(&log) {
            if settled(&r) && !unchecked(&r) {
                done.insert((r.last_jump, r.case.clone()), r);
            }
        }
        let total: usize = self.families.iter().map(|f| f.cases.len()).sum();
        let bar = progress.then(|| {
            let b = ProgressBar::new(total as u64);
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} cases  {elapsed_precise}  {msg}",
                )
                .unwrap(),
            );
            b
        });
        let mut report = Report {
            army: self.army,
            level: self.level,
            men: self.men,
            complete: true,
            enumeration_complete: self.families.iter().all(|f| f.complete),
            results: Vec::new(),
            found: None,
            log: log.clone(),
        };
        let save = |results: &[CaseResult]| -> Result<(), String> {
            let text: String = results
                .iter()
                .map(|r| serde_json::to_string(r).unwrap() + "\n")
                .collect();
            export::write_atomic(&log, text.as_bytes())
        };
        for f in &self.families {
            // Minimum armies usually have zero slack (paper, section 4.3) and no far men:
            // try those first, so that a sweep that has an army finds it early.
            let mut order: Vec<&Case> = f.cases.iter().collect();
            order.sort_by_key(|c| (!c.slack.is_zero(), c.ruled_out.is_none(), c.max_exponent));
            for c in order {
                if let Some(b) = &bar {
                    b.inc(1);
                    b.set_message(format!("{:?} {}", f.last_jump, c.key()));
                }
                if let Some(r) = done.get(&(f.last_jump, c.key())) {
                    report.results.push(r.clone());
                    continue;
                }
                if report.found.is_some() || INTERRUPTED.load(Ordering::Relaxed) {
                    // Not attempted: an army was found already, or the sweep was stopped.
                    report.complete &= report.found.is_some();
                    report.results.push(CaseResult {
                        last_jump: f.last_jump,
                        case: c.key(),
                        slack: c.slack_sigma.clone(),
                        status: if report.found.is_some() {
                            "skipped"
                        } else {
                            "open"
                        }
                        .into(),
                        reason: c.ruled_out.clone(),
                        cells: 0,
                        jumps: 0,
                        seconds: 0.0,
                        board_proven: false,
                        cbc: None,
                    });
                    continue;
                }
                let r = self.solve_case(f, c, time_limit, bar.as_ref(), &mut report)?;
                report.complete &=
                    matches!(r.status.as_str(), "ruled_out" | "infeasible" | "feasible");
                report.results.push(r);
                save(&report.results)?;
            }
        }
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        save(&report.results)?;
        Ok(report)
    }

    fn solve_case(
        &self,
        f: &Family,
        c: &Case,
        time_limit: Option<f64>,
        bar: Option<&ProgressBar>,
        report: &mut Report,
    ) -> Result<CaseResult, String> {
        let mut r = CaseResult {
            last_jump: f.last_jump,
            case: c.key(),
            slack: c.slack_sigma.clone(),
            status: "ruled_out".into(),
            reason: c.ruled_out.clone(),
            cells: 0,
            jumps: 0,
            seconds: 0.0,
            board_proven: true,
            cbc: None,
        };
        if c.ruled_out.is_some() {
            return Ok(r);
        }
        let pagoda = f.pagoda.as_ref().unwrap();
        // Step 2 of the board argument with this case's E and S; where the slack pays for
        // any distance, the family's cap plus the margin, not proven.
        let reached = crate::board::reach_profile(&c.profile, c.slack);
        let within = reached <= pagoda.trusted_exponent();
        let limit = Limit {
            men: self.men,
            max_exponent: reached.min(pagoda.trusted_exponent()),
            max_loss: c.slack,
            proven: within,
        };
        let m = limit.max_exponent;
        r.board_proven = limit.proven;
        let board = Board::new(pagoda, self.level, &limit);
        let d = f.last_jump;
        let mut spec = Spec {
            fin: board.last_jump_position(d),
            max_men: Some(self.men),
            ..Spec::default()
        };
        for i in 0..=m {
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
        if let Some(least) = lossy.iter().map(|&j| board.loss[j]).min() {
            let mut most = 0u64;
            while (most + 1) as i128 * least <= c.slack {
                most += 1;
            }
            spec.jumps_at_most.push((lossy, most));
        }
        r.cells = board.cells.len();
        r.jumps = board.jumps.len();
        let sol = solve::solve(
            Model::build(&board, &spec),
            &Options {
                time_limit,
                progress: bar.cloned(),
                label: format!("{:?} {}", d, c.key()),
            },
        )?;
        r.seconds = sol.seconds;
        r.status = match sol.status {
            IpStatus::Infeasible => {
                if self.second_opinion {
                    let v = second::reprove(&board, &spec, time_limit);
                    if let Verdict::Feasible(_) = v {
                        return Err(format!(
                            "solvers disagree on {} level {}, {} men, last jump {:?}, case {}: HiGHS says infeasible, CBC {}",
                            self.army,
                            self.level,
                            self.men,
                            d,
                            c.key(),
                            v.as_str()
                        ));
                    }
                    r.cbc = Some(v.as_str());
                }
                "infeasible".into()
            }
            IpStatus::TimeLimit => "time_limit".into(),
            IpStatus::Interrupted => "interrupted".into(),
            IpStatus::Optimal => {
                let req = minimum::Request::new(self.army, self.level);
                let mut out = minimum::empty_outcome(&req);
                if minimum::settle(&mut out, &req, &board, &sol, d) {
                    out.status = minimum::Status::Optimal;
                    report.found = Some(out);
                    "feasible".into()
                } else {
                    "unorderable".into()
                }
            }
        };
        Ok(r)
    }
}
