//! The second opinion: every IP HiGHS calls infeasible is solved again by CBC.
//! Runs only in builds with `--features cbc` (Debian's coinor-libcbc-dev); the default build
//! checks that `--cbc` is refused with one line rather than ignored.

mod common;
use common::solarmy;

#[cfg(not(feature = "cbc"))]
#[test]
fn cbc_is_refused_when_not_built_in() {
    let (code, _, err) = solarmy(&["solve", "--army", "conway", "--level", "3", "--cbc"]);
    assert_ne!(code, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--features cbc"), "{err}");
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_confirms_every_infeasible_round() {
    use solarmy::minimum::{Request, find_minimum};
    use solarmy::problem::Army;
    for (army, level) in [
        (Army::conway(), 4),
        (Army::diagonal(), 6),
        (Army::hexagonal(), 5),
    ] {
        let out = find_minimum(&Request {
            time_limit: Some(600.0),
            second_opinion: true,
            ..Request::new(army, level)
        })
        .unwrap();
        let infeasible: Vec<_> = out
            .rounds
            .iter()
            .filter(|r| r.status == "infeasible")
            .collect();
        assert!(!infeasible.is_empty(), "{army} {level}");
        for r in infeasible {
            assert_eq!(r.cbc.as_deref(), Some("infeasible"), "{army} {level} {r:?}");
        }
    }
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_confirms_every_infeasible_case() {
    let dir = std::env::temp_dir().join(format!("solarmy-cbc-cases-{}", std::process::id()));
    // Hexagonal level 6 needs 36 men: every 35-man case is ruled out or infeasible.
    let (code, out, err) = solarmy(&[
        "cases",
        "--army",
        "hexagonal",
        "--level",
        "6",
        "--size",
        "35",
        "--solve",
        dir.to_str().unwrap(),
        "--cbc",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = report["results"].as_array().unwrap();
    let infeasible: Vec<_> = results
        .iter()
        .filter(|r| r["status"] == "infeasible")
        .collect();
    assert!(!infeasible.is_empty());
    for r in &infeasible {
        assert_eq!(r["cbc"], "infeasible", "{r}");
    }
    assert!(results.iter().all(|r| r["status"] != "feasible"));
    let _ = std::fs::remove_dir_all(&dir);
}
