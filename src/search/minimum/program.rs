//! The board and the program of a round for one last jump d: what d's improved pagoda
//! function (and the sharper one, where there is one) bound, the board of round k and why
//! it suffices (the weight argument, or the case split's own limit), and the program as the
//! search solves it.

use super::Direction;
use crate::ip::model::Spec;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::format::BoardBasis;
use crate::reduce::board::{Board, Limit, MARGIN};
use crate::reduce::cases;
use crate::weight::golden::Golden;
use crate::weight::pagoda::{self, Pagoda};

impl Direction {
    /// The improved function of d, the start cells under it (and under the sharper
    /// function, if any) and the pagoda bound: both functions bound the army, and the
    /// sharper one may bound it higher.
    pub(super) fn new(army: Army, level: i32, d: Cell) -> Direction {
        let pagoda = Pagoda::improved(&army.lattice(), d);
        let profile = pagoda.start_profile(level);
        let sharp = pagoda::sharper_profile(army, d, level);
        let bound = profile.lower_bound(Golden::ONE).and_then(|b| match &sharp {
            Some(s) => s.lower_bound(Golden::ONE).map(|t| t.max(b)),
            None => Some(b),
        });
        Direction {
            d,
            pagoda,
            profile,
            sharp,
            bound,
        }
    }
}

/// Nodes the case enumeration may visit to prove a direct round's board.
const LIMIT_BUDGET: u64 = 300_000;

/// The board for round k and why it suffices: step 1 of the board argument, or where it
/// gives nothing, the case split's own limit ([`cases::Enumeration::limit`]); failing
/// both, the margin, not proven (and no basis).
pub(super) fn round_limit(dir: &Direction, k: u64) -> (Limit, Option<BoardBasis>) {
    let limit =
        Limit::new(&dir.profile, k, Golden::ONE, MARGIN).expect("the pagoda bound admits k men");
    let (per, heaviest) = dir.profile.heaviest(k);
    let rest = dir.profile.heaviest(k - 1).1;
    if limit.proven {
        let basis = BoardBasis::Weight {
            rest,
            farthest: (
                per.len() as i32 - 1,
                (Golden::ONE - rest).floor_log().unwrap_or(0),
            ),
            max_slack: heaviest - Golden::ONE,
            max_exponent: limit.max_exponent,
        };
        return (limit, Some(basis));
    }
    let cap = dir.pagoda.trusted_exponent() - 8;
    let all = cases::enumerate(
        &dir.profile,
        k,
        Golden::ONE,
        &[1, 2],
        cap,
        LIMIT_BUDGET,
        dir.sharp.as_ref(),
    );
    match all.limit(k) {
        Some(l) if l.max_exponent <= cap => {
            let basis = BoardBasis::Cases {
                total: all.cases.len(),
                open: all.cases.iter().filter(|c| c.ruled_out.is_none()).count(),
                max_slack: l.max_loss,
                max_exponent: l.max_exponent,
            };
            (l, Some(basis))
        }
        _ => (limit, None),
    }
}

/// The program of round `k` for one last jump, as the search solves it.
pub struct RoundProgram {
    pub board: Board,
    /// With at least k men when the pagoda bound is below k.
    pub spec: Spec,
    /// Whether the board is proven to hold every cell real play of k men can use.
    pub proven: bool,
    /// The board's limit as a proof states it: largest exponent, largest jump loss, and the
    /// basis of the limit when it is proven.
    pub max_exponent: i32,
    pub max_loss: Golden,
    pub basis: Option<BoardBasis>,
}

/// The program of round `k` for the last jump `d`; None when no army of k men is heavy
/// enough for this d.
pub fn round_program(army: Army, level: i32, d: Cell, k: u64) -> Option<RoundProgram> {
    let dir = Direction::new(army, level, d);
    let bound = dir.bound?;
    if bound > k {
        return None;
    }
    let (limit, basis) = round_limit(&dir, k);
    let board = Board::new(&dir.pagoda, level, &limit);
    let spec = Spec {
        fin: board.last_jump_position(d),
        max_men: Some(k),
        min_men: (k > bound).then_some(k),
        ..Spec::default()
    };
    Some(RoundProgram {
        board,
        spec,
        proven: limit.proven,
        max_exponent: limit.max_exponent,
        max_loss: limit.max_loss,
        basis,
    })
}
