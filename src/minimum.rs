//! Finding a minimum army: both halves, a verified play and a proven lower bound.
//!
//! Every play ends with a jump 2d over d into the target, for a direction d; up to the
//! army's mirror there are few such d (notes §6). For each, the improved pagoda function
//! "one plus the distance from d" makes the position {d, 2d} before the last jump weigh 1,
//! and gives a pagoda lower bound L_d. The search then goes round by round, K = min L_d,
//! K + 1, …: in round K, for each d with L_d <= K, the IP with FIN = {d, 2d} and at most K
//! men is solved on the board of [`crate::board::Limit`] for K men. If every d is infeasible,
//! no army of K men exists (when every board was proven); otherwise the IP's army is ordered
//! into a play and replayed by [`crate::verify`], and K is the minimum.
//!
//! An IP solution that cannot be ordered is excluded by a no-good cut on its start set and
//! the round is solved again; how often that happened is reported.

use crate::board::{Board, Limit, MARGIN};
use crate::cases;
use crate::geometry::{Army, Cell};
use crate::golden::Golden;
use crate::model::{Model, Spec};
use crate::order::{self, Ordering};
use crate::pagoda::{self, Pagoda, Profile};
use crate::second::{self, Verdict};
use crate::solve::{self, INTERRUPTED, IpStatus, Options};
use crate::verify::{self, Step};
use indicatif::ProgressBar;
use serde::Serialize;
use std::time::Instant;

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
    /// Re-prove every infeasible IP with CBC ([`crate::second`]).
    pub second_opinion: bool,
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
    base.with_file_name(format!("{stem}-{men}men-d{}_{}.{ext}", d.0, d.1))
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Optimal,
    Impossible,
    TimeLimit,
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Impossible => "impossible",
            Status::TimeLimit => "time_limit",
            Status::Interrupted => "interrupted",
        }
    }
}

/// One IP solved along the way.
#[derive(Clone, Debug, Serialize)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
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
    /// IP solutions that could not be ordered and were cut off.
    pub unorderable: usize,
    /// Case logs of rounds that were split into cases.
    pub case_logs: Vec<String>,
    /// Time spent ordering jumps into plays.
    pub order_seconds: f64,
    pub rounds: Vec<Round>,
}

/// Everything fixed for one last-jump direction d.
struct Direction {
    d: Cell,
    pagoda: Pagoda,
    profile: Profile,
    bound: Option<u64>,
}

const ORDER_BUDGET: u64 = 2_000_000;
const MAX_CUTS: usize = 20;

/// Nodes the case enumeration may visit to prove a direct round's board.
const LIMIT_BUDGET: u64 = 300_000;

/// The board for round k: step 1 of the board argument, or where it gives nothing, the
/// case split's own limit ([`cases::Enumeration::limit`]); failing both, the margin, not proven.
fn round_limit(dir: &Direction, k: u64) -> Limit {
    let limit =
        Limit::new(&dir.profile, k, Golden::ONE, MARGIN).expect("the pagoda bound admits k men");
    if limit.proven {
        return limit;
    }
    let cap = dir.pagoda.trusted_exponent() - 8;
    match cases::enumerate(&dir.profile, k, Golden::ONE, &[1, 2], cap, LIMIT_BUDGET).limit(k) {
        Some(l) if l.max_exponent <= cap => l,
        _ => limit,
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
        unorderable: 0,
        case_logs: Vec::new(),
        order_seconds: 0.0,
        rounds: Vec::new(),
    }
}

