//! The checker's queue of solver calls: systems whose infeasibility the walk could not
//! verify exactly (a program without a certificate, or the leaves a tree leaves to the
//! solvers), and, with `check --cbc`, every system CBC must also call infeasible. They are
//! solved after the walk on `jobs` threads, HiGHS's the longest first and then CBC's the
//! shortest first (by the seconds the search's solver spent on the program, a hint that
//! only orders the work), and judged in step order, so the first failing step is named as a
//! sequential check would name it.
//!
//! CBC's verdicts may be kept in a record ([`Record`], `check --cbc-record FILE`) so that a
//! second opinion that takes hours survives being stopped: a system whose fingerprint the
//! record says CBC proved infeasible is not solved again, nor given a strategy
//! ([`CbcStrategy`]) the record says left it with no verdict within at least the time now
//! allowed. The record is a log of what CBC said, never evidence; the proof's own steps do
//! not read it.

use super::farkas::LinearSystem;
use super::resolve::{
    CbcStrategy, Opinion, Resolved, TIME_LIMIT_NOTE, cbc, cbc_in_process, resolve,
};
use super::summary::CbcSummary;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Which solver a system is handed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// The fallback for a system with no exact certificate: it must say infeasible.
    Highs,
    /// The second opinion: feasible fails the step, a time-out is no verdict.
    Cbc,
}

/// One system to solve, with the step and context it fails under.
pub struct Call {
    pub step: usize,
    pub context: String,
    pub sys: LinearSystem,
    pub solver: Solver,
    /// The integer program it belongs to (CBC confirms a program when it confirms every
    /// one of its systems).
    pub program: usize,
    pub priority: f64,
    /// For HiGHS, when `sys` is a program whose certificate tree leaves boxes to the
    /// solvers: those boxes. HiGHS re-solves the whole program first (hexagonal 7's 8
    /// whole programs took the search 138 s, their 130 boxes the checker about 640 CPU s),
    /// and only if it gives no verdict within the time limit the boxes, which the tree's
    /// exactly checked splits show cover the program. Either way the program rests on
    /// HiGHS's word. Which way is taken depends on the user's limit alone, never on the
    /// search's recorded seconds or the machine's load, so a busy machine takes longer
    /// but reaches the same verdict.
    pub leaves: Vec<LinearSystem>,
}

/// What a solver said of a call, and how long it took.
struct Answer {
    verdict: Resolved,
    note: String,
    seconds: f64,
}

/// A failing call: its step, context and message.
pub type Failure = (usize, String, String);

/// How the calls are made.
pub struct How<'a> {
    /// Calls at once (0: one per core).
    pub jobs: usize,
    /// Seconds for each solver call.
    pub time_limit: Option<f64>,
    pub record: Option<&'a Record>,
    /// The executable whose `cbc-system` runs one CBC call in a process of its own; None:
    /// CBC in this process (serialised by `coin_cbc`'s lock).
    pub cbc_process: Option<&'a Path>,
    /// A progress bar on stderr (calls done of all, the last verdict): a CBC check can
    /// take hours.
    pub progress: bool,
}

/// The bar of [`How::progress`], or a hidden one.
fn bar(how: &How, calls: &[Call]) -> indicatif::ProgressBar {
    if !how.progress || calls.is_empty() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(calls.len() as u64)
        .with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} solver calls {pos}/{len} {wide_msg}",
    ) {
        pb.set_style(style);
    }
    pb.enable_steady_tick(std::time::Duration::from_secs(1));
    pb
}

/// Solves every call, `how.jobs` at a time. Err names the first failing call by step; Ok
/// carries CBC's summary when any call went to CBC.
pub fn solve(calls: &[Call], how: &How) -> Result<Option<CbcSummary>, Failure> {
    let answers = run(calls, how);
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by_key(|&i| calls[i].step);
    for &i in &order {
        let (c, a) = (&calls[i], &answers[i]);
        let message = match (c.solver, a.verdict) {
            (Solver::Highs, Resolved::Infeasible) | (Solver::Cbc, Resolved::Infeasible) => None,
            (Solver::Cbc, Resolved::Unknown) => None,
            (Solver::Highs, v) => Some(format!(
                "HiGHS, solving the checker's program again, says {v:?}{}",
                a.note
            )),
            (Solver::Cbc, Resolved::Feasible) => Some(format!(
                "CBC, solving the checker's program, finds it feasible: {}; the solvers disagree",
                a.note
            )),
        };
        if let Some(m) = message {
            return Err((c.step, c.context.clone(), m));
        }
    }
    Ok(cbc_summary(calls, &answers))
}

