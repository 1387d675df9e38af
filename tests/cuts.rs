//! Certificate trees with Chvátal–Gomory cuts ([`solarmy::proof::cut`]): the checker accepts
//! a valid one and rejects tampered ones (a multiplier changed, a divisor that does not
//! divide, a side the row does not have, a cut not on the leaf's path), naming the node's
//! path and the cut; and older trees, without cuts, still read and check.

mod common;
use solarmy::proof::cut::{Cut, derive};
use solarmy::proof::farkas::{Farkas, LinearSystem, Row, Tree, check_tree, leaves_to_solvers};

fn eq(coefs: &[(usize, i64)], b: i64) -> Row {
    Row {
        coefs: coefs.to_vec(),
        lo: Some(b),
        hi: Some(b),
    }
}

/// x0 + x1 = 1, x0 − x1 = 0 over binaries: the LP has x = (1/2, 1/2), the IP nothing.
fn half() -> LinearSystem {
    LinearSystem {
        cols: vec![(0, Some(1)), (0, Some(1))],
        rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
    }
}

fn cut(multipliers: &[(usize, i64)], bounds: &[(usize, i64)], divisor: i64, then: Tree) -> Tree {
    Tree::Cut {
        cut: Cut {
            multipliers: multipliers.to_vec(),
            bounds: bounds.to_vec(),
            divisor,
        },
        then: Box::new(then),
    }
}

fn leaf(m: &[(usize, i64)]) -> Tree {
    Tree::Leaf(Farkas {
        multipliers: m.to_vec(),
    })
}

/// Row 0 plus row 1 is 2·x0 = 1: halved and rounded, x0 >= 1 (row 2) and −x0 >= 0 (row 3),
/// which sum to 0 >= 1.
fn two_cuts() -> Tree {
    cut(
        &[(0, 1), (1, 1)],
        &[],
        2,
        cut(&[(0, -1), (1, -1)], &[], 2, leaf(&[(2, 1), (3, 1)])),
    )
}

#[test]
fn a_tree_of_cuts_closes_what_its_lp_cannot() {
    let sys = half();
    assert!(
        solarmy::proof::farkas::check(
            &sys,
            &Farkas {
                multipliers: vec![(0, 1), (1, 1)]
            }
        )
        .is_err()
    );
    assert_eq!(check_tree(&sys, &two_cuts()), Ok(()));
    assert!(!leaves_to_solvers(&two_cuts()));
    // The rows derived: x0 >= ⌈1/2⌉ and −x0 >= ⌈−1/2⌉.
    let r = derive(
        &sys.rows,
        &sys.cols,
        &Cut {
            multipliers: vec![(0, 1), (1, 1)],
            bounds: vec![],
            divisor: 2,
        },
    );
    assert_eq!(
        r,
        Ok(Row {
            coefs: vec![(0, 1)],
            lo: Some(1),
            hi: None
        })
    );
    let r = derive(
        &sys.rows,
        &sys.cols,
        &Cut {
            multipliers: vec![(0, -1), (1, -1)],
            bounds: vec![],
            divisor: 2,
        },
    );
    assert_eq!(
        r,
        Ok(Row {
            coefs: vec![(0, -1)],
            lo: Some(0),
            hi: None
        })
    );
}

