//! The last step of settling a board problem: an exhaustive search pruned by pagoda functions
//! that meets in the middle, run by the checker's own search ([`crate::proof::levels`]) so that
//! the counts the proof states are the ones `solarmy check` recomputes.
//!
//! The pagodas are candidates built from the board's shape (Bell's resource counts on his
//! peg-solitaire pages are of this form: −1 on corners or on the edge, +1 on one lattice class of
//! the other holes, 0 elsewhere); only candidates with p(to) <= p(from) + p(over) for every
//! jump are kept, and the checker verifies that again. Pagodas made for the problem at hand
//! ([`super::sharpen`]) may join them; the proof lists every pagoda the search used.

use super::PegBoard;
use super::sharpen::{Sharpening, sharpen};
use crate::problem::geometry::Cell;
use crate::proof::levels::{self, Outcome, Space};
use std::collections::HashSet;

/// The proof's content when no position is shared.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Pruned {
    pub pagodas: Vec<Vec<(Cell, i64)>>,
    pub symmetries: usize,
    pub forward: Vec<u64>,
    pub backward: Vec<u64>,
    /// The sides meet by children: no child of the last forward level lies in the last
    /// backward level, which stops one short (the levels on disk of `moves --meet children`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub children: bool,
}

/// What the pruned exhaustion found.
pub enum Exhaustion {
    /// No play: the proof's content.
    NoPlay(Pruned),
    /// Some play exists (the two sides share positions); the caller still needs one.
    Reached,
    /// A level was over the limit.
    TooMany(String),
}

