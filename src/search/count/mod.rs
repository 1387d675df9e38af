//! Counting every minimum army of an entry: the paper's closing question.
//!
//! Once K is proven minimal ([`crate::search::minimum`]), every army of K men has a pruned play
//! ending with a last jump over some d, or over an image of d under a symmetry; the round-K
//! program of each d of [`crate::problem::geometry::Lattice::last_jump_directions`] (on its proven
//! board) admits the army or one of its images. So, per d, the program is solved again and
//! again, each time with a no-good cut on every start set found so far *and all its
//! images*, until it is
//! infeasible. The cuts exclude only armies already counted, so an infeasible program
//! means no army is missing for that d. With [`Run::by_cases`] the round of each d is
//! counted by its exponent-profile cases instead ([`cases`]).
//!
//! Every start set found is decided, never assumed: it is playable when the backtracker
//! orders the program's jumps into a play that the independent replay accepts. Otherwise
//! the army is *undecided* (another jump multiset of the same men might play; enumerating
//! them is not built), and the count is reported incomplete: "at least N".
//!
//! Two armies are the same when a symmetry of the problem (derived from its model file:
//! the mirror for the five armies, eight maps for a square desert) maps one start set onto
//! the other; the count is given both up to symmetry and in total.

use crate::error::Error;
use crate::ip::evidence;
use crate::ip::model::Model;
use crate::ip::solve::{self, IpSolution, IpStatus, Options};
use crate::problem::Army;
use crate::problem::geometry::{Cell, Lattice, Symmetry, apply};
use crate::proof::format::{
    BoardBasis, CaseProof, Claim, Evidence, IpDef, Play, Proof, RoundProof,
};
use crate::proof::verify::{self, Step};
use crate::reduce::board::Board;
use crate::search::minimum::{self, Request, Status};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;

mod cases;

/// Node budget of the backtracker for one army, as a count's case has it.
const ORDER_BUDGET: u64 = crate::search::sweep::COUNT_ORDER_BUDGET;

/// One minimum army, up to the problem's symmetries.
#[derive(Clone, Debug, Serialize)]
pub struct Counted {
    /// The canonical start set (the smallest of its images under the symmetries, sorted).
    pub cells: Vec<Cell>,
    /// Whether every symmetry maps the army onto itself (for the five armies: whether it
    /// is its own mirror image).
    pub symmetric: bool,
    /// How many distinct armies its images are.
    pub images: usize,
    /// A verified play, when the army is playable.
    #[serde(skip)]
    pub play: Vec<Step>,
    pub playable: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct CountOutcome {
    pub army: Army,
    pub level: i32,
    pub min_size: Option<u64>,
    /// Playable armies up to the mirror, and in total.
    pub up_to_symmetry: usize,
    pub total: usize,
    /// Start sets the program admits that no order plays (none are decided so yet).
    pub unplayable: usize,
    /// Start sets found whose play could not be decided.
    pub undecided: usize,
    /// True only when every program ended infeasible and nothing is undecided.
    pub complete: bool,
    /// Why the count is incomplete, when it is.
    pub reason: Option<String>,
    pub seconds: f64,
    pub armies: Vec<Counted>,
    /// The count's proof for `solarmy check`, when the count is complete.
    #[serde(skip)]
    pub proof: Option<Proof>,
    /// What the count settled, for a rerun to resume from.
    #[serde(skip)]
    pub settled: Settled,
}

/// The final program of a last jump's count: its board basis, its definition with every
/// cut, and HiGHS's seconds on it.
pub type Final = (Option<BoardBasis>, IpDef, f64);

/// What a count has settled, for a rerun to resume from (`count --out`): the last jumps
/// counted to the end, each with its final program, and every start set found so far with
/// its verified play (None: undecided). A rerun cuts the armies off at once and counts only
/// the last jumps not done; the plays are replayed again before they are taken.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Settled {
    /// The minimum the armies have: the state is for this K only.
    pub men: u64,
    /// The last jumps whose count ended complete (none where the jump has no program).
    pub done: Vec<(Cell, Option<Final>)>,
    /// Every start set found, in the order found, in its canonical image.
    pub armies: Vec<(Vec<Cell>, Option<Vec<Step>>)>,
    /// The last jumps among `done` counted by cases (`Run::by_cases`), each with its cases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<(Cell, Vec<CaseProof>)>,
}

/// How a count runs: cases of a split round at once, a live display, where the climb's
/// records go (its settled rounds and cases are resumed from there), and what an earlier
/// run settled.
#[derive(Clone, Debug, Default)]
pub struct Run {
    pub jobs: usize,
    pub progress: bool,
    pub case_dir: Option<std::path::PathBuf>,
    pub resume: Option<Settled>,
    /// Count round K by its exponent-profile cases ([`cases`]) instead of one program per
    /// last jump with every cut.
    pub by_cases: bool,
}

