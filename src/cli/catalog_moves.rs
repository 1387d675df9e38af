//! `solarmy catalog --model BOARD --moves`: the fewest moves of every problem of a board's
//! catalogue, by [`crate::play::peg::fewest::catalogue`]. Thin: it checks each answer against the
//! catalogue's own verdict, replays every play with the independent checker, and writes
//! DIR/<board>-moves.csv and, per problem, DIR/<board>/<board>-<stem>-moves-play.csv and
//! -moves.json (the positions per level).
//!
//! No proof file is written: the checker's own search by moves ([`crate::proof::moves`])
//! cannot repeat these searches within its limits (the English central game's levels pass
//! five million positions by depth 10), so a length here is `searched`, not `proven` (a
//! single problem small enough gets its proof from `moves --proof`).
//!
//! With `--out` the problems searched to the end are kept in DIR/<board>-catalog-moves-state.json
//! ([`crate::search::state`], stamped with the board and `--prune`), and a rerun takes them
//! (their plays replayed again) and searches only the others. The search, the checks and the
//! state are [`crate::search::fewest_moves::catalogue`]'s; here the display, the files and the
//! summary.

use crate::cli::args::{CatalogArgs, Error, emitln};
use crate::play::peg::fewest::Status;
use crate::play::peg::settle::Outcome;
use crate::play::peg::{PegBoard, catalog, fewest};
use crate::report::export;
use crate::search::fewest_moves::catalogue::{self, Kept, state_of};
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// Runs the catalogue's moves after its verdicts (`outcomes`), and writes the files; true
/// when every problem was searched to the end (none past the time limit, stopped by its
/// levels' size or interrupted, each of which keeps what was settled before it).
pub fn moves(a: &CatalogArgs, board: &PegBoard, outcomes: &[Outcome]) -> Result<bool, Error> {
    crate::cli::args::install_interrupt_handler();
    // The problems a finish is allowed for, by position class: those the search takes.
    let searched = outcomes
        .iter()
        .filter(|o| !matches!(o.verdict, crate::play::peg::settle::Verdict::Class { .. }))
        .count();
    let bar = crate::search::progress::bar(a.display.progress(), searched, "problems (moves)");
    let lim = fewest::Limits {
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        // The search's own line (its level, its positions) after the problem count.
        progress: bar.as_ref().map(|pb| {
            let pb = pb.clone();
            std::sync::Arc::new(move |line: String| pb.set_message(line)) as fewest::Progress
        }),
        pruning: a.prune.clone(),
        ..fewest::Limits::default()
    }
    .with_memory_arg(a.memory);
    // Without --out the moves are settled and summed up, and no file is written.
    let dir = a.out.as_ref().map(|out| out.join(&board.name));
    let t0 = Instant::now();
    let deadline = a
        .moves_time_limit
        .map(|t| t0 + std::time::Duration::from_secs_f64(t));
    let options = json!({"prune": format!("{:?}", a.prune)});
    let state = (a.out.as_deref()).map(|out| state_of(out, board, "catalog-moves", options));
    let kept = state.as_ref().map(|(path, stamp)| Kept {
        path,
        stamp,
        quiet: a.display.quiet,
    });
    let mut write = |e: &fewest::Entry| match &dir {
        Some(dir) => write_entry(board, e, dir),
        None => Ok(()),
    };
    let mut shown = |e: &fewest::Entry| {
        if let Some(pb) = &bar {
            pb.inc(1);
        }
        if a.display.verbose {
            crate::search::progress::say(bar.as_ref(), &entry_line(board, e));
        }
    };
    let entries = catalogue::run(
        (board, outcomes),
        &lim,
        (deadline, kept),
        &mut write,
        &mut shown,
    );
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    let entries = entries?;
    let seconds = t0.elapsed().as_secs_f64();
    if let Some(out) = &a.out {
        crate::files::write_atomic(
            &out.join(format!("{}-moves.csv", board.name)),
            catalogue::moves_csv(&entries).as_bytes(),
        )?;
    }
    report(a, board, &entries, lim.max_level, seconds)?;
    Ok(entries.iter().all(|e| e.status == Status::Searched))
}