pub fn find_minimum(req: &Request) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let mut out = empty_outcome(req);
    if req.level < 1 {
        return Err(format!("level must be at least 1, got {}", req.level));
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
        .map(|d| {
            let pagoda = Pagoda::improved(&lattice, d);
            let profile = pagoda.start_profile(req.level);
            let bound = profile.lower_bound(Golden::ONE);
            Direction {
                d,
                pagoda,
                profile,
                bound,
            }
        })
        .collect();
    dirs.sort_by_key(|x| x.bound.unwrap_or(u64::MAX));
    let Some(mut k) = dirs.iter().filter_map(|x| x.bound).min() else {
        out.reason =
            Some("pagoda: no last jump leaves a position the start rows can pay for".into());
        return Ok(out);
    };
    out.pagoda_bound = Some(k);
    let progress = req.progress.then(|| {
        let pb = ProgressBar::new_spinner();
        pb.enable_steady_tick(std::time::Duration::from_millis(250));
        pb
    });
    let deadline = req
        .time_limit
        .map(|t| t0 + std::time::Duration::from_secs_f64(t));
    let remaining = || deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());

    let mut last_unproven: Option<u64> = None;
    // Rounds split into cases: (men, last jump, case log directory).
    let mut split: Vec<(u64, Cell, std::path::PathBuf)> = Vec::new();
    loop {
        // Round k: is there an army of at most k men?
        let mut round_proven = true;
        for dir in dirs.iter().filter(|x| x.bound.is_some_and(|b| b <= k)) {
            let limit = round_limit(dir, k);
            round_proven &= limit.proven;
            let board = Board::new(&dir.pagoda, req.level, &limit);
            // Rounds below k found nothing, so only an army of exactly k men is looked for.
            let mut spec = Spec {
                fin: board.last_jump_position(dir.d),
                max_men: Some(k),
                min_men: (k > dir.bound.unwrap_or(k)).then_some(k),
                ..Spec::default()
            };
            loop {
                let mut opts = Options {
                    time_limit: remaining(),
                    progress: progress.clone(),
                    label: format!(
                        "{} level {}: {k} men, last jump over {:?}",
                        req.army, req.level, dir.d
                    ),
                };
                if let Some(base) = &req.write_model {
                    let path = model_path(base, k, dir.d);
                    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                        std::fs::create_dir_all(parent)
                            .map_err(|e| format!("{}: {e}", parent.display()))?;
                    }
                    solve::write_model(Model::build(&board, &spec), &path)?;
                }
                let budget = req.direct_budget.filter(|_| spec.excluded.is_empty());
                if let Some(b) = budget {
                    opts.time_limit = Some(opts.time_limit.map_or(b, |t| t.min(b)));
                }
                let mut sol = solve::solve(Model::build(&board, &spec), &opts)?;
                let budget_hit = budget.is_some_and(|b| {
                    sol.status == IpStatus::TimeLimit
                        && remaining().is_none_or(|r| r > 1.0)
                        && sol.seconds >= b - 1.0
                });
                if budget_hit {
                    // The direct IP is hopeless here: split this round into cases.
                    let mut sweep =
                        crate::sweep::Sweep::with_directions(req.army, req.level, k, &[dir.d], 0);
                    sweep.second_opinion = req.second_opinion;
                    let case_dir = req
                        .case_dir
                        .clone()
                        .unwrap_or_else(|| std::env::temp_dir().join("solarmy-cases"));
                    if let Some(pb) = &progress {
                        pb.set_message(format!(
                            "{} level {}: {k} men, direct IP too slow, splitting into cases",
                            req.army, req.level
                        ));
                    }
                    let report = sweep.solve(&case_dir, remaining(), req.progress)?;
                    split.push((k, dir.d, case_dir.clone()));
                    out.case_logs.push(report.log.display().to_string());
                    let cases_proven = report.enumeration_complete
                        && report.results.iter().all(|r| r.board_proven);
                    round_proven &= cases_proven;
                    out.rounds.push(Round {
                        men: k,
                        last_jump: dir.d,
                        cells: report.results.iter().map(|r| r.cells).max().unwrap_or(0),
                        jumps: report.results.iter().map(|r| r.jumps).max().unwrap_or(0),
                        board_max_exponent: limit.max_exponent,
                        board_proven: cases_proven,
                        status: format!("cases: {}", report.summary()),
                        seconds: report.results.iter().map(|r| r.seconds).sum(),
                        cbc: None,
                    });
                    if let Some(found) = report.found {
                        // Keep the search's record; take the army, play and ordering time.
                        out = Outcome {
                            rounds: std::mem::take(&mut out.rounds),
                            case_logs: std::mem::take(&mut out.case_logs),
                            board_proven: out.board_proven,
                            pagoda_bound: out.pagoda_bound,
                            cells: report.results.iter().map(|r| r.cells).max().unwrap_or(0),
                            ..found
                        };
                        let stability =
                            stability(req, &dirs, &split, last_unproven, k, &remaining)?;
                        return Ok(conclude(out, k, stability, &progress, t0));
                    }
                    if !report.complete {
                        sol.status = if INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                            IpStatus::Interrupted
                        } else {
                            IpStatus::TimeLimit
                        };
                    } else {
                        break;
                    }
                }
                out.cells = board.cells.len();
                out.jumps = board.jumps.len();
                let cbc = (req.second_opinion && sol.status == IpStatus::Infeasible)
                    .then(|| second::reprove(&board, &spec, remaining()));
                if let Some(Verdict::Feasible(_)) = &cbc {
                    return Err(format!(
                        "solvers disagree on {} level {}, {k} men, last jump {:?}: HiGHS says infeasible, CBC {}",
                        req.army,
                        req.level,
                        dir.d,
                        cbc.unwrap().as_str()
                    ));
                }
                out.rounds.push(Round {
                    men: k,
                    last_jump: dir.d,
                    cells: board.cells.len(),
                    jumps: board.jumps.len(),
                    board_max_exponent: limit.max_exponent,
                    board_proven: limit.proven,
                    status: format!("{:?}", sol.status).to_lowercase(),
                    seconds: sol.seconds,
                    cbc: cbc.map(|v| v.as_str()),
                });
                match sol.status {
                    IpStatus::Infeasible => break,
                    IpStatus::TimeLimit | IpStatus::Interrupted => {
                        out.status = if sol.status == IpStatus::TimeLimit {
                            Status::TimeLimit
                        } else {
                            Status::Interrupted
                        };
                        out.board_proven &= round_proven;
                        if let Some(pb) = &progress {
                            pb.finish_and_clear();
                        }
                        if sol.objective.is_some() {
                            settle(&mut out, req, &board, &sol, dir.d);
                        }
                        out.lower_bound = Some(k);
                        out.seconds = t0.elapsed().as_secs_f64();
                        return Ok(out);
                    }
                    IpStatus::Optimal => {
                        if settle(&mut out, req, &board, &sol, dir.d) {
                            let stability =
                                stability(req, &dirs, &split, last_unproven, k, &remaining)?;
                            let men = sol.objective.unwrap();
                            return Ok(conclude(out, men, stability, &progress, t0));
                        }
                        out.unorderable += 1;
                        if out.unorderable > MAX_CUTS {
                            return Err(format!(
                                "{} IP solutions of {k} men could not be ordered into a play",
                                out.unorderable
                            ));
                        }
                        spec.excluded.push(sol.start.clone());
                    }
                }
            }
        }
        // No army of k men on these boards.
        if !round_proven {
            out.board_proven = false;
            last_unproven = Some(k);
        }
        k += 1;
    }
}

