//! The proof file of a fewest-moves answer (`moves --proof FILE`) as library calls: the proof
//! of "this play is a fewest-moves play" for an army or a board problem ([`proof_of`]), its
//! claim made by the checker's own search and the file written whole ([`write_proof`]). The
//! claim is the checker's ([`crate::proof::moves`], [`crate::proof::fewest`]), or, for a
//! board searched by levels without pruning, the counts this search states
//! ([`stated_levels`]), which `solarmy check` recounts by its own search: a count that
//! differs fails the check naming its level, so stating them costs no trust and spares the
//! writer a second search as large as the first.

use crate::error::Result;
use crate::play::peg::PegBoard;
use crate::play::peg::fewest::{Bits, Solved};
use crate::problem::geometry::Cell;
use crate::proof::format::{Claim, FORMAT, LevelCounts, MovesClaim, Play, Proof};
use crate::proof::verify::{self, Step};
use std::path::{Path, PathBuf};

/// The proof of "`play` is a fewest-moves play" for an army at `level` (`board` None) or a
/// board problem (`board` = (vacancy, finish)), named by its army or board, its model file
/// (None for a bundled army) and its fingerprint, with an empty claim for [`write_proof`] to
/// fill in.
pub fn proof_of(
    (name, model, fingerprint): (&str, Option<String>, String),
    level: i32,
    board: Option<(Cell, Cell)>,
    (men, play): (&[Cell], &[Step]),
) -> Proof {
    Proof {
        format: FORMAT.into(),
        program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
        army: name.into(),
        model,
        fingerprint: Some(fingerprint),
        level,
        claim: Claim::Moves(MovesClaim {
            board,
            moves: verify::count_moves(play) as u32,
            cells: 0,
            last_over: Vec::new(),
            counts: Vec::new(),
            levels: None,
        }),
        play: Some(Play {
            army: men.to_vec(),
            jumps: play.iter().map(|s| (s.from, s.over, s.to)).collect(),
        }),
        rounds: Vec::new(),
    }
}

/// The counts a search by levels states for the proof of the board problem v → f: the
/// forward levels 0 … ⌈N/2⌉ and backward 0 … ⌊N/2⌋ (N = holes − 2 jumps), the positions
/// on some play, the symmetries and the pagodas that pruned the levels, as the checker's
/// search by levels counts them. None when the search cannot state them: a level was never
/// built (met by children), its pruning's pagodas are not known, or its levels were counted
/// up to a larger group than the checker's (unpruned levels serve every problem of their
/// hole, so they are counted up to the symmetries fixing that hole alone, the checker's up
/// to those fixing both v and f; pruned levels are the problem's own, counted up to those).
pub fn stated_levels(s: &Solved, board: &PegBoard, (v, f): (Cell, Cell)) -> Option<LevelCounts> {
    let bits = Bits::new(board).ok()?;
    let (vi, fi) = (*board.index.get(&v)?, *board.index.get(&f)?);
    let fixing = |h: usize| bits.stabiliser(&[h]).len();
    let n = board.cells.len().checked_sub(2)?;
    let (forward, backward) = (n - n / 2, n / 2);
    let grouped = match s.pagodas {
        0 => fixing(vi) == s.symmetry && fixing(fi) == s.symmetry,
        _ => !s.weights.is_empty(),
    };
    let whole = grouped
        && bits.stabiliser(&[vi, fi]).len() == s.symmetry
        && s.forward.len() > forward
        && s.backward.len() > backward
        && s.on_plays.len() == n + 1;
    let pagodas = match s.pagodas {
        0 => Vec::new(),
        _ => crate::play::peg::exhaust::stated_pagodas(board, &s.weights),
    };
    whole.then(|| LevelCounts {
        symmetries: s.symmetry,
        forward: s.forward[..=forward].to_vec(),
        backward: s.backward[..=backward].to_vec(),
        on_plays: s.on_plays.clone(),
        pagodas,
    })
}

/// Who makes a proof's claim.
pub enum Claimed {
    /// The checker's search by moves ([`crate::proof::moves::prepare`]).
    ByMoves,
    /// A board's: the checker's search by levels ([`crate::proof::fewest::prepare`]), its
    /// levels' progress drawn when `shown`.
    ByLevels { shown: bool },
    /// A board's: the counts a search by levels states ([`stated_levels`]), for
    /// `solarmy check` to recount; no search here.
    Stated(LevelCounts),
}

