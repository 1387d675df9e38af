//! A case split as independent jobs, for a scheduler: `cases --emit-jobs DIR` writes the
//! sweep down (`manifest.json`: the problem, the round, the cases and the stamp;
//! `jobs.txt`: one command line per case; `slurm.sh`: an `sbatch --array` script over the
//! same lines), `cases --run-job DIR --case I` solves one case into `DIR/results/I.json`,
//! and `cases --merge DIR` hands the results to the sweep as a seed. Job files are a cache
//! like a case log, never evidence: the sweep re-checks each result as it re-checks a
//! resumed log line, and a result stamped for another sweep or version is refused.

use crate::cli::args::{Error, ProblemArg};
use crate::files::write_atomic;
use crate::problem::geometry::Cell;
use crate::search::sweep::{CaseResult, Stamp, Sweep};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The problem of a sweep, as a job's command line gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// A built-in army's name, or
    pub army: Option<String>,
    /// a model file, by its absolute path.
    pub model: Option<PathBuf>,
    pub level: i32,
    pub men: u64,
}

impl Problem {
    pub fn new(arg: &ProblemArg, level: i32, men: u64) -> Result<Problem, Error> {
        let model =
            match (&arg.army, &arg.model) {
                (None, Some(path)) => Some(std::path::absolute(path).map_err(|e| {
                    Error::failure(format!("cannot resolve {}: {e}", path.display()))
                })?),
                _ => None,
            };
        Ok(Problem {
            army: arg.army.clone(),
            model,
            level,
            men,
        })
    }

    pub fn arg(&self) -> ProblemArg {
        ProblemArg {
            army: self.army.clone(),
            model: self.model.clone(),
        }
    }

    /// The problem's options on a command line, shell-quoted.
    fn args(&self) -> String {
        let which = match (&self.army, &self.model) {
            (Some(name), _) => format!("--army {}", quote(name)),
            (None, Some(path)) => format!("--model {}", quote(&path.display().to_string())),
            (None, None) => String::new(),
        };
        format!("{which} --level {} --size {}", self.level, self.men)
    }
}

/// One job: a case no reduction rules out.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub job: usize,
    pub last_jump: Cell,
    pub case: String,
    pub slack: String,
}

/// `DIR/manifest.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub stamp: Stamp,
    pub problem: Problem,
    pub time_limit: Option<f64>,
    pub cbc: bool,
    pub jobs: Vec<Job>,
}

/// `DIR/results/<I>.json`: one job's log line, stamped.
#[derive(Serialize, Deserialize)]
struct JobResult {
    stamp: Stamp,
    job: usize,
    result: CaseResult,
}

fn manifest_path(dir: &Path) -> PathBuf {
    dir.join("manifest.json")
}

fn result_path(dir: &Path, job: usize) -> PathBuf {
    dir.join("results").join(format!("{job}.json"))
}

/// A word for `sh`: single-quoted unless plainly safe.
fn quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn json<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::failure(e.to_string()))
}

pub fn read_manifest(dir: &Path) -> Result<Manifest, Error> {
    let path = manifest_path(dir);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::failure(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::failure(format!(
            "{}: not a solarmy job manifest: {e}",
            path.display()
        ))
    })
}

/// What a manifest or a result says when its stamp is not the sweep's.
fn stamp_error(path: &Path, theirs: &Stamp, ours: &Stamp) -> Error {
    Error::failure(format!(
        "{}: stamped {}, but this sweep is {}: refused (written by another version or for another problem)",
        path.display(),
        serde_json::to_string(theirs).unwrap_or_default(),
        serde_json::to_string(ours).unwrap_or_default()
    ))
}

/// The manifest of `sweep`, checked against one already in `dir`, if any.
fn manifest(sweep: &Sweep, problem: Problem, time_limit: Option<f64>, cbc: bool) -> Manifest {
    let jobs = sweep
        .remaining()
        .into_iter()
        .enumerate()
        .map(|(i, (d, c))| Job {
            job: i + 1,
            last_jump: d,
            case: c.key(),
            slack: c.slack_sigma.clone(),
        })
        .collect();
    Manifest {
        stamp: sweep.job_stamp(),
        problem,
        time_limit,
        cbc,
        jobs,
    }
}

