//! Settles one board problem: from every hole filled but the vacancy, can play end with one
//! man on the finish? The answer is a verified play, or a reason the checker re-verifies.
//!
//! In order, cheapest first:
//! 1. *Position class* ([`super::classes`]): a GF(2) invariant on which start and finish
//!    differ.
//! 2. *Resource count*: the jump program's LP relaxation is infeasible, with an exact Farkas
//!    certificate ([`crate::ip::certify::farkas`]). Its multipliers on the hole rows are a
//!    resource count (a pagoda function of the board) that the start has less of than the
//!    finish needs.
//! 3. *Jump integer program* (Kiyomi and Matsui): one integer column per jump, its count;
//!    one row per hole, (men at the finish) − (men at the start) = landings − departures −
//!    jumps over it. HiGHS solves it; the backtracker ([`crate::play::order`]) orders the jump
//!    multiset into a play. A vector it cannot order gets a no-good cut that removes that
//!    vector only, and the program is solved again. When the plain program is infeasible, a
//!    branch-and-bound certificate ([`crate::ip::certify::tree`]) proves it. A program made
//!    infeasible by cuts proves nothing: the problem is then reported undecided, never
//!    unsolvable. After the first few vectors, beam searches meeting a table of endgames
//!    ([`super::beam`]) look for a play, then depth-first forward searches ([`super::play`]).
//! 4. *Pruned exhaustion* ([`super::exhaust`]): after the first round of step 3 and the
//!    widest beam, before the longer rounds, which follow only when it settles nothing.

use super::classes::{self, Mask};
use super::play::Found;
use super::vectors::{Step3, Vectors};
use super::{Jump, PegBoard};
use crate::problem::geometry::Cell;
use crate::proof::farkas::{Farkas, LinearSystem, Row, Tree};
use crate::proof::verify::Step;
use std::time::Instant;

/// How a problem was settled (serialisable: a catalogue's state keeps the problems decided).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// A play, verified by the independent replay.
    Solvable { play: Vec<Step> },
    /// A position-class witness: an invariant set of holes.
    Class { witness: Mask },
    /// The LP relaxation is infeasible: a resource count, as a Farkas certificate.
    ResourceCount { certificate: Farkas },
    /// The integer program is infeasible: a branch-and-bound certificate.
    Ip { certificate: Tree },
    /// The finish alone is not among the `positions` positions reachable from the start
    /// (the checker enumerates them again).
    Exhausted { positions: usize },
    /// The pruned exhaustion that meets in the middle ([`super::exhaust`]) finds no play.
    Pruned(super::exhaust::Pruned),
    /// Neither a play nor a proof within the limits.
    Undecided { why: String },
}

impl Verdict {
    /// The reason's short name (the catalogue's `reason` column).
    pub fn reason(&self) -> &'static str {
        match self {
            Verdict::Solvable { .. } => "play",
            Verdict::Class { .. } => "position class",
            Verdict::ResourceCount { .. } => "resource count",
            Verdict::Ip { .. } => "integer program",
            Verdict::Exhausted { .. } => "exhaustive search",
            Verdict::Pruned(_) => "pruned search",
            Verdict::Undecided { .. } => "undecided",
        }
    }

    pub fn solvable(&self) -> Option<bool> {
        match self {
            Verdict::Solvable { .. } => Some(true),
            Verdict::Undecided { .. } => None,
            _ => Some(false),
        }
    }
}

