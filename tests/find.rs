//! The first side of the two-sided search (issue 39): an army found fast with no proof is
//! ordered and replayed before it counts, reported as the best army (never as a minimum the
//! climb did not prove), and caps the climb, whose rounds of its size and above are never
//! solved.

mod common;
use common::{scratch, solarmy};
use solarmy::problem::Army;
use solarmy::proof::format::Claim;
use solarmy::search::find::find_army;
use solarmy::search::minimum::{Request, Status, find_minimum};

fn desert() -> Army {
    Army::read(std::path::Path::new("models/desert-square.toml")).unwrap()
}

/// The 7×7 square desert (level 4, minimum 16, pagoda bound 14): the first side finds an
/// army; the climb, given no time, proves less than its size, so the answer is that army
/// as the best one, replayed by `solarmy verify`, with no minimum: its proof claims the
/// bound alone.
#[test]
fn an_army_found_first_is_the_best_army_not_a_minimum() {
    let req = Request::new(desert(), 4);
    let report = find_army(&req, 20.0).unwrap();
    let found = report.found.expect("an army of the 7×7 desert within 20 s");
    assert!((16..=24).contains(&found.men()), "{}", found.men());
    let out = find_minimum(&Request {
        time_limit: Some(0.0),
        incumbent: Some(found.clone()),
        ..req
    })
    .unwrap();
    let lower = out.lower_bound.unwrap();
    assert!((14..=16).contains(&lower), "{lower}");
    assert!(out.verified);
    assert_eq!(out.army_cells, found.army_cells);
    if lower < found.men() {
        assert_eq!(out.status, Status::TimeLimit);
        assert_eq!(out.min_size, None, "a found army is no minimum");
        // The proof claims the bound only, with the found army's play.
        let proof = out.proof().expect("the proof of the bound");
        assert!(
            matches!(proof.claim, Claim::AtLeast { men } if men == lower),
            "no proof claims an unproven minimum"
        );
        let summary = solarmy::proof::check::check(&proof, &Default::default()).unwrap();
        assert!(summary.claim.contains("best army"), "{}", summary.claim);
    } else {
        assert_eq!(out.status, Status::Optimal);
    }
    let dir = scratch("find-best");
    let files = solarmy::cli::write_outputs(&dir, &out).unwrap();
    let v = solarmy::cli::outcome_json(&out, Some(&files));
    assert_eq!(v["best_size"], found.men());
    assert_eq!(v["lower_bound"], lower);
    let (army, play) = (files.0.to_str().unwrap(), files.1.to_str().unwrap());
    let args = [
        "verify",
        "--model",
        "models/desert-square.toml",
        "--level",
        "4",
    ];
    let (code, stdout, stderr) = solarmy(&[&args[..], &[army, play]].concat());
    assert_eq!(code, 0, "{stdout}{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// With `--find`, the found army caps the climb: rounds of its size are never solved, and
/// once the rounds below it have no army it is the minimum, with a proof the checker accepts.
#[test]
fn the_found_army_caps_the_climb() {
    let dir = scratch("find-cap");
    let proof = dir.join("proof.json");
    let (code, out, err) = solarmy(&[
        "solve",
        "--model",
        "models/desert-square.toml",
        "--level",
        "4",
        "--find",
        "20",
        "--json",
        "--out",
        dir.to_str().unwrap(),
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "optimal", "{v}");
    assert_eq!((&v["min_size"], &v["best_size"]), (&16.into(), &16.into()));
    let found = v["find"]["men"]
        .as_u64()
        .expect("the first side found an army");
    let solved: Vec<u64> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["men"].as_u64().unwrap())
        .collect();
    assert!(solved.iter().all(|&m| m < found), "{solved:?} vs {found}");
    let (code, out, err) = solarmy(&["check", proof.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_dir_all(&dir).ok();
}
