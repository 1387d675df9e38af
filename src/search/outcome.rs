//! What a request for a minimum asks ([`Request`]) and how it ended ([`Outcome`], [`Status`],
//! the [`Round`]s solved), with the one step every search path shares: an IP solution is
//! ordered into a play and replayed before it counts ([`settle`]). The round search
//! ([`super::minimum`]), the case sweeps ([`super::sweep`]) and the record of settled rounds
//! ([`super::record`]) all build on it, so none of them needs another.

use crate::ip::solve::{self};
use crate::play::order::{self, Ordering};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::format::{Claim, FORMAT, Play, Proof, RoundProof};
use crate::proof::verify::{self, Step};
use crate::reduce::board::Board;
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
use serde::Serialize;
use std::time::Instant;

/// Seconds HiGHS spends on a whole case that can be split before it is split
/// (`sweep/split.rs`).
pub const SPLIT_AFTER: f64 = 20.0;

/// Nodes the backtracker may visit ordering one IP solution.
pub const ORDER_BUDGET: u64 = 2_000_000;

/// What to solve.
#[derive(Clone, Debug)]
pub struct Request {
    pub army: Army,
    pub level: i32,
    pub time_limit: Option<f64>,
    pub progress: bool,
    /// Re-solve the last infeasible round on a board larger by this many exponents when its
    /// board was not proven (0: skip).
    pub stability_margin: i32,
    /// Write every IP solved to this path, with `-<men>men-d<x>_<y>` before the extension.
    pub write_model: Option<std::path::PathBuf>,
    /// Seconds a direct IP may take before its round is split into cases (None: never).
    pub direct_budget: Option<f64>,
    /// Where case logs go (a sweep resumes from them).
    pub case_dir: Option<std::path::PathBuf>,
    /// Re-prove every infeasible IP with CBC ([`crate::ip::second`]).
    pub second_opinion: bool,
    /// Fault injection for tests: treat the first this many IP solutions as unorderable, as
    /// if the backtracker had run out of its budget.
    pub refuse_orderings: usize,
    /// Cases of a split round solved at once ([`crate::search::sweep::Sweep::solve`]).
    pub jobs: usize,
    /// One line on stderr per integer program, as it is solved.
    pub verbose: bool,
    /// Seconds before a hard case is split on the fly ([`crate::search::sweep::Sweep::split_after`]).
    pub split_after: Option<f64>,
    /// A verified army found before the climb ([`crate::search::find`]): the rounds of its
    /// size and above are never solved, and it is the answer's army unless the climb finds
    /// a smaller one.
    pub incumbent: Option<Found>,
}

/// A verified army and its play, found without any proof of minimality.
#[derive(Clone, Debug)]
pub struct Found {
    pub army_cells: Vec<Cell>,
    pub play: Vec<Step>,
    pub moves: usize,
    pub last_jump: Cell,
    /// The board of the program that found it.
    pub cells: usize,
    pub jumps: usize,
}

impl Found {
    pub fn men(&self) -> u64 {
        self.army_cells.len() as u64
    }
}

impl Request {
    /// Solve `army` to `level` with nothing else asked for: no time limit, no progress, no
    /// stability check, no model files, no case split, no second opinion.
    pub fn new(army: Army, level: i32) -> Request {
        Request {
            army,
            level,
            time_limit: None,
            progress: false,
            stability_margin: 0,
            write_model: None,
            direct_budget: None,
            case_dir: None,
            second_opinion: false,
            refuse_orderings: 0,
            jobs: 1,
            verbose: false,
            split_after: Some(SPLIT_AFTER),
            incumbent: None,
        }
    }
}

/// Where the IP for `men` men and last jump `d` is written, given the requested path.
pub fn model_path(base: &std::path::Path, men: u64, d: Cell) -> std::path::PathBuf {
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = base
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or("mps".into());
    base.with_file_name(format!("{stem}-{men}men-d{}.{ext}", d.tag()))
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Optimal,
    Impossible,
    /// An army was found, but a round below it is unresolved (see the module doc).
    Open,
    TimeLimit,
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Impossible => "impossible",
            Status::Open => "open",
            Status::TimeLimit => "time_limit",
            Status::Interrupted => "interrupted",
        }
    }
}