/// Writes the sweep as jobs into `dir`: the manifest, one command line per case without a
/// result yet, and the Slurm array over those lines. Returns (jobs written, cases).
pub fn emit(
    dir: &Path,
    sweep: &Sweep,
    problem: Problem,
    time_limit: Option<f64>,
    cbc: bool,
    max_cases: usize,
) -> Result<(usize, usize), Error> {
    let dir = std::path::absolute(dir)
        .map_err(|e| Error::failure(format!("cannot resolve {}: {e}", dir.display())))?;
    let m = manifest(sweep, problem, time_limit, cbc);
    if manifest_path(&dir).exists() {
        let old = read_manifest(&dir)?;
        if old.stamp != m.stamp || old.problem != m.problem {
            return Err(stamp_error(&manifest_path(&dir), &old.stamp, &m.stamp));
        }
    }
    let binary = std::env::current_exe()
        .map_err(|e| Error::failure(format!("cannot find the solarmy binary: {e}")))?;
    // A job enumerates the round again: with the cap it was emitted with.
    let mut options = format!(" -q --max-cases {max_cases}");
    if let Some(t) = time_limit {
        options += &format!(" --case-time-limit {t}");
    }
    if cbc {
        options += " --cbc";
    }
    let lines: String = m
        .jobs
        .iter()
        .filter(|j| !settled(&dir, j.job, &m.stamp))
        .map(|j| {
            format!(
                "{} cases {} --run-job {} --case {}{options}\n",
                quote(&binary.display().to_string()),
                m.problem.args(),
                quote(&dir.display().to_string()),
                j.job
            )
        })
        .collect();
    let count = lines.lines().count();
    for sub in ["results", "slurm"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| Error::failure(format!("cannot create {}: {e}", dir.display())))?;
    }
    write_atomic(&manifest_path(&dir), json(&m)?.as_bytes())?;
    write_atomic(&dir.join("jobs.txt"), lines.as_bytes())?;
    write_atomic(
        &dir.join("slurm.sh"),
        slurm_script(&dir, &m, count).as_bytes(),
    )?;
    Ok((count, m.jobs.len()))
}

/// Whether job `job` of `dir` has a result of this sweep that settles its case; one that
/// does not (a time limit, Ctrl-C, another stamp) is run again.
fn settled(dir: &Path, job: usize, stamp: &Stamp) -> bool {
    std::fs::read_to_string(result_path(dir, job))
        .ok()
        .and_then(|t| serde_json::from_str::<JobResult>(&t).ok())
        .is_some_and(|r| {
            r.stamp == *stamp && matches!(r.result.status.as_str(), "infeasible" | "feasible")
        })
}

