//! `solarmy moves`: the fewest moves for a given army to put a man on the target, with the
//! proof that none is shorter (see [`crate::play::moves`]). Kept apart from [`crate::cli`] so the two
//! can change independently.

use crate::cli::args::{Error, parse_level};
use crate::cli::envelope;
use crate::play::moves::{self, Options, Problem, Status};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify::{self, Step};
use crate::report::export;
use crate::search::fewest_armies::{AllArmies, Limits, fewest_over_armies};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use super::moves_args::MovesArgs;
use super::moves_args::{answer_json, exit_code, merge, print_answer, proof_json};
use crate::search::fewest_moves::army as fewest_army;
use crate::search::fewest_moves::proof::{Claimed, proof_of, write_proof};
use crate::search::fewest_moves::replayed_as_reported;

/// `solarmy moves` on an army (a board problem goes to [`super::moves_board`]).
pub fn moves(a: &MovesArgs) -> Result<u8, Error> {
    if a.vacancy.is_some() || a.finish.is_some() || crate::cli::args::is_board(&a.problem) {
        return crate::cli::moves_board::moves(a);
    }
    let army = a.problem.army()?;
    let Some(level) = &a.level else {
        return Err(Error::usage(
            "an army problem needs --level N [--from ARMY_CSV] (a board: --model FILE --vacancy X,Y --finish X,Y)",
        ));
    };
    let level = parse_level(level)?;
    let Some(from) = &a.from else {
        if a.proof.is_some() {
            return Err(Error::usage(
                "--proof needs --from ARMY_CSV: the fewest moves over every minimum army has no proof file",
            ));
        }
        return all_armies(a, army, level);
    };
    // --time-limit is checked by its parser (cli::parse_seconds).
    if a.tt_entries == 0 {
        return Err(Error::usage("--tt-entries must be at least 1"));
    }
    let men = export::read_army(from)?;
    let problem =
        Problem::army(army, level, &men).map_err(|e| format!("{}: {e}", from.display()))?;
    let (seed, seed_note) = if a.no_seed {
        (None, None)
    } else {
        let read = &export::read_play;
        fewest_army::seed_play(a.seed.as_deref(), from, (army, level, &men), read)?
    };
    let seed_moves = seed.as_ref().map(|p| verify::count_moves(p) as u32);
    let resumed = fewest_army::resume(a.out.as_deref(), (army, level, &men), seed);
    crate::cli::args::install_interrupt_handler();
    let (bar, progress) = spinner(a.display.quiet);
    let opts = Options {
        time_limit: a.time_limit,
        tt_entries: a.tt_entries,
        probe_positions: a.probe,
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        progress,
        ..Options::default()
    };
    let ans = fewest_army::solve(&problem, (army, level, &men), resumed, opts)?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    let csv = match (&a.out, &ans.play) {
        (Some(dir), Some(play)) => {
            let note = if ans.status == Status::Optimal {
                " (fewest)"
            } else {
                ""
            };
            let stem = format!("{army}-{level}-moves");
            Some(write_play(dir, &stem, (army, level), (&men, play), note)?)
        }
        _ => None,
    };
    if let Some(n) = &seed_note {
        eprintln!("solarmy: {n}");
    }
    let written = army_proof(a, army, level, &men, &ans)?;
    report(
        a,
        (army, level, &men),
        &ans,
        seed_moves,
        csv.as_deref(),
        &written,
    );
    Ok(exit_code(ans.status))
}

/// The answer of `moves --from`: one JSON object with the envelope, or the text (with
/// `--show`, the army and the play drawn).
fn report(
    a: &MovesArgs,
    (army, level, men): (Army, i32, &[Cell]),
    ans: &moves::Answer,
    seed_moves: Option<u32>,
    csv: Option<&Path>,
    written: &Option<Result<PathBuf, String>>,
) {
    let stem = (army.name(), level, men.len());
    if a.json {
        let mut j = answer_json(stem, ans, seed_moves, a.tt_entries, csv);
        merge(&mut j, proof_json(written));
        j["army_cells"] = serde_json::json!(men);
        let problem = envelope::army(army, level);
        envelope::wrap(&mut j, problem, ans.status.as_str(), ans.seconds);
        outln!("{j}");
    } else {
        print_answer(stem, ans, seed_moves, a.tt_entries, csv);
        if let (true, Some(play)) = (a.show, &ans.play) {
            let text = crate::report::text::show_army(&army.lattice(), men, play);
            crate::cli::args::out(&text);
        }
        if let Some(Ok(p)) = written {
            outln!("wrote {}", p.display());
        }
    }
}

/// With --proof: the proof of a proven minimum written, or why none was.
fn army_proof(
    a: &MovesArgs,
    army: Army,
    level: i32,
    men: &[Cell],
    ans: &moves::Answer,
) -> Result<Option<Result<PathBuf, String>>, Error> {
    let Some(path) = &a.proof else {
        return Ok(None);
    };
    let (Status::Optimal, Some(play)) = (ans.status, &ans.play) else {
        let why = format!("the minimum is not proven ({})", ans.status.as_str());
        eprintln!("solarmy: no proof written to {}: {why}", path.display());
        return Ok(Some(Err(why)));
    };
    let p = army.problem();
    let model = (!p.bundled).then(|| p.source.clone());
    let proof = proof_of(
        (army.name(), model, p.fingerprint()),
        level,
        None,
        (men, play),
    );
    Ok(Some(write_proof(path, proof, Claimed::ByMoves)?))
}

