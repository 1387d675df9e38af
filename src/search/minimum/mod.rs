//! Finding a minimum army: both halves, a verified play and a proven lower bound, and the
//! proof file that lets a separate checker re-verify both ([`crate::proof`]).
//!
//! Every play ends with a jump 2d over d into the target, for a direction d; up to the
//! army's mirror there are few such d (notes §6). For each, the improved pagoda function
//! "one plus the distance from d" makes the position {d, 2d} before the last jump weigh 1,
//! and gives a pagoda lower bound L_d. The search then goes round by round, K = min L_d,
//! K + 1, …: in round K, for each d with L_d <= K, the IP with FIN = {d, 2d} and at most K
//! men is solved on the board of [`crate::reduce::board::Limit`] for K men (or, when HiGHS takes too
//! long, split into cases by [`crate::search::sweep`]). If every d is infeasible, no army of K men
//! exists (when every board was proven); otherwise the IP's army is ordered into a play and
//! replayed by [`crate::proof::verify`], and K is the minimum.
//!
//! An IP solution that cannot be ordered is cut off by a no-good on its start set and the
//! round is solved again, to look for another army. A cut excludes more than was shown
//! unplayable (the same men might play with other jumps), so a round that ends infeasible
//! after a cut is *unresolved*, never infeasible: the answer is then `open`, with the lower
//! bound below that round.
//!
//! The parts: the board and program of a round for one last jump ([`program`]), a round's
//! direct IP with its evidence ([`direct`]), a round split into case sweeps ([`split`]), and
//! how a search ends: an army concluded (its stability checked), or a stop ([`conclude`]).
//! Here: the climb over the rounds, and the LP's impossibility tried before it.

use crate::error::Error;
use crate::problem::geometry::Cell;
use crate::proof::format::{Claim, Evidence, RoundProof};
use crate::weight::golden::Golden;
use crate::weight::pagoda::{self, Pagoda, Profile};
use indicatif::ProgressBar;
use std::time::Instant;

use super::outcome::empty_outcome;
pub use super::outcome::{Outcome, Request, Round, Status};

mod conclude;
mod direct;
mod program;
mod split;
pub use program::{RoundProgram, round_program};

/// Everything fixed for one last-jump direction d.
struct Direction {
    d: Cell,
    pagoda: Pagoda,
    profile: Profile,
    /// Start cells under the sharper function of [`pagoda::sharper_profile`], if any.
    sharp: Option<Profile>,
    bound: Option<u64>,
}

/// Cuts per round before the round is left unresolved.
const MAX_CUTS: usize = 20;

/// How one last jump's part of a round ended.
enum Settled {
    /// No army of k men ends with this last jump; `proven` when its board was proven.
    Infeasible { proven: bool },
    /// Infeasible only after a no-good cut: nothing is proven.
    Unresolved,
    /// An army was found and the outcome concluded.
    Found,
    /// A time limit or Ctrl-C stopped the search; the outcome says where.
    Stopped,
}

/// The state of one search for a minimum.
struct Search<'a> {
    req: &'a Request,
    dirs: Vec<Direction>,
    out: Outcome,
    t0: Instant,
    progress: Option<ProgressBar>,
    /// Rounds split into cases: (men, last jump, case log directory).
    split: Vec<(u64, Cell, std::path::PathBuf)>,
    last_unproven: Option<u64>,
    /// Case logs go here when no directory was asked for: a fresh one, never shared.
    _scratch: Option<tempfile::TempDir>,
    case_dir: std::path::PathBuf,
    /// Direct rounds settled by an earlier run in `case_dir` ([`crate::search::record`]).
    record: crate::search::record::Record,
    /// The current round's infeasible direct programs, whose certificates are looked for
    /// only once the round has no army ([`Search::settle_round`]).
    pending: Vec<Pending>,
}

/// The evidence of one last jump of the current round, still to be made (a direct
/// program's certificate search: up to a minute of trees), in the order of the last jumps.
struct Pending {
    /// A direct program's report line, for the record a resumed run reads.
    round: Option<Round>,
    /// Makes the evidence within the seconds the search has left.
    proof: Box<dyn FnOnce(Option<f64>) -> Result<RoundProof, Error>>,
}

impl Pending {
    fn ready(proof: RoundProof) -> Pending {
        Pending {
            round: None,
            proof: Box::new(move |_| Ok(proof)),
        }
    }
}

/// A desert level the standard and improved functions leave open may still be ruled out by
/// the LP's functions ([`crate::ip::lp_pagoda`]), tried before any search over K. Not for the
/// five armies (their impossible levels are decided by the pagoda bound already), nor where
/// the tail lemma or the window's size rules the LP out.
fn lp_impossibility(req: &Request) -> Result<Option<(String, Claim)>, Error> {
    let lattice = req.army.lattice();
    let margin = crate::ip::lp_pagoda::DEFAULT_MARGIN;
    if lattice.start == crate::problem::geometry::StartRegion::HalfSpace
        || crate::proof::lp::tail_lemma_applies(&lattice).is_err()
        || crate::ip::lp_pagoda::radius(req.level, margin).is_err()
    {
        return Ok(None);
    }
    let a = crate::ip::lp_pagoda::analyse(&lattice, req.level, margin, None)?;
    let Some(claim) = a.claim() else {
        return Ok(None);
    };
    let worst = if a.target.rules_out() {
        a.target.ratio()
    } else {
        a.last_jumps
            .iter()
            .map(|(_, f)| f.ratio())
            .fold(0.0, f64::max)
    };
    Ok(Some((
        format!(
            "pagoda LP: a function on the window |x|,|y| <= {} under which the start region weighs at most {worst:.6} of the position before {}",
            a.radius,
            if a.target.rules_out() {
                "the end (the target)"
            } else {
                "each last jump ({d, 2d})"
            }
        ),
        claim,
    )))
}

