//! The checker's queue of solver calls: systems whose infeasibility the walk could not
//! verify exactly (a program without a certificate, or the leaves a tree leaves to the
//! solvers), and, with `check --cbc`, every system CBC must also call infeasible. They are
//! solved after the walk on `jobs` threads, the longest first (by the seconds the search's
//! solver spent on the program, a hint that only orders the work), and judged in step
//! order, so the first failing step is named as a sequential check would name it.

use super::check::CbcSummary;
use super::farkas::LinearSystem;
use super::resolve::{Resolved, cbc, resolve};
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
}

/// What a solver said of a call, and how long it took.
struct Answer {
    verdict: Resolved,
    note: String,
    seconds: f64,
}

/// A failing call: its step, context and message.
pub type Failure = (usize, String, String);

/// Solves every call, `jobs` at a time, each solver at most `time_limit` seconds. Err names
/// the first failing call by step; Ok carries CBC's summary when any call went to CBC.
pub fn solve(
    calls: &[Call],
    jobs: usize,
    time_limit: Option<f64>,
) -> Result<Option<CbcSummary>, Failure> {
    let answers = run(calls, jobs, time_limit);
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by_key(|&i| calls[i].step);
    for &i in &order {
        let (c, a) = (&calls[i], &answers[i]);
        let message = match (c.solver, a.verdict) {
            (Solver::Highs, Resolved::Infeasible) | (Solver::Cbc, Resolved::Infeasible) => None,
            (Solver::Cbc, Resolved::Unknown) => None,
            (Solver::Highs, v) => Some(format!(
                "HiGHS, solving the checker's program again, says {v:?}"
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
fn run(calls: &[Call], jobs: usize, time_limit: Option<f64>) -> Vec<Answer> {
    let jobs = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by(|&a, &b| calls[b].priority.total_cmp(&calls[a].priority));
    let next = AtomicUsize::new(0);
    let answers: Vec<Mutex<Option<Answer>>> = calls.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(calls.len()) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let a = answer(&calls[i], time_limit);
                    *answers[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(a);
                }
            });
        }
    });
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

fn answer(call: &Call, time_limit: Option<f64>) -> Answer {
    match call.solver {
        Solver::Highs => {
            let t = Instant::now();
            let verdict = resolve(&call.sys, time_limit);
            Answer {
                verdict,
                note: String::new(),
                seconds: t.elapsed().as_secs_f64(),
            }
        }
        Solver::Cbc => {
            let o = cbc(&call.sys, time_limit);
            Answer {
                verdict: o.verdict,
                note: o.note,
                seconds: o.seconds,
            }
        }
    }
}
