//! A first play, fast: a plain depth-first search from the start, each position the bits of a
//! `u64`, that remembers the positions it has shown cannot reach the finish (kept up to the
//! symmetries of the board that fix the finish, which map plays to plays), cuts a position
//! whose resource count (a pagoda of the board's shape, [`super::exhaust::candidates`]) is
//! below the finish's, and stops at a few men, where a table of endgames grown back from the
//! finish says at once whether the finish is reachable. It finds a play of every solvable
//! English problem in milliseconds, so [`super::settle`] tries it right after the cheap
//! impossibility proofs; its "found" is replayed by the independent checker like any other
//! play, and its "not found" within the budget proves nothing.
//!
//! How long such a search takes depends wildly on the order it tries the jumps in (the same
//! problem seen through a symmetry of the board can take 200 nodes or millions), so the
//! search is run as several *variants*: the problem mapped by each symmetry of the board, and
//! its dual (finish and vacancy swapped: a play of it, reversed, is a play of the problem),
//! each with the jumps tried in the board's order. The variants take turns, each with a
//! budget of nodes doubled every round and its failed positions kept between turns, so the
//! whole costs about the number of variants times the quickest one.

use super::PegBoard;
use super::fewest::Bits;
use super::play::Found;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Mixes a position's bits into a hash (splitmix64's finaliser: every bit of the position
/// reaches the bits the table uses).
#[derive(Default)]
pub struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A set of positions.
pub type Positions = HashSet<u64, BuildHasherDefault<Mix>>;

/// How much the search may do.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Nodes (positions expanded) in all, over every variant.
    pub nodes: u64,
    /// Nodes each variant gets in the first round (doubled each round).
    pub first_slice: u64,
    /// The most positions each table of endgames may hold.
    pub endgame: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            nodes: 300_000,
            first_slice: 1_000,
            endgame: 4_000,
        }
    }
}

/// What one search spent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Positions expanded, over every variant.
    pub nodes: u64,
    /// The variants tried.
    pub variants: usize,
}

/// A resource count as masks: its weight on a position is Σ value · |position ∩ mask|.
struct Pagoda {
    parts: Vec<(i64, u64)>,
    /// The finish's weight: no position of less reaches it.
    least: i64,
}

impl Pagoda {
    /// A pagoda's values by hole as masks, and the weight of one man on `finish`.
    fn new(values: &[i64], finish: usize) -> Pagoda {
        let mut parts: Vec<(i64, u64)> = Vec::new();
        for (h, &v) in values.iter().enumerate().filter(|(_, v)| **v != 0) {
            match parts.iter_mut().find(|(w, _)| *w == v) {
                Some((_, m)) => *m |= 1 << h,
                None => parts.push((v, 1 << h)),
            }
        }
        Pagoda {
            parts,
            least: values[finish],
        }
    }

    fn weight(&self, p: u64) -> i64 {
        self.parts
            .iter()
            .map(|&(v, m)| v * i64::from((p & m).count_ones()))
            .sum()
    }
}

/// What every variant shares: the board as bits, its jumps by from-hole and its symmetries.
struct Shared {
    bits: Bits,
    /// By from-hole, in the board's order: (from and over, to, jump index).
    from: Vec<Vec<(u64, u64, usize)>>,
    /// images[g][j]: the jump that symmetry g maps jump j to.
    images: Vec<Vec<usize>>,
    /// perms[g][h]: the hole that symmetry g maps hole h to.
    perms: Vec<Vec<usize>>,
    /// inverse[g]: the symmetry undoing g.
    inverse: Vec<usize>,
    pagodas: Vec<Vec<i64>>,
}

impl Shared {
    fn new(board: &PegBoard, bits: Bits) -> Shared {
        let mut from = vec![Vec::new(); board.cells.len()];
        for (j, jump) in board.jumps.iter().enumerate() {
            from[jump.from].push((1 << jump.from | 1 << jump.over, 1 << jump.to, j));
        }
        let perms = board.hole_perms();
        let index: std::collections::HashMap<(usize, usize, usize), usize> = board
            .jumps
            .iter()
            .enumerate()
            .map(|(j, jump)| ((jump.from, jump.over, jump.to), j))
            .collect();
        let images = perms
            .iter()
            .map(|p| {
                let image = |j: &super::Jump| index[&(p[j.from], p[j.over], p[j.to])];
                board.jumps.iter().map(image).collect()
            })
            .collect();
        let undoes = |g: &Vec<usize>, h: &Vec<usize>| (0..g.len()).all(|x| h[g[x]] == x);
        let inverse = perms
            .iter()
            .map(|g| perms.iter().position(|h| undoes(g, h)).expect("a group"))
            .collect();
        Shared {
            bits,
            from,
            images,
            inverse,
            perms,
            pagodas: super::exhaust::candidates(board),
        }
    }
}

