//! `solarmy moves --model BOARD --vacancy X,Y --finish X,Y` by the exact search by levels of
//! [`crate::play::peg::fewest`] (the default for boards of at most 64 holes): the fewest moves, a
//! play of that many replayed by the independent checker, and the positions per level. Thin:
//! the work is in [`crate::search::fewest_moves::levels`] (on [`crate::play::peg::fewest`]);
//! here the arguments, the display, the files and the printing.

use super::moves_args::{MovesArgs, board_proof, merge, proof_json};
use crate::cli::args::Error;
use crate::play::peg::PegBoard;
use crate::play::peg::fewest::{self, Limits, Solved};
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::search::fewest_moves::{levels, proof};
use serde_json::json;

/// Solves the problem (its play replayed by [`levels::solve`]), prints (and with --out
/// writes) the answer.
pub fn moves(
    a: &MovesArgs,
    board: &PegBoard,
    (v, f): (Cell, Cell),
    start: &[Cell],
) -> Result<u8, Error> {
    let bar = (!a.display.quiet).then(crate::cli::args::spinner).flatten();
    let lim = Limits {
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        progress: progress(bar.as_ref(), a.display.verbose),
        pruning: a.prune.clone(),
        disk: levels::disk(
            a.work.as_deref(),
            a.disk.map(|b| b as u64),
            (a.meet, a.join),
        )?,
        table: !a.no_table,
        ..Limits::default()
    }
    .with_memory_arg(a.memory);
    if let (Some(job), Some(disk)) = (a.level_part.or(a.level_merge), &lim.disk) {
        if let Some(pb) = &bar {
            pb.finish_and_clear();
        }
        // Stopped (Ctrl-C, the budgets, a level or part missing): one line, exit 3.
        for l in levels::job(board, (v, f), job, &lim, disk)?.map_err(stopped)? {
            outln!("{l}");
        }
        return Ok(0);
    }
    // Stopped by the memory budget or Ctrl-C: one line, exit 3.
    let (s, built) = levels::solve(board, (v, f), &lim)?.map_err(stopped)?;
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    let csv = match (&a.out, &s.play) {
        (Some(dir), Some(play)) => {
            crate::cli::args::check_writable(dir)?;
            Some(write_play(dir, board, (v, f), start, play)?)
        }
        _ => None,
    };
    let how = match proof::stated_levels(&s, board, (v, f)) {
        Some(counts) => proof::Claimed::Stated(counts),
        None => proof::Claimed::ByLevels {
            shown: a.display.progress(),
        },
    };
    let written = match (&a.proof, &s.play) {
        (Some(path), None) => Some(proof::write_no_play(path, &s, board, (v, f))?),
        _ => board_proof(a, board, (v, f), start, (s.play.as_deref(), true), how)?,
    };
    let mut j = answer_json(board, (v, f), start.len(), &s, built, csv.as_deref());
    if let Some(d) = &lim.disk {
        j["levels_on_disk"] = json!(d.dir.display().to_string());
        j["disk_peak_bytes"] = json!(d.peak());
    }
    merge(&mut j, proof_json(&written));
    let status = if s.min_moves.is_some() {
        "optimal"
    } else {
        "impossible"
    };
    crate::cli::envelope::wrap(
        &mut j,
        crate::cli::envelope::board(board, v, f),
        status,
        s.seconds,
    );
    if a.json {
        outln!("{j}");
    } else {
        print_answer(board, (v, f), start.len(), &s, built);
        if let (true, Some(play)) = (a.show, &s.play) {
            crate::cli::args::out(&crate::report::text::show_board(board, v, play));
        }
        for p in csv.iter().chain(written.iter().flatten()) {
            outln!("wrote {}", p.display());
        }
    }
    Ok(0)
}

/// A search stopped short: its line, exit 3.
fn stopped(line: String) -> Error {
    Error {
        code: 3,
        message: line,
    }
}

/// What the search tells as it goes: the spinner's message on a terminal; with -v also one
/// line on stderr per step, with the seconds since the start (for long runs in a log).
fn progress(bar: Option<&indicatif::ProgressBar>, verbose: bool) -> Option<fewest::Progress> {
    let bar = bar.cloned();
    if bar.is_none() && !verbose {
        return None;
    }
    let t0 = std::time::Instant::now();
    Some(std::sync::Arc::new(move |line: String| {
        if verbose {
            let text = format!("[{:.0} s] {line}", t0.elapsed().as_secs_f64());
            match &bar {
                Some(pb) => pb.println(text),
                None => eprintln!("{text}"),
            }
        }
        if let Some(pb) = &bar {
            pb.set_message(line);
        }
    }))
}