pub fn find_minimum(req: &Request) -> Result<Outcome, Error> {
    let t0 = Instant::now();
    let mut out = empty_outcome(req);
    if req.level < 1 {
        return Err(Error::Input(format!(
            "level must be at least 1, got {}",
            req.level
        )));
    }
    if let Some(reason) = pagoda::impossibility_reason(req.army, req.level) {
        out.reason = Some(reason);
        out.seconds = t0.elapsed().as_secs_f64();
        return Ok(out);
    }
    let lattice = req.army.lattice();
    let mut dirs: Vec<Direction> = lattice
        .last_jump_directions()
        .into_iter()
        .map(|d| Direction::new(req.army, req.level, d))
        .collect();
    dirs.sort_by_key(|x| x.bound.unwrap_or(u64::MAX));
    let Some(mut k) = dirs.iter().filter_map(|x| x.bound).min() else {
        out.reason =
            Some("pagoda: no last jump leaves a position the start rows can pay for".into());
        return Ok(out);
    };
    if let Some((reason, claim)) = lp_impossibility(req)? {
        out.reason = Some(reason);
        out.lp_claim = Some(claim);
        out.seconds = t0.elapsed().as_secs_f64();
        return Ok(out);
    }
    out.pagoda_bound = Some(k);
    // The climb has no known end: a spinner, its message the round under way. Cleared when
    // dropped too, so that no return leaves its line above the answer.
    let progress = crate::search::progress::spinner(req.progress);
    let (case_dir, scratch) = crate::files::case_dir(req.case_dir.as_deref(), "solarmy-cases-")?;
    let mut search = Search {
        req,
        dirs,
        out,
        t0,
        progress,
        split: Vec::new(),
        last_unproven: None,
        record: crate::search::record::Record::open(req.army, req.level, &case_dir),
        pending: Vec::new(),
        _scratch: scratch,
        case_dir,
    };
    // An army found beforehand caps the climb: once the rounds below its size have no army,
    // it is the minimum, and the rounds of its size and above are never solved.
    let cap = req.incumbent.as_ref().map(|f| f.men());
    loop {
        if cap.is_some_and(|c| k >= c) {
            search.take_incumbent();
            search.conclude(k)?;
            break;
        }
        if search.round(k)? {
            break;
        }
        k += 1;
    }
    if let Some(found) = &req.incumbent {
        super::find::offer(&mut search.out, found);
    }
    Ok(search.out)
}

impl Search<'_> {
    fn remaining(&self) -> Option<f64> {
        self.req.time_limit.map(|t| {
            (self.t0 + std::time::Duration::from_secs_f64(t))
                .saturating_duration_since(Instant::now())
                .as_secs_f64()
        })
    }

    /// Round k: is there an army of k men? True when the search is over.
    fn round(&mut self, k: u64) -> Result<bool, Error> {
        let mut round_proven = true;
        for i in 0..self.dirs.len() {
            let dir = &self.dirs[i];
            if dir.bound.is_none_or(|b| b > k) {
                let plain = dir.profile.heaviest(k).1;
                let heaviest = match &dir.sharp {
                    Some(s) if plain >= Golden::ONE => s.heaviest(k).1,
                    _ => plain,
                };
                self.pending.push(Pending::ready(RoundProof {
                    men: k,
                    last_jump: dir.d,
                    evidence: Evidence::Weight { heaviest },
                }));
                continue;
            }
            match self.direct(i, k)? {
                Settled::Infeasible { proven } => round_proven &= proven,
                Settled::Unresolved => self.out.unresolved.push(k),
                Settled::Found | Settled::Stopped => {
                    // Round k is not part of the answer's proof: no certificates for it.
                    self.pending.clear();
                    return Ok(true);
                }
            }
        }
        self.settle_round()?;
        if !round_proven {
            self.out.board_proven = false;
            self.last_unproven = Some(k);
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    /// What `solve` would claim from the LP at the square desert's level 7 (where the
    /// improved function decides first): a PagodaLp claim in a proof the checker accepts; and
    /// nothing for the five armies or for an open level.
    #[test]
    fn the_lp_claim_goes_into_an_accepted_proof() {
        let square = Army::read(std::path::Path::new("models/desert-square.toml")).unwrap();
        let (reason, claim) = lp_impossibility(&Request::new(square, 7)).unwrap().unwrap();
        assert!(reason.starts_with("pagoda LP"), "{reason}");
        let mut out = empty_outcome(&Request::new(square, 7));
        out.reason = Some(reason);
        out.lp_claim = Some(claim);
        let proof = out.proof().unwrap();
        assert!(matches!(proof.claim, Claim::PagodaLp { .. }));
        crate::proof::check::check(&proof, &Default::default()).unwrap();
        assert!(
            lp_impossibility(&Request::new(square, 6))
                .unwrap()
                .is_none()
        );
        assert!(
            lp_impossibility(&Request::new(Army::conway(), 5))
                .unwrap()
                .is_none()
        );
    }
}
