//! The fewest moves as the `moves` and `catalog --moves` commands run them, as library
//! functions a library user can call too: an army's search seeded and resumed from its state
//! ([`army`], [`resume`]), a board problem's by iterative deepening ([`board`]) and by levels
//! ([`levels`]), every problem of a board's catalogue ([`catalogue`]), and the proof file of
//! an answer ([`proof`]). The searches themselves are [`crate::play::moves`] and
//! [`crate::play::peg::fewest`]; here they are seeded and resumed, and every play they report
//! is replayed by [`crate::proof::verify`] before it is returned.

pub mod army;
pub mod board;
pub mod catalogue;
pub mod levels;
pub mod proof;
pub mod resume;

use crate::error::{Error, Result};
use crate::proof::verify::{self, Step};

/// A reported play (`play`, said to take `moves` moves), replayed once more by the
/// independent checker (`replay`): it must replay, in that number of moves.
pub fn replayed_as_reported(
    play: Option<&[Step]>,
    moves: Option<u32>,
    replay: &dyn Fn(&[Step]) -> std::result::Result<verify::Replay, String>,
) -> Result<()> {
    let Some(play) = play else {
        return Ok(());
    };
    let r = replay(play).map_err(|e| {
        Error::Solver(format!(
            "internal error: the reported play does not replay: {e}"
        ))
    })?;
    if Some(r.moves as u32) != moves {
        return Err(Error::Solver(
            "internal error: the reported play's move count differs".into(),
        ));
    }
    Ok(())
}
