//! The sweep's workers: every open case of a last jump solved on `jobs` threads (each
//! HiGHS instance single-threaded), from a queue that also takes the boxes of cases split
//! on the fly; one thread takes their results, in order, and appends them to the case log.
//! An army, a failure, Ctrl-C or the deadline stops new work. A round without an army then
//! gets the exact certificates of its infeasible cases, on the same threads.

use super::case::{blank, case_proof};
use super::log::LogWriter;
use super::{Attempt, CaseResult, Family, Report, Solved, Sweep, split};
use crate::error::Error;
use crate::ip::solve::{INTERRUPTED, IpStatus};
use crate::problem::geometry::Cell;
use crate::proof::farkas::LinearSystem;
use crate::reduce::cases::Case;
use crate::search::outcome::Outcome;
use indicatif::ProgressBar;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A worker's task: a case (by its place in the sweep's order), or box `k` of a split case.
#[derive(Clone, Copy)]
enum Task {
    Case(usize),
    Child(usize, usize),
}

impl Sweep {
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
        let bar = crate::search::progress::bar(progress, total, "cases");
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
                        let left = self.per_case(left);
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
                            self.army,
                            self.level,
                            &mut ip,
                            self.per_case(left),
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

    /// The seconds one program may take: what is left before the deadline (`left`), capped
    /// by [`Sweep::case_time_limit`].
    fn per_case(&self, left: Option<f64>) -> Option<f64> {
        match (left, self.case_time_limit) {
            (Some(l), Some(c)) => Some(l.min(c)),
            (l, c) => l.or(c),
        }
    }

    fn not_attempted(&self, f: &Family, c: &Case, found: bool) -> CaseResult {
        CaseResult {
            status: if found { "skipped" } else { "open" }.into(),
            board_proven: false,
            ..blank(f.last_jump, c)
        }
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
