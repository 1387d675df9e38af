//! The endgame table of a board problem (Beasley's, in "Some observations on the analysis of
//! peg solitaire by computer"): level k holds the positions from which one man on the finish
//! is reached in k moves and no fewer, built backward one move at a time and kept up to the
//! finish's stabiliser. Unconstrained: every position of the board counts, whether or not any
//! start reaches it (Beasley's 1, 16, 979, 14 115 for the English board's centre).
//!
//! **Why the levels are exact.** E_0 is the finish. A position P has fewest moves k ≥ 1
//! exactly when one move takes it to a position of E_(k−1) and it lies in no earlier level:
//! the first move of a shortest play from P leads to a position whose fewest is k − 1, and a
//! move into E_(k−1) gives a play of k moves. So E_k = (the parents by one move of E_(k−1))
//! minus E_0 … E_(k−1). A move is one man's chain of jumps; played backward from its end c,
//! each step takes the man from `at` to a with b between them, both empty before and b full
//! after (a jump a → at over b, undone), and every prefix of the backward chain is a move's
//! parent. A symmetry fixing the finish maps moves to moves, so the parents of a level's
//! representatives, reduced to their least images, are the whole next level up to symmetry.
//! Forward from a start, the same argument with moves played gives the positions reached in
//! k moves and no fewer ([`by_moves`], [`Way::Forward`]).

use super::bits::Bits;
use super::prune::Pagodas;
use std::collections::HashSet;

/// Which way a level table grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// From a position forward: level k holds what it reaches in k moves and no fewer.
    Forward,
    /// From a position backward (an endgame table): level k holds what reaches it in k
    /// moves and no fewer.
    Backward,
}

/// The endgame table from one man on hole `finish`, levels 0 … `levels` (each sorted, least
/// images under the finish's stabiliser). Stops early, returning the levels built, when a level
/// would pass `cap` positions.
pub fn table(bits: &Bits, finish: usize, levels: usize, cap: usize) -> Vec<Vec<u64>> {
    let group = bits.stabiliser(&[finish]);
    by_moves(bits, (1u64 << finish, &group), Way::Backward, (levels, cap))
}

/// The level table of `root` by moves, either way, levels 0 … `levels`, kept up to `group`
/// (symmetries fixing the root, the identity among them); forward, the argument of the
/// module doc with moves played instead of undone. Stops early, returning the levels built,
/// when a level would pass `cap` positions.
pub fn by_moves(
    bits: &Bits,
    (root, group): (u64, &[usize]),
    way: Way,
    (levels, cap): (usize, usize),
) -> Vec<Vec<u64>> {
    let moves = match way {
        Way::Forward => jumps_from(bits),
        Way::Backward => jumps_into(bits),
    };
    let mut out: Vec<Vec<u64>> = vec![vec![bits.canon(group, root)]];
    let mut seen: HashSet<u64> = out[0].iter().copied().collect();
    for _ in 0..levels {
        let mut next: Vec<u64> = Vec::new();
        for &q in out.last().expect("level 0") {
            by_one_move(&moves, way, q, &mut |p| next.push(bits.canon(group, p)));
        }
        next.sort_unstable();
        next.dedup();
        next.retain(|p| !seen.contains(p));
        if next.len() > cap || next.is_empty() {
            break;
        }
        seen.extend(next.iter().copied());
        out.push(next);
    }
    out
}

/// The jumps by starting hole: from[a] = every (over, to) of a jump from a.
fn jumps_from(bits: &Bits) -> Vec<Vec<(u8, u8)>> {
    bits.from.clone()
}

/// The jumps by landing hole: into[c] = every (from, over) of a jump into c.
fn jumps_into(bits: &Bits) -> Vec<Vec<(u8, u8)>> {
    let mut into = vec![Vec::new(); bits.n];
    for (a, jumps) in bits.from.iter().enumerate() {
        for &(b, c) in jumps {
            into[c as usize].push((a as u8, b));
        }
    }
    into
}

/// Every position one move from `q` (its children forward, its parents backward; some
/// duplicated), given to `f`: for each man of q, its chains of jumps played or undone.
fn by_one_move(moves: &[Vec<(u8, u8)>], way: Way, q: u64, f: &mut impl FnMut(u64)) {
    let mut men = q;
    while men != 0 {
        let c = men.trailing_zeros() as usize;
        men &= men - 1;
        let mut seen: HashSet<(u64, usize)> = HashSet::new();
        step(moves, way, (q & !(1 << c), c), &mut seen, f);
    }
}

/// One more jump of the mover, now on `at` (lifted off `rest`, the other men): forward a jump
/// over a man b into an empty hole, backward a jump into `at` undone (its start a and over
/// hole b both empty, b full after).
fn step(
    moves: &[Vec<(u8, u8)>],
    way: Way,
    (rest, at): (u64, usize),
    seen: &mut HashSet<(u64, usize)>,
    f: &mut impl FnMut(u64),
) {
    for &(x, b) in &moves[at] {
        // Forward the pair is (over, to); backward (from, over).
        let (b, to, over_full) = match way {
            Way::Forward => (x as usize, b as usize, true),
            Way::Backward => (b as usize, x as usize, false),
        };
        if rest >> to & 1 == 1 || (rest >> b & 1 == 1) != over_full {
            continue;
        }
        let rest = rest ^ 1 << b;
        if seen.insert((rest, to)) {
            f(rest | 1 << to);
            step(moves, way, (rest, to), seen, f);
        }
    }
}

/// One level of a problem's two tables: the positions k moves from the start and no fewer
/// (`forward`), and those the finish is reached from in k moves and no fewer (`endgame`),
/// each in all and as kept by the problem's pagodas (toward the finish forward; backward, a
/// position reached from the start weighs at most the start, [`super::prune`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub moves: usize,
    pub forward: u64,
    pub forward_kept: u64,
    pub endgame: u64,
    pub endgame_kept: u64,
}

/// The two tables of problem (v, f), levels 0 … `levels` (fewer when a level would pass
/// `cap`), kept up to the symmetries fixing v and f (under which `pagodas` are closed).
pub fn counts(
    bits: &Bits,
    (v, f): (usize, usize),
    (levels, cap): (usize, usize),
    pagodas: &[Vec<i64>],
) -> Vec<Counts> {
    let group = bits.stabiliser(&[v, f]);
    let start = bits.full & !(1u64 << v);
    let fwd = by_moves(bits, (start, &group), Way::Forward, (levels, cap));
    let bwd = by_moves(bits, (1u64 << f, &group), Way::Backward, (levels, cap));
    let toward_f = Pagodas::toward(bits, pagodas, &group, f);
    let toward_v = Pagodas::toward(bits, pagodas, &group, v);
    let count = |l: Option<&Vec<u64>>, keep: &dyn Fn(u64) -> bool| {
        l.map_or((0, 0), |l| {
            let kept = l.iter().filter(|&&p| keep(p)).count();
            (l.len() as u64, kept as u64)
        })
    };
    (0..fwd.len().max(bwd.len()))
        .map(|k| {
            let (forward, forward_kept) = count(fwd.get(k), &|p| toward_f.keeps(p));
            let (endgame, endgame_kept) = count(bwd.get(k), &|p| toward_v.keeps(!p & bits.full));
            Counts {
                moves: k,
                forward,
                forward_kept,
                endgame,
                endgame_kept,
            }
        })
        .collect()
}
