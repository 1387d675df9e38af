//! Finding an army fast, with no proof: the first side of the two-sided search (issue 39).
//!
//! The climb of [`super::minimum`] proves each round K infeasible before it tries K + 1, and
//! on the larger problems (Conway in Z³ level 7, the deserts of side 9 and more) it runs out
//! of time with no army at all. Here the same jump program is solved on a board chosen for
//! finding, not for proving: for each last jump d, the cells of the improved function's
//! exponent up to the heaviest army of K men's farthest man plus a margin, K a generous
//! number above the pagoda bound L_d, and only the jumps such an army can afford. HiGHS
//! minimises the men within a time slice and its incumbent is taken, whatever its gap;
//! a board on which nothing is found grows (more men allowed, a wider margin). Every
//! incumbent is ordered into a play and replayed ([`super::outcome::order_play`],
//! [`crate::proof::verify::replay`]) before it counts; one that cannot be ordered is cut off
//! and the slice solved again. Once an army is found, the program is solved again with at
//! most one man fewer, on the same board and then on a larger one, while time remains: the
//! climb from above. Nothing found here is a minimum: it caps the climb
//! ([`super::outcome::Request::incumbent`]), and the answer reports it as the best army.

use super::outcome::{Found, ORDER_BUDGET, Outcome, Request, Status, order_play};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::solve::{self, INTERRUPTED, IpStatus, Options};
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::reduce::board::{Board, Limit};
use crate::weight::golden::Golden;
use crate::weight::pagoda::{Pagoda, Profile};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Men allowed above the pagoda bound, as a fraction of it, stage by stage: a board on
/// which HiGHS finds no orderable army in its slice is tried again with more men (more
/// start cells, more affordable jumps).
const EXTRA: [f64; 4] = [0.1, 0.25, 0.5, 1.0];

/// Exponents beyond the heaviest army's farthest man, stage by stage.
const MARGINS: [i32; 4] = [2, 2, 3, 4];

/// Unorderable incumbents cut off per program before it is given up.
const MAX_CUTS: usize = 5;

/// One last jump d with its improved function, start profile and pagoda bound.
struct Direction {
    d: Cell,
    pagoda: Pagoda,
    profile: Profile,
    bound: u64,
}

/// What the search for an army saw: the army (if any), and its effort.
#[derive(Clone, Debug, Default)]
pub struct FindReport {
    pub found: Option<Found>,
    pub seconds: f64,
    /// Integer programs solved.
    pub programs: usize,
    /// Incumbents that could not be ordered into a play.
    pub unorderable: usize,
}

/// Looks for a verified army of `req.army` reaching `req.level` within `budget` seconds,
/// the smallest found; `req.verbose` prints a line per program.
pub fn find_army(req: &Request, budget: f64) -> Result<FindReport, Error> {
    let mut f = Finder {
        req,
        t0: Instant::now(),
        budget,
        report: FindReport::default(),
        dirs: directions(req),
    };
    if f.dirs.is_empty() {
        return Ok(f.report);
    }
    let mut stage = 0;
    while f.report.found.is_none() && stage < EXTRA.len() && f.left() > 0.5 {
        let slice = f.left() / (EXTRA.len() - stage) as f64;
        for i in 0..f.dirs.len() {
            let share = slice / (f.dirs.len() - i) as f64;
            f.attempt(i, stage, None, share.min(f.left()))?;
        }
        stage += 1;
    }
    f.improve(stage.saturating_sub(1))?;
    f.report.seconds = f.t0.elapsed().as_secs_f64();
    Ok(f.report)
}

/// The last jumps whose pagoda bound is finite, smallest bound first.
fn directions(req: &Request) -> Vec<Direction> {
    let lattice = req.army.lattice();
    let mut dirs: Vec<Direction> = lattice
        .last_jump_directions()
        .into_iter()
        .filter_map(|d| {
            let pagoda = Pagoda::improved(&lattice, d);
            let profile = pagoda.start_profile(req.level);
            let bound = profile.lower_bound(Golden::ONE)?;
            Some(Direction {
                d,
                pagoda,
                profile,
                bound,
            })
        })
        .collect();
    dirs.sort_by_key(|x| x.bound);
    dirs
}

/// The finding board for armies of at most `k` men ending with the last jump d: every cell
/// up to `margin` exponents beyond the heaviest such army's farthest man (capped by the
/// window the function is trusted on), and every jump losing at most that army's slack,
/// which no army of at most k men can exceed. Not proven to hold every play: it is for
/// finding only.
fn finding_board(dir: &Direction, level: i32, k: u64, margin: i32) -> Board {
    let (per, heaviest) = dir.profile.heaviest(k);
    let limit = Limit {
        men: k,
        max_exponent: (per.len() as i32 - 1 + margin).min(dir.pagoda.trusted_exponent() - 8),
        max_loss: heaviest - Golden::ONE,
        proven: false,
    };
    Board::new(&dir.pagoda, level, &limit)
}

struct Finder<'a> {
    req: &'a Request,
    t0: Instant,
    budget: f64,
    report: FindReport,
    dirs: Vec<Direction>,
}

