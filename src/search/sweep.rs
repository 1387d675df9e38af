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

use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::second::{self, Verdict};
use crate::ip::solve::{self, INTERRUPTED, IpStatus, Options};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::farkas::{LinearSystem, Tree};
use crate::proof::format::{CaseOutcome, CaseProof, IpDef, IpProof};
use crate::proof::verify::{self, Step};
use crate::reduce::board::{Board, Limit, MARGIN};
use crate::reduce::cases::{self, Case};
use crate::search::outcome::{self, Outcome};
use crate::weight::golden::Golden;
use crate::weight::pagoda::{Pagoda, Profile};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

mod split;
pub use split::{SPLIT_AFTER, SPLIT_MIN_JOBS};

/// A case's log line and, when it has one, its army.
type Solved = Result<(CaseResult, Option<Outcome>), Error>;

/// What solving a case gave: its log line (and army), or the case split into boxes.
#[allow(clippy::large_enum_variant)] // one per case solved: its size does not matter
enum Attempt {
    Done(CaseResult, Option<Outcome>),
    Split(Box<split::Pending>),
}

/// A worker's task: a case (by its place in the sweep's order), or box `k` of a split case.
#[derive(Clone, Copy)]
enum Task {
    Case(usize),
    Child(usize, usize),
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

    fn log_name(&self, extra: i32) -> String {
        let dirs: Vec<Cell> = self.families.iter().map(|f| f.last_jump).collect();
        log_name(self.army, self.level, self.men, &dirs, extra)
    }

    /// Where the case log of a sweep over these last jumps lies in `dir`.
    pub fn log_path(army: Army, level: i32, men: u64, dirs: &[Cell], dir: &Path) -> PathBuf {
        dir.join(log_name(army, level, men, dirs, 0))
    }