/// Limits of one problem's search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Backtracker nodes per jump vector.
    pub order_budget: u64,
    /// Rounds of effort; jump vectors tried in the first round, five times as many in each
    /// next one (each not ordered adds a cut).
    pub rounds: usize,
    pub vectors_per_round: usize,
    /// The forward search's node budget in the first round (tripled each round).
    pub search_budget: u64,
    /// Nodes and seconds of the branch-and-bound certificate search.
    pub tree_nodes: usize,
    pub tree_seconds: f64,
    /// Reachable positions an exhaustive proof may count (the checker's limit too).
    pub exhaustive_positions: usize,
    /// Widths of the beam searches tried first, each from both ends, and the positions of
    /// the endgame table they meet.
    pub beam_widths: Vec<usize>,
    /// Wider beams, tried once the first round and the one-sided tries of the pruned
    /// exhaustion have settled nothing (a wide beam costs seconds the cheap proofs need not).
    pub late_beam_widths: Vec<usize>,
    pub endgame_positions: usize,
    /// Whether a problem still undecided gets the pruned exhaustion ([`super::exhaust`]),
    /// at most `pruned_level` positions a level, with pagodas made for the problem
    /// (`sharpening`, None for the board's own alone), and (when some play exists) a pruned
    /// depth-first search for one of `pruned_nodes` nodes.
    pub pruned: bool,
    pub pruned_level: usize,
    pub sharpening: Option<super::sharpen::Sharpening>,
    pub pruned_nodes: u64,
    /// Whether the fast depth-first search for a first play ([`super::dfs`]) runs right
    /// after the resource count, within its default budget of nodes.
    pub first_dfs: bool,
    /// Whether the pruned exhaustion's quickest tries ([`super::exhaust::quick_probe`],
    /// milliseconds) come before the search for a play, even where `pruned` is false.
    pub quick_probe: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            order_budget: 200_000,
            rounds: 3,
            vectors_per_round: 3,
            search_budget: 1_500_000,
            exhaustive_positions: crate::proof::peg::MAX_POSITIONS,
            tree_nodes: 20_000,
            tree_seconds: 60.0,
            beam_widths: vec![5_000, 50_000],
            // 200,000 finds the 41-hole diamond's (−3,−1) → (−3,1) (about 15 s), which 50,000
            // does not.
            late_beam_widths: vec![200_000],
            endgame_positions: 300_000,
            pruned: true,
            pruned_level: crate::proof::peg::MAX_LEVEL,
            sharpening: Some(Default::default()),
            pruned_nodes: 50_000_000,
            quick_probe: true,
            first_dfs: true,
        }
    }
}

/// A settled problem.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub vacancy: Cell,
    pub finish: Cell,
    pub verdict: Verdict,
    /// Integer programs solved, and jump vectors the backtracker could not order.
    pub ips: usize,
    pub cuts: usize,
    pub seconds: f64,
}

/// The jump program: columns are the board's jumps in order, each 0..=N−2 (a play has
/// exactly N − 2 jumps: every jump removes one man, from N − 1 to 1); one row per hole in
/// order, landings − departures − jumps over it = finish − start there.
pub fn system(board: &PegBoard, vacancy: usize, finish: usize) -> LinearSystem {
    system_between(board, classes::start_mask(board, vacancy), 1 << finish)
}

/// The jump program between two positions (hole masks): columns each at most the jumps of
/// any play (men at the start − men at the finish), rows landings − departures − jumps over
/// = finish − start.
pub fn system_between(
    board: &PegBoard,
    start: classes::Mask,
    finish: classes::Mask,
) -> LinearSystem {
    let n = board.cells.len();
    let jumps = (start.count_ones()).saturating_sub(finish.count_ones());
    let mut coefs: Vec<Vec<(usize, i64)>> = vec![Vec::new(); n];
    for (j, &Jump { from, over, to }) in board.jumps.iter().enumerate() {
        coefs[from].push((j, -1));
        coefs[over].push((j, -1));
        coefs[to].push((j, 1));
    }
    let rows = coefs
        .into_iter()
        .enumerate()
        .map(|(h, mut c)| {
            c.sort();
            let rhs = (finish >> h & 1) as i64 - (start >> h & 1) as i64;
            Row {
                coefs: c,
                lo: Some(rhs),
                hi: Some(rhs),
            }
        })
        .collect();
    LinearSystem {
        cols: vec![(0, Some(jumps as i64)); board.jumps.len()],
        rows,
    }
}

/// Settles (vacancy, finish) on the board.
/// Ctrl-C was pressed: the search stops before its next round of effort (the stage under
/// way finishes), and the problem is undecided.
pub(super) fn interrupted() -> bool {
    crate::ip::solve::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
}

pub fn settle(
    board: &PegBoard,
    vacancy: Cell,
    finish: Cell,
    limits: &Limits,
) -> Result<Outcome, String> {
    settle_from(board, (vacancy, finish), limits, Refuted::default()).map(|(o, _)| o)
}

/// The rounds of step 3 a search has done to the end with neither a play nor a proof, for a
/// rerun to resume from (a board `solve --out`): the search is deterministic, so a rerun that
/// starts at the next round, with the same cuts and budget, ends as one run would.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Refuted {
    /// Rounds of effort done to the end (0: none, nothing to resume).
    pub rounds: usize,
    /// The jump vectors the backtracker could not order, in the order found (each a cut).
    pub cuts: Vec<Vec<(usize, u32)>>,
    /// Integer programs solved in those rounds.
    pub ips: usize,
    /// Whether the pruned exhaustion ran (in round 1), and why it settled nothing.
    pub exhausted: bool,
    pub why: String,
}

