//! `solarmy moves --model BOARD --vacancy X,Y --finish X,Y`: the fewest moves for a classical
//! board problem (one empty hole to one man on the finish), by the search of [`crate::play::moves`]
//! with the board's holes as the allowed cells. Thin: [`crate::search::fewest_moves::board`]
//! translates the problem so the finish is (0,0) (the search's target), seeds it with the
//! board solver's play, and replays the answer on the board's own coordinates with
//! [`crate::proof::verify::replay_board`]; here the arguments, the files and the printing.

use super::moves_args::{
    MovesArgs, answer_json, board_proof, exit_code, merge, print_body, proof_json,
};
use crate::cli::args::Error;
use crate::play::moves::{self, Options};
use crate::play::peg::{PegBoard, parse_cell};
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::report::export;
use crate::search::fewest_moves::board as fewest_board;

fn cell(arg: Option<&str>, flag: &str) -> Result<Cell, Error> {
    let s = arg.ok_or_else(|| Error::usage(format!("a board problem needs --{flag} X,Y")))?;
    parse_cell(s).map_err(|e| Error::usage(format!("--{flag}: {e}")))
}

/// `solarmy moves` on a board problem: the search by levels ([`super::moves_levels`]), or
/// with `--ida` (or more than 64 holes) the iterative deepening of [`fewest_board::solve`].
pub fn moves(a: &MovesArgs) -> Result<u8, Error> {
    if a.level.is_some() || a.from.is_some() {
        return Err(Error::usage(
            "a board problem takes --vacancy and --finish, not --level or --from",
        ));
    }
    let Some(path) = &a.problem.model else {
        return Err(Error::usage(
            "--vacancy and --finish are for board models: give --model FILE (e.g. models/english.toml)",
        ));
    };
    let board = PegBoard::read(path).map_err(Error::usage)?;
    let v = cell(a.vacancy.as_deref(), "vacancy")?;
    let f = cell(a.finish.as_deref(), "finish")?;
    board.hole(v, "--vacancy").map_err(Error::usage)?;
    board.hole(f, "--finish").map_err(Error::usage)?;
    if a.tt_entries == 0 {
        return Err(Error::usage("--tt-entries must be at least 1"));
    }
    if let Some(dir) = &a.out {
        crate::cli::args::check_writable(dir)?;
    }
    let start = board.start(v);
    if let Some(levels) = a.level_counts {
        return level_counts(a, &board, (v, f), levels);
    }
    if !a.ida && board.cells.len() <= 64 {
        crate::cli::args::install_interrupt_handler();
        return crate::cli::moves_levels::moves(a, &board, (v, f), &start);
    }
    let seed = if a.no_seed {
        None
    } else {
        fewest_board::seed_play(&board, (v, f), a.seed.as_deref(), &export::read_play)?
    };
    let seed_moves = seed.as_ref().map(|p| verify::count_moves(p) as u32);
    crate::cli::args::install_interrupt_handler();
    let opts = Options {
        time_limit: a.time_limit,
        tt_entries: a.tt_entries,
        seed,
        probe_positions: a.probe,
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        progress: None,
        resume_depth: 0,
        breadth_first: a.breadth,
    };
    let ans = fewest_board::solve(&board, (v, f), opts)?;
    report(a, &board, (v, f), &start, &ans, seed_moves)?;
    Ok(exit_code(ans.status))
}

/// Writes the play and its start (with --out) and prints the answer.
fn report(
    a: &MovesArgs,
    board: &PegBoard,
    (v, f): (Cell, Cell),
    start: &[Cell],
    ans: &moves::Answer,
    seed_moves: Option<u32>,
) -> Result<(), Error> {
    let csv = match (&a.out, &ans.play) {
        (Some(dir), Some(play)) => Some(crate::cli::moves_levels::write_play(
            dir,
            board,
            (v, f),
            start,
            play,
        )?),
        _ => None,
    };
    let proven = ans.status == moves::Status::Optimal;
    let written = board_proof(
        a,
        board,
        (v, f),
        start,
        (ans.play.as_deref(), proven),
        crate::search::fewest_moves::proof::Claimed::ByMoves,
    )?;
    if a.json {
        let mut j = answer_json(
            (&board.name, 0, start.len()),
            ans,
            seed_moves,
            a.tt_entries,
            csv.as_deref(),
        );
        let o = j.as_object_mut().expect("an object");
        o.remove("army");
        o.remove("level");
        o.insert("board".into(), board.name.clone().into());
        o.insert("vacancy".into(), serde_json::json!([v.0, v.1]));
        o.insert("finish".into(), serde_json::json!([f.0, f.1]));
        merge(&mut j, proof_json(&written));
        let problem = crate::cli::envelope::board(board, v, f);
        crate::cli::envelope::wrap(&mut j, problem, ans.status.as_str(), ans.seconds);
        outln!("{j}");
    } else {
        outln!(
            "board {}  vacancy ({},{})  finish ({},{})  {} men",
            board.name,
            v.0,
            v.1,
            f.0,
            f.1,
            start.len()
        );
        print_body(ans, seed_moves, a.tt_entries, csv.as_deref());
        if let (true, Some(play)) = (a.show, &ans.play) {
            crate::cli::args::out(&crate::report::text::show_board(board, v, play));
        }
        if let Some(Ok(p)) = &written {
            outln!("wrote {}", p.display());
        }
    }
    Ok(())
}

/// The most positions a level of `--level-counts` may hold (8 bytes each, every level kept).
const LEVEL_CAP: usize = 200_000_000;

/// `--level-counts K`: the problem's forward and endgame tables by moves, printed (or as JSON).
fn level_counts(
    a: &MovesArgs,
    board: &PegBoard,
    (v, f): (Cell, Cell),
    levels: usize,
) -> Result<u8, Error> {
    use crate::play::peg::fewest::{Bits, endgame};
    let started = std::time::Instant::now();
    let bits = Bits::new(board).map_err(Error::usage)?;
    let (vi, fi) = (board.index[&v], board.index[&f]);
    let pagodas = a.prune.pagodas(board, vi, fi);
    let rows = endgame::counts(&bits, (vi, fi), (levels, LEVEL_CAP), &pagodas);
    let symmetries = bits.stabiliser(&[vi, fi]).len();
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let j = serde_json::json!({
            "board": board.name,
            "symmetries": symmetries,
            "pruning": a.prune.name(),
            "levels": rows,
        });
        let problem = crate::cli::envelope::board(board, v, f);
        outln!(
            "{}",
            crate::cli::envelope::wrapped(j, problem, "counted", seconds)
        );
        return Ok(0);
    }
    outln!(
        "board {}  vacancy ({},{})  finish ({},{})  positions up to the {symmetries} symmetries fixing both; kept: by the {} pagodas",
        board.name,
        v.0,
        v.1,
        f.0,
        f.1,
        a.prune.name()
    );
    outln!("moves  forward  forward kept  endgame  endgame kept");
    for r in &rows {
        outln!(
            "{:>5}  {:>7}  {:>12}  {:>7}  {:>12}",
            r.moves,
            r.forward,
            r.forward_kept,
            r.endgame,
            r.endgame_kept
        );
    }
    if rows.len() < levels + 1 {
        // A table ends early when no position is left or when a level would pass the cap.
        outln!(
            "(the tables end at {} moves: no position left, or more than {LEVEL_CAP} in a level)",
            rows.len() - 1
        );
    }
    outln!("{seconds:.2} s");
    Ok(0)
}
