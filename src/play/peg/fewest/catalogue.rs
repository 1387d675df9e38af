//! The catalogue of a board: the fewest moves of every problem up to symmetry whose
//! position class allows a finish, cheapest first, the levels of each hole class built once
//! and shared by every problem that needs them, within a memory budget ([`REACH_BYTES`]),
//! a deadline and the level cap.

use super::{Bits, Limits, Reach, Seen, Solved, Stop, depths, solve, solve_pair};
use crate::play::peg::PegBoard;
use std::collections::HashMap;
use std::time::Instant;

/// The most bytes the catalogue keeps in reaches (the current problem's two are kept
/// whatever their size): its memory stays near that of its largest problem solved alone
/// (3.3 GB for an English problem with no symmetry) instead of growing with the reaches
/// later problems could reuse (10 GB and more on the English board).
pub const REACH_BYTES: usize = 3 << 30;

/// Drops the reaches no later problem needs, then, while the cache holds more than `budget`
/// bytes, the one needed last (the current problem's `keep` stay): a reach dropped and
/// needed again is only built again.
fn evict(cache: &mut HashMap<usize, Reach>, needed: &[usize], keep: [usize; 2], budget: usize) {
    cache.retain(|r, _| needed.contains(r));
    while cache.values().map(Reach::bytes).sum::<usize>() > budget {
        let next_use = |r: &usize| needed.iter().position(|x| x == r).unwrap_or(usize::MAX);
        let Some(&last) = cache
            .keys()
            .filter(|r| !keep.contains(r))
            .max_by_key(|r| next_use(r))
        else {
            break;
        };
        cache.remove(&last);
    }
}

/// One problem of a board's catalogue, with its fewest moves.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub vacancy: crate::problem::geometry::Cell,
    pub finish: crate::problem::geometry::Cell,
    /// How many problems the entry stands for (its orbit under the board's symmetries).
    pub orbit: usize,
    pub solved: Solved,
    /// Positions in the levels built for this entry (0 when it reused levels built before).
    pub built: u64,
    /// Whether it was searched to the end; otherwise `solved` is empty.
    pub status: Status,
}

/// How far a catalogue entry's search went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// Searched to the end: `solved` holds the fewest moves, or none when no play exists.
    Searched,
    /// Not searched: the catalogue's deadline had passed.
    TimeLimit,
    /// Stopped: a level would have held more than `max_level` positions.
    TooMany,
    /// Not searched, or stopped: the catalogue was interrupted.
    Interrupted,
}

impl Status {
    /// The CSV's `status` column for an entry not searched to the end.
    pub fn name(self) -> &'static str {
        match self {
            Status::Searched => "searched",
            Status::TimeLimit => "time_limit",
            Status::TooMany => "too_many_positions",
            Status::Interrupted => "interrupted",
        }
    }
}

/// The fewest moves of every problem of the board up to symmetry whose position class allows a
/// finish ([`crate::play::peg::classes::witness`] finds none; the others cannot be solved at all).
/// The cheapest first: the problems with the most symmetries (their positions are kept up to them),
/// then by the classes of their holes. The levels of each hole class are built once (from the
/// class's least hole) and serve every problem whose vacancy or finish is in the class; a class's
/// levels are dropped once no problem left needs them. Past `deadline` the problems left are
/// returned not searched, after an interrupt too, and a problem whose levels outgrow `max_level` is
/// returned stopped ([`Status`]): what was settled is kept. `each` sees every entry.
pub fn catalogue(
    board: &PegBoard,
    lim: &Limits,
    deadline: Option<Instant>,
    each: &mut dyn FnMut(&Entry),
) -> Result<Vec<Entry>, String> {
    catalogue_resumed(board, lim, (deadline, &[]), each)
}

