//! No path may print a false "proven": resumed case logs, hand-edited logs, logs of another
//! problem, and no-good cuts on armies that did not order.

mod common;
use common::solarmy;
use solarmy::problem::Army;
use solarmy::search::minimum::{Request, Status, find_minimum};

fn solve_split(army: &str, level: &str, dir: &std::path::Path) -> serde_json::Value {
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "--army",
        army,
        "--level",
        level,
        "--direct-budget",
        "0.001",
        "--out",
        d,
        "--json",
    ];
    let (code, out, err) = solarmy(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn fresh(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("solarmy-trust-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

/// The loop: the third run used to read its own log's feasible case as settled,
/// find no army, and print 47.
#[test]
fn resumed_case_logs_give_the_same_minimum_every_time() {
    for (army, level, want) in [
        ("skew", "6", 46),
        ("pablito", "5", 19),
        ("hexagonal", "6", 36),
    ] {
        let dir = fresh(army);
        for run in 1..=3 {
            let v = solve_split(army, level, &dir);
            assert_eq!(v["min_size"], want, "{army} {level}, run {run}");
            assert_eq!(v["lower_bound"], want, "{army} {level}, run {run}");
            assert_eq!(v["status"], "optimal");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Every case log of a directory, rewritten line by line.
fn edit_logs(dir: &std::path::Path, edit: impl Fn(&str) -> String) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with("-cases.jsonl") {
            let text = std::fs::read_to_string(&p).unwrap();
            let new: String = text.lines().map(|l| edit(l) + "\n").collect();
            std::fs::write(&p, new).unwrap();
        }
    }
}

#[test]
fn a_log_edited_by_hand_or_for_another_problem_is_never_trusted() {
    let dir = fresh("edited");
    assert_eq!(solve_split("skew", "6", &dir)["min_size"], 46);
    // The army's case claimed infeasible, and every infeasible case stripped of its
    // certificate: a resumed run must solve them again, not believe them.
    edit_logs(&dir, |l| {
        let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
        if v.get("status").is_some_and(|s| s == "feasible") {
            v["status"] = "infeasible".into();
        }
        if let Some(ip) = v.get_mut("ip") {
            ip["certificate"] = serde_json::Value::Null;
        }
        v.to_string()
    });
    assert_eq!(solve_split("skew", "6", &dir)["min_size"], 46);
    // A log stamped for another program is ignored, and says so.
    edit_logs(&dir, |l| {
        l.replace("\"program\":\"solarmy ", "\"program\":\"solarmy 0.0.0-")
    });
    let d = dir.to_str().unwrap();
    let (code, out, err) = solarmy(&[
        "solve",
        "--army",
        "skew",
        "--level",
        "6",
        "--direct-budget",
        "0.001",
        "--out",
        d,
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(
        err.contains("ignoring") && err.contains("another version"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["min_size"], 46);
    std::fs::remove_dir_all(&dir).ok();
}

/// With the first army refused by the backtracker, the round is cut and re-solved. Conway's
/// level 1 has one 2-man army for the vertical last jump: after its cut the round is
/// infeasible, but that proves nothing about 2 men, so 3 men is no minimum.
#[test]
fn a_no_good_cut_never_makes_a_round_infeasible() {
    let req = Request {
        refuse_orderings: 1,
        ..Request::new(Army::conway(), 1)
    };
    let out = find_minimum(&req).unwrap();
    assert_ne!(out.status, Status::Optimal, "{:?}", out.min_size);
    assert_eq!(out.status, Status::Open);
    assert_eq!(out.lower_bound, Some(2));
    assert_eq!(out.unresolved, vec![2]);
    assert!(
        out.verified,
        "the army found is still a verified upper bound"
    );
    // Without the refusal, the minimum is 2.
    let out = find_minimum(&Request::new(Army::conway(), 1)).unwrap();
    assert_eq!((out.status, out.min_size), (Status::Optimal, Some(2)));
}

#[test]
fn without_out_the_case_logs_go_to_a_fresh_directory() {
    let req = Request {
        direct_budget: Some(0.001),
        ..Request::new(Army::skew(), 5)
    };
    let a = find_minimum(&req).unwrap();
    let b = find_minimum(&req).unwrap();
    assert_eq!(a.min_size, Some(19));
    assert_eq!(b.min_size, Some(19));
    assert!(!a.case_logs.is_empty());
    assert_ne!(a.case_logs, b.case_logs, "two runs share a case log");
    assert!(!a.case_logs[0].contains("/tmp/solarmy-cases/"));
}

#[test]
fn the_summary_counts_every_integer_program_case_programs_included() {
    let out = find_minimum(&Request {
        direct_budget: Some(0.001),
        jobs: 2,
        ..Request::new(Army::skew(), 6)
    })
    .unwrap();
    assert_eq!(out.min_size, Some(46));
    let direct = out
        .rounds
        .iter()
        .filter(|r| !r.status.starts_with("cases"))
        .count();
    assert!(
        out.ips > out.rounds.len(),
        "{} IPs, {} rounds",
        out.ips,
        out.rounds.len()
    );
    // Every case program solved is counted: those of each split round's summary.
    let solved: usize = out
        .rounds
        .iter()
        .filter_map(|r| r.status.strip_prefix("cases"))
        .map(|s| count(s, " infeasible,") + count(s, " feasible,"))
        .sum();
    assert!(solved >= 70, "{solved} case programs");
    assert_eq!(out.ips, direct + solved, "{} IPs", out.ips);
    assert!(out.jumps > 0 && out.cells > 0);
}

/// The number in front of `what` in a round's summary ("…: 72 infeasible, …").
fn count(summary: &str, what: &str) -> usize {
    let head = &summary[..summary.find(what).unwrap()];
    head.rsplit(' ').next().unwrap().parse().unwrap()
}

fn solve_direct(army: &str, level: &str, dir: &std::path::Path) -> (serde_json::Value, String) {
    let d = dir.to_str().unwrap();
    let proof = dir.join("p.json");
    let args = [
        "solve",
        "--army",
        army,
        "--level",
        level,
        "--out",
        d,
        "--json",
        "-v",
        "--proof",
        proof.to_str().unwrap(),
    ];
    let (code, out, err) = solarmy(&args);
    assert_eq!(code, 0, "{err}");
    let (c, _, e) = solarmy(&["check", proof.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    (serde_json::from_str(&out).unwrap(), err)
}

/// A resumed run takes the direct rounds an earlier run settled from its record, once their
/// certificates check again, and solves nothing but the army's round; a record edited by
/// hand or stamped for another program is not believed.
#[test]
fn a_resumed_run_takes_recorded_rounds_only_when_they_check_again() {
    let dir = fresh("rounds");
    let (first, _) = solve_direct("hexagonal", "6", &dir);
    assert_eq!(first["min_size"], 36);
    let ips = first["ips"].as_u64().unwrap();
    assert!(ips >= 2, "{first}");
    let (again, err) = solve_direct("hexagonal", "6", &dir);
    assert_eq!(
        (again["min_size"].clone(), again["lower_bound"].clone()),
        (36.into(), 36.into())
    );
    assert_eq!(again["ips"], 1, "only the army's round is solved: {err}");
    assert!(err.contains("as recorded by an earlier run"), "{err}");
    let record = dir.join("hexagonal-6-rounds.jsonl");
    let text = std::fs::read_to_string(&record).unwrap();
    // Certificates stripped: every round is solved again.
    let stripped: String = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(ev) = v.pointer_mut("/proof/evidence/direct/ip") {
                ev["certificate"] = serde_json::Value::Null;
            }
            v.to_string() + "\n"
        })
        .collect();
    std::fs::write(&record, stripped).unwrap();
    let (v, err) = solve_direct("hexagonal", "6", &dir);
    assert_eq!(v["min_size"], 36);
    assert_eq!(v["ips"], ips, "{err}");
    // Another program's stamp: ignored, and said so.
    let text = std::fs::read_to_string(&record).unwrap();
    std::fs::write(
        &record,
        text.replace("\"program\":\"solarmy ", "\"program\":\"solarmy 0.0.0-"),
    )
    .unwrap();
    let (v, err) = solve_direct("hexagonal", "6", &dir);
    assert_eq!(v["ips"], ips);
    assert!(
        err.contains("ignoring") && err.contains("rounds.jsonl"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