/// CBC's verdicts gathered by program.
fn cbc_summary(calls: &[Call], answers: &[Answer]) -> Option<CbcSummary> {
    let mut s = CbcSummary::default();
    let mut programs: Vec<(usize, bool, Option<String>)> = Vec::new();
    for (c, a) in calls.iter().zip(answers) {
        if c.solver != Solver::Cbc {
            continue;
        }
        s.cbc_seconds += a.seconds;
        s.cbc_max_seconds = s.cbc_max_seconds.max(a.seconds);
        if programs.last().is_none_or(|p| p.0 != c.program) {
            programs.push((c.program, true, None));
        }
        let p = programs.last_mut().unwrap();
        if a.verdict != Resolved::Infeasible {
            p.1 = false;
            p.2.get_or_insert_with(|| format!("step {} ({}): {}", c.step, c.context, a.note));
        }
    }
    if programs.is_empty() {
        return None;
    }
    for (_, confirmed, at) in programs {
        if confirmed {
            s.cbc_confirmed += 1;
        } else {
            s.cbc_no_verdict += 1;
            s.cbc_no_verdict_at.extend(at);
        }
    }
    Some(s)
}

/// The answers, in the order of `calls`; the work goes out longest first.
fn run(calls: &[Call], how: &How) -> Vec<Answer> {
    let jobs = match how.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // HiGHS first, the longest first (the check's wall time); then CBC, the shortest first,
    // so that a second opinion of hours stopped midway has recorded the most it could.
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by(|&a, &b| {
        let (ca, cb) = (&calls[a], &calls[b]);
        (ca.solver == Solver::Cbc)
            .cmp(&(cb.solver == Solver::Cbc))
            .then_with(|| match ca.solver {
                Solver::Highs => cb.priority.total_cmp(&ca.priority),
                Solver::Cbc => ca.priority.total_cmp(&cb.priority),
            })
    });
    let pb = bar(how, calls);
    let next = AtomicUsize::new(0);
    let answers: Vec<Mutex<Option<Answer>>> = calls.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(calls.len()) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let a = answer(&calls[i], how);
                    pb.set_message(format!(
                        "(step {}: {:?} {:?}, {:.0} s)",
                        calls[i].step, calls[i].solver, a.verdict, a.seconds
                    ));
                    pb.inc(1);
                    *answers[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(a);
                }
            });
        }
    });
    pb.finish_and_clear();
    answers
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or(Answer {
                    verdict: Resolved::Unknown,
                    note: "not solved".into(),
                    seconds: 0.0,
                })
        })
        .collect()
}

fn answer(call: &Call, how: &How) -> Answer {
    match call.solver {
        Solver::Highs => highs_word(call, how),
        Solver::Cbc => second_opinion(call, how),
    }
}

/// HiGHS's word on a program: the whole, or, when it gives no verdict within the time
/// limit, each of the boxes its tree leaves to the solvers (all must be infeasible; the
/// first that is not is named in the note).
fn highs_word(call: &Call, how: &How) -> Answer {
    let t = Instant::now();
    let answer = |verdict, note: String| Answer {
        verdict,
        note,
        seconds: t.elapsed().as_secs_f64(),
    };
    let whole = resolve(&call.sys, how.time_limit);
    if whole != Resolved::Unknown || call.leaves.is_empty() {
        return answer(whole, String::new());
    }
    let n = call.leaves.len();
    for (i, leaf) in call.leaves.iter().enumerate() {
        let v = resolve(leaf, how.time_limit);
        if v != Resolved::Infeasible {
            return answer(v, format!(" on solver leaf {} of {n}", i + 1));
        }
    }
    answer(Resolved::Infeasible, String::new())
}

