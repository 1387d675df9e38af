//! The checker of a board claim ([`BoardClaim`]): re-verifies one peg-solitaire board
//! problem's verdict from the model text alone, naming the first step that fails.
//!
//! It shares nothing with the search in `crate::play::peg`: it reads the holes and directions from
//! the model file ([`crate::problem`]), builds the jumps and the jump program itself (holes
//! in ascending (x, y) order, one balance row each; jumps by from-hole, then by direction in
//! the file's order, one column each, bounded by N − 2, the number of jumps of any play),
//! recomputes position classes by its own elimination (start ⊕ finish reduced over the
//! GF(2) span of the jumps), replays plays with [`crate::proof::verify::replay_board`], and checks
//! certificates exactly with [`super::farkas`].

use super::farkas::{self, LinearSystem, Row, Tree};
use super::format::{BoardClaim, BoardVerdict, FORMAT, Proof};
use super::outcore::{Scratch, Work};
use super::summary::Summary;
use crate::error::CheckError;
use crate::problem::Problem;
use crate::problem::file::{Cells, Spec, Start};
use crate::problem::geometry::Cell;
use std::collections::{BTreeSet, HashSet};
use std::time::Instant;

/// The board as the checker sees it.
pub(super) struct Board {
    pub(super) holes: Vec<Cell>,
    directions: Vec<Cell>,
    /// (from, over, to) as hole indices.
    pub(super) jumps: Vec<(usize, usize, usize)>,
}

impl Board {
    /// The board of a model file's text, with the model itself (to bind the proof to).
    pub(super) fn from_model(text: &str) -> Result<(Spec, Board), String> {
        let p = Problem::parse(text)?;
        let s = &p.spec;
        let Cells::List(set) = &s.cells else {
            return Err("the model's cells are not a list of holes".into());
        };
        if s.start != Start::Board || s.dimension != 2 {
            return Err("the model is not a two-dimensional board".into());
        }
        let holes: Vec<Cell> = set
            .iter()
            .map(|q| Cell::xy(q[0] + s.target[0], q[1] + s.target[1]))
            .collect::<BTreeSet<Cell>>()
            .into_iter()
            .collect();
        let directions: Vec<Cell> = s.directions.iter().map(|d| Cell::xy(d[0], d[1])).collect();
        let at = |c: Cell| holes.binary_search(&c).ok();
        let mut jumps = Vec::new();
        for (a, &h) in holes.iter().enumerate() {
            for &dd in &directions {
                if let (Some(b), Some(c)) = (at(h + dd), at(h + 2 * dd)) {
                    jumps.push((a, b, c));
                }
            }
        }
        Ok((
            p.spec.clone(),
            Board {
                holes,
                directions,
                jumps,
            },
        ))
    }

    pub(super) fn hole(&self, c: Cell) -> Option<usize> {
        self.holes.binary_search(&c).ok()
    }

    /// Every symmetry of the board as a permutation of the holes: the maps c ↦ M·c + t with
    /// M an integer matrix of entries −1, 0, 1 and determinant ±1 (the square and the
    /// triangular lattices' isometries among them) that map the holes onto the holes and the
    /// directions onto the directions, so that they map jumps to jumps.
    pub(super) fn symmetries(&self) -> Vec<Vec<usize>> {
        let dirs: BTreeSet<Cell> = self.directions.iter().copied().collect();
        let mut out = Vec::new();
        let entries = [-1i32, 0, 1];
        for a in entries {
            for b in entries {
                for cc in entries {
                    for d in entries {
                        if (a * d - b * cc).abs() != 1 {
                            continue;
                        }
                        let map = |c: Cell| Cell::xy(a * c.0 + b * c.1, cc * c.0 + d * c.1);
                        if let Some(perm) = self.permutation(map, &dirs) {
                            out.push(perm);
                        }
                    }
                }
            }
        }
        out
    }

    /// The holes' permutation of a linear map followed by the translation that takes the
    /// least image to the least hole, if it maps holes onto holes and directions onto
    /// directions.
    fn permutation(&self, map: impl Fn(Cell) -> Cell, dirs: &BTreeSet<Cell>) -> Option<Vec<usize>> {
        let image: BTreeSet<Cell> = self.holes.iter().map(|&c| map(c)).collect();
        let t = *self.holes.first()? - *image.first()?;
        let turned: BTreeSet<Cell> = self.directions.iter().map(|&d| map(d)).collect();
        if turned != *dirs {
            return None;
        }
        self.holes.iter().map(|&c| self.hole(map(c) + t)).collect()
    }

