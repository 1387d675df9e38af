//! `solarmy check`: re-verifies proof files with the separate checker
//! ([`crate::proof::check`]), one line (or one JSON object) per file, and with `--vipr DIR`
//! writes each certified program as a VIPR file (with `--vipr-unsolved`, each uncertified
//! one as its problem alone).

use crate::cli::args::{CheckArgs, Error, check_cbc, check_writable, emitln};
use crate::cli::check_stop::Stop;
use crate::cli::envelope;
use crate::cli::plural;
use crate::proof::check::{Options, Summary};
use crate::proof::format::Proof;
use serde_json::json;
use std::path::Path;

/// Re-verifies proof files; exit 0 only if every step of every file holds.
pub fn check(a: &CheckArgs) -> Result<u8, Error> {
    check_cbc(a.cbc)?;
    let mut opts = options(a)?;
    if let Some(dir) = &a.vipr {
        check_writable(dir)?;
    }
    if let Some(dir) = &a.work {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::usage(format!(
                "--work {}: not a directory",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::usage(format!("--work {}: {e}", dir.display())))?;
        check_writable(dir)?;
    }
    // Several files: a bar of the files checked, the one under way its message. The
    // checker's own displays (a file's solver calls, its levels) are then off, since two
    // bars would draw over each other's line.
    let n = a.files.len();
    let bar = crate::search::progress::bar(a.display.progress() && n > 1, n, "files");
    opts.progress &= bar.is_none();
    let stop = Stop::start(&a.files, a.time_limit, a.json);
    stop.on_interrupt(&a.files, a.json);
    for path in &a.files {
        if let Some(pb) = &bar {
            pb.set_message(path.display().to_string());
        }
        check_file(a, &opts, path, (&stop, bar.as_ref()))?;
        bar.iter().for_each(|pb| pb.inc(1));
    }
    drop(bar);
    let mut p = stop.lock();
    p.done = true;
    Ok(if p.failed > 0 { 1 } else { 0 })
}

/// The checker's options, from the command line.
fn options(a: &CheckArgs) -> Result<Options, Error> {
    Ok(Options {
        certificates_only: a.certificates_only,
        time_limit: a.program_time_limit,
        jobs: a.jobs as usize,
        cbc: a.cbc,
        // CBC in a process per call: libcbc's globals make parallel calls in one process
        // unsafe, and a crash then costs one verdict, not the check.
        cbc_process: match a.cbc {
            true => Some(std::env::current_exe().map_err(|e| {
                Error::failure(format!("cannot find this executable to run CBC in: {e}"))
            })?),
            false => None,
        },
        progress: a.display.progress(),
        expected: a.expected()?,
        work: a.work.as_ref().map(|dir| crate::proof::outcore::Work {
            dir: dir.clone(),
            memory: a
                .memory
                .unwrap_or_else(crate::play::peg::fewest::half_the_machine),
            parts: a.parts as usize,
            log: a.display.verbose,
        }),
        cbc_record: match &a.cbc_record {
            Some(p) => Some(std::sync::Arc::new(
                crate::proof::check::Record::open(p)
                    .map_err(|e| Error::failure(format!("{}: {e}", p.display())))?,
            )),
            None => None,
        },
    })
}

/// Checks one file and reports it (the line printed and the file counted under `stop`'s
/// lock, so that a time limit neither cuts the line nor reports the file again; printed
/// with the files' bar, when there is one, off the screen).
fn check_file(
    a: &CheckArgs,
    opts: &Options,
    path: &Path,
    (stop, bar): (&Stop, Option<&indicatif::ProgressBar>),
) -> Result<(), Error> {
    let t0 = std::time::Instant::now();
    // A read error names the file itself; a failing step does not.
    let (mut result, names_file, proof) = match Proof::read(path) {
        Err(e) => (Err(e.to_string()), true, None),
        Ok(p) => {
            stop.lock().problem = Some(envelope::of_proof(&p, None));
            (
                crate::proof::check::check(&p, opts).map_err(|e| e.to_string()),
                false,
                Some(p),
            )
        }
    };
    let mut vipr = None;
    if let (Some(dir), Ok(s), Some(p)) = (&a.vipr, &result, &proof) {
        let stem = crate::proof::vipr::stem(path);
        match crate::proof::vipr::export(p, s, dir, (&stem, a.vipr_unsolved)) {
            Ok(v) => vipr = Some(v),
            Err(e) => result = Err(format!("VIPR export: {e}")),
        }
    }
    let mut p = stop.lock();
    let report = || report_file(a, path, (&result, names_file), proof.as_ref(), &vipr, t0);
    let shown = match bar {
        Some(pb) => pb.suspend(report),
        None => report(),
    };
    p.failed += result.is_err() as usize;
    p.next += 1;
    p.problem = None;
    p.started = std::time::Instant::now();
    shown
}

/// One file's line: its JSON object, or its line of text (a failure's on stderr).
fn report_file(
    a: &CheckArgs,
    path: &Path,
    (result, names_file): (&Result<Summary, String>, bool),
    proof: Option<&Proof>,
    vipr: &Option<crate::proof::vipr::Exported>,
    t0: std::time::Instant,
) -> Result<(), Error> {
    if a.json {
        let problem = proof.map(|p| envelope::of_proof(p, result.as_ref().ok()));
        let mut line = match &result {
            Ok(s) => {
                // `army` holds men in every command's JSON; the proof's name is `problem`'s.
                let mut s = json!(s);
                s.as_object_mut().map(|o| o.remove("army"));
                json!({"file": path, "ok": true, "summary": s})
            }
            Err(e) => json!({"file": path, "ok": false, "error": e}),
        };
        if let Some(v) = vipr {
            line["vipr"] = json!(v);
        }
        let status = if result.is_ok() { "holds" } else { "fails" };
        let seconds = t0.elapsed().as_secs_f64();
        envelope::wrap(&mut line, problem.unwrap_or(json!(null)), status, seconds);
        return emitln(&line.to_string());
    }
    match result {
        Ok(s) => {
            emitln(&check_line(path, s))?;
            if let (Some(v), Some(dir)) = (vipr, &a.vipr) {
                emitln(&format!("{}: {}", path.display(), v.describe(dir)))?;
            }
        }
        Err(e) if names_file => eprintln!("solarmy: {e}"),
        Err(e) => eprintln!("solarmy: {}: {e}", path.display()),
    }
    Ok(())
}

/// One file's summary for people: what was proven, on what, and what CBC said.
fn check_line(path: &Path, s: &Summary) -> String {
    let cbc = s.cbc.as_ref().map_or(String::new(), |c| {
        let open = c
            .cbc_no_verdict_at
            .iter()
            .map(|a| format!("; no verdict at {a}"));
        format!(
            "; CBC confirmed {} of {} ({} no verdict), {:.2} s, slowest {:.2} s{}",
            c.cbc_confirmed,
            s.ips,
            c.cbc_no_verdict,
            c.cbc_seconds,
            c.cbc_max_seconds,
            open.collect::<String>()
        )
    });
    // A board problem has no level, rounds or cases: its claim names the vacancy and finish.
    let (what, split) = if s.board {
        (format!("{} {}", s.army, s.claim), String::new())
    } else {
        let split = format!(
            "{}, {}, ",
            plural(s.rounds, "round"),
            plural(s.cases, "case")
        );
        (format!("{} {}: {}", s.army, s.level, s.claim), split)
    };
    let problem = format!(
        "problem {}{}",
        crate::problem::fingerprint::short(&s.fingerprint),
        if s.fingerprint_recorded {
            ""
        } else {
            ", not recorded in the proof"
        }
    );
    format!(
        "{}: {what} {} ({problem}): {} steps, {split}{}, {:.2} s{cbc}",
        path.display(),
        proven_word(s),
        s.steps,
        programs_phrase(s.ips, s.certified),
        s.seconds
    )
}

/// "proven", or what part of it rests on a floating-point solver's word.
pub fn proven_word(s: &Summary) -> String {
    match s.solver_only {
        0 => "proven".into(),
        n => format!(
            "proven, {n} of {} integer programs resting on HiGHS (no exact certificate)",
            s.ips
        ),
    }
}

/// "3 integer programs (exact: 3/3)", with the plural right.
fn programs_phrase(ips: usize, certified: usize) -> String {
    match ips {
        0 => "no integer program".into(),
        1 => format!("1 integer program (exact: {certified}/1)"),
        n => format!("{n} integer programs (exact: {certified}/{n})"),
    }
}
