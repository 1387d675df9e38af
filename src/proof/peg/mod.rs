//! The checker of a board claim ([`super::format::BoardClaim`], and a pattern problem's,
//! [`super::format::PatternClaim`]): re-verifies one peg-solitaire board problem's verdict
//! from the model text alone, naming the first step that fails.
//!
//! It shares nothing with the search in `crate::play::peg`: it reads the holes and directions
//! from the model file ([`crate::problem`]), builds the jumps and the jump program itself
//! (holes in ascending (x, y) order, one balance row each; jumps by from-hole, then by
//! direction in the file's order, one column each, bounded by the number of jumps of any play:
//! men at the start − men at the finish, N − 2 for a single vacancy),
//! recomputes position classes by its own elimination (start ⊕ finish reduced over the
//! GF(2) span of the jumps), replays plays with [`crate::proof::verify::replay_board`], and checks
//! certificates exactly with [`super::farkas`].

mod board;

use super::farkas::{self, Tree};
use super::format::{BoardVerdict, FORMAT, Proof};
use super::moves::Checker;
use super::outcore::{Scratch, Work};
use super::summary::Summary;
use super::verify::men_word;
use crate::error::CheckError;
use crate::problem::fingerprint::Ends;
use crate::problem::geometry::Cell;
use std::collections::HashSet;
use std::time::Instant;

pub use board::MAX_POSITIONS;
pub(super) use board::{Board, Sides, enumerate};

/// The start reaches exactly `positions` positions, and the finish is not one of them.
fn unreachable(
    c: &mut Checker,
    board: &Board,
    sides: &Sides,
    positions: u64,
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, exhaustive search",
        c.context.split(',').next().unwrap_or("")
    );
    c.expect(board.holes.len() <= 128, || "more than 128 holes".into())?;
    let all = enumerate(board, Sides::mask(&sides.start));
    c.expect(all.is_some(), || {
        format!("more than {MAX_POSITIONS} positions are reachable: too many to check")
    })?;
    let all = all.unwrap();
    c.expect(all.len() as u64 == positions, || {
        format!("{} positions are reachable, stated {positions}", all.len())
    })?;
    c.expect(!all.contains(&Sides::mask(&sides.finish)), || {
        "the finish is reachable".into()
    })
}

/// What an [`BoardVerdict::Exhausted`] claim states.
struct Stated<'a> {
    pagodas: &'a [Vec<(Cell, i64)>],
    symmetries: usize,
    forward: &'a [u64],
    backward: &'a [u64],
    children: bool,
}

/// The most positions one level of the pruned search may hold (8 bytes each; building a
/// level takes a few times that, and two sides' last levels are held at the end).
pub const MAX_LEVEL: usize = 150_000_000;

/// The largest weight a stated pagoda may give a hole.
pub const PAGODA_WEIGHT: i64 = 1 << 40;

/// Each pagoda names holes, once each, its weights bounded, and no jump increases it.
fn pagodas(
    c: &mut Checker,
    board: &Board,
    stated: &[Vec<(Cell, i64)>],
) -> Result<Vec<Vec<i64>>, CheckError> {
    c.require(verified_pagodas(board, stated))
}

/// The stated pagodas as weights by hole, when each names holes, once each, its weights
/// bounded, and no jump increases it; otherwise the first fault.
pub(super) fn verified_pagodas(
    board: &Board,
    stated: &[Vec<(Cell, i64)>],
) -> Result<Vec<Vec<i64>>, String> {
    let mut out = Vec::new();
    for (i, p) in stated.iter().enumerate() {
        let mut w = vec![0i64; board.holes.len()];
        let mut seen = HashSet::new();
        if let Some((cell, _)) = p
            .iter()
            .find(|(cell, _)| board.hole(*cell).is_none() || !seen.insert(*cell))
        {
            return Err(format!(
                "pagoda {i} names {cell:?}, not a hole or named twice"
            ));
        }
        // Bounded so that no sum over 64 holes can overflow.
        if let Some(big) = p.iter().find(|(_, x)| x.abs() > PAGODA_WEIGHT) {
            return Err(format!("pagoda {i} weighs {big:?} beyond ±{PAGODA_WEIGHT}"));
        }
        for &(cell, x) in p {
            w[board.hole(cell).unwrap_or(0)] = x;
        }
        let up = board
            .jumps
            .iter()
            .find(|&&(a, b, cc)| w[cc] > w[a].saturating_add(w[b]));
        if let Some(&(a, b, cc)) = up {
            let h = |i: usize| board.holes[i];
            return Err(format!(
                "pagoda {i} increases on the jump {:?} over {:?} into {:?}",
                h(a),
                h(b),
                h(cc)
            ));
        }
        out.push(w);
    }
    Ok(out)
}

