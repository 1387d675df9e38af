//! The checker of a board's fewest-moves claim by levels ([`check`]): "the play goes from
//! every hole but v to one man on f in m moves, and no play has fewer", re-verified by a
//! search of its own over every position on some play. It serves boards whose searches are
//! too large for the search by moves of [`super::moves`] (the English central game's pass
//! five million positions by depth 10), and shares no code with `crate::play`.
//!
//! **Method.** Let S be the start (every hole but v), T one man on f, N = holes − 2 the jumps
//! of every play, J = ⌈N/2⌉, and H the board's symmetries ([`super::peg`]) that fix v and f:
//! each maps S to S, T to T and plays to plays, so one image per orbit is kept (its least).
//! 1. *Levels.* F_j, the positions j jumps after S (j = 0 … J), and B_k, those k jumps before
//!    T (k = 0 … N − J), by [`super::levels::every_level`], with no pruning.
//! 2. *The positions on some play*, G_j (j jumps made): G_J = F_J ∩ B_{N−J}; for j < J the
//!    parents of G_{j+1} that lie in F_j; for j > J the children of G_{j−1} that lie in
//!    B_{N−j}. A position after j jumps is on a play exactly when it is in F_j and in B_{N−j};
//!    every play passes level J, so by induction outward from J each G_j is exactly that set
//!    (a position on a play is a parent, or a child, of the next one on it, which is on it).
//! 3. *Moves.* A move is one man's chain of jumps. Every position inside a chain of a play is
//!    on that play, so every move of every play is a chain through G. The fewest moves from
//!    each position of G to T, by dynamic programming from the last level (each jump removes
//!    a man, so a move ends at a later level), is at most the moves of any play from it: its
//!    value at S is no more than the fewest of any play, and no less, being a play's. The
//!    claim holds when it equals the replayed play's moves.
//!
//! Every level's count is stated in the proof and compared, so a mismatch names its level.

use super::format::{LevelCounts, MovesClaim, Proof};
use super::levels::{Canon, Space, every_level};
use super::moves::{Checker, board_problem, steps_of};
use super::peg::Board;
use super::summary::Summary;
use crate::error::CheckError;
use crate::problem::geometry::Cell;
use std::time::Instant;

/// The most positions one level may hold (about 8 bytes each, every level kept).
pub const MAX_LEVEL: usize = 400_000_000;

/// Moves from a position not joined to the finish.
const FAR: u8 = u8::MAX;

/// The board problem as the search needs it.
struct Search {
    n: usize,
    jumps: Vec<(usize, usize, usize)>,
    /// The jumps by their from-hole: (over, to).
    from: Vec<Vec<(usize, usize)>>,
    group: Vec<Vec<usize>>,
    canon: Canon,
    v: usize,
    f: usize,
    /// Whether the levels' progress is drawn on stderr.
    shown: bool,
    /// Pagodas verified never to rise on a jump, pruning both sides ([`super::levels`]).
    pagodas: Vec<Vec<i64>>,
}

impl Search {
    fn new(board: &Board, (v, f): (usize, usize)) -> Search {
        let n = board.holes.len();
        let group: Vec<Vec<usize>> = board
            .symmetries()
            .into_iter()
            .filter(|g| g[v] == v && g[f] == f)
            .collect();
        let canon = Canon::new(n, &group);
        let mut from = vec![Vec::new(); n];
        for &(a, b, c) in &board.jumps {
            from[a].push((b, c));
        }
        Search {
            n,
            jumps: board.jumps.clone(),
            from,
            group,
            canon,
            v,
            f,
            shown: false,
            pagodas: Vec::new(),
        }
    }

    /// The least image of p under the group.
    fn least(&self, p: u64) -> u64 {
        self.canon.least(p)
    }

