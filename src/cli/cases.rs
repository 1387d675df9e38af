//! `solarmy cases`: armies of K men split into cases by exponent profile, the cases the
//! cheap tests leave listed, and with `--solve DIR` each solved; `--emit-jobs`, `--run-job`
//! and `--merge` run the same sweep as independent jobs ([`crate::cli::jobs`]).

use crate::cli::args::{
    CasesArgs, Error, ProblemArg, check_cbc, check_writable, emit, emitln,
    install_interrupt_handler, parse_level,
};
use crate::cli::{envelope, output_paths, write_outputs_as};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// The start cells the pagoda window holds, up to the exponent the case enumeration may
/// enter, for the last jump d: more men than this cannot be split into cases.
fn window_capacity(pagoda: &Pagoda, level: i32) -> (u64, i32) {
    let profile = pagoda.start_profile(level);
    let cap = pagoda.trusted_exponent() - 8;
    ((0..=cap).map(|e| profile.count(e)).sum(), cap)
}

/// Last jumps ruled out by weight (with the heaviest weight), and why the enumeration stopped.
type Screened = (Vec<(Cell, Golden)>, Option<String>);

/// What `cases` checks before it builds the sweep: that the pagoda window holds `size` men
/// (else a usage error), which last jumps no army of `size` men is heavy enough for (with
/// the heaviest army's weight), and whether the enumeration of the others stops at its
/// case cap or node budget (why, in one line). The enumeration is bounded in memory by
/// `max_cases`, so a size far above the minimum stops here rather than in the sweep.
fn screen(army: Army, level: i32, size: u64, max_cases: usize) -> Result<Screened, Error> {
    let lattice = army.lattice();
    let mut light = Vec::new();
    for d in lattice.last_jump_directions() {
        let pagoda = Pagoda::improved(&lattice, d);
        let (room, top) = window_capacity(&pagoda, level);
        if size > room {
            return Err(Error::usage(format!(
                "--size {size}: more men than the start cells up to exponent {top} hold ({room}), the most solarmy's pagoda window can split into cases"
            )));
        }
        let profile = pagoda.start_profile(level);
        let (_, heaviest) = profile.heaviest(size);
        if heaviest < Golden::ONE {
            light.push((d, heaviest));
            continue;
        }
        let all = crate::reduce::cases::enumerate_capped(
            &profile,
            size,
            Golden::ONE,
            &[1, 2],
            top,
            crate::reduce::cases::BUDGET,
            max_cases,
            crate::weight::pagoda::sharper_profile(army, d, level).as_ref(),
        );
        let why = match all.stopped {
            Some(crate::reduce::cases::Stop::Cases) => format!("{max_cases} cases (--max-cases)"),
            Some(crate::reduce::cases::Stop::Nodes) => {
                format!("{} nodes (its node budget)", crate::reduce::cases::BUDGET)
            }
            None => continue,
        };
        return Ok((
            light,
            Some(format!(
                "the enumeration stopped at {why} for the last jump over {d:?}: armies of {size} men, far above the minimum, have too many profiles to list"
            )),
        ));
    }
    Ok((light, None))
}

/// The problem, level and size of a `cases` call: from the command line, or from the
/// manifest of the jobs being merged.
fn cases_problem(
    a: &CasesArgs,
    manifest: Option<&crate::cli::jobs::Manifest>,
) -> Result<(ProblemArg, i32, u64), Error> {
    Ok(match manifest {
        Some(m) => (m.problem.arg(), m.problem.level, m.problem.men),
        None => (
            ProblemArg {
                army: a.army.clone(),
                model: a.model.clone(),
            },
            parse_level(a.level.as_deref().unwrap_or_default())?,
            a.size.unwrap_or_default(),
        ),
    })
}

/// The last jumps ruled out by weight alone, as JSON entries and as lines of text.
fn light_report(
    army: Army,
    level: i32,
    size: u64,
    light: &[(Cell, Golden)],
) -> (Vec<serde_json::Value>, String) {
    let entries = light
        .iter()
        .map(|(d, w)| json!({"last_jump": d, "heaviest_weight": w.to_string(), "heaviest_weight_value": w.to_f64()}))
        .collect();
    let lines = light
        .iter()
        .map(|(d, w)| {
            format!(
                "{army} army, level {level}, {size} men, last jump over {d:?}: ruled out by weight: the heaviest {size} men weigh {w} ≈ {:.6} < 1\n",
                w.to_f64()
            )
        })
        .collect();
    (entries, lines)
}

/// What the cheap tests say of a `cases` call before any case is listed.
enum CasesScreen {
    /// Answered already (impossible level, or every last jump ruled out by weight).
    Answered(u8),
    /// Cases to list: the last jumps ruled out by weight, as JSON and as text.
    Cases(Vec<serde_json::Value>, String),
}

