//! The independent replay checker.
//!
//! Kept apart from the solver and the backtracker on purpose (as a proof checker is kept apart
//! from the prover): it knows only the lattice, the level and the rules of the game. It takes
//! an army and a play in plain coordinates and replays them on an unbounded board, so a bug
//! in the board, the model or the ordering cannot make it accept a wrong play.

use crate::problem::geometry::{Cell, Lattice, StartRegion};
use std::collections::HashSet;

/// One jump of a play, in coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Step {
    pub from: Cell,
    pub over: Cell,
    pub to: Cell,
}

/// What a successful replay saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    pub men: usize,
    pub jumps: usize,
    /// Runs of consecutive jumps by the same man.
    pub moves: usize,
    pub men_left: usize,
}

/// Number of moves: a new move starts whenever a jump does not start where the last landed.
pub fn count_moves(play: &[Step]) -> usize {
    play.iter()
        .enumerate()
        .filter(|&(i, s)| i == 0 || play[i - 1].to != s.from)
        .count()
}

/// Replays `play` from `army` under the rules of `lattice` at `level`; the target is (0,0).
/// On failure the message names the first bad man or jump (1-based) and why.
pub fn replay(
    lattice: &Lattice,
    level: i32,
    army: &[Cell],
    play: &[Step],
) -> Result<Replay, crate::error::Error> {
    replay_rules(lattice, level, army, play).map_err(crate::error::Error::Input)
}

/// The start position of an army: every man on a lattice cell in a row >= `level`, no two
/// on one cell; otherwise one line naming the first bad man (1-based).
pub fn start_position(
    lattice: &Lattice,
    level: i32,
    army: &[Cell],
) -> Result<HashSet<Cell>, String> {
    let mut board: HashSet<Cell> = HashSet::new();
    for (i, &c) in army.iter().enumerate() {
        if !lattice.contains(c) {
            return Err(format!(
                "man {} at {c:?} is not a cell of this lattice",
                i + 1
            ));
        }
        if !lattice.start.contains(c, level) {
            return Err(match lattice.start {
                StartRegion::HalfSpace => format!(
                    "man {} at {c:?} stands in row {} < level {level}",
                    i + 1,
                    c.1
                ),
                _ => format!(
                    "man {} at {c:?} stands inside the desert of level {level}",
                    i + 1
                ),
            });
        }
        if !board.insert(c) {
            return Err(format!("man {} at {c:?} duplicates another man", i + 1));
        }
    }
    Ok(board)
}

fn replay_rules(
    lattice: &Lattice,
    level: i32,
    army: &[Cell],
    play: &[Step],
) -> Result<Replay, String> {
    let mut board = start_position(lattice, level, army)?;
    for (i, s) in play.iter().enumerate() {
        let shape = (!lattice.is_jump(s.from, s.over, s.to))
            .then_some("not a jump of this army (cells not in a line along a jump direction)");
        play_jump(&mut board, i + 1, s, shape)?;
    }
    if !board.contains(&Cell::ORIGIN) {
        let target = if lattice.dimension() == 3 {
            "(0,0,0)"
        } else {
            "(0,0)"
        };
        return Err(format!(
            "the play ends without a man on the target {target}"
        ));
    }
    Ok(Replay {
        men: army.len(),
        jumps: play.len(),
        moves: count_moves(play),
        men_left: board.len(),
    })
}

/// Replays `play` on a finite board: the holes `cells`, jumps along `directions` with all
/// three cells holes, from the men `start`, to exactly the men `finish` (one man on one hole
/// for Bell's problems, any position for a pattern problem). On failure the message names
/// the first bad man or jump (1-based) and why.
pub fn replay_board(
    cells: &HashSet<Cell>,
    directions: &[Cell],
    start: &[Cell],
    play: &[Step],
    finish: &[Cell],
) -> Result<Replay, String> {
    let mut board: HashSet<Cell> = HashSet::new();
    for (i, &c) in start.iter().enumerate() {
        if !cells.contains(&c) {
            return Err(format!("man {} at {c:?} is not a hole of the board", i + 1));
        }
        if !board.insert(c) {
            return Err(format!("man {} at {c:?} duplicates another man", i + 1));
        }
    }
    for (i, s) in play.iter().enumerate() {
        let d = s.over - s.from;
        let shape = if !directions.contains(&d) || s.to != s.over + d {
            Some("not a jump of this board (cells not in a line along a jump direction)")
        } else if ![s.from, s.over, s.to].iter().all(|c| cells.contains(c)) {
            Some("a cell of the jump is not a hole of the board")
        } else {
            None
        };
        play_jump(&mut board, i + 1, s, shape)?;
    }
    let wanted: HashSet<Cell> = finish.iter().copied().collect();
    if board != wanted {
        let mut left: Vec<Cell> = board.into_iter().collect();
        left.sort();
        let what = match finish {
            [one] => format!("one man on the finish {one:?}"),
            _ => format!("the finish position {finish:?}"),
        };
        return Err(format!(
            "the play ends with {} {left:?}, not {what}",
            men_word(left.len())
        ));
    }
    Ok(Replay {
        men: start.len(),
        jumps: play.len(),
        moves: count_moves(play),
        men_left: wanted.len(),
    })
}

/// Plays jump number `n` on `board` if it is legal; `shape` says why its cells are not a
/// jump of the problem, when they are not.
fn play_jump(
    board: &mut HashSet<Cell>,
    n: usize,
    s: &Step,
    shape: Option<&str>,
) -> Result<(), String> {
    let why = shape.or(if !board.contains(&s.from) {
        Some("no man on the from-cell")
    } else if !board.contains(&s.over) {
        Some("no man on the jumped cell")
    } else if board.contains(&s.to) {
        Some("the landing cell is occupied")
    } else {
        None
    });
    if let Some(why) = why {
        return Err(format!(
            "jump {n} {:?} over {:?} into {:?} is illegal: {why}",
            s.from, s.over, s.to
        ));
    }
    board.remove(&s.from);
    board.remove(&s.over);
    board.insert(s.to);
    Ok(())
}

/// "1 man", "3 men".
pub fn men_word(n: usize) -> String {
    if n == 1 {
        "1 man".into()
    } else {
        format!("{n} men")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    #[test]
    fn conway_level_2_by_hand() {
        let l = Army::conway().lattice();
        let army = [
            Cell::xy(0, 2),
            Cell::xy(0, 3),
            Cell::xy(1, 3),
            Cell::xy(-1, 3),
        ];
        let s = |f: Cell, o: Cell, t: Cell| Step {
            from: f,
            over: o,
            to: t,
        };
        let play = [
            s(Cell::xy(1, 3), Cell::xy(0, 3), Cell::xy(-1, 3)),
            s(Cell::xy(0, 2), Cell::xy(0, 3), Cell::xy(0, 4)),
        ];
        // The second jump is illegal: (0,3) was jumped already.
        assert!(
            replay(&l, 2, &army, &play)
                .unwrap_err()
                .to_string()
                .starts_with("jump 1")
        );
        let army = [
            Cell::xy(0, 2),
            Cell::xy(0, 3),
            Cell::xy(1, 4),
            Cell::xy(0, 4),
        ];
        let play = [
            s(Cell::xy(1, 4), Cell::xy(0, 4), Cell::xy(-1, 4)),
            s(Cell::xy(0, 3), Cell::xy(0, 2), Cell::xy(0, 1)),
        ];
        let err = replay(&l, 2, &army, &play).unwrap_err().to_string();
        assert!(err.contains("without a man on the target"), "{err}");
    }
}