#[test]
fn bounds_make_coefficients_divisible() {
    // 2x0 + x1 = 1 over binaries, x1 >= 0 added once: 2x0 + 2x1 >= 1, halved: x0 + x1 >= 1.
    let sys = LinearSystem {
        cols: vec![(0, Some(1)), (0, Some(1))],
        rows: vec![eq(&[(0, 2), (1, 1)], 1)],
    };
    let c = Cut {
        multipliers: vec![(0, 1)],
        bounds: vec![(1, 1)],
        divisor: 2,
    };
    assert_eq!(
        derive(&sys.rows, &sys.cols, &c).unwrap(),
        Row {
            coefs: vec![(0, 1), (1, 1)],
            lo: Some(1),
            hi: None
        }
    );
    // x1 <= 1 taken once instead: 2x0 >= 0, x0 >= 0.
    let c = Cut {
        multipliers: vec![(0, 1)],
        bounds: vec![(1, -1)],
        divisor: 2,
    };
    assert_eq!(
        derive(&sys.rows, &sys.cols, &c).unwrap(),
        Row {
            coefs: vec![(0, 1)],
            lo: Some(0),
            hi: None
        }
    );
    // Bounds are the node's: below a split x1 <= 0, the upper bound taken is 0.
    let t = Tree::Split {
        col: 1,
        value: 0,
        below: Box::new(cut(&[(0, -1)], &[(1, -1)], 2, leaf(&[(1, 1)]))),
        above: Box::new(leaf(&[(0, -1)])),
    };
    // Below: −2x0 − 2x1 >= −1, halved −x0 − x1 >= 0 (row 1); with x0, x1 >= 0 it does not
    // contradict anything, so the leaf fails and names its path through the cut.
    let e = check_tree(&sys, &t).unwrap_err();
    assert!(
        e.starts_with("leaf below x1<=0, cut 1 (row 1): max c·x"),
        "{e}"
    );
}

#[test]
fn tampered_cuts_are_rejected_with_their_path() {
    let sys = half();
    // A multiplier changed: 2·row 1 makes c = (3, −1), not a multiple of 2.
    let t = cut(&[(0, 1), (1, 2)], &[], 2, leaf(&[(2, 1)]));
    assert_eq!(
        check_tree(&sys, &t),
        Err("cut 1 (row 2) at the root: c_0 = 3 is not a multiple of the divisor 2: the rounding is not valid".into())
    );
    // A wrong rounding: dividing by 4 would round x0 >= 1/4 up, but 2 is no multiple of 4.
    let t = cut(&[(0, 1), (1, 1)], &[], 4, leaf(&[(2, 1)]));
    assert!(
        check_tree(&sys, &t)
            .unwrap_err()
            .contains("c_0 = 2 is not a multiple of the divisor 4")
    );
    // Divisor 1 rounds nothing: 2x0 >= 1 and −2x0 >= −1 hold at x0 = 1/2, so the leaf fails.
    let t = cut(
        &[(0, 1), (1, 1)],
        &[],
        1,
        cut(&[(0, -1), (1, -1)], &[], 1, leaf(&[(2, 1), (3, 1)])),
    );
    let e = check_tree(&sys, &t).unwrap_err();
    assert_eq!(
        e,
        "leaf cut 1 (row 2), cut 2 (row 3): max c·x = 0 is not below β = 0"
    );
    // Divisors must be positive.
    let t = cut(&[(0, 1), (1, 1)], &[], 0, leaf(&[(2, 1)]));
    assert_eq!(
        check_tree(&sys, &t),
        Err("cut 1 (row 2) at the root: divisor 0 is not positive".into())
    );
    // A side the row does not have: the cut row 2 is x0 >= 1 only.
    let t = cut(
        &[(0, 1), (1, 1)],
        &[],
        2,
        cut(&[(2, -1)], &[], 1, leaf(&[(3, 1)])),
    );
    assert_eq!(
        check_tree(&sys, &t),
        Err("cut 2 (row 3) cut 1 (row 2): row 2 used with y < 0 has no upper bound".into())
    );
    // A cut named below a split does not exist on the other side.
    let inner = two_cuts();
    let t = Tree::Split {
        col: 0,
        value: 0,
        below: Box::new(inner),
        above: Box::new(leaf(&[(2, 1)])),
    };
    let e = check_tree(&sys, &t).unwrap_err();
    assert_eq!(
        e,
        "leaf above x0>=1: multiplier 0 names row 2, but the system has 2 rows"
    );
    // A bound multiplier on a column that is not there, or twice.
    let t = cut(&[(0, 1)], &[(7, 1)], 1, leaf(&[(2, 1)]));
    assert!(check_tree(&sys, &t).unwrap_err().contains("names column 7"));
    let t = cut(&[(0, 1)], &[(1, 1), (1, 1)], 1, leaf(&[(2, 1)]));
    assert!(
        check_tree(&sys, &t)
            .unwrap_err()
            .contains("more than one multiplier")
    );
    // Overflow is an error, not a wrap.
    let big = LinearSystem {
        cols: vec![(0, Some(1))],
        rows: vec![eq(&[(0, i64::MAX)], i64::MAX); 3],
    };
    let t = cut(
        &[(0, i64::MAX), (1, i64::MAX), (2, i64::MAX)],
        &[],
        1,
        leaf(&[(3, 1)]),
    );
    assert!(check_tree(&big, &t).unwrap_err().contains("overflow"));
}

