//! The branch and bound behind [`tree`]: depth first over phase-1 LPs, each node closed by
//! a checked Farkas certificate or split, on a column (x_j <= v or x_j >= v + 1) or on one
//! of a few candidate rows a·x ([`super::parity`]), as [`Tree::SplitRow`].
//!
//! One HiGHS instance is kept for the whole search: the system's rows, then the candidate
//! rows with no bounds (they only name a·x), then the phase-1 violation columns. A node
//! changes column and row bounds in place, so each LP starts from the last basis. A split
//! on a row bounds that row in the LP and appends it to the node's system, numbered as the
//! checker numbers it; the LP's dual on a bounded candidate row becomes the multiplier of
//! the appended row that set that bound. A fresh instance on the node's system is the
//! fallback when the kept one gives no verified certificate.
//!
//! The split is chosen by strong branching: candidate rows with a fractional value, then
//! fractional columns ([`candidates`]), the children's LPs re-solved on the kept instance;
//! a split whose children are both LP-infeasible is taken at once.

use super::{Highs, Lp, Method, Node, TOLERANCE, attempt, integerize};
use crate::ip::solve::thread_seconds;
use crate::proof::farkas::{self, LinearSystem, MAX_TREE_DEPTH, Row, Tree};
use highs_sys::HighsInt;
use std::time::{Duration, Instant};

/// Columns scored by strong branching at each node (every fractional candidate row is).
const STRONG: usize = 4;

/// Candidates probed at each node for a split whose children both have infeasible LPs.
const WIDE: usize = 100;

type Bounds = (Option<i64>, Option<i64>);

/// The kept phase-1 LP, and the column box and candidate-row bounds it holds.
type Warm = (Highs, Vec<(i64, Option<i64>)>, Vec<Bounds>);

/// A branch-and-bound certificate that the integer program `sys` (every column integer)
/// is infeasible, checked by [`farkas::check_tree`]; None when it visits `node_limit`
/// nodes or runs `time_limit` seconds without closing every node, or finds an integer
/// point. The seconds are CPU seconds of the calling thread, on which HiGHS solves the
/// tree's LPs: the tree's work, so that whether a tree is found does not depend on the
/// machine's load (skew 6's 45-man round needs 6.2 s; niced beside hexagonal 7 its tree
/// ran out of 60 s of wall time).
pub fn tree(sys: &LinearSystem, node_limit: usize, time_limit: Option<f64>) -> Option<Tree> {
    tree_with_stats(sys, node_limit, time_limit).0
}

/// [`tree`], and the number of nodes visited.
pub fn tree_with_stats(
    sys: &LinearSystem,
    node_limit: usize,
    time_limit: Option<f64>,
) -> (Option<Tree>, usize) {
    let aux = super::parity::rows(sys);
    let mut lp = LinearSystem {
        cols: sys.cols.clone(),
        rows: sys.rows.clone(),
    };
    lp.rows.extend(aux.iter().map(|coefs| Row {
        coefs: coefs.clone(),
        lo: None,
        hi: None,
    }));
    let at = At {
        cols: sys.cols.clone(),
        aux: vec![(None, None); aux.len()],
        from: vec![(None, None); aux.len()],
        added: Vec::new(),
    };
    let mut search = Search {
        sys,
        aux: &aux,
        nodes: 0,
        node_limit,
        cpu_end: time_limit.map(|t| thread_seconds() + t),
        warm: Lp::new(&lp, &sys.cols, true)
            .load(false, Method::Primal)
            .map(|h| (h, at.cols.clone(), at.aux.clone())),
    };
    let t = search
        .node(&at, 0)
        .filter(|t| farkas::check_tree(sys, t).is_ok());
    (t, search.nodes)
}

/// Number of leaves and splits in a tree.
pub fn size(tree: &Tree) -> usize {
    match tree {
        Tree::Split { below, above, .. } | Tree::SplitRow { below, above, .. } => {
            1 + size(below) + size(above)
        }
        Tree::Cut { then, .. } => 1 + size(then),
        _ => 1,
    }
}

/// What a split divides: a column, or a candidate row (by its index among them).
#[derive(Clone, Copy, Debug)]
enum Branch {
    Col(usize),
    Aux(usize),
}

/// A node: its column box, the bounds its path put on the candidate rows, and the rows
/// its splits on rows appended (the checker's numbering: after the system's rows).
#[derive(Clone)]
struct At {
    cols: Vec<(i64, Option<i64>)>,
    aux: Vec<Bounds>,
    /// For each candidate row, which appended row gives its lower and its upper bound.
    from: Vec<(Option<usize>, Option<usize>)>,
    added: Vec<Row>,
}

