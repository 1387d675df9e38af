//! `solve --incumbent ARMY_CSV PLAY_CSV`: an army found elsewhere, handed to the climb.
//!
//! Some armies are found by means the crate does not run itself: a longer search on another
//! machine, or `scripts/find-army`, which solves the staged programs with another MIP solver.
//! Such an army counts only after the same replay `solarmy verify` does
//! ([`crate::proof::verify::replay`]), at the level asked; then it is a [`Found`], exactly as
//! an army of `--find` is: it caps the climb (the rounds of its size and above are never
//! solved) and is reported as `best_size` when the climb stops short of it, never as a
//! minimum. Nothing about how it was found is trusted.

use crate::error::Error;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::report::export;
use crate::search::outcome::Found;
use std::path::PathBuf;

/// Reads and replays an army and its play; a play that is not legal at `level`, or that
/// does not end with a jump into the target, is an input error naming why.
pub fn read(army: Army, level: i32, files: &[PathBuf]) -> Result<Found, Error> {
    let [army_csv, play_csv] = files else {
        return Err(Error::Input("--incumbent takes two files".into()));
    };
    let dimension = army.problem().spec.dimension;
    let men = export::read_army_in(army_csv, dimension)?;
    let play = export::read_play_in(play_csv, dimension)?;
    let replayed = verify::replay(&army.lattice(), level, &men, &play).map_err(|e| {
        Error::Input(format!(
            "--incumbent {}: not a legal play at level {level}: {e}",
            play_csv.display()
        ))
    })?;
    // The replay ends on the target, so the last jump lands there: 2d over d.
    let last = play.last().expect("a legal play has a jump");
    debug_assert_eq!(last.to, Cell::ORIGIN);
    Ok(Found {
        army_cells: men,
        moves: replayed.moves,
        last_jump: last.over,
        play,
        cells: 0,
        jumps: 0,
    })
}

/// The smaller of two armies (the first on a tie): what the climb is capped by.
pub fn better(a: Option<Found>, b: Option<Found>) -> Option<Found> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.men() < x.men() { y } else { x }),
        (x, y) => x.or(y),
    }
}
