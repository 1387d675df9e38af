//! A split on the cells of a one-man class, for programs our branch and bound does not
//! close: a row Σ x_c = 1 over binary columns (an exponent class holding one man) is
//! covered by the chain x_c1 >= 1 | (x_c1 <= 0, x_c2 >= 1) | … | (every x_c <= 0). The last
//! box is empty by that row (a Farkas leaf); each other child fixes the man's cell and gets
//! a certificate within a small budget, or is left to the solvers ([`Tree::Solver`]). The
//! children are smaller programs: the checker re-solves them in parallel, and CBC, asked
//! for a second opinion, gets them one by one instead of the whole.

use super::{farkas, tree};
use crate::proof::farkas::{Farkas, LinearSystem, Tree};

/// Nodes and seconds of branch and bound per child.
const CHILD_NODES: usize = 60;
const CHILD_SECONDS: f64 = 5.0;

/// The tree of the split, when the system has a one-man row and its last box is proven
/// empty; the second value counts the children left to the solvers.
pub fn split(sys: &LinearSystem) -> Option<(Tree, usize)> {
    let boxes = boxes(sys)?;
    let last = farkas(&boxes.last)?;
    let children: Vec<Option<Tree>> = boxes
        .children
        .iter()
        .map(|child| {
            farkas(child)
                .map(Tree::Leaf)
                .or_else(|| tree(child, CHILD_NODES, Some(CHILD_SECONDS)))
        })
        .collect();
    let left = children.iter().filter(|t| t.is_none()).count();
    Some((boxes.chain(children, last), left))
}

/// The boxes of a split on a one-man class: child i fixes the man on the class's i-th
/// cell (and none on the cells before it); `last` has no man in the class, so it is empty
/// by the class's row. Together they cover the system's box.
pub struct Boxes {
    pub cells: Vec<usize>,
    pub children: Vec<LinearSystem>,
    pub last: LinearSystem,
}

/// The split's boxes, when the system has a one-man row.
pub fn boxes(sys: &LinearSystem) -> Option<Boxes> {
    let cells = one_man_row(sys)?;
    let mut last = sys.clone();
    let mut children = Vec::new();
    for &c in &cells {
        let mut child = last.clone();
        child.cols[c] = (1, Some(1));
        children.push(child);
        last.cols[c].1 = Some(0);
    }
    Some(Boxes {
        cells,
        children,
        last,
    })
}

impl Boxes {
    /// The split's tree from each child's certificate (None: left to the solvers) and the
    /// last box's: the chain x_c1 >= 1 | (x_c1 <= 0, x_c2 >= 1) | … | (every x_c <= 0).
    pub fn chain(&self, children: Vec<Option<Tree>>, last: Farkas) -> Tree {
        let mut chain = Tree::Leaf(last);
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

/// The columns of the last row Σ x_c = 1 whose columns are all binary (with the checker's
/// row order, the highest exponent class that holds one man).
fn one_man_row(sys: &LinearSystem) -> Option<Vec<usize>> {
    sys.rows
        .iter()
        .rev()
        .find(|r| {
            r.lo == Some(1)
                && r.hi == Some(1)
                && r.coefs.len() > 1
                && r.coefs
                    .iter()
                    .all(|&(c, a)| a == 1 && sys.cols[c] == (0, Some(1)))
        })
        .map(|r| r.coefs.iter().map(|&(c, _)| c).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::farkas::{Row, check_tree, check_tree_leaving};

    /// x0 + x1 + x2 = 1 (one man), and 2·x_i = 1 for the man's cell: every child is
    /// infeasible, the first two by their LPs.
    #[test]
    fn a_one_man_row_is_split_and_checks() {
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
        let (t, left) = split(&sys).expect("a split");
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
    }
}