/// An `sbatch --array` script: task I runs line I of `jobs.txt`.
fn slurm_script(dir: &Path, m: &Manifest, count: usize) -> String {
    let d = quote(&dir.display().to_string());
    let p = &m.problem;
    let name = match &p.army {
        Some(a) => a.clone(),
        None => p
            .model
            .as_ref()
            .and_then(|f| f.file_stem())
            .map_or("model".into(), |s| s.to_string_lossy().into_owned()),
    };
    let array = if count == 0 {
        "# every job has its result: nothing to run (solarmy cases --merge DIR)\nexit 0\n".into()
    } else {
        format!("#SBATCH --array=1-{count}\n")
    };
    format!(
        "#!/bin/bash
# {name} level {}, {} men: one case per array task, line $SLURM_ARRAY_TASK_ID of jobs.txt.
# Written by solarmy cases --emit-jobs; submit with: sbatch {d}/slurm.sh
# then complete the round with: solarmy cases --merge {d}
#SBATCH --job-name=solarmy-{name}-{}-{}
#SBATCH --cpus-per-task=1
#SBATCH --output={raw}/slurm/%A_%a.out
{array}set -euo pipefail
line=$(sed -n \"${{SLURM_ARRAY_TASK_ID}}p\" {d}/jobs.txt)
exec bash -c \"$line\"
",
        p.level,
        p.men,
        p.level,
        p.men,
        // sbatch reads its directives without a shell: the path as it is.
        raw = dir.display()
    )
}

/// Runs job `job` of `dir` on `sweep` (built from the same problem) and writes its result
/// atomically. Returns the exit code: 0 when the case is settled, 3 when it is not (a time
/// limit, Ctrl-C, an unorderable solution).
pub fn run(dir: &Path, sweep: &Sweep, job: usize, time_limit: Option<f64>) -> Result<u8, Error> {
    let m = read_manifest(dir)?;
    if m.stamp != sweep.job_stamp() {
        return Err(stamp_error(
            &manifest_path(dir),
            &m.stamp,
            &sweep.job_stamp(),
        ));
    }
    let Some(want) = job.checked_sub(1).and_then(|i| m.jobs.get(i)) else {
        return Err(Error::usage(format!(
            "--case {job}: the sweep of {} has jobs 1 to {}",
            dir.display(),
            m.jobs.len()
        )));
    };
    let (d, c) = sweep.remaining()[job - 1];
    if (d, c.key()) != (want.last_jump, want.case.clone()) {
        return Err(Error::failure(format!(
            "{}: job {job} is case {} there but {} here",
            manifest_path(dir).display(),
            want.case,
            c.key()
        )));
    }
    let result = sweep.solve_job(job, time_limit)?;
    let settled = matches!(result.status.as_str(), "infeasible" | "feasible");
    let out = JobResult {
        stamp: m.stamp,
        job,
        result,
    };
    write_atomic(&result_path(dir, job), json(&out)?.as_bytes())?;
    Ok(if settled { 0 } else { 3 })
}

/// Refuses `--run-job DIR` for another problem than DIR's sweep, before the cheap tests
/// could answer that other problem instead (a job line names its problem; one edited or
/// typed by hand may not).
pub fn same_problem(dir: &Path, ours: &Problem) -> Result<(), Error> {
    let theirs = read_manifest(dir)?.problem;
    if &theirs == ours {
        return Ok(());
    }
    // A refused stamp's exit (1), as for a manifest of another version.
    Err(Error::failure(format!(
        "{}: the sweep of --run-job is {}, but this command line says {}: refused",
        manifest_path(dir).display(),
        theirs.args(),
        ours.args()
    )))
}

/// The results of `dir`'s jobs, each stamped for its manifest (else refused, naming the
/// file), and the jobs without a result.
pub fn results(dir: &Path, m: &Manifest) -> Result<(Vec<CaseResult>, Vec<usize>), Error> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for want in &m.jobs {
        let path = result_path(dir, want.job);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(want.job);
                continue;
            }
            Err(e) => {
                return Err(Error::failure(format!(
                    "cannot read {}: {e}",
                    path.display()
                )));
            }
        };
        let r: JobResult = serde_json::from_str(&text).map_err(|e| {
            Error::failure(format!("{}: not a solarmy job result: {e}", path.display()))
        })?;
        if r.stamp != m.stamp {
            return Err(stamp_error(&path, &r.stamp, &m.stamp));
        }
        if r.job != want.job || (r.result.last_jump, &r.result.case) != (want.last_jump, &want.case)
        {
            return Err(Error::failure(format!(
                "{}: the result of case {} (last jump {:?}), but job {} is case {}",
                path.display(),
                r.result.case,
                r.result.last_jump,
                want.job,
                want.case
            )));
        }
        found.push(r.result);
    }
    Ok((found, missing))
}

/// Seeds `sweep` (built from the manifest's problem) with the results of `dir`'s jobs, for a
/// merge that solves nothing itself. Returns the jobs without a result.
pub fn seed(dir: &Path, m: &Manifest, sweep: &mut Sweep) -> Result<Vec<usize>, Error> {
    if m.stamp != sweep.job_stamp() {
        return Err(stamp_error(
            &manifest_path(dir),
            &m.stamp,
            &sweep.job_stamp(),
        ));
    }
    let (found, missing) = results(dir, m)?;
    sweep.seed = found;
    sweep.solve_open = false;
    Ok(missing)
}

/// One line on stderr naming the jobs a merge found no result for.
pub fn report_missing(dir: &Path, m: &Manifest, missing: &[usize]) {
    if missing.is_empty() {
        return;
    }
    let list: Vec<String> = missing.iter().map(|j| j.to_string()).collect();
    eprintln!(
        "solarmy: {} of {} jobs have no result in {}: {} (their cases are open; run them and merge again)",
        missing.len(),
        m.jobs.len(),
        dir.join("results").display(),
        list.join(", ")
    );
}
