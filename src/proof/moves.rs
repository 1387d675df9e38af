//! The checker of a fewest-moves claim ([`MovesClaim`]): "the play reaches the goal in m
//! moves, and no play has fewer", re-verified by a search of its own.
//!
//! A **move** is one man's run of jumps (a play's moves are counted by
//! [`super::verify::count_moves`]: a new move starts whenever a jump does not start where the
//! last one landed), so a play of k moves is k successive runs, each from the position the
//! last one left. The checker replays the proof's play ([`super::verify`]) and counts its
//! moves, then searches breadth-first, one level per move, every position k runs after the
//! start for k = 0 … m − 1, keeping a position only when its lower bound leaves it within
//! m − 1 moves in all, and refuses the claim if any run reaches the goal. It shares nothing
//! with the search of `crate::play::moves` (a depth-first deepening with other bounds and a
//! transposition table): its ground, distances, weights and moves are built here from the
//! lattice or the model's holes ([`crate::problem`]), its weights exact in Z\[σ\]
//! ([`crate::weight::golden`]).
//!
//! Where it plays and its bound ([`Ground`]) are in [`super::ground`], with the argument
//! that the bound never exceeds the moves a play still needs.
//!
//! Levels are sets (each position once), so their sizes are exact and do not depend on the
//! order of the work: level k is the set of positions reached by k runs from the start
//! through positions each kept at its depth, and `counts[k]` its size.

use super::format::{FORMAT, MovesClaim, Play, Proof};
pub use super::ground::Ground;
use super::summary::Summary;
use super::verify::{self, Step};
use crate::error::CheckError;
use crate::problem::file::{Cells, Start};
use crate::problem::fingerprint::Ends;
use crate::problem::geometry::Cell;
use crate::problem::{Army, Problem};
use std::collections::HashSet;
use std::time::Instant;

/// The most positions one level may hold (a proof needing more is refused; it says so), on
/// a ground of more than 64 cells.
pub const MAX_LEVEL: usize = 5_000_000;

/// How the search by moves ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Positions kept at each depth 0 … m − 1; no run reached the goal.
    Counts(Vec<u64>),
    /// A position `depth` moves after the start is the goal.
    Reached(usize),
    /// Level `depth` would hold more than [`MAX_LEVEL`] positions.
    TooMany(usize),
}

/// Every position one run of the man on `men[i]` leads to, on `occ` (the occupancy of
/// `men`, restored on return): each jump's landing cell in turn, the man jumped over gone.
pub(super) fn runs(g: &Ground, men: &[u32], occ: &mut [bool], out: &mut Vec<Vec<u32>>) {
    fn chain(g: &Ground, men: &[u32], at: u32, occ: &mut [bool], out: &mut Vec<Vec<u32>>) {
        for &(b, c) in &g.jumps[at as usize] {
            if occ[b as usize] && !occ[c as usize] {
                occ[b as usize] = false;
                let mut child: Vec<u32> =
                    men.iter().copied().filter(|&m| occ[m as usize]).collect();
                child.push(c);
                child.sort_unstable();
                out.push(child);
                chain(g, men, c, occ, out);
                occ[b as usize] = true;
            }
        }
    }
    for &a in men {
        occ[a as usize] = false;
        chain(g, men, a, occ, out);
        occ[a as usize] = true;
    }
}

/// Whether a position of `g` fits in one word, so that the search packs it.
fn packs(g: &Ground) -> bool {
    g.cells.len() <= 64
}

/// The search of the module doc from `start` for a play of fewer than `moves` moves.
pub fn search(g: &Ground, start: &[u32], moves: u32) -> Outcome {
    let mut start = start.to_vec();
    start.sort_unstable();
    match packs(g) {
        true => search_packed(g, &start, moves),
        false => search_list(g, start, moves),
    }
}

