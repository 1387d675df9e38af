//! The exact checks of Farkas certificates and of trees of splits.
use super::*;

fn row(coefs: &[(usize, i64)], lo: Option<i64>, hi: Option<i64>) -> Row {
    Row {
        coefs: coefs.to_vec(),
        lo,
        hi,
    }
}

fn eq(coefs: &[(usize, i64)], b: i64) -> Row {
    row(coefs, Some(b), Some(b))
}

fn farkas(m: &[(usize, i64)]) -> Farkas {
    Farkas {
        multipliers: m.to_vec(),
    }
}

/// x + y = 1, x + y >= 3 over binaries: 1·(row 1) − 1·(row 0) gives 0 >= 2.
fn two_rows() -> LinearSystem {
    LinearSystem {
        cols: vec![(0, Some(1)), (0, Some(1))],
        rows: vec![
            eq(&[(0, 1), (1, 1)], 1),
            row(&[(0, 1), (1, 1)], Some(3), None),
        ],
    }
}

#[test]
fn a_valid_certificate_is_accepted() {
    let sys = two_rows();
    assert_eq!(check(&sys, &farkas(&[(1, 1), (0, -1)])), Ok(()));
    // Scaled, and the box alone: x + y >= 3 with x, y <= 1 (max 2 < 3).
    assert_eq!(check(&sys, &farkas(&[(1, 5), (0, -5)])), Ok(()));
    assert_eq!(check(&sys, &farkas(&[(1, 1)])), Ok(()));
}

#[test]
fn tampered_certificates_are_rejected() {
    let sys = two_rows();
    // Sign flipped: row 1 has no upper bound.
    assert_eq!(
        check(&sys, &farkas(&[(1, -1)])),
        Err("row 1 used with y < 0 has no upper bound".into())
    );
    // A multiplier changed, −1 to 1 on row 0: c = (2, 2), β = 3 + 1, max c·x = 4.
    assert_eq!(
        check(&sys, &farkas(&[(1, 1), (0, 1)])),
        Err("max c·x = 4 is not below β = 4".into())
    );
    // A row dropped: −1·row0 alone gives −x − y >= −1, max 0.
    assert_eq!(
        check(&sys, &farkas(&[(0, -1)])),
        Err("max c·x = 0 is not below β = -1".into())
    );
    assert!(check(&sys, &farkas(&[])).is_err());
    assert_eq!(
        check(&sys, &farkas(&[(2, 1)])),
        Err("multiplier 0 names row 2, but the system has 2 rows".into())
    );
    assert_eq!(
        check(&sys, &farkas(&[(1, 1), (1, 1)])),
        Err("row 1 has more than one multiplier".into())
    );
    assert_eq!(
        check(&sys, &farkas(&[(1, 0)])),
        Err("row 1 has multiplier 0".into())
    );
}

#[test]
fn an_unbounded_column_with_positive_coefficient_is_named() {
    let sys = LinearSystem {
        cols: vec![(0, Some(1)), (0, None)],
        rows: vec![row(&[(0, 1), (1, 3)], Some(5), None)],
    };
    assert_eq!(
        check(&sys, &farkas(&[(0, 1)])),
        Err("column 1 has c_j = 3 > 0 and no upper bound".into())
    );
    let bad = LinearSystem {
        cols: vec![(0, Some(1))],
        rows: vec![row(&[(3, 1)], Some(5), None)],
    };
    assert_eq!(
        check(&bad, &farkas(&[(0, 1)])),
        Err("row 0 names column 3, but the system has 1 columns".into())
    );
}

#[test]
fn overflow_is_an_error_not_a_wrap() {
    let sys = LinearSystem {
        cols: vec![(0, Some(i64::MAX))],
        rows: vec![
            row(&[(0, i64::MAX)], None, Some(i64::MIN)),
            row(&[(0, i64::MAX)], None, Some(i64::MIN)),
            row(&[(0, i64::MAX)], None, Some(i64::MIN)),
        ],
    };
    let e = check(
        &sys,
        &farkas(&[(0, i64::MIN), (1, i64::MIN), (2, i64::MIN)]),
    );
    assert!(e.unwrap_err().contains("overflow"));
}

/// x1 + x2 = 1, x1 − x2 = 0 over binaries: the LP has x = (1/2, 1/2), the IP nothing.
fn half() -> LinearSystem {
    LinearSystem {
        cols: vec![(0, Some(1)), (0, Some(1))],
        rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
    }
}

fn split(col: usize, value: i64, below: Tree, above: Tree) -> Tree {
    Tree::Split {
        col,
        value,
        below: Box::new(below),
        above: Box::new(above),
    }
}