/// The impossibility test and the weight screen of every last jump, reported when they
/// answer the call; a screen stopped by its case cap is exit 3.
fn screen_cases(
    a: &CasesArgs,
    (army, level, size): (Army, i32, u64),
    cbc: bool,
    object: Report,
) -> Result<CasesScreen, Error> {
    if let Some(reason) = crate::weight::pagoda::impossibility_reason(army, level) {
        object(json!({"status": "impossible", "reason": reason}))?;
        if !a.json {
            emitln(&format!("impossible: {reason}"))?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    check_cbc(cbc)?;
    let (light, stopped) = screen(army, level, size, a.max_cases)?;
    let (light_json, light_lines) = light_report(army, level, size, &light);
    if let Some(why) = stopped {
        object(json!({"status": "stopped", "reason": why}))?;
        return Err(Error {
            code: 3,
            message: why,
        });
    }
    if light.len() == army.lattice().last_jump_directions().len() {
        object(json!({"status": "ruled_out_by_weight", "ruled_out_by_weight": light_json}))?;
        if !a.json {
            emit(&light_lines)?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    Ok(CasesScreen::Cases(light_json, light_lines))
}

/// Reports the answer as JSON: printed with `--json`, written with `--out DIR`.
type Report<'a> = &'a dyn Fn(serde_json::Value) -> Result<(), Error>;

/// The answer as JSON, with the envelope (its status is the fields' own): printed with
/// --json, written to DIR/<army>-<level>-<K>men-cases.json with --out DIR (checked writable
/// here, before any work).
fn reporter(
    a: &CasesArgs,
    army: Army,
    level: i32,
    size: u64,
) -> Result<impl Fn(serde_json::Value) -> Result<(), Error>, Error> {
    let t0 = std::time::Instant::now();
    let head = json!({"level": level, "men": size});
    let saved = a
        .out
        .as_ref()
        .map(|dir| dir.join(format!("{army}-{level}-{size}men-cases.json")));
    crate::cli::args::check_parent_writable(saved.as_deref())?;
    let json = a.json;
    Ok(move |extra: serde_json::Value| {
        let mut v = head.clone();
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        let seconds = t0.elapsed().as_secs_f64();
        envelope::wrap(&mut v, envelope::army(army, level), "cases", seconds);
        if let Some(path) = &saved {
            crate::files::write_atomic(path, format!("{v}\n").as_bytes())?;
        }
        match json {
            true => emitln(&v.to_string()),
            false => Ok(()),
        }
    })
}

/// `solarmy cases`.
pub fn cases(a: &CasesArgs) -> Result<u8, Error> {
    let t0 = Instant::now();
    let manifest = a
        .merge
        .as_deref()
        .map(crate::cli::jobs::read_manifest)
        .transpose()?;
    let (problem, level, size) = cases_problem(a, manifest.as_ref())?;
    let army = problem.army()?;
    if let Some(dir) = &a.run_job {
        let ours = crate::cli::jobs::Problem::new(&problem, level, size)?;
        crate::cli::jobs::same_problem(dir, &ours)?;
    }
    let object = reporter(a, army, level, size)?;
    let cbc = manifest.as_ref().map_or(a.cbc, |m| m.cbc);
    let (light_json, light_lines) = match screen_cases(a, (army, level, size), cbc, &object)? {
        CasesScreen::Answered(code) => return Ok(code),
        CasesScreen::Cases(json, lines) => (json, lines),
    };
    let solve_dir = a.solve.as_ref().or(a.merge.as_ref());
    if let Some(dir) = solve_dir.or(a.emit_jobs.as_ref()) {
        check_writable(dir)?;
    }
    install_interrupt_handler();
    let mut sweep = crate::search::sweep::Sweep::new(army, level, size);
    sweep.second_opinion = cbc;
    sweep.jobs = a.jobs as usize;
    if let (Some(dir), Some(job)) = (&a.run_job, a.case) {
        // A job is one case: the whole command's limit and the case's are one.
        let limit = match (a.case_time_limit, left(a, t0)) {
            (Some(c), Some(l)) => Some(c.min(l)),
            (c, l) => c.or(l),
        };
        return crate::cli::jobs::run(dir, &sweep, job, limit);
    }
    if let Some(dir) = &a.emit_jobs {
        let problem = crate::cli::jobs::Problem::new(&problem, level, size)?;
        return emit_jobs(dir, &sweep, problem, a, &object);
    }
    let missing = match (&manifest, &a.merge) {
        (Some(m), Some(dir)) => crate::cli::jobs::seed(dir, m, &mut sweep)?,
        _ => Vec::new(),
    };
    let complete = sweep.families.iter().all(|f| f.complete);
    let fields = json!({
        "status": "cases",
        "ruled_out_by_weight": light_json,
        "enumeration_complete": complete,
        "families": sweep.families,
        "solved": solve_dir.is_some(),
    });
    if !a.json {
        emit(&light_lines)?;
        emit(&sweep.table())?;
    }
    if !complete {
        eprintln!(
            "solarmy: the enumeration was cut at its exponent cap: the cases are not proven to cover every army of {size} men"
        );
    }
    let Some(dir) = solve_dir else {
        object(fields)?;
        return Ok(0);
    };
    let merged = manifest.as_ref().zip(a.merge.as_deref());
    let after = || {
        if let Some((m, dir)) = merged {
            crate::cli::jobs::report_missing(dir, m, &missing);
        }
    };
    solve_cases(a, &mut sweep, (dir, t0), fields, (&object, &after))
}

/// The seconds left of the whole command's `--time-limit`, counted from `t0`; None without
/// one.
fn left(a: &CasesArgs, t0: Instant) -> Option<f64> {
    a.time_limit
        .map(|t| (t - t0.elapsed().as_secs_f64()).max(0.0))
}

/// Why a sweep left cases open, when the whole command was stopped: `interrupted` (Ctrl-C)
/// or `time_limit` (its `--time-limit` has passed); None when it was not.
fn stopped(
    a: &CasesArgs,
    t0: Instant,
    report: &crate::search::sweep::Report,
) -> Option<&'static str> {
    if report.complete {
        None
    } else if crate::ip::solve::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
        Some("interrupted")
    } else if left(a, t0).is_some_and(|l| l < 0.01) {
        Some("time_limit")
    } else {
        None
    }
}

/// Solves the sweep's cases into `dir` (or completes a merge; `after` then names the jobs
/// without a result) and reports: JSON with the counts and the army's files, or the
/// summary; the army's CSV files when one is found.
fn solve_cases(
    a: &CasesArgs,
    sweep: &mut crate::search::sweep::Sweep,
    (dir, t0): (&Path, Instant),
    mut fields: serde_json::Value,
    (object, after): (Report, &dyn Fn()),
) -> Result<u8, Error> {
    sweep.verbose = a.display.verbose;
    sweep.case_time_limit = a.case_time_limit;
    let report = sweep.solve(dir, left(a, t0), a.display.progress())?;
    after();
    let stop = stopped(a, t0, &report);
    if let Some(status) = stop {
        fields["status"] = json!(status);
    }
    let stem = format!("{}-{}-{}men", sweep.army, sweep.level, sweep.men);
    let files = report.found.as_ref().map(|_| output_paths(dir, &stem));
    if let Some(o) = fields.as_object_mut() {
        if let Ok(serde_json::Value::Object(r)) = serde_json::to_value(&report) {
            o.extend(r);
        }
        for (name, n) in report.counts() {
            o.insert(name.into(), json!(n));
        }
        o.insert(
            "army_csv".into(),
            json!(files.as_ref().map(|f| f.0.display().to_string())),
        );
        o.insert(
            "play_csv".into(),
            json!(files.as_ref().map(|f| f.1.display().to_string())),
        );
        // The army a feasible case found, and its play, inline.
        let found = report.found.as_ref();
        o.insert("army".into(), json!(found.map(|f| &f.army_cells)));
        o.insert("play".into(), json!(found.map(|f| &f.play)));
    }
    let shown = object(fields).and_then(|()| match a.json {
        true => Ok(()),
        false => emitln(&report.summary()).and_then(|()| match (stop, a.time_limit) {
            (Some("time_limit"), Some(t)) => emitln(&format!(
                "stopped by --time-limit after {t} s: the cases not settled stay open"
            )),
            _ => Ok(()),
        }),
    });
    if let Some(found) = &report.found {
        write_outputs_as(dir, &stem, found, false)?;
        if let (false, Ok(()), Some(f)) = (a.json, &shown, &files) {
            emitln(&format!("wrote {} and {}", f.0.display(), f.1.display()))?;
        }
    }
    shown?;
    Ok(if report.complete { 0 } else { 3 })
}

/// `cases --emit-jobs DIR`: the sweep written down as jobs, and what to do with them.
fn emit_jobs(
    dir: &Path,
    sweep: &crate::search::sweep::Sweep,
    problem: crate::cli::jobs::Problem,
    a: &CasesArgs,
    object: Report,
) -> Result<u8, Error> {
    let (jobs, cases) =
        crate::cli::jobs::emit(dir, sweep, problem, a.case_time_limit, a.cbc, a.max_cases)?;
    let d = dir.display();
    object(json!({"status": "jobs", "jobs": jobs, "cases": cases, "dir": d.to_string()}))?;
    if !a.json {
        emitln(&format!(
            "{jobs} jobs ({cases} cases to solve) in {d}/jobs.txt and {d}/slurm.sh; run them with
  parallel --joblog {d}/joblog --resume < {d}/jobs.txt
or
  sbatch --wait {d}/slurm.sh
then: solarmy cases --merge {d}"
        ))?;
    }
    Ok(0)
}