/// Counts the minimum armies of `army` at `level`.
pub fn count(army: Army, level: i32, time_limit: Option<f64>) -> Result<CountOutcome, Error> {
    let run = Run {
        jobs: 1,
        ..Run::default()
    };
    count_on(army, level, time_limit, run)
}

/// [`count`], proving the minimum with `jobs` cases of a split round at once, and with
/// `progress` a live display on stderr: the climb's rounds, then the last jumps counted;
/// resumed from what an earlier run settled (`run.resume`).
pub fn count_on(
    army: Army,
    level: i32,
    time_limit: Option<f64>,
    run: Run,
) -> Result<CountOutcome, Error> {
    let (jobs, progress) = (run.jobs, run.progress);
    let t0 = Instant::now();
    let remaining = || time_limit.map(|t| (t - t0.elapsed().as_secs_f64()).max(0.0));
    let found = minimum::find_minimum(&Request {
        time_limit,
        direct_budget: Some(30.0),
        jobs,
        progress,
        case_dir: run.case_dir.clone(),
        ..Request::new(army, level)
    })?;
    let mut out = CountOutcome {
        army,
        level,
        min_size: found.min_size,
        up_to_symmetry: 0,
        total: 0,
        unplayable: 0,
        undecided: 0,
        complete: false,
        reason: None,
        seconds: 0.0,
        armies: Vec::new(),
        proof: None,
        settled: Settled::default(),
    };
    let k = match (found.status, found.min_size) {
        (Status::Optimal, Some(k)) if found.board_proven => k,
        (Status::Impossible, _) => {
            out.complete = true;
            out.reason = found.reason;
            return Ok(out);
        }
        _ => {
            out.reason = Some(format!("no proven minimum ({})", found.status.as_str()));
            return Ok(out);
        }
    };
    let done = resumed(&mut out, k, run.resume.clone());
    let (complete, finals) = count_all(&mut out, k, done, &remaining, &run)?;
    out.armies.sort_by(|a, b| a.cells.cmp(&b.cells));
    out.armies.dedup_by(|a, b| a.cells == b.cells);
    let playable = out.armies.iter().filter(|a| a.playable);
    out.up_to_symmetry = playable.clone().count();
    out.total = playable.map(|a| a.images).sum();
    if out.undecided > 0 {
        out.reason = Some(format!("{} start sets could not be decided", out.undecided));
    }
    out.complete = complete && out.undecided == 0;
    if out.complete {
        out.proof = count_proof(&found, &out, k, &finals)?;
        if let Some(p) = out.proof.as_mut() {
            p.rounds
                .extend(out.settled.cases.iter().map(|(d, cases)| RoundProof {
                    men: k,
                    last_jump: *d,
                    evidence: Evidence::Cases {
                        cases: cases.clone(),
                    },
                }));
        }
    }
    out.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

/// Counts the armies of `k` men under every last jump, after those an earlier run counted
/// (`done`, whose final programs are taken as they were): whether every count ended
/// complete, and per last jump the final program's board basis, its definition with every
/// cut, and HiGHS's seconds on it. What is settled goes to `out.settled`.
fn count_all(
    out: &mut CountOutcome,
    k: u64,
    (done, split): Resumed,
    remaining: &dyn Fn() -> Option<f64>,
    run: &Run,
) -> Result<(bool, Vec<Final>), Error> {
    let mut complete = true;
    let mut finals: Vec<Final> = Vec::new();
    let dirs = out.army.lattice().last_jump_directions();
    let bar = crate::search::progress::bar(run.progress, dirs.len(), "last jumps");
    let scratch = case_dir(run)?;
    out.settled.cases = split;
    for d in dirs {
        if let Some((_, fin)) = done.iter().find(|(e, _)| *e == d) {
            finals.extend(fin.clone());
            out.settled.done.push((d, fin.clone()));
            bar.iter().for_each(|pb| pb.inc(1));
            continue;
        }
        if let Some(pb) = &bar {
            pb.set_message(format!("{k} men: last jump over {d:?}"));
        }
        let counted = match &scratch {
            Some(dir) => {
                let job = (run.jobs, run.progress);
                let mut by_cases = || cases::count_by_cases(out, (d, k), &dir.0, remaining(), job);
                // The sweep draws its own bar: this one steps aside meanwhile.
                let cases = match &bar {
                    Some(pb) => pb.suspend(by_cases),
                    None => by_cases(),
                }?;
                let counted = cases.is_some();
                // A round ruled out by weight has no cases to state.
                let stated = cases.filter(|c| !c.is_empty());
                out.settled.cases.extend(stated.map(|c| (d, c)));
                out.settled.done.extend(counted.then_some((d, None)));
                counted
            }
            None => {
                let before = finals.len();
                let counted = count_for(out, d, k, remaining, &mut finals, bar.as_ref())?;
                if counted {
                    out.settled.done.push((d, finals.get(before).cloned()));
                }
                counted
            }
        };
        complete &= counted;
        bar.iter().for_each(|pb| pb.inc(1));
    }
    out.settled.men = k;
    out.settled.armies = (out.armies.iter())
        .map(|a| (a.cells.clone(), a.playable.then(|| a.play.clone())))
        .collect();
    Ok((complete, finals))
}

/// The last jumps an earlier run counted to the end, with their final programs, and those
/// of them counted by cases, with their cases.
type Resumed = (Vec<(Cell, Option<Final>)>, Vec<(Cell, Vec<CaseProof>)>);

/// Where a count by cases keeps its case logs: `--out`, or a directory removed when the
/// count ends (held by the second part); None for a count by direct programs.
fn case_dir(run: &Run) -> Result<Option<(PathBuf, Option<tempfile::TempDir>)>, Error> {
    match run.by_cases {
        true => crate::files::case_dir(run.case_dir.as_deref(), "solarmy-count-").map(Some),
        false => Ok(None),
    }
}

/// Takes what an earlier run of the count of `k` men settled: its armies (each play replayed
/// again; a state with one that does not replay is dropped whole, with a line saying so) go
/// into `out`, and the last jumps it counted to the end are returned.
fn resumed(out: &mut CountOutcome, k: u64, resume: Option<Settled>) -> Resumed {
    let Some(s) = resume else {
        return (Vec::new(), Vec::new());
    };
    let lattice = out.army.lattice();
    let replays = |(cells, play): &(Vec<Cell>, Option<Vec<Step>>)| {
        play.as_ref()
            .is_none_or(|p| verify::replay(&lattice, out.level, cells, p).is_ok())
    };
    if s.men != k || !s.armies.iter().all(replays) {
        eprintln!(
            "solarmy: the recorded count is not used: it is for {} men, or a recorded play does not replay",
            s.men
        );
        return (Vec::new(), Vec::new());
    }
    for (cells, play) in s.armies {
        let images = lattice.images(&cells).len();
        out.undecided += play.is_none() as usize;
        out.armies.push(Counted {
            cells,
            symmetric: images == 1,
            images,
            playable: play.is_some(),
            play: play.unwrap_or_default(),
        });
    }
    (s.done, s.cases)
}

/// The armies of K men whose play ends with the last jump over `d`: the round-K program is
/// solved again and again, each army found cut off with all its images, until it is
/// infeasible (its final definition goes to `finals`). False when the count for `d` is not
/// complete (a board not proven, a time limit, Ctrl-C), with the reason in `out`.
fn count_for(
    out: &mut CountOutcome,
    d: Cell,
    k: u64,
    remaining: &dyn Fn() -> Option<f64>,
    finals: &mut Vec<Final>,
    bar: Option<&indicatif::ProgressBar>,
) -> Result<bool, Error> {
    let (army, level) = (out.army, out.level);
    let lattice = army.lattice();
    let Some(minimum::RoundProgram {
        board,
        mut spec,
        proven,
        max_exponent,
        max_loss,
        basis,
    }) = minimum::round_program(army, level, d, k)
    else {
        return Ok(true);
    };
    if !proven {
        out.reason = Some(format!("the board for last jump {d:?} is not proven"));
    }
    // Armies counted under another last jump are cut here too: they are decided.
    for a in &out.armies {
        add_cuts(&board, &mut spec, &lattice, &a.cells);
    }
    loop {
        let opts = Options {
            time_limit: remaining(),
            ..Options::default()
        };
        let sol = solve::solve(Model::build(&board, &spec), &opts)?;
        match sol.status {
            IpStatus::Infeasible => {
                let mut def = evidence::direct_def(d, k, spec.min_men, max_exponent, max_loss);
                def.cuts = (spec.excluded.iter())
                    .map(|set| set.iter().map(|&m| board.cells[m]).collect())
                    .collect();
                finals.push((basis.clone(), def, sol.seconds));
                return Ok(proven);
            }
            IpStatus::TimeLimit | IpStatus::Interrupted => {
                out.reason = Some("stopped by the time limit or Ctrl-C".into());
                return Ok(false);
            }
            IpStatus::Optimal => {}
        }
        let canonical = take_army(out, &board, &sol, d);
        add_cuts(&board, &mut spec, &lattice, &canonical);
        if let Some(pb) = bar {
            let n = out.armies.len();
            pb.set_message(format!(
                "{k} men: last jump over {d:?}, {n} start sets found"
            ));
        }
    }
}

/// The army of an IP solution, decided (a verified play, or undecided) and kept in its
/// canonical image, with the play carried along by the same symmetry; its cells.
fn take_army(out: &mut CountOutcome, board: &Board, sol: &IpSolution, d: Cell) -> Vec<Cell> {
    let cells: Vec<Cell> = sol.start.iter().map(|&m| board.cells[m]).collect();
    let decided = (out.army, out.level);
    let play = crate::search::outcome::verified_play(board, sol, d, decided, ORDER_BUDGET);
    add_army(out, &cells, play.as_deref())
}

/// An army, with its verified play or none (undecided), counted once in its canonical
/// image, the play carried along by the same symmetry: an army met again (under another
/// last jump, in a count by cases) only gains a play it lacked. Its canonical cells.
fn add_army(out: &mut CountOutcome, cells: &[Cell], play: Option<&[Step]>) -> Vec<Cell> {
    let lattice = out.army.lattice();
    let (sym, canonical) = canonical(&lattice, cells);
    if let Some(a) = out.armies.iter_mut().find(|a| a.cells == canonical) {
        if let (false, Some(p)) = (a.playable, play) {
            a.playable = true;
            a.play = carried(&sym, p);
            out.undecided -= 1;
        }
        return canonical;
    }
    let images = lattice.images(cells).len();
    out.undecided += play.is_none() as usize;
    out.armies.push(Counted {
        symmetric: images == 1,
        images,
        playable: play.is_some(),
        play: play.map(|p| carried(&sym, p)).unwrap_or_default(),
        cells: canonical.clone(),
    });
    canonical
}

/// A play carried by a symmetry, step by step.
fn carried(sym: &Symmetry, play: &[Step]) -> Vec<Step> {
    let map = |c| apply(sym, c);
    (play.iter())
        .map(|s| Step {
            from: map(s.from),
            over: map(s.over),
            to: map(s.to),
        })
        .collect()
}

/// The count's proof: the minimum's proof with a Count claim, the armies and their plays,
/// and per last jump the round of K men whose program, with every cut, is infeasible. None
/// when a board of round K has no proven basis.
fn count_proof(
    found: &minimum::Outcome,
    out: &CountOutcome,
    k: u64,
    finals: &[Final],
) -> Result<Option<Proof>, Error> {
    let Some(mut proof) = found.proof() else {
        return Ok(None);
    };
    proof.claim = Claim::Count {
        men: k,
        armies: out
            .armies
            .iter()
            .map(|a| Play {
                army: a.cells.clone(),
                jumps: a.play.iter().map(|s| (s.from, s.over, s.to)).collect(),
            })
            .collect(),
        up_to_symmetry: out.up_to_symmetry,
        total: out.total,
    };
    for (basis, def, seconds) in finals {
        let Some(board) = basis else {
            return Ok(None);
        };
        let (men, last_jump) = (def.max_men, def.last_jump);
        let ip = evidence::infeasible(out.army, out.level, def.clone(), None, *seconds, None)?;
        proof.rounds.push(RoundProof {
            men,
            last_jump,
            evidence: Evidence::Direct {
                board: board.clone(),
                ip,
            },
        });
    }
    Ok(Some(proof))
}

fn canonical_only(cells: &[Cell]) -> Vec<Cell> {
    let mut v = cells.to_vec();
    v.sort();
    v
}

/// The smallest image of a start set, sorted, with the symmetry that gives it.
fn canonical(lattice: &Lattice, cells: &[Cell]) -> (Symmetry, Vec<Cell>) {
    lattice
        .symmetries
        .iter()
        .map(|s| {
            (
                *s,
                canonical_only(&cells.iter().map(|&c| apply(s, c)).collect::<Vec<_>>()),
            )
        })
        .min_by(|a, b| a.1.cmp(&b.1))
        .unwrap_or((crate::problem::geometry::IDENTITY, canonical_only(cells)))
}

/// No-good cuts on a start set and all its images, wherever they lie on the board.
fn add_cuts(board: &Board, spec: &mut crate::ip::model::Spec, lattice: &Lattice, cells: &[Cell]) {
    for image in lattice.images(cells) {
        let set: Option<Vec<usize>> = image.iter().map(|c| board.index.get(c).copied()).collect();
        if let Some(set) = set.filter(|s| s.iter().all(|&m| board.start[m]))
            && !spec.excluded.contains(&set)
        {
            spec.excluded.push(set);
        }
    }
}
