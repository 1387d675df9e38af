//! `solarmy moves --model BOARD --vacancy X,Y --finish X,Y`: the fewest moves for a classical
//! board problem (one empty hole to one man on the finish), by the search of [`crate::play::moves`]
//! with the board's holes as the allowed cells. Thin: it translates the problem so the finish
//! is (0,0) (the search's target), seeds it with the board solver's play, and replays the
//! answer on the board's own coordinates with [`crate::proof::verify::replay_board`].

use super::moves_args::{
    MovesArgs, answer_json, board_proof, exit_code, merge, print_body, proof_json,
};
use crate::search::fewest_moves::replayed_as_reported;
use crate::cli::args::Error;
use crate::play::moves::{self, Goal, Options, Problem};
use crate::play::peg::settle::{self, Limits, Verdict};
use crate::play::peg::{PegBoard, parse_cell};
use crate::problem::geometry::{Cell, Embedding, Lattice, Region, StartRegion, Symmetry};
use crate::proof::verify::{self, Step};
use crate::report::export;
use std::collections::HashSet;

fn cell(arg: Option<&str>, flag: &str) -> Result<Cell, Error> {
    let s = arg.ok_or_else(|| Error::usage(format!("a board problem needs --{flag} X,Y")))?;
    parse_cell(s).map_err(|e| Error::usage(format!("--{flag}: {e}")))
}

fn shift(c: Cell, by: Cell, sign: i32) -> Cell {
    c + sign * by
}

fn shift_play(play: &[Step], by: Cell, sign: i32) -> Vec<Step> {
    play.iter()
        .map(|s| Step {
            from: shift(s.from, by, sign),
            over: shift(s.over, by, sign),
            to: shift(s.to, by, sign),
        })
        .collect()
}

/// The search's problem: the board translated so `finish` is (0,0). The lattice's mirror is
/// the row-keeping reflection that maps the directions and the translated holes onto
/// themselves, if one does (the search keys positions up to it); else none.
fn problem(board: &PegBoard, vacancy: Cell, finish: Cell) -> Problem {
    let cells: Vec<Cell> = board.cells.iter().map(|&c| shift(c, finish, -1)).collect();
    let set: HashSet<Cell> = cells.iter().copied().collect();
    let dirs: HashSet<Cell> = board.directions.iter().copied().collect();
    let mut symmetries: Vec<Symmetry> = vec![crate::problem::geometry::IDENTITY];
    for m in [
        [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
        [[-1, -1, 0], [0, 1, 0], [0, 0, 1]],
        [[-1, 1, 0], [0, 1, 0], [0, 0, 1]],
    ] {
        let f = |c: Cell| crate::problem::geometry::apply(&m, c);
        if dirs.iter().all(|&d| dirs.contains(&f(d))) && set.iter().all(|&c| set.contains(&f(c))) {
            symmetries.push(m);
            break;
        }
    }
    let embedding = match board.embedding.as_str() {
        "hexagonal" => Embedding::Hexagonal,
        "triangle" => Embedding::Triangle,
        _ => Embedding::Square,
    };
    let lattice = Lattice::new(
        Region::All,
        &board.directions,
        StartRegion::HalfSpace,
        symmetries,
        embedding,
    );
    let v = shift(vacancy, finish, -1);
    Problem {
        lattice,
        army: None,
        start: cells.iter().copied().filter(|&c| c != v).collect(),
        cells: Some(cells),
        goal: Goal::OneManOn(Cell::ORIGIN),
    }
}

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
    let holes: HashSet<Cell> = board.cells.iter().copied().collect();
    let start = board.start(v);
    let replay = |play: &[Step]| verify::replay_board(&holes, &board.directions, &start, play, f);
    if !a.ida && board.cells.len() <= 64 {
        crate::cli::args::install_interrupt_handler();
        return crate::cli::moves_levels::moves(a, &board, (v, f), &start, &replay);
    }
    let seed = seed_play(a, &board, v, f, &replay)?;
    let seed_moves = seed.as_ref().map(|p| verify::count_moves(p) as u32);
    crate::cli::args::install_interrupt_handler();
    let opts = Options {
        time_limit: a.time_limit,
        tt_entries: a.tt_entries,
        seed: seed.map(|p| shift_play(&p, f, -1)),
        probe_positions: a.probe,
        interrupt: Some(&crate::ip::solve::INTERRUPTED),
        progress: None,
        resume_depth: 0,
    };
    let mut ans = moves::solve(&problem(&board, v, f), opts)?;
    // Back to the board's coordinates, and replayed once more by the independent checker.
    ans.play = ans.play.map(|p| shift_play(&p, f, 1));
    replayed_as_reported(ans.play.as_deref(), ans.play_moves, &replay)?;
    report(a, &board, (v, f), &start, &ans, seed_moves)?;
    Ok(exit_code(ans.status))
}

/// The upper bound: an explicit --seed play (it must replay), else the board solver's play
/// when it finds one (any play is an upper bound; it proves nothing about the minimum).
fn seed_play(
    a: &MovesArgs,
    board: &PegBoard,
    v: Cell,
    f: Cell,
    replay: &dyn Fn(&[Step]) -> Result<verify::Replay, String>,
) -> Result<Option<Vec<Step>>, Error> {
    if a.no_seed {
        return Ok(None);
    }
    if let Some(path) = &a.seed {
        let play = export::read_play(path)?;
        replay(&play).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Some(play));
    }
    let o = settle::settle(board, v, f, &Limits::default()).map_err(Error::failure)?;
    Ok(match o.verdict {
        Verdict::Solvable { play } if replay(&play).is_ok() => Some(play),
        _ => None,
    })
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
        (ans.play.as_deref(), proven, false),
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
