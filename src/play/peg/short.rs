//! A short play for `solve` on a board, when one is cheap to find. The board solver
//! ([`super::settle`]) returns the first play it finds (27 moves for the English central
//! game, whose fewest is 18). After it, the exact search by levels of [`super::fewest`] is
//! tried within a budget of positions: when no level of it outgrows [`BUDGET`] positions, its
//! play (the fewest moves, proven) replaces the first one; otherwise the first play stays. A
//! budget of positions, not of seconds, so the answer is the same on every machine.
//!
//! The search stops as soon as a level outgrows the budget, so a board too large for it costs
//! at most the levels up to that size (some tenths of a second); the 15-hole triangle is
//! solved in milliseconds. `solarmy moves` searches without this budget.

use super::PegBoard;
use super::fewest::{self, Limits};
use super::settle::{Outcome, Verdict};
use crate::proof::verify;
use std::time::Instant;

/// The most positions one level of the search by levels may hold here.
/// 8,000 holds every level of a board of at most 15 holes (at most C(15, 7) = 6,435
/// positions), so the 15-hole triangle always gets its fewest moves, while on the English
/// board the search gives up within milliseconds.
pub const BUDGET: usize = 8_000;

/// Which play a solvable problem reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayKind {
    /// The fewest moves, proven by the search by levels.
    Fewest,
    /// The first play the board solver found; `why` says why no shorter one was looked for
    /// or kept.
    First { why: String },
}

impl PlayKind {
    /// The JSON name: "fewest" or "first".
    pub fn as_str(&self) -> &'static str {
        match self {
            PlayKind::Fewest => "fewest",
            PlayKind::First { .. } => "first",
        }
    }

    /// A phrase for the summary line.
    pub fn describe(&self) -> String {
        match self {
            PlayKind::Fewest => "the fewest moves, proven by the search by levels".into(),
            PlayKind::First { why } => format!("the first play found, not the shortest ({why})"),
        }
    }
}

/// Replaces a solvable outcome's play by one of the fewest moves when the search by levels
/// finds it within [`BUDGET`]; says which play the outcome now holds (None when the problem
/// is not solvable). The new play is replayed by the independent checker first; its time is
/// added to the outcome's.
pub fn prefer_short(
    board: &PegBoard,
    o: &mut Outcome,
    interrupt: Option<&'static std::sync::atomic::AtomicBool>,
) -> Option<PlayKind> {
    let Verdict::Solvable { play } = &o.verdict else {
        return None;
    };
    let t0 = Instant::now();
    let first = verify::count_moves(play);
    let lim = Limits {
        max_level: BUDGET,
        interrupt,
        ..Limits::default()
    };
    let (v, f) = (board.index[&o.vacancy], board.index[&o.finish]);
    let found = fewest::solve_one(board, v, f, &lim);
    o.seconds += t0.elapsed().as_secs_f64();
    let short = match found {
        Ok((s, _)) => s.play,
        Err(_) if board.cells.len() > 64 => {
            let why = "the search by levels takes boards of at most 64 holes";
            return Some(PlayKind::First { why: why.into() });
        }
        Err(_) => {
            let why = format!(
                "the search for the fewest moves outgrew its budget of {BUDGET} positions a level; `solarmy moves` finds them"
            );
            return Some(PlayKind::First { why });
        }
    };
    match short {
        Some(p)
            if board.replay(o.vacancy, &p, o.finish).is_ok()
                && verify::count_moves(&p) <= first =>
        {
            o.verdict = Verdict::Solvable { play: p };
            Some(PlayKind::Fewest)
        }
        _ => Some(PlayKind::First {
            why: "internal: the search by levels gave no play that replays".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::peg::settle::{self, Limits as SettleLimits};

    fn board(name: &str) -> PegBoard {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(format!("{name}.toml"));
        PegBoard::read(&path).unwrap()
    }

    #[test]
    fn short_play_on_the_triangle_is_the_fewest() {
        let b = board("triangle5");
        let v = crate::problem::geometry::Cell::xy(2, 0);
        let mut o = settle::settle(&b, v, v, &SettleLimits::default()).unwrap();
        assert_eq!(prefer_short(&b, &mut o, None), Some(PlayKind::Fewest));
        let Verdict::Solvable { play } = &o.verdict else {
            panic!("solvable");
        };
        // `solarmy moves` proves 9 the fewest for this problem.
        assert_eq!(verify::count_moves(play), 9);
    }
}