/// CBC's word on one system: each strategy of [`CbcStrategy::ORDER`] in turn, each within
/// the time limit, until one gives a verdict. With a record, a system it says CBC proved
/// infeasible is not solved again, nor is it given a strategy that already ran out of at
/// least the time now allowed (asking again would only spend that time once more).
fn second_opinion(call: &Call, how: &How) -> Answer {
    // Only CBC's calls are recorded, and only when there is a record to read and extend.
    let print = how.record.map(|_| fingerprint(&call.sys));
    if let (Some(r), Some(f)) = (how.record, &print)
        && r.confirmed.contains(f)
    {
        return Answer {
            verdict: Resolved::Infeasible,
            note: "recorded".into(),
            seconds: 0.0,
        };
    }
    let (mut seconds, mut notes) = (0.0, Vec::new());
    for strategy in CbcStrategy::ORDER {
        let spent = how
            .record
            .zip(print.as_ref())
            .and_then(|(r, f)| r.timed_out(f, strategy));
        if let Some(t) = spent
            && how.time_limit.is_some_and(|limit| t >= limit)
        {
            notes.push(format!(
                "{}: recorded: no verdict within {t:.0} s",
                strategy.name()
            ));
            continue;
        }
        let o = match how.cbc_process {
            Some(exe) => cbc_in_process(exe, &call.sys, how.time_limit, strategy),
            None => cbc(&call.sys, how.time_limit, strategy),
        };
        if let (Some(r), Some(f)) = (how.record, &print) {
            r.append(f, &o, strategy, how.time_limit);
        }
        seconds += o.seconds;
        if o.verdict != Resolved::Unknown {
            return Answer {
                verdict: o.verdict,
                note: o.note,
                seconds,
            };
        }
        notes.push(format!("{}: {}", strategy.name(), o.note));
    }
    Answer {
        verdict: Resolved::Unknown,
        note: notes.join("; "),
        seconds,
    }
}

/// CBC's verdicts by system fingerprint, read from and appended to a JSON-lines file.
pub struct Record {
    confirmed: HashSet<String>,
    /// Systems CBC left with no verdict at its time limit, by strategy: the most time it
    /// was given.
    timed_out: HashMap<(String, CbcStrategy), f64>,
    file: Mutex<std::fs::File>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Line {
    fingerprint: String,
    verdict: String,
    seconds: f64,
    note: String,
    /// The time limit CBC was given (absent in older records: then `seconds` stands for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit: Option<f64>,
    /// CBC's strategy (absent in records older than the strategies: plain, the only one then).
    #[serde(default = "plain")]
    strategy: CbcStrategy,
}

fn plain() -> CbcStrategy {
    CbcStrategy::Plain
}

impl Record {
    /// Opens (or creates) a record; lines that do not parse are ignored.
    pub fn open(path: &Path) -> std::io::Result<Record> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let lines: Vec<Line> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Line>(l).ok())
            .collect();
        let confirmed: HashSet<String> = lines
            .iter()
            .filter(|l| l.verdict == "infeasible")
            .map(|l| l.fingerprint.clone())
            .collect();
        let mut timed_out: HashMap<(String, CbcStrategy), f64> = HashMap::new();
        for l in lines.iter().filter(|l| l.note == TIME_LIMIT_NOTE) {
            let t = l.time_limit.unwrap_or(l.seconds);
            let key = (l.fingerprint.clone(), l.strategy);
            let most = timed_out.entry(key).or_insert(t);
            *most = most.max(t);
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(Record {
            confirmed,
            timed_out,
            file: Mutex::new(file),
        })
    }

    /// How many systems the record says CBC proved infeasible.
    pub fn len(&self) -> usize {
        self.confirmed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.confirmed.is_empty()
    }

    /// The most time `strategy` was given on the system without a verdict, if it ran out.
    fn timed_out(&self, fingerprint: &str, strategy: CbcStrategy) -> Option<f64> {
        self.timed_out
            .get(&(fingerprint.to_string(), strategy))
            .copied()
    }

    /// One line per verdict, written whole (a failed write only loses the record's line).
    fn append(&self, fingerprint: &str, o: &Opinion, strategy: CbcStrategy, limit: Option<f64>) {
        let line = Line {
            fingerprint: fingerprint.into(),
            verdict: format!("{:?}", o.verdict).to_lowercase(),
            seconds: o.seconds,
            note: o.note.clone(),
            time_limit: limit,
            strategy,
        };
        if let Ok(mut text) = serde_json::to_string(&line) {
            text.push('\n');
            let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = f.write_all(text.as_bytes()).and_then(|_| f.flush());
        }
    }
}