/// The pruned exhaustion: pagodas verified, the group recomputed, both sides searched again
/// by [`super::levels::meet`], every level's count compared, and no position shared.
fn exhausted(
    c: &mut Checker,
    board: &Board,
    (v, f): (usize, usize),
    stated: &Stated,
    (shown, work): (bool, Option<&Work>),
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, pruned exhaustive search",
        c.context.split(',').next().unwrap_or("")
    );
    let n = board.holes.len();
    c.expect(n <= 64, || "more than 64 holes".into())?;
    let weights = pagodas(c, board, stated.pagodas)?;
    let group: Vec<Vec<usize>> = board
        .symmetries()
        .into_iter()
        .filter(|g| g[f] == f)
        .collect();
    c.expect(group.len() == stated.symmetries, || {
        format!(
            "{} symmetries fix the finish, stated {}",
            group.len(),
            stated.symmetries
        )
    })?;
    c.expect(!stated.forward.is_empty(), || {
        "no forward levels are stated".into()
    })?;
    let start = (0..n).filter(|&h| h != v).fold(0u64, |m, h| m | 1 << h);
    let space = super::levels::Space {
        n,
        jumps: &board.jumps,
        perms: &group,
        pagodas: &weights,
        finish: f,
        max_level: MAX_LEVEL,
        log: None,
        stop: None,
        shown,
    };
    let depth = stated.forward.len() - 1;
    let out = match (work, stated.children) {
        (None, false) => super::levels::meet(&space, start, depth),
        (work, _) => {
            c.expect(!stated.children || depth < n - 2, || {
                "a meeting by children needs a forward level before the last".into()
            })?;
            let out = Scratch::new(work).and_then(|scratch| {
                super::outcore::meet(&space, start, depth, stated.children, &scratch.work)
            });
            c.require(out.map_err(|e| format!("the levels on disk: {e}")))?
        }
    };
    let super::levels::Outcome::Counts {
        forward,
        backward,
        shared,
    } = out
    else {
        return c.expect(false, || {
            format!("{out:?}: more positions in a level than {MAX_LEVEL} (check --work DIR)")
        });
    };
    for (side, ours, theirs) in [
        ("forward", &forward, stated.forward),
        ("backward", &backward, stated.backward),
    ] {
        let first = (0..ours.len().max(theirs.len())).find(|&j| ours.get(j) != theirs.get(j));
        c.expect(first.is_none(), || {
            let j = first.unwrap();
            format!(
                "{side} level {j}: {:?} positions, stated {:?}",
                ours.get(j),
                theirs.get(j)
            )
        })?;
    }
    c.expect(shared == 0, || {
        format!("the two sides share {shared} positions: the finish alone is reached")
    })
}

/// Checks a board claim (a single vacancy and finish, or a start and a finish pattern): Ok
/// with a summary only if every step holds; `shown`: the search by levels draws its progress
/// on stderr.
pub fn check(
    proof: &Proof,
    ends: Ends,
    verdict: &BoardVerdict,
    (expected, shown, work): (Option<&crate::problem::file::Spec>, bool, Option<&Work>),
) -> Result<Summary, CheckError> {
    let t0 = Instant::now();
    let head = match ends {
        Ends::Holes(v, f) => format!("({},{})->({},{})", v.0, v.1, f.0, f.1),
        Ends::Patterns(s, f) => {
            format!("pattern of {} -> {}", men_word(s.len()), men_word(f.len()))
        }
        Ends::Model => "(no ends)".into(),
    };
    let mut c = Checker {
        step: 0,
        context: format!("{} {head}, setup", proof.army),
    };
    c.expect(proof.format == FORMAT, || {
        format!("format '{}', expected '{FORMAT}'", proof.format)
    })?;
    let board = proof
        .model
        .as_deref()
        .ok_or_else(|| "a board proof carries its model's text".to_string())
        .and_then(Board::from_model);
    let (spec, board) = c.require(board.map_err(|e| format!("no such board: {e}")))?;
    c.expect(spec.name == proof.army, || {
        format!("the model is named '{}', not '{}'", spec.name, proof.army)
    })?;
    let bound = super::bind::bind(&spec, ends, proof.fingerprint.as_deref(), expected);
    let bound = c.require(bound.map_err(|e| format!("not the problem claimed: {e}")))?;
    let sides = c.require(board.sides(ends))?;
    let mut summary = Summary {
        army: proof.army.clone(),
        fingerprint: bound.fingerprint,
        fingerprint_recorded: bound.recorded,
        board: true,
        ..Summary::default()
    };
    let claimed = decide(
        &mut c,
        (proof, &board, &sides),
        verdict,
        (shown, work),
        &mut summary,
    )?;
    summary.claim = format!("{head} {claimed}");
    summary.steps = c.step;
    summary.seconds = t0.elapsed().as_secs_f64();
    Ok(summary)
}