/// [`catalogue`], taking each entry `known` has searched (an earlier run's) as it is.
pub fn catalogue_resumed(
    board: &PegBoard,
    lim: &Limits,
    (deadline, known): (Option<Instant>, &[Entry]),
    each: &mut dyn FnMut(&Entry),
) -> Result<Vec<Entry>, String> {
    let bits = Bits::new(board)?;
    let problems = catalogue_problems(board, &bits);
    let mut cache = Reaches::default();
    let mut out = Vec::new();
    let mut interrupted = false;
    for (i, &(v, f)) in problems.iter().enumerate() {
        let started = Instant::now();
        let (vc, fc) = (board.cells[v], board.cells[f]);
        let mut e = Entry {
            vacancy: vc,
            finish: fc,
            orbit: board.orbit_size(vc, fc),
            solved: Solved::default(),
            built: 0,
            status: Status::TimeLimit,
        };
        let searched =
            |k: &&Entry| (k.vacancy, k.finish) == (vc, fc) && k.status == Status::Searched;
        if let Some(k) = known.iter().find(searched) {
            e = k.clone();
        } else if interrupted {
            e.status = Status::Interrupted;
        } else if deadline.is_none_or(|d| started < d) {
            let needed = &problems[i..];
            let result = if lim.pruning.is_off() {
                entry(&bits, board, (v, f), needed, &mut cache, lim, &mut e.built)
            } else {
                // Pruned levels are the problem's own: built for it, dropped after it.
                solve_pair(board, &bits, (v, f), lim).map(|(s, built)| {
                    e.built = built;
                    s
                })
            };
            match result {
                Ok(mut solved) => {
                    solved.seconds = started.elapsed().as_secs_f64();
                    e.solved = solved;
                    e.status = Status::Searched;
                }
                Err(stop) => {
                    // The seconds spent before stopping are kept: they say what was tried.
                    e.solved.seconds = started.elapsed().as_secs_f64();
                    e.status = match stop {
                        Stop::TooMany | Stop::Disk(_) => Status::TooMany,
                        Stop::Interrupted => Status::Interrupted,
                    };
                    interrupted = stop == Stop::Interrupted;
                }
            }
        }
        each(&e);
        out.push(e);
    }
    Ok(out)
}

/// The problems a catalogue searches, cheapest first (see [`catalogue`]).
fn catalogue_problems(board: &PegBoard, bits: &Bits) -> Vec<(usize, usize)> {
    let mut problems: Vec<(usize, usize)> = board
        .problems()
        .into_iter()
        .map(|(v, f)| (board.index[&v], board.index[&f]))
        .filter(|&(v, f)| crate::play::peg::classes::witness(board, v, f).is_none())
        .collect();
    problems.sort_by_key(|&(v, f)| {
        (
            std::cmp::Reverse(bits.stabiliser(&[v, f]).len()),
            bits.representative(v).0,
            bits.representative(f).0,
            v,
            f,
        )
    });
    problems
}

/// One catalogue problem (v, f) from the cached levels of its holes' classes, building those
/// missing (their positions added to `built`) and dropping those no problem of `needed` uses.
fn entry(
    bits: &Bits,
    board: &PegBoard,
    (v, f): (usize, usize),
    needed: &[(usize, usize)],
    cache: &mut Reaches,
    lim: &Limits,
    built: &mut u64,
) -> Result<Solved, Stop> {
    let (jf, _) = depths(bits);
    let (rv, gv) = bits.representative(v);
    let (rf, gf) = bits.representative(f);
    let needed: Vec<usize> = needed
        .iter()
        .flat_map(|&(a, b)| [bits.representative(a).0, bits.representative(b).0])
        .collect();
    for r in [rv, rf] {
        if cache.too_many.contains(&r) {
            return Err(Stop::TooMany);
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = cache.reaches.entry(r) {
            let reach = Reach::new(bits, r, jf, lim).inspect_err(|s| {
                if *s == Stop::TooMany {
                    cache.too_many.insert(r);
                }
            })?;
            *built += reach.positions();
            slot.insert(reach);
        }
        evict(&mut cache.reaches, &needed, [rv, rf], lim.reach_bytes);
    }
    let a = Seen::new(bits, &cache.reaches[&rv], gv);
    let b = Seen::new(bits, &cache.reaches[&rf], gf);
    solve(board, bits, (&a, &b), lim)
}

/// A catalogue's levels by hole class, and the classes whose levels outgrew `max_level`
/// (the same limits give the same levels, so such a class stops each problem it is in at
/// once instead of being built again).
#[derive(Default)]
struct Reaches {
    reaches: HashMap<usize, Reach>,
    too_many: std::collections::HashSet<usize>,
}
