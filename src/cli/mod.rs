//! The commands behind `solarmy`: each command's work, on the vocabulary of [`args`].
//!
//! Input is checked once, in [`args`], so every command rejects an unknown army or a level below 1
//! with one line, before any work starts. Errors carry their exit code ([`Error`]): 2 for a
//! bad command line, 1 for any other failure. Inside this folder the order is: [`args`], then
//! [`moves_args`], [`moves_levels`], [`catalog_moves`], [`board`], [`moves_board`], [`moves`],
//! [`certify`], [`count`], [`jobs`], [`pagoda`], and this file on top.

// The doc comments of the argument types are clap's help texts, printed as written:
// their <placeholders> are for the terminal, not HTML.
#![allow(rustdoc::invalid_html_tags)]

/// `print!` through [`args::out`]: a closed standard output is no panic. Defined before the
/// modules of this folder, which use it (and `outln!`) by name.
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::args::out(&format!($($t)*)) };
}

/// `println!` through [`args::out`].
macro_rules! outln {
    ($($t:tt)*) => { $crate::cli::args::out(&format!("{}\n", format_args!($($t)*))) };
}

pub mod args;
pub mod board;
pub mod catalog_moves;
pub mod certify;
pub mod count;
pub mod jobs;
pub mod moves;
pub mod moves_args;
pub mod moves_board;
pub mod moves_levels;
pub mod moves_state;
pub mod pagoda;