/// One IP solved along the way.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Round {
    pub men: u64,
    pub last_jump: Cell,
    pub cells: usize,
    pub jumps: usize,
    pub board_max_exponent: i32,
    pub board_proven: bool,
    pub status: String,
    pub seconds: f64,
    /// CBC's verdict on an infeasible round, when a second opinion was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cbc: Option<String>,
}

/// The answer, with its evidence.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub army: Army,
    pub level: i32,
    pub status: Status,
    pub min_size: Option<u64>,
    /// Proven lower bound on the army size (on the boards used; see `board_proven`).
    pub lower_bound: Option<u64>,
    /// The pagoda lower bound min_d L_d.
    pub pagoda_bound: Option<u64>,
    /// Whether every board behind `lower_bound` provably holds every useful cell.
    pub board_proven: bool,
    /// When a board was not proven: did the last infeasible round stay infeasible on a
    /// board larger by the stability margin?
    pub stable: Option<bool>,
    pub cells: usize,
    pub jumps: usize,
    pub seconds: f64,
    pub reason: Option<String>,
    pub army_cells: Vec<Cell>,
    pub play: Vec<Step>,
    pub verified: bool,
    pub moves: usize,
    pub last_jump: Option<Cell>,
    /// Integer programs solved in this run: direct rounds and cases.
    pub ips: usize,
    /// IP solutions that could not be ordered and were cut off.
    pub unorderable: usize,
    /// Rounds that ended infeasible only after such a cut: nothing is proven for them.
    pub unresolved: Vec<u64>,
    /// Evidence for every round below the minimum, for the proof file; incomplete unless
    /// `proof_complete`.
    #[serde(skip)]
    pub proof_rounds: Vec<RoundProof>,
    pub proof_complete: bool,
    /// The LP's pagoda functions, when they decided an impossible level.
    #[serde(skip)]
    pub lp_claim: Option<Claim>,
    /// Case logs of rounds that were split into cases.
    pub case_logs: Vec<String>,
    /// Time spent ordering jumps into plays.
    pub order_seconds: f64,
    pub rounds: Vec<Round>,
}

impl Outcome {
    /// Why no army reaches the level: all start cells weigh at most 1 under the standard
    /// function, or else under the improved function of every last jump, or else under the
    /// LP's functions; None when none holds (a sharper function decided it, which the proof
    /// format does not carry).
    fn impossible_claim(&self) -> Option<Claim> {
        if let Some(c) = &self.lp_claim {
            return Some(c.clone());
        }
        let lattice = self.army.lattice();
        let p = Pagoda::standard(&lattice);
        let at = self
            .level
            .min(crate::weight::pagoda::window_level(&lattice));
        let weight = p.start_profile(at).total();
        if weight <= Golden::ONE {
            let counted_at = (at < self.level).then_some(at);
            return Some(Claim::Impossible { weight, counted_at });
        }
        let last_jumps: Vec<(Cell, Golden)> = lattice
            .last_jump_directions()
            .into_iter()
            .map(|d| {
                (
                    d,
                    Pagoda::improved(&lattice, d)
                        .start_profile(self.level)
                        .total(),
                )
            })
            .collect();
        let all_light = last_jumps.iter().all(|&(_, w)| w <= Golden::ONE);
        all_light.then_some(Claim::Unreachable { last_jumps })
    }

    /// Where the minimum is left open (a time limit, Ctrl-C, a round unresolved): the bound
    /// proven so far, when every round below it has its evidence and is above the trivial
    /// one man; None otherwise.
    fn bound_claim(&self) -> Option<Claim> {
        let open = matches!(
            self.status,
            Status::Open | Status::TimeLimit | Status::Interrupted
        );
        let men = self.lower_bound.filter(|&b| b > 1)?;
        (open && self.proof_complete).then_some(Claim::AtLeast { men })
    }