    /// The least images of every child (`back` false) or parent (`back` true) of each
    /// position of `level`, sorted, without repeats.
    fn neighbours(&self, level: &[u64], back: bool) -> Vec<u64> {
        let mut out = Vec::new();
        for &p in level {
            for &(a, b, c) in &self.jumps {
                let (full, empty) = if back { (c, a) } else { (a, c) };
                if p >> full & 1 == 1 && p >> b & 1 == u64::from(!back) && p >> empty & 1 == 0 {
                    out.push(self.least(p ^ (1 << a | 1 << b | 1 << c)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Steps 1 and 2: the levels' counts and the positions on some play, by jumps made.
    fn on_plays(&self) -> Result<(LevelCounts, Vec<Vec<u64>>), String> {
        let total = self.n - 2;
        let j_mid = total.div_ceil(2);
        let start = ((1u64 << (self.n - 1) << 1).wrapping_sub(1)) & !(1 << self.v);
        let space = Space {
            n: self.n,
            jumps: &self.jumps,
            perms: &self.group,
            pagodas: &self.pagodas,
            finish: self.f,
            max_level: MAX_LEVEL,
            log: None,
            stop: None,
            shown: self.shown,
        };
        let too_many = |side: &str, j| {
            format!("{side} level {j} holds more than {MAX_LEVEL} positions: too many to check")
        };
        let mut fwd =
            every_level(&space, start, true, j_mid).map_err(|j| too_many("forward", j))?;
        let mut bwd = every_level(&space, start, false, total - j_mid)
            .map_err(|k| too_many("backward", k))?;
        let count = |l: &[Vec<u64>]| l.iter().map(|x| x.len() as u64).collect();
        let (forward, backward) = (count(&fwd), count(&bwd));
        let mut g: Vec<Vec<u64>> = vec![Vec::new(); total + 1];
        if fwd.len() == j_mid + 1 && bwd.len() == total - j_mid + 1 {
            // Each level is let go once its part of G is made (G_j ⊆ F_j, B_{N−j}), so the
            // peak is the two sides' levels, not the sides and G together.
            let take = |l: &mut Vec<Vec<u64>>, i: usize| std::mem::take(&mut l[i]);
            g[j_mid] = shared(&take(&mut fwd, j_mid), &take(&mut bwd, total - j_mid));
            for j in (0..j_mid).rev() {
                g[j] = shared(&self.neighbours(&g[j + 1], true), &take(&mut fwd, j));
            }
            drop(fwd);
            for j in j_mid + 1..=total {
                g[j] = shared(
                    &self.neighbours(&g[j - 1], false),
                    &take(&mut bwd, total - j),
                );
            }
        }
        let counts = LevelCounts {
            symmetries: self.group.len(),
            forward,
            backward,
            on_plays: count(&g),
            pagodas: Vec::new(),
        };
        Ok((counts, g))
    }

    /// Step 3: the fewest moves from the start to the finish through `g` (None: no play).
    fn fewest(&self, g: &[Vec<u64>]) -> Option<u8> {
        let total = self.n - 2;
        // Each level's values are made once, from those of the levels after it.
        let mut to_end: Vec<Vec<u8>> = vec![Vec::new(); total + 1];
        for j in (0..=total).rev() {
            let (now, later) = to_end.split_at_mut(j + 1);
            now[j] = self.level_to_end(g, j, later);
        }
        to_end
            .first()
            .and_then(|l| l.first())
            .copied()
            .filter(|&d| d != FAR)
    }

    /// The fewest moves to the finish from each position of level j, in two threads, given
    /// those of the levels after it (`later[0]` is level j + 1's).
    fn level_to_end(&self, g: &[Vec<u64>], j: usize, later: &[Vec<u8>]) -> Vec<u8> {
        let level = &g[j];
        if j == self.n - 2 {
            return vec![0; level.len()];
        }
        let half = level.len().div_ceil(2).max(1);
        std::thread::scope(|s| {
            let parts: Vec<_> = level
                .chunks(half)
                .map(|part| {
                    s.spawn(move || {
                        let best = |p| self.best_move(g, j, later, p);
                        part.iter().map(|&p| best(p)).collect::<Vec<u8>>()
                    })
                })
                .collect();
            parts
                .into_iter()
                .flat_map(|h| h.join().expect("a checker thread panicked"))
                .collect()
        })
    }

    /// 1 + the least moves to the finish over every chain from p (at level j) through G.
    fn best_move(&self, g: &[Vec<u64>], j: usize, later: &[Vec<u8>], p: u64) -> u8 {
        let mut best = FAR;
        let mut stack: Vec<(u64, usize, usize)> = Vec::new();
        for a in 0..self.n {
            if p >> a & 1 == 1 {
                stack.push((p ^ (1 << a), a, j));
            }
        }
        // (the position without the moving man, the man's hole, the jumps made so far)
        while let Some((rest, at, k)) = stack.pop() {
            for &(b, c) in &self.from[at] {
                if rest >> b & 1 == 1 && rest >> c & 1 == 0 {
                    let rest2 = rest ^ (1 << b);
                    let q = self.least(rest2 | 1 << c);
                    if let Ok(i) = g[k + 1].binary_search(&q) {
                        best = best.min(later[k - j][i].saturating_add(1));
                        stack.push((rest2, c, k + 1));
                    }
                }
            }
        }
        best
    }
}

/// The positions two sorted lists share, sorted.
fn shared(a: &[u64], b: &[u64]) -> Vec<u64> {
    let (mut i, mut k, mut out) = (0, 0, Vec::new());
    while i < a.len() && k < b.len() {
        match a[i].cmp(&b[k]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => k += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                k += 1;
            }
        }
    }
    out
}

/// The board a proof names, rebuilt from its model's text. Err: there is none, or it is not
/// one this search takes.
fn board_of(proof: &Proof) -> Result<Board, String> {
    let text = proof
        .model
        .as_deref()
        .ok_or("a board proof carries its model's text")?;
    let (_, board) = Board::from_model(text)?;
    if !(3..=64).contains(&board.holes.len()) {
        return Err(format!(
            "{} holes: the search by levels takes boards of 3 to 64 holes",
            board.holes.len()
        ));
    }
    Ok(board)
}

/// The search of a board problem, its levels pruned by `pagodas` (verified by the caller):
/// its fewest moves (None: no play) and the counts. Err: a level is too large.
fn search(
    board: &Board,
    (v, f): (Cell, Cell),
    shown: bool,
    pagodas: Vec<Vec<i64>>,
) -> Result<(Option<u8>, LevelCounts), String> {
    let hole = |c: Cell| {
        board
            .hole(c)
            .ok_or("the vacancy or the finish is not a hole")
    };
    let s = Search {
        shown,
        pagodas,
        ..Search::new(board, (hole(v)?, hole(f)?))
    };
    let (counts, g) = s.on_plays()?;
    Ok((s.fewest(&g), counts))
}

/// The claim for a board proof whose play is filled in, by the checker's own search (the
/// writer's side of [`check`]): Err says why none can be made (the play does not replay, a
/// shorter play exists, a level too large).
pub fn prepare(proof: &Proof, (v, f): (Cell, Cell), shown: bool) -> Result<MovesClaim, String> {
    let play = proof.play.as_ref().ok_or("no play")?;
    let steps = steps_of(play);
    let (_, _, moves) = board_problem(proof, play, &steps, (v, f))?;
    let (fewest, counts) = search(&board_of(proof)?, (v, f), shown, Vec::new())?;
    match fewest {
        Some(m) if usize::from(m) == moves => Ok(MovesClaim {
            board: Some((v, f)),
            moves: moves as u32,
            cells: 0,
            last_over: Vec::new(),
            counts: Vec::new(),
            levels: Some(counts),
        }),
        Some(m) => Err(format!("the checker's search finds a play of {m} moves")),
        None => Err("the checker's search finds no play".into()),
    }
}

/// Checks a board's fewest-moves claim by levels; Ok with a summary only if every step holds.
pub fn check(
    proof: &Proof,
    claim: &MovesClaim,
    stated: &LevelCounts,
    (expected, shown): (Option<&crate::problem::file::Spec>, bool),
) -> Result<Summary, CheckError> {
    let t0 = Instant::now();
    let Some((v, f)) = claim.board else {
        return Err(CheckError {
            step: 0,
            context: format!("{}, setup", proof.army),
            message: "a claim by levels is a board's".into(),
        });
    };
    let what = format!("{} ({},{})->({},{})", proof.army, v.0, v.1, f.0, f.1);
    let mut c = Checker {
        step: 0,
        context: format!("{what}, play"),
    };
    let fingerprint = super::moves::replayed(&mut c, proof, claim, expected)?;
    c.context = format!("{what}, board");
    let board = c.require(board_of(proof))?;
    c.context = format!("{what}, pagodas");
    let pagodas = c.require(super::peg::verified_pagodas(&board, &stated.pagodas))?;
    c.context = format!("{what}, search by levels");
    let (fewest, counts) = c.require(search(&board, (v, f), shown, pagodas))?;
    compare(&mut c, &counts, stated)?;
    c.expect(fewest == u8::try_from(claim.moves).ok(), || match fewest {
        Some(m) => format!("the fewest moves are {m}, claimed {}", claim.moves),
        None => "no play reaches the finish".into(),
    })?;
    Ok(Summary {
        army: proof.army.clone(),
        fingerprint: fingerprint.0,
        fingerprint_recorded: fingerprint.1,
        level: proof.level,
        board: true,
        claim: format!(
            "({},{})->({},{}) fewest moves {} (search by levels: {} positions on some play)",
            v.0,
            v.1,
            f.0,
            f.1,
            claim.moves,
            counts.on_plays.iter().sum::<u64>()
        ),
        steps: c.step,
        seconds: t0.elapsed().as_secs_f64(),
        ..Summary::default()
    })
}

/// Every count stated equals the search's, or the first that differs is named.
fn compare(c: &mut Checker, got: &LevelCounts, stated: &LevelCounts) -> Result<(), CheckError> {
    c.expect(got.symmetries == stated.symmetries, || {
        format!(
            "{} symmetries fix the vacancy and the finish, stated {}",
            got.symmetries, stated.symmetries
        )
    })?;
    let sides = [
        ("forward level", &got.forward, &stated.forward),
        ("backward level", &got.backward, &stated.backward),
        (
            "positions on some play after jumps",
            &got.on_plays,
            &stated.on_plays,
        ),
    ];
    for (name, got, stated) in sides {
        let first = (0..got.len().max(stated.len())).find(|&k| got.get(k) != stated.get(k));
        c.expect(first.is_none(), || {
            let k = first.unwrap_or(0);
            format!(
                "{name} {k}: {:?} positions, stated {:?}",
                got.get(k),
                stated.get(k)
            )
        })?;
    }
    Ok(())
}
