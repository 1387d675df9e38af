//! The commands on classical boards: `solve --vacancy --finish` (one problem), `verify
//! --finish` (replay a board play) and `catalog` (every problem up to symmetry). Thin:
//! parsing, printing, files; the work is in [`crate::play::peg`].

use crate::cli::args::{self as cli, CatalogArgs, Error, ProblemArg, SolveArgs, emitln};
use crate::cli::envelope;
use crate::play::peg::settle::{self, Limits, Outcome, Verdict};
use crate::play::peg::short::PlayKind;
use crate::play::peg::{PegBoard, catalog, parse_cell};
use crate::problem::geometry::Cell;
use crate::report::export;
use crate::search::fewest_moves::catalogue::state_of;
use crate::search::state::{self, Stamp};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub(crate) fn board_of(p: &ProblemArg) -> Result<PegBoard, Error> {
    match &p.model {
        Some(path) => PegBoard::read(path).map_err(Error::usage),
        None => Err(Error::usage(
            "--vacancy and --finish are for board models: give --model FILE (e.g. models/english.toml)",
        )),
    }
}

pub(crate) fn cell(arg: Option<&str>, flag: &str) -> Result<Cell, Error> {
    let s = arg.ok_or_else(|| Error::usage(format!("a board problem needs --{flag} X,Y")))?;
    parse_cell(s).map_err(|e| Error::usage(format!("--{flag}: {e}")))
}

/// `solve --model BOARD --vacancy X,Y --finish X,Y`.
pub fn solve(a: &SolveArgs) -> Result<u8, Error> {
    let board = board_of(&a.problem)?;
    let v = cell(a.vacancy.as_deref(), "vacancy")?;
    let f = cell(a.finish.as_deref(), "finish")?;
    board.hole(v, "--vacancy").map_err(Error::usage)?;
    board.hole(f, "--finish").map_err(Error::usage)?;
    for dir in [a.out.as_deref(), a.proof.as_deref().and_then(Path::parent)]
        .into_iter()
        .flatten()
    {
        if !dir.as_os_str().is_empty() {
            cli::check_writable(dir)?;
        }
    }
    // Ctrl-C ends the search at its next round: the answer is then undecided (exit 3).
    crate::cli::args::install_interrupt_handler();
    // One problem has no count of units: a spinner with the time spent and the stage.
    let spin = crate::search::progress::spinner(a.display.progress());
    let stage = |what: &str| {
        let head = format!("{} ({},{}) -> ({},{})", board.name, v.0, v.1, f.0, f.1);
        spin.iter()
            .for_each(|s| s.set_message(format!("{head}: {what}")));
    };
    stage("a play or a proof (position class, resource count, jump programs, searches)");
    let state = a.out.as_deref().map(|dir| solve_state(dir, &board, (v, f)));
    let from = state.as_ref().map_or(Default::default(), |(path, stamp)| {
        refuted_before(path, stamp, a.display.quiet)
    });
    let limits = Limits::default();
    let (mut o, refuted) =
        settle::settle_from(&board, (v, f), &limits, from).map_err(Error::failure)?;
    if let Some((path, stamp)) = &state {
        match (&o.verdict, refuted.rounds) {
            (Verdict::Undecided { .. }, 1..) => state::write(path, stamp, &refuted)?,
            (Verdict::Undecided { .. }, 0) => {}
            // Decided: nothing is left to resume.
            _ => state::remove(path),
        }
    }
    stage("a shorter play");
    let interrupt = Some(&crate::ip::solve::INTERRUPTED);
    let kind = crate::play::peg::short::prefer_short(&board, &mut o, interrupt);
    spin.iter().for_each(|s| s.finish_and_clear());
    let files = match &a.out {
        Some(dir) => write_problem(&board, &o, dir)?,
        None => None,
    };
    if a.json {
        let mut j = problem_json(&board, &o, files.as_deref());
        j["play_kind"] = json!(kind.as_ref().map(PlayKind::as_str));
        emitln(&j.to_string())?;
    } else {
        emitln(&summary_line(&board, &o, kind.as_ref()))?;
        if let (true, Verdict::Solvable { play }) = (a.show, &o.verdict) {
            crate::cli::args::emit(&crate::report::text::show_board(&board, v, play))?;
        }
    }
    if let Some(path) = &a.proof {
        match settle::proof(&board, &o) {
            Some(p) => crate::files::write_atomic(path, &p.to_bytes(path)?)?,
            None => eprintln!("solarmy: no proof written: the problem is undecided"),
        }
    }
    Ok(if o.verdict.solvable().is_some() { 0 } else { 3 })
}