impl At {
    /// The child on one side of a split at `value` (`above`: >= value + 1, else <= value).
    fn child(&self, b: Branch, value: i64, above: bool, aux: &[Vec<(usize, i64)>]) -> At {
        let mut at = self.clone();
        match b {
            Branch::Col(j) => {
                let (l, u) = &mut at.cols[j];
                if above {
                    *l = (*l).max(value + 1);
                } else {
                    *u = Some(u.map_or(value, |u| u.min(value)));
                }
            }
            Branch::Aux(k) => {
                let n = at.added.len();
                let (lo, hi) = if above {
                    (Some(value + 1), None)
                } else {
                    (None, Some(value))
                };
                at.added.push(Row {
                    coefs: aux[k].clone(),
                    lo,
                    hi,
                });
                let (l, u) = &mut at.aux[k];
                if above && l.is_none_or(|l| value + 1 > l) {
                    (*l, at.from[k].0) = (lo, Some(n));
                }
                if !above && u.is_none_or(|u| value < u) {
                    (*u, at.from[k].1) = (hi, Some(n));
                }
            }
        }
        at
    }

    /// The node's system: the system's rows, then the appended ones.
    fn system(&self, sys: &LinearSystem) -> LinearSystem {
        let mut rows = sys.rows.clone();
        rows.extend(self.added.iter().cloned());
        LinearSystem {
            cols: sys.cols.clone(),
            rows,
        }
    }

    /// The LP's row duals (system rows, then candidate rows) as multipliers on the node's
    /// system: a candidate row's dual goes to the appended row that set the bound it uses.
    fn multipliers(&self, sys: &LinearSystem, dual: &[f64]) -> Vec<f64> {
        let m = sys.rows.len();
        let mut y = dual[..m].to_vec();
        y.resize(m + self.added.len(), 0.0);
        for (k, &d) in dual[m..].iter().enumerate().take(self.aux.len()) {
            let row = if d > 0.0 {
                self.from[k].0
            } else {
                self.from[k].1
            };
            if let Some(p) = row {
                y[m + p] += d;
            }
        }
        y
    }
}

struct Search<'a> {
    sys: &'a LinearSystem,
    aux: &'a [Vec<(usize, i64)>],
    nodes: usize,
    node_limit: usize,
    /// When the tree's CPU budget ends, in [`thread_seconds`].
    cpu_end: Option<f64>,
    warm: Option<Warm>,
}

