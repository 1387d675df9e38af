//! Finding an army fast, with no proof: the first side of the two-sided search.
//!
//! The climb of [`super::minimum`] proves each round K infeasible before it tries K + 1, and
//! on the larger problems (Conway in Z³ level 7, the deserts of side 9 and more) it runs out
//! of time with no army at all. Here the same jump program is solved on a board chosen for
//! finding, not for proving: for each last jump d, the cells of the improved function's
//! exponent up to the heaviest army of K men's farthest man plus a margin, K a generous
//! number above the pagoda bound L_d, and only the jumps such an army can afford. HiGHS
//! minimises the men within a time slice and its incumbent is taken, whatever its gap;
//! a board on which nothing is found grows (more men allowed, a wider margin). When that
//! finds nothing in the time it takes, the search is staged: an army one level down is
//! found the same way and *lifted*, by the program from this level's start to that army's
//! start position on the cells of the lower level's start region, its play followed by the
//! lower army's. Every incumbent is ordered into a play and replayed
//! ([`super::outcome::order_play`], [`crate::proof::verify::replay`]) before it counts; one
//! that cannot be ordered is cut off and the slice solved again. Once an army of m men is
//! found, the program with at most m − 1 men is solved on the board of its stage and then on
//! wider ones while time remains: the climb from above. Nothing found here is a minimum: it
//! caps the climb ([`super::outcome::Request::incumbent`]), and the answer reports it as the
//! best army.

use super::outcome::{Found, ORDER_BUDGET, Outcome, Request, Status, order_play};
use crate::error::Error;
use crate::ip::model::{Model, Spec};
use crate::ip::solve::{self, INTERRUPTED, IpStatus, Options};
use crate::play::order::{Ordering, order};
use crate::problem::geometry::{Cell, IDENTITY, Lattice, Symmetry, apply};
use crate::proof::verify::{self, Step};
use crate::reduce::board::{Board, Jump, Limit};
use crate::weight::golden::Golden;
use crate::weight::pagoda::{Pagoda, Profile};
use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Men allowed above the pagoda bound, as a fraction of it, stage by stage: a board on
/// which HiGHS finds no orderable army in its slice is tried again with more men (more
/// start cells, more affordable jumps).
const EXTRA: [f64; 4] = [0.1, 0.25, 0.5, 1.0];

/// Exponents beyond the heaviest army's farthest man, stage by stage.
const MARGINS: [i32; 4] = [2, 2, 3, 4];

/// Stages the climb from above may widen the board beyond the finding stages.
const WIDER: usize = 3;

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
        until: budget,
        symmetric: false,
        report: FindReport::default(),
        dirs: directions(req),
    };
    if f.dirs.is_empty() {
        return Ok(f.report);
    }
    // Symmetric armies first, in half the time: the programs fixed by the symmetries of
    // the last jump are far smaller for HiGHS (the square desert of side 11: no army of up
    // to 252 men in 300 s without them, 236 men in 70 s with them), and a symmetric army
    // is as good an army. Then the free programs, in the time left.
    let passes: &[bool] = if f.has_symmetry() {
        &[true, false]
    } else {
        &[false]
    };
    let mut stage = 0;
    for &symmetric in passes {
        f.symmetric = symmetric;
        f.until = if symmetric { budget / 2.0 } else { budget };
        stage = f.stages()?;
        if f.report.found.is_some() {
            break;
        }
    }
    f.until = budget;
    if f.report.found.is_none() && req.level > 1 {
        f.symmetric = false;
        f.lift()?;
    }
    // The climb from above: symmetric in half the time left, then free.
    for &symmetric in passes {
        f.symmetric = symmetric;
        let now = f.t0.elapsed().as_secs_f64();
        f.until = if symmetric {
            now + f.left() / 2.0
        } else {
            budget
        };
        f.improve(stage.saturating_sub(1))?;
    }
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

/// Exponents beyond the heaviest army's farthest man at `stage`: the stages' margins, then
/// two more per stage beyond them (only the climb from above goes that far).
fn margin(stage: usize) -> i32 {
    match MARGINS.get(stage) {
        Some(&m) => m,
        None => MARGINS[MARGINS.len() - 1] + 2 * (stage + 1 - MARGINS.len()) as i32,
    }
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
        max_exponent: (per.len() as i32 - 1 + margin).min(top_exponent(&dir.pagoda)),
        max_loss: heaviest - Golden::ONE,
        proven: false,
    };
    Board::new(&dir.pagoda, level, &limit)
}