/// A board problem's state in DIR: DIR/<board>-<stem>-solve-state.json, stamped with the
/// problem's fingerprint.
fn solve_state(dir: &Path, board: &PegBoard, (v, f): (Cell, Cell)) -> (PathBuf, Stamp) {
    let path = dir.join(format!(
        "{}-{}-solve-state.json",
        board.name,
        catalog::stem(v, f)
    ));
    let stamp = Stamp::new("solve", json!(board.fingerprint(v, f)), json!(null));
    (path, stamp)
}

/// The rounds of effort an earlier `solve` refuted, with a line saying so.
fn refuted_before(path: &Path, stamp: &Stamp, quiet: bool) -> settle::Refuted {
    let from: settle::Refuted = state::read(path, stamp).unwrap_or_default();
    if from.rounds > 0 {
        let what = format!(
            "{} of {} rounds of effort refuted ({} jump vectors cut)",
            from.rounds,
            Limits::default().rounds,
            from.cuts.len()
        );
        state::say_resumed(path, &what, quiet);
    }
    from
}

/// The answer in one line; `kind` says which play a solvable problem reports.
fn summary_line(board: &PegBoard, o: &Outcome, kind: Option<&PlayKind>) -> String {
    let (v, f) = (o.vacancy, o.finish);
    let head = format!("{} ({},{}) -> ({},{}):", board.name, v.0, v.1, f.0, f.1);
    let note = kind.map_or(String::new(), |k| format!(", {}", k.describe()));
    verdict_line(&head, &o.verdict, o.seconds, &note)
}

/// A verdict in words after `head`; `note` follows a play's length (which play it is).
pub(crate) fn verdict_line(head: &str, verdict: &Verdict, seconds: f64, note: &str) -> String {
    use crate::cli::plural;
    match verdict {
        Verdict::Solvable { play } => format!(
            "{head} solvable: a play of {} in {}{note}, verified by replay ({seconds:.2} s)",
            plural(play.len(), "jump"),
            plural(crate::proof::verify::count_moves(play), "move"),
        ),
        Verdict::Undecided { why } => format!("{head} undecided: {why} ({seconds:.2} s)"),
        other => format!("{head} not solvable: {} ({seconds:.2} s)", other.reason()),
    }
}

fn problem_json(board: &PegBoard, o: &Outcome, play_csv: Option<&Path>) -> serde_json::Value {
    let why = match &o.verdict {
        Verdict::Undecided { why } => Some(why.clone()),
        _ => None,
    };
    let play = match &o.verdict {
        Verdict::Solvable { play } => Some(play),
        _ => None,
    };
    let fields = json!({
        "board": board.name,
        "fingerprint": board.fingerprint(o.vacancy, o.finish),
        "vacancy": [o.vacancy.0, o.vacancy.1],
        "finish": [o.finish.0, o.finish.1],
        "solvable": o.verdict.solvable(),
        "reason": o.verdict.reason(),
        "why": why,
        "play": play,
        "play_csv": play_csv,
        "seconds": o.seconds,
    });
    let problem = envelope::board(board, o.vacancy, o.finish);
    envelope::wrapped(fields, problem, board_status(&o.verdict), o.seconds)
}

