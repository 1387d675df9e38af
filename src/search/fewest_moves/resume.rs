//! The state an army's fewest-moves search keeps between runs (`moves --from ARMY --out DIR`):
//! `DIR/<army>-<level>-moves-state.json`, rewritten atomically when a run ends (a time limit,
//! Ctrl-C or the answer). It holds the depths searched to the end (the proven lower bound),
//! the positions each took, and the best play known, under a stamp of the program and the
//! problem (army, level, the men).
//!
//! A rerun with the same `--out` starts its iterative deepening at the recorded bound, seeded
//! with the recorded play. The play is replayed before it is used, like any seed; the bound is
//! this program's own earlier search, not a certificate, so an answer that rests on it says so
//! (`resumed_below`), and a state of another stamp is ignored with one line saying why.
//! Delete the file to prove the answer in one run. The file is [`crate::search::state`]'s, as
//! every command's that resumes.

use crate::error::Result;
use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use crate::search::state::{self, Stamp};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};

/// What an earlier run established.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// No play of fewer moves: every depth below it was searched to the end.
    pub lower_bound: u32,
    /// Positions examined per depth (0 where not searched).
    pub positions: Vec<u64>,
    /// The best play known (replayed before it is used).
    pub play: Option<Vec<Step>>,
}

/// The state file of a problem in `dir`.
pub fn path(dir: &Path, army: &str, level: i32) -> PathBuf {
    dir.join(format!("{army}-{level}-moves-state.json"))
}

/// The problem exactly: the army, the level and the men, sorted.
fn stamp(army: &str, level: i32, men: &[Cell]) -> Stamp {
    let mut men: Vec<(i32, i32, i32)> = men.iter().map(|c| (c.0, c.1, c.2)).collect();
    men.sort_unstable();
    Stamp::new(
        "moves",
        json!({"army": army, "level": level, "men": men}),
        json!(null),
    )
}

/// The state at `path` when its stamp is this problem's (None when there is none; one line
/// on stderr when there is one of another stamp or unreadable).
pub fn read(path: &Path, army: &str, level: i32, men: &[Cell]) -> Option<State> {
    state::read(path, &stamp(army, level, men))
}

/// Writes the state of a run that ended with this lower bound, positions and best play.
pub fn write(
    path: &Path,
    (army, level, men): (&str, i32, &[Cell]),
    lower_bound: u32,
    positions: &[u64],
    play: Option<&[Step]>,
) -> Result<()> {
    let s = State {
        lower_bound,
        positions: positions.to_vec(),
        play: play.map(<[Step]>::to_vec),
    };
    state::write(path, &stamp(army, level, men), &s)
}

/// Positions per depth of a resumed run: the earlier run's below `resumed`, this run's from it.
pub fn merged(earlier: &[u64], now: &[u64], resumed: u32) -> Vec<u64> {
    let len = earlier.len().max(now.len());
    (0..len)
        .map(|d| {
            let pick = if (d as u32) < resumed { earlier } else { now };
            pick.get(d).copied().unwrap_or(0)
        })
        .collect()
}