    /// The proof of this answer, for [`crate::proof::check`]: the play and the evidence of
    /// every round below it; None when there is nothing to prove (no army, no impossibility).
    pub fn proof(&self) -> Option<Proof> {
        let claim = match (self.status, self.min_size) {
            (Status::Impossible, _) if self.reason.is_some() && self.pagoda_bound.is_none() => {
                self.impossible_claim()?
            }
            (Status::Optimal, Some(men)) if self.verified => Claim::Minimum { men },
            _ => self.bound_claim()?,
        };
        let play = self.verified.then(|| Play {
            army: self.army_cells.clone(),
            jumps: self.play.iter().map(|s| (s.from, s.over, s.to)).collect(),
        });
        let below = match claim {
            Claim::AtLeast { men } => men,
            _ => self.min_size.unwrap_or(0),
        };
        Some(Proof {
            format: FORMAT.into(),
            program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
            army: self.army.to_string(),
            model: (!self.army.problem().bundled).then(|| self.army.problem().source.clone()),
            fingerprint: Some(self.army.problem().fingerprint()),
            level: self.level,
            claim,
            play,
            rounds: self
                .proof_rounds
                .iter()
                .filter(|r| r.men < below)
                .cloned()
                .collect(),
        })
    }
}

/// An outcome with nothing found yet.
pub fn empty_outcome(req: &Request) -> Outcome {
    Outcome {
        army: req.army,
        level: req.level,
        status: Status::Impossible,
        min_size: None,
        lower_bound: None,
        pagoda_bound: None,
        board_proven: true,
        stable: None,
        cells: 0,
        jumps: 0,
        seconds: 0.0,
        reason: None,
        army_cells: Vec::new(),
        play: Vec::new(),
        verified: false,
        moves: 0,
        last_jump: None,
        ips: 0,
        unorderable: 0,
        unresolved: Vec::new(),
        proof_rounds: Vec::new(),
        proof_complete: true,
        lp_claim: None,
        case_logs: Vec::new(),
        order_seconds: 0.0,
        rounds: Vec::new(),
    }
}

/// Orders an IP solution's jumps into a play that ends with the last jump 2d over d: the
/// army and the play (not yet replayed), or None when the backtracker finds no order within
/// `budget` nodes.
pub fn order_play(
    board: &Board,
    sol: &solve::IpSolution,
    d: Cell,
    budget: u64,
) -> Option<(Vec<Cell>, Vec<Step>)> {
    // Jumps far from the target first: the pagoda exponent of the from-cell.
    let priority = |j: usize| board.exponent[board.jumps[j].from].unwrap_or(0) as i64;
    let Ordering::Found(seq) = order::order(board, &sol.start, &sol.jumps, priority, budget) else {
        return None;
    };
    let army: Vec<Cell> = sol.start.iter().map(|&m| board.cells[m]).collect();
    let mut play: Vec<Step> = seq
        .iter()
        .map(|&j| {
            let jump = board.jumps[j];
            Step {
                from: board.cells[jump.from],
                over: board.cells[jump.over],
                to: board.cells[jump.to],
            }
        })
        .collect();
    // The IP stops at {d, 2d}; the last jump is 2d over d into the target.
    play.push(Step {
        from: 2 * d,
        over: d,
        to: Cell::ORIGIN,
    });
    Some((army, play))
}

/// The play of an IP solution that the backtracker orders within `budget` nodes and the
/// independent replay accepts, if there is one.
pub fn verified_play(
    board: &Board,
    sol: &solve::IpSolution,
    d: Cell,
    (army, level): (Army, i32),
    budget: u64,
) -> Option<Vec<Step>> {
    let (cells, play) = order_play(board, sol, d, budget)?;
    verify::replay(&army.lattice(), level, &cells, &play)
        .ok()
        .map(|_| play)
}

/// Orders and replays an IP solution; on success fills `out` and returns true.
pub fn settle(
    out: &mut Outcome,
    req: &Request,
    board: &Board,
    sol: &solve::IpSolution,
    d: Cell,
) -> bool {
    let t = Instant::now();
    let ordered = order_play(board, sol, d, ORDER_BUDGET);
    out.order_seconds += t.elapsed().as_secs_f64();
    let Some((army, play)) = ordered else {
        return false;
    };
    let lattice = req.army.lattice();
    match verify::replay(&lattice, req.level, &army, &play) {
        Ok(r) => {
            out.min_size = Some(army.len() as u64);
            out.moves = r.moves;
            out.verified = true;
            out.army_cells = army;
            out.play = play;
            out.last_jump = Some(d);
            true
        }
        Err(_) => false,
    }
}