/// A board problem's status: solvable, not_solvable (with a proof) or undecided.
pub fn board_status(v: &Verdict) -> &'static str {
    match v {
        Verdict::Solvable { .. } => "solvable",
        Verdict::Undecided { .. } => "undecided",
        _ => "not_solvable",
    }
}

/// Writes a solvable problem's start and play (CSV), play picture (SVG, a strip of frames)
/// and viewer page (HTML) into `dir` ([`crate::report::boards::write_play`]); returns the play
/// CSV's path.
fn write_problem(board: &PegBoard, o: &Outcome, dir: &Path) -> Result<Option<PathBuf>, Error> {
    let Verdict::Solvable { play } = &o.verdict else {
        return Ok(None);
    };
    let stem = format!("{}-{}", board.name, catalog::stem(o.vacancy, o.finish));
    let start = board.start(o.vacancy);
    let play_path = dir.join(format!("{stem}-play.csv"));
    crate::files::write_atomic(
        &dir.join(format!("{stem}-start.csv")),
        export::army_csv(&start, 2).as_bytes(),
    )?;
    crate::files::write_atomic(&play_path, export::play_csv(play, 2).as_bytes())?;
    let start_csv = format!("{stem}-start.csv");
    crate::report::boards::write_play(dir, (&stem, &start_csv), board, o.vacancy, play)?;
    Ok(Some(play_path))
}