/// [`settle`], resuming after the rounds `from` refuted; with the rounds refuted when it
/// ends (all of `from`'s and this run's).
pub fn settle_from(
    board: &PegBoard,
    (vacancy, finish): (Cell, Cell),
    limits: &Limits,
    mut from: Refuted,
) -> Result<(Outcome, Refuted), String> {
    let t0 = Instant::now();
    let v = board.hole(vacancy, "the vacancy")?;
    let f = board.hole(finish, "the finish")?;
    let mut out = Outcome {
        vacancy,
        finish,
        verdict: Verdict::Undecided { why: String::new() },
        ips: 0,
        cuts: 0,
        seconds: 0.0,
    };
    out.verdict = if let Some(w) = classes::witness(board, v, f) {
        Verdict::Class { witness: w }
    } else {
        let sys = system(board, v, f);
        match crate::ip::certify::farkas(&sys) {
            Some(certificate) => Verdict::ResourceCount { certificate },
            // Step 3, then the pruned exhaustion once, unless step 3 already ran it: whatever
            // leaves the problem undecided before it has run hands it on.
            None => match search(board, (v, f), &sys, limits, &mut out, &mut from) {
                Verdict::Undecided { why }
                    if limits.pruned && !from.exhausted && !interrupted() =>
                {
                    pruned(board, v, f, limits, &why)
                }
                verdict => verdict,
            },
        }
    };
    out.seconds = t0.elapsed().as_secs_f64();
    Ok((out, from))
}

/// Step 3 in rounds of growing effort (3, 15, 75 vectors; 1.5, 4.5, 13.5 million nodes):
/// jump vectors from the program (each not ordered is cut off), in the first round then the
/// beam searches ([`beamed`]), then the forward search from the start, then from the dual
/// problem (finish ↔ vacancy: a play of it, reversed, is a play of this one, since the
/// complement of a position played backwards is a play with the same jumps), then the
/// one-sided tries of the pruned exhaustion ([`super::exhaust::probe`]).
///
/// The second round begins with the wider beams and then, when `limits.pruned`, the pruned
/// exhaustion itself (`exhausted` says it ran). On the boards of `models/` every play the
/// rounds find is found by then; the longer vectors and forward searches after it only spent
/// some 90 s on each hard problem that has no play (the 41-hole diamond's four) before the
/// exhaustion proved it. They stay as the fallback when the exhaustion settles nothing.
/// Infeasible without cuts: the certificate search. The forward search running out of
/// positions: an exhaustive proof. It starts after the rounds `done` refuted (the quick
/// tries before the rounds are then skipped too: they found nothing), and `done` follows it.
fn search(
    board: &PegBoard,
    (v, f): (usize, usize),
    sys: &LinearSystem,
    limits: &Limits,
    out: &mut Outcome,
    done: &mut Refuted,
) -> Verdict {
    if done.rounds == 0
        && let Some(verdict) = quick_tries(board, (v, f), limits)
    {
        return verdict;
    }
    let mut ip = Vectors::new(board, (v, f), done.cuts.clone());
    out.ips = done.ips;
    out.cuts = done.cuts.len();
    let mut budget = limits.search_budget * 3u64.pow(done.rounds as u32);
    let mut why = done.why.clone();
    for round in done.rounds..limits.rounds {
        if interrupted() {
            return Verdict::Undecided {
                why: "interrupted (Ctrl-C)".into(),
            };
        }
        if round == 1 {
            if let Some(verdict) = beamed(board, v, f, &limits.late_beam_widths, limits) {
                return verdict;
            }
            if limits.pruned {
                done.exhausted = true;
                // Its reason starts "; ", to follow the rounds' own below.
                match pruned(board, v, f, limits, "") {
                    // Stopped part way: not run, so that a resumed search runs it.
                    Verdict::Undecided { .. } if interrupted() => {
                        done.exhausted = false;
                        return Verdict::Undecided {
                            why: "interrupted (Ctrl-C)".into(),
                        };
                    }
                    Verdict::Undecided { why: w } => why = w,
                    verdict => return verdict,
                }
            }
        }
        for _ in 0..limits.vectors_per_round * 5usize.pow(round as u32) {
            out.ips += 1;
            match ip.next(sys, limits.order_budget) {
                Step3::Play(seq) => return replayed(board, v, f, &seq),
                Step3::Infeasible if ip.cuts.is_empty() => return prove(sys, limits),
                Step3::Infeasible => break,
                Step3::Cut => out.cuts += 1,
            }
        }
        if round == 0
            && let Some(verdict) = beamed(board, v, f, &limits.beam_widths, limits)
        {
            return verdict;
        }
        if let Some(verdict) = forward(board, v, f, budget, round >= 1, limits) {
            return verdict;
        }
        // Before the longer searches for a play: one side of the pruned exhaustion often
        // dies out within a few levels, which proves in seconds that there is none.
        if round == 0
            && limits.pruned
            && let Some(p) = super::exhaust::probe(board, v, f)
        {
            return Verdict::Pruned(p);
        }
        budget *= 3;
        (done.rounds, done.cuts, done.ips) = (round + 1, ip.cuts.clone(), out.ips);
        done.why.clone_from(&why);
    }
    Verdict::Undecided {
        why: format!(
            "{} jump vectors, none ordered into a play; the forward searches (up to {} nodes) found none{why}",
            ip.cuts.len(),
            budget / 3
        ),
    }
}