/// The answer as JSON (the fields of the iterative-deepening answer where they apply).
pub fn answer_json(
    board: &PegBoard,
    (v, f): (Cell, Cell),
    men: usize,
    s: &Solved,
    built: u64,
    csv: Option<&std::path::Path>,
) -> serde_json::Value {
    let per_level = levels::per_level(s);
    let positions: serde_json::Map<String, serde_json::Value> = per_level
        .iter()
        .enumerate()
        .map(|(d, &n)| (d.to_string(), json!(n)))
        .collect();
    json!({
        "board": board.name,
        "vacancy": [v.0, v.1],
        "finish": [f.0, f.1],
        "men": men,
        "method": "levels",
        "status": if s.min_moves.is_some() { "optimal" } else { "impossible" },
        "min_moves": s.min_moves,
        "proven": true,
        "lower_bound": s.min_moves.unwrap_or(men as u32),
        "start_bound": null,
        "best_moves": s.min_moves,
        "seed_moves": null,
        "positions": positions,
        "positions_total": built + s.on_plays.iter().sum::<u64>(),
        "levels_built": built,
        "on_plays_by_jumps": s.on_plays,
        "table": s.table,
        "symmetry": s.symmetry,
        "pagodas": s.pagodas,
        "levels_forward": s.forward,
        "levels_backward": s.backward,
        "seconds": s.seconds,
        "play": s.play,
        "play_csv": csv.map(|p| p.display().to_string()),
    })
}

fn print_answer(board: &PegBoard, (v, f): (Cell, Cell), men: usize, s: &Solved, built: u64) {
    outln!(
        "board {}  vacancy ({},{})  finish ({},{})  {men} men",
        board.name,
        v.0,
        v.1,
        f.0,
        f.1
    );
    match s.min_moves {
        Some(m) => outln!(
            "minimum {m} moves, proven: the exact search by levels examined every position on every play"
        ),
        None => outln!("impossible: no play reaches the finish (proven)"),
    }
    outln!(
        "positions: {built} in the forward and backward levels; on some play, by jumps made: {:?}",
        s.on_plays
    );
    if !s.table.is_empty() {
        outln!(
            "positions on some play per level (fewest moves from the start; up to {} symmetries):",
            s.symmetry
        );
    }
    for (d, row) in s.table.iter().enumerate() {
        let cols: Vec<String> = row
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(t, n)| format!("{t}:{n}"))
            .collect();
        outln!(
            "  level {d}: {} (by shortest play through it: {})",
            row.iter().sum::<u64>(),
            cols.join(" ")
        );
    }
    if let Some(play) = &s.play {
        outln!(
            "play verified: {} jumps in {} moves",
            play.len(),
            verify::count_moves(play)
        );
    }
    outln!("{:.2} s", s.seconds);
}

/// Writes a board play and, beside it, its start position (so that `verify --model
/// --finish` replays it), its picture (`-moves-play.svg`) and its viewer page
/// (`-moves.html`) under `dir`; returns the play's path.
pub(crate) fn write_play(
    dir: &std::path::Path,
    board: &PegBoard,
    (v, f): (Cell, Cell),
    start: &[Cell],
    play: &[crate::proof::verify::Step],
) -> Result<std::path::PathBuf, Error> {
    let stem = format!("{}-{}", board.name, crate::play::peg::catalog::stem(v, f));
    let start_csv = dir.join(format!("{stem}-moves-start.csv"));
    crate::files::write_atomic(
        &start_csv,
        crate::report::export::army_csv(start, 2).as_bytes(),
    )?;
    let p = dir.join(format!("{stem}-moves-play.csv"));
    crate::files::write_atomic(&p, crate::report::export::play_csv(play, 2).as_bytes())?;
    let start_csv = format!("{stem}-moves-start.csv");
    let names = (format!("{stem}-moves"), start_csv);
    crate::report::boards::write_play(dir, (&names.0, &names.1), board, v, play)?;
    Ok(p)
}