    /// The jump program from every hole but `v` to one man on `f`.
    fn system(&self, v: usize, f: usize) -> LinearSystem {
        let n = self.holes.len();
        let mut rows: Vec<Row> = (0..n)
            .map(|h| {
                let rhs = (h == f) as i64 - (h != v) as i64;
                Row {
                    coefs: Vec::new(),
                    lo: Some(rhs),
                    hi: Some(rhs),
                }
            })
            .collect();
        for (j, &(a, b, c)) in self.jumps.iter().enumerate() {
            rows[a].coefs.push((j, -1));
            rows[b].coefs.push((j, -1));
            rows[c].coefs.push((j, 1));
        }
        LinearSystem {
            cols: vec![(0, Some(n as i64 - 2)); self.jumps.len()],
            rows,
        }
    }

    /// Whether two positions (sets of holes) lie in different position classes: their sum
    /// is outside the GF(2) span of the jumps' hole triples.
    fn classes_differ(&self, p: &[bool], q: &[bool]) -> bool {
        let n = self.holes.len();
        let mut basis: Vec<Vec<bool>> = Vec::new();
        let lead = |r: &[bool]| r.iter().position(|&b| b);
        for &(a, b, c) in &self.jumps {
            let mut r = vec![false; n];
            r[a] = true;
            r[b] = true;
            r[c] = true;
            reduce(&mut r, &basis, lead);
            if lead(&r).is_some() {
                basis.push(r);
                basis.sort_by_key(|r| lead(r));
            }
        }
        let mut d: Vec<bool> = p.iter().zip(q).map(|(x, y)| x ^ y).collect();
        reduce(&mut d, &basis, lead);
        d.iter().any(|&b| b)
    }
}

/// Reduces `r` by an echelon basis (each row's leading bit distinct).
fn reduce(r: &mut [bool], basis: &[Vec<bool>], lead: impl Fn(&[bool]) -> Option<usize>) {
    for row in basis {
        if let Some(l) = lead(row)
            && r[l]
        {
            for (x, y) in r.iter_mut().zip(row) {
                *x ^= y;
            }
        }
    }
}

/// The most positions the checker enumerates for an exhaustive claim (a proof needing more
/// is refused).
pub const MAX_POSITIONS: usize = 5_000_000;

/// Every position reachable from `start` (bit masks over the holes), or None beyond
/// [`MAX_POSITIONS`]. Breadth-first, level by level: each jump removes one man.
fn enumerate(board: &Board, start: u128) -> Option<HashSet<u128>> {
    let mut all: HashSet<u128> = HashSet::new();
    let mut level: HashSet<u128> = HashSet::from([start]);
    while !level.is_empty() {
        let mut next = HashSet::new();
        for &p in &level {
            for &(a, b, c) in &board.jumps {
                if p >> a & 1 == 1 && p >> b & 1 == 1 && p >> c & 1 == 0 {
                    next.insert(p ^ (1 << a) ^ (1 << b) ^ (1 << c));
                }
            }
        }
        all.extend(level);
        if all.len() + next.len() > MAX_POSITIONS {
            return None;
        }
        level = next;
    }
    Some(all)
}

fn unreachable(
    c: &mut Checker,
    board: &Board,
    v: usize,
    f: usize,
    positions: u64,
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, exhaustive search",
        c.context.split(',').next().unwrap_or("")
    );
    c.expect(board.holes.len() <= 128, || "more than 128 holes".into())?;
    let start = (0..board.holes.len())
        .filter(|&h| h != v)
        .fold(0u128, |m, h| m | 1 << h);
    let all = enumerate(board, start);
    c.expect(all.is_some(), || {
        format!("more than {MAX_POSITIONS} positions are reachable: too many to check")
    })?;
    let all = all.unwrap();
    c.expect(all.len() as u64 == positions, || {
        format!("{} positions are reachable, stated {positions}", all.len())
    })?;
    c.expect(!all.contains(&(1u128 << f)), || {
        "the finish alone is reachable".into()
    })
}

/// What an [`BoardVerdict::Exhausted`] claim states.
struct Stated<'a> {
    pagodas: &'a [Vec<(Cell, i64)>],
    symmetries: usize,
    forward: &'a [u64],
    backward: &'a [u64],
    children: bool,
}

