//! A classical board problem's fewest moves by iterative deepening (`moves --model BOARD
//! --vacancy X,Y --finish X,Y --ida`) as a library call: the problem translated so the finish
//! is (0,0), the search's target ([`problem`]), seeded with a known play ([`seed_play`]), and
//! the answer translated back to the board's own coordinates and replayed there by
//! [`crate::proof::verify::replay_board`] ([`solve`]).

use super::army::ReadPlay;
use super::replayed_as_reported;
use crate::error::{Error, Result};
use crate::play::moves::{self, Answer, Goal, Options, Problem};
use crate::play::peg::PegBoard;
use crate::play::peg::settle::{self, Limits, Verdict};
use crate::problem::geometry::{Cell, Embedding, Lattice, Region, StartRegion, Symmetry};
use crate::proof::verify::{self, Step};
use std::collections::HashSet;
use std::path::Path;

/// `c` moved by `sign` times `by`.
pub fn shift(c: Cell, by: Cell, sign: i32) -> Cell {
    c + sign * by
}

/// Every cell of `play` moved by `sign` times `by`.
pub fn shift_play(play: &[Step], by: Cell, sign: i32) -> Vec<Step> {
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
pub fn problem(board: &PegBoard, vacancy: Cell, finish: Cell) -> Problem {
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

/// `play` replayed on the board from the start of `vacancy` to one man on `finish`, by the
/// independent checker.
pub fn replay(
    board: &PegBoard,
    (vacancy, finish): (Cell, Cell),
    play: &[Step],
) -> std::result::Result<verify::Replay, String> {
    let holes: HashSet<Cell> = board.cells.iter().copied().collect();
    let start = board.start(vacancy);
    verify::replay_board(&holes, &board.directions, &start, play, &[finish])
}

/// The upper bound: the play of `seed` when given (it must replay), else the board solver's
/// play when it finds one (any play is an upper bound; it proves nothing about the minimum).
pub fn seed_play(
    board: &PegBoard,
    (v, f): (Cell, Cell),
    seed: Option<&Path>,
    read: ReadPlay,
) -> Result<Option<Vec<Step>>> {
    if let Some(path) = seed {
        let play = read(path)?;
        replay(board, (v, f), &play)
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
        return Ok(Some(play));
    }
    let o = settle::settle(board, v, f, &Limits::default()).map_err(Error::Solver)?;
    Ok(match o.verdict {
        Verdict::Solvable { play } if replay(board, (v, f), &play).is_ok() => Some(play),
        _ => None,
    })
}

/// The fewest moves from `v` to `f` by [`crate::play::moves::solve`] with `opts` (its seed,
/// a play on the board, translated with the problem): the answer's play on the board's own
/// coordinates, replayed there as reported.
pub fn solve(board: &PegBoard, (v, f): (Cell, Cell), mut opts: Options) -> Result<Answer> {
    opts.seed = opts.seed.map(|p| shift_play(&p, f, -1));
    let mut ans = moves::solve(&problem(board, v, f), opts).map_err(Error::Solver)?;
    // Back to the board's coordinates, and replayed once more by the independent checker.
    ans.play = ans.play.map(|p| shift_play(&p, f, 1));
    replayed_as_reported(ans.play.as_deref(), ans.play_moves, &|p| {
        replay(board, (v, f), p)
    })?;
    Ok(ans)
}