use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::report::bounds;
use crate::report::export;
use crate::report::render;
use crate::search::find::{self, FindReport};
use crate::search::minimum::{self, Outcome, Request, Status};
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
pub use args::*;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Re-verifies proof files; exit 0 only if every step of every file holds.
pub fn check(a: &CheckArgs) -> Result<u8, Error> {
    check_cbc(a.cbc)?;
    let opts = crate::proof::check::Options {
        certificates_only: a.certificates_only,
        time_limit: a.time_limit,
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
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        expected: a.expected()?,
        cbc_record: match &a.cbc_record {
            Some(p) => Some(std::sync::Arc::new(
                crate::proof::check::Record::open(p)
                    .map_err(|e| Error::failure(format!("{}: {e}", p.display())))?,
            )),
            None => None,
        },
    };
    if let Some(dir) = &a.vipr {
        check_writable(dir)?;
    }
    let mut failed = 0;
    for path in &a.files {
        // A read error names the file itself; a failing step does not.
        let (mut result, names_file, proof) = match crate::proof::format::Proof::read(path) {
            Err(e) => (Err(e.to_string()), true, None),
            Ok(p) => (
                crate::proof::check::check(&p, &opts).map_err(|e| e.to_string()),
                false,
                Some(p),
            ),
        };
        let mut vipr = None;
        if let (Some(dir), Ok(s), Some(p)) = (&a.vipr, &result, &proof) {
            let stem = crate::proof::vipr::stem(path);
            match crate::proof::vipr::export(p, s, dir, &stem) {
                Ok(v) => vipr = Some(v),
                Err(e) => result = Err(format!("VIPR export: {e}")),
            }
        }
        match (&result, a.json) {
            (Ok(s), true) => {
                let mut line = json!({"file": path, "ok": true, "summary": s});
                if let Some(v) = &vipr {
                    line["vipr"] = json!(v);
                }
                emitln(&line.to_string())?
            }
            (Err(e), true) => emitln(&json!({"file": path, "ok": false, "error": e}).to_string())?,
            (Ok(s), false) => {
                emitln(&check_line(path, s))?;
                if let (Some(v), Some(dir)) = (&vipr, &a.vipr) {
                    emitln(&format!("{}: {}", path.display(), v.describe(dir)))?;
                }
            }
            (Err(e), false) if names_file => eprintln!("solarmy: {e}"),
            (Err(e), false) => eprintln!("solarmy: {}: {e}", path.display()),
        }
        failed += result.is_err() as usize;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// One file's summary for people: what was proven, on what, and what CBC said.
fn check_line(path: &Path, s: &crate::proof::check::Summary) -> String {
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

/// "1 round", "3 rounds".
pub fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// "proven", or what part of it rests on a floating-point solver's word.
pub fn proven_word(s: &crate::proof::check::Summary) -> String {
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

pub fn solve(a: &SolveArgs) -> Result<u8, Error> {
    if a.vacancy.is_some() || crate::cli::args::is_board(&a.problem) {
        return crate::cli::board::solve(a);
    }
    let army = a.problem.army()?;
    let level = parse_level(a.level.as_deref().unwrap_or_default())?;
    check_cbc(a.cbc)?;
    if let Some(dir) = &a.out {
        check_writable(dir)?;
    }
    crate::cli::args::check_parent_writable(a.write_model.as_deref())?;
    if let Some(path) = &a.write_model {
        crate::ip::solve::check_model_path(path)?;
    }
    crate::cli::args::check_parent_writable(a.proof.as_deref())?;
    install_interrupt_handler();
    let req = Request {
        time_limit: a.time_limit,
        progress: a.display.progress(),
        stability_margin: 2,
        write_model: a.write_model.clone(),
        direct_budget: Some(a.direct_budget),
        case_dir: a.out.clone(),
        second_opinion: a.cbc,
        jobs: a.jobs as usize,
        verbose: a.display.verbose,
        ..Request::new(army, level)
    };
    let (out, find) = climb_after_find(req, a.find)?;
    // The answer first, then the files: a file that cannot be written never hides it.
    let files = match (&a.out, out.verified) {
        (Some(dir), true) => Some(output_paths(dir, &format!("{}-{}", out.army, out.level))),
        _ => None,
    };
    let shown = if a.json {
        let mut v = outcome_json(&out, files.as_ref());
        if let Some(f) = &find {
            v["find"] = find_json(f);
        }
        emitln(&v.to_string())
    } else {
        print_summary(&out, find.as_ref()).and_then(|()| match a.show && out.verified {
            true => emit(&crate::report::text::show_army(
                &out.army.lattice(),
                &out.army_cells,
                &out.play,
            )),
            false => Ok(()),
        })
    };
    // Written even when standard output has gone: the files were asked for.
    if let (Some(dir), Some(_)) = (&a.out, &files) {
        write_outputs(dir, &out)?;
    }
    if let Some(path) = &a.proof {
        write_proof(path, &out)?;
    }
    shown?;
    if let (Some(f), false) = (&files, a.json) {
        emitln(&format!("wrote {} and {}", f.0.display(), f.1.display()))?;
    }
    Ok(match out.status {
        Status::Optimal | Status::Impossible => 0,
        Status::Open | Status::TimeLimit | Status::Interrupted => 3,
    })
}

/// The climb, after the search for an army when `find` asks for one: that search takes up
/// to `find` seconds of the time limit, and the climb the rest, capped by its army.
fn climb_after_find(
    mut req: Request,
    find: Option<f64>,
) -> Result<(Outcome, Option<FindReport>), Error> {
    let Some(secs) = find else {
        return Ok((minimum::find_minimum(&req)?, None));
    };
    let report = find::find_army(&req, req.time_limit.map_or(secs, |t| t.min(secs)))?;
    req.time_limit = req.time_limit.map(|t| (t - report.seconds).max(0.0));
    req.incumbent = report.found.clone();
    let mut out = minimum::find_minimum(&req)?;
    out.seconds += report.seconds;
    Ok((out, Some(report)))
}

/// What the search for an army did, for `--json`.
fn find_json(f: &FindReport) -> serde_json::Value {
    json!({
        "men": f.found.as_ref().map(|a| a.men()),
        "last_jump": f.found.as_ref().map(|a| a.last_jump),
        "cells": f.found.as_ref().map(|a| a.cells),
        "jumps": f.found.as_ref().map(|a| a.jumps),
        "programs": f.programs,
        "unorderable": f.unorderable,
        "seconds": f.seconds,
    })
}

/// Writes the proof of an answer; says on stderr what it lacks when it is incomplete.
fn write_proof(path: &std::path::Path, out: &Outcome) -> Result<(), crate::error::Error> {
    let Some(proof) = out.proof() else {
        eprintln!(
            "solarmy: no proof written: the answer is {}",
            out.status.as_str()
        );
        return Ok(());
    };
    if !out.proof_complete || out.status != Status::Optimal && out.status != Status::Impossible {
        eprintln!(
            "solarmy: the proof in {} is incomplete: a board was not proven or a round is open",
            path.display()
        );
    }
    crate::files::write_atomic(path, &proof.to_bytes(path)?)
}

/// The army and play CSV files `write_outputs` writes for `stem` in `dir`.
pub fn output_paths(dir: &Path, stem: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{stem}-army.csv")),
        dir.join(format!("{stem}-play.csv")),
    )
}

/// Writes `solve`'s files for `out`: DIR/<army>-<level>-army.csv|svg and -play.csv|svg;
/// returns the CSV paths.
pub fn write_outputs(dir: &Path, out: &Outcome) -> Result<(PathBuf, PathBuf), String> {
    write_outputs_as(dir, &format!("{}-{}", out.army, out.level), out, true)
}

/// Writes the army and play as CSV and SVG, DIR/<stem>-army.csv|svg and -play.csv|svg; returns
/// the CSV paths. `minimum` marks the caption. A failure names the file; no partial file is
/// left (each is written to a temporary file and renamed into place).
pub fn write_outputs_as(
    dir: &Path,
    stem: &str,
    out: &Outcome,
    minimum: bool,
) -> Result<(PathBuf, PathBuf), String> {
    let (army, play) = output_paths(dir, stem);
    crate::files::write_atomic(
        &army,
        export::army_csv(&out.army_cells, out.army.problem().spec.dimension).as_bytes(),
    )?;
    crate::files::write_atomic(
        &play,
        export::play_csv(&out.play, out.army.problem().spec.dimension).as_bytes(),
    )?;
    let lattice = out.army.lattice();
    let pagoda = Pagoda::improved(&lattice, out.last_jump.unwrap_or(lattice.directions[0]));
    let caption = format!(
        "{} army, level {}: {} men{}",
        out.army,
        out.level,
        out.army_cells.len(),
        if minimum && out.status == Status::Optimal {
            " (minimum)"
        } else {
            ""
        }
    );
    let svg = render::army_svg(
        &lattice,
        &pagoda,
        out.level,
        &out.army_cells,
        &out.play,
        &caption,
    );
    crate::files::write_atomic(&dir.join(format!("{stem}-army.svg")), svg.as_bytes())?;
    // The step-by-step viewer draws the plane; a 3-D play is drawn layer by layer instead.
    if lattice.dimension() == 2 {
        let html =
            crate::report::viewer::html(out.army, out.level, &out.army_cells, &out.play, &caption);
        crate::files::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())?;
    }
    let caption = format!("{caption}, {} jumps in {} moves", out.play.len(), out.moves);
    let svg = render::play_svg(
        &lattice,
        &pagoda,
        out.level,
        &out.army_cells,
        &out.play,
        &caption,
    );
    crate::files::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())?;
    Ok((army, play))
}

pub fn outcome_json(out: &Outcome, files: Option<&(PathBuf, PathBuf)>) -> serde_json::Value {
    let mut v = json!({
        "army": out.army.name(),
        "fingerprint": out.army.problem().fingerprint(),
        "level": out.level,
        "status": out.status.as_str(),
        "min_size": out.min_size,
        // The verified army reported, proven minimal only when the status is optimal.
        "best_size": out.verified.then_some(out.army_cells.len()),
        "lower_bound": out.lower_bound,
        "pagoda_bound": out.pagoda_bound,
        "board_proven": out.board_proven,
        "stable": out.stable,
        "cells": out.cells,
        "jumps": out.jumps,
        "seconds": out.seconds,
        "reason": out.reason,
        "verified": out.verified,
        "moves": out.moves,
        "last_jump": out.last_jump,
        "unorderable": out.unorderable,
        "unresolved": out.unresolved,
        "ips": out.ips,
        "proof_complete": out.proof_complete,
        "case_logs": out.case_logs,
        "order_seconds": out.order_seconds,
        "army_csv": files.map(|f| f.0.display().to_string()),
        "play_csv": files.map(|f| f.1.display().to_string()),
        "rounds": out.rounds,
    });
    if out.status == Status::Impossible {
        // No board was built: an impossible level reports none.
        for key in ["board_proven", "stable", "cells", "jumps"] {
            v.as_object_mut().unwrap().remove(key);
        }
    }
    v
}

fn print_summary(out: &Outcome, find: Option<&FindReport>) -> Result<(), Error> {
    let mut s = format!("army {}  level {}\n", out.army, out.level);
    match out.status {
        Status::Impossible => {
            s += &format!(
                "impossible: {}\n",
                out.reason.as_deref().unwrap_or("pagoda bound")
            );
            return emit(&s);
        }
        st => s += &format!("status {}\n", st.as_str()),
    }
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    s += &format!(
        "minimum {}  (lower bound {}, pagoda bound {})\n",
        show(out.min_size),
        show(out.lower_bound),
        show(out.pagoda_bound)
    );
    if out.verified && out.status != Status::Optimal {
        let best = out.army_cells.len() as u64;
        s += &format!(
            "best army {best} men, not proven minimal (gap {})\n",
            out.lower_bound
                .map_or("-".into(), |l| best.saturating_sub(l).to_string())
        );
    }
    if let Some(f) = find {
        s += &format!(
            "find: {} in {:.1} s, {}\n",
            f.found
                .as_ref()
                .map_or("no army".into(), |a| format!("an army of {} men", a.men())),
            f.seconds,
            plural(f.programs, "integer program")
        );
    }
    s += &format!(
        "board {} cells, {} jumps; proven to hold every useful cell: {}{}\n",
        out.cells,
        out.jumps,
        if out.board_proven { "yes" } else { "no" },
        match out.stable {
            Some(true) => " (optimum unchanged on a larger board)",
            Some(false) => " (optimum MOVED on a larger board)",
            None => "",
        }
    );
    if out.verified {
        s += &format!(
            "play verified: {} men, {} jumps, {} moves, last jump over {:?}\n",
            out.army_cells.len(),
            out.play.len(),
            out.moves,
            out.last_jump.unwrap_or(Cell::ORIGIN)
        );
    }
    s += &format!(
        "{}, {:.2} s\n",
        plural(out.ips, "integer program"),
        out.seconds
    );
    emit(&s)
}

pub fn verify(a: &VerifyArgs) -> Result<u8, Error> {
    if a.finish.is_some() || crate::cli::args::is_board(&a.problem) {
        return crate::cli::board::verify(a);
    }
    let army = a.problem.army()?;
    let level = parse_level(a.level.as_deref().unwrap_or_default())?;
    let dash = Path::new("-");
    if a.army_csv == dash && a.play_csv == dash {
        return Err(Error::usage(
            "standard input ('-') can stand for ARMY_CSV or PLAY_CSV, not both",
        ));
    }
    let dimension = army.problem().spec.dimension;
    let men = export::read_army_in(&a.army_csv, dimension)?;
    let play = export::read_play_in(&a.play_csv, dimension)?;
    let r = verify::replay(&army.lattice(), level, &men, &play)?;
    let target = if dimension == 3 { "(0,0,0)" } else { "(0,0)" };
    emitln(&format!(
        "legal: {} men, {} jumps, {} moves, {} men left, target {target} reached at level {level}",
        r.men, r.jumps, r.moves, r.men_left
    ))?;
    Ok(0)
}

pub fn bounds(a: &BoundsArgs) -> Result<u8, Error> {
    let armies = match (&a.army, &a.model) {
        (Some(s), _) => vec![parse_army(s)?],
        (None, Some(path)) => vec![Army::read(path).map_err(Error::usage)?],
        (None, None) => Army::all().to_vec(),
    };
    let computed = match &a.results {
        None => Vec::new(),
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Error::usage(format!(
                    "--results {}: no such directory",
                    dir.display()
                )));
            }
            let file = dir.join("min-sizes.csv");
            if !file.is_file() {
                return Err(Error::usage(format!(
                    "--results {}: holds no min-sizes.csv",
                    dir.display()
                )));
            }
            export::read_min_sizes(&file)?
        }
    };
    let mut all: Vec<_> = armies.into_iter().map(bounds::army_bounds).collect();
    for b in &mut all {
        for l in &mut b.levels {
            if let Some(r) = computed
                .iter()
                .find(|r| r.army == b.army.name() && r.level == l.level)
            {
                l.computed = Some(r.clone());
            }
        }
    }
    if a.json {
        emitln(&json!({ "armies": all }).to_string())?;
        return Ok(0);
    }
    let mut s = String::new();
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    for b in &all {
        // The standard function's limit: an upper bound on the highest reachable level
        // (a desert's improved functions rule out more, and 3-D's top is open).
        s += &format!(
            "{} army: pagoda limit level {} (the standard pagoda function rules out every level above it)\n",
            b.army, b.max_level
        );
        if a.results.is_some() {
            s += "  level  pagoda bound  IP bound  best army  status      slack of the heaviest army\n";
        } else {
            s += "  level  pagoda bound  slack of the heaviest army\n";
        }
        for l in &b.levels {
            let slack = format!("{} = {} ≈ {:.3e}", l.slack_sigma, l.slack, l.slack_value);
            if a.results.is_none() {
                s += &format!("  {:>5}  {:>12}  {slack}\n", l.level, l.lower_bound);
                continue;
            }
            let (ip, best, status) = match &l.computed {
                Some(r) => (show(r.lower_bound), show(r.min_size), r.status.clone()),
                None => ("-".into(), "-".into(), "-".into()),
            };
            s += &format!(
                "  {:>5}  {:>12}  {:>8}  {:>9}  {:<10}  {slack}\n",
                l.level, l.lower_bound, ip, best, status
            );
        }
    }
    emit(&s)?;
    Ok(0)
}