/// A 128-bit FNV-1a hash of the system's columns and rows: names a system across runs.
fn fingerprint(sys: &LinearSystem) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    let mut eat = |v: i64| {
        for b in v.to_le_bytes() {
            h ^= b as u128;
            h = h.wrapping_mul(0x0000000001000000000000000000013B);
        }
    };
    let bound = |v: Option<i64>| v.unwrap_or(i64::MIN);
    for &(l, u) in &sys.cols {
        eat(l);
        eat(bound(u));
    }
    for r in &sys.rows {
        eat(r.coefs.len() as i64);
        for &(c, a) in &r.coefs {
            eat(c as i64);
            eat(a);
        }
        eat(bound(r.lo));
        eat(bound(r.hi));
    }
    format!("{h:032x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::Row;

    /// x in 0..=1 with x = v: feasible for v = 1, infeasible for v >= 2 (each v its own
    /// system).
    fn pinned(v: i64) -> LinearSystem {
        LinearSystem {
            cols: vec![(0, Some(1))],
            rows: vec![Row {
                coefs: vec![(0, 1)],
                lo: Some(v),
                hi: Some(v),
            }],
        }
    }

    /// HiGHS judges a program with solver leaves whole first: its verdict stands whatever
    /// the leaves would say (here the leaves are infeasible, the whole is not).
    #[test]
    fn highs_judges_the_whole_program_before_its_leaves() {
        let how = How {
            jobs: 1,
            time_limit: Some(60.0),
            record: None,
            cbc_process: None,
            progress: false,
        };
        let call = |sys: LinearSystem| Call {
            step: 1,
            context: String::new(),
            sys,
            solver: Solver::Highs,
            program: 0,
            priority: 1.0,
            leaves: vec![pinned(2), pinned(2)],
        };
        assert_eq!(answer(&call(pinned(2)), &how).verdict, Resolved::Infeasible);
        assert_eq!(answer(&call(pinned(1)), &how).verdict, Resolved::Feasible);
    }

    #[test]
    fn a_record_skips_what_cbc_settled_or_could_not_settle_in_the_time_allowed() {
        let (done, slow) = (pinned(2), pinned(3));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.jsonl");
        let line = |s: &LinearSystem, verdict: &str, note: &str, strategy: &str| {
            format!(
                "{{\"fingerprint\":\"{}\",\"verdict\":\"{verdict}\",\"seconds\":200.5,\"note\":\"{note}\"{strategy}}}\n",
                fingerprint(s)
            )
        };
        // The slow system timed out under both strategies: plain in a line older than the
        // strategies (no field), guided in a newer one.
        let text = line(&done, "infeasible", "", "")
            + &line(&slow, "unknown", TIME_LIMIT_NOTE, "")
            + &line(
                &slow,
                "unknown",
                TIME_LIMIT_NOTE,
                ",\"strategy\":\"guided\"",
            );
        std::fs::write(&path, text + "not json\n").unwrap();
        let record = Record::open(&path).unwrap();
        assert_eq!(record.len(), 1);
        let call = |sys: LinearSystem| Call {
            step: 1,
            context: String::new(),
            sys,
            solver: Solver::Cbc,
            program: 0,
            priority: 0.0,
            leaves: Vec::new(),
        };
        let how = |limit: f64| How {
            jobs: 1,
            time_limit: Some(limit),
            record: Some(&record),
            // Never started here: every call below is answered from the record.
            cbc_process: Some(Path::new("/nonexistent/solarmy")),
            progress: false,
        };
        let a = answer(&call(done), &how(1e6));
        assert_eq!(
            (a.verdict, a.note.as_str()),
            (Resolved::Infeasible, "recorded")
        );
        let a = answer(&call(slow.clone()), &how(200.0));
        assert_eq!(a.verdict, Resolved::Unknown);
        assert_eq!(
            a.note,
            "guided: recorded: no verdict within 200 s; plain: recorded: no verdict within 200 s"
        );
        // Given more time than before, CBC is asked again (here: a process that cannot start).
        let a = answer(&call(slow), &how(1000.0));
        assert!(a.note.contains("could not start"), "{}", a.note);
    }
}
