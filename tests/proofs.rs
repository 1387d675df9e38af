//! Proof files: the checker accepts what `solve` writes and names the step of every kind of
//! damage.

mod common;
use common::solarmy;
use solarmy::problem::Army;
use solarmy::proof::check::{Options, check};
use solarmy::proof::farkas::Tree;
use solarmy::proof::format::{CaseOutcome, Evidence, Proof, Reduction};
use solarmy::search::minimum::{Request, find_minimum};

fn proof(army: Army, level: i32, split: bool) -> Proof {
    let req = Request {
        direct_budget: split.then_some(0.001),
        ..Request::new(army, level)
    };
    let out = find_minimum(&req).unwrap();
    assert!(out.proof_complete);
    out.proof().unwrap()
}

/// The error of checking a damaged copy; it must name a step.
fn damaged(p: &Proof, damage: impl FnOnce(&mut Proof)) -> String {
    let mut q = p.clone();
    damage(&mut q);
    let e = check(&q, &Options::default()).expect_err("the damaged proof passed");
    let s = e.to_string();
    assert!(s.starts_with(&format!("step {} (", e.step)), "{s}");
    s
}

/// The first Farkas leaf of a certificate tree.
fn first_leaf(t: &mut Tree) -> &mut solarmy::proof::farkas::Farkas {
    match t {
        Tree::Leaf(f) => f,
        Tree::Split { below, above, .. } | Tree::SplitRow { below, above, .. } => {
            if matches!(**below, Tree::Empty) {
                first_leaf(above)
            } else {
                first_leaf(below)
            }
        }
        Tree::Cut { then, .. } => first_leaf(then),
        Tree::Empty | Tree::Solver => panic!("this leaf has no multipliers"),
    }
}

fn cases(p: &mut Proof) -> &mut Vec<solarmy::proof::format::CaseProof> {
    p.rounds
        .iter_mut()
        .find_map(|r| match &mut r.evidence {
            Evidence::Cases { cases } => Some(cases),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_split_proof_checks_and_every_damage_is_named() {
    let p = proof(Army::skew(), 6, true);
    let s = check(&p, &Options::default()).unwrap();
    assert_eq!(s.claim, "minimum 46");
    assert!(s.cases > 100 && s.ips > 50, "{s:?}");

    let e = damaged(&p, |q| {
        cases(q).remove(0);
    });
    assert!(e.contains("missing from the case list"), "{e}");

    let e = damaged(&p, |q| {
        let c = &mut cases(q)[0];
        c.slack += solarmy::weight::golden::Golden::pow(20);
    });
    assert!(e.contains("slack stated") && e.contains("case "), "{e}");

    let e = damaged(&p, |q| {
        let c = cases(q)
            .iter_mut()
            .find(|c| matches!(c.outcome, CaseOutcome::Ip { .. }))
            .unwrap();
        let farthest = c.profile.last().unwrap().0;
        c.outcome = CaseOutcome::RuledOut(Reduction::Proposition1 { farthest });
    });
    assert!(e.contains("does not hold"), "{e}");

    let e = damaged(&p, |q| {
        for c in cases(q).iter_mut() {
            if let CaseOutcome::Ip { ip, .. } = &mut c.outcome {
                ip.def.max_exponent -= 1;
            }
        }
    });
    assert!(e.contains("board limit stated"), "{e}");

    let e = damaged(&p, |q| {
        q.rounds.remove(0);
    });
    assert!(e.contains("no evidence for this round"), "{e}");
}

#[test]
fn a_direct_proof_checks_and_its_damage_is_named() {
    let p = proof(Army::conway(), 4, false);
    check(&p, &Options::default()).unwrap();
    let e = damaged(&p, |q| {
        for r in &mut q.rounds {
            if let Evidence::Direct { ip, .. } = &mut r.evidence {
                ip.def.max_exponent -= 1;
            }
        }
    });
    assert!(e.contains("board limit stated"), "{e}");
    let e = damaged(&p, |q| {
        let jumps = &mut q.play.as_mut().unwrap().jumps;
        let j = jumps.len() / 2;
        jumps[j].2 = solarmy::problem::geometry::Cell::xy(jumps[j].2.0 + 1, jumps[j].2.1);
    });
    assert!(e.contains("play") && e.contains("illegal"), "{e}");
    let e = damaged(&p, |q| {
        for r in &mut q.rounds {
            if let Evidence::Direct { ip, .. } = &mut r.evidence {
                // The opposite combination of rows proves nothing.
                for m in &mut first_leaf(ip.certificate.as_mut().unwrap()).multipliers {
                    m.1 = -m.1;
                }
            }
        }
    });
    assert!(e.contains("certificate"), "{e}");
    let e = damaged(&p, |q| {
        q.rounds
            .retain(|r| !matches!(r.evidence, Evidence::Direct { .. }));
    });
    assert!(e.contains("19 men") && e.contains("no evidence"), "{e}");
}

/// A tree may leave leaves to the solvers: the check re-solves their boxes and counts the
/// program as resting on solvers, and `--certificates-only` refuses it.
#[test]
fn a_tree_with_a_solver_leaf_rests_on_the_solvers() {
    let mut p = proof(Army::conway(), 4, false);
    for r in &mut p.rounds {
        if let Evidence::Direct { ip, .. } = &mut r.evidence {
            let leaf = ip.certificate.take().unwrap();
            ip.certificate = Some(Tree::Split {
                col: 0,
                value: 0,
                below: Box::new(leaf),
                above: Box::new(Tree::Solver),
            });
        }
    }
    let s = check(&p, &Options::default()).unwrap();
    assert_eq!((s.ips, s.certified, s.solver_only), (1, 0, 1));
    let strict = Options {
        certificates_only: true,
        ..Options::default()
    };
    let e = check(&p, &strict).unwrap_err().to_string();
    assert!(e.contains("solvers were not allowed"), "{e}");
    let bytes = p.to_bytes(std::path::Path::new("p.json")).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("\"solver\""));
}

#[test]
fn solve_writes_a_gzip_proof_that_check_accepts_and_check_rejects_garbage() {
    let dir = std::env::temp_dir().join(format!("solarmy-proofs-{}", std::process::id()));
    let path = dir.join("conway-4.json.gz");
    let p = path.to_str().unwrap();
    let (code, _, err) = solarmy(&["solve", "--army", "conway", "--level", "4", "--proof", p]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = solarmy(&["check", p]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("minimum 20 proven"), "{out}");
    let (code, out, _) = solarmy(&["check", "--json", p]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["ok"], true);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"format\": 1}").unwrap();
    let (code, _, err) = solarmy(&["check", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A reader that goes away early takes none of the files asked for with it.
#[test]
fn a_closed_pipe_still_gets_the_proof_written() {
    let dir = std::env::temp_dir().join(format!("solarmy-pipe-{}", std::process::id()));
    let proof = dir.join("skew-5.json");
    let script = format!(
        "{} solve --army skew --level 5 -q --out {} --proof {} | head -1",
        env!("CARGO_BIN_EXE_solarmy"),
        dir.display(),
        proof.display()
    );
    let o = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(proof.exists() && dir.join("skew-5-army.csv").exists());
    std::fs::remove_dir_all(&dir).ok();
}
