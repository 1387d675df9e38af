//! The part every command's JSON shares (docs/json-schema.json): `problem` (its name, its
//! fingerprint, and its level or its vacancy and finish), `status` and `seconds`, and where
//! there is one the `army` (its men) and the `play` inline. The commands build their own
//! fields and [`wrap`] adds these; it also settles `army` to the one meaning, the men, so
//! no command can print another shape.

use crate::play::peg::PegBoard;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use serde_json::{Value, json};

/// An army problem: the army (or model) at a level.
pub fn army(army: Army, level: i32) -> Value {
    json!({
        "name": army.name(),
        "fingerprint": army.problem().fingerprint(),
        "level": level,
    })
}

/// A board problem: from every hole but `vacancy` to one man on `finish`.
pub fn board(board: &PegBoard, vacancy: Cell, finish: Cell) -> Value {
    json!({
        "name": board.name,
        "fingerprint": board.fingerprint(vacancy, finish),
        "vacancy": [vacancy.0, vacancy.1],
        "finish": [finish.0, finish.1],
    })
}

/// A model without a level or a vacancy: every problem of a board (`catalog`), every level
/// of an army (`bounds`).
pub fn model(name: &str, spec: &crate::problem::file::Spec) -> Value {
    json!({
        "name": name,
        "fingerprint": crate::problem::fingerprint::fingerprint(spec, crate::problem::fingerprint::Ends::Model),
    })
}

/// The problem a proof file is about, as the proof names it: a board proof by its vacancy
/// and finish (a pattern problem's by its start and finish men), an army's by its level. The fingerprint is the one `summary` rebuilt when the
/// file checked, else the one the proof records (null when it records none).
pub fn of_proof(
    proof: &crate::proof::format::Proof,
    summary: Option<&crate::proof::check::Summary>,
) -> Value {
    use crate::proof::format::Claim;
    let fingerprint = summary
        .map(|s| s.fingerprint.clone())
        .or_else(|| proof.fingerprint.clone());
    if let Claim::Pattern(p) = &proof.claim {
        return pattern(&proof.army, fingerprint, (&p.start, &p.finish));
    }
    let board = match &proof.claim {
        Claim::Board(b) => Some((b.vacancy, b.finish)),
        Claim::Moves(m) => m.board,
        _ => None,
    };
    match board {
        Some((v, f)) => json!({
            "name": proof.army,
            "fingerprint": fingerprint,
            "vacancy": [v.0, v.1],
            "finish": [f.0, f.1],
        }),
        None => json!({"name": proof.army, "fingerprint": fingerprint, "level": proof.level}),
    }
}

/// A pattern problem on `board`, its fingerprint made from the board's model and both
/// positions (as [`board`] makes a single-vacancy problem's).
pub fn pattern_on(
    board: &PegBoard,
    (start, finish): (
        &[crate::problem::geometry::Cell],
        &[crate::problem::geometry::Cell],
    ),
) -> Value {
    use crate::problem::fingerprint::{Ends, fingerprint};
    let print = fingerprint(&board.spec, Ends::Patterns(start, finish));
    pattern(&board.name, Some(print), (start, finish))
}

/// A pattern problem: its board, fingerprint, and the start's and the finish's men.
pub fn pattern(
    name: &str,
    fingerprint: Option<String>,
    (start, finish): (
        &[crate::problem::geometry::Cell],
        &[crate::problem::geometry::Cell],
    ),
) -> Value {
    let men = |p: &[crate::problem::geometry::Cell]| -> Vec<[i32; 2]> {
        p.iter().map(|c| [c.0, c.1]).collect()
    };
    json!({"name": name, "fingerprint": fingerprint, "start": men(start), "finish": men(finish)})
}

/// Adds the envelope to `v` (an object): `problem`, and `status` and `seconds` unless the
/// command's own fields already have them. Seconds are rounded to the millisecond. `army`
/// holds the men only: a name there is dropped (`problem` names it), and an older
/// `army_cells` becomes `army`.
pub fn wrap(v: &mut Value, problem: Value, status: &str, seconds: f64) {
    if let Some(o) = v.as_object_mut() {
        if o.get("army").is_some_and(Value::is_string) {
            o.remove("army");
        }
        if let Some(men) = o.remove("army_cells") {
            o.insert("army".into(), men);
        }
        o.insert("problem".into(), problem);
        o.entry("status").or_insert_with(|| json!(status));
        o.entry("seconds")
            .or_insert_with(|| json!((seconds * 1000.0).round() / 1000.0));
    }
}

/// [`wrap`] on a fresh object holding `fields`.
pub fn wrapped(fields: Value, problem: Value, status: &str, seconds: f64) -> Value {
    let mut v = fields;
    wrap(&mut v, problem, status, seconds);
    v
}

/// Set by [`answered`]: the command has its answer, and the watchdog lets it finish.
static ANSWERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that the command has its answer: from now on [`watchdog`] does not end it, so the
/// answer is never cut short by the time limit's line.
pub fn answered() {
    ANSWERED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// `--time-limit` for a command whose work cannot stop part-way (it keeps nothing worth
/// reporting half done): past `limit` seconds, unless the command has called [`answered`],
/// it is ended with exit 3 and one line, or with `json` one object whose status is
/// `time_limit`. Files are renamed into place whole, so none is left half written under its
/// name.
pub fn watchdog(limit: Option<f64>, json: bool, problem: Value) {
    let Some(secs) = limit else {
        return;
    };
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs_f64(secs));
        if ANSWERED.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let line = match json {
            true => wrapped(json!({}), problem, "time_limit", secs).to_string(),
            false => format!("stopped by --time-limit after {secs} s: no answer"),
        };
        crate::cli::args::out(&format!("{line}\n"));
        std::process::exit(3);
    });
}