/// The largest board exponent the function is trusted for, with the climb's own headroom.
fn top_exponent(pagoda: &Pagoda) -> i32 {
    pagoda.trusted_exponent() - 8
}

/// Every cell and jump of the board of exponent <= `max_exponent` (whatever their loss)
/// whose cells satisfy `keep`.
fn region_board(
    pagoda: &Pagoda,
    level: i32,
    max_exponent: i32,
    keep: impl Fn(Cell) -> bool,
) -> Board {
    let limit = Limit {
        men: 0,
        max_exponent,
        max_loss: (1i128 << 40) * Golden::ONE,
        proven: false,
    };
    let b = Board::new(pagoda, level, &limit);
    let kept: Vec<usize> = (0..b.cells.len()).filter(|&i| keep(b.cells[i])).collect();
    let cells: Vec<Cell> = kept.iter().map(|&i| b.cells[i]).collect();
    let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(n, &c)| (c, n)).collect();
    let (mut jumps, mut loss) = (Vec::new(), Vec::new());
    for (j, &l) in b.jumps.iter().zip(&b.loss) {
        let at = |i: usize| index.get(&b.cells[i]).copied();
        if let (Some(from), Some(over), Some(to)) = (at(j.from), at(j.over), at(j.to)) {
            jumps.push(Jump { from, over, to });
            loss.push(l);
        }
    }
    Board {
        exponent: kept.iter().map(|&i| b.exponent[i]).collect(),
        start: kept.iter().map(|&i| b.start[i]).collect(),
        cells,
        index,
        jumps,
        loss,
        level,
    }
}

/// The symmetries of the lattice, the identity aside, that fix the last jump d.
fn fixing(lattice: &Lattice, d: Cell) -> impl Iterator<Item = &Symmetry> {
    (lattice.symmetries.iter()).filter(move |s| **s != IDENTITY && apply(s, d) == d)
}

/// Pairs of indices whose variables are equal.
type Pairs = Vec<(usize, usize)>;

/// The pairs of start cells and of jumps that the symmetries fixing the last jump d map onto
/// each other on this board (images off the board are left free).
fn symmetric(board: &Board, lattice: &Lattice, d: Cell) -> (Pairs, Pairs) {
    let jump_at: HashMap<(usize, usize, usize), usize> = (board.jumps.iter().enumerate())
        .map(|(n, j)| ((j.from, j.over, j.to), n))
        .collect();
    let (mut cells, mut jumps) = (Vec::new(), Vec::new());
    for s in fixing(lattice, d) {
        let image = |m: usize| board.index.get(&apply(s, board.cells[m])).copied();
        for m in board.start_cells() {
            if let Some(i) = image(m).filter(|&i| i != m) {
                cells.push((m, i));
            }
        }
        for (n, j) in board.jumps.iter().enumerate() {
            let key = (image(j.from), image(j.over), image(j.to));
            if let (Some(a), Some(b), Some(c)) = key
                && let Some(&i) = jump_at.get(&(a, b, c)).filter(|&&i| i != n)
            {
                jumps.push((n, i));
            }
        }
    }
    (cells, jumps)
}

struct Finder<'a> {
    req: &'a Request,
    t0: Instant,
    budget: f64,
    /// The end of the current pass, in seconds from t0 (at most the budget).
    until: f64,
    /// Whether the programs impose the symmetries fixing the last jump.
    symmetric: bool,
    report: FindReport,
    dirs: Vec<Direction>,
}