/// Checks the verdict itself; what it claims, in words.
fn decide(
    c: &mut Checker,
    (proof, board, sides): (&Proof, &Board, &Sides),
    verdict: &BoardVerdict,
    (shown, work): (bool, Option<&Work>),
    summary: &mut Summary,
) -> Result<&'static str, CheckError> {
    Ok(match verdict {
        BoardVerdict::Solvable => {
            solvable(c, proof, board, sides)?;
            "solvable"
        }
        BoardVerdict::PositionClass {
            witness,
            start_parity,
            finish_parity,
        } => {
            class(c, board, sides, witness, (*start_parity, *finish_parity))?;
            "not solvable (position class)"
        }
        BoardVerdict::Unreachable { positions } => {
            unreachable(c, board, sides, *positions)?;
            "not solvable (exhaustive search)"
        }
        BoardVerdict::Exhausted {
            pagodas,
            symmetries,
            forward,
            backward,
            children,
        } => {
            c.expect(sides.holes.is_some(), || {
                "a pruned exhaustion is made for one vacancy and one finish, not for a pattern"
                    .into()
            })?;
            let stated = Stated {
                pagodas,
                symmetries: *symmetries,
                forward,
                backward,
                children: *children,
            };
            exhausted(c, board, sides.holes.unwrap(), &stated, (shown, work))?;
            "not solvable (pruned exhaustive search)"
        }
        BoardVerdict::NoJumpVector {
            rows,
            cols,
            certificate,
        } => {
            summary.ips = 1;
            summary.certified = 1;
            no_vector(c, board, sides, (*rows, *cols), certificate)?
        }
    })
}

/// The proof's play starts from the start's men and ends with exactly the finish's.
fn solvable(
    c: &mut Checker,
    proof: &Proof,
    board: &Board,
    sides: &Sides,
) -> Result<(), CheckError> {
    c.context = format!("{}, play", c.context.split(',').next().unwrap_or(""));
    let play = c.require(
        proof
            .play
            .as_ref()
            .ok_or("a solvable claim needs a play".into()),
    )?;
    let on = |p: &[bool]| -> Vec<Cell> {
        (0..p.len())
            .filter(|&h| p[h])
            .map(|h| board.holes[h])
            .collect()
    };
    let (start, finish) = (on(&sides.start), on(&sides.finish));
    let wanted: HashSet<Cell> = start.iter().copied().collect();
    let given: HashSet<Cell> = play.army.iter().copied().collect();
    c.expect(
        given == wanted && given.len() == play.army.len(),
        || match sides.holes {
            Some(_) => "the play's start is not every hole but the vacancy".into(),
            None => "the play's start is not the start pattern".into(),
        },
    )?;
    let steps = super::moves::steps_of(play);
    let holes: HashSet<Cell> = board.holes.iter().copied().collect();
    let r =
        crate::proof::verify::replay_board(&holes, &board.directions, &play.army, &steps, &finish);
    c.require(r).map(|_| ())
}

/// The witness is invariant under every jump, and start and finish differ on it.
fn class(
    c: &mut Checker,
    board: &Board,
    sides: &Sides,
    witness: &[Cell],
    (sp, fp): (u8, u8),
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, position class",
        c.context.split(',').next().unwrap_or("")
    );
    let w: Vec<Option<usize>> = witness.iter().map(|&h| board.hole(h)).collect();
    let distinct: HashSet<&Option<usize>> = w.iter().collect();
    c.expect(
        w.iter().all(Option::is_some) && distinct.len() == w.len(),
        || "the witness names a cell that is not a hole, or one twice".into(),
    )?;
    let mut inw = vec![false; board.holes.len()];
    for h in w.into_iter().flatten() {
        inw[h] = true;
    }
    let odd = board
        .jumps
        .iter()
        .find(|&&(a, b, cc)| (inw[a] as u8 + inw[b] as u8 + inw[cc] as u8) % 2 == 1);
    c.expect(odd.is_none(), || {
        let (a, b, cc) = odd.unwrap();
        let h = |i: usize| board.holes[i];
        format!("the witness is not invariant: jump {:?} over {:?} into {:?} meets it an odd number of times", h(*a), h(*b), h(*cc))
    })?;
    let (start, fin) = (&sides.start, &sides.finish);
    let parity = |p: &[bool]| (p.iter().zip(&inw).filter(|(a, b)| **a && **b).count() % 2) as u8;
    let (s, e) = (parity(start), parity(fin));
    c.expect(s == sp, || {
        format!("the start has parity {s} on the witness, stated {sp}")
    })?;
    c.expect(e == fp, || {
        format!("the finish has parity {e} on the witness, stated {fp}")
    })?;
    c.expect(s != e, || {
        "start and finish have the same parity on the witness".into()
    })?;
    // The classes again, by the checker's own elimination.
    c.expect(board.classes_differ(start, fin), || {
        "start and finish are in the same position class".into()
    })
}

/// The jump program, built here, has no integer solution: the certificate says why.
fn no_vector(
    c: &mut Checker,
    board: &Board,
    sides: &Sides,
    (rows, cols): (usize, usize),
    certificate: &Tree,
) -> Result<&'static str, CheckError> {
    c.context = format!(
        "{}, jump program",
        c.context.split(',').next().unwrap_or("")
    );
    let sys = board.system(sides);
    c.expect(sys.rows.len() == rows && sys.cols.len() == cols, || {
        format!(
            "the program has {} rows and {} columns, stated {rows} and {cols}",
            sys.rows.len(),
            sys.cols.len()
        )
    })?;
    c.require(farkas::check_tree(&sys, certificate).map_err(|e| format!("certificate: {e}")))?;
    Ok(match certificate {
        Tree::Leaf(_) => "not solvable (resource count)",
        _ => "not solvable (integer program)",
    })
}