/// The start cells the pagoda window holds, up to the exponent the case enumeration may
/// enter, for the last jump d: more men than this cannot be split into cases.
fn window_capacity(pagoda: &Pagoda, level: i32) -> (u64, i32) {
    let profile = pagoda.start_profile(level);
    let cap = pagoda.trusted_exponent() - 8;
    ((0..=cap).map(|e| profile.count(e)).sum(), cap)
}

/// Last jumps ruled out by weight (with the heaviest weight), and why the enumeration stopped.
type Screened = (
    Vec<(crate::problem::geometry::Cell, Golden)>,
    Option<String>,
);

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
    light: &[(crate::problem::geometry::Cell, Golden)],
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
    object: &dyn Fn(serde_json::Value) -> String,
) -> Result<CasesScreen, Error> {
    if let Some(reason) = crate::weight::pagoda::impossibility_reason(army, level) {
        if a.json {
            emitln(&object(json!({"status": "impossible", "reason": reason})))?;
        } else {
            emitln(&format!("impossible: {reason}"))?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    check_cbc(cbc)?;
    let (light, stopped) = screen(army, level, size, a.max_cases)?;
    let (light_json, light_lines) = light_report(army, level, size, &light);
    if let Some(why) = stopped {
        if a.json {
            emitln(&object(json!({"status": "stopped", "reason": why})))?;
        }
        return Err(Error {
            code: 3,
            message: why,
        });
    }
    if light.len() == army.lattice().last_jump_directions().len() {
        if a.json {
            emitln(&object(
                json!({"status": "ruled_out_by_weight", "ruled_out_by_weight": light_json}),
            ))?;
        } else {
            emit(&light_lines)?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    Ok(CasesScreen::Cases(light_json, light_lines))
}

pub fn cases(a: &CasesArgs) -> Result<u8, Error> {
    let manifest = a
        .merge
        .as_deref()
        .map(crate::cli::jobs::read_manifest)
        .transpose()?;
    let (problem, level, size) = cases_problem(a, manifest.as_ref())?;
    let army = problem.army()?;
    let head = json!({"army": army.name(), "level": level, "men": size});
    let object = |extra: serde_json::Value| {
        let mut v = head.clone();
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v.to_string()
    };
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
        return crate::cli::jobs::run(dir, &sweep, job, a.time_limit);
    }
    if let Some(dir) = &a.emit_jobs {
        let problem = crate::cli::jobs::Problem::new(&problem, level, size)?;
        return emit_jobs(dir, &sweep, problem, a);
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
        if a.json {
            emitln(&object(fields))?;
        }
        return Ok(0);
    };
    let merged = manifest.as_ref().zip(a.merge.as_deref());
    let after = || {
        if let Some((m, dir)) = merged {
            crate::cli::jobs::report_missing(dir, m, &missing);
        }
    };
    solve_cases(a, &mut sweep, dir, fields, (&object, &after))
}

/// Solves the sweep's cases into `dir` (or completes a merge; `after` then names the jobs
/// without a result) and reports: JSON with the counts and the army's files, or the
/// summary; the army's CSV files when one is found.
fn solve_cases(
    a: &CasesArgs,
    sweep: &mut crate::search::sweep::Sweep,
    dir: &Path,
    mut fields: serde_json::Value,
    (object, after): (&dyn Fn(serde_json::Value) -> String, &dyn Fn()),
) -> Result<u8, Error> {
    sweep.verbose = a.display.verbose;
    let report = sweep.solve(dir, a.time_limit, a.display.progress())?;
    after();
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
    }
    let shown = if a.json {
        emitln(&object(fields))
    } else {
        emitln(&report.summary())
    };
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
) -> Result<u8, Error> {
    let (jobs, cases) =
        crate::cli::jobs::emit(dir, sweep, problem, a.time_limit, a.cbc, a.max_cases)?;
    let d = dir.display();
    if a.json {
        emitln(
            &json!({"army": sweep.army.name(), "level": sweep.level, "men": sweep.men,
            "status": "jobs", "jobs": jobs, "cases": cases, "dir": d.to_string()})
            .to_string(),
        )?;
    } else {
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

/// `solarmy completions SHELL`: the completion script on stdout.
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> Result<u8, Error> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "solarmy", &mut buf);
    emit(&String::from_utf8_lossy(&buf))?;
    Ok(0)
}

/// `solarmy manpage`: the manual page, roff, on stdout; with `--out DIR`, the pages of the
/// command and of every subcommand (solarmy-solve.1, …, which the main page refers to), each
/// written atomically.
pub fn manpage(cmd: clap::Command, out: Option<&Path>) -> Result<u8, Error> {
    let render = |cmd: clap::Command| {
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut buf)
            .map_err(|e| Error::failure(format!("cannot render the manual page: {e}")))?;
        Ok::<_, Error>(buf)
    };
    // `help` is no command of its own: the page of `solarmy` does not refer to one.
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = out else {
        emit(&String::from_utf8_lossy(&render(cmd)?))?;
        return Ok(0);
    };
    check_writable(dir)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::failure(format!("cannot create {}: {e}", dir.display())))?;
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    for page in pages {
        let name = page
            .get_display_name()
            .unwrap_or(page.get_name())
            .to_string();
        crate::files::write_atomic(&dir.join(format!("{name}.1")), &render(page)?)?;
    }
    Ok(0)
}