/// The most positions one level of the pruned search may hold (8 bytes each; building a
/// level takes a few times that, and two sides' last levels are held at the end).
pub const MAX_LEVEL: usize = 150_000_000;

/// The largest weight a stated pagoda may give a hole.
pub const PAGODA_WEIGHT: i64 = 1 << 40;

/// Each pagoda names holes, once each, its weights bounded, and no jump increases it.
fn pagodas(
    c: &mut Checker,
    board: &Board,
    stated: &[Vec<(Cell, i64)>],
) -> Result<Vec<Vec<i64>>, CheckError> {
    let out = verified_pagodas(board, stated);
    c.expect(out.is_ok(), || {
        out.as_ref().err().cloned().unwrap_or_default()
    })?;
    Ok(out.unwrap_or_default())
}

/// The stated pagodas as weights by hole, when each names holes, once each, its weights
/// bounded, and no jump increases it; otherwise the first fault.
pub(super) fn verified_pagodas(
    board: &Board,
    stated: &[Vec<(Cell, i64)>],
) -> Result<Vec<Vec<i64>>, String> {
    let mut out = Vec::new();
    for (i, p) in stated.iter().enumerate() {
        let mut w = vec![0i64; board.holes.len()];
        let mut seen = HashSet::new();
        if let Some((cell, _)) = p
            .iter()
            .find(|(cell, _)| board.hole(*cell).is_none() || !seen.insert(*cell))
        {
            return Err(format!(
                "pagoda {i} names {cell:?}, not a hole or named twice"
            ));
        }
        // Bounded so that no sum over 64 holes can overflow.
        if let Some(big) = p.iter().find(|(_, x)| x.abs() > PAGODA_WEIGHT) {
            return Err(format!("pagoda {i} weighs {big:?} beyond ±{PAGODA_WEIGHT}"));
        }
        for &(cell, x) in p {
            w[board.hole(cell).unwrap_or(0)] = x;
        }
        let up = board
            .jumps
            .iter()
            .find(|&&(a, b, cc)| w[cc] > w[a].saturating_add(w[b]));
        if let Some(&(a, b, cc)) = up {
            let h = |i: usize| board.holes[i];
            return Err(format!(
                "pagoda {i} increases on the jump {:?} over {:?} into {:?}",
                h(a),
                h(b),
                h(cc)
            ));
        }
        out.push(w);
    }
    Ok(out)
}

/// The pruned exhaustion: pagodas verified, the group recomputed, both sides searched again
/// by [`super::levels::meet`], every level's count compared, and no position shared.
fn exhausted(
    c: &mut Checker,
    board: &Board,
    v: usize,
    f: usize,
    stated: &Stated,
    (shown, work): (bool, Option<&Work>),
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, pruned exhaustive search",
        c.context.split(',').next().unwrap_or("")
    );
    let n = board.holes.len();
    c.expect(n <= 64, || "more than 64 holes".into())?;
    let weights = pagodas(c, board, stated.pagodas)?;
    let group: Vec<Vec<usize>> = board
        .symmetries()
        .into_iter()
        .filter(|g| g[f] == f)
        .collect();
    c.expect(group.len() == stated.symmetries, || {
        format!(
            "{} symmetries fix the finish, stated {}",
            group.len(),
            stated.symmetries
        )
    })?;
    c.expect(!stated.forward.is_empty(), || {
        "no forward levels are stated".into()
    })?;
    let start = (0..n).filter(|&h| h != v).fold(0u64, |m, h| m | 1 << h);
    let space = super::levels::Space {
        n,
        jumps: &board.jumps,
        perms: &group,
        pagodas: &weights,
        finish: f,
        max_level: MAX_LEVEL,
        log: None,
        stop: None,
        shown,
    };
    let depth = stated.forward.len() - 1;
    let out = match (work, stated.children) {
        (None, false) => super::levels::meet(&space, start, depth),
        (work, _) => {
            c.expect(!stated.children || depth < n - 2, || {
                "a meeting by children needs a forward level before the last".into()
            })?;
            let out = Scratch::new(work).and_then(|scratch| {
                super::outcore::meet(&space, start, depth, stated.children, &scratch.work)
            });
            c.expect(out.is_ok(), || {
                format!("the levels on disk: {}", out.as_ref().unwrap_err())
            })?;
            out.unwrap()
        }
    };
    let super::levels::Outcome::Counts {
        forward,
        backward,
        shared,
    } = out
    else {
        return c.expect(false, || {
            format!("{out:?}: more positions in a level than {MAX_LEVEL} (check --work DIR)")
        });
    };
    for (side, ours, theirs) in [
        ("forward", &forward, stated.forward),
        ("backward", &backward, stated.backward),
    ] {
        let first = (0..ours.len().max(theirs.len())).find(|&j| ours.get(j) != theirs.get(j));
        c.expect(first.is_none(), || {
            let j = first.unwrap();
            format!(
                "{side} level {j}: {:?} positions, stated {:?}",
                ours.get(j),
                theirs.get(j)
            )
        })?;
    }
    c.expect(shared == 0, || {
        format!("the two sides share {shared} positions: the finish alone is reached")
    })
}

