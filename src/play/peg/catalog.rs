//! The catalogue of a board: every single-vacancy → single-survivor problem up to the
//! board's symmetry, each settled by [`super::settle`], and the files that record it (a CSV
//! table, a JSON document, a picture of the solvable pairs).

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
    mut each: impl FnMut(&Outcome),
) -> Result<Vec<Outcome>, String> {
    // Ctrl-C counts as the deadline: what is left gets the cheap steps only (milliseconds a
    // problem), so the catalogue settled so far is still written whole.
    let interrupted = || crate::ip::solve::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed);
    let late = || interrupted() || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let cheap = Limits {
        rounds: 0,
        pruned: false,
        ..limits.clone()
    };
    let quick = Limits {
        rounds: 1,
        search_budget: 0,
        pruned: false,
        ..limits.clone()
    };
    let mut out = Vec::new();
    for (v, f) in board.problems() {
        out.push(settle::settle(
            board,
            v,
            f,
            if late() { &cheap } else { &quick },
        )?);
    }
    for o in out.iter_mut() {
        if o.verdict.solvable().is_none() {
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

/// Where a hole is drawn, in board units (y up, as in the model file).
fn place(board: &PegBoard, Cell(x, y, _): Cell) -> (f64, f64) {
    let e = match board.embedding.as_str() {
        "hexagonal" => crate::problem::geometry::Embedding::Hexagonal,
        "triangle" => crate::problem::geometry::Embedding::Triangle,
        _ => crate::problem::geometry::Embedding::Square,
    };
    e.point(Cell::xy(x, y))
}

/// The board's extent in the plane: (x min, x max), (y min, y max) of its holes.
fn extent(board: &PegBoard) -> ((f64, f64), (f64, f64)) {
    let pts: Vec<(f64, f64)> = board.cells.iter().map(|&c| place(board, c)).collect();
    let span = |f: fn(&(f64, f64)) -> f64| {
        pts.iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(f(p)), b.max(f(p))))
    };
    (span(|p| p.0), span(|p| p.1))
}

/// A picture of the catalogue: one small board per vacancy (up to symmetry), the vacancy
/// ringed, every finish of a solvable problem from it filled, the others hollow.
pub fn svg(board: &PegBoard, outcomes: &[Outcome]) -> String {
    let mut vacancies: Vec<Cell> = outcomes.iter().map(|o| o.vacancy).collect();
    vacancies.dedup();
    let ((x0, x1), (y0, y1)) = extent(board);
    let unit = 14.0;
    let (w, h) = ((x1 - x0 + 2.0) * unit, (y1 - y0 + 2.0) * unit + 16.0);
    let per_row = 6usize;
    let rows = vacancies.len().div_ceil(per_row);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"10\">\n",
        w * per_row.min(vacancies.len()) as f64,
        h * rows as f64 + 24.0
    );
    let solvable = solvable(outcomes);
    let _ = writeln!(
        s,
        "<text x=\"4\" y=\"14\" font-size=\"12\">{}: {solvable} solvable problems up to symmetry; filled: a finish solvable from the ringed vacancy</text>",
        board.name
    );
    for (k, &v) in vacancies.iter().enumerate() {
        let (ox, oy) = ((k % per_row) as f64 * w, (k / per_row) as f64 * h + 24.0);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">vacancy ({},{})</text>",
            ox + 4.0,
            oy + 10.0,
            v.0,
            v.1
        );
        for &c in &board.cells {
            let (px, py) = place(board, c);
            let cx = ox + (px - x0 + 1.0) * unit;
            let cy = oy + 16.0 + (y1 - py + 1.0) * unit;
            let good = outcomes
                .iter()
                .any(|o| o.vacancy == v && o.finish == c && o.verdict.solvable() == Some(true));
            let fill = if good { "#2a7" } else { "none" };
            let _ = writeln!(
                s,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"4\" fill=\"{fill}\" stroke=\"#555\"/>"
            );
            if c == v {
                let _ = writeln!(
                    s,
                    "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"6.5\" fill=\"none\" stroke=\"#c22\" stroke-width=\"1.5\"/>"
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// A picture of one play: the board, the vacancy ringed, each jump an arrow from its
/// from-hole to its landing hole, numbered, the last man's hole filled.
pub fn play_svg(board: &PegBoard, vacancy: Cell, play: &[crate::proof::verify::Step]) -> String {
    let ((x0, x1), (y0, y1)) = extent(board);
    let unit = 48.0;
    let at = |c: Cell| {
        let (px, py) = place(board, c);
        ((px - x0 + 1.0) * unit, (y1 - py + 1.0) * unit + 20.0)
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        (x1 - x0 + 2.0) * unit,
        (y1 - y0 + 2.0) * unit + 20.0
    );
    let last = play.last().map(|st| st.to);
    let _ = writeln!(
        s,
        "<text x=\"4\" y=\"14\" font-size=\"13\">{}: vacancy ({},{}), {} jumps, {} moves</text>",
        board.name,
        vacancy.0,
        vacancy.1,
        play.len(),
        crate::proof::verify::count_moves(play)
    );
    for &c in &board.cells {
        let (cx, cy) = at(c);
        let fill = if Some(c) == last { "#2a7" } else { "#eee" };
        let ring = if c == vacancy { "#c22" } else { "#555" };
        let _ = writeln!(
            s,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"9\" fill=\"{fill}\" stroke=\"{ring}\" stroke-width=\"2\"/>"
        );
    }
    for (i, st) in play.iter().enumerate() {
        let ((ax, ay), (bx, by)) = (at(st.from), at(st.to));
        let _ = writeln!(
            s,
            "<line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"#36c\" stroke-opacity=\"0.5\"/>"
        );
        let (mx, my) = at(st.over);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#036\">{}</text>",
            mx + 6.0,
            my - 6.0 - (i % 2) as f64 * 9.0,
            i + 1
        );
    }
    s.push_str("</svg>\n");
    s
}
