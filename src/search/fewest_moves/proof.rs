//! The proof file of a fewest-moves answer (`moves --proof FILE`) as library calls: the proof
//! of "this play is a fewest-moves play" for an army or a board problem ([`proof_of`]), its
//! claim made by the checker's own search and the file written whole ([`write_proof`]). The
//! claim is the checker's ([`crate::proof::moves`], [`crate::proof::fewest`]), not this
//! search's: `solarmy check` repeats it.

use crate::error::Result;
use crate::problem::geometry::Cell;
use crate::proof::format::{Claim, FORMAT, MovesClaim, Play, Proof};
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

/// Fills the claim of `proof` by the checker's own search
/// ([`crate::proof::moves::prepare`]) and writes it whole to `path`: Ok(Ok(path)) when
/// written, Ok(Err(why)) when no proof can be made (said on stderr; the answer stands).
/// With `by_levels` (a board), the claim is made by the checker's search by levels
/// ([`crate::proof::fewest::prepare`]) instead, its levels' progress drawn when `shown`.
pub fn write_proof(
    path: &Path,
    mut proof: Proof,
    (by_levels, shown): (bool, bool),
) -> Result<std::result::Result<PathBuf, String>> {
    let board = match &proof.claim {
        Claim::Moves(c) => c.board,
        _ => None,
    };
    let claim = match board {
        Some(vf) if by_levels => crate::proof::fewest::prepare(&proof, vf, shown),
        _ => crate::proof::moves::prepare(&proof, board),
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
