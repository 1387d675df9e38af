//! The fewest moves of every problem of a board's catalogue (`catalog --model BOARD --moves`)
//! as library calls: [`run`] searches them by [`crate::play::peg::fewest::catalogue_resumed`],
//! resumed from the problems an earlier run searched to the end ([`known_entries`], kept in
//! a [`crate::search::state`] file), checks each answer against the catalogue's own verdict
//! and replays its play ([`check_entry`]), and keeps the state again; [`moves_csv`] is the
//! table of the answers, one row per problem.

use crate::error::{Error, Result};
use crate::play::peg::PegBoard;
use crate::play::peg::fewest::{Entry, Limits, Status, catalogue_resumed};
use crate::play::peg::settle::Outcome;
use crate::search::state::{self, Stamp};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the state is kept and whether the line saying what it held is left unsaid.
pub struct Kept<'a> {
    pub path: &'a Path,
    pub stamp: &'a Stamp,
    pub quiet: bool,
}

/// The fewest moves of every problem of `board`'s catalogue within `lim` and `deadline`, after
/// its verdicts (`outcomes`): with `kept`, the problems an earlier run searched to the end are
/// taken from its state and the state is written again. Each entry searched to the end is
/// checked ([`check_entry`]) and then given to `write`; `shown` sees every entry. The first
/// failure of a check or of `write` stops the checks and the writing (the search goes on, and
/// the state is kept) and is the error returned.
pub fn run(
    (board, outcomes): (&PegBoard, &[Outcome]),
    lim: &Limits,
    (deadline, kept): (Option<Instant>, Option<Kept>),
    write: &mut dyn FnMut(&Entry) -> Result<()>,
    shown: &mut dyn FnMut(&Entry),
) -> Result<Vec<Entry>> {
    let known = kept.as_ref().map_or(Vec::new(), |k| {
        known_entries(k.path, k.stamp, board, k.quiet)
    });
    let mut failed: Option<Error> = None;
    let entries = catalogue_resumed(board, lim, (deadline, &known), &mut |e| {
        if failed.is_none()
            && e.status == Status::Searched
            && let Err(err) = check_entry(board, outcomes, e).and_then(|()| write(e))
        {
            failed = Some(err);
        }
        shown(e);
    })
    .map_err(Error::Solver)?;
    if let Some(k) = &kept {
        let searched: Vec<&Entry> = (entries.iter())
            .filter(|e| e.status == Status::Searched)
            .collect();
        state::write(k.path, k.stamp, &searched)?;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(entries),
    }
}

/// A catalogue's state in DIR (`kind`: "catalog", "catalog-moves"): its path,
/// `DIR/<board>-<kind>-state.json`, and its stamp (the board's model, named as the JSON
/// envelope names it, and `options`).
pub fn state_of(
    out: &Path,
    board: &PegBoard,
    kind: &str,
    options: serde_json::Value,
) -> (PathBuf, Stamp) {
    let path = out.join(format!("{}-{kind}-state.json", board.name));
    let problem = serde_json::json!({
        "name": board.name,
        "fingerprint": crate::problem::fingerprint::fingerprint(&board.spec, crate::problem::fingerprint::Ends::Model),
    });
    (path, Stamp::new(kind, problem, options))
}

/// The problems an earlier `--moves` searched to the end, from its state (each play replayed
/// again, with its move count: an entry whose play does not is searched again), with a line
/// saying how many.
pub fn known_entries(path: &Path, stamp: &Stamp, board: &PegBoard, quiet: bool) -> Vec<Entry> {
    let replays = |e: &Entry| match &e.solved.play {
        Some(play) => (board.replay(e.vacancy, play, e.finish))
            .is_ok_and(|r| Some(r.moves as u32) == e.solved.min_moves),
        None => e.solved.min_moves.is_none(),
    };
    let searched = |e: &Entry| e.status == Status::Searched && replays(e);
    state::read_kept(path, stamp, quiet, searched, |k| {
        format!("the fewest moves of {k} problems")
    })
}

/// Checks an entry searched to the end against the catalogue's verdict (solvable exactly when
/// a play exists) and replays its play, in its number of moves.
pub fn check_entry(board: &PegBoard, outcomes: &[Outcome], e: &Entry) -> Result<()> {
    let (v, f) = (e.vacancy, e.finish);
    if e.status != Status::Searched {
        return Ok(());
    }
    let verdict = outcomes
        .iter()
        .find(|o| (o.vacancy, o.finish) == (v, f))
        .and_then(|o| o.verdict.solvable());
    if verdict.is_some_and(|s| s != e.solved.min_moves.is_some()) {
        return Err(Error::Disagreement(format!(
            "internal error: ({},{}) -> ({},{}): the catalogue and the search by levels disagree on solvability",
            v.0, v.1, f.0, f.1
        )));
    }
    let stem = format!("{}-{}", board.name, crate::play::peg::catalog::stem(v, f));
    if let Some(play) = &e.solved.play {
        let r = board.replay(v, play, f).map_err(|err| {
            Error::Solver(format!(
                "internal error: {stem}: the play does not replay: {err}"
            ))
        })?;
        if Some(r.moves as u32) != e.solved.min_moves {
            return Err(Error::Solver(format!(
                "internal error: {stem}: the play's move count differs"
            )));
        }
    }
    Ok(())
}

/// `DIR/<board>-moves.csv`: one row per problem up to symmetry.
pub fn moves_csv(entries: &[Entry]) -> String {
    let mut csv = String::from(
        "vacancy_x,vacancy_y,finish_x,finish_y,orbit,status,min_moves,on_plays,levels_built,seconds\n",
    );
    for e in entries {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{:.3}",
            e.vacancy.0,
            e.vacancy.1,
            e.finish.0,
            e.finish.1,
            e.orbit,
            match (e.status, e.solved.min_moves) {
                (Status::Searched, None) => "impossible",
                // Searched to the end, with no proof that `check` accepted.
                (Status::Searched, Some(_)) => "searched",
                (st, _) => st.name(),
            },
            e.solved.min_moves.map_or(String::new(), |m| m.to_string()),
            e.solved.on_plays.iter().sum::<u64>(),
            e.built,
            e.solved.seconds
        );
    }
    csv
}
