//! The command line: one-line errors, exit codes, JSON fields, verify on corrupted plays.

mod common;
use common::solarmy;

#[test]
fn bad_input_gets_one_line_and_non_zero_exit() {
    for args in [
        &["solve", "--army", "square", "--level", "3"][..],
        &["solve", "--army", "conway", "--level", "0"],
        &["solve", "--army", "conway", "--level", "-1"],
        &["solve", "--army", "conway", "--level", "x"],
        &["bounds", "--army", "nope"],
        &[
            "check",
            "--work",
            "/dev/null",
            "results/proofs/conway-4.json.gz",
        ],
        &["check", "--memory", "1G", "results/proofs/conway-4.json.gz"],
    ] {
        let (code, _, err) = solarmy(args);
        assert_ne!(code, 0, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("solarmy: "), "{err}");
    }
    let (_, _, err) = solarmy(&["solve", "--army", "square", "--level", "3"]);
    assert!(err.contains("conway, skew, diagonal, hexagonal, pablito"));
}

#[test]
fn beyond_the_pagoda_limit_is_impossible_not_an_error() {
    let (code, out, _) = solarmy(&["solve", "--army", "conway", "--level", "5", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "impossible");
    assert!(v["reason"].as_str().unwrap().contains("pagoda"));
}

#[test]
fn solve_json_writes_files_that_verify_accepts_and_corruptions_it_rejects() {
    let dir = std::env::temp_dir().join(format!("solarmy-cli-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (code, out, _) = solarmy(&[
        "solve", "--army", "diagonal", "--level", "5", "--json", "--out", d,
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "army",
        "level",
        "status",
        "min_size",
        "lower_bound",
        "cells",
        "jumps",
        "board_proven",
        "seconds",
        "army_csv",
        "play_csv",
        "moves",
        "verified",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["min_size"], 13);
    assert_eq!(v["verified"], true);
    let army = v["army_csv"].as_str().unwrap();
    let play = v["play_csv"].as_str().unwrap();
    let (code, out, _) = solarmy(&["verify", "--army", "diagonal", "--level", "5", army, play]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("legal: 13 men, 12 jumps"));

    // Move the third jump off its line: verify names jump 3.
    let text = std::fs::read_to_string(play).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut f: Vec<i32> = lines[3].split(',').map(|x| x.parse().unwrap()).collect();
    f[6] += 1; // to_x
    lines[3] = f
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let bad = dir.join("bad-play.csv");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let (code, _, err) = solarmy(&[
        "verify",
        "--army",
        "diagonal",
        "--level",
        "5",
        army,
        bad.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("jump 3"), "{err}");
    assert_eq!(err.trim().lines().count(), 1);

    // A malformed CSV names the file and the line.
    let broken = dir.join("broken.csv");
    std::fs::write(&broken, "x,y\n1,2\n3,oops\n").unwrap();
    let (code, _, err) = solarmy(&[
        "verify",
        "--army",
        "diagonal",
        "--level",
        "5",
        broken.to_str().unwrap(),
        play,
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("broken.csv") && err.contains("line 3"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bounds_json_has_levels() {
    let (code, out, _) = solarmy(&["bounds", "--army", "diagonal", "--json"]);
    assert_eq!(code, 0);
    let all: serde_json::Value = serde_json::from_str(&out).unwrap();
    let v = &all["armies"][0];
    assert_eq!(v["max_level"], 8);
    assert_eq!(v["levels"][7]["lower_bound"], 122);
    assert_eq!(v["levels"][7]["slack_sigma"], "σ^14 + σ^16");
    assert_eq!(v["levels"][6]["slack_sigma"], "σ^11 + σ^13");
}

#[test]
fn certify_restores_stripped_certificates_and_check_accepts_them() {
    use solarmy::proof::format::{CaseOutcome, Evidence, Proof};
    let dir = std::env::temp_dir().join(format!("solarmy-certify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bare, out) = (dir.join("bare.json"), dir.join("certified.json.gz"));
    let mut p = Proof::read(std::path::Path::new("results/proofs/skew-6.json.gz")).unwrap();
    let mut stripped = 0;
    for r in &mut p.rounds {
        match &mut r.evidence {
            Evidence::Direct { ip, .. } => stripped += ip.certificate.take().is_some() as usize,
            Evidence::Cases { cases } => {
                for c in cases {
                    if let CaseOutcome::Ip { ip, .. } = &mut c.outcome {
                        stripped += ip.certificate.take().is_some() as usize;
                    }
                }
            }
            Evidence::Weight { .. } => {}
        }
    }
    assert!(stripped > 0);
    std::fs::write(&bare, p.to_bytes(&bare).unwrap()).unwrap();
    let (b, o) = (bare.to_str().unwrap(), out.to_str().unwrap());
    let (code, stdout, err) = solarmy(&["certify", "--seconds", "60", "--out", o, b]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains(&format!(
            "{stripped} certificates found, 0 programs split (some children left to the solvers), 0 programs still without"
        )),
        "{stdout}"
    );
    assert_eq!(err.lines().count(), stripped, "{err}");
    let (code, _, err) = solarmy(&["check", "--certificates-only", o]);
    assert_eq!(code, 0, "{err}");
    // A missing file is one line and exit 1; a bad budget is exit 2.
    let (code, _, err) = solarmy(&["certify", "no-such-proof.json"]);
    assert_eq!((code, err.trim().lines().count()), (1, 1), "{err}");
    let (code, _, _) = solarmy(&["certify", "--nodes", "0", b]);
    assert_eq!(code, 2);
    // An --only that names no program is one line and exit 2, the file untouched.
    let before = std::fs::read(b).unwrap();
    let (code, _, err) = solarmy(&["certify", "--only", "case 999", b]);
    assert_eq!((code, err.trim().lines().count()), (2, 1), "{err}");
    assert!(err.contains("names no integer program"), "{err}");
    assert_eq!(std::fs::read(b).unwrap(), before);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_names_a_board_problem_by_its_vacancy_and_finish() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("french.json");
    let p = proof.to_str().unwrap();
    let (code, _, _) = solarmy(&[
        "solve",
        "--model",
        "models/french.toml",
        "--vacancy",
        "0,0",
        "--finish",
        "0,0",
        "--proof",
        p,
    ]);
    assert_eq!(code, 0);
    let (code, out, _) = solarmy(&["check", p]);
    assert_eq!(code, 0);
    // A board has no level, rounds or cases to report.
    let line = format!("{p}: french (0,0)->(0,0) not solvable (position class) proven (problem ");
    assert!(out.starts_with(&line), "{out}");
    assert!(out.contains("): 11 steps, no integer program"), "{out}");
}
