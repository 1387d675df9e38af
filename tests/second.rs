//! The second opinion: every IP HiGHS calls infeasible is solved again by CBC, during a
//! search (`solve --cbc`, `cases --cbc`) and by the proof checker (`check --cbc`, on its own
//! system). Runs only in builds with `--features cbc` (Debian's coinor-libcbc-dev); the
//! default build checks that `--cbc` is refused with one line rather than ignored.

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

#[cfg(not(feature = "cbc"))]
#[test]
fn check_cbc_is_refused_up_front_when_not_built_in() {
    let proof = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/proofs/conway-4.json.gz"
    );
    let (code, out, err) = solarmy(&["check", "--cbc", "--json", proof]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "checked anyway: {out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--features cbc"), "{err}");
    // Without --cbc the summary says nothing of CBC.
    let (code, out, err) = solarmy(&["check", "--json", proof]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("\"cbc_"), "{out}");
}

/// `check --cbc` on published proofs (direct rounds; the cheap ones): CBC confirms every
/// infeasible program of the checker's own system, and its time is reported. Skew 6's
/// 43-man program is infeasible already as an LP: with a time limit CBC ends it
/// "unlaunched", which once read as no verdict.
#[cfg(feature = "cbc")]
#[test]
fn check_cbc_confirms_every_program_of_a_proof() {
    for entry in ["conway-4", "hexagonal-5", "diagonal-8", "skew-6"] {
        let proof = format!(
            "{}/results/proofs/{entry}.json.gz",
            env!("CARGO_MANIFEST_DIR")
        );
        let (code, out, err) = solarmy(&[
            "check",
            "--cbc",
            "--json",
            "--program-time-limit",
            "600",
            &proof,
        ]);
        assert_eq!(code, 0, "{entry}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let s = &v["summary"];
        assert!(s["ips"].as_u64().unwrap() > 0, "{entry}: {s}");
        assert_eq!(s["cbc_confirmed"], s["ips"], "{entry}: {s}");
        assert_eq!(s["cbc_no_verdict"], 0, "{entry}: {s}");
        assert!(s["cbc_max_seconds"].as_f64().unwrap() <= s["cbc_seconds"].as_f64().unwrap());
    }
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_confirms_every_infeasible_round() {
    use solarmy::problem::Army;
    use solarmy::search::minimum::{Request, find_minimum};
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
