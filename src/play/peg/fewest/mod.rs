//! The fewest moves of a board problem, exactly: a search by levels over every position that
//! lies on some play from the start to the finish (boards of at most 64 holes, a position
//! being the set of its men as the bits of a `u64`).
//!
//! **Method.** Let S be the start (every hole but the vacancy v), T the finish (one man on f)
//! and N = holes − 2 the number of jumps of any play. Split N = J + K with J = ⌈N/2⌉.
//!
//! 1. *Forward levels.* F_j = the positions reached from S by j jumps (j = 0 … J), each level
//!    sorted, positions kept up to the stabiliser H_v of v among the board's symmetries.
//! 2. *Backward levels, by complement.* If a jump a → c over b turns P into P', the same jump
//!    a → c over b turns the complement of P' (a, b full, c empty) into the complement of P:
//!    so P reaches T in k jumps exactly when the complement of P is reached from the
//!    complement of T (every hole but f) in k jumps (the jumps in reverse order; chains of one
//!    man are not kept, so a problem and its reverse may differ in moves). The backward levels are the forward levels B_k of that start
//!    (k = 0 … K), kept up to H_f. (For the central game S is T's complement, and one set of
//!    levels serves both ways.)
//! 3. *The positions on some play*, G_j (j jumps made): G_J = {P ∈ F_J : comp(P) ∈ B_K}; for
//!    j < J, G_j = the parents (one jump back) of G_{j+1} that lie in F_j; for j > J,
//!    G_j = the children of G_{j−1} whose complement lies in B_{N−j}. A position is on some
//!    play exactly when it is reached from S and reaches T, and every position of a play is,
//!    so G is exactly the union of all plays' positions, kept up to H = H_v ∩ H_f (every
//!    symmetry in H fixes S and T and maps plays to plays).
//! 4. *Moves.* A move is one man's chain of jumps; every position inside a chain that is part
//!    of a play is itself in G (reached from S, and it reaches T through the rest of the
//!    play), so the moves between positions of G are found by chains that never leave G.
//!    The moves form an acyclic graph (each jump removes a man); its shortest path from S to T,
//!    by dynamic programming over the levels, is the fewest moves, and no shorter play exists
//!    because every play is a path of this graph. No bound or heuristic is involved: the
//!    search is exhaustive over the reachable positions.
//!
//! The play reported is walked on the concrete board (one move at a time, each move leading to
//! a position one move nearer T), and the caller replays it with the independent checker.
//!
//! The parts: a board as bits and its symmetries ([`bits`]), the forward levels from a hole
//! and the sets that hold them ([`levels`]), the positions on some play, the move graph on
//! them and its shortest path ([`graph`], which solves one problem from its levels), the
//! catalogue of every problem of a board, its levels shared by hole class ([`catalogue()`]),
//! and the endgame table, positions by their fewest moves to the finish ([`endgame`]).

use super::PegBoard;
use crate::proof::verify::Step;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod bits;
mod bloom;
mod catalogue;
mod disk;
pub mod endgame;
mod graph;
mod levels;
mod outcore;
mod packed;
mod parts;
mod prune;
pub use bits::Bits;
pub use catalogue::{Entry, REACH_BYTES, Status, catalogue, catalogue_resumed};
pub use disk::{Disk, Join, Meet, free_space, work_dir};
pub use graph::solve;
pub use levels::{Lookup, Reach, Seen};
pub use parts::{Job, run_step};
pub use prune::{Pagodas, Pruning};

/// Why a computation stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Interrupted,
    /// More positions than the cap, or levels over the memory budget: the memory would not
    /// suffice.
    TooMany,
    /// The levels on disk would pass the disk budget, or the disk failed: the one-line reason.
    Disk(String),
}

/// A progress callback: one line saying what is being built.
pub type Progress = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// Limits of a computation.
#[derive(Clone)]
pub struct Limits {
    /// The most positions any one level may hold (8 bytes each, sorted; building a level
    /// needs a few times that).
    pub max_level: usize,
    /// The most bytes a catalogue keeps in reaches ([`REACH_BYTES`] by default).
    pub reach_bytes: usize,
    /// The most bytes one problem's levels may hold (as stored, plus the level being built
    /// at [`BUILD_BYTES`] a position); `usize::MAX` by default (only `max_level` applies).
    pub memory: usize,
    pub interrupt: Option<&'static AtomicBool>,
    /// Told each level as it is built.
    pub progress: Option<Progress>,
    /// How each problem's levels are pruned ([`prune`]); when on, a catalogue builds the
    /// levels of each problem for it instead of sharing them by hole class.
    pub pruning: Pruning,
    /// Levels on disk ([`outcore`]): where, and the disk budget. None: in memory.
    pub disk: Option<Disk>,
    /// Whether to make Beasley's table of positions by fewest moves from the start: a
    /// second pass over the move graph, about a fifth of a large problem's time, that the
    /// fewest moves and the play do not need.
    pub table: bool,
}

