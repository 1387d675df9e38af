//! The fewest moves over every minimum army of an entry: the paper's "10 moves are enough for
//! the fastest 20-man army", asked of every entry.
//!
//! The minimum armies come from [`super::count`] (every army of K men, up to the problem's
//! symmetries, each with a verified play). Each is searched by [`crate::play::moves`], seeded
//! with its own play. A symmetry of the problem maps plays of an army onto plays of its image
//! move for move (it maps jumps to jumps and keeps which man makes each), so one army per
//! orbit is enough.
//!
//! The answer is the fewest moves found over all armies. It is *proven* only when the count
//! is complete and every army's proven lower bound (its search's exhaustive depths) is at
//! least that number; otherwise the proven bound over all armies is the smallest of theirs,
//! and the answer is the best play found, said as such.

use super::count::{self, CountOutcome};
use crate::error::Error;
use crate::play::moves::{self, Answer, Options, Problem};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One minimum army's search.
#[derive(Clone, Debug, Serialize)]
pub struct ArmyMoves {
    /// Its number in the count (1-based, in the count's order).
    pub index: usize,
    pub men: usize,
    /// How its search ended: optimal, impossible, time_limit or interrupted.
    pub status: &'static str,
    /// The fewest moves, when its search proved them.
    pub min_moves: Option<u32>,
    /// The moves of the best play known for it.
    pub best_moves: Option<u32>,
    /// No play of this army has fewer moves.
    pub lower_bound: u32,
    pub positions: u64,
    pub seconds: f64,
}

/// The fewest moves over every minimum army.
#[derive(Clone, Debug, Serialize)]
pub struct AllArmies {
    pub army: Army,
    pub level: i32,
    /// The fewest moves of any play found (over all armies).
    pub best_moves: Option<u32>,
    /// True when `best_moves` is proven the fewest over every minimum army.
    pub proven: bool,
    /// No minimum army reaches the level in fewer moves.
    pub lower_bound: u32,
    /// Whether the count of minimum armies was complete.
    pub count_complete: bool,
    /// Why the answer is not proven, when it is not.
    pub reason: Option<String>,
    pub armies: Vec<ArmyMoves>,
    /// The army with the fewest moves and its play.
    #[serde(skip)]
    pub best: Option<(Vec<Cell>, Vec<Step>)>,
    pub seconds: f64,
}

impl AllArmies {
    /// The verdict in one word: `optimal` when proven, `impossible` when no army reaches the
    /// level, else `interrupted` (when `interrupted`, Ctrl-C), `time_limit` (when the search
    /// had a `time_limit`) or `open`.
    pub fn status(&self, interrupted: bool, time_limit: bool) -> &'static str {
        if self.count_complete && self.armies.is_empty() && self.best.is_none() {
            "impossible"
        } else if self.proven {
            "optimal"
        } else if interrupted {
            "interrupted"
        } else if time_limit {
            "time_limit"
        } else {
            "open"
        }
    }
}

/// What each army's search gets: its time limit share, table size and probe budget.
pub struct Limits {
    pub time_limit: Option<f64>,
    pub tt_entries: usize,
    pub probe_positions: u64,
    pub interrupt: Option<&'static AtomicBool>,
}

/// Counts the minimum armies of `army` at `level` (within the first half of the time limit)
/// and searches each for its fewest moves, sharing what time is left equally.
pub fn fewest_over_armies(army: Army, level: i32, lim: &Limits) -> Result<AllArmies, Error> {
    let t0 = Instant::now();
    let counted = count::count(army, level, lim.time_limit.map(|t| t / 2.0))?;
    let mut out = AllArmies {
        army,
        level,
        best_moves: None,
        proven: false,
        lower_bound: 0,
        count_complete: counted.complete,
        reason: counted.reason.clone(),
        armies: Vec::new(),
        best: None,
        seconds: 0.0,
    };
    let playable: Vec<usize> = (0..counted.armies.len())
        .filter(|&i| counted.armies[i].playable)
        .collect();
    for (n, &i) in playable.iter().enumerate() {
        let share = lim.time_limit.map(|t| {
            let left = (t - t0.elapsed().as_secs_f64()).max(0.0);
            left / (playable.len() - n) as f64
        });
        let ans = search_army(army, level, &counted, i, lim, share)?;
        take(&mut out, &counted, i, ans);
    }
    out.lower_bound = out.armies.iter().map(|a| a.lower_bound).min().unwrap_or(0);
    out.proven = counted.complete
        && !out.armies.is_empty()
        && out.best_moves.is_some_and(|b| out.lower_bound >= b);
    if !out.proven && out.reason.is_none() {
        out.reason = Some(if out.armies.is_empty() {
            "no minimum army with a play".into()
        } else {
            "some army's search stopped before its bound reached the best play".into()
        });
    }
    out.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

/// The fewest-moves search of the `i`-th counted army, seeded with its play.
fn search_army(
    army: Army,
    level: i32,
    counted: &CountOutcome,
    i: usize,
    lim: &Limits,
    time_limit: Option<f64>,
) -> Result<Answer, Error> {
    let a = &counted.armies[i];
    let problem = Problem::army(army, level, &a.cells).map_err(Error::Input)?;
    let opts = Options {
        time_limit,
        tt_entries: lim.tt_entries,
        seed: Some(a.play.clone()),
        probe_positions: lim.probe_positions,
        interrupt: lim.interrupt,
        progress: None,
        resume_depth: 0,
        breadth_first: false,
    };
    moves::solve(&problem, opts).map_err(Error::Limit)
}

/// One army's answer into the whole: its row, and its play when it is the fewest so far.
fn take(out: &mut AllArmies, counted: &CountOutcome, i: usize, ans: Answer) {
    let a = &counted.armies[i];
    out.armies.push(ArmyMoves {
        index: i + 1,
        men: a.cells.len(),
        status: ans.status.as_str(),
        min_moves: ans.min_moves,
        best_moves: ans.play_moves,
        lower_bound: ans.min_moves.unwrap_or(ans.lower_bound),
        positions: ans.positions.iter().sum::<u64>() + ans.probe_positions,
        seconds: ans.seconds,
    });
    if let (Some(m), Some(play)) = (ans.play_moves, ans.play)
        && out.best_moves.is_none_or(|b| m < b)
    {
        out.best_moves = Some(m);
        out.best = Some((a.cells.clone(), play));
    }
}