impl Finder<'_> {
    fn left(&self) -> f64 {
        if INTERRUPTED.load(Relaxed) {
            return 0.0;
        }
        (self.budget - self.t0.elapsed().as_secs_f64()).max(0.0)
    }

    /// The men allowed at `stage` for the i-th last jump, below the best army found.
    fn men(&self, i: usize, stage: usize) -> u64 {
        let b = self.dirs[i].bound;
        let k = b + ((b as f64 * EXTRA[stage]).ceil() as u64).max(2);
        match &self.report.found {
            Some(f) => k.min(f.men() - 1),
            None => k,
        }
    }

    /// Solves the program of the i-th last jump at `stage` (at most `cap` men when given,
    /// else the stage's men) within `seconds`; keeps its army when it is verified and
    /// smaller than the best. Ok(true) when the program is infeasible on its board.
    fn attempt(
        &mut self,
        i: usize,
        stage: usize,
        cap: Option<u64>,
        seconds: f64,
    ) -> Result<bool, Error> {
        let dir = &self.dirs[i];
        let k = cap.unwrap_or_else(|| self.men(i, stage));
        if k < dir.bound || seconds < 0.5 {
            return Ok(false);
        }
        let board = finding_board(dir, self.req.level, k, MARGINS[stage]);
        let mut spec = Spec {
            fin: board.last_jump_position(dir.d),
            max_men: Some(k),
            min_men: Some(dir.bound),
            ..Spec::default()
        };
        let t = Instant::now();
        while spec.excluded.len() <= MAX_CUTS {
            let left = (seconds - t.elapsed().as_secs_f64()).min(self.left());
            if left < 0.5 {
                return Ok(false);
            }
            let opts = Options {
                time_limit: Some(left),
                ..Options::default()
            };
            let sol = solve::solve(Model::build(&board, &spec), &opts)?;
            self.report.programs += 1;
            self.say(i, k, &board, &sol);
            if sol.status == IpStatus::Infeasible {
                return Ok(spec.excluded.is_empty());
            }
            if sol.objective.is_none() {
                return Ok(false);
            }
            match self.verified(&board, &sol, i) {
                Some(found) => {
                    self.report.found = Some(found);
                    return Ok(false);
                }
                None => {
                    self.report.unorderable += 1;
                    spec.excluded.push(sol.start.clone());
                }
            }
        }
        Ok(false)
    }

    /// The climb from above: with an army of m men found, the programs with at most m − 1
    /// men, on the board of the stage that found it and then on the larger ones, each last
    /// jump in turn, until a program is infeasible on the largest board or time runs out.
    fn improve(&mut self, mut stage: usize) -> Result<(), Error> {
        while self.left() > 0.5 {
            let Some(m) = self.report.found.as_ref().map(Found::men) else {
                return Ok(());
            };
            let mut all_infeasible = true;
            for i in 0..self.dirs.len() {
                let share = self.left() / (self.dirs.len() - i) as f64;
                all_infeasible &= self.attempt(i, stage, Some(m - 1), share)?;
                if self.report.found.as_ref().map(Found::men) != Some(m) {
                    break;
                }
            }
            let improved = self.report.found.as_ref().map(Found::men) != Some(m);
            if !improved {
                if !all_infeasible || stage + 1 == MARGINS.len() {
                    return Ok(());
                }
                stage += 1;
            }
        }
        Ok(())
    }

    /// The incumbent ordered into a play and replayed; None when it cannot be ordered (or,
    /// which would be a bug, the replay refuses it).
    fn verified(&self, board: &Board, sol: &solve::IpSolution, i: usize) -> Option<Found> {
        let d = self.dirs[i].d;
        let (army_cells, play) = order_play(board, sol, d, ORDER_BUDGET)?;
        let lattice = self.req.army.lattice();
        let r = verify::replay(&lattice, self.req.level, &army_cells, &play).ok()?;
        Some(Found {
            army_cells,
            play,
            moves: r.moves,
            last_jump: d,
            cells: board.cells.len(),
            jumps: board.jumps.len(),
        })
    }

    fn say(&self, i: usize, k: u64, board: &Board, sol: &solve::IpSolution) {
        if self.req.verbose {
            eprintln!(
                "find: at most {k} men, last jump over {:?}, {} cells, {} jumps: {:?}, incumbent {}, {:.1} s",
                self.dirs[i].d,
                board.cells.len(),
                board.jumps.len(),
                sol.status,
                sol.objective.map_or("-".into(), |m| m.to_string()),
                sol.seconds
            );
        }
    }
}

/// Puts a found army into the outcome of a climb that stopped short of its size (a time
/// limit, Ctrl-C, or a round left open), when the climb's own army, if any, is larger: the
/// answer's army and play, never its minimum (`min_size` stays empty).
pub fn offer(out: &mut Outcome, found: &Found) {
    let stopped = matches!(
        out.status,
        Status::TimeLimit | Status::Interrupted | Status::Open
    );
    if !stopped || out.verified && out.army_cells.len() as u64 <= found.men() {
        return;
    }
    out.min_size = None;
    out.verified = true;
    out.army_cells = found.army_cells.clone();
    out.play = found.play.clone();
    out.moves = found.moves;
    out.last_jump = Some(found.last_jump);
}