struct Checker<'a> {
    proof: &'a Proof,
    step: usize,
    context: String,
}

impl Checker<'_> {
    fn expect(&mut self, ok: bool, message: impl FnOnce() -> String) -> Result<(), CheckError> {
        self.step += 1;
        if ok {
            return Ok(());
        }
        Err(CheckError {
            step: self.step,
            context: self.context.clone(),
            message: message(),
        })
    }
}

/// Checks a board claim; Ok with a summary only if every step holds; `shown`: the search by
/// levels draws its progress on stderr.
pub fn check(
    proof: &Proof,
    claim: &BoardClaim,
    (expected, shown, work): (Option<&crate::problem::file::Spec>, bool, Option<&Work>),
) -> Result<Summary, CheckError> {
    let t0 = Instant::now();
    let (v, f) = (claim.vacancy, claim.finish);
    let mut c = Checker {
        proof,
        step: 0,
        context: format!("{} ({},{})->({},{}), setup", proof.army, v.0, v.1, f.0, f.1),
    };
    c.expect(proof.format == FORMAT, || {
        format!("format '{}', expected '{FORMAT}'", proof.format)
    })?;
    let board = proof
        .model
        .as_deref()
        .ok_or_else(|| "a board proof carries its model's text".to_string())
        .and_then(Board::from_model);
    c.expect(board.is_ok(), || {
        format!("no such board: {}", board.as_ref().err().unwrap())
    })?;
    let (spec, board) = board.unwrap();
    c.expect(spec.name == proof.army, || {
        format!("the model is named '{}', not '{}'", spec.name, proof.army)
    })?;
    let bound = super::bind::bind(&spec, Some((v, f)), proof.fingerprint.as_deref(), expected);
    c.expect(bound.is_ok(), || {
        format!("not the problem claimed: {}", bound.clone().unwrap_err())
    })?;
    let bound = bound.unwrap();
    let (vi, fi) = (board.hole(v), board.hole(f));
    c.expect(vi.is_some() && fi.is_some(), || {
        "the vacancy or the finish is not a hole".into()
    })?;
    let (vi, fi) = (vi.unwrap(), fi.unwrap());
    let mut summary = Summary {
        army: proof.army.clone(),
        fingerprint: bound.fingerprint,
        fingerprint_recorded: bound.recorded,
        board: true,
        ..Summary::default()
    };
    let claimed = match &claim.verdict {
        BoardVerdict::Solvable => {
            solvable(&mut c, &board, v, f)?;
            "solvable"
        }
        BoardVerdict::PositionClass {
            witness,
            start_parity,
            finish_parity,
        } => {
            class(
                &mut c,
                &board,
                vi,
                fi,
                witness,
                (*start_parity, *finish_parity),
            )?;
            "not solvable (position class)"
        }
        BoardVerdict::Unreachable { positions } => {
            unreachable(&mut c, &board, vi, fi, *positions)?;
            "not solvable (exhaustive search)"
        }
        BoardVerdict::Exhausted {
            pagodas,
            symmetries,
            forward,
            backward,
            children,
        } => {
            let stated = Stated {
                pagodas,
                symmetries: *symmetries,
                forward,
                backward,
                children: *children,
            };
            exhausted(&mut c, &board, vi, fi, &stated, (shown, work))?;
            "not solvable (pruned exhaustive search)"
        }
        BoardVerdict::NoJumpVector {
            rows,
            cols,
            certificate,
        } => {
            summary.ips = 1;
            summary.certified = 1;
            no_vector(&mut c, &board, vi, fi, (*rows, *cols), certificate)?
        }
    };
    summary.claim = format!("({},{})->({},{}) {claimed}", v.0, v.1, f.0, f.1);
    summary.steps = c.step;
    summary.seconds = t0.elapsed().as_secs_f64();
    Ok(summary)
}