/// The positions from which one man on a hole is reachable, by men (`levels[m]`: m men, up
/// to the symmetries fixing that hole; `levels[0]` empty), grown backwards from it by unjumps
/// while their total stays within a limit.
struct Endgames {
    levels: Vec<Positions>,
}

impl Endgames {
    fn new(board: &PegBoard, bits: &Bits, finish: usize, limit: usize) -> Endgames {
        let group = bits.stabiliser(&[finish]);
        let mut levels = vec![Positions::default(), Positions::from_iter([1u64 << finish])];
        let mut total = 1;
        'levels: while levels.len() < board.cells.len() - 1 {
            let mut next = Positions::default();
            for &p in levels.last().expect("a level") {
                for jump in &board.jumps {
                    let (a, b, c) = (1u64 << jump.from, 1u64 << jump.over, 1u64 << jump.to);
                    if p & c != 0 && p & (a | b) == 0 {
                        next.insert(bits.canon(&group, p ^ a ^ b ^ c));
                        if total + next.len() > limit {
                            break 'levels;
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            total += next.len();
            levels.push(next);
        }
        Endgames { levels }
    }
}

/// One variant: the problem mapped by a symmetry g (its positions are g's images of the
/// problem's), or its dual so mapped; its failed positions stay between its turns.
struct Variant<'a> {
    /// The symmetry taking the variant's positions back to the problem's, and whether the
    /// variant is the dual.
    back: usize,
    dual: bool,
    start: u64,
    /// The endgames of the variant's finish, held in the problem's (or its dual's)
    /// coordinates: a position is looked up by its image under `back`.
    end: &'a Endgames,
    /// The symmetries s whose least image min s(P) of a position P of the variant is its
    /// key: the least image, under the symmetries fixing the finish, of P taken back to the
    /// problem. Every variant of one side keeps its failed positions by that key in one set.
    keyers: Vec<usize>,
    pagodas: Vec<Pagoda>,
}

/// One turn of a variant: the search state.
struct Turn<'a, 'b> {
    shared: &'a Shared,
    v: &'a Variant<'b>,
    failed: &'a mut Positions,
    path: Vec<usize>,
    /// The position at which the search met the endgames.
    met: u64,
    nodes: u64,
    budget: u64,
}

impl Turn<'_, '_> {
    /// Whether `pos`, of `left` men, is among the endgames.
    fn in_end(&self, pos: u64, left: u32) -> bool {
        let key = self.shared.bits.canon(&self.v.keyers, pos);
        self.v.end.levels[left as usize].contains(&key)
    }

    /// Some(true) found (the jumps in `path`, then `met`), Some(false) none from here, None
    /// out of budget.
    fn dfs(&mut self, pos: u64, left: u32) -> Option<bool> {
        if (left as usize) < self.v.end.levels.len() {
            self.met = pos;
            return Some(self.in_end(pos, left));
        }
        let key = self.shared.bits.canon(&self.v.keyers, pos);
        if self.failed.contains(&key) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if self.v.pagodas.iter().all(|g| g.weight(pos) >= g.least) {
            let mut men = pos;
            while men != 0 {
                let h = men.trailing_zeros() as usize;
                men &= men - 1;
                for &(ab, c, j) in &self.shared.from[h] {
                    if pos & ab == ab && pos & c == 0 {
                        self.path.push(j);
                        match self.dfs(pos ^ ab ^ c, left - 1) {
                            Some(false) => {}
                            found => return found,
                        }
                        self.path.pop();
                    }
                }
            }
        }
        self.failed.insert(key);
        Some(false)
    }

    /// The rest of the play from `met` inside the endgames, down to one man.
    fn finish_play(&mut self) {
        let mut pos = self.met;
        for left in (1..pos.count_ones()).rev() {
            let next = (0..self.shared.from.len())
                .filter(|&h| pos >> h & 1 == 1)
                .flat_map(|h| self.shared.from[h].iter())
                .find(|&&(ab, c, _)| {
                    pos & ab == ab && pos & c == 0 && self.in_end(pos ^ ab ^ c, left)
                });
            let &(ab, c, j) = next.expect("an endgame has a next position");
            self.path.push(j);
            pos ^= ab ^ c;
        }
    }
}

/// A play from every hole but `vacancy` to one man on `finish` (board jump indices in
/// order), within the tuning's nodes; Exhausted when a variant has shown that none exists;
/// Budget when the nodes ran out, and on a board of more than 64 holes.
pub fn find(board: &PegBoard, vacancy: usize, finish: usize, tuning: &Tuning) -> (Found, Spent) {
    let mut spent = Spent::default();
    let Ok(bits) = Bits::new(board) else {
        return (Found::Budget, spent);
    };
    let shared = Shared::new(board, bits);
    let sides = if finish == vacancy {
        vec![finish]
    } else {
        vec![finish, vacancy]
    };
    let ends: Vec<Endgames> = sides
        .iter()
        .map(|&h| Endgames::new(board, &shared.bits, h, tuning.endgame))
        .collect();
    let variants = variants(&shared, vacancy, finish, &ends);
    let mut failed = [Positions::default(), Positions::default()];
    spent.variants = variants.len();
    for round in 0.. {
        for v in variants.iter() {
            let slice = (tuning.first_slice << round).min(tuning.nodes - spent.nodes);
            let mut turn = Turn {
                shared: &shared,
                v,
                failed: &mut failed[v.dual as usize],
                path: Vec::new(),
                met: 0,
                nodes: 0,
                budget: slice,
            };
            let found = turn.dfs(turn.v.start, turn.v.start.count_ones());
            spent.nodes += turn.nodes.min(slice);
            match found {
                Some(true) => {
                    turn.finish_play();
                    return (Found::Play(played(&shared, &turn)), spent);
                }
                Some(false) => return (Found::Exhausted, spent),
                None if spent.nodes >= tuning.nodes => return (Found::Budget, spent),
                None => {}
            }
        }
    }
    unreachable!("the rounds end when the nodes are spent")
}

/// The variants: the problem, then its dual, then each mapped by every other symmetry, each
/// (vacancy, finish) once.
fn variants<'a>(
    shared: &Shared,
    vacancy: usize,
    finish: usize,
    ends: &'a [Endgames],
) -> Vec<Variant<'a>> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for (g, perm) in shared.perms.iter().enumerate() {
        for dual in [false, true] {
            let (a, b) = if dual {
                (finish, vacancy)
            } else {
                (vacancy, finish)
            };
            let (a, b) = (perm[a], perm[b]);
            if seen.contains(&(a, b)) {
                continue;
            }
            seen.push((a, b));
            out.push(Variant {
                back: shared.inverse[g],
                dual,
                start: shared.bits.full & !(1 << a),
                end: &ends[dual as usize % ends.len()],
                keyers: keyers(
                    shared,
                    shared.inverse[g],
                    if dual { vacancy } else { finish },
                ),
                pagodas: shared.pagodas.iter().map(|p| Pagoda::new(p, b)).collect(),
            });
        }
    }
    out
}

/// A variant's play as the problem's: each jump mapped back, and a dual's reversed.
fn played(shared: &Shared, turn: &Turn) -> Vec<usize> {
    let back = &shared.images[turn.v.back];
    let mut play: Vec<usize> = turn.path.iter().map(|&j| back[j]).collect();
    if turn.v.dual {
        play.reverse();
    }
    play
}

/// The symmetries h∘back, h fixing `target` (the problem's finish, or its vacancy for a
/// dual): a variant's position P taken back to the problem and then by each h.
fn keyers(shared: &Shared, back: usize, target: usize) -> Vec<usize> {
    let perms = &shared.perms;
    let stab = (0..perms.len()).filter(|&h| perms[h][target] == target);
    stab.map(|h| {
        let composed: Vec<usize> = perms[back].iter().map(|&x| perms[h][x]).collect();
        perms.iter().position(|p| *p == composed).expect("a group")
    })
    .collect()
}