/// The tries before the rounds: the fast depth-first search (a play of any solvable English
/// problem in milliseconds, a bounded cost of some tens of milliseconds where it finds none),
/// then the pruned exhaustion's quickest tries (a side that dies out within a few small
/// levels proves in milliseconds that no play exists, before any search for one is set up).
fn quick_tries(board: &PegBoard, (v, f): (usize, usize), limits: &Limits) -> Option<Verdict> {
    if limits.first_dfs
        && let (Found::Play(seq), _) = super::dfs::find(board, v, f, &Default::default())
    {
        return Some(replayed(board, v, f, &seq));
    }
    if limits.quick_probe {
        return super::exhaust::quick_probe(board, v, f).map(Verdict::Pruned);
    }
    None
}

/// The forward search for a play within `budget` nodes, from the start and from the dual
/// problem: a replayed play, an exhaustive proof when it runs out of positions, or None.
fn forward(
    board: &PegBoard,
    v: usize,
    f: usize,
    budget: u64,
    edge: bool,
    limits: &Limits,
) -> Option<Verdict> {
    for (a, b, dual) in [(v, f, false), (f, v, true)] {
        match super::play::find(board, a, b, budget, edge) {
            Found::Play(mut seq) => {
                if dual {
                    seq.reverse();
                }
                return Some(replayed(board, v, f, &seq));
            }
            Found::Exhausted => return Some(exhausted(board, v, f, limits)),
            Found::Budget => {}
        }
    }
    None
}

/// The beam searches ([`super::beam`]), narrow then wide, each of this problem and of its
/// dual (finish ↔ vacancy, the play reversed): a replayed play, or None.
fn beamed(
    board: &PegBoard,
    v: usize,
    f: usize,
    widths: &[usize],
    limits: &Limits,
) -> Option<Verdict> {
    if widths.is_empty() {
        return None;
    }
    let ends = [
        super::beam::endgame(board, f, limits.endgame_positions),
        super::beam::endgame(board, v, limits.endgame_positions),
    ];
    for &width in widths {
        for (a, b, dual) in [(v, f, false), (f, v, true)] {
            if let Some(mut seq) = super::beam::beam(board, a, b, width, &ends[dual as usize]) {
                if dual {
                    seq.reverse();
                }
                return Some(replayed(board, v, f, &seq));
            }
        }
    }
    None
}

/// A play from board jump indices, checked by the independent replay.
fn replayed(board: &PegBoard, v: usize, f: usize, seq: &[usize]) -> Verdict {
    let start = board.start(board.cells[v]);
    replayed_between(board, (&start, &[board.cells[f]]), seq)
}

/// A play from board jump indices, from the men `start` to exactly the men `finish`,
/// checked by the independent replay.
pub(super) fn replayed_between(
    board: &PegBoard,
    (start, finish): (&[Cell], &[Cell]),
    seq: &[usize],
) -> Verdict {
    let play: Vec<Step> = seq
        .iter()
        .map(|&j| {
            let Jump { from, over, to } = board.jumps[j];
            Step {
                from: board.cells[from],
                over: board.cells[over],
                to: board.cells[to],
            }
        })
        .collect();
    let holes = board.cells.iter().copied().collect();
    match crate::proof::verify::replay_board(&holes, &board.directions, start, &play, finish) {
        Ok(_) => Verdict::Solvable { play },
        Err(e) => Verdict::Undecided {
            why: format!("the play found does not replay: {e}"),
        },
    }
}