#[test]
fn a_split_proves_what_no_farkas_certificate_can() {
    let sys = half();
    // The LP relaxation is feasible, so no multipliers work on the whole box.
    for m in [
        [(0, 1), (1, 1)],
        [(0, 1), (1, -1)],
        [(0, -1), (1, 1)],
        [(0, 2), (1, 1)],
    ] {
        assert!(check(&sys, &farkas(&m)).is_err());
    }
    // x0 <= 0: y = (1, 1) gives 2·x0 >= 1 (c = (2, 0), β = 1), and max c·x = 0 < 1.
    let below = Tree::Leaf(farkas(&[(0, 1), (1, 1)]));
    // x0 >= 1: y = (−1, −1) gives −2·x0 >= −1, and max c·x = −2 < −1.
    let above = Tree::Leaf(farkas(&[(0, -1), (1, -1)]));
    let t = split(0, 0, below.clone(), above.clone());
    assert_eq!(check_tree(&sys, &t), Ok(()));
    // Swapped leaves fail, and the error names the path.
    let bad = split(0, 0, above.clone(), below.clone());
    let e = check_tree(&sys, &bad).unwrap_err();
    assert!(e.starts_with("leaf below x0<=0: max c·x"), "{e}");
    // A nested path is named in full.
    let nested = split(1, 0, t.clone(), split(0, 0, below.clone(), below.clone()));
    let e = check_tree(&sys, &nested).unwrap_err();
    assert!(
        e.starts_with("leaf above x1>=1, above x0>=1: max c·x"),
        "{e}"
    );
    // A leaf at the root is a plain Farkas check.
    let e = check_tree(&sys, &below).unwrap_err();
    assert!(e.starts_with("leaf at the root: "), "{e}");
}

#[test]
fn two_x_equals_one_needs_a_split() {
    // 2x = 1, x in {0, 1}.
    let sys = LinearSystem {
        cols: vec![(0, Some(1))],
        rows: vec![eq(&[(0, 2)], 1)],
    };
    assert!(check(&sys, &farkas(&[(0, 1)])).is_err());
    assert!(check(&sys, &farkas(&[(0, -1)])).is_err());
    let t = split(
        0,
        0,
        Tree::Leaf(farkas(&[(0, 1)])),
        Tree::Leaf(farkas(&[(0, -1)])),
    );
    assert_eq!(check_tree(&sys, &t), Ok(()));
}

#[test]
fn empty_leaves_need_an_empty_box() {
    let sys = half();
    // x0 <= 0 then x0 >= 1 inside it: empty. Its sibling is a real leaf.
    let below = Tree::Leaf(farkas(&[(0, 1), (1, 1)]));
    let above = Tree::Leaf(farkas(&[(0, -1), (1, -1)]));
    let t = split(0, 0, split(0, 0, below.clone(), Tree::Empty), above.clone());
    assert_eq!(check_tree(&sys, &t), Ok(()));
    let t = split(0, 0, Tree::Empty, above);
    assert_eq!(
        check_tree(&sys, &t),
        Err("empty leaf below x0<=0: every column's box is nonempty".into())
    );
    assert!(check_tree(&sys, &Tree::Empty).is_err());
    let t = split(5, 0, below.clone(), below);
    assert!(check_tree(&sys, &t).unwrap_err().contains("column 5"));
}

#[test]
fn depth_is_bounded() {
    let sys = half();
    let mut t = Tree::Empty;
    for _ in 0..=MAX_TREE_DEPTH {
        t = split(0, 5, t, Tree::Empty);
    }
    let e = check_tree(&sys, &t).unwrap_err();
    assert_eq!(
        e,
        "split below x0<=5, below x0<=5, below x0<=5, …: the tree is deeper than 1000"
    );
}

/// 2x + 2y = 1 over x, y in [−3, 3]: the LP relaxation is feasible, the split on the
/// row x + y (<= 0 or >= 1) closes it at once.
fn twice() -> LinearSystem {
    LinearSystem {
        cols: vec![(-3, Some(3)); 2],
        rows: vec![eq(&[(0, 2), (1, 2)], 1)],
    }
}

fn split_row(coefs: &[(usize, i64)], value: i64, below: Tree, above: Tree) -> Tree {
    Tree::SplitRow {
        coefs: coefs.to_vec(),
        value,
        below: Box::new(below),
        above: Box::new(above),
    }
}