impl Search<'_> {
    /// A wall-clock deadline for the next LP: the CPU budget left, from now (HiGHS's own
    /// limit is wall time; on a busy machine it only cuts an LP short near the budget's end).
    fn deadline(&self) -> Option<Instant> {
        self.cpu_end
            .map(|e| Instant::now() + Duration::from_secs_f64((e - thread_seconds()).max(0.0)))
    }

    /// The kept instance with its bounds brought to the node's.
    fn sync(&mut self, at: &At) -> Option<&Highs> {
        let m = self.sys.rows.len();
        let (h, cols, aux) = self.warm.as_mut()?;
        let inf = |b: Option<i64>, side: f64| b.map_or(side, |v| v as f64);
        for (j, (c, held)) in at.cols.iter().zip(cols.iter_mut()).enumerate() {
            if c != held {
                // SAFETY: a live instance; j is one of its columns.
                unsafe {
                    highs_sys::Highs_changeColBounds(
                        h.0,
                        j as HighsInt,
                        c.0 as f64,
                        inf(c.1, f64::INFINITY),
                    )
                };
                *held = *c;
            }
        }
        for (k, (r, held)) in at.aux.iter().zip(aux.iter_mut()).enumerate() {
            if r != held {
                let (lo, hi) = (inf(r.0, f64::NEG_INFINITY), inf(r.1, f64::INFINITY));
                // SAFETY: a live instance; m + k is one of its rows.
                unsafe { highs_sys::Highs_changeRowBounds(h.0, (m + k) as HighsInt, lo, hi) };
                *held = *r;
            }
        }
        Some(h)
    }

    /// The node's LP on the kept instance: Feasible, or a Proof if its duals round to a
    /// checked certificate; None otherwise (a fresh instance then tries harder).
    fn attempt_warm(&mut self, at: &At) -> Option<Node> {
        let deadline = self.deadline();
        let h = self.sync(at)?;
        let ok = h.run(deadline);
        // The first solve is from scratch (primal simplex); the rest re-solve after the
        // bounds changed (dual simplex).
        h.set_int("simplex_strategy", 1);
        if !ok {
            return None;
        }
        let p = h.phase1(at.cols.len())?;
        if p.objective <= TOLERANCE {
            return Some(Node::Feasible(p.x));
        }
        let y = at.multipliers(self.sys, &p.dual);
        integerize(&at.system(self.sys), &at.cols, &y).map(Node::Proof)
    }

    /// The phase-1 optimum at a node (0 when HiGHS gives none).
    fn probe(&mut self, at: &At) -> f64 {
        let deadline = self.deadline();
        let Some(h) = self.sync(at) else {
            return 0.0;
        };
        if !h.run(deadline) {
            return 0.0;
        }
        // SAFETY: a live, solved instance.
        unsafe {
            if highs_sys::Highs_getModelStatus(h.0) != highs_sys::kHighsModelStatusOptimal {
                return 0.0;
            }
            highs_sys::Highs_getObjectiveValue(h.0)
        }
    }

    /// The split to make, and its value. Candidates are probed in order ([`candidates`]):
    /// the first of the first [`WIDE`] whose children both have infeasible LPs is taken at
    /// once (beyond the scored ones the upper child is probed only when the lower one is
    /// infeasible); failing that, the best of the scored ones (the candidate rows and the
    /// first [`STRONG`] columns) by (children with infeasible LPs, product of the
    /// children's phase-1 optima).
    fn choose(&mut self, at: &At, x: &[f64]) -> Option<(Branch, i64)> {
        let (cands, rows) = candidates(at, x, self.aux);
        let strong = rows + STRONG;
        if cands.len() <= 1 || self.warm.is_none() {
            return cands.first().copied();
        }
        let mut best: Option<((u8, f64), (Branch, i64))> = None;
        for (rank, &(b, value)) in cands.iter().enumerate().take(WIDE.max(strong)) {
            let below = self.probe(&at.child(b, value, false, self.aux));
            if rank >= strong && below <= TOLERANCE {
                continue;
            }
            let above = self.probe(&at.child(b, value, true, self.aux));
            if below > TOLERANCE && above > TOLERANCE {
                return Some((b, value));
            }
            if rank >= strong {
                continue;
            }
            let closed = (below > TOLERANCE) as u8 + (above > TOLERANCE) as u8;
            let score = (closed, below.max(1e-6) * above.max(1e-6));
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, (b, value)));
            }
        }
        best.map(|b| b.1).or(cands.first().copied())
    }

    fn node(&mut self, at: &At, depth: usize) -> Option<Tree> {
        if self.nodes >= self.node_limit
            || depth >= MAX_TREE_DEPTH
            || self.cpu_end.is_some_and(|e| thread_seconds() >= e)
        {
            return None;
        }
        self.nodes += 1;
        let node = match self.attempt_warm(at) {
            Some(node) => node,
            None => attempt(&at.system(self.sys), &at.cols, self.deadline()),
        };
        let x = match node {
            Node::Proof(cert) => return Some(Tree::Leaf(cert)),
            Node::Feasible(x) | Node::Stuck(Some(x)) => x,
            Node::Stuck(None) => return None,
        };
        let (b, value) = self.choose(at, &x)?;
        let below = Box::new(self.node(&at.child(b, value, false, self.aux), depth + 1)?);
        let above = Box::new(self.node(&at.child(b, value, true, self.aux), depth + 1)?);
        Some(match b {
            Branch::Col(col) => Tree::Split {
                col,
                value,
                below,
                above,
            },
            Branch::Aux(k) => Tree::SplitRow {
                coefs: self.aux[k].clone(),
                value,
                below,
                above,
            },
        })
    }
}

/// Splits to try, best first, and how many of them are on candidate rows: the candidate
/// rows whose value a·x is fractional (the most fractional first), then the fractional
/// columns, binary ones (box [0, 1]) before the others, the most fractional first. Each
/// with its value ⌊·⌋ (within the box for a column).
fn candidates(at: &At, x: &[f64], aux: &[Vec<(usize, i64)>]) -> (Vec<(Branch, i64)>, usize) {
    let dist = |v: f64| (v - v.floor()).min(v.ceil() - v);
    let mut rows: Vec<(f64, usize, f64)> = aux
        .iter()
        .enumerate()
        .map(|(k, coefs)| (k, coefs.iter().map(|&(j, a)| a as f64 * x[j]).sum::<f64>()))
        .filter(|&(_, v)| dist(v) >= 1e-6)
        .map(|(k, v)| (dist(v), k, v))
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut cols: Vec<(bool, f64, usize)> = Vec::new();
    for (j, (&v, &(l, u))) in x.iter().zip(&at.cols).enumerate() {
        if u.is_some_and(|u| u <= l) {
            continue;
        }
        if dist(v) >= 1e-6 {
            cols.push((l == 0 && u == Some(1), dist(v), j));
        }
    }
    cols.sort_by(|a, b| {
        (b.0, b.1)
            .partial_cmp(&(a.0, a.1))
            .unwrap()
            .then(a.2.cmp(&b.2))
    });
    let n = rows.len();
    let mut out: Vec<(Branch, i64)> = rows
        .into_iter()
        .map(|(_, k, v)| (Branch::Aux(k), v.floor() as i64))
        .collect();
    out.extend(cols.into_iter().map(|(_, _, j)| {
        let (l, u) = at.cols[j];
        let hi = u.unwrap_or(i64::MAX).saturating_sub(1);
        (Branch::Col(j), (x[j].floor() as i64).clamp(l, hi))
    }));
    (out, n)
}
