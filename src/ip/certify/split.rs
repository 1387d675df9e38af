//! A split on the farthest man, for programs our branch and bound does not close. The
//! start cells come in groups of one exponent, the farthest group holding men first
//! ([`crate::ip::evidence::groups`]); in that order c1, c2, … the chain
//! x_c1 >= 1 | (x_c1 <= 0, x_c2 >= 1) | … covers the program's box, child i saying "c_i
//! holds the first man in this order". The chain ends after the first group whose cells,
//! all empty, leave an LP-infeasible box (a case: its farthest class's row Σ x = n_e >= 1;
//! a direct program: too little weight left), a Farkas leaf. Each child gets a certificate
//! within a small budget, is split again the same way (the second man, …) while `depth`
//! allows, or is left to the solvers ([`Tree::Solver`]). The children are smaller programs:
//! the checker re-solves them in parallel, and CBC, asked for a second opinion, gets them
//! one by one instead of the whole (hexagonal 7's 143-man direct round: 231 children, all
//! but 15 LP-infeasible, the 15 within 2 s in HiGHS, where CBC found no verdict on the whole
//! in 1200 s).

use super::{farkas, tree};
use crate::proof::farkas::{Farkas, LinearSystem, Tree};
use std::time::Instant;

/// Nodes and seconds of branch and bound per child.
const CHILD_NODES: usize = 60;
const CHILD_SECONDS: f64 = 5.0;

/// How far a split goes: splits within splits, and a deadline for the whole.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// 1: the program's children only; 2: their children too; …
    pub depth: usize,
    pub deadline: Option<Instant>,
}

impl Budget {
    /// The program's children only, with no deadline.
    pub const ONE_LEVEL: Budget = Budget {
        depth: 1,
        deadline: None,
    };

