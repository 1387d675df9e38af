//! The catalogue of a board: every single-vacancy → single-survivor problem up to the
//! board's symmetry, each settled by [`super::settle`], and the tables that record it (a CSV
//! table, a JSON document; its picture is drawn by `report::boards`).

use super::PegBoard;
use super::settle::{self, Limits, Outcome, Verdict};
use crate::problem::geometry::Cell;
use std::fmt::Write as _;

/// Settles every problem of the board up to symmetry, in the order of
/// [`PegBoard::problems`]; `each` sees every outcome as it is settled.
/// Two passes, so that a few hard problems early in the order cannot use up the time of the
/// easy plays after them: first every problem with the quick steps (position class,
/// resource count, the first jump vectors, the beam searches), then each one left undecided
/// with the full limits (its seconds are the sum of both passes). Both passes first try the
/// pruned exhaustion's quickest tries (milliseconds: [`super::exhaust::quick_probe`]). Past
/// `deadline` or after Ctrl-C, only the cheap steps run (position class, resource count,
/// those quick tries): what they leave open is reported undecided, never guessed.
pub fn run(
    board: &PegBoard,
    limits: &Limits,
    deadline: Option<std::time::Instant>,
    each: impl FnMut(&Outcome),
) -> Result<Vec<Outcome>, String> {
    run_shown(board, limits, deadline, &[], &mut |_, _, _| {}, each)
}

/// [`run`], telling `shown` where it is before each problem and once at the end of each
/// pass: the pass ("quick pass", "full pass"), the problems of the pass done, and how many
/// the pass has. A problem `known` decides (an earlier run's outcome, solvable or not) is
/// taken as it is, not settled again.
pub fn run_shown(
    board: &PegBoard,
    limits: &Limits,
    deadline: Option<std::time::Instant>,
    known: &[Outcome],
    shown: &mut dyn FnMut(&str, usize, usize),
    mut each: impl FnMut(&Outcome),
) -> Result<Vec<Outcome>, String> {
    // Ctrl-C counts as the deadline: what is left gets the cheap steps only (milliseconds a
    // problem), so the catalogue settled so far is still written whole.
    let interrupted = settle::interrupted;
    let late = || interrupted() || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let cheap = Limits {
        rounds: 0,
        pruned: false,
        first_dfs: false,
        ..limits.clone()
    };
    let quick = Limits {
        rounds: 1,
        search_budget: 0,
        pruned: false,
        ..limits.clone()
    };
    let mut out = Vec::new();
    let problems = board.problems();
    for (k, (v, f)) in problems.iter().copied().enumerate() {
        shown("quick pass", k, problems.len());
        let decided =
            |o: &&Outcome| (o.vacancy, o.finish) == (v, f) && o.verdict.solvable().is_some();
        if let Some(o) = known.iter().find(decided) {
            out.push(o.clone());
            continue;
        }
        out.push(settle::settle(
            board,
            v,
            f,
            if late() { &cheap } else { &quick },
        )?);
    }
    let open = out
        .iter()
        .filter(|o| o.verdict.solvable().is_none())
        .count();
    let mut k = 0;
    for o in out.iter_mut() {
        if o.verdict.solvable().is_none() {
            shown("full pass", k, open);
            k += 1;
            let full = if late() { &cheap } else { limits };
            let first = o.seconds;
            *o = settle::settle(board, o.vacancy, o.finish, full)?;
            o.seconds += first;
            if std::ptr::eq(full, &cheap)
                && let Verdict::Undecided { why } = &mut o.verdict
            {
                let stop = match interrupted() {
                    true => "the catalogue was stopped by Ctrl-C",
                    false => "the catalogue's time limit had passed",
                };
                *why = format!(
                    "{stop}: only the position class, the resource count, the quick tries of the pruned exhaustion, the first jump vectors and the beam searches were tried"
                );
            }
        }
        each(o);
    }
    shown("full pass", k, open);
    Ok(out)
}

/// Solvable problems up to symmetry.
pub fn solvable(outcomes: &[Outcome]) -> usize {
    outcomes
        .iter()
        .filter(|o| o.verdict.solvable() == Some(true))
        .count()
}

/// The file stem of one problem's files: `v<x>_<y>-f<x>_<y>`.
pub fn stem(Cell(vx, vy, _): Cell, Cell(fx, fy, _): Cell) -> String {
    format!("v{vx}_{vy}-f{fx}_{fy}")
}

/// The catalogue as CSV: vacancy, finish, solvable, reason, seconds, and the problem's
/// fingerprint (its proof's).
pub fn csv(board: &PegBoard, outcomes: &[Outcome]) -> String {
    let mut s =
        String::from("vacancy_x,vacancy_y,finish_x,finish_y,solvable,reason,seconds,fingerprint\n");
    for o in outcomes {
        let solvable = match o.verdict.solvable() {
            Some(b) => b.to_string(),
            None => "unknown".into(),
        };
        let _ = writeln!(
            s,
            "{},{},{},{},{solvable},{},{:.3},{}",
            o.vacancy.0,
            o.vacancy.1,
            o.finish.0,
            o.finish.1,
            o.verdict.reason(),
            o.seconds,
            board.fingerprint(o.vacancy, o.finish)
        );
    }
    s
}

/// The catalogue as JSON; `play_csv` names each solvable problem's play file (when written).
pub fn json(board: &PegBoard, outcomes: &[Outcome], play_dir: Option<&str>) -> serde_json::Value {
    let problems: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let play = match (&o.verdict, play_dir) {
                (Verdict::Solvable { .. }, Some(dir)) => {
                    serde_json::json!(format!(
                        "{dir}/{}-{}-play.csv",
                        board.name,
                        stem(o.vacancy, o.finish)
                    ))
                }
                _ => serde_json::Value::Null,
            };
            let mut reason = serde_json::json!(o.verdict.reason());
            if let Verdict::Undecided { why } = &o.verdict {
                reason = serde_json::json!(format!("undecided: {why}"));
            }
            serde_json::json!({
                "fingerprint": board.fingerprint(o.vacancy, o.finish),
                "vacancy": [o.vacancy.0, o.vacancy.1],
                "finish": [o.finish.0, o.finish.1],
                "solvable": o.verdict.solvable(),
                "reason": reason,
                "play_csv": play,
                "seconds": (o.seconds * 1000.0).round() / 1000.0,
            })
        })
        .collect();
    serde_json::json!({
        "board": board.name,
        "holes": board.cells.len(),
        "symmetries": board.symmetries.len(),
        "solvable": solvable(outcomes),
        "problems": problems,
    })
}
