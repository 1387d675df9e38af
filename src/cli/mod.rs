//! The commands behind `solarmy`: each command's work, on the vocabulary of [`args`].
//!
//! Input is checked once, in [`args`], so every command rejects an unknown army or a level below 1
//! with one line, before any work starts. Errors carry their exit code ([`Error`]): 2 for a
//! bad command line, 1 for any other failure. Every command's JSON carries the envelope of
//! [`envelope`] (docs/json-schema.json). Inside this folder the order is: [`help`], [`args`]
//! and [`envelope`], then [`moves_args`], [`moves_levels`], [`catalog_moves`], [`board`],
//! [`verify`], [`moves_board`], [`moves`], [`certify`], [`check`], [`count`], [`jobs`],
//! [`cases`], [`bounds`], [`pagoda`], and this file on top.
//!
//! A command parses, calls the library and prints: what it computes is the library's, where a
//! library user can call it too (the state a rerun resumes from in [`crate::search::state`],
//! the fewest moves seeded, resumed and replayed in [`crate::search::fewest_moves`]).

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
pub mod bounds;
pub mod cases;
pub mod catalog_moves;
pub mod certify;
pub mod check;
pub mod check_stop;
pub mod count;
pub mod envelope;
pub mod help;
pub mod incumbent;
pub mod jobs;
pub mod moves;
pub mod moves_args;
pub mod moves_board;
pub mod moves_levels;
pub mod pagoda;
pub mod pattern;
pub mod verify;

use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::report::export;
use crate::report::render;
use crate::search::find::{self, FindReport};
use crate::search::minimum::{self, Outcome, Request, Status};
use crate::search::outcome::Found;
use crate::weight::pagoda::Pagoda;
pub use args::*;
pub use bounds::bounds;
pub use cases::cases;
pub use check::{check, proven_word};
pub use help::{COMPLETIONS_HELP, EXIT_CODES, MANPAGE_HELP};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
pub use verify::verify;

/// "1 round", "3 rounds".
pub fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

pub fn solve(a: &SolveArgs) -> Result<u8, Error> {
    if let Some(start) = &a.start {
        return crate::cli::pattern::solve(a, start);
    }
    if a.finish.is_some() && a.vacancy.is_none() {
        return Err(Error::usage(
            "--finish needs --vacancy X,Y (a single-vacancy problem) or --start FILE (a pattern problem)",
        ));
    }
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
    // An army given is replayed before anything is solved: a bad file fails at once.
    let given = match &a.incumbent {
        Some(files) => Some(incumbent::read(army, level, files)?),
        None => None,
    };
    let (out, find) = climb_after_find(req, a.find, given)?;
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
/// An army given (`--incumbent`) caps the climb too, the smaller of the two when both are.
fn climb_after_find(
    mut req: Request,
    find: Option<f64>,
    given: Option<Found>,
) -> Result<(Outcome, Option<FindReport>), Error> {
    let Some(secs) = find else {
        req.incumbent = given;
        return Ok((minimum::find_minimum(&req)?, None));
    };
    let report = find::find_army(&req, req.time_limit.map_or(secs, |t| t.min(secs)))?;
    req.time_limit = req.time_limit.map(|t| (t - report.seconds).max(0.0));
    req.incumbent = incumbent::better(given, report.found.clone());
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
    if let crate::proof::format::Claim::AtLeast { men } = proof.claim {
        eprintln!(
            "solarmy: the minimum is open; the proof in {} is of the bound: at least {men} men",
            path.display()
        );
    } else if !out.proof_complete
        || out.status != Status::Optimal && out.status != Status::Impossible
    {
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

/// Writes DIR/<stem>-army.svg and -play.svg (shaded under the improved function of the
/// play's last jump), and for a plane army the step-by-step viewer DIR/<stem>.html.
pub fn write_pictures(
    dir: &Path,
    stem: &str,
    (army, level, moves): (Army, i32, usize),
    (men, play): (&[Cell], &[crate::proof::verify::Step]),
    caption: &str,
) -> Result<(), String> {
    let lattice = army.lattice();
    let last = play.last().map_or(lattice.directions[0], |s| s.over);
    let pagoda = Pagoda::improved(&lattice, last);
    let svg = render::army_svg(&lattice, &pagoda, level, men, play, caption);
    crate::files::write_atomic(&dir.join(format!("{stem}-army.svg")), svg.as_bytes())?;
    // The step-by-step viewer draws the plane; a 3-D play is drawn layer by layer instead.
    if lattice.dimension() == 2 {
        let html = crate::report::viewer::html(army, level, men, play, caption);
        crate::files::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())?;
    }
    let caption = format!("{caption}, {} jumps in {moves} moves", play.len());
    let svg = render::play_svg(&lattice, &pagoda, level, men, play, &caption);
    crate::files::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())?;
    Ok(())
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
    let pictured = (out.army, out.level, out.moves);
    write_pictures(dir, stem, pictured, (&out.army_cells, &out.play), &caption)?;
    Ok((army, play))
}

pub fn outcome_json(out: &Outcome, files: Option<&(PathBuf, PathBuf)>) -> serde_json::Value {
    let mut v = json!({
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
        // The verified army and its play, inline.
        "army": out.verified.then_some(&out.army_cells),
        "play": out.verified.then_some(&out.play),
    });
    envelope::wrap(
        &mut v,
        envelope::army(out.army, out.level),
        out.status.as_str(),
        out.seconds,
    );
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
    s += &board_line(out);
    if out.verified {
        s += &format!(
            "play verified: {} men, {}, {}, last jump over {:?}\n",
            out.army_cells.len(),
            plural(out.play.len(), "jump"),
            plural(out.moves, "move"),
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

/// The board's line. A search stopped before its last round built a board has no board to
/// give: then only whether the boards behind the lower bound were proven, if any were used.
fn board_line(out: &Outcome) -> String {
    let proven = if out.board_proven { "yes" } else { "no" };
    if out.cells == 0 {
        return match out.lower_bound > out.pagoda_bound {
            true => format!("the boards behind the lower bound hold every useful cell: {proven}\n"),
            false => String::new(),
        };
    }
    format!(
        "board {} cells, {} jumps; proven to hold every useful cell: {proven}{}\n",
        out.cells,
        out.jumps,
        match out.stable {
            Some(true) => " (optimum unchanged on a larger board)",
            Some(false) => " (optimum MOVED on a larger board)",
            None => "",
        }
    )
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
    check_stop::end_with_parent();
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| Error::failure(format!("{}: {e}", a.file.display())))?;
    let sys: crate::proof::farkas::LinearSystem = serde_json::from_str(&text)
        .map_err(|e| Error::failure(format!("{}: not a system: {e}", a.file.display())))?;
    let opinion = crate::proof::resolve::cbc(&sys, a.time_limit, a.strategy);
    emitln(&serde_json::to_string(&opinion).map_err(|e| Error::failure(e.to_string()))?)?;
    Ok(0)
}
