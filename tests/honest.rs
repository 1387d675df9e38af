//! Answers say what they are: a proven minimum is `optimal` whatever the clock says, and the
//! standard pagoda function's limit is not called the highest reachable level.

mod common;
use common::solarmy;

#[test]
fn a_minimum_equal_to_its_bound_is_optimal_whatever_the_clock() {
    for (army, level) in [
        ("conway", "3"),
        ("conway", "4"),
        ("skew", "4"),
        ("pablito", "4"),
    ] {
        for limit in ["1e-9", "0.001", "0.05"] {
            let args = [
                "solve",
                "--army",
                army,
                "--level",
                level,
                "--time-limit",
                limit,
                "--json",
            ];
            let (code, out, err) = solarmy(&args);
            let v: serde_json::Value = serde_json::from_str(&out).expect(&err);
            let proven = !v["min_size"].is_null() && v["min_size"] == v["lower_bound"];
            assert_eq!(v["status"] == "optimal", proven, "{args:?}: {v}");
            assert_eq!(code == 0, proven, "{args:?}: exit {code}");
        }
    }
}

#[test]
fn the_pagoda_limit_is_named_for_what_it_is() {
    for model in ["models/desert-square.toml", "models/conway-3d.toml"] {
        let (code, out, _) = solarmy(&["bounds", "--model", model]);
        assert_eq!(code, 0);
        let first = out.lines().next().unwrap();
        assert!(!first.contains("highest reachable"), "{first}");
        assert!(first.contains("pagoda limit level 7"), "{first}");
    }
}

/// A bound proof: the minimum's proof of conway 4 (20 men) read as "at least 20" checks,
/// with or without its play; "at least 21" does not (its 20-man army is below the bound, and
/// without the play the round of 20 men has no evidence); and a `solve` stopped by its clock
/// writes a bound proof that `check` accepts, equal to the bound it reports.
#[test]
fn a_bound_is_proven_only_as_far_as_its_rounds() {
    use solarmy::proof::check::check;
    use solarmy::proof::format::{Claim, Proof};
    let minimum = Proof::read(std::path::Path::new("results/proofs/conway-4.json.gz")).unwrap();
    let with = |men, play: bool| {
        let mut p = minimum.clone();
        p.claim = Claim::AtLeast { men };
        if !play {
            p.play = None;
        }
        check(&p, &Default::default())
    };
    assert!(
        with(20, true)
            .unwrap()
            .claim
            .contains("at least 20 (best army 20)")
    );
    assert!(with(20, false).is_ok());
    let above = with(21, true).unwrap_err().to_string();
    assert!(above.contains("below the bound"), "{above}");
    assert!(with(21, false).is_err());

    let dir = std::env::temp_dir().join(format!("solarmy-bound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let proof = dir.join("bound.json");
    let args = [
        "solve",
        "--model",
        "models/desert-square.toml",
        "--level",
        "5",
        "--time-limit",
        "3",
        "--json",
        "-q",
        "--proof",
        proof.to_str().unwrap(),
    ];
    let (code, out, err) = solarmy(&args);
    assert_eq!(code, 3, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect(&err);
    assert_eq!(v["status"], "time_limit");
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!(bound >= 29, "{v}");
    let p = Proof::read(&proof).unwrap();
    assert!(matches!(p.claim, Claim::AtLeast { men } if men == bound));
    let s = check(&p, &Default::default()).unwrap();
    assert!(
        s.claim.starts_with(&format!("at least {bound}")),
        "{}",
        s.claim
    );
    let _ = std::fs::remove_dir_all(&dir);
}