/// The bytes a position of the level being built may take at its peak (its parent's level
/// read, the sorted runs of two threads and their merge).
pub const BUILD_BYTES: usize = 48;

impl Limits {
    /// The command line's `--memory`: Some(bytes), the budget alone caps the levels
    /// ([`Limits::with_memory`]); None, half the machine, the level cap kept as it is (so
    /// that a run without the flag stops where it stopped before the flag existed).
    pub fn with_memory_arg(self, bytes: Option<usize>) -> Limits {
        match bytes {
            Some(b) => Limits {
                max_level: usize::MAX,
                ..self
            }
            .with_memory(b),
            None => self.with_memory(half_the_machine()),
        }
    }

    /// These limits within a memory budget of `bytes`: a level holds at most bytes /
    /// [`BUILD_BYTES`] positions (and no more than `max_level`), and the levels kept with
    /// it stay within `bytes`.
    pub fn with_memory(self, bytes: usize) -> Limits {
        Limits {
            max_level: self.max_level.min(bytes / BUILD_BYTES),
            memory: bytes,
            ..self
        }
    }

    /// Whether Ctrl-C was pressed (the search then stops with [`Stop::Interrupted`]).
    fn stopped(&self) -> bool {
        self.interrupt
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn tell(&self, line: impl FnOnce() -> String) {
        if let Some(p) = &self.progress {
            p(line());
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_level: 150_000_000,
            reach_bytes: REACH_BYTES,
            memory: usize::MAX,
            interrupt: None,
            progress: None,
            pruning: Pruning::Off,
            disk: None,
            table: true,
        }
    }
}

/// The answer for one problem.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Solved {
    /// None: no play reaches the finish.
    pub min_moves: Option<u32>,
    /// A play of `min_moves` moves (board coordinates).
    pub play: Option<Vec<Step>>,
    /// `on_plays[j]` = positions (up to the problem's symmetry) after j jumps on some play.
    pub on_plays: Vec<u64>,
    /// `table[d][t]` = positions on some play whose fewest moves from the start is d and whose
    /// shortest play through them has t moves (Beasley's Tables 1–4, exact).
    pub table: Vec<Vec<u64>>,
    /// The size of the problem's symmetry group (positions are counted up to it).
    pub symmetry: usize,
    /// The pagodas the levels were pruned by (closed under the problem's symmetry; 0: none).
    pub pagodas: usize,
    /// Those pagodas before closing, one weight per hole (a proof states them).
    #[serde(skip)]
    pub weights: Vec<Vec<i64>>,
    /// Positions in each level built for the problem, forward from the start and backward
    /// (complements) from the finish ([`solve_pair`] only; empty when levels were shared).
    pub forward: Vec<u64>,
    pub backward: Vec<u64>,
    pub seconds: f64,
}

/// The levels each side needs: the forward reach ⌈N/2⌉ jumps deep, the backward ⌊N/2⌋.
pub fn depths(bits: &Bits) -> (usize, usize) {
    let n = bits.n - 2;
    (n - n / 2, n / 2)
}

/// One problem from scratch ([`solve_pair`]), or the one-line reason it stopped.
pub fn solve_one(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    lim: &Limits,
) -> Result<(Solved, u64), String> {
    let bits = Bits::new(board)?;
    solve_pair(board, &bits, (vacancy, finish), lim).map_err(|s| stop_line(s, lim))
}

