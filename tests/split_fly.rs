//! A hard case split on the fly into boxes solved by separate workers: the proof still
//! checks, the split case resting on a tree over its boxes (certified boxes checked
//! exactly, the others re-solved by the checker), and damage to the tree is named.

use solarmy::problem::Army;
use solarmy::proof::check::{Options, check};
use solarmy::proof::farkas::Tree;
use solarmy::proof::format::{CaseOutcome, Evidence, Proof};
use solarmy::search::minimum::{Request, find_minimum};

/// The proof of a minimum whose rounds are split into cases at once, and every case that
/// can be split split at once (no time for HiGHS on the whole).
fn split_proof(army: Army, level: i32) -> Proof {
    let out = find_minimum(&Request {
        direct_budget: Some(0.001),
        split_after: Some(0.0),
        jobs: 4,
        ..Request::new(army, level)
    })
    .unwrap();
    assert!(out.proof_complete);
    out.proof().unwrap()
}

/// The certificates of the cases split into boxes.
fn split_cases(p: &mut Proof) -> Vec<&mut Tree> {
    let mut v = Vec::new();
    for r in &mut p.rounds {
        if let Evidence::Cases { cases } = &mut r.evidence {
            for c in cases {
                if let CaseOutcome::Ip { ip, .. } = &mut c.outcome
                    && let Some(t @ Tree::Split { .. }) = ip.certificate.as_mut()
                {
                    v.push(t);
                }
            }
        }
    }
    v
}

#[test]
fn a_case_split_on_the_fly_checks_and_its_empty_box_is_checked_exactly() {
    let mut p = split_proof(Army::skew(), 6);
    let s = check(&p, &Options::default()).unwrap();
    assert_eq!(s.claim, "minimum 46");
    assert_eq!(s.certified + s.solver_only, s.ips);
    let trees = split_cases(&mut p);
    assert!(!trees.is_empty(), "no case was split");

    // The box without a man in the farthest class is empty by the class's row: its
    // certificate is checked, not trusted.
    let mut t = &mut *trees.into_iter().next().unwrap();
    while let Tree::Split { below, .. } = t {
        t = below;
    }
    let Tree::Leaf(f) = t else { panic!("{t:?}") };
    for m in &mut f.multipliers {
        m.1 = -m.1;
    }
    let e = check(&p, &Options::default()).unwrap_err().to_string();
    assert!(e.contains("certificate"), "{e}");
}

#[test]
fn boxes_without_a_certificate_are_left_to_the_checkers_solvers() {
    let p = split_proof(Army::hexagonal(), 6);
    let s = check(&p, &Options::default()).unwrap();
    assert_eq!(s.claim, "minimum 36");
    assert_eq!((s.ips, s.solver_only), (1, 1));
    let strict = Options {
        certificates_only: true,
        ..Options::default()
    };
    let e = check(&p, &strict).unwrap_err().to_string();
    assert!(e.contains("solvers were not allowed"), "{e}");
}