#[test]
fn a_split_on_a_row_adds_that_row_to_each_side() {
    let sys = twice();
    assert!(check(&sys, &farkas(&[(0, 1)])).is_err());
    // Below: 2x + 2y >= 1 and −2(x + y) >= 0 sum to 0 >= 1. Above: −(2x + 2y) >= −1
    // and 2(x + y) >= 2 sum to 0 >= 1.
    let below = Tree::Leaf(farkas(&[(0, 1), (1, -2)]));
    let above = Tree::Leaf(farkas(&[(0, -1), (1, 2)]));
    let t = split_row(&[(0, 1), (1, 1)], 0, below.clone(), above.clone());
    assert_eq!(check_tree(&sys, &t), Ok(()));
    // Nested: the inner split's row is row 2; the outer one's row 1 stays usable.
    let inner = split_row(&[(0, 1)], 7, below.clone(), Tree::Leaf(farkas(&[(2, 1)])));
    let t = split_row(&[(0, 1), (1, 1)], 0, inner, above.clone());
    assert_eq!(check_tree(&sys, &t), Ok(()));
    // With a split on a column too.
    let t = split(0, 0, t.clone(), t);
    assert_eq!(check_tree(&sys, &t), Ok(()));
}

#[test]
fn tampered_splits_on_rows_are_rejected() {
    let sys = twice();
    let below = Tree::Leaf(farkas(&[(0, 1), (1, -2)]));
    let above = Tree::Leaf(farkas(&[(0, -1), (1, 2)]));
    // The value moved: x + y <= 1 and x + y >= 2 leave x + y = 1/2 on the low side.
    let t = split_row(&[(0, 1), (1, 1)], 1, below.clone(), above.clone());
    assert_eq!(
        check_tree(&sys, &t),
        Err("leaf below row1<=1: max c·x = 0 is not below β = -1".into())
    );
    // A coefficient changed: the sum no longer cancels.
    let t = split_row(&[(0, 1), (1, 2)], 0, below.clone(), above.clone());
    let e = check_tree(&sys, &t).unwrap_err();
    assert!(e.starts_with("leaf below row1<=0: max c·x = 6"), "{e}");
    // The leaves swapped: the added row has no lower bound below, no upper one above.
    let t = split_row(&[(0, 1), (1, 1)], 0, above.clone(), below.clone());
    assert_eq!(
        check_tree(&sys, &t),
        Err("leaf below row1<=0: row 1 used with y > 0 has no lower bound".into())
    );
    // A row of another path, or of no split, is not there.
    assert_eq!(
        check_tree(&sys, &below),
        Err("leaf at the root: multiplier 1 names row 1, but the system has 1 rows".into())
    );
    let t = split_row(
        &[(0, 1), (1, 1)],
        0,
        split(0, 0, below.clone(), Tree::Empty),
        above.clone(),
    );
    assert_eq!(
        check_tree(&sys, &t),
        Err("empty leaf below row1<=0, above x0>=1: every column's box is nonempty".into())
    );
    let t = split_row(&[(5, 1)], 0, below.clone(), above.clone());
    assert_eq!(
        check_tree(&sys, &t),
        Err("split on a row at the root: column 5, but the system has 2 columns".into())
    );
    let t = split_row(&[(0, 1)], i64::MAX, below, above);
    assert!(check_tree(&sys, &t).unwrap_err().contains("no successor"));
}

#[test]
fn splits_on_rows_count_toward_the_depth() {
    let sys = twice();
    let mut t = Tree::Empty;
    for _ in 0..=MAX_TREE_DEPTH {
        t = split_row(&[(0, 1)], 5, t, Tree::Empty);
    }
    let e = check_tree(&sys, &t).unwrap_err();
    assert!(e.ends_with("the tree is deeper than 1000"), "{e}");
}

#[test]
fn trees_survive_json() {
    let t = split(0, 0, Tree::Leaf(farkas(&[(0, 1), (1, 1)])), Tree::Empty);
    let s = serde_json::to_string(&t).unwrap();
    assert_eq!(serde_json::from_str::<Tree>(&s).unwrap(), t);
    // The form written before splits on rows existed still reads.
    let old =
        r#"{"split":{"col":0,"value":0,"below":{"leaf":{"multipliers":[[0,1]]}},"above":"empty"}}"#;
    assert!(matches!(
        serde_json::from_str::<Tree>(old),
        Ok(Tree::Split { .. })
    ));
    let t = split_row(&[(0, 1), (1, 1)], 0, Tree::Empty, Tree::Empty);
    let s = serde_json::to_string(&t).unwrap();
    assert!(
        s.starts_with(r#"{"split_row":{"coefs":[[0,1],[1,1]],"value":0,"#),
        "{s}"
    );
    assert_eq!(serde_json::from_str::<Tree>(&s).unwrap(), t);
}