    /// What a case log or a job result of this sweep is stamped with.
    pub fn job_stamp(&self) -> Stamp {
        self.stamp(0)
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

    fn stamp(&self, extra: i32) -> Stamp {
        Stamp {
            program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
            army: self.army.to_string(),
            level: self.level,
            men: self.men,
            last_jumps: self.families.iter().map(|f| f.last_jump).collect(),
            extra,
            budget: cases::BUDGET,
        }
    }

    /// The results of a case log that still hold: only when its stamp matches exactly
    /// (otherwise one line on stderr says why it is ignored), and then only infeasible
    /// cases whose certificate checks again and feasible cases whose play replays again.
    /// A log is a cache, never evidence: anything else is solved again.
    fn resume(&self, path: &Path, extra: i32) -> Vec<CaseResult> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Vec::new();
        };
        let mut lines = text.lines();
        let header = lines
            .next()
            .and_then(|l| serde_json::from_str::<Header>(l).ok());
        if header.is_none_or(|h| h.stamp != self.stamp(extra)) {
            eprintln!(
                "solarmy: ignoring {}: written by another version or for another problem",
                path.display()
            );
            return Vec::new();
        }
        lines
            .filter_map(|l| serde_json::from_str::<CaseResult>(l).ok())
            .filter(|r| self.still_holds(r))
            .collect()
    }

    /// Whether a result read back (from a log or a job) counts: an infeasible case with a
    /// certificate that checks again, a feasible one whose play replays again.
    pub fn still_holds(&self, r: &CaseResult) -> bool {
        match r.status.as_str() {
            "infeasible" => {
                !(self.second_opinion && r.cbc.is_none())
                    && r.ip.as_ref().is_some_and(|ip| {
                        crate::ip::evidence::still_certified(self.army, self.level, ip)
                    })
            }
            "feasible" => match (&r.army, &r.play) {
                (Some(army), Some(play)) => {
                    verify::replay(&self.army.lattice(), self.level, army, play).is_ok()
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Solves every case still open, resuming from the case log in `dir`, on `jobs` threads
    /// (each HiGHS instance single-threaded). The log is written by this thread alone: its
    /// stamp and the resumed lines at once, then one appended line per case as it settles
    /// (a line torn by a crash does not parse and is solved again).
    pub fn solve(
        &self,
        dir: &Path,
        time_limit: Option<f64>,
        progress: bool,
    ) -> Result<Report, Error> {
        let log = dir.join(self.log_name(self.extra));
        let (mut done, seeded) = self.settled_before(dir, &log);
        let total: usize = self.families.iter().map(|f| f.cases.len()).sum();
        let bar = progress.then(|| {
            let b = ProgressBar::new(total as u64);
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} cases  {elapsed_precise} (about {eta} left)  {msg}",
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
            solved: seeded,
            evidence: Vec::new(),
        };
        let mut writer = LogWriter::start(&log, &self.stamp(self.extra), done.values())?;
        // One deadline for the whole sweep: cases not started by then stay open.
        let deadline = time_limit.map(|t| Instant::now() + Duration::from_secs_f64(t));
        for f in &self.families {
            let order = Self::order(f);
            let results = self.family(
                f,
                &order,
                &mut done,
                deadline,
                bar.as_ref(),
                &mut report,
                &mut writer,
            )?;
            let mut proofs = Some(Vec::new());
            for (c, r) in order.iter().zip(&results) {
                report.complete &= matches!(
                    r.status.as_str(),
                    "ruled_out" | "infeasible" | "feasible" | "skipped"
                );
                proofs = proofs.and_then(|mut v| {
                    v.push(case_proof(c, r)?);
                    Some(v)
                });
            }
            report.results.extend(results);
            report.evidence.push((f.last_jump, proofs));
        }
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        Ok(report)
    }

    /// The cases settled before this run, by key: from the narrower sweep's log (where the
    /// board was proven, the program is the same however wide the caps), this sweep's log,
    /// and the jobs' results (seeded, which count as solved by this run: the one that
    /// completes it); and how many were seeded.
    fn settled_before(
        &self,
        dir: &Path,
        log: &Path,
    ) -> (HashMap<(Cell, String), CaseResult>, usize) {
        let mut done: HashMap<(Cell, String), CaseResult> = HashMap::new();
        if self.extra > 0 {
            for r in self.resume(&dir.join(self.log_name(0)), 0) {
                if r.board_proven {
                    done.insert((r.last_jump, r.case.clone()), r);
                }
            }
        }
        for r in self.resume(log, self.extra) {
            done.insert((r.last_jump, r.case.clone()), r);
        }
        let mut seeded = 0;
        for r in self.seed.iter().filter(|r| self.still_holds(r)) {
            seeded += 1;
            done.insert((r.last_jump, r.case.clone()), r.clone());
        }
        (done, seeded)
    }

    /// The cases of one last jump, in `order`: resumed, ruled out, or solved by the workers.
    #[allow(clippy::too_many_arguments)]
    fn family(
        &self,
        f: &Family,
        order: &[&Case],
        done: &mut HashMap<(Cell, String), CaseResult>,
        deadline: Option<Instant>,
        bar: Option<&ProgressBar>,
        report: &mut Report,
        writer: &mut LogWriter,
    ) -> Result<Vec<CaseResult>, Error> {
        let (mut slots, todo) = self.resumed(f, order, done, bar, report);
        self.run_workers(f, order, &todo, deadline, bar, report, writer, &mut slots)?;
        // Past the deadline the round is open anyway (cases were left): no certificates.
        if report.found.is_none() && deadline.is_none_or(|d| Instant::now() < d) {
            self.certify(&mut slots, writer, deadline)?;
        }
        let found = report.found.is_some();
        Ok(slots
            .into_iter()
            .zip(order)
            .map(|(r, c)| r.unwrap_or_else(|| self.not_attempted(f, c, found)))
            .collect())
    }

    /// The slots of `order` that a resumed log or a reduction already settles, and the
    /// indices left for the workers (none unless open cases are to be solved).
    fn resumed(
        &self,
        f: &Family,
        order: &[&Case],
        done: &mut HashMap<(Cell, String), CaseResult>,
        bar: Option<&ProgressBar>,
        report: &mut Report,
    ) -> (Vec<Option<CaseResult>>, Vec<usize>) {
        let mut slots: Vec<Option<CaseResult>> = vec![None; order.len()];
        let mut todo = Vec::new();
        for (i, c) in order.iter().enumerate() {
            if let Some(r) = done.remove(&(f.last_jump, c.key())) {
                self.take_found(&r, report);
                slots[i] = Some(r);
            } else if c.ruled_out.is_some() {
                slots[i] = Some(blank(f.last_jump, c));
            } else {
                todo.push(i);
                continue;
            }
            bar.inspect(|b| b.inc(1));
        }
        if !self.solve_open {
            todo.clear();
        }
        (slots, todo)
    }

    /// Solves the cases `todo` on `self.jobs` workers, filling their slots as results come
    /// (one writer appends each to the log). An army, a failure, Ctrl-C or the deadline
    /// stops new work; cases already running finish.
    #[allow(clippy::too_many_arguments)]
    fn run_workers(
        &self,
        f: &Family,
        order: &[&Case],
        todo: &[usize],
        deadline: Option<Instant>,
        bar: Option<&ProgressBar>,
        report: &mut Report,
        writer: &mut LogWriter,
        slots: &mut [Option<CaseResult>],
    ) -> Result<(), Error> {
        let stop = &*self.stop;
        stop.store(report.found.is_some(), Ordering::Relaxed);
        let queue = Queue::new(todo);
        let (tx, rx) = mpsc::channel();
        let mut failure = None;
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, todo.len().max(1)) {
                let (tx, queue) = (tx.clone(), &queue);
                scope.spawn(move || {
                    while let Some(task) = queue.next() {
                        let left = deadline
                            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
                        let stopping = stop.load(Ordering::Relaxed)
                            || INTERRUPTED.load(Ordering::Relaxed)
                            || left.is_some_and(|l| l < 0.01);
                        let sent = self.task(f, order, task, left, stopping, bar, queue);
                        if let Some((i, result)) = sent {
                            if matches!(result, Ok((_, Some(_))) | Err(_)) {
                                // An army (or a failure) ends the sweep: start nothing new.
                                stop.store(true, Ordering::Relaxed);
                            }
                            let _ = tx.send((i, result));
                        }
                        queue.done();
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                bar.inspect(|b| b.inc(1));
                let taken = result.and_then(|(r, found)| {
                    let r = self.take_result(r, found, bar, report, writer)?;
                    slots[i] = Some(r);
                    Ok(())
                });
                if let Err(e) = taken {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
                if report.found.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        failure.map_or(Ok(()), Err)
    }

    /// One solved case received: counted, said (with `--verbose`), its army kept if it is
    /// the first, and appended to the log. The result, for its slot.
    fn take_result(
        &self,
        r: CaseResult,
        found: Option<Outcome>,
        bar: Option<&ProgressBar>,
        report: &mut Report,
        writer: &mut LogWriter,
    ) -> Result<CaseResult, Error> {
        report.solved += 1;
        if self.verbose {
            let line = format!(
                "case {:?} {}: {}, {} cells, {} jumps, {:.2} s",
                r.last_jump, r.case, r.status, r.cells, r.jumps, r.seconds
            );
            match bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        if found.is_some() && report.found.is_none() {
            report.found = found;
        }
        writer.append(&r)?;
        Ok(r)
    }

    /// One worker's task: a case solved (or split, its boxes queued), or a box settled;
    /// the case's result once it is complete. Nothing new is started when `stopping`, but a
    /// split case still ends, as stopped.
    #[allow(clippy::too_many_arguments)]
    fn task(
        &self,
        f: &Family,
        order: &[&Case],
        task: Task,
        left: Option<f64>,
        stopping: bool,
        bar: Option<&ProgressBar>,
        queue: &Queue,
    ) -> Option<(usize, Solved)> {
        match task {
            Task::Case(_) if stopping => None,
            Task::Case(i) => match self.solve_case(f, order[i], left, bar, true) {
                // Stopped for another worker's army, not by Ctrl-C: not attempted.
                Ok(Attempt::Done(r, _))
                    if r.status == "interrupted" && !INTERRUPTED.load(Ordering::Relaxed) =>
                {
                    None
                }
                Ok(Attempt::Done(r, found)) => Some((i, Ok((r, found)))),
                Ok(Attempt::Split(mut p)) => {
                    p.index = i;
                    queue.split(p);
                    None
                }
                Err(e) => Some((i, Err(e))),
            },
            Task::Child(i, k) => {
                let sys = queue.child(i, k);
                let label = format!("{:?} {} box {}", f.last_jump, order[i].key(), k + 1);
                let verdict = match stopping {
                    true if INTERRUPTED.load(Ordering::Relaxed) => {
                        Ok((split::Child::Stopped(IpStatus::Interrupted), 0.0))
                    }
                    true => Ok((split::Child::Stopped(IpStatus::TimeLimit), 0.0)),
                    false => self.solve_child(&sys, left, label),
                };
                let (v, secs) = match verdict {
                    Ok(v) => v,
                    Err(e) => return Some((i, Err(e))),
                };
                let p = queue.verdict(i, k, v, secs)?;
                Some((i, self.finish_split(p, f, order[i], left)))
            }
        }
    }

    /// Exact certificates for the infeasible cases just solved, on `jobs` threads; each case
    /// certified is logged again (a resumed run takes its last line). Only a round without an
    /// army needs them, so a sweep that finds one never pays for them. None starts past
    /// `deadline`, and each gets only the time left: a case left uncertified still rests on
    /// HiGHS's verdict, re-solved by the checker.
    fn certify(
        &self,
        slots: &mut [Option<CaseResult>],
        writer: &mut LogWriter,
        deadline: Option<Instant>,
    ) -> Result<(), Error> {
        let todo: Vec<usize> = (0..slots.len())
            .filter(|&i| {
                slots[i]
                    .as_ref()
                    .and_then(|r| r.ip.as_ref())
                    .is_some_and(|ip| ip.certificate.is_none())
            })
            .collect();
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        let shared: &[Option<CaseResult>] = slots;
        let mut done = Vec::new();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, todo.len().max(1)) {
                let (tx, todo, next) = (tx.clone(), &todo, &next);
                scope.spawn(move || {
                    while let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) {
                        // The sweep's deadline covers its certificates: none starts after it.
                        let left = deadline
                            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
                        if INTERRUPTED.load(Ordering::Relaxed) || left.is_some_and(|l| l < 0.01) {
                            break;
                        }
                        let mut ip = shared[i].as_ref().and_then(|r| r.ip.clone()).unwrap();
                        let r = crate::ip::evidence::certify_proof_within(
                            self.army, self.level, &mut ip, left,
                        );
                        let _ = tx.send((i, r.map(|_| ip)));
                    }
                });
            }
            drop(tx);
            done.extend(rx);
        });
        for (i, ip) in done {
            let r = slots[i].as_mut().unwrap();
            r.ip = Some(ip?);
            if r.ip.as_ref().is_some_and(|ip| ip.certificate.is_some()) {
                writer.append(r)?;
            }
        }
        Ok(())
    }

    /// Minimum armies usually have zero slack (paper, section 4.3) and no far men: try
    /// those first, so that a sweep that has an army finds it early.
    fn order(f: &Family) -> Vec<&Case> {
        let mut order: Vec<&Case> = f.cases.iter().collect();
        order.sort_by_key(|c| (!c.slack.is_zero(), c.ruled_out.is_none(), c.max_exponent));
        order
    }

    /// A resumed feasible case: its army, replayed already by [`Sweep::resume`], counts.
    fn take_found(&self, r: &CaseResult, report: &mut Report) {
        let (Some(army), Some(play), None) = (&r.army, &r.play, &report.found) else {
            return;
        };
        let req = outcome::Request::new(self.army, self.level);
        let mut out = outcome::empty_outcome(&req);
        if let Ok(replay) = verify::replay(&self.army.lattice(), self.level, army, play) {
            out.status = outcome::Status::Optimal;
            out.min_size = Some(army.len() as u64);
            out.moves = replay.moves;
            out.verified = true;
            out.army_cells = army.clone();
            out.play = play.clone();
            out.last_jump = Some(r.last_jump);
            report.found = Some(out);
        }
    }

    fn not_attempted(&self, f: &Family, c: &Case, found: bool) -> CaseResult {
        CaseResult {
            status: if found { "skipped" } else { "open" }.into(),
            board_proven: false,
            ..blank(f.last_jump, c)
        }
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
    fn solve_case(
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
            .filter(|_| split && self.jobs >= split::SPLIT_MIN_JOBS);
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
        r.seconds = t0.elapsed().as_secs_f64();
        let found = self.settle_case(&mut r, &board, &spec, &sol, time_limit, f, c, proof)?;
        Ok(Attempt::Done(r, found))
    }

    /// A case's log line from HiGHS's verdict on the whole program.
    #[allow(clippy::too_many_arguments)]
    fn settle_case(
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
    fn solve_whole(
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
    fn second(
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

/// The sweep's tasks: cases, and the boxes of cases split on the fly (queued first, so
/// that a split case, the longest, ends early). A worker waits while the queue is empty
/// but another worker may still add boxes to it.
struct Queue {
    state: Mutex<QueueState>,
    more: Condvar,
}

struct QueueState {
    tasks: std::collections::VecDeque<Task>,
    busy: usize,
    split: HashMap<usize, split::Pending>,
}

impl Queue {
    fn new(todo: &[usize]) -> Queue {
        Queue {
            state: Mutex::new(QueueState {
                tasks: todo.iter().map(|&i| Task::Case(i)).collect(),
                busy: 0,
                split: HashMap::new(),
            }),
            more: Condvar::new(),
        }
    }

    /// The next task, None when there is none and no worker can add one.
    fn next(&self) -> Option<Task> {
        let mut s = self.state.lock().unwrap();
        loop {
            if let Some(t) = s.tasks.pop_front() {
                s.busy += 1;
                return Some(t);
            }
            if s.busy == 0 {
                return None;
            }
            s = self.more.wait(s).unwrap();
        }
    }

    /// The task taken by [`Queue::next`] is over.
    fn done(&self) {
        self.state.lock().unwrap().busy -= 1;
        self.more.notify_all();
    }

    /// Queues the boxes of a split case, ahead of the cases.
    fn split(&self, p: Box<split::Pending>) {
        let mut s = self.state.lock().unwrap();
        for k in (0..p.verdicts.len()).rev() {
            s.tasks.push_front(Task::Child(p.index, k));
        }
        s.split.insert(p.index, *p);
        self.more.notify_all();
    }

    fn child(&self, i: usize, k: usize) -> LinearSystem {
        self.state.lock().unwrap().split[&i].child(k).clone()
    }

    /// Records box k's verdict; the split case once every box has one.
    fn verdict(&self, i: usize, k: usize, v: split::Child, secs: f64) -> Option<split::Pending> {
        let mut s = self.state.lock().unwrap();
        let p = s.split.get_mut(&i).unwrap();
        p.verdicts[k] = Some(v);
        p.result.seconds += secs;
        if p.done() { s.split.remove(&i) } else { None }
    }
}

/// The case log, written by one thread: the stamp and the lines kept from a resumed log at
/// once (atomically), then one line appended per case settled.
struct LogWriter {
    file: std::fs::File,
    path: PathBuf,
}

impl LogWriter {
    fn start<'a>(
        path: &Path,
        stamp: &Stamp,
        kept: impl Iterator<Item = &'a CaseResult>,
    ) -> Result<LogWriter, Error> {
        let mut text = json_line(&Header {
            stamp: stamp.clone(),
        })?;
        for r in kept {
            text += &json_line(r)?;
        }
        crate::files::write_atomic(path, text.as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Error::io("write", path, e))?;
        Ok(LogWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    fn append(&mut self, r: &CaseResult) -> Result<(), Error> {
        use std::io::Write;
        let line = json_line(r)?;
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| Error::io("write", &self.path, e))
    }
}

/// DIR-relative name of a case log: <army>-<level>-<men>-d<x>_<y>[-…][-wider<extra>]-cases.jsonl.
fn log_name(army: Army, level: i32, men: u64, dirs: &[Cell], extra: i32) -> String {
    let dirs: Vec<String> = dirs.iter().map(|d| format!("d{}", d.tag())).collect();
    let wider = if extra > 0 {
        format!("-wider{extra}")
    } else {
        String::new()
    };
    format!("{army}-{level}-{men}-{}{wider}-cases.jsonl", dirs.join("-"))
}

/// One JSON line of a log.
fn json_line<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::Input(e.to_string()))
}

/// A case's log line before anything is solved: ruled out if a reduction says so.
fn blank(d: Cell, c: &Case) -> CaseResult {
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
    }
}

/// What settles a case in the proof: its reduction, or its infeasible program.
fn case_proof(c: &Case, r: &CaseResult) -> Option<CaseProof> {
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
