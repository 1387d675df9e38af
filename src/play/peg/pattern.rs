//! Pattern problems: from any start position of a board to exactly a finish position (the
//! pattern problems Bell and Beasley catalogue beside the single-vacancy ones, which are the
//! case "every hole but one, to one man"). Settled by the steps of [`super::settle`] that do
//! not need a single vacancy, cheapest first:
//! 1. *position class* ([`super::classes`]): an invariant on which the two positions differ;
//! 2. *resource count*: the jump program between them has no real solution (an exact Farkas
//!    certificate);
//! 3. *search*: depth-first, in turns over the problem and its dual (the finish's
//!    complement to the start's), each mapped by every symmetry of the board, with a table of the positions that failed, the
//!    board's pagoda functions as a cut (no position weighing less than the finish reaches
//!    it, since no jump raises a pagoda's weight) and a table of endgames (the positions a
//!    few jumps before the finish, built backward); it finds a play (replayed before it is reported) or runs out of positions. When it runs
//!    out, every position reachable from the start is counted, for the checker to count
//!    again; beyond the checker's limit, the jump program gets a branch-and-bound
//!    certificate, or the problem is left undecided.
//!
//! The proof is a [`crate::proof::format::PatternClaim`], checked as a board claim is.

use super::classes::{self, Mask};
use super::settle::{self, Verdict};
use super::{Jump, PegBoard};
use crate::problem::geometry::Cell;
use crate::proof::format::{BoardVerdict, Claim, FORMAT, PatternClaim, Play, Proof};
use std::collections::HashSet;
use std::time::Instant;

/// A pattern problem: the men of the start and of the finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub start: Vec<Cell>,
    pub finish: Vec<Cell>,
}

/// A settled pattern problem.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Positions the search visited (failed ones kept).
    pub positions: usize,
    pub seconds: f64,
}

/// Limits of the search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Failed positions the search may keep before it gives up.
    pub positions: usize,
    /// Nodes and seconds of the branch-and-bound certificate.
    pub tree_nodes: usize,
    pub tree_seconds: f64,
    /// When the search stops, the problem then undecided (`solve --time-limit`).
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            positions: 50_000_000,
            tree_nodes: 20_000,
            tree_seconds: 60.0,
            deadline: None,
        }
    }
}