    fn out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The tree of the split, when its chain ends in an LP-infeasible box; the second value
/// counts the leaves left to the solvers.
pub fn split(sys: &LinearSystem, groups: &[Vec<usize>], budget: Budget) -> Option<(Tree, usize)> {
    let boxes = boxes(sys, groups)?;
    let mut left = 0;
    let children: Vec<Option<Tree>> = boxes
        .children
        .iter()
        .map(|child| {
            let t = certify_child(child, groups, budget);
            left += t.as_ref().map_or(1, |(_, l)| *l);
            t.map(|(t, _)| t)
        })
        .collect();
    Some((boxes.chain(children), left))
}

/// A child's certificate: Farkas, a split one level deeper, or a small tree; with the
/// leaves it leaves to the solvers. None: the whole child is left to them.
fn certify_child(
    child: &LinearSystem,
    groups: &[Vec<usize>],
    budget: Budget,
) -> Option<(Tree, usize)> {
    if let Some(f) = farkas(child) {
        return Some((Tree::Leaf(f), 0));
    }
    if budget.out() {
        return None;
    }
    if budget.depth > 1
        && let Some((t, left)) = split(
            child,
            groups,
            Budget {
                depth: budget.depth - 1,
                ..budget
            },
        )
    {
        return Some((t, left));
    }
    tree(child, CHILD_NODES, Some(CHILD_SECONDS)).map(|t| (t, 0))
}

/// Branch-and-bound budget of [`refine`]: nodes for each leaf, and CPU seconds that the
/// leaves share equally (so that a tree of many leaves is not retried for days).
#[derive(Clone, Copy, Debug)]
pub struct LeafBudget {
    pub nodes: usize,
    pub seconds: f64,
}

/// A tree whose leaves left to the solvers ([`Tree::Solver`]) are tried again: each leaf's
/// box (its system as [`farkas::check_tree_leaving`] returns it, in the walk's order)
/// gets Farkas multipliers, a tree within `leaf`, or a split on the next man while
/// `budget.depth` allows. With the new tree, the number of leaves the tree left to the
/// solvers and the number it still leaves to them. None when the tree does not check.
pub fn refine(
    sys: &LinearSystem,
    tree: &Tree,
    groups: &[Vec<usize>],
    (budget, mut leaf): (Budget, LeafBudget),
) -> Option<(Tree, usize, usize)> {
    let leaves = crate::proof::farkas::check_tree_leaving(sys, tree).ok()?;
    leaf.seconds /= leaves.len().max(1) as f64;
    let mut left = 0;
    let mut found = leaves.iter().map(|box_| {
        let t = refine_leaf(box_, groups, (budget, leaf));
        left += t.as_ref().map_or(1, |(_, l)| *l);
        t.map(|(t, _)| t)
    });
    let tree = fill(tree, &mut found);
    drop(found);
    Some((tree, leaves.len(), left))
}

/// One leaf of [`refine`]: Farkas, a tree, else a split (None: still the solvers').
fn refine_leaf(
    box_: &LinearSystem,
    groups: &[Vec<usize>],
    (budget, leaf): (Budget, LeafBudget),
) -> Option<(Tree, usize)> {
    if let Some(f) = farkas(box_) {
        return Some((Tree::Leaf(f), 0));
    }
    if budget.out() {
        return None;
    }
    if let Some(t) = tree(box_, leaf.nodes, Some(leaf.seconds)) {
        return Some((t, 0));
    }
    (budget.depth > 0 && !budget.out())
        .then(|| split(box_, groups, budget))
        .flatten()
}

/// `tree` with its solver leaves replaced, in the walk's order (below, then above), by
/// what `found` gives (None keeps the leaf).
fn fill(tree: &Tree, found: &mut impl Iterator<Item = Option<Tree>>) -> Tree {
    match tree {
        Tree::Solver => found.next().flatten().unwrap_or(Tree::Solver),
        Tree::Leaf(_) | Tree::Empty => tree.clone(),
        Tree::Split {
            col,
            value,
            below,
            above,
        } => {
            let below = Box::new(fill(below, found));
            Tree::Split {
                col: *col,
                value: *value,
                below,
                above: Box::new(fill(above, found)),
            }
        }
        Tree::SplitRow {
            coefs,
            value,
            below,
            above,
        } => {
            let below = Box::new(fill(below, found));
            Tree::SplitRow {
                coefs: coefs.clone(),
                value: *value,
                below,
                above: Box::new(fill(above, found)),
            }
        }
        Tree::Cut { cut, then } => Tree::Cut {
            cut: cut.clone(),
            then: Box::new(fill(then, found)),
        },
    }
}

/// The boxes of a split: child i fixes a man on `cells[i]` and none on the cells before
/// it; `last` has none on any of them and is empty by `empty`. Together they cover the
/// system's box.
pub struct Boxes {
    pub cells: Vec<usize>,
    pub children: Vec<LinearSystem>,
    pub last: LinearSystem,
    pub empty: Farkas,
}

/// The split's boxes, when the chain over `groups` reaches an LP-infeasible box. Cells
/// whose column is already fixed (a split within a split) are passed over.
pub fn boxes(sys: &LinearSystem, groups: &[Vec<usize>]) -> Option<Boxes> {
    let mut last = sys.clone();
    let (mut cells, mut children) = (Vec::new(), Vec::new());
    for group in groups {
        for &c in group {
            if last.cols[c] != (0, Some(1)) {
                continue;
            }
            let mut child = last.clone();
            child.cols[c] = (1, Some(1));
            children.push(child);
            cells.push(c);
            last.cols[c].1 = Some(0);
        }
        if let Some(empty) = farkas(&last) {
            return Some(Boxes {
                cells,
                children,
                last,
                empty,
            });
        }
    }
    None
}

impl Boxes {
    /// The split's tree from each child's certificate (None: left to the solvers) and the
    /// last box's: the chain x_c1 >= 1 | (x_c1 <= 0, x_c2 >= 1) | … | (every x_c <= 0).
    pub fn chain(&self, children: Vec<Option<Tree>>) -> Tree {
        let mut chain = Tree::Leaf(self.empty.clone());
        for (&c, child) in self.cells.iter().zip(children).rev() {
            chain = Tree::Split {
                col: c,
                value: 0,
                below: Box::new(chain),
                above: Box::new(child.unwrap_or(Tree::Solver)),
            };
        }
        chain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::{Row, check_tree, check_tree_leaving};

    /// x0 + x1 + x2 = 1 (one man), and 2·x_i = 1 for the man's cell: every child is
    /// infeasible by its LP, and so is the box with no man.
    #[test]
    fn a_chain_on_the_first_man_is_split_and_checks() {
        let eq = |coefs: Vec<(usize, i64)>, b| Row {
            coefs,
            lo: Some(b),
            hi: Some(b),
        };
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 3],
            rows: vec![
                eq(vec![(0, 1), (1, 1), (2, 1)], 1),
                eq(vec![(0, 2), (1, 2), (2, 2)], 1),
            ],
        };
        let (t, left) = split(&sys, &[vec![0, 1, 2]], Budget::ONE_LEVEL).expect("a split");
        assert_eq!(left, 0);
        assert_eq!(check_tree(&sys, &t), Ok(()));
        let Tree::Split { col, above, .. } = &t else {
            panic!("{t:?}")
        };
        assert_eq!(*col, 0);
        // A child left to the solvers comes back as its own box.
        let mut t2 = t.clone();
        if let Tree::Split { above, .. } = &mut t2 {
            **above = Tree::Solver;
        }
        assert!(
            check_tree(&sys, &t2)
                .unwrap_err()
                .contains("left to the solvers")
        );
        let leaves = check_tree_leaving(&sys, &t2).unwrap();
        assert_eq!(leaves.len(), 1);
        assert_eq!(leaves[0].cols[0], (1, Some(1)));
        assert!(matches!(**above, Tree::Leaf(_)));
        // Tried again, the solvers' leaf gets its certificate back, in its place.
        let (t3, before, left) = refine(&sys, &t2, &[vec![0, 1, 2]], small(0)).unwrap();
        assert_eq!((before, left), (1, 0));
        assert_eq!(check_tree(&sys, &t3), Ok(()));
    }