/// The moves' summary: one line, or with --json a second JSON object after the catalogue's,
/// with the envelope and every problem's status and fewest moves.
fn report(
    a: &CatalogArgs,
    board: &PegBoard,
    entries: &[fewest::Entry],
    max_level: usize,
    seconds: f64,
) -> Result<(), Error> {
    let lengths: Vec<u32> = entries.iter().filter_map(|e| e.solved.min_moves).collect();
    let left = |st: Status| entries.iter().filter(|e| e.status == st).count();
    let mut not_searched = format!(
        "{} not searched, past the time limit",
        left(Status::TimeLimit)
    );
    if left(Status::TooMany) > 0 {
        let _ = write!(
            not_searched,
            "; {} stopped, a level over {} positions",
            left(Status::TooMany),
            max_level
        );
    }
    if left(Status::Interrupted) > 0 {
        let _ = write!(not_searched, "; {} interrupted", left(Status::Interrupted));
    }
    let searched = entries.iter().all(|e| e.status == Status::Searched);
    if a.json {
        let problems: Vec<_> = entries
            .iter()
            .map(|e| {
                json!({"vacancy": [e.vacancy.0, e.vacancy.1], "finish": [e.finish.0, e.finish.1],
                    "status": e.status.name(), "min_moves": e.solved.min_moves})
            })
            .collect();
        let fields = json!({"board": board.name, "moves": problems,
            "solvable": lengths.len(), "not_searched": not_searched});
        let status = if searched { "complete" } else { "incomplete" };
        let problem = crate::cli::envelope::model(&board.name, &board.spec);
        let doc = crate::cli::envelope::wrapped(fields, problem, status, seconds);
        return emitln(&doc.to_string());
    }
    emitln(&format!(
        "{}: fewest moves of {} solvable problems up to symmetry (of {} allowed by position class; {not_searched}): {} to {} moves, every one searched to the end by the exact search by levels, with no proof file ({:.1} s)",
        board.name,
        lengths.len(),
        entries.len(),
        lengths.iter().min().map_or("-".into(), |m| m.to_string()),
        lengths.iter().max().map_or("-".into(), |m| m.to_string()),
        seconds
    ))
}

/// One line per problem for `--verbose`.
fn entry_line(board: &PegBoard, e: &fewest::Entry) -> String {
    format!(
        "{} ({},{}) -> ({},{}): {} ({:.1} s)",
        board.name,
        e.vacancy.0,
        e.vacancy.1,
        e.finish.0,
        e.finish.1,
        match (e.status, e.solved.min_moves) {
            (Status::Searched, None) => "not solvable".to_string(),
            (Status::Searched, Some(m)) => format!("{m} moves"),
            (st, _) => format!("not searched to the end ({})", st.name()),
        },
        e.solved.seconds
    )
}

/// Writes an entry's files (its answer checked by [`catalogue::check_entry`]): its play, the
/// play's picture and page, and its positions per level (JSON).
fn write_entry(board: &PegBoard, e: &fewest::Entry, dir: &Path) -> Result<(), crate::error::Error> {
    let (v, f) = (e.vacancy, e.finish);
    let stem = format!("{}-{}", board.name, catalog::stem(v, f));
    let made =
        |err: std::io::Error| crate::error::Error::Input(format!("{}: {err}", dir.display()));
    if let Some(play) = &e.solved.play {
        std::fs::create_dir_all(dir).map_err(made)?;
        crate::files::write_atomic(
            &dir.join(format!("{stem}-moves-play.csv")),
            export::play_csv(play, 2).as_bytes(),
        )?;
        // Its picture and page; the start is the catalogue's <stem>-start.csv.
        let names = (format!("{stem}-moves"), format!("{stem}-start.csv"));
        crate::report::boards::write_play(dir, (&names.0, &names.1), board, v, play)?;
    }
    let doc = json!({
        "vacancy": [v.0, v.1],
        "finish": [f.0, f.1],
        "min_moves": e.solved.min_moves,
        "symmetry": e.solved.symmetry,
        "on_plays_by_jumps": e.solved.on_plays,
        "table": e.solved.table,
        "seconds": e.solved.seconds,
    });
    std::fs::create_dir_all(dir).map_err(made)?;
    crate::files::write_atomic(
        &dir.join(format!("{stem}-moves.json")),
        doc.to_string().as_bytes(),
    )
}