impl Limits {
    /// Past the deadline.
    fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Pattern {
    /// The two positions as hole masks, or why they are not positions of the board.
    pub fn masks(&self, board: &PegBoard) -> Result<(Mask, Mask), String> {
        if board.cells.len() > 128 {
            return Err("pattern problems take boards of at most 128 holes".into());
        }
        let mask = |men: &[Cell], side: &str| -> Result<Mask, String> {
            if men.is_empty() {
                return Err(format!("the {side} has no man"));
            }
            let mut m: Mask = 0;
            for &c in men {
                let h = board.index.get(&c).ok_or_else(|| {
                    format!(
                        "the {side}'s man at ({},{}) is not on a hole of {}",
                        c.0, c.1, board.name
                    )
                })?;
                if m >> h & 1 == 1 {
                    return Err(format!("the {side} names ({},{}) twice", c.0, c.1));
                }
                m |= 1 << h;
            }
            Ok(m)
        };
        Ok((mask(&self.start, "start")?, mask(&self.finish, "finish")?))
    }
}

/// Settles the pattern problem on the board.
pub fn settle(board: &PegBoard, p: &Pattern, limits: &Limits) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let (start, finish) = p.masks(board)?;
    let mut positions = 0;
    let verdict = if let Some(w) = classes::witness_between(board, start, finish) {
        Verdict::Class { witness: w }
    } else {
        let sys = settle::system_between(board, start, finish);
        match crate::ip::certify::farkas(&sys) {
            Some(certificate) => Verdict::ResourceCount { certificate },
            None => {
                let (found, play, spent) = variants(board, (start, finish), limits);
                positions = spent;
                match found {
                    Some(true) => settle::replayed_between(board, (&p.start, &p.finish), &play),
                    Some(false) => exhausted(board, (start, finish), &sys, limits),
                    None if settle::interrupted() => Verdict::Undecided {
                        why: "interrupted (Ctrl-C)".into(),
                    },
                    None if limits.late() => Verdict::Undecided {
                        why: "the time limit was reached".into(),
                    },
                    None => certified(&sys, limits, "the search ran out of positions"),
                }
            }
        }
    };
    Ok(Outcome {
        verdict,
        positions,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// The search in turns over variants of the problem, each turn's budget of failed positions
/// twice the last: the problem and its dual (from the finish's complement to the start's:
/// the same jumps played in reverse order take the complement of a position to the
/// complement of the one before it, so a play of the dual read backwards is a play of this
/// one), each mapped by every symmetry of the board (a play of an image, mapped back, is a
/// play of this one); the variants explore in different orders, and the luckiest ends it.
/// Whether a play exists (None: the budget, the clock or Ctrl-C ended it first), the play in
/// order, and the failed positions kept.
fn variants(
    board: &PegBoard,
    (start, finish): (Mask, Mask),
    limits: &Limits,
) -> (Option<bool>, Vec<usize>, usize) {
    let full = classes::full_mask(board);
    let perms = board.hole_perms();
    let image = |g: &[usize], m: Mask| {
        (0..g.len())
            .filter(|&h| m >> h & 1 == 1)
            .fold(0, |x, h| x | 1 << g[h])
    };
    let mut seen = HashSet::new();
    let mut ends = Vec::new();
    for (k, g) in perms.iter().enumerate() {
        for dual in [false, true] {
            let (s, f) = if dual {
                (full & !finish, full & !start)
            } else {
                (start, finish)
            };
            let e = (image(g, s), image(g, f));
            if seen.insert(e) {
                ends.push((e, k, dual));
            }
        }
    }
    let pagodas = super::exhaust::candidates(board);
    let mut sides: Vec<Search> = (ends.iter())
        .map(|&((_, f), _, _)| Search::new(board, f, &pagodas, limits))
        .collect();
    let spent = |s: &[Search]| s.iter().map(|x| x.failed.len()).sum::<usize>();
    let per_side = limits.positions / ends.len();
    let mut budget = 1 << 14;
    let (found, play) = 'turns: loop {
        for (side, s) in sides.iter_mut().enumerate() {
            s.budget = budget.min(per_side);
            s.path.clear();
            let ((root, _), g, dual) = ends[side];
            match s.dfs(root) {
                // The path is its variant's play backwards: a dual's is this problem's
                // play forwards.
                Some(true) => {
                    let mut play = back(board, &perms[g], &s.path);
                    if !dual {
                        play.reverse();
                    }
                    break 'turns (Some(true), play);
                }
                Some(false) => break 'turns (Some(false), Vec::new()),
                None => {}
            }
        }
        if budget >= per_side || settle::interrupted() || limits.late() {
            break (None, Vec::new());
        }
        budget *= 2;
    };
    (found, play, spent(&sides))
}

/// Jumps of an image under the symmetry `g` (holes h ↦ g[h]) mapped back to the board's.
fn back(board: &PegBoard, g: &[usize], jumps: &[usize]) -> Vec<usize> {
    let mut inverse = vec![0; g.len()];
    for (h, &x) in g.iter().enumerate() {
        inverse[x] = h;
    }
    let index: std::collections::HashMap<(usize, usize, usize), usize> = (board.jumps.iter())
        .enumerate()
        .map(|(j, x)| ((x.from, x.over, x.to), j))
        .collect();
    (jumps.iter())
        .map(|&j| {
            let Jump { from, over, to } = board.jumps[j];
            index[&(inverse[from], inverse[over], inverse[to])]
        })
        .collect()
}

/// A pagoda function as masks of the holes of each weight, and the finish's weight.
struct Cut {
    parts: Vec<(i64, Mask)>,
    least: i64,
}

impl Cut {
    fn new(values: &[i64], finish: Mask) -> Cut {
        let mut parts: Vec<(i64, Mask)> = Vec::new();
        for (h, &v) in values.iter().enumerate().filter(|(_, v)| **v != 0) {
            match parts.iter_mut().find(|(w, _)| *w == v) {
                Some((_, m)) => *m |= 1 << h,
                None => parts.push((v, 1 << h)),
            }
        }
        let mut cut = Cut { parts, least: 0 };
        cut.least = cut.weight(finish);
        cut
    }

    fn weight(&self, p: Mask) -> i64 {
        (self.parts.iter())
            .map(|&(v, m)| v * i64::from((p & m).count_ones()))
            .sum()
    }
}

/// The depth-first search: the jumps of the play found (in reverse until it ends).
struct Search<'a> {
    board: &'a PegBoard,
    limits: &'a Limits,
    finish: Mask,
    men: u32,
    /// The board's pagodas ([`super::exhaust::candidates`], each verified on every jump).
    cuts: Vec<Cut>,
    /// `ends[k]`: every position of `men` + k men from which the finish is reached (in k
    /// jumps), built backward from the finish by jumps undone while a level stays small.
    ends: Vec<HashSet<Mask>>,
    failed: HashSet<Mask>,
    budget: usize,
    path: Vec<usize>,
}

impl<'a> Search<'a> {
    /// The search toward `finish`, cut by `pagodas` (weights by hole, each verified).
    fn new(
        board: &'a PegBoard,
        finish: Mask,
        pagodas: &[Vec<i64>],
        limits: &'a Limits,
    ) -> Search<'a> {
        Search {
            board,
            limits,
            finish,
            men: finish.count_ones(),
            cuts: pagodas.iter().map(|p| Cut::new(p, finish)).collect(),
            ends: endgames(board, finish),
            failed: HashSet::new(),
            budget: limits.positions,
            path: Vec::new(),
        }
    }

