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

use super::sweep::{self, Sweep};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::second::{self, Verdict};
use crate::ip::solve::{self, INTERRUPTED, IpStatus, Options};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::farkas::Tree;
use crate::proof::format::{BoardBasis, Claim, Evidence, IpProof, RoundProof};
use crate::reduce::board::{Board, Limit, MARGIN};
use crate::reduce::cases;
use crate::weight::golden::Golden;
use crate::weight::pagoda::{self, Pagoda, Profile};
use indicatif::ProgressBar;
use std::time::Instant;

pub use super::outcome::{Outcome, Request, Round, Status};
use super::outcome::{empty_outcome, model_path, settle};

impl Direction {
    /// The improved function of d, the start cells under it (and under the sharper
    /// function, if any) and the pagoda bound: both functions bound the army, and the
    /// sharper one may bound it higher.
    fn new(army: Army, level: i32, d: Cell) -> Direction {
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

/// Nodes the case enumeration may visit to prove a direct round's board.
const LIMIT_BUDGET: u64 = 300_000;

/// The board for round k and why it suffices: step 1 of the board argument, or where it
/// gives nothing, the case split's own limit ([`cases::Enumeration::limit`]); failing
/// both, the margin, not proven (and no basis).
fn round_limit(dir: &Direction, k: u64) -> (Limit, Option<BoardBasis>) {
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
    let progress = req.progress.then(|| {
        let pb = ProgressBar::new_spinner();
        pb.enable_steady_tick(std::time::Duration::from_millis(250));
        pb
    });
    let (scratch, case_dir) = match &req.case_dir {
        Some(d) => (None, d.clone()),
        None => {
            let t = tempfile::Builder::new()
                .prefix("solarmy-cases-")
                .tempdir()
                .map_err(|e| {
                    Error::io(
                        "create a directory for case logs in",
                        std::env::temp_dir(),
                        e,
                    )
                })?;
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    };
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

    /// The direct IP of round k for the i-th last jump, re-solved after each cut.
    fn direct(&mut self, i: usize, k: u64) -> Result<Settled, Error> {
        if self.split_at_once(i, k) {
            return self.split(i, k);
        }
        let dir = &self.dirs[i];
        let (d, bound) = (dir.d, dir.bound);
        let (limit, basis) = round_limit(dir, k);
        let board = Board::new(&dir.pagoda, self.req.level, &limit);
        // Rounds below k found nothing, so only an army of exactly k men is looked for.
        let mut spec = Spec {
            fin: board.last_jump_position(d),
            max_men: Some(k),
            min_men: (k > bound.unwrap_or(k)).then_some(k),
            ..Spec::default()
        };
        if self.resumed(k, d, &spec, &limit, basis.as_ref()) {
            return Ok(Settled::Infeasible {
                proven: limit.proven,
            });
        }
        if self.lp_first(k, d, &board, &spec, &limit, basis.as_ref())? {
            return Ok(Settled::Infeasible {
                proven: limit.proven,
            });
        }
        loop {
            let sol = self.solve_direct(&board, &spec, d, k)?;
            if sol.status == IpStatus::TimeLimit && self.budget_hit(&spec, &sol) {
                // The direct IP is hopeless here: split this round into cases.
                return self.split(i, k);
            }
            let cbc = match sol.status {
                IpStatus::Infeasible => self.second_opinion(&board, &spec, k, d, "HiGHS")?,
                _ => None,
            };
            self.record(k, d, &board, &limit, &sol, cbc.clone());
            match sol.status {
                IpStatus::Infeasible if !spec.excluded.is_empty() => {
                    return Ok(Settled::Unresolved);
                }
                IpStatus::Infeasible => {
                    let def = crate::ip::evidence::direct_def(
                        d,
                        k,
                        spec.min_men,
                        limit.max_exponent,
                        limit.max_loss,
                    );
                    let (army, level) = (self.req.army, self.req.level);
                    self.evidence(k, d, basis, move |t| {
                        let s = sol.cpu_seconds;
                        crate::ip::evidence::infeasible(army, level, def, cbc, s, t)
                    });
                    return Ok(Settled::Infeasible {
                        proven: limit.proven,
                    });
                }
                IpStatus::TimeLimit | IpStatus::Interrupted => {
                    self.stop(k, sol.status, Some((&board, &sol, d)));
                    return Ok(Settled::Stopped);
                }
                IpStatus::Optimal => {
                    if self.play(&board, &sol, d) {
                        self.conclude(sol.objective.unwrap())?;
                        return Ok(Settled::Found);
                    }
                    self.out.unorderable += 1;
                    if spec.excluded.len() >= MAX_CUTS {
                        return Ok(Settled::Unresolved);
                    }
                    spec.excluded.push(sol.start.clone());
                }
            }
        }
    }

    /// Round k's LP relaxation before its integer program: when the LP is infeasible, its
    /// exact Farkas certificate settles the round, as it settles a case in the sweep, and
    /// HiGHS's branch-and-bound is not run (diagonal 8's 122-man rounds are LP-infeasible,
    /// yet took HiGHS 16–23 s each as integer programs). The certificate is found on the
    /// checker's own system of the round's definition: it is the proof's evidence as is.
    fn lp_first(
        &mut self,
        k: u64,
        d: Cell,
        board: &Board,
        spec: &Spec,
        limit: &Limit,
        basis: Option<&BoardBasis>,
    ) -> Result<bool, Error> {
        // With (almost) no time left the round is HiGHS's to stop, as a case's box is.
        if self.remaining().is_some_and(|t| t < 0.01) {
            return Ok(false);
        }
        let (t0, c0) = (Instant::now(), solve::thread_seconds());
        let def =
            crate::ip::evidence::direct_def(d, k, spec.min_men, limit.max_exponent, limit.max_loss);
        let sys = crate::ip::evidence::system(self.req.army, self.req.level, &def)?;
        let Some(cert) = crate::ip::certify::farkas_within(&sys, self.remaining()) else {
            return Ok(false);
        };
        let seconds = t0.elapsed().as_secs_f64();
        let cbc = self.second_opinion(board, spec, k, d, "the LP relaxation")?;
        let sol = solve::IpSolution {
            status: IpStatus::Infeasible,
            objective: None,
            bound: u64::MAX,
            start: Vec::new(),
            jumps: Vec::new(),
            seconds,
            cpu_seconds: solve::thread_seconds() - c0,
        };
        self.record(k, d, board, limit, &sol, cbc.clone());
        let ip = IpProof {
            highs: "not run: the LP relaxation is infeasible".into(),
            cbc,
            certificate: Some(Tree::Leaf(cert)),
            seconds: sol.cpu_seconds,
            ..crate::ip::evidence::evidence_of(&sys, def)
        };
        self.evidence(k, d, basis.cloned(), move |_| Ok(ip));
        Ok(true)
    }

    /// CBC's word on a round `who` called infeasible, when asked for (`--cbc`): CBC finding
    /// an army there is a disagreement, an error.
    fn second_opinion(
        &self,
        board: &Board,
        spec: &Spec,
        k: u64,
        d: Cell,
        who: &str,
    ) -> Result<Option<String>, Error> {
        if !self.req.second_opinion {
            return Ok(None);
        }
        let v = second::reprove(board, spec, self.remaining());
        if let Verdict::Feasible(_) = &v {
            return Err(Error::Disagreement(format!(
                "solvers disagree on {} level {}, {k} men, last jump {d:?}: {who} says infeasible, CBC {}",
                self.req.army,
                self.req.level,
                v.as_str()
            )));
        }
        Ok(Some(v.as_str()))
    }

    fn solve_direct(
        &self,
        board: &Board,
        spec: &Spec,
        d: Cell,
        k: u64,
    ) -> Result<solve::IpSolution, Error> {
        let mut opts = Options {
            time_limit: self.remaining(),
            progress: self.progress.clone(),
            label: format!(
                "{} level {}: {k} men, last jump over {d:?}",
                self.req.army, self.req.level
            ),
            stop: None,
        };
        if let Some(base) = &self.req.write_model {
            let path = model_path(base, k, d);
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
            }
            solve::write_model(Model::build(board, spec), &path)?;
        }
        if let Some(b) = self.direct_budget(spec) {
            opts.time_limit = Some(opts.time_limit.map_or(b, |t| t.min(b)));
        }
        solve::solve(Model::build(board, spec), &opts)
    }

    /// Whether round k of the i-th last jump goes straight to its case split: when the
    /// direct IP of round k − 1 already ran out of its budget (round k is harder), or when a
    /// case log of round k is there to resume (a rerun does not pay the budget again).
    fn split_at_once(&self, i: usize, k: u64) -> bool {
        let d = self.dirs[i].d;
        let budget = self.req.direct_budget.is_some();
        let before = self.split.iter().any(|s| s.0 + 1 == k && s.1 == d);
        let log = Sweep::log_path(self.req.army, self.req.level, k, &[d], &self.case_dir);
        budget && (before || log.exists() || self.predicted_slow(d, k))
    }

    /// Whether the direct IP of round k is predicted to outrun its budget: from round k − 2
    /// to k − 1 its time grew by g = t(k−1)/t(k−2), and t(k−1)·g exceeds the budget
    /// (hexagonal level 7: 0.3 s at 142 men, 7 s at 143, so about 150 s predicted at 144,
    /// where the 30 s direct attempt always ran out). Only speed rests on this guess: a
    /// split round proves the same as a direct one.
    fn predicted_slow(&self, d: Cell, k: u64) -> bool {
        let t = |men: u64| {
            self.out
                .rounds
                .iter()
                .find(|r| r.men == men && r.last_jump == d && r.status == "infeasible")
                .map(|r| r.seconds)
        };
        match (
            self.req.direct_budget,
            k.checked_sub(1).and_then(t),
            k.checked_sub(2).and_then(t),
        ) {
            (Some(b), Some(last), Some(before)) if before > 0.0 => last * last / before > b,
            _ => false,
        }
    }

    /// The direct budget applies to the first solve of a round, not to re-solves after cuts.
    fn direct_budget(&self, spec: &Spec) -> Option<f64> {
        self.req.direct_budget.filter(|_| spec.excluded.is_empty())
    }

    fn budget_hit(&self, spec: &Spec, sol: &solve::IpSolution) -> bool {
        self.direct_budget(spec)
            .is_some_and(|b| self.remaining().is_none_or(|r| r > 1.0) && sol.seconds >= b - 1.0)
    }

    /// Orders and replays a solution; the fault injection of `refuse_orderings` first.
    fn play(&mut self, board: &Board, sol: &solve::IpSolution, d: Cell) -> bool {
        if self.out.unorderable < self.req.refuse_orderings {
            return false;
        }
        settle(&mut self.out, self.req, board, sol, d)
    }

    fn record(
        &mut self,
        k: u64,
        d: Cell,
        board: &Board,
        limit: &Limit,
        sol: &solve::IpSolution,
        cbc: Option<String>,
    ) {
        self.out.cells = board.cells.len();
        self.out.jumps = board.jumps.len();
        self.out.ips += 1;
        if self.req.verbose {
            let line = format!(
                "IP: {k} men, last jump over {d:?}, {} cells, {} jumps, board {}, {:?}, {:.2} s",
                board.cells.len(),
                board.jumps.len(),
                if limit.proven { "proven" } else { "not proven" },
                sol.status,
                sol.seconds
            );
            match &self.progress {
                Some(pb) => pb.println(line),
                None => eprintln!("{line}"),
            }
        }
        self.out.rounds.push(Round {
            men: k,
            last_jump: d,
            cells: board.cells.len(),
            jumps: board.jumps.len(),
            board_max_exponent: limit.max_exponent,
            board_proven: limit.proven,
            status: format!("{:?}", sol.status).to_lowercase(),
            seconds: sol.seconds,
            cbc,
        });
    }

    /// Round k of last jump d as an earlier run recorded it, when the record holds again
    /// ([`crate::search::record::Record::take`]): its evidence and report line are taken, no IP is
    /// solved.
    fn resumed(
        &mut self,
        k: u64,
        d: Cell,
        spec: &Spec,
        limit: &Limit,
        basis: Option<&BoardBasis>,
    ) -> bool {
        let def =
            crate::ip::evidence::direct_def(d, k, spec.min_men, limit.max_exponent, limit.max_loss);
        let Some(line) = basis.and_then(|b| self.record.take(k, d, &def, b)) else {
            return false;
        };
        if self.req.verbose {
            eprintln!(
                "IP: {k} men, last jump over {d:?}: infeasible, as recorded by an earlier run (certificate checked again)"
            );
        }
        self.out.rounds.push(line.round);
        self.pending.push(Pending::ready(line.proof));
        true
    }

    /// The proof's evidence for an infeasible direct round, made by `ip` (its certificate
    /// search, perhaps, within the seconds the search has left then) once the round turns
    /// out to have no army; only when the round's board has a basis, without which the
    /// proof is incomplete anyway.
    fn evidence(
        &mut self,
        k: u64,
        d: Cell,
        basis: Option<BoardBasis>,
        ip: impl FnOnce(Option<f64>) -> Result<IpProof, Error> + 'static,
    ) {
        let Some(board) = basis else {
            self.out.proof_complete = false;
            return;
        };
        let round = self.out.rounds.last().cloned();
        let proof = move |time_limit| {
            let evidence = Evidence::Direct {
                board,
                ip: ip(time_limit)?,
            };
            Ok(RoundProof {
                men: k,
                last_jump: d,
                evidence,
            })
        };
        self.pending.push(Pending {
            round: round.filter(|r| (r.men, r.last_jump) == (k, d)),
            proof: Box::new(proof),
        });
    }

    /// Round k has no army: its evidence goes into the proof, and the direct programs with
    /// an exact certificate into the record a resumed run reads. Deferred to here because a
    /// round with an army needs none (diagonal 8's 123 men: 18 s of trees on the infeasible
    /// last jump (0, 1), before (1, 1) found the army).
    fn settle_round(&mut self) -> Result<(), Error> {
        for p in std::mem::take(&mut self.pending) {
            let proof = (p.proof)(self.remaining())?;
            let certified =
                matches!(&proof.evidence, Evidence::Direct { ip, .. } if ip.certificate.is_some());
            if let (true, Some(round)) = (certified, p.round) {
                let line = crate::search::record::Line {
                    round,
                    proof: proof.clone(),
                };
                self.record.add(line)?;
            }
            self.out.proof_rounds.push(proof);
        }
        Ok(())
    }

    /// Round k for the i-th last jump, split into cases.
    fn split(&mut self, i: usize, k: u64) -> Result<Settled, Error> {
        let d = self.dirs[i].d;
        let (sweep, report) = self.sweep_cases(d, k)?;
        self.split.push((k, d, self.case_dir.clone()));
        self.out.case_logs.push(report.log.display().to_string());
        let proven = report.enumeration_complete && report.results.iter().all(|r| r.board_proven);
        let cells = report.results.iter().map(|r| r.cells).max().unwrap_or(0);
        let jumps = report.results.iter().map(|r| r.jumps).max().unwrap_or(0);
        self.out.ips += report.solved;
        (self.out.cells, self.out.jumps) = (cells, jumps);
        self.out.rounds.push(Round {
            men: k,
            last_jump: d,
            cells,
            jumps,
            board_max_exponent: sweep
                .families
                .iter()
                .map(|f| f.max_exponent)
                .max()
                .unwrap_or(0),
            board_proven: proven,
            status: format!("cases: {}", report.summary()),
            seconds: report.results.iter().map(|r| r.seconds).sum(),
            cbc: None,
        });
        if let Some(found) = report.found {
            self.take_army(found, (cells, jumps));
            self.conclude(k)?;
            return Ok(Settled::Found);
        }
        if !report.complete {
            let interrupted = INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed);
            if interrupted || self.remaining().is_some_and(|r| r <= 1.0) {
                let status = if interrupted {
                    IpStatus::Interrupted
                } else {
                    IpStatus::TimeLimit
                };
                self.stop(k, status, None);
                return Ok(Settled::Stopped);
            }
            // A case was left unsettled (an army that would not order): nothing is proven.
            return Ok(Settled::Unresolved);
        }
        match report
            .evidence
            .into_iter()
            .find(|e| e.0 == d)
            .and_then(|e| e.1)
        {
            Some(cases) if proven => self.pending.push(Pending::ready(RoundProof {
                men: k,
                last_jump: d,
                evidence: Evidence::Cases { cases },
            })),
            _ => self.out.proof_complete = false,
        }
        Ok(Settled::Infeasible { proven })
    }

    /// The case sweep of round k for the last jump d, run with the request's settings; the
    /// spinner steps aside while the sweep draws its own bar, so the two never overwrite
    /// each other on screen.
    fn sweep_cases(&mut self, d: Cell, k: u64) -> Result<(Sweep, sweep::Report), Error> {
        let mut sweep = Sweep::with_directions(self.req.army, self.req.level, k, &[d], 0);
        sweep.second_opinion = self.req.second_opinion;
        sweep.jobs = self.req.jobs;
        sweep.verbose = self.req.verbose;
        sweep.split_after = self.req.split_after;
        if let Some(pb) = &self.progress {
            pb.set_message(format!(
                "{} level {}: {k} men, direct IP too slow, splitting into cases",
                self.req.army, self.req.level
            ));
            pb.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let report = sweep.solve(&self.case_dir, self.remaining(), self.req.progress);
        if let Some(pb) = &self.progress {
            pb.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        Ok((sweep, report?))
    }

    /// The army a case sweep found becomes the outcome, keeping what the search has
    /// gathered so far (its rounds, logs, proof rounds and counts).
    fn take_army(&mut self, found: Outcome, (cells, jumps): (usize, usize)) {
        self.out = Outcome {
            rounds: std::mem::take(&mut self.out.rounds),
            case_logs: std::mem::take(&mut self.out.case_logs),
            proof_rounds: std::mem::take(&mut self.out.proof_rounds),
            unresolved: std::mem::take(&mut self.out.unresolved),
            proof_complete: self.out.proof_complete,
            board_proven: self.out.board_proven,
            pagoda_bound: self.out.pagoda_bound,
            unorderable: self.out.unorderable,
            ips: self.out.ips,
            cells,
            jumps,
            ..found
        };
    }

    /// The army found before the climb, once every round below its size has no army.
    fn take_incumbent(&mut self) {
        let Some(f) = &self.req.incumbent else {
            return;
        };
        self.out.min_size = Some(f.men());
        self.out.verified = true;
        self.out.army_cells = f.army_cells.clone();
        self.out.play = f.play.clone();
        self.out.moves = f.moves;
        self.out.last_jump = Some(f.last_jump);
    }

    /// A time limit or Ctrl-C in round k: report what was found and the bound so far. The
    /// bound rests on the rounds below k only, so `board_proven` says nothing of round k's
    /// board: a stop by either cause in the same round reports the same.
    fn stop(&mut self, k: u64, status: IpStatus, best: Option<(&Board, &solve::IpSolution, Cell)>) {
        self.out.status = if status == IpStatus::TimeLimit {
            Status::TimeLimit
        } else {
            Status::Interrupted
        };
        if let Some(pb) = &self.progress {
            pb.finish_and_clear();
        }
        if let Some((board, sol, d)) = best.filter(|b| b.1.objective.is_some()) {
            settle(&mut self.out, self.req, board, sol, d);
        }
        self.out.lower_bound = Some(self.lower(k));
        // A verified army as large as the proven bound is the minimum, whatever the clock
        // says: the rounds below it are all settled.
        if self.out.verified
            && self.out.min_size.is_some()
            && self.out.min_size == self.out.lower_bound
        {
            self.out.status = Status::Optimal;
        }
        self.out.seconds = self.t0.elapsed().as_secs_f64();
    }

    /// The proven lower bound when rounds below k are done: k, or the first unresolved one.
    fn lower(&self, k: u64) -> u64 {
        self.out
            .unresolved
            .iter()
            .copied()
            .min()
            .unwrap_or(k)
            .min(k)
    }

    /// An army of k men was found and every round below k was settled: k is the minimum,
    /// unless a round below was unresolved.
    fn conclude(&mut self, k: u64) -> Result<(), Error> {
        let stable = match self.last_unproven.filter(|&u| u + 1 == k) {
            Some(u) if self.req.stability_margin > 0 => Some(self.stable(u)?),
            _ => None,
        };
        if let Some(pb) = &self.progress {
            pb.finish_and_clear();
        }
        self.out.status = if self.out.unresolved.is_empty() {
            Status::Optimal
        } else {
            Status::Open
        };
        self.out.lower_bound = Some(self.lower(k));
        self.out.stable = stable;
        self.out.seconds = self.t0.elapsed().as_secs_f64();
        Ok(())
    }

    /// Re-solves round k on boards larger by the stability margin: still infeasible?
    fn stable(&self, k: u64) -> Result<bool, Error> {
        let req = self.req;
        for dir in self.dirs.iter().filter(|x| x.bound.is_some_and(|b| b <= k)) {
            let (mut limit, _) = round_limit(dir, k);
            if let Some((_, _, log_dir)) = self.split.iter().find(|s| s.0 == k && s.1 == dir.d) {
                // That round was split into cases: widen the case split instead.
                let mut sweep =
                    Sweep::with_directions(req.army, req.level, k, &[dir.d], req.stability_margin);
                sweep.second_opinion = req.second_opinion;
                sweep.jobs = req.jobs;
                let report = sweep.solve(log_dir, self.remaining(), req.progress)?;
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
            let spec = Spec {
                fin: board.last_jump_position(dir.d),
                max_men: Some(k),
                ..Spec::default()
            };
            let opts = Options {
                time_limit: self.remaining(),
                ..Options::default()
            };
            if solve::solve(Model::build(&board, &spec), &opts)?.status != IpStatus::Infeasible {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
