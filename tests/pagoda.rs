//! `solarmy pagoda`: LP pagoda functions that rule a desert level out, written as a proof that
//! `solarmy check` accepts, and refuses once a single weight is changed.

mod common;
use common::{scratch, solarmy};

fn model(name: &str) -> String {
    format!("{}/models/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

/// The square desert at level 7 (where the improved function decides it too) and level 8
/// beyond: proof files from the LP, accepted by the checker.
#[test]
fn lp_functions_rule_out_the_square_desert_and_the_checker_agrees() {
    let dir = scratch("pagoda");
    let square = model("desert-square");
    for level in ["7", "8"] {
        let proof = dir.join(format!("square-{level}.json"));
        let p = proof.to_str().unwrap();
        let (code, out, err) =
            solarmy(&["pagoda", "--model", &square, "--level", level, "--proof", p]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("impossible, proven"), "{out}");
        let (code, out, err) = solarmy(&["check", p]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("impossible proven"), "{out}");
    }
    let text = std::fs::read_to_string(dir.join("square-7.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(v["claim"]["pagoda_lp"]["functions"].is_array(), "{text}");
}

/// One weight changed: the check fails and names the step; a function normalised on the
/// target instead of the last jump is too weak at this level, and the checker says so.
#[test]
fn a_tampered_function_is_refused_with_its_step_named() {
    let dir = scratch("pagoda-tamper");
    let proof = dir.join("square-7.json");
    let p = proof.to_str().unwrap();
    let (code, _, err) = solarmy(&[
        "pagoda",
        "--model",
        &model("desert-square"),
        "--level",
        "7",
        "--proof",
        p,
        "--max-men",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    let f = &original["claim"]["pagoda_lp"]["functions"][0];
    let r = f["radius"].as_i64().unwrap();
    // The cell 2d = (2, 0), in the position {d, 2d} the function is normalised on.
    let i = (r * (2 * r + 1) + r + 2) as usize;
    let mut raised = original.clone();
    let w = &mut raised["claim"]["pagoda_lp"]["functions"][0]["weights"][i];
    w["a"] = serde_json::json!(w["a"].as_i64().unwrap() * 3 + 1000);
    let mut on_target = original.clone();
    on_target["claim"]["pagoda_lp"]["functions"][0]["normalised"] = serde_json::Value::Null;
    for (tampered, expect) in [
        (raised, "pagoda condition"),
        (on_target, "not below the test position"),
    ] {
        let bad = dir.join("bad.json");
        std::fs::write(&bad, tampered.to_string()).unwrap();
        let (code, out, err) = solarmy(&["check", bad.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(err.contains("step ") && err.contains(expect), "{err}");
    }
}

/// Levels the LP does not decide are open, with the army-size bound its functions prove;
/// bad input is one line and exit 2.
#[test]
fn open_levels_report_bounds_and_bad_input_is_refused() {
    let (code, out, err) = solarmy(&[
        "pagoda",
        "--model",
        &model("desert-rhombus"),
        "--level",
        "6",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "open");
    // Improved functions give 23 (solve's pagoda bound); the LP at least as much.
    assert!(v["size_bound"].as_u64().unwrap() >= 23, "{out}");
    for (args, needle) in [
        (vec!["--army", "hexagonal", "--level", "3"], "tail lemma"),
        (
            vec!["--model", &model("desert-square"), "--level", "15"],
            "radius",
        ),
        (
            vec!["--model", &model("desert-square"), "--level", "0"],
            "level",
        ),
    ] {
        let mut all = vec!["pagoda"];
        all.extend(args);
        let (code, _, err) = solarmy(&all);
        assert_eq!(code, 2, "{all:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
}