    /// Some(true): the finish is reached from p (the path holds the jumps); Some(false): it
    /// is not; None: the budget ran out. A position of as few men as the finish, not the
    /// finish, is a dead end (every jump removes a man).
    fn dfs(&mut self, p: Mask) -> Option<bool> {
        if p == self.finish {
            return Some(true);
        }
        let k = p.count_ones().saturating_sub(self.men) as usize;
        if k < self.ends.len() {
            return Some(self.ends[k].contains(&p) && self.end_play(p, k));
        }
        if self.failed.contains(&p) {
            return Some(false);
        }
        if self.cuts.iter().any(|c| c.weight(p) < c.least) {
            return Some(false);
        }
        // The clock and Ctrl-C are looked at every 4096 positions failed.
        let look =
            self.failed.len().is_multiple_of(4096) && (settle::interrupted() || self.limits.late());
        if self.failed.len() >= self.budget || look {
            return None;
        }
        for (j, jump) in self.board.jumps.iter().enumerate() {
            if let Some(child) = jumped(p, jump)
                && self.dfs(child)?
            {
                self.path.push(j);
                return Some(true);
            }
        }
        self.failed.insert(p);
        Some(false)
    }
}

impl Search<'_> {
    /// Pushes the jumps from `p` (in `ends[k]`) to the finish onto the path, last first (the
    /// path is built backwards as the search returns); true.
    fn end_play(&mut self, mut p: Mask, k: usize) -> bool {
        let mut play = Vec::with_capacity(k);
        for k in (0..k).rev() {
            let next = (self.board.jumps.iter().enumerate()).find_map(|(j, jump)| {
                jumped(p, jump)
                    .filter(|q| self.ends[k].contains(q))
                    .map(|q| (j, q))
            });
            let (j, q) = next.expect("a position of the endgame has a next one");
            play.push(j);
            p = q;
        }
        self.path.extend(play.iter().rev());
        true
    }
}

/// Most positions an endgame level may hold: the table is built while the last level is
/// under it.
const ENDGAME: usize = 20_000;