/// An army of k men was found and every round below k was infeasible: k is the minimum.
fn conclude(
    mut out: Outcome,
    k: u64,
    stable: Option<bool>,
    progress: &Option<ProgressBar>,
    t0: Instant,
) -> Outcome {
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    out.status = Status::Optimal;
    out.lower_bound = Some(k);
    out.stable = stable;
    out.seconds = t0.elapsed().as_secs_f64();
    out
}

/// The bound k rests on round k − 1: if its board was not proven, does a larger board change
/// the answer? None when it was proven (or the check is off).
fn stability(
    req: &Request,
    dirs: &[Direction],
    split: &[(u64, Cell, std::path::PathBuf)],
    last_unproven: Option<u64>,
    k: u64,
    remaining: &dyn Fn() -> Option<f64>,
) -> Result<Option<bool>, String> {
    match last_unproven.filter(|&u| u + 1 == k) {
        Some(u) if req.stability_margin > 0 => Ok(Some(stable(req, dirs, u, split, remaining)?)),
        _ => Ok(None),
    }
}

/// Orders and replays an IP solution; on success fills `out` and returns true.
pub fn settle(
    out: &mut Outcome,
    req: &Request,
    board: &Board,
    sol: &solve::IpSolution,
    d: Cell,
) -> bool {
    // Jumps far from the target first: the pagoda exponent of the from-cell.
    let priority = |j: usize| board.exponent[board.jumps[j].from].unwrap_or(0) as i64;
    let t = Instant::now();
    let ordering = order::order(board, &sol.start, &sol.jumps, priority, ORDER_BUDGET);
    out.order_seconds += t.elapsed().as_secs_f64();
    let Ordering::Found(seq) = ordering else {
        return false;
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
        from: (2 * d.0, 2 * d.1),
        over: d,
        to: (0, 0),
    });
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

/// Re-solves round k on boards larger by the stability margin: still infeasible?
fn stable(
    req: &Request,
    dirs: &[Direction],
    k: u64,
    split: &[(u64, Cell, std::path::PathBuf)],
    remaining: &dyn Fn() -> Option<f64>,
) -> Result<bool, String> {
    for dir in dirs.iter().filter(|x| x.bound.is_some_and(|b| b <= k)) {
        let mut limit = round_limit(dir, k);
        if let Some((_, _, log_dir)) = split.iter().find(|s| s.0 == k && s.1 == dir.d) {
            // That round was split into cases: widen the case split instead.
            let mut sweep = crate::sweep::Sweep::with_directions(
                req.army,
                req.level,
                k,
                &[dir.d],
                req.stability_margin,
            );
            sweep.second_opinion = req.second_opinion;
            let report = sweep.solve(log_dir, remaining(), req.progress)?;
            if !report.complete || report.found.is_some() {
                return Ok(false);
            }
            continue;
        }
        if limit.proven {
            continue;
        }
        limit.max_exponent += req.stability_margin;
        let board = Board::new(&dir.pagoda, req.level, &limit);
        let fin = board.last_jump_position(dir.d);
        let spec = Spec {
            fin,
            max_men: Some(k),
            ..Spec::default()
        };
        let sol = solve::solve(
            Model::build(&board, &spec),
            &Options {
                time_limit: remaining(),
                ..Options::default()
            },
        )?;
        if sol.status != IpStatus::Infeasible {
            return Ok(false);
        }
    }
    Ok(true)
}