/// A command-line error from clap: help and version go to stdout (exit 0); anything else is
/// one line on stderr and exit 2.
pub fn usage_error(e: clap::Error) -> Error {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match emit(&e.render().to_string()) {
            Ok(()) => Error::closed(),
            Err(err) => err,
        },
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            Error::usage(
                "a command is needed: solve, verify, bounds, cases, check, certify, count, moves, pagoda, catalog, completions or manpage (solarmy --help)",
            )
        }
        _ => {
            // clap's first line, with the list it announces (the missing arguments) joined on.
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut line = lines
                .next()
                .unwrap_or("bad command line")
                .trim_start_matches("error: ")
                .to_string();
            while line.ends_with(':') {
                match lines.next().filter(|l| !l.starts_with("Usage")) {
                    Some(next) => line = format!("{line} {next}"),
                    None => break,
                }
            }
            Error::usage(format!("{line} (see --help)"))
        }
    }
}

/// The exit code of a command's result; an error is one line on stderr.
pub fn finish(result: Result<u8, Error>) -> std::process::ExitCode {
    match result {
        Ok(code) => std::process::ExitCode::from(code),
        Err(e) => {
            if !e.message.is_empty() {
                let _ = writeln!(std::io::stderr(), "solarmy: {}", e.message);
            }
            std::process::ExitCode::from(e.code)
        }
    }
}

/// `solarmy cbc-system FILE`: CBC's opinion of one system (JSON, as `check --cbc` writes it),
/// printed as one JSON object. The child process of [`crate::proof::resolve::cbc_in_process`].
pub fn cbc_system(a: &CbcSystemArgs) -> Result<u8, Error> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| Error::failure(format!("{}: {e}", a.file.display())))?;
    let sys: crate::proof::farkas::LinearSystem = serde_json::from_str(&text)
        .map_err(|e| Error::failure(format!("{}: not a system: {e}", a.file.display())))?;
    let opinion = crate::proof::resolve::cbc(&sys, a.time_limit, a.strategy);
    emitln(&serde_json::to_string(&opinion).map_err(|e| Error::failure(e.to_string()))?)?;
    Ok(0)
}