/// The positions from which `finish` is reached, by the number of jumps, from the finish
/// backwards (a jump from a over b into c undone: c emptied, a and b filled).
fn endgames(board: &PegBoard, finish: Mask) -> Vec<HashSet<Mask>> {
    let mut ends = vec![HashSet::from([finish])];
    while let Some(last) = ends.last().filter(|l| !l.is_empty() && l.len() <= ENDGAME) {
        let mut before = HashSet::new();
        for &q in last {
            for &Jump { from, over, to } in &board.jumps {
                if q >> to & 1 == 1 && q >> from & 1 == 0 && q >> over & 1 == 0 {
                    before.insert(q ^ (1 << from) ^ (1 << over) ^ (1 << to));
                }
            }
        }
        ends.push(before);
    }
    ends
}

/// `p` after the jump, if the jump is legal in it.
fn jumped(p: Mask, &Jump { from, over, to }: &Jump) -> Option<Mask> {
    (p >> from & 1 == 1 && p >> over & 1 == 1 && p >> to & 1 == 0)
        .then(|| p ^ (1 << from) ^ (1 << over) ^ (1 << to))
}

/// The search found no play: every position reachable from the start, counted for the
/// proof when the checker's limit allows; else a certificate for the jump program.
fn exhausted(
    board: &PegBoard,
    (start, finish): (Mask, Mask),
    sys: &crate::proof::farkas::LinearSystem,
    limits: &Limits,
) -> Verdict {
    let max = crate::proof::peg::MAX_POSITIONS;
    match super::play::reachable_between(board, (start, finish), max) {
        Some((positions, false)) => Verdict::Exhausted { positions },
        Some(_) => Verdict::Undecided {
            why: "the search and the count of reachable positions disagree".into(),
        },
        None => certified(
            sys,
            limits,
            &format!(
                "no play, but more than {max} positions are reachable: too many for an exhaustive proof"
            ),
        ),
    }
}

/// The jump program's branch-and-bound certificate, if HiGHS and the exact check find one
/// within the limits; else undecided, saying `why` the search did not settle it.
fn certified(sys: &crate::proof::farkas::LinearSystem, limits: &Limits, why: &str) -> Verdict {
    match crate::ip::certify::tree(sys, limits.tree_nodes, Some(limits.tree_seconds)) {
        Some(certificate) => Verdict::Ip { certificate },
        None => Verdict::Undecided {
            why: format!(
                "{why}; the jump program has no infeasibility certificate within the limits"
            ),
        },
    }
}

/// The proof of a settled pattern problem (None when it is undecided).
pub fn proof(board: &PegBoard, p: &Pattern, o: &Outcome) -> Option<Proof> {
    let (start, finish) = p.masks(board).ok()?;
    let mut play = None;
    let no_vector = |certificate| BoardVerdict::NoJumpVector {
        rows: board.cells.len(),
        cols: board.jumps.len(),
        certificate,
    };
    let verdict = match &o.verdict {
        Verdict::Solvable { play: steps } => {
            play = Some(Play {
                army: p.start.clone(),
                jumps: steps.iter().map(|s| (s.from, s.over, s.to)).collect(),
            });
            BoardVerdict::Solvable
        }
        Verdict::Class { witness } => BoardVerdict::PositionClass {
            witness: classes::cells_of(board, *witness),
            start_parity: ((witness & start).count_ones() % 2) as u8,
            finish_parity: ((witness & finish).count_ones() % 2) as u8,
        },
        Verdict::ResourceCount { certificate } => {
            no_vector(crate::proof::farkas::Tree::Leaf(certificate.clone()))
        }
        Verdict::Ip { certificate } => no_vector(certificate.clone()),
        Verdict::Exhausted { positions } => BoardVerdict::Unreachable {
            positions: *positions as u64,
        },
        Verdict::Pruned(_) | Verdict::Undecided { .. } => return None,
    };
    use crate::problem::fingerprint::{Ends, fingerprint};
    Some(Proof {
        format: FORMAT.into(),
        program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
        army: board.name.clone(),
        model: Some(board.source.clone()),
        fingerprint: Some(fingerprint(
            &board.spec,
            Ends::Patterns(&p.start, &p.finish),
        )),
        level: 0,
        claim: Claim::Pattern(PatternClaim {
            start: p.start.clone(),
            finish: p.finish.clone(),
            verdict,
        }),
        play,
        rounds: Vec::new(),
    })
}
