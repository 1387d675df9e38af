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