/// A spinner on a terminal (none with `-q`), and the search's progress callback that feeds it.
fn spinner(quiet: bool) -> (Option<ProgressBar>, Option<moves::Progress>) {
    let bar = (!quiet).then(crate::cli::args::spinner).flatten();
    let progress: Option<moves::Progress> = bar.clone().map(|pb| {
        let t0 = Instant::now();
        Box::new(move |depth: u32, here: u64, total: u64| {
            let rate = total as f64 / t0.elapsed().as_secs_f64().max(1e-9);
            pb.set_message(format!(
                "depth {depth}: {here} positions ({total} in all, {rate:.0}/s)"
            ));
        }) as moves::Progress
    });
    (bar, progress)
}

/// Writes `DIR/<stem>-play.csv` and its viewer page `DIR/<stem>.html`, captioned with the
/// men, the moves and `note`; the CSV's path.
fn write_play(
    dir: &Path,
    stem: &str,
    (army, level): (Army, i32),
    (men, play): (&[Cell], &[Step]),
    note: &str,
) -> Result<PathBuf, Error> {
    let path = dir.join(format!("{stem}-play.csv"));
    crate::files::write_atomic(&path, export::play_csv(play, 2).as_bytes())?;
    let caption = format!(
        "{army} army, level {level}: {} men, {} moves{note}",
        men.len(),
        verify::count_moves(play),
    );
    let page = crate::report::viewer::html(army, level, men, play, &caption);
    crate::files::write_atomic(&dir.join(format!("{stem}.html")), page.as_bytes())?;
    Ok(path)
}

/// `moves --army A --level N` without `--from`: the fewest moves over every minimum army
/// ([`crate::search::fewest_armies`]), the best play replayed once more and written with
/// `--out`.
fn all_armies(a: &MovesArgs, army: Army, level: i32) -> Result<u8, Error> {
    if a.tt_entries == 0 {
        return Err(Error::usage("--tt-entries must be at least 1"));
    }
    crate::cli::args::install_interrupt_handler();
    let lim = Limits {
        time_limit: a.time_limit,
        tt_entries: a.tt_entries,
        probe_positions: a.probe,
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
    };
    let out = fewest_over_armies(army, level, &lim)?;
    let csv = match &out.best {
        Some((men, play)) => {
            replayed_as_reported(Some(play), out.best_moves, &|p| {
                verify::replay(&army.lattice(), level, men, p).map_err(|e| e.to_string())
            })?;
            match &a.out {
                Some(dir) => {
                    let stem = format!("{army}-{level}-moves-all");
                    let army_csv = dir.join(format!("{stem}-army.csv"));
                    crate::files::write_atomic(&army_csv, export::army_csv(men, 2).as_bytes())?;
                    let note = if out.proven {
                        " (fewest over every minimum army)"
                    } else {
                        ""
                    };
                    Some(write_play(dir, &stem, (army, level), (men, play), note)?)
                }
                None => None,
            }
        }
        None => None,
    };
    let stopped = crate::ip::solve::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed);
    let status = out.status(stopped, a.time_limit.is_some());
    print_all(a.json, &out, status, csv.as_deref())?;
    if let (true, Some((men, play))) = (a.show, &out.best) {
        crate::cli::args::out(&crate::report::text::show_army(&army.lattice(), men, play));
    }
    Ok(match status {
        "time_limit" | "interrupted" => 3,
        _ => 0,
    })
}

/// The answer over all armies, as JSON or as text (one line per army).
fn print_all(json: bool, out: &AllArmies, status: &str, csv: Option<&Path>) -> Result<(), Error> {
    let positions: u64 = out.armies.iter().map(|r| r.positions).sum();
    if json {
        let mut j = serde_json::json!({
            "army": out.army.name(),
            "level": out.level,
            "min_moves": out.best_moves.filter(|_| out.proven),
            "best_moves": out.best_moves,
            "proven": out.proven,
            "lower_bound": out.lower_bound,
            "count_complete": out.count_complete,
            "reason": out.reason,
            "positions": positions,
            "seconds": out.seconds,
            "armies": out.armies,
            "play": out.best.as_ref().map(|b| &b.1),
            "play_csv": csv.map(|p| p.display().to_string()),
            "army_cells": out.best.as_ref().map(|b| &b.0),
        });
        let problem = envelope::army(out.army, out.level);
        envelope::wrap(&mut j, problem, status, out.seconds);
        return crate::cli::args::emitln(&j.to_string());
    }
    if out.count_complete && out.armies.is_empty() {
        // No army reaches the level: an answer with its reason, not a search that failed.
        let why = out.reason.as_deref().unwrap_or("no army reaches it");
        return crate::cli::args::emitln(&format!(
            "{} army, level {}: impossible, so no play to shorten: {why}\n{:.2} s",
            out.army, out.level, out.seconds
        ));
    }
    let best = out.best_moves.map_or("-".into(), |m| m.to_string());
    let verdict = if out.proven {
        "proven".to_string()
    } else {
        format!("not proven, no army in fewer than {}", out.lower_bound)
    };
    let mut text = format!(
        "{} army, level {}: fewest moves over its {} minimum armies (up to symmetry): {best}, {verdict}\n",
        out.army,
        out.level,
        out.armies.len()
    );
    for r in &out.armies {
        text += &format!(
            "  army {}: {} men, {} moves ({}; no fewer than {}), {} positions, {:.2} s\n",
            r.index,
            r.men,
            r.best_moves.map_or("-".into(), |m| m.to_string()),
            r.status,
            r.lower_bound,
            r.positions,
            r.seconds
        );
    }
    if let Some(reason) = &out.reason {
        text += &format!("({reason})\n");
    }
    if let Some(p) = csv {
        text += &format!("wrote {}\n", p.display());
    }
    text += &format!("{:.2} s", out.seconds);
    crate::cli::args::emitln(&text)
}