fn solvable(c: &mut Checker, board: &Board, v: Cell, f: Cell) -> Result<(), CheckError> {
    c.context = format!(
        "{} ({},{})->({},{}), play",
        c.proof.army, v.0, v.1, f.0, f.1
    );
    let play = c.proof.play.as_ref();
    c.expect(play.is_some(), || "a solvable claim needs a play".into())?;
    let play = play.unwrap();
    let wanted: HashSet<Cell> = board.holes.iter().copied().filter(|&h| h != v).collect();
    let given: HashSet<Cell> = play.army.iter().copied().collect();
    c.expect(given == wanted && given.len() == play.army.len(), || {
        "the play's start is not every hole but the vacancy".into()
    })?;
    let steps: Vec<crate::proof::verify::Step> = play
        .jumps
        .iter()
        .map(|&(from, over, to)| crate::proof::verify::Step { from, over, to })
        .collect();
    let holes: HashSet<Cell> = board.holes.iter().copied().collect();
    let r = crate::proof::verify::replay_board(&holes, &board.directions, &play.army, &steps, f);
    c.expect(r.is_ok(), || r.unwrap_err())
}

fn class(
    c: &mut Checker,
    board: &Board,
    v: usize,
    f: usize,
    witness: &[Cell],
    (sp, fp): (u8, u8),
) -> Result<(), CheckError> {
    c.context = format!(
        "{}, position class",
        c.context.split(',').next().unwrap_or("")
    );
    let w: Vec<Option<usize>> = witness.iter().map(|&h| board.hole(h)).collect();
    let distinct: HashSet<&Option<usize>> = w.iter().collect();
    c.expect(
        w.iter().all(Option::is_some) && distinct.len() == w.len(),
        || "the witness names a cell that is not a hole, or one twice".into(),
    )?;
    let mut inw = vec![false; board.holes.len()];
    for h in w.into_iter().flatten() {
        inw[h] = true;
    }
    let odd = board
        .jumps
        .iter()
        .find(|&&(a, b, cc)| (inw[a] as u8 + inw[b] as u8 + inw[cc] as u8) % 2 == 1);
    c.expect(odd.is_none(), || {
        let (a, b, cc) = odd.unwrap();
        let h = |i: usize| board.holes[i];
        format!("the witness is not invariant: jump {:?} over {:?} into {:?} meets it an odd number of times", h(*a), h(*b), h(*cc))
    })?;
    let start: Vec<bool> = (0..board.holes.len()).map(|h| h != v).collect();
    let fin: Vec<bool> = (0..board.holes.len()).map(|h| h == f).collect();
    let parity = |p: &[bool]| (p.iter().zip(&inw).filter(|(a, b)| **a && **b).count() % 2) as u8;
    let (s, e) = (parity(&start), parity(&fin));
    c.expect(s == sp, || {
        format!("the start has parity {s} on the witness, stated {sp}")
    })?;
    c.expect(e == fp, || {
        format!("the finish has parity {e} on the witness, stated {fp}")
    })?;
    c.expect(s != e, || {
        "start and finish have the same parity on the witness".into()
    })?;
    // The classes again, by the checker's own elimination.
    c.expect(board.classes_differ(&start, &fin), || {
        "start and finish are in the same position class".into()
    })
}

fn no_vector(
    c: &mut Checker,
    board: &Board,
    v: usize,
    f: usize,
    (rows, cols): (usize, usize),
    certificate: &Tree,
) -> Result<&'static str, CheckError> {
    c.context = format!(
        "{}, jump program",
        c.context.split(',').next().unwrap_or("")
    );
    let sys = board.system(v, f);
    c.expect(sys.rows.len() == rows && sys.cols.len() == cols, || {
        format!(
            "the program has {} rows and {} columns, stated {rows} and {cols}",
            sys.rows.len(),
            sys.cols.len()
        )
    })?;
    let r = farkas::check_tree(&sys, certificate);
    c.expect(r.is_ok(), || format!("certificate: {}", r.unwrap_err()))?;
    Ok(match certificate {
        Tree::Leaf(_) => "not solvable (resource count)",
        _ => "not solvable (integer program)",
    })
}
