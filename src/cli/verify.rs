//! `solarmy verify`: an army and a play read from CSV files, replayed by the independent
//! checker ([`crate::proof::verify`]) on an army's lattice or on a board; with `--out DIR`
//! the play's pictures and viewer page.

use crate::cli::args::{Error, VerifyArgs, emitln, parse_level};
use crate::cli::board::board_of;
use crate::cli::envelope;
use crate::cli::plural;
use crate::problem::geometry::Cell;
use crate::proof::verify::{self, Replay, Step, men_word};
use crate::report::export;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Instant;

/// What was replayed, for the report: the problem, the men and the play, the replay's
/// verdict and the line that says it.
struct Replayed {
    problem: Value,
    men: Vec<Cell>,
    play: Vec<Step>,
    result: Result<(Replay, String), String>,
}

/// `solarmy verify`: exit 0 when the play is legal and reaches the goal, 1 when it is not.
pub fn verify(a: &VerifyArgs) -> Result<u8, Error> {
    let t0 = Instant::now();
    let dash = Path::new("-");
    if a.army_csv == dash && a.play_csv == dash {
        return Err(Error::usage(
            "standard input ('-') can stand for ARMY_CSV or PLAY_CSV, not both",
        ));
    }
    if let Some(dir) = &a.out {
        crate::cli::args::check_writable(dir)?;
    }
    let board = a.finish.is_some() || crate::cli::args::is_board(&a.problem);
    let r = if board { on_board(a)? } else { on_army(a)? };
    let seconds = t0.elapsed().as_secs_f64();
    let (status, error) = match &r.result {
        Ok(_) => ("legal", None),
        Err(e) => ("illegal", Some(e.clone())),
    };
    if a.json {
        let (men, jumps, moves, left) = r.result.as_ref().map_or((None, None, None, None), |x| {
            let x = x.0;
            (Some(x.men), Some(x.jumps), Some(x.moves), Some(x.men_left))
        });
        let fields = json!({"men": men, "jumps": jumps, "moves": moves, "men_left": left,
            "army": r.men, "play": r.play, "error": error});
        emitln(&envelope::wrapped(fields, r.problem.clone(), status, seconds).to_string())?;
    }
    match r.result {
        Ok((_, line)) if !a.json => emitln(&line)?,
        Ok(_) => {}
        Err(e) => return Err(Error::failure(e)),
    }
    Ok(0)
}

/// An army's play: from the army's start cells at the level to a man on the target.
fn on_army(a: &VerifyArgs) -> Result<Replayed, Error> {
    let army = a.problem.army()?;
    let Some(level) = a.level.as_deref() else {
        return Err(Error::usage(
            "an army's play needs --level N (men start at distance >= N from the target)",
        ));
    };
    let level = parse_level(level)?;
    let problem = envelope::army(army, level);
    envelope::watchdog(a.time_limit, a.json, problem.clone());
    let dimension = army.problem().spec.dimension;
    let men = export::read_army_in(&a.army_csv, dimension)?;
    let play = export::read_play_in(&a.play_csv, dimension)?;
    let result = verify::replay(&army.lattice(), level, &men, &play).map(|r| {
        let target = if dimension == 3 { "(0,0,0)" } else { "(0,0)" };
        let line = format!(
            "legal: {}, {}, {}, {} left, target {target} reached at level {level}",
            men_word(r.men),
            plural(r.jumps, "jump"),
            plural(r.moves, "move"),
            men_word(r.men_left)
        );
        (r, line)
    });
    envelope::answered();
    if let (Some(dir), Ok((r, _))) = (&a.out, &result) {
        let stem = format!("{army}-{level}-verified");
        let caption = format!("{army} army, level {level}: {} men, verified", r.men);
        crate::cli::write_pictures(dir, &stem, (army, level, r.moves), (&men, &play), &caption)?;
    }
    Ok(Replayed {
        problem,
        men,
        play,
        result: result.map_err(|e| e.to_string()),
    })
}

/// The finish of a board play: `--finish X,Y` (one man on that hole), or `--finish FILE` (a
/// CSV of the finish position's men, a pattern problem's).
fn finish_of(a: &VerifyArgs) -> Result<(Vec<Cell>, bool), Error> {
    let given = a.finish.as_deref().unwrap_or_default();
    if let Ok(c) = crate::play::peg::parse_cell(given) {
        return Ok((vec![c], false));
    }
    if !Path::new(given).exists() {
        return Err(Error::usage(format!(
            "--finish '{given}': neither X,Y nor a file of the finish position's men"
        )));
    }
    Ok((
        crate::cli::pattern::men(Path::new(given), "--finish")?,
        true,
    ))
}

/// A board play: from the start read (any position of the board) to one man on the finish,
/// or to exactly the finish position of a pattern.
fn on_board(a: &VerifyArgs) -> Result<Replayed, Error> {
    if !crate::cli::args::is_board(&a.problem) {
        return Err(Error::usage(
            "--finish is for board models (--model FILE, e.g. models/english.toml); an army's play takes --level N",
        ));
    }
    if a.finish.is_none() {
        return Err(Error::usage(
            "a board play needs --finish X,Y, the hole its last man must stand on (or FILE, the finish position's men)",
        ));
    }
    let board = board_of(&a.problem)?;
    let (finish, pattern) = finish_of(a)?;
    let f = finish[0];
    let men = export::read_army(&a.army_csv)?;
    let play = export::read_play(&a.play_csv)?;
    // A single-vacancy start to one man is the board problem (vacancy, finish); a finish
    // position makes a pattern problem; any other start has no vacancy to name, and is the
    // board's model with that finish.
    let empty: Vec<Cell> = board
        .cells
        .iter()
        .copied()
        .filter(|c| !men.contains(c))
        .collect();
    let vacancy = (empty.len() == 1 && !pattern).then(|| empty[0]);
    let problem = match vacancy {
        _ if pattern => envelope::pattern_on(&board, (&men, &finish)),
        Some(v) => envelope::board(&board, v, f),
        None => {
            let mut p = envelope::model(&board.name, &board.spec);
            p["finish"] = json!([f.0, f.1]);
            p
        }
    };
    envelope::watchdog(a.time_limit, a.json, problem.clone());
    let holes = board.cells.iter().copied().collect();
    let result = verify::replay_board(&holes, &board.directions, &men, &play, &finish).map(|r| {
        let left = if pattern {
            format!("to the finish position ({})", men_word(finish.len()))
        } else {
            format!("one man left on ({},{})", f.0, f.1)
        };
        let line = format!(
            "legal: {}, {}, {}, {left} of board {}",
            men_word(r.men),
            plural(r.jumps, "jump"),
            plural(r.moves, "move"),
            board.name
        );
        (r, line)
    });
    envelope::answered();
    if let (Some(dir), Ok(_)) = (&a.out, &result) {
        match vacancy {
            Some(v) => {
                let stem = format!("{}-verified", board.name);
                let start = format!("{}", a.army_csv.display());
                crate::report::boards::write_play(dir, (&stem, &start), &board, v, &play)?;
            }
            None => eprintln!(
                "solarmy: no picture written: the start leaves {} holes empty, not one",
                empty.len()
            ),
        }
    }
    Ok(Replayed {
        problem,
        men,
        play,
        result,
    })
}