/// Fills the claim of `proof` as `how` says and writes it whole to `path`: Ok(Ok(path))
/// when written, Ok(Err(why)) when no proof can be made (said on stderr; the answer stands).
pub fn write_proof(
    path: &Path,
    mut proof: Proof,
    how: Claimed,
) -> Result<std::result::Result<PathBuf, String>> {
    let Claim::Moves(stated) = &proof.claim else {
        return Ok(Err("not a fewest-moves proof".into()));
    };
    let claim = match (stated.board, how) {
        (Some(_), Claimed::Stated(counts)) => Ok(MovesClaim {
            levels: Some(counts),
            ..stated.clone()
        }),
        (Some(vf), Claimed::ByLevels { shown }) => crate::proof::fewest::prepare(&proof, vf, shown),
        (board, _) => crate::proof::moves::prepare(&proof, board),
    };
    match claim {
        Ok(claim) => {
            proof.claim = Claim::Moves(claim);
            crate::files::write_atomic(path, &proof.to_bytes(path)?)?;
            Ok(Ok(path.to_path_buf()))
        }
        Err(why) => {
            eprintln!("solarmy: no proof written to {}: {why}", path.display());
            Ok(Err(why))
        }
    }
}

/// The proof of "no play goes from v to f" from a search by levels that found none: the
/// pruned exhaustion its levels state (a board claim, `BoardVerdict::Exhausted`: its
/// pagodas, the forward levels to the middle, or to the level before it when met by
/// children, and the backward levels), which `solarmy check` recounts with its own search
/// (in memory, or on disk with `check --work`). None when the search cannot state it: a play
/// was found, or, as for [`stated_levels`], its levels were counted up to another group than
/// the checker's (the symmetries fixing the finish).
pub fn no_play_proof(s: &Solved, board: &PegBoard, (v, f): (Cell, Cell)) -> Option<Proof> {
    use crate::play::peg::settle::{self, Outcome, Verdict};
    let bits = Bits::new(board).ok()?;
    let (vi, fi) = (*board.index.get(&v)?, *board.index.get(&f)?);
    let fixing = |h: &[usize]| bits.stabiliser(h).len();
    let same_group = [fixing(&[vi]), fixing(&[fi]), fixing(&[vi, fi])] == [s.symmetry; 3];
    if s.min_moves.is_some() || !same_group || (s.pagodas > 0 && s.weights.is_empty()) {
        return None;
    }
    let (forward, backward, children) = stated_sides(s, board.cells.len().checked_sub(2)?)?;
    let mut pruned =
        crate::play::peg::exhaust::pruned(board, &s.weights, s.symmetry, forward, backward);
    pruned.children = children;
    let outcome = Outcome {
        vacancy: v,
        finish: f,
        verdict: Verdict::Pruned(pruned),
        ips: 0,
        cuts: 0,
        seconds: s.seconds,
    };
    settle::proof(board, &outcome)
}

/// The forward and backward counts a search without a play states, and whether its sides
/// meet by children: forward 0 … ⌈N/2⌉ (or 0 … ⌈N/2⌉ − 1 when that level was never built),
/// backward 0 … ⌊N/2⌋, each cut after its first empty level (a forward side that dies
/// out states no backward side).
fn stated_sides(s: &Solved, n: usize) -> Option<(Vec<u64>, Vec<u64>, bool)> {
    let (jf, jb) = (n - n / 2, n / 2);
    let upto = |v: &[u64], j: usize| -> Vec<u64> {
        let end = v.iter().position(|&c| c == 0).map_or(j, |z| z.min(j));
        v.iter().take(end + 1).copied().collect()
    };
    if s.forward.is_empty() {
        return None;
    }
    if s.forward[..s.forward.len().min(jf + 1)].contains(&0) {
        return Some((upto(&s.forward, jf), Vec::new(), false));
    }
    let children = match s.forward.len() {
        l if l > jf => false,
        l if l == jf => true,
        _ => return None,
    };
    let backward = upto(&s.backward, jb);
    let spans = backward.len() == jb + 1 || backward.last() == Some(&0);
    let forward = upto(&s.forward, jf - usize::from(children));
    spans.then_some((forward, backward, children))
}

/// [`no_play_proof`] written whole to `path`: Ok(Ok(path)) when written, Ok(Err(why)) when
/// none can be made (said on stderr; the answer stands).
pub fn write_no_play(
    path: &Path,
    s: &Solved,
    board: &PegBoard,
    (v, f): (Cell, Cell),
) -> Result<std::result::Result<PathBuf, String>> {
    let Some(proof) = no_play_proof(s, board, (v, f)) else {
        let why = "the levels state no claim the checker counts alike: counted up to other symmetries than the checker's, or not built to the middle (`solve --proof` proves it)";
        eprintln!("solarmy: no proof written to {}: {why}", path.display());
        return Ok(Err(why.into()));
    };
    crate::files::write_atomic(path, &proof.to_bytes(path)?)?;
    Ok(Ok(path.to_path_buf()))
}
