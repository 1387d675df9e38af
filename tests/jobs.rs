//! A case split as jobs: `cases --emit-jobs`, the jobs run by GNU parallel, `--merge`;
//! the merged answer equals a local `--solve` sweep's; a tampered stamp, a missing result
//! and a second merge.

mod common;
use common::{scratch, solarmy};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The object without what differs between two runs of the same sweep: times and the
/// log's directory.
fn strip(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "seconds" | "log" | "army_csv" | "play_csv"))
                .map(|(k, v)| (k.clone(), strip(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
        _ => v.clone(),
    }
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// GNU parallel, installed by `scripts/setup` when missing; None (with a note) only if it
/// is absent and cannot be installed.
fn parallel() -> Option<&'static str> {
    let have = || {
        Command::new("parallel")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have() {
        let setup = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup");
        let _ = Command::new("bash").arg(setup).status();
    }
    if have() {
        Some("parallel")
    } else {
        eprintln!("note: GNU parallel is absent and scripts/setup could not install it: skipped");
        None
    }
}

fn emit(args: &[&str], dir: &Path) {
    let mut all = vec!["cases"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--emit-jobs", dir.to_str().unwrap()]);
    let (code, out, err) = solarmy(&all);
    assert_eq!(code, 0, "{out}{err}");
}

fn run_parallel(bin: &str, dir: &Path) {
    let jobs = std::fs::File::open(dir.join("jobs.txt")).unwrap();
    let joblog = dir.join("joblog");
    let status = Command::new(bin)
        .args(["--joblog", joblog.to_str().unwrap(), "--resume", "-j", "2"])
        .stdin(jobs)
        .status()
        .unwrap();
    assert!(status.success(), "parallel failed: {status}");
}

fn merge(dir: &Path) -> (i32, String, String) {
    solarmy(&["cases", "--merge", dir.to_str().unwrap(), "--json", "-q"])
}

#[test]
fn parallel_jobs_merge_to_the_local_sweep() {
    let Some(bin) = parallel() else { return };
    let problem = ["--army", "skew", "--level", "6", "--size", "45"];
    let dir = scratch("jobs-parallel");
    let jobs = dir.join("jobs");
    emit(&problem, &jobs);
    let lines = std::fs::read_to_string(jobs.join("jobs.txt")).unwrap();
    assert_eq!(lines.lines().count(), 72, "{lines}");
    let slurm = std::fs::read_to_string(jobs.join("slurm.sh")).unwrap();
    assert!(slurm.contains("#SBATCH --array=1-72"), "{slurm}");
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(jobs.join("slurm.sh"))
        .status()
        .unwrap();
    assert!(syntax.success(), "{slurm}");
    run_parallel(bin, &jobs);
    let (code, merged, err) = merge(&jobs);
    assert_eq!(code, 0, "{err}");
    let local = dir.join("local");
    let mut args = vec!["cases"];
    args.extend_from_slice(&problem);
    args.extend_from_slice(&["--solve", local.to_str().unwrap(), "--json", "-q"]);
    let (code, local_out, err) = solarmy(&args);
    assert_eq!(code, 0, "{err}");
    let (m, l) = (json(&merged), json(&local_out));
    assert_eq!(strip(&m), strip(&l));
    for (k, n) in [
        ("ruled_out", 30),
        ("infeasible", 72),
        ("feasible", 0),
        ("open", 0),
    ] {
        assert_eq!(m[k], n, "{k}");
    }
    // The same case log: the same stamp and, per case, the same last line (the local log
    // is in solving order, and logs an infeasible case again once it is certified).
    let name = "skew-6-45-d1_1-cases.jsonl";
    let lines = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let mut last = std::collections::BTreeMap::new();
        for l in text.lines().map(|l| strip(&json(l))) {
            let key = format!("{} {}", l["last_jump"], l["case"]);
            last.insert(key, l);
        }
        last
    };
    assert_eq!(lines(&jobs.join(name)), lines(&local.join(name)));
    // A resumed parallel run has nothing left to do, and a second merge answers the same.
    run_parallel(bin, &jobs);
    let (code, again, _) = merge(&jobs);
    assert_eq!((code, strip(&json(&again))), (0, strip(&m)));
}

#[test]
fn an_army_found_by_a_job_answers_the_round() {
    let dir = scratch("jobs-army");
    emit(&["--army", "skew", "--level", "5", "--size", "19"], &dir);
    let lines = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    for line in lines.lines() {
        let status = Command::new("sh").args(["-c", line]).status().unwrap();
        assert!(status.success(), "{line}");
    }
    let (code, out, err) = merge(&dir);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(
        (v["complete"].as_bool(), v["open"].as_u64()),
        (Some(true), Some(0))
    );
    assert!(v["feasible"].as_u64().unwrap() >= 1, "{out}");
    assert!(dir.join("skew-5-19men-play.csv").exists());
}

#[test]
fn a_tampered_stamp_is_refused_in_one_line() {
    let dir = scratch("jobs-stamp");
    emit(&["--army", "skew", "--level", "5", "--size", "18"], &dir);
    let (code, _, err) = solarmy(&[
        "cases",
        "--army",
        "skew",
        "--level",
        "5",
        "--size",
        "18",
        "--run-job",
        dir.to_str().unwrap(),
        "--case",
        "1",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = merge(&dir);
    assert_eq!((code, json(&out)["infeasible"].as_u64()), (0, Some(1)));
    let path = dir.join("results/1.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let tampered = text.replacen("\"solarmy ", "\"solarmy 0.0.0-other ", 1);
    assert_ne!(text, tampered);
    std::fs::write(&path, tampered).unwrap();
    let (code, out, err) = merge(&dir);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("results/1.json") && err.contains("refused"),
        "{err}"
    );
    // A job from another problem is refused before it solves anything.
    let (code, _, err) = solarmy(&[
        "cases",
        "--army",
        "skew",
        "--level",
        "5",
        "--size",
        "19",
        "--run-job",
        dir.to_str().unwrap(),
        "--case",
        "1",
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("manifest.json") && err.contains("refused"),
        "{err}"
    );
}

#[test]
fn missing_results_are_reported_and_their_cases_open() {
    let dir = scratch("jobs-missing");
    emit(&["--army", "skew", "--level", "6", "--size", "45"], &dir);
    for job in ["1", "2"] {
        let (code, _, err) = solarmy(&[
            "cases",
            "--army",
            "skew",
            "--level",
            "6",
            "--size",
            "45",
            "--run-job",
            dir.to_str().unwrap(),
            "--case",
            job,
            "-q",
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = merge(&dir);
    assert_eq!(code, 3, "{err}");
    let v = json(&out);
    assert_eq!(
        (v["infeasible"].as_u64(), v["open"].as_u64()),
        (Some(2), Some(70))
    );
    assert_eq!(v["complete"], false);
    assert!(
        err.contains("70 of 72 jobs have no result") && err.contains(": 3, 4, 5"),
        "{err}"
    );
    // Emitting again writes only the jobs still to run.
    emit(&["--army", "skew", "--level", "6", "--size", "45"], &dir);
    let lines = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    assert_eq!(lines.lines().count(), 70);
    assert!(
        lines
            .lines()
            .next()
            .unwrap()
            .ends_with("--case 3 -q --max-cases 200000"),
        "{lines}"
    );
    // A result that settles nothing (here: a time limit) is run again, and open.
    let two = dir.join("results/2.json");
    let text = std::fs::read_to_string(&two).unwrap();
    std::fs::write(&two, text.replace("\"infeasible\"", "\"time_limit\"")).unwrap();
    emit(&["--army", "skew", "--level", "6", "--size", "45"], &dir);
    let lines = std::fs::read_to_string(dir.join("jobs.txt")).unwrap();
    assert_eq!(lines.lines().count(), 71);
    assert!(
        lines
            .lines()
            .next()
            .unwrap()
            .ends_with("--case 2 -q --max-cases 200000"),
        "{lines}"
    );
    // The merge still counts case 2: the first merge's case log holds its certificate,
    // which checks again (a log is a cache; its lines count once re-verified).
    let (code, out, _) = merge(&dir);
    let v = json(&out);
    assert_eq!(
        (code, v["infeasible"].as_u64(), v["open"].as_u64()),
        (3, Some(2), Some(70))
    );
    // --merge takes its problem from the manifest only; --case needs --run-job.
    let (code, _, err) = solarmy(&["cases", "--merge", "x", "--army", "skew"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = solarmy(&[
        "cases", "--army", "skew", "--level", "6", "--size", "45", "--case", "1",
    ]);
    assert_eq!(code, 2, "{err}");
}