/// One problem from the levels built for it: those of the vacancy and of the finish (one
/// set when the two are one hole), pruned as `lim.pruning` says ([`prune`]: the answer is
/// the same, the levels smaller), then [`solve`]. Also returns the positions of the levels.
pub fn solve_pair(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    lim: &Limits,
) -> Result<(Solved, u64), Stop> {
    if let Some(disk) = &lim.disk {
        return outcore::solve_pair(board, bits, (v, f), lim, disk);
    }
    let started = Instant::now();
    let (jf, jb) = depths(bits);
    let weights = lim.pruning.pagodas(board, v, f);
    let build = |from: usize, to: usize, depth: usize, lim: &Limits| {
        if lim.pruning.is_off() {
            return Reach::new(bits, from, depth, lim).map(|r| (r, 0));
        }
        let group = bits.stabiliser(&[v, f]);
        let keep = Pagodas::toward(bits, &weights, &group, to);
        Reach::pruned(bits, from, group, &keep, depth, lim).map(|r| (r, keep.len()))
    };
    let (fwd, pagodas) = build(v, f, jf, lim)?;
    let bwd_own = if f == v {
        None
    } else {
        // The forward levels are held while the backward ones are built.
        let rest = Limits {
            memory: lim.memory.saturating_sub(fwd.bytes()),
            ..lim.clone()
        };
        Some(build(f, v, jb, &rest)?.0)
    };
    let bwd = bwd_own.as_ref().unwrap_or(&fwd);
    let positions = fwd.positions() + bwd_own.as_ref().map_or(0, Reach::positions);
    let (a, b) = (Seen::new(bits, &fwd, 0), Seen::new(bits, bwd, 0));
    let mut s = solve(board, bits, (&a, &b), lim)?;
    s.pagodas = pagodas;
    s.weights = weights;
    let sizes = |r: &Reach| r.levels.iter().map(|l| l.len() as u64).collect();
    s.forward = sizes(&fwd);
    s.backward = sizes(bwd);
    s.seconds = started.elapsed().as_secs_f64();
    Ok((s, positions))
}

/// The pagodas of a problem's levels on disk: those of `lim.pruning`, made once and kept in
/// the work directory (`pagodas-<digest>.txt`, one pagoda a line), since pagodas sharpened by
/// an integer program within a time limit may differ from run to run, and every run (or part
/// of a job array) that shares the levels must prune by the same ones.
fn pagodas_kept(
    board: &PegBoard,
    bits: &Bits,
    (v, f): (usize, usize),
    lim: &Limits,
    disk: &Disk,
) -> Result<Vec<Vec<i64>>, Stop> {
    use sha2::Digest;
    if lim.pruning.is_off() {
        return Ok(Vec::new());
    }
    let mut h = sha2::Sha256::new();
    bits.digest(&mut h);
    h.update(format!("pagodas {v} {f} {:?}\n", lim.pruning).as_bytes());
    let name = outcore::digest_name(h);
    let path = disk.dir.join(format!("pagodas-{name}.txt"));
    if let Ok(text) = std::fs::read_to_string(&path) {
        let read: Option<Vec<Vec<i64>>> = text
            .lines()
            .map(|l| l.split_whitespace().map(|x| x.parse().ok()).collect())
            .collect();
        if let Some(w) = read.filter(|w| w.iter().all(|p| p.len() == bits.n)) {
            return Ok(w);
        }
    }
    let weights = lim.pruning.pagodas(board, v, f);
    let text: String = weights
        .iter()
        .map(|w| w.iter().map(i64::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let tmp = disk
        .dir
        .join(format!("pagodas-{name}-{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| disk::io("cannot write", &tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| disk::io("cannot write", &path, e))?;
    Ok(weights)
}

/// The one-line reason a computation stopped.
pub fn stop_line(s: Stop, lim: &Limits) -> String {
    match s {
        Stop::Interrupted => "interrupted".to_string(),
        Stop::Disk(line) => line,
        Stop::TooMany if lim.memory < usize::MAX => format!(
            "the levels would take more than the memory budget of {} (a level at most {} positions): stopped before the memory runs out{}",
            show_bytes(lim.memory),
            lim.max_level,
            if lim.disk.is_none() {
                " (--work DIR keeps the levels on disk)"
            } else {
                ""
            }
        ),
        Stop::TooMany => format!(
            "a level would hold more than {} positions: stopped before the memory runs out",
            lim.max_level
        ),
    }
}

/// A size for a message: GiB with one decimal from 1 GiB up, MiB below.
pub(crate) fn show_bytes(b: usize) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", b >> 20)
    }
}

/// Half the machine's memory (from /proc/meminfo; 8 GB where it cannot be read): the default
/// memory budget of the command line's search by levels.
pub fn half_the_machine() -> usize {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    total.unwrap_or(16_000_000_000) / 2
}

/// A size in bytes as the command line gives it: a whole number with an optional K, M, G or
/// T (powers of 1024), e.g. 16G; at least 1M.
pub fn parse_memory(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => {
            return Err(format!(
                "'{s}': a size is a number with K, M, G or T, e.g. 16G"
            ));
        }
    };
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': a size is a whole number with K, M, G or T, e.g. 16G"))?;
    match n.checked_mul(1 << shift) {
        Some(b) if b >= 1 << 20 => Ok(b),
        Some(_) => Err(format!("'{s}': at least 1M")),
        None => Err(format!("'{s}': too large")),
    }
}