/// Candidate pagodas from the board's shape, each verified on every jump (others dropped).
pub fn candidates(board: &PegBoard) -> Vec<Vec<i64>> {
    let n = board.cells.len();
    let neighbours = |h: usize| {
        board
            .directions
            .iter()
            .filter(|&&d| board.index.contains_key(&(board.cells[h] + d)))
            .count()
    };
    let most = (0..n).map(neighbours).max().unwrap_or(0);
    // Edge: holes missing some neighbour; corners: holes with at most two.
    let rims: [Box<dyn Fn(usize) -> bool>; 2] = [
        Box::new(|h| neighbours(h) < most),
        Box::new(|h| neighbours(h) <= 2),
    ];
    let classes: [fn(Cell) -> bool; 6] = [
        |c| (c.0 + c.1).rem_euclid(2) == 0,
        |c| (c.0 + c.1).rem_euclid(2) == 1,
        |c| c.0.rem_euclid(2) == 1 && c.1.rem_euclid(2) == 1,
        |c| c.0.rem_euclid(2) == 0 && c.1.rem_euclid(2) == 0,
        |c| c.0.rem_euclid(2) == 1 && c.1.rem_euclid(2) == 0,
        |c| c.0.rem_euclid(2) == 0 && c.1.rem_euclid(2) == 1,
    ];
    let mut out: Vec<Vec<i64>> = Vec::new();
    for rim in &rims {
        for class in &classes {
            let p: Vec<i64> = (0..n)
                .map(|h| {
                    if rim(h) {
                        -1
                    } else {
                        class(board.cells[h]) as i64
                    }
                })
                .collect();
            let ok = board.jumps.iter().all(|j| p[j.to] <= p[j.from] + p[j.over]);
            if ok && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The board's symmetries fixing the finish, as permutations of the holes.
pub fn group(board: &PegBoard, f: usize) -> Vec<Vec<usize>> {
    let perms = board.hole_perms();
    perms.into_iter().filter(|p| p[f] == f).collect()
}

/// Runs the pruned meet in the middle for (v, f), the two sides meeting where their levels
/// stay smallest ([`levels::balanced`]; the proof's forward counts give the checker that
/// depth). Unless a side dies out within the one-sided tries, the board's pagodas are first
/// joined by some made for this problem ([`sharpen`], when `sharpening` is given).
pub fn exhaust(
    board: &PegBoard,
    v: usize,
    f: usize,
    max_level: usize,
    sharpening: Option<&Sharpening>,
) -> Exhaustion {
    let n = board.cells.len();
    if n > 64 {
        return Exhaustion::TooMany(format!("{n} holes: the pruned search takes at most 64"));
    }
    let mut parts = Parts::new(board, f);
    let start = start(board, v);
    if let Some(p) = one_side(board, &parts.space(max_level), start) {
        return Exhaustion::NoPlay(p);
    }
    if let Some(how) = sharpening {
        let more = sharpen(board, &parts.pagodas, v, f, how);
        parts.pagodas.extend(more);
    }
    meeting(board, &parts, start, max_level)
}

/// The balanced meeting on `parts`' pagodas, within `max_level` positions a level.
fn meeting(board: &PegBoard, parts: &Parts, start: u64, max_level: usize) -> Exhaustion {
    let space = parts.space(max_level);
    match levels::balanced(&space, start) {
        Outcome::Counts { shared, .. } if shared > 0 => Exhaustion::Reached,
        Outcome::Counts {
            forward, backward, ..
        } => Exhaustion::NoPlay(pruned(
            board,
            &parts.pagodas,
            parts.perms.len(),
            forward,
            backward,
        )),
        Outcome::TooMany(..) if super::settle::interrupted() => {
            Exhaustion::TooMany("interrupted (Ctrl-C)".into())
        }
        Outcome::TooMany(fwd, j) => Exhaustion::TooMany(format!(
            "the pruned search's {} level {j} holds more than {max_level} positions",
            if fwd { "forward" } else { "backward" }
        )),
    }
}

/// What a search's [`Space`] borrows: the candidate pagodas, the symmetries fixing the
/// finish and the jumps as hole triples.
struct Parts {
    n: usize,
    finish: usize,
    pagodas: Vec<Vec<i64>>,
    perms: Vec<Vec<usize>>,
    jumps: Vec<(usize, usize, usize)>,
}

impl Parts {
    fn new(board: &PegBoard, f: usize) -> Parts {
        Parts {
            n: board.cells.len(),
            finish: f,
            pagodas: candidates(board),
            perms: group(board, f),
            jumps: board.jumps.iter().map(|j| (j.from, j.over, j.to)).collect(),
        }
    }

    fn space(&self, max_level: usize) -> Space<'_> {
        Space {
            n: self.n,
            jumps: &self.jumps,
            perms: &self.perms,
            pagodas: &self.pagodas,
            finish: self.finish,
            max_level,
            log: None,
            stop: Some(&super::settle::interrupted),
            // The command's own display (a spinner, the catalogue's bar) says what runs.
            shown: false,
        }
    }
}

/// The start: every hole but the vacancy.
fn start(board: &PegBoard, v: usize) -> u64 {
    (0..board.cells.len())
        .filter(|&h| h != v)
        .fold(0u64, |m, h| m | 1 << h)
}

/// Each side alone within [`PROBE_LEVEL`] positions a level (depth 0: all backward; N: all
/// forward), since one side often dies out within a few levels: the proof's content when
/// one does.
fn one_side(board: &PegBoard, space: &Space, start: u64) -> Option<Pruned> {
    let small = Space {
        max_level: space.max_level.min(PROBE_LEVEL),
        ..*space
    };
    [0, space.n - 2]
        .into_iter()
        .find_map(|depth| match levels::meet(&small, start, depth) {
            Outcome::Counts {
                forward,
                backward,
                shared: 0,
            } => Some(pruned(
                board,
                space.pagodas,
                space.perms.len(),
                forward,
                backward,
            )),
            _ => None,
        })
}

/// The one-sided tries of [`exhaust`] alone (a few seconds at most): the proof's content
/// when a side dies out, else None. Worth trying before a long search for a play.
pub fn probe(board: &PegBoard, v: usize, f: usize) -> Option<Pruned> {
    tries(board, v, f, PROBE_LEVEL, None)
}

/// The cheapest tries (milliseconds): each side alone within [`QUICK_PROBE_LEVEL`] positions
/// a level, then the meeting on the board's own pagodas within [`MEETING_PROBE_LEVEL`] (a
/// meeting that does not end there costs the most: within 200,000 a level it added some
/// 20 s to each of the 41-hole diamond's large problems). Worth trying before any search for
/// a play, where a solvable problem spends them in vain.
pub fn quick_probe(board: &PegBoard, v: usize, f: usize) -> Option<Pruned> {
    tries(board, v, f, QUICK_PROBE_LEVEL, Some(MEETING_PROBE_LEVEL))
}

/// Each side alone within `side` positions a level, then the meeting within `meet` if given:
/// the proof's content when they show that no play exists, else None.
fn tries(board: &PegBoard, v: usize, f: usize, side: usize, meet: Option<usize>) -> Option<Pruned> {
    if board.cells.len() > 64 {
        return None;
    }
    let parts = Parts::new(board, f);
    let start = start(board, v);
    one_side(board, &parts.space(side), start).or_else(|| {
        match meeting(board, &parts, start, meet?) {
            Exhaustion::NoPlay(p) => Some(p),
            _ => None,
        }
    })
}

/// The most positions a level may hold in the one-sided tries before the meeting.
const PROBE_LEVEL: usize = 2_000_000;

/// The most positions a level may hold in the quick tries' sides.
const QUICK_PROBE_LEVEL: usize = 20_000;

/// The most positions a level may hold in the quick tries' meeting.
const MEETING_PROBE_LEVEL: usize = 2_000;

/// The proof's content: the pagodas by cell (zero weights left out) and the counts, the
/// sides met level to level.
pub fn pruned(
    board: &PegBoard,
    pagodas: &[Vec<i64>],
    symmetries: usize,
    forward: Vec<u64>,
    backward: Vec<u64>,
) -> Pruned {
    Pruned {
        pagodas: stated_pagodas(board, pagodas),
        symmetries,
        forward,
        backward,
        children: false,
    }
}

/// Pagodas (one weight per hole) as a proof states them: each hole of nonzero weight with it.
pub fn stated_pagodas(board: &PegBoard, pagodas: &[Vec<i64>]) -> Vec<Vec<(Cell, i64)>> {
    let cells = |p: &Vec<i64>| {
        (0..p.len())
            .filter(|&h| p[h] != 0)
            .map(|h| (board.cells[h], p[h]))
            .collect()
    };
    pagodas.iter().map(cells).collect()
}

/// A depth-first search for a play, pruned by pagodas (premise: each never increases in play,
/// so a position lower than the finish alone on one of them reaches no play's end).
struct Dfs<'a> {
    board: &'a PegBoard,
    pagodas: Vec<(Vec<i64>, i64)>,
    goal: u64,
    dead: HashSet<u64>,
    path: Vec<usize>,
    nodes: u64,
    budget: u64,
}

impl Dfs<'_> {
    fn alive(&self, pos: u64) -> bool {
        self.pagodas.iter().all(|(p, lo)| {
            let v: i64 = (0..p.len())
                .filter(|&h| pos >> h & 1 == 1)
                .map(|h| p[h])
                .sum();
            v >= *lo
        })
    }

    /// Some(true) found (the path holds it), Some(false) none from here, None out of budget.
    fn go(&mut self, pos: u64) -> Option<bool> {
        if pos == self.goal {
            return Some(true);
        }
        if self.dead.contains(&pos) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        for (k, j) in self.board.jumps.iter().enumerate() {
            let (a, b, c) = (1u64 << j.from, 1u64 << j.over, 1u64 << j.to);
            let next = pos ^ a ^ b ^ c;
            if pos & a != 0 && pos & b != 0 && pos & c == 0 && self.alive(next) {
                self.path.push(k);
                match self.go(next) {
                    Some(false) => {}
                    other => return other,
                }
                self.path.pop();
            }
        }
        self.dead.insert(pos);
        Some(false)
    }
}

/// A play by depth-first search pruned by the candidate pagodas, within `budget` nodes: board
/// jump indices, or None. The caller replays it with the independent checker.
pub fn play(board: &PegBoard, v: usize, f: usize, budget: u64) -> Option<Vec<usize>> {
    let n = board.cells.len();
    if n > 64 {
        return None;
    }
    let mut s = Dfs {
        board,
        pagodas: candidates(board)
            .into_iter()
            .map(|p| {
                let lo = p[f];
                (p, lo)
            })
            .collect(),
        goal: 1 << f,
        dead: HashSet::new(),
        path: Vec::new(),
        nodes: 0,
        budget,
    };
    let start = (0..n).filter(|&h| h != v).fold(0u64, |m, h| m | 1 << h);
    match s.go(start) {
        Some(true) => Some(s.path),
        _ => None,
    }
}