/// [`search`] with each position the sorted list of its men's cells.
fn search_list(g: &Ground, start: Vec<u32>, moves: u32) -> Outcome {
    let mut occ = vec![false; g.cells.len()];
    let runs_of = |p: &Vec<u32>, out: &mut Vec<Vec<u32>>| {
        p.iter().for_each(|&m| occ[m as usize] = true);
        runs(g, p, &mut occ, out);
        p.iter().for_each(|&m| occ[m as usize] = false);
    };
    let rules = Rules {
        goal: &|p: &Vec<u32>| g.is_goal(p),
        bound: &mut |p: &Vec<u32>| g.bound(p),
        runs: runs_of,
        most: MAX_LEVEL,
    };
    by_levels(start, moves, rules)
}

/// What the search by levels of [`by_levels`] needs of a representation of positions.
struct Rules<'a, P, R> {
    goal: &'a dyn Fn(&P) -> bool,
    bound: &'a mut dyn FnMut(&P) -> Option<u32>,
    /// Every position one run from a position.
    runs: R,
    /// The most positions a depth may hold.
    most: usize,
}

/// The search of the module doc, whatever a position is: the level of depth k is every
/// position one run from the level before whose bound leaves it within `moves` − 1 moves.
fn by_levels<P, R>(start: P, moves: u32, mut r: Rules<'_, P, R>) -> Outcome
where
    P: Eq + std::hash::Hash,
    R: FnMut(&P, &mut Vec<P>),
{
    if (r.goal)(&start) {
        return Outcome::Reached(0);
    }
    if moves == 0 {
        return Outcome::Counts(Vec::new());
    }
    let last = moves - 1;
    let mut kept = |k: u32, p: &P| (r.bound)(p).is_some_and(|h| k + h <= last);
    let mut level: Vec<P> = if kept(0, &start) {
        vec![start]
    } else {
        Vec::new()
    };
    let mut counts = vec![level.len() as u64];
    let mut kids = Vec::new();
    for k in 1..=last {
        let mut next: HashSet<P> = HashSet::new();
        for p in &level {
            kids.clear();
            (r.runs)(p, &mut kids);
            for q in kids.drain(..) {
                if (r.goal)(&q) {
                    return Outcome::Reached(k as usize);
                }
                // A position already kept at this depth is not weighed again.
                if !next.contains(&q) && kept(k, &q) {
                    next.insert(q);
                }
            }
            if next.len() > r.most {
                return Outcome::TooMany(k as usize);
            }
        }
        level = next.into_iter().collect();
        counts.push(level.len() as u64);
        if level.is_empty() {
            // Every later level is empty too.
            counts.resize(moves as usize, 0);
            break;
        }
    }
    Outcome::Counts(counts)
}

/// The most positions one level may hold on a ground of at most 64 cells, where a position
/// is one word ([`search_packed`]).
pub const MAX_PACKED_LEVEL: usize = 150_000_000;

/// The most positions a level of the search on `g` may hold.
pub fn max_level(g: &Ground) -> usize {
    match packs(g) {
        true => MAX_PACKED_LEVEL,
        false => MAX_LEVEL,
    }
}

/// [`search`] on a ground of at most 64 cells, each position the word of its cells: the same
/// levels (sets, so the counts are the same), at 8 bytes a position instead of a list.
fn search_packed(g: &Ground, start: &[u32], moves: u32) -> Outcome {
    let word = start.iter().fold(0u64, |w, &m| w | 1 << m);
    let mut men = Vec::new();
    let rules = Rules {
        goal: &|&p: &u64| match g.one_man {
            true => p == 1 << g.target,
            false => p >> g.target & 1 == 1,
        },
        bound: &mut |&p: &u64| {
            men.clear();
            men.extend((0..64u32).filter(|&c| p >> c & 1 == 1));
            g.bound(&men)
        },
        runs: |&p: &u64, out: &mut Vec<u64>| runs_packed(g, p, out),
        most: MAX_PACKED_LEVEL,
    };
    by_levels(word, moves, rules)
}

/// [`runs`] on a position given as a word: every position one man's chain of jumps leads to.
fn runs_packed(g: &Ground, p: u64, out: &mut Vec<u64>) {
    fn chain(g: &Ground, rest: u64, at: u32, out: &mut Vec<u64>) {
        for &(b, c) in &g.jumps[at as usize] {
            if rest >> b & 1 == 1 && rest >> c & 1 == 0 {
                let rest = rest & !(1 << b);
                out.push(rest | 1 << c);
                chain(g, rest, c, out);
            }
        }
    }
    let mut men = p;
    while men != 0 {
        let a = men.trailing_zeros();
        men &= men - 1;
        chain(g, p & !(1 << a), a, out);
    }
}

pub(super) struct Checker {
    pub(super) step: usize,
    pub(super) context: String,
}

impl Checker {
    pub(super) fn fail(&self, message: String) -> CheckError {
        CheckError {
            step: self.step,
            context: self.context.clone(),
            message,
        }
    }

    pub(super) fn expect(
        &mut self,
        ok: bool,
        message: impl FnOnce() -> String,
    ) -> Result<(), CheckError> {
        self.step += 1;
        if ok {
            return Ok(());
        }
        Err(self.fail(message()))
    }

    /// A step that holds when `r` is Ok, failing with its message otherwise.
    pub(super) fn require<T>(&mut self, r: Result<T, String>) -> Result<T, CheckError> {
        self.step += 1;
        r.map_err(|m| self.fail(m))
    }
}

/// The problem a proof names, rebuilt: its ground, the start, and the play's move count.
struct Rebuilt {
    ground: Ground,
    start: Vec<u32>,
    moves: usize,
    fingerprint: String,
    recorded: bool,
}

/// Checks a fewest-moves claim; Ok with a summary only if every step holds.
pub fn check(
    proof: &Proof,
    claim: &MovesClaim,
    expected: Option<&crate::problem::file::Spec>,
) -> Result<Summary, CheckError> {
    let t0 = Instant::now();
    let what = match claim.board {
        Some((v, f)) => format!("{} ({},{})->({},{})", proof.army, v.0, v.1, f.0, f.1),
        None => format!("{} {}", proof.army, proof.level),
    };
    let mut c = Checker {
        step: 0,
        context: format!("{what}, setup"),
    };
    let r = rebuilt(&mut c, proof, claim, expected)?;
    c.context = format!("{what}, premises");
    let g = &r.ground;
    c.expect(g.cells.len() as u64 == claim.cells, || {
        format!(
            "the ground has {} cells, stated {}",
            g.cells.len(),
            claim.cells
        )
    })?;
    c.expect(g.last_over == claim.last_over, || {
        format!(
            "last jumps pass over {:?}, stated {:?}",
            g.last_over, claim.last_over
        )
    })?;
    c.context = format!("{what}, search by moves");
    let positions = repeat(&mut c, g, &r.start, claim)?;
    Ok(Summary {
        army: proof.army.clone(),
        fingerprint: r.fingerprint,
        fingerprint_recorded: r.recorded,
        level: proof.level,
        board: true,
        claim: match claim.board {
            Some((v, f)) => format!(
                "({},{})->({},{}) fewest moves {}",
                v.0, v.1, f.0, f.1, claim.moves
            ),
            None => format!("level {}: fewest moves {}", proof.level, claim.moves),
        } + &format!(" (search by moves: {positions} positions)"),
        steps: c.step,
        seconds: t0.elapsed().as_secs_f64(),
        ..Summary::default()
    })
}

/// The proof's problem rebuilt and bound to its fingerprint, and its play replayed in the
/// moves claimed (under `c`'s context, then "play").
fn rebuilt(
    c: &mut Checker,
    proof: &Proof,
    claim: &MovesClaim,
    expected: Option<&crate::problem::file::Spec>,
) -> Result<Rebuilt, CheckError> {
    c.expect(proof.format == FORMAT, || {
        format!("format '{}', expected '{FORMAT}'", proof.format)
    })?;
    let play = proof.play.as_ref();
    c.expect(play.is_some(), || {
        "a fewest-moves claim needs a play".into()
    })?;
    let r = rebuild(c, proof, claim, play.unwrap(), expected)?;
    c.context = format!("{}, play", c.context.rsplit_once(", ").map_or("", |x| x.0));
    c.expect(r.moves == claim.moves as usize, || {
        format!("the play takes {} moves, claimed {}", r.moves, claim.moves)
    })?;
    Ok(r)
}

/// [`rebuilt`] for another method's checker: the fingerprint, and whether the proof recorded
/// it.
pub(super) fn replayed(
    c: &mut Checker,
    proof: &Proof,
    claim: &MovesClaim,
    expected: Option<&crate::problem::file::Spec>,
) -> Result<(String, bool), CheckError> {
    let r = rebuilt(c, proof, claim, expected)?;
    Ok((r.fingerprint, r.recorded))
}

/// The search by moves run again: no play of fewer than `claim.moves` moves, and the counts
/// stated, depth by depth; the positions kept in all.
fn repeat(
    c: &mut Checker,
    g: &Ground,
    start: &[u32],
    claim: &MovesClaim,
) -> Result<u64, CheckError> {
    let out = search(g, start, claim.moves);
    c.expect(!matches!(out, Outcome::Reached(_)), || match out {
        Outcome::Reached(k) => format!("a play of {k} moves reaches the goal"),
        _ => String::new(),
    })?;
    c.expect(!matches!(out, Outcome::TooMany(_)), || match out {
        Outcome::TooMany(k) => {
            let most = max_level(g);
            format!("depth {k} holds more than {most} positions: too many to check")
        }
        _ => String::new(),
    })?;
    let Outcome::Counts(counts) = out else {
        return Err(c.fail("the search ended without counts".into()));
    };
    let first =
        (0..counts.len().max(claim.counts.len())).find(|&k| counts.get(k) != claim.counts.get(k));
    c.expect(first.is_none(), || {
        let k = first.unwrap();
        format!(
            "depth {k}: {:?} positions, stated {:?}",
            counts.get(k),
            claim.counts.get(k)
        )
    })?;
    Ok(counts.iter().sum())
}

/// The army's or the board's problem from the proof, bound to its fingerprint, and the play
/// replayed on it.
fn rebuild(
    c: &mut Checker,
    proof: &Proof,
    claim: &MovesClaim,
    play: &Play,
    expected: Option<&crate::problem::file::Spec>,
) -> Result<Rebuilt, CheckError> {
    let steps = steps_of(play);
    let built = match claim.board {
        None => army_problem(proof, play, &steps),
        Some((v, f)) => board_problem(proof, play, &steps, (v, f)),
    };
    let (spec, ground, moves) = c.require(built)?;
    let ends = claim.board.map_or(Ends::Model, |(v, f)| Ends::Holes(v, f));
    let bound = super::bind::bind(&spec, ends, proof.fingerprint.as_deref(), expected);
    c.expect(bound.is_ok(), || {
        format!("not the problem claimed: {}", bound.clone().unwrap_err())
    })?;
    let bound = bound.unwrap();
    let start = play.army.iter().filter_map(|&m| ground.index(m)).collect();
    Ok(Rebuilt {
        ground,
        start,
        moves,
        fingerprint: bound.fingerprint,
        recorded: bound.recorded,
    })
}

pub(super) type Built = (crate::problem::file::Spec, Ground, usize);

fn army_problem(proof: &Proof, play: &Play, steps: &[Step]) -> Result<Built, String> {
    let army = match &proof.model {
        Some(text) => Army::parse(text),
        None => proof.army.parse::<Army>(),
    }
    .map_err(|e| format!("no such problem: {e}"))?;
    if army.name() != proof.army {
        return Err(format!(
            "the model is named '{}', not '{}'",
            army.name(),
            proof.army
        ));
    }
    if proof.level < 1 {
        return Err(format!("no such level: {}", proof.level));
    }
    let lattice = army.lattice();
    let r = verify::replay(&lattice, proof.level, &play.army, steps)
        .map_err(|e| format!("the play does not replay: {e}"))?;
    let ground = Ground::army(&lattice, &play.army)?;
    Ok((army.problem().spec.clone(), ground, r.moves))
}

pub(super) fn board_problem(
    proof: &Proof,
    play: &Play,
    steps: &[Step],
    (v, f): (Cell, Cell),
) -> Result<Built, String> {
    let text = proof
        .model
        .as_deref()
        .ok_or("a board proof carries its model's text")?;
    let p = Problem::parse(text).map_err(|e| format!("no such board: {e}"))?;
    let s = &p.spec;
    let Cells::List(set) = &s.cells else {
        return Err("no such board: the model's cells are not a list of holes".into());
    };
    if s.start != Start::Board || s.dimension != 2 {
        return Err("no such board: the model is not a two-dimensional board".into());
    }
    if s.name != proof.army {
        return Err(format!(
            "the model is named '{}', not '{}'",
            s.name, proof.army
        ));
    }
    let holes: Vec<Cell> = set
        .iter()
        .map(|q| Cell::xy(q[0] + s.target[0], q[1] + s.target[1]))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !holes.contains(&v) || !holes.contains(&f) {
        return Err("the vacancy or the finish is not a hole".into());
    }
    let start: HashSet<Cell> = holes.iter().copied().filter(|&h| h != v).collect();
    let given: HashSet<Cell> = play.army.iter().copied().collect();
    if given != start || given.len() != play.army.len() {
        return Err("the play's start is not every hole but the vacancy".into());
    }
    let directions: Vec<Cell> = s.directions.iter().map(|d| Cell::xy(d[0], d[1])).collect();
    let set: HashSet<Cell> = holes.iter().copied().collect();
    let r = verify::replay_board(&set, &directions, &play.army, steps, &[f])
        .map_err(|e| format!("the play does not replay: {e}"))?;
    let ground = Ground::new(holes, &directions, f, true)?;
    Ok((s.clone(), ground, r.moves))
}

/// A proof's play as steps.
pub(super) fn steps_of(play: &Play) -> Vec<Step> {
    play.jumps
        .iter()
        .map(|&(from, over, to)| Step { from, over, to })
        .collect()
}

/// The claim for a proof whose play and problem are filled in (its claim's `counts` and
/// premises not yet): the problem rebuilt as [`check`] rebuilds it, the play replayed, and
/// the search run for `moves`, the play's move count (the writer's side of [`check`]). Err
/// says why no claim can be made (the play does not replay, a shorter play exists, a level
/// too large to check).
pub fn prepare(proof: &Proof, board: Option<(Cell, Cell)>) -> Result<MovesClaim, String> {
    let play = proof.play.as_ref().ok_or("no play")?;
    let steps = steps_of(play);
    let (_, g, moves) = match board {
        None => army_problem(proof, play, &steps),
        Some(vf) => board_problem(proof, play, &steps, vf),
    }?;
    let moves = moves as u32;
    let start: Vec<u32> = play.army.iter().filter_map(|&m| g.index(m)).collect();
    match search(&g, &start, moves) {
        Outcome::Counts(counts) => Ok(MovesClaim {
            board,
            moves,
            cells: g.cells.len() as u64,
            last_over: g.last_over.clone(),
            counts,
            levels: None,
        }),
        Outcome::Reached(k) => Err(format!("the checker's search finds a play of {k} moves")),
        Outcome::TooMany(k) => Err(format!(
            "the checker's search would hold more than {} positions at depth {k}",
            max_level(&g)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::geometry::Cell;

    /// Both representations of the search give the same outcome, counts included, on a
    /// 5 × 4 board (Merson regions and all) from several vacancies to several finishes.
    #[test]
    fn the_packed_search_is_the_search_by_lists() {
        let mut seen = 0;
        for t in [Cell::xy(0, 0), Cell::xy(2, 1), Cell::xy(1, 3)] {
            let g = Ground::rectangle(0..=4, 0..=3, t);
            for v in (0..20u32).step_by(3) {
                let start: Vec<u32> = (0..20u32).filter(|&i| i != v).collect();
                for moves in [3, 6, 9, 12] {
                    let a = search_list(&g, start.clone(), moves);
                    assert_eq!(a, search_packed(&g, &start, moves), "{t:?} {v} {moves}");
                    if let Outcome::Counts(c) = a {
                        seen += c.iter().sum::<u64>();
                    }
                }
            }
        }
        assert!(seen > 10_000, "the searches compared hold {seen} positions");
    }
}
