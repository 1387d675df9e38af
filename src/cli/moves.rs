//! `solarmy moves`: the fewest moves for a given army to put a man on the target, with the
//! proof that none is shorter (see [`crate::play::moves`]). Kept apart from [`crate::cli`] so the two
//! can change independently.

use crate::cli::args::{Error, parse_level};
use crate::play::moves::{self, Answer, Options, Problem, Status};
use crate::problem::Army;
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::{self, Step};
use crate::report::export;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use super::moves_args::MovesArgs;
use super::moves_args::{answer_json, exit_code, print_answer, replayed_as_reported};

/// The sibling play file of `.../<stem>-army.csv`, if the name fits.
fn sibling_play(army_csv: &Path) -> Option<PathBuf> {
    let name = army_csv.file_name()?.to_str()?;
    let stem = name.strip_suffix("-army.csv")?;
    Some(army_csv.with_file_name(format!("{stem}-play.csv")))
}

/// `solarmy moves` on an army (a board problem goes to [`super::moves_board`]).
pub fn moves(a: &MovesArgs) -> Result<u8, Error> {
    if a.vacancy.is_some() || a.finish.is_some() || crate::cli::args::is_board(&a.problem) {
        return crate::cli::moves_board::moves(a);
    }
    let army = a.problem.army()?;
    let (Some(level), Some(from)) = (&a.level, &a.from) else {
        return Err(Error::usage(
            "an army problem needs --level N and --from ARMY_CSV (a board: --model FILE --vacancy X,Y --finish X,Y)",
        ));
    };
    let level = parse_level(level)?;
    // --time-limit is checked by its parser (cli::parse_seconds).
    if a.tt_entries == 0 {
        return Err(Error::usage("--tt-entries must be at least 1"));
    }
    let men = export::read_army(from)?;
    let problem =
        Problem::army(army, level, &men).map_err(|e| format!("{}: {e}", from.display()))?;
    let lattice = army.lattice();
    let (seed, seed_note) = seed_play(a, from, &lattice, level, &men)?;
    let seed_moves = seed.as_ref().map(|p| verify::count_moves(p) as u32);
    let _ = ctrlc::set_handler(|| {
        crate::ip::solve::INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let (bar, progress) = spinner();
    let opts = Options {
        time_limit: a.time_limit,
        tt_entries: a.tt_entries,
        seed,
        probe_positions: a.probe,
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        progress,
    };
    let ans = moves::solve(&problem, opts)?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    replayed_as_reported(&ans, &|p| {
        verify::replay(&lattice, level, &men, p).map_err(|e| e.to_string())
    })?;
    let csv = match (&a.out, &ans.play) {
        (Some(dir), Some(play)) => Some(write_play(dir, (army, level), &men, play, &ans)?),
        _ => None,
    };
    if let Some(n) = &seed_note {
        eprintln!("solarmy: {n}");
    }
    let stem = (army.name(), level, men.len());
    if a.json {
        println!(
            "{}",
            answer_json(stem, &ans, seed_moves, a.tt_entries, csv.as_deref())
        );
    } else {
        print_answer(stem, &ans, seed_moves, a.tt_entries, csv.as_deref());
    }
    Ok(exit_code(ans.status))
}

/// The seed play: an explicit `--seed` must replay; a sibling play of the army file that does
/// not is ignored, with the note saying why.
fn seed_play(
    a: &MovesArgs,
    from: &Path,
    lattice: &Lattice,
    level: i32,
    men: &[Cell],
) -> Result<(Option<Vec<Step>>, Option<String>), Error> {
    if a.no_seed {
        return Ok((None, None));
    }
    if let Some(path) = &a.seed {
        let play = export::read_play(path)?;
        verify::replay(lattice, level, men, &play)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((Some(play), None));
    }
    let Some(path) = sibling_play(from).filter(|p| p.exists()) else {
        return Ok((None, None));
    };
    match export::read_play(&path)
        .and_then(|play| verify::replay(lattice, level, men, &play).map(|_| play))
    {
        Ok(play) => Ok((Some(play), None)),
        Err(e) => Ok((
            None,
            Some(format!(
                "{} not used as a seed: {e}",
                path.to_string_lossy()
            )),
        )),
    }
}

/// A spinner on a terminal, and the search's progress callback that feeds it.
fn spinner() -> (Option<ProgressBar>, Option<moves::Progress>) {
    let bar = crate::cli::args::spinner();
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

/// Writes the play CSV and its viewer page into `dir`; the CSV's path.
fn write_play(
    dir: &Path,
    (army, level): (Army, i32),
    men: &[Cell],
    play: &[Step],
    ans: &Answer,
) -> Result<PathBuf, Error> {
    let path = dir.join(format!("{army}-{level}-moves-play.csv"));
    crate::files::write_atomic(&path, export::play_csv(play, 2).as_bytes())?;
    let fewest = if ans.status == Status::Optimal {
        " (fewest)"
    } else {
        ""
    };
    let caption = format!(
        "{army} army, level {level}: {} men, {} moves{fewest}",
        men.len(),
        verify::count_moves(play),
    );
    let page = crate::report::viewer::html(army, level, men, play, &caption);
    let html = dir.join(format!("{army}-{level}-moves.html"));
    crate::files::write_atomic(&html, page.as_bytes())?;
    Ok(path)
}