/// `catalog --model BOARD`: every problem up to symmetry; with `--out DIR` its files and
/// its proofs.
pub fn catalog(a: &CatalogArgs) -> Result<u8, Error> {
    let board = PegBoard::read(&a.model).map_err(Error::usage)?;
    if let Some(out) = &a.out {
        cli::check_writable(out)?;
    }
    crate::cli::args::install_interrupt_handler();
    let sub = a.out.as_ref().map(|out| out.join(&board.name));
    let t0 = Instant::now();
    let mut failed: Option<Error> = None;
    let deadline = a
        .time_limit
        .map(|t| t0 + std::time::Duration::from_secs_f64(t));
    let bar = crate::search::progress::bar(a.display.progress(), 0, "problems");
    let mut pass = String::new();
    let mut shown = |name: &str, k: usize, n: usize| {
        if let Some(pb) = &bar {
            if pass != name {
                // Each pass has its own count and its own estimate; the clock runs on.
                pass = name.into();
                pb.set_length(n as u64);
                pb.reset_eta();
                pb.set_message(format!("{}: {name}", board.name));
            }
            pb.set_position(k as u64);
        }
    };
    let state = (a.out.as_deref()).map(|out| state_of(out, &board, "catalog", json!(null)));
    let known = state.as_ref().map_or(Vec::new(), |(path, stamp)| {
        known_outcomes(path, stamp, &board, a.display.quiet)
    });
    let limits = Limits::default();
    let outcomes = catalog::run_shown(&board, &limits, deadline, &known, &mut shown, |o| {
        if a.display.verbose {
            crate::search::progress::say(bar.as_ref(), &summary_line(&board, o, None));
        }
        if failed.is_none()
            && let Some(sub) = &sub
            && let Err(e) = write_files(&board, o, sub)
        {
            failed = Some(e);
        }
    })
    .map_err(Error::failure)?;
    // Off the screen before the answer is printed.
    bar.iter().for_each(|pb| pb.finish_and_clear());
    if let Some((path, stamp)) = &state {
        let decided: Vec<&Outcome> = (outcomes.iter())
            .filter(|o| o.verdict.solvable().is_some())
            .collect();
        state::write(path, stamp, &decided)?;
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let seconds = t0.elapsed().as_secs_f64();
    let rel = match &a.out {
        Some(out) => Some(write_catalogue(&board, &outcomes, out)?),
        None => None,
    };
    let undecided = outcomes.iter().any(|o| o.verdict.solvable().is_none());
    if a.json {
        let mut doc = catalog::json(&board, &outcomes, rel.as_deref());
        doc["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        catalog_envelope(&mut doc, &board, &outcomes, undecided);
        emitln(&doc.to_string())?;
    } else {
        emitln(&catalog_summary(&board, &outcomes, seconds))?;
    }
    let moves_complete = !a.moves || crate::cli::catalog_moves::moves(a, &board, &outcomes)?;
    Ok(if undecided || !moves_complete { 3 } else { 0 })
}

/// The problems an earlier catalogue decided, from its state (each play replayed again: a
/// problem whose play does not replay is settled again), with a line saying how many.
fn known_outcomes(path: &Path, stamp: &Stamp, board: &PegBoard, quiet: bool) -> Vec<Outcome> {
    let decided = |o: &Outcome| match &o.verdict {
        Verdict::Solvable { play } => board.replay(o.vacancy, play, o.finish).is_ok(),
        v => v.solvable().is_some(),
    };
    let n = board.problems().len();
    state::read_kept(path, stamp, quiet, decided, |k| {
        format!("{k} of {n} problems decided")
    })
}

/// DIR/<board>.csv and .svg; the folder of the problems' files, as the JSON names it.
fn write_catalogue(board: &PegBoard, outcomes: &[Outcome], out: &Path) -> Result<String, Error> {
    let name = &board.name;
    crate::files::write_atomic(
        &out.join(format!("{name}.csv")),
        catalog::csv(board, outcomes).as_bytes(),
    )?;
    crate::files::write_atomic(
        &out.join(format!("{name}.svg")),
        crate::report::boards::catalogue_svg(board, outcomes).as_bytes(),
    )?;
    Ok(format!("{}/{name}", out.display()))
}

/// The catalogue's envelope (the board's model; complete, or undecided when a problem is),
/// and each problem's own `problem`, `status` and `play`.
fn catalog_envelope(
    doc: &mut serde_json::Value,
    board: &PegBoard,
    outcomes: &[Outcome],
    undecided: bool,
) {
    if let Some(list) = doc["problems"].as_array_mut() {
        for (entry, o) in list.iter_mut().zip(outcomes) {
            let play = match &o.verdict {
                Verdict::Solvable { play } => Some(play),
                _ => None,
            };
            entry["play"] = json!(play);
            let problem = envelope::board(board, o.vacancy, o.finish);
            envelope::wrap(entry, problem, board_status(&o.verdict), o.seconds);
        }
    }
    let status = if undecided { "undecided" } else { "complete" };
    let seconds = doc["seconds"].as_f64().unwrap_or_default();
    envelope::wrap(
        doc,
        envelope::model(&board.name, &board.spec),
        status,
        seconds,
    );
}

/// One problem's files in DIR/<board>/: its proof, and for a solvable one its play, the
/// play's picture and its viewer page.
fn write_files(board: &PegBoard, o: &Outcome, dir: &Path) -> Result<(), Error> {
    write_problem(board, o, dir)?;
    if let Some(p) = settle::proof(board, o) {
        let path = dir.join(format!(
            "{}-{}.proof.json",
            board.name,
            catalog::stem(o.vacancy, o.finish)
        ));
        crate::files::write_atomic(&path, &p.to_bytes(&path)?)?;
    }
    Ok(())
}

fn catalog_summary(board: &PegBoard, outcomes: &[Outcome], seconds: f64) -> String {
    let count = |r: &str| outcomes.iter().filter(|o| o.verdict.reason() == r).count();
    format!(
        "{}: {} holes, {} symmetries, {} problems up to symmetry: {} solvable; not solvable: {} by position class, {} by resource count, {} by integer program, {} by exhaustive search, {} by pruned search; {} undecided ({:.1} s)",
        board.name,
        board.cells.len(),
        board.symmetries.len(),
        outcomes.len(),
        catalog::solvable(outcomes),
        count("position class"),
        count("resource count"),
        count("integer program"),
        count("exhaustive search"),
        count("pruned search"),
        count("undecided"),
        seconds
    )
}
