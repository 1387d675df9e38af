//! `solve --model BOARD --start FILE --finish FILE`: a pattern problem, from the men of one
//! CSV file (columns x, y, as an army's) to exactly the men of another. Thin: reading the
//! files, printing, the proof; the work is in [`crate::play::peg::pattern`].

use crate::cli::args::{Error, SolveArgs, emitln};
use crate::cli::board::{board_of, board_status, verdict_line};
use crate::cli::envelope;
use crate::play::peg::PegBoard;
use crate::play::peg::pattern::{self, Outcome, Pattern};
use crate::play::peg::settle::Verdict;
use crate::problem::geometry::Cell;
use crate::proof::verify::men_word;
use serde_json::json;
use std::path::Path;

/// `solve --model BOARD --start FILE --finish FILE`.
pub fn solve(a: &SolveArgs, start: &Path) -> Result<u8, Error> {
    let board = board_of(&a.problem)?;
    let finish = a
        .finish
        .as_deref()
        .ok_or_else(|| Error::usage("--start needs --finish FILE, the finish position's men"))?;
    let p = Pattern {
        start: men(start, "--start")?,
        finish: men(Path::new(finish), "--finish")?,
    };
    p.masks(&board).map_err(Error::usage)?;
    if let Some(dir) = a.proof.as_deref().and_then(Path::parent)
        && !dir.as_os_str().is_empty()
    {
        crate::cli::args::check_writable(dir)?;
    }
    crate::cli::args::install_interrupt_handler();
    let spin = crate::search::progress::spinner(a.display.progress());
    spin.iter()
        .for_each(|s| s.set_message(format!("{}: pattern of {} men", board.name, p.start.len())));
    let limits = pattern::Limits {
        deadline: a
            .time_limit
            .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s)),
        ..Default::default()
    };
    let o = pattern::settle(&board, &p, &limits).map_err(Error::usage)?;
    spin.iter().for_each(|s| s.finish_and_clear());
    if a.json {
        emitln(&to_json(&board, &p, &o).to_string())?;
    } else {
        emitln(&verdict_line(&head(&board, &p), &o.verdict, o.seconds, ""))?;
        if let (true, Verdict::Solvable { play }) = (a.show, &o.verdict) {
            let notation = crate::report::notation::Notation::of(&board);
            crate::cli::args::emit(&crate::report::text::moves_text(play, notation.as_ref()))?;
        }
    }
    if let Some(path) = &a.proof {
        match pattern::proof(&board, &p, &o) {
            Some(proof) => crate::files::write_atomic(path, &proof.to_bytes(path)?)?,
            None => eprintln!("solarmy: no proof written: the problem is undecided"),
        }
    }
    Ok(if o.verdict.solvable().is_some() { 0 } else { 3 })
}

/// The men of a pattern file (CSV, columns x and y); a file that is not one is a usage
/// error naming `flag`.
pub(crate) fn men(path: &Path, flag: &str) -> Result<Vec<Cell>, Error> {
    crate::report::export::read_army_in(path, 2)
        .map_err(|e| Error::usage(format!("{flag} {}: {e}", path.display())))
}

fn head(board: &PegBoard, p: &Pattern) -> String {
    format!(
        "{} pattern ({} -> {}):",
        board.name,
        men_word(p.start.len()),
        men_word(p.finish.len())
    )
}

fn to_json(board: &PegBoard, p: &Pattern, o: &Outcome) -> serde_json::Value {
    let (why, play) = match &o.verdict {
        Verdict::Undecided { why } => (Some(why.clone()), None),
        Verdict::Solvable { play } => (None, Some(play)),
        _ => (None, None),
    };
    let fields = json!({
        "board": board.name,
        "solvable": o.verdict.solvable(),
        "reason": o.verdict.reason(),
        "why": why,
        "play": play,
        "positions": o.positions,
        "seconds": o.seconds,
    });
    let problem = envelope::pattern_on(board, (&p.start, &p.finish));
    envelope::wrapped(fields, problem, board_status(&o.verdict), o.seconds)
}