    /// A refinement's small budgets: splits to `depth`, 10 nodes and a second a leaf.
    fn small(depth: usize) -> (Budget, LeafBudget) {
        let budget = Budget {
            depth,
            deadline: None,
        };
        let leaf = LeafBudget {
            nodes: 10,
            seconds: 1.0,
        };
        (budget, leaf)
    }

    /// A leaf the solvers keep (its box has an integer point) stays a solver leaf.
    #[test]
    fn a_leaf_with_a_solution_stays_the_solvers() {
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 2],
            rows: vec![Row {
                coefs: vec![(0, 1), (1, 1)],
                lo: Some(1),
                hi: Some(1),
            }],
        };
        let t = Tree::Split {
            col: 0,
            value: 0,
            below: Box::new(Tree::Solver),
            above: Box::new(Tree::Solver),
        };
        let (t2, before, left) = refine(&sys, &t, &[vec![0, 1]], small(1)).unwrap();
        assert_eq!((before, left), (2, 2));
        assert_eq!(check_tree_leaving(&sys, &t2).unwrap().len(), 2);
    }

    /// One man among x0..x3, the groups {x0, x1} (farthest) and {x2, x3}: the box with
    /// none of the first group is still feasible, so the chain goes on through the second,
    /// and its four children (each with a solution) are left to the solvers.
    #[test]
    fn a_chain_goes_on_until_its_box_is_empty() {
        let sys = LinearSystem {
            cols: vec![(0, Some(1)); 4],
            rows: vec![Row {
                coefs: (0..4).map(|c| (c, 1)).collect(),
                lo: Some(1),
                hi: Some(1),
            }],
        };
        let budget = Budget {
            depth: 2,
            deadline: None,
        };
        let (t, left) = split(&sys, &[vec![0, 1], vec![2, 3]], budget).expect("a split");
        assert_eq!(left, 4);
        let leaves = check_tree_leaving(&sys, &t).unwrap();
        assert_eq!(leaves.len(), 4);
        let mut first: Vec<usize> = leaves
            .iter()
            .map(|leaf| {
                let c = leaf.cols.iter().position(|&b| b == (1, Some(1))).unwrap();
                assert!((0..c).all(|b| leaf.cols[b] == (0, Some(0))));
                c
            })
            .collect();
        first.sort();
        assert_eq!(first, [0, 1, 2, 3]);
        // Columns fixed already are passed over: the box x0 = 1 has no chain left to end.
        let mut fixed = sys.clone();
        fixed.cols[0] = (1, Some(1));
        assert!(boxes(&fixed, &[vec![0, 1], vec![2, 3]]).is_none());
    }
}