/// The forward search ran out of positions: count them all for the proof (the checker
/// counts them again), within the checker's limit.
fn exhausted(board: &PegBoard, v: usize, f: usize, limits: &Limits) -> Verdict {
    match super::play::reachable(board, v, f, limits.exhaustive_positions) {
        Some((positions, false)) => Verdict::Exhausted { positions },
        Some((_, true)) => Verdict::Undecided {
            why: "the forward search and the count of reachable positions disagree".into(),
        },
        None => Verdict::Undecided {
            why: format!(
                "the forward search finds no play, but more than {} positions are reachable: too many for an exhaustive proof",
                limits.exhaustive_positions
            ),
        },
    }
}

/// The last step for a problem still undecided (`why`): the pruned exhaustion; when it finds
/// that some play exists, a pruned depth-first search for one (replayed).
fn pruned(board: &PegBoard, v: usize, f: usize, limits: &Limits, why: &str) -> Verdict {
    use super::exhaust::{self, Exhaustion};
    match exhaust::exhaust(board, v, f, limits.pruned_level, limits.sharpening.as_ref()) {
        Exhaustion::NoPlay(p) => Verdict::Pruned(p),
        Exhaustion::TooMany(e) => Verdict::Undecided {
            why: format!("{why}; {e}"),
        },
        Exhaustion::Reached => match exhaust::play(board, v, f, limits.pruned_nodes) {
            Some(seq) => replayed(board, v, f, &seq),
            None => Verdict::Undecided {
                why: format!(
                    "{why}; the pruned exhaustion finds that a play exists, but the pruned depth-first search found none in {} nodes",
                    limits.pruned_nodes
                ),
            },
        },
    }
}

/// The plain program is infeasible: find an exact certificate, or say why not.
fn prove(sys: &LinearSystem, limits: &Limits) -> Verdict {
    match crate::ip::certify::tree(sys, limits.tree_nodes, Some(limits.tree_seconds)) {
        Some(certificate) => Verdict::Ip { certificate },
        None => Verdict::Undecided {
            why: "HiGHS finds the jump program infeasible, but no exact certificate was found within the limits".into(),
        },
    }
}

/// The proof file of a settled problem (None when it is undecided), for `solarmy check`.
pub fn proof(board: &PegBoard, o: &Outcome) -> Option<crate::proof::format::Proof> {
    use crate::proof::format::{BoardClaim, BoardVerdict, Claim, FORMAT, Play, Proof};
    let v = board.index[&o.vacancy];
    let f = board.index[&o.finish];
    let mut play = None;
    let verdict = match &o.verdict {
        Verdict::Solvable { play: steps } => {
            play = Some(Play {
                army: (0..board.cells.len())
                    .filter(|&h| h != v)
                    .map(|h| board.cells[h])
                    .collect(),
                jumps: steps.iter().map(|s| (s.from, s.over, s.to)).collect(),
            });
            BoardVerdict::Solvable
        }
        Verdict::Class { witness } => {
            let start = classes::start_mask(board, v);
            BoardVerdict::PositionClass {
                witness: classes::cells_of(board, *witness),
                start_parity: ((witness & start).count_ones() % 2) as u8,
                finish_parity: (witness >> f & 1) as u8,
            }
        }
        Verdict::ResourceCount { certificate } => no_vector(board, Tree::Leaf(certificate.clone())),
        Verdict::Ip { certificate } => no_vector(board, certificate.clone()),
        Verdict::Exhausted { positions } => BoardVerdict::Unreachable {
            positions: *positions as u64,
        },
        Verdict::Pruned(p) => BoardVerdict::Exhausted {
            pagodas: p.pagodas.clone(),
            symmetries: p.symmetries,
            forward: p.forward.clone(),
            backward: p.backward.clone(),
            children: p.children,
        },
        Verdict::Undecided { .. } => return None,
    };
    Some(Proof {
        format: FORMAT.into(),
        program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
        army: board.name.clone(),
        model: Some(board.source.clone()),
        fingerprint: Some(board.fingerprint(o.vacancy, o.finish)),
        level: 0,
        claim: Claim::Board(BoardClaim {
            vacancy: o.vacancy,
            finish: o.finish,
            verdict,
        }),
        play,
        rounds: Vec::new(),
    })
}

fn no_vector(board: &PegBoard, certificate: Tree) -> crate::proof::format::BoardVerdict {
    crate::proof::format::BoardVerdict::NoJumpVector {
        rows: board.cells.len(),
        cols: board.jumps.len(),
        certificate,
    }
}