#[test]
fn cut_trees_survive_json_and_old_trees_still_read() {
    let t = two_cuts();
    let s = serde_json::to_string(&t).unwrap();
    assert!(
        s.starts_with(r#"{"cut":{"cut":{"multipliers":[[0,1],[1,1]],"divisor":2},"then":"#),
        "{s}"
    );
    assert_eq!(serde_json::from_str::<Tree>(&s).unwrap(), t);
    let old = r#"{"split":{"col":0,"value":0,"below":{"leaf":{"multipliers":[[0,1],[1,1]]}},"above":{"leaf":{"multipliers":[[0,-1],[1,-1]]}}}}"#;
    let old: Tree = serde_json::from_str(old).unwrap();
    assert_eq!(check_tree(&half(), &old), Ok(()));
}

/// The generator (`certify --cut-rounds`): Gomory cuts off HiGHS's basis, made exact, close
/// programs whose LP is feasible without a split.
#[test]
fn gomory_rounds_close_small_programs_without_a_split() {
    use solarmy::ip::certify::{Rounds, size, tree_with_cuts};
    let r = Rounds {
        rounds: 5,
        per_round: 5,
        nodes: 0,
    };
    // 2x0 + 2x1 + 2x2 = 3 over binaries, and the half system.
    let odd = LinearSystem {
        cols: vec![(0, Some(1)); 3],
        rows: vec![eq(&[(0, 2), (1, 2), (2, 2)], 3)],
    };
    for sys in [half(), odd] {
        let (tree, cuts, nodes) = tree_with_cuts(&sys, r, Some(10.0));
        let tree = tree.expect("a tree");
        assert_eq!(check_tree(&sys, &tree), Ok(()));
        assert!(cuts >= 1 && nodes == 0, "{cuts} cuts, {nodes} nodes");
        assert_eq!(size(&tree), cuts + 1);
        assert!(matches!(tree, Tree::Cut { .. }));
    }
}

/// `certify --cut-rounds` end to end: hexagonal 6's one program, its tree stripped, gets a
/// tree that starts with cuts, and `check --certificates-only` accepts the proof.
#[test]
fn certify_with_cut_rounds_writes_a_proof_that_checks() {
    use solarmy::proof::format::{Evidence, Proof};
    let dir = tempfile::tempdir().unwrap();
    let (bare, out) = (dir.path().join("bare.json"), dir.path().join("cut.json"));
    let mut p = Proof::read(std::path::Path::new("results/proofs/hexagonal-6.json.gz")).unwrap();
    let mut stripped = 0;
    for r in &mut p.rounds {
        if let Evidence::Direct { ip, .. } = &mut r.evidence {
            stripped += ip.certificate.take().is_some() as usize;
        }
    }
    assert_eq!(stripped, 1);
    std::fs::write(&bare, p.to_bytes(&bare).unwrap()).unwrap();
    let (b, o) = (bare.to_str().unwrap(), out.to_str().unwrap());
    let args = ["certify", "--cut-rounds", "2", "--cuts-per-round", "10"];
    let (code, stdout, err) = common::solarmy(&[&args[..], &["--out", o, b]].concat());
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(err.contains(" cuts)") && !err.contains("(0 cuts)"), "{err}");
    let p = Proof::read(&out).unwrap();
    let cut = p.rounds.iter().any(|r| match &r.evidence {
        Evidence::Direct { ip, .. } => matches!(ip.certificate, Some(Tree::Cut { .. })),
        _ => false,
    });
    assert!(cut, "no cut at the root of the tree");
    let (code, _, err) = common::solarmy(&["check", "--certificates-only", o]);
    assert_eq!(code, 0, "{err}");
}