impl Finder<'_> {
    fn left(&self) -> f64 {
        if INTERRUPTED.load(Relaxed) {
            return 0.0;
        }
        (self.until.min(self.budget) - self.t0.elapsed().as_secs_f64()).max(0.0)
    }

    /// Whether some last jump is fixed by a symmetry other than the identity.
    fn has_symmetry(&self) -> bool {
        let lattice = self.req.army.lattice();
        self.dirs
            .iter()
            .any(|x| fixing(&lattice, x.d).next().is_some())
    }

    /// The direct programs stage by stage, the time left shared among the stages to come
    /// (Z³ level 7: nothing at +10 % in 150 s, 200 men at +25 % in 150 s); beyond the
    /// stages, while every program is infeasible, the board widens and more men are
    /// allowed, each wider stage taking half the time left. Returns the next stage.
    fn stages(&mut self) -> Result<usize, Error> {
        let (mut stage, mut infeasible) = (0, true);
        while self.report.found.is_none()
            && (stage < EXTRA.len() || infeasible && self.grows(stage, |i| self.men(i, stage)))
        {
            let slice = self.left() / EXTRA.len().saturating_sub(stage).max(2) as f64;
            if slice < 0.5 {
                break;
            }
            infeasible = true;
            for i in 0..self.dirs.len() {
                let share = slice / (self.dirs.len() - i) as f64;
                infeasible &= self.attempt(i, stage, None, share.min(self.left()))?;
            }
            stage += 1;
        }
        Ok(stage)
    }

    /// Whether the board of the next stage is wider than that of `stage` for some last
    /// jump, with `men(i)` men for the i-th.
    fn grows(&self, stage: usize, men: impl Fn(usize) -> u64) -> bool {
        self.dirs.iter().enumerate().any(|(i, d)| {
            let far = d.profile.heaviest(men(i)).0.len() as i32 - 1;
            far + margin(stage) < top_exponent(&d.pagoda)
        })
    }

    /// The men allowed at `stage` for the i-th last jump, below the best army found.
    fn men(&self, i: usize, stage: usize) -> u64 {
        // Beyond the stages, half the bound more per stage: more men afford lossier jumps.
        let last = EXTRA.len() - 1;
        let extra = EXTRA[stage.min(last)] + 0.5 * stage.saturating_sub(last) as f64;
        let b = self.dirs[i].bound;
        let k = b + ((b as f64 * extra).ceil() as u64).max(2);
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
        if k < dir.bound {
            return Ok(true);
        }
        if seconds < 0.5 {
            return Ok(false);
        }
        let board = finding_board(dir, self.req.level, k, margin(stage));
        let mut spec = Spec {
            fin: board.last_jump_position(dir.d),
            max_men: Some(k),
            min_men: Some(dir.bound),
            ..Spec::default()
        };
        if self.symmetric {
            (spec.same_start, spec.same_jumps) = symmetric(&board, &self.req.army.lattice(), dir.d);
        }
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
            let what = format!(
                "at most {k} men{}",
                ["", " (symmetric)"][self.symmetric as usize]
            );
            self.say(&what, self.dirs[i].d, &board, &sol);
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
                // Infeasible on every board of this margin: a wider one, while it grows.
                let grows = self.grows(stage, |_| m - 1);
                if !all_infeasible || !grows || stage + 1 >= MARGINS.len() + WIDER {
                    return Ok(());
                }
                stage += 1;
            }
        }
        Ok(())
    }

    /// Staged: an army one level down (found by this search, in a third of the time left)
    /// is lifted: the program from this level's start to a position holding that army, on
    /// the cells of the lower level's start region only (the lifted play need not come
    /// nearer), then that army's play. Men may be left over on cells where the lower play
    /// never lands, since they cannot hinder it. The board widens by two exponents while
    /// the program is infeasible, each taking a third of the time left.
    fn lift(&mut self) -> Result<(), Error> {
        let level = self.req.level;
        let below = Request {
            level: level - 1,
            incumbent: None,
            ..self.req.clone()
        };
        let report = find_army(&below, self.left() / 3.0)?;
        self.report.programs += report.programs;
        let Some(lower) = report.found else {
            return Ok(());
        };
        let lattice = self.req.army.lattice();
        let pagoda = Pagoda::improved(&lattice, lower.last_jump);
        let top = lower.army_cells.iter().filter_map(|&c| pagoda.exponent(c));
        let Some(top) = top.max() else {
            return Ok(());
        };
        // Men left over where the lower play never lands cannot hinder it.
        let landed: std::collections::HashSet<Cell> = lower.play.iter().map(|s| s.to).collect();
        // Wider by two exponents at a time while nothing is found and time is left.
        for extra in (2..).step_by(2) {
            let e = top + extra;
            if e > top_exponent(&pagoda) {
                return Ok(());
            }
            let board = region_board(&pagoda, level, e, |c| lattice.in_start(c, level - 1));
            let fin: Option<Vec<usize>> = lower
                .army_cells
                .iter()
                .map(|c| board.index.get(c).copied())
                .collect();
            let Some(fin) = fin else {
                return Ok(());
            };
            let seconds = self.left() / 3.0;
            if seconds < 0.5 {
                return Ok(());
            }
            let opts = Options {
                time_limit: Some(seconds),
                ..Options::default()
            };
            let spare = (0..board.cells.len())
                .filter(|m| !fin.contains(m) && !landed.contains(&board.cells[*m]))
                .collect();
            let spec = Spec {
                fin,
                spare,
                ..Spec::default()
            };
            let sol = solve::solve(Model::build(&board, &spec), &opts)?;
            self.report.programs += 1;
            let what = format!("lift of {} men from level {}", lower.men(), level - 1);
            self.say(&what, lower.last_jump, &board, &sol);
            if let Some(found) = self.lifted(&board, &sol, &lower) {
                self.report.found = Some(found);
                return Ok(());
            }
            self.report.unorderable += sol.objective.is_some() as usize;
            // A wider board is tried only where this one is infeasible: one that ran out of
            // time would leave the next less time for more work.
            if sol.status != IpStatus::Infeasible {
                return Ok(());
            }
        }
        Ok(())
    }

    /// A lift's incumbent ordered, followed by the lower army's play, and replayed.
    fn lifted(&self, board: &Board, sol: &solve::IpSolution, lower: &Found) -> Option<Found> {
        sol.objective?;
        let priority = |j: usize| board.exponent[board.jumps[j].from].unwrap_or(0) as i64;
        let Ordering::Found(seq) = order(board, &sol.start, &sol.jumps, priority, ORDER_BUDGET)
        else {
            return None;
        };
        let army_cells: Vec<Cell> = sol.start.iter().map(|&m| board.cells[m]).collect();
        let mut play: Vec<Step> = seq
            .iter()
            .map(|&j| Step {
                from: board.cells[board.jumps[j].from],
                over: board.cells[board.jumps[j].over],
                to: board.cells[board.jumps[j].to],
            })
            .collect();
        play.extend_from_slice(&lower.play);
        self.replayed(board, army_cells, play, lower.last_jump)
    }

    /// The incumbent ordered into a play and replayed; None when it cannot be ordered (or,
    /// which would be a bug, the replay refuses it).
    fn verified(&self, board: &Board, sol: &solve::IpSolution, i: usize) -> Option<Found> {
        let d = self.dirs[i].d;
        let (army_cells, play) = order_play(board, sol, d, ORDER_BUDGET)?;
        self.replayed(board, army_cells, play, d)
    }

    /// An army and its play, if the independent replay accepts them: only then does it count.
    fn replayed(
        &self,
        board: &Board,
        army_cells: Vec<Cell>,
        play: Vec<Step>,
        last_jump: Cell,
    ) -> Option<Found> {
        let lattice = self.req.army.lattice();
        let r = verify::replay(&lattice, self.req.level, &army_cells, &play).ok()?;
        Some(Found {
            army_cells,
            play,
            moves: r.moves,
            last_jump,
            cells: board.cells.len(),
            jumps: board.jumps.len(),
        })
    }

    fn say(&self, what: &str, d: Cell, board: &Board, sol: &solve::IpSolution) {
        if self.req.verbose {
            eprintln!(
                "find: level {}, {what}, last jump over {d:?}, {} cells, {} jumps: {:?}, incumbent {}, {:.1} s",
                self.req.level,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    /// The staged program alone: the 7×7 desert's army lifted from one of the 5×5 desert,
    /// the lower play replayed after the lifted one.
    #[test]
    fn an_army_one_level_down_is_lifted() {
        let army = Army::read(std::path::Path::new("models/desert-square.toml")).unwrap();
        let req = Request::new(army, 4);
        let mut f = Finder {
            req: &req,
            t0: Instant::now(),
            budget: 30.0,
            until: 30.0,
            symmetric: false,
            report: FindReport::default(),
            dirs: directions(&req),
        };
        f.lift().unwrap();
        let found = f.report.found.expect("a lifted army");
        assert!(found.men() >= 16, "{}", found.men());
        let lattice = army.lattice();
        verify::replay(&lattice, 4, &found.army_cells, &found.play).unwrap();
    }
}
