//! The command line under hostile input and broken surroundings: no panics, one-line errors,
//! exit codes as documented, results never lost, and the README's example kept true.

mod common;
use common::{scratch, solarmy, solarmy_stdin};
use proptest::prelude::*;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_solarmy"))
}

/// One line on stderr, starting "solarmy: ", and the given exit code.
fn one_line(args: &[&str], code: i32) -> String {
    let (c, _, err) = solarmy(args);
    assert_eq!(c, code, "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("solarmy: "), "{args:?}: {err}");
    err
}

#[test]
fn levels_beyond_the_window_are_impossible_with_their_exact_positive_weight() {
    for army in ["conway", "skew", "diagonal", "hexagonal", "pablito"] {
        for level in ["42", "68", "69", "1000", "1001", "123456", "2147483647"] {
            let (code, out, err) = solarmy(&["solve", "--army", army, "--level", level, "--json"]);
            assert_eq!(code, 0, "{army} {level}: {err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["status"], "impossible");
            let reason = v["reason"].as_str().unwrap();
            assert!(reason.contains(&format!("σ^{level}·(")), "{reason}");
            assert!(!reason.contains("weigh 0 "), "{reason}");
            // An impossible level reports no board.
            for key in ["cells", "jumps", "board_proven", "stable"] {
                assert!(v.get(key).is_none(), "{key} in {out}");
            }
        }
    }
    // Up to level 150 the weight is also printed as a + bσ; its value is positive.
    let (_, out, _) = solarmy(&["solve", "--army", "conway", "--level", "42"]);
    assert!(
        out.contains("σ^42·(8 + 5σ) = -14930352 + 24157817σ ≈ 1.851217e-8"),
        "{out}"
    );
    assert!(!out.contains("board"), "{out}");
    let (code, out, _) = solarmy(&[
        "cases", "--army", "diagonal", "--level", "68", "--size", "3",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("impossible: pagoda"), "{out}");
    one_line(&["solve", "--army", "conway", "--level", "2147483648"], 2);
}

#[test]
fn bad_numbers_are_one_line_and_exit_2() {
    for (opt, v) in [
        ("--time-limit", "inf"),
        ("--time-limit", "1e20"),
        ("--time-limit", "-5"),
        ("--time-limit", "0"),
        ("--time-limit", "NaN"),
        ("--direct-budget", "inf"),
        ("--direct-budget", "-1"),
    ] {
        let err = one_line(&["solve", "--army", "conway", "--level", "3", opt, v], 2);
        assert!(err.contains("greater than 0"), "{err}");
    }
    one_line(&["solve", "--army", "square", "--level", "3"], 2);
    one_line(&["solve", "--army", "conway", "--level", "0"], 2);
    one_line(&["solve", "--army", "conway"], 2);
    one_line(&["solve", "--army", "conway", "--level", "2", "--bogus"], 2);
    one_line(&[], 2);
    one_line(
        &[
            "cases",
            "--army",
            "hexagonal",
            "--level",
            "6",
            "--size",
            "-3",
        ],
        2,
    );
    let err = one_line(
        &[
            "cases",
            "--army",
            "hexagonal",
            "--level",
            "6",
            "--size",
            "99999999999999",
        ],
        2,
    );
    assert!(err.contains("start cells"), "{err}");
}

#[test]
fn quiet_and_verbose() {
    let (code, out, err) = solarmy(&["solve", "--army", "conway", "--level", "3", "-v"]);
    assert_eq!(code, 0);
    assert!(out.contains("minimum 8"), "{out}");
    assert!(
        err.lines().count() >= 1 && err.lines().all(|l| l.starts_with("IP: ")),
        "{err}"
    );
    let (code, _, err) = solarmy(&["solve", "--army", "conway", "--level", "3", "-q"]);
    assert_eq!((code, err.as_str()), (0, ""));
    one_line(
        &["solve", "--army", "conway", "--level", "3", "-q", "-v"],
        2,
    );
}

#[test]
fn a_closed_pipe_is_a_quiet_exit_and_a_full_disk_one_line() {
    // Commands that report as they go (the ones after `cases` once panicked on a closed pipe).
    let triangle = concat!(env!("CARGO_MANIFEST_DIR"), "/models/triangle5.toml");
    for args in [
        &[
            "cases",
            "--army",
            "hexagonal",
            "--level",
            "6",
            "--size",
            "40",
        ][..],
        &["count", "--army", "conway", "--level", "3"],
        &["moves", "--army", "conway", "--level", "3"],
        &[
            "moves",
            "--model",
            triangle,
            "--vacancy",
            "0,0",
            "--finish",
            "0,0",
        ],
        &["bounds"],
    ] {
        let mut child = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = bin()
        .args(["solve", "--army", "conway", "--level", "3"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("standard output"), "{err}");
}

#[test]
fn an_unwritable_out_dir_is_refused_before_solving() {
    let d = scratch("unwritable");
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = file.join("sub");
    let t = std::time::Instant::now();
    let err = one_line(
        &[
            "solve",
            "--army",
            "hexagonal",
            "--level",
            "7",
            "--out",
            out.to_str().unwrap(),
        ],
        1,
    );
    assert!(err.contains("a-file"), "{err}");
    assert!(t.elapsed().as_secs_f64() < 5.0, "it solved first");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_failed_write_names_the_file_keeps_the_answer_and_leaves_no_partial_file() {
    let d = scratch("failed-write");
    // The army CSV's name is taken by a directory: the rename into place fails.
    std::fs::create_dir_all(d.join("diagonal-5-army.csv/x")).unwrap();
    let (code, out, err) = solarmy(&[
        "solve",
        "--army",
        "diagonal",
        "--level",
        "5",
        "--json",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("diagonal-5-army.csv"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["min_size"], 13);
    let mut left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, vec!["diagonal-5-army.csv"], "temporary files left");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn cases_below_the_bound_far_above_it_and_with_an_army() {
    // Below the pagoda bound: ruled out by weight, with the weight.
    let (code, out, _) = solarmy(&[
        "cases",
        "--army",
        "hexagonal",
        "--level",
        "6",
        "--size",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("ruled out by weight") && out.contains("≈ 0.278640 < 1"),
        "{out}"
    );
    let (code, out, _) = solarmy(&[
        "cases",
        "--army",
        "hexagonal",
        "--level",
        "6",
        "--size",
        "5",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "ruled_out_by_weight");
    assert_eq!(v["ruled_out_by_weight"].as_array().unwrap().len(), 3);

    // Far above the minimum: the enumeration stops at its case cap, in one line.
    let err = one_line(
        &[
            "cases",
            "--army",
            "hexagonal",
            "--level",
            "6",
            "--size",
            "100",
            "--max-cases",
            "1000",
        ],
        3,
    );
    assert!(err.contains("stopped at 1000 cases"), "{err}");
    let (code, out, _) = solarmy(&[
        "cases",
        "--army",
        "hexagonal",
        "--level",
        "6",
        "--size",
        "100",
        "--json",
    ]);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "stopped");

    // --json is one object with or without --solve; a feasible case's army is written.
    let (code, out, _) = solarmy(&[
        "cases", "--army", "diagonal", "--level", "5", "--size", "13", "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "cases");
    assert!(v["families"].as_array().unwrap().len() >= 2);
    let d = scratch("cases-solve");
    let (code, out, err) = solarmy(&[
        "cases",
        "--army",
        "diagonal",
        "--level",
        "5",
        "--size",
        "13",
        "--json",
        "--solve",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["complete"], true);
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["status"] == "feasible")
    );
    let (army, play) = (
        v["army_csv"].as_str().unwrap(),
        v["play_csv"].as_str().unwrap(),
    );
    assert!(army.ends_with("diagonal-5-13men-army.csv"), "{army}");
    for f in ["diagonal-5-13men-army.svg", "diagonal-5-13men-play.svg"] {
        assert!(d.join(f).is_file(), "{f}");
    }
    let log = d.join("diagonal-5-13-d0_1-d1_1-cases.jsonl");
    assert!(log.is_file() || v["log"].as_str().unwrap().ends_with("-cases.jsonl"));
    let (code, out, _) = solarmy(&["verify", "--army", "diagonal", "--level", "5", army, play]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("legal: 13 men"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bounds_alone_with_results_and_as_json() {
    let (code, out, _) = solarmy(&["bounds", "--army", "diagonal"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("pagoda bound") && !out.contains("IP bound"),
        "{out}"
    );
    let results = concat!(env!("CARGO_MANIFEST_DIR"), "/results");
    let (code, out, _) = solarmy(&["bounds", "--army", "diagonal", "--results", results]);
    assert_eq!(code, 0);
    assert!(out.contains("IP bound") && out.contains("optimal"), "{out}");
    one_line(&["bounds", "--results", "/no/such/dir"], 2);
    for args in [
        &["bounds", "--json"][..],
        &["bounds", "--army", "skew", "--json"],
    ] {
        let (code, out, _) = solarmy(args);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["armies"].is_array(), "{args:?}");
    }
    let (_, out, _) = solarmy(&["bounds", "--json", "--results", results]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["armies"][0]["levels"][0]["computed"];
    assert!(c["board_proven"].is_boolean(), "{c}");
    assert!(c["seconds"].is_number() && c["min_size"].is_u64(), "{c}");
    assert!(v["armies"][0]["levels"][0]["lower_bound"].is_u64());
}

#[test]
fn verify_reads_either_csv_from_standard_input() {
    let army = "x,y\n0,2\n0,3\n";
    let play = "step,move,from_x,from_y,over_x,over_y,to_x,to_y\n1,1,0,3,0,2,0,1\n";
    let d = scratch("verify-stdin");
    let (a, p) = (d.join("army.csv"), d.join("play.csv"));
    std::fs::write(&a, army).unwrap();
    std::fs::write(&p, play).unwrap();
    // Conway level 2 needs 4 men; two men reach row 1 only: the play is legal but short.
    let args = |x: &str, y: &str| {
        vec!["verify", "--army", "conway", "--level", "2", x, y]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let run = |v: Vec<String>, input: &str| {
        let r: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
        solarmy_stdin(&r, input)
    };
    let from_files = solarmy(
        &args(a.to_str().unwrap(), p.to_str().unwrap())
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>(),
    );
    let army_in = run(args("-", p.to_str().unwrap()), army);
    let play_in = run(args(a.to_str().unwrap(), "-"), play);
    assert_eq!(army_in.0, from_files.0);
    assert_eq!(play_in.0, from_files.0);
    assert_eq!(army_in.1, from_files.1);
    assert_eq!(
        play_in.2.replace("standard input", "X"),
        from_files.2.replace(p.to_str().unwrap(), "X")
    );
    one_line(&["verify", "--army", "conway", "--level", "2", "-", "-"], 2);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn help_completions_and_manpage() {
    for sub in [
        "solve",
        "verify",
        "cases",
        "bounds",
        "completions",
        "manpage",
    ] {
        let (code, out, _) = solarmy(&[sub, "--help"]);
        assert_eq!(code, 0);
        assert!(
            out.contains("Examples:") && out.contains("Exit codes:"),
            "{sub}"
        );
        let examples = out
            .lines()
            .skip_while(|l| !l.starts_with("Examples:"))
            .skip(1)
            .take_while(|l| l.starts_with("  solarmy"))
            .count();
        assert!((2..=3).contains(&examples), "{sub}: {examples} examples");
        // Every option has a description.
        let options = out
            .lines()
            .skip_while(|l| *l != "Options:")
            .take_while(|l| !l.is_empty());
        for l in options.filter(|l| l.trim_start().starts_with('-')) {
            let words = l.split("  ").filter(|w| !w.trim().is_empty()).count();
            assert!(words >= 2, "{sub}: no description: {l}");
        }
    }
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, _) = solarmy(&["completions", shell]);
        assert_eq!(code, 0);
        assert!(
            out.contains("solarmy") && out.contains("time-limit"),
            "{shell}"
        );
    }
    one_line(&["completions", "tcsh"], 2);
    let (code, out, _) = solarmy(&["manpage"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH solarmy 1") && out.contains("cases"),
        "{out}"
    );
    // Every page the main page refers to (solarmy-solve(1), …) is generated by --out.
    let dir = std::env::temp_dir().join(format!("solarmy-man-{}", std::process::id()));
    let (code, _, err) = solarmy(&["manpage", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for line in out.lines().filter(|l| l.starts_with("solarmy\\-")) {
        let name = line.trim_end_matches("(1)").replace("\\-", "-");
        assert!(dir.join(format!("{name}.1")).is_file(), "{name}.1 missing");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_readme_example_and_exit_codes_are_what_the_program_does() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("Example output")
        .nth(1)
        .and_then(|s| s.split("```\n").nth(1))
        .expect("README has an example output");
    let (code, out, _) = solarmy(&["solve", "--army", "hexagonal", "--level", "6"]);
    assert_eq!(code, 0);
    // The timing is the only unstable part.
    let stable = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| match l.rsplit_once(", ") {
                Some((head, t)) if t.ends_with(" s") => head.to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    assert_eq!(stable(block), stable(&out));
    for claim in [
        "0 answered",
        "1 failure",
        "2 bad command line",
        "3 stopped by `--time-limit` or Ctrl-C",
    ] {
        assert!(readme.contains(claim), "README lacks '{claim}'");
    }
}

/// Arguments that are numbers at their extremes, empty, unknown or malformed.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("-".into()),
        Just("--".into()),
        Just("--bogus".into()),
        Just("0".into()),
        Just("-1".into()),
        Just("1".into()),
        Just("2".into()),
        Just("3".into()),
        Just("68".into()),
        Just("1001".into()),
        Just("2147483647".into()),
        Just("2147483648".into()),
        Just("18446744073709551616".into()),
        Just("-9223372036854775808".into()),
        Just("1e-300".into()),
        Just("1e20".into()),
        Just("inf".into()),
        Just("NaN".into()),
        Just("0.001".into()),
        Just("conway".into()),
        Just("hexagonal".into()),
        Just("pablito".into()),
        Just("/dev/null".into()),
        Just("/nonexistent/x.csv".into()),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ]
}

fn flag() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "--army",
        "--level",
        "--size",
        "--time-limit",
        "--direct-budget",
        "--json",
        "--results",
        "--max-cases",
        "--solve",
        "-q",
        "-v",
        "--help",
        "--cbc",
    ])
}

/// Runs solarmy on `args`: no panic (exit 101 or a signal), no backtrace, at most three
/// lines on stderr.
fn check(args: &[String]) -> Result<(), TestCaseError> {
    // In a scratch directory: a hostile --solve DIR is created there, not in the checkout.
    let dir = scratch("hostile");
    let o = bin()
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = o.status.code().unwrap_or(-1);
    let err = String::from_utf8_lossy(&o.stderr);
    prop_assert!(code != 101 && code >= 0, "{args:?}: exit {code}: {err}");
    prop_assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{args:?}: {err}"
    );
    prop_assert!(err.trim().lines().count() <= 3, "{args:?}: {err}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn nearly_valid_arguments_never_panic(
        sub in prop::sample::select(vec!["solve", "cases", "bounds", "verify"]),
        army in prop::sample::select(vec!["conway", "skew", "diagonal", "hexagonal", "pablito", "Conway", ""]),
        level in hostile(),
        size in hostile(),
        extra in prop::collection::vec((flag(), hostile()), 0..2),
    ) {
        let mut args: Vec<String> = vec![sub.into(), "--army".into(), army.into()];
        if sub != "bounds" {
            args.extend(["--level".into(), level]);
        }
        if sub == "cases" {
            args.extend(["--size".into(), size]);
        }
        if sub == "verify" {
            args.extend(["/dev/null".into(), "-".into()]);
        }
        for (f, v) in extra {
            args.push(f.to_string());
            args.push(v);
        }
        if sub == "solve" || sub == "cases" {
            args.extend(["--time-limit", "0.5", "--max-cases", "1000"].map(String::from));
        }
        check(&args)?;
    }

    #[test]
    fn hostile_arguments_never_panic(
        sub in prop::sample::select(vec!["solve", "verify", "cases", "bounds", "completions", "manpage", "bogus", ""]),
        pairs in prop::collection::vec((flag(), hostile()), 0..5),
        tail in prop::collection::vec(hostile(), 0..3),
    ) {
        let mut args: Vec<String> = vec![sub.to_string()];
        for (f, v) in pairs {
            args.push(f.to_string());
            args.push(v);
        }
        args.extend(tail);
        // Keep every run short: small levels, a tiny time limit, few cases kept.
        if sub == "solve" || sub == "cases" {
            args.extend(["--time-limit", "0.5", "--max-cases", "1000"].map(String::from));
        }
        check(&args)?;
    }
}

#[test]
fn every_script_has_help_and_refuses_unknown_arguments() {
    let root = env!("CARGO_MANIFEST_DIR");
    for script in [
        "setup",
        "reproduce",
        "bench",
        "models",
        "cbc-check",
        "replay.py",
        "binary",
        "catalog",
        "find-army",
    ] {
        let path = format!("{root}/scripts/{script}");
        let run = |arg: &str| {
            let interpreter = if script == "setup" || script == "models" || script == "binary" {
                "bash"
            } else {
                "python3"
            };
            Command::new(interpreter)
                .args([path.as_str(), arg])
                .current_dir(root)
                .output()
                .unwrap()
        };
        let help = run("--help");
        let text = String::from_utf8_lossy(&help.stdout).to_lowercase();
        assert_eq!(help.status.code(), Some(0), "{script} --help");
        assert!(
            text.contains("usage") && text.contains("time"),
            "{script}: {text}"
        );
        let t = std::time::Instant::now();
        let bad = run("--no-such-option");
        assert_eq!(bad.status.code(), Some(2), "{script} --no-such-option");
        assert!(t.elapsed().as_secs_f64() < 5.0, "{script} did work first");
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!err.trim().is_empty(), "{script}: refused without a word");
    }
}

/// The target directory the test binary was built in.
fn target_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_BIN_EXE_solarmy"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

#[test]
fn scripts_reuse_a_fresh_binary_and_bench_survives_a_time_limit() {
    let root = env!("CARGO_MANIFEST_DIR");
    let t = std::time::Instant::now();
    let o = Command::new("bash")
        .arg(format!("{root}/scripts/binary"))
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(
        std::fs::canonicalize(&path).unwrap(),
        std::fs::canonicalize(env!("CARGO_BIN_EXE_solarmy")).unwrap()
    );
    assert!(t.elapsed().as_secs_f64() < 5.0, "it built instead");

    // Every solve stopped at its time limit (exit 3): recorded, not a traceback.
    let d = scratch("bench");
    let csv = d.join("bench.csv");
    let o = Command::new("python3")
        .args([
            &format!("{root}/scripts/bench"),
            "--runs",
            "1",
            "--time-limit",
            "0.001",
            "--out",
            csv.to_str().unwrap(),
        ])
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("Traceback"), "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("time_limit"), "{text}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn progress_goes_to_a_terminal_stderr_even_with_json_and_q_silences_it() {
    // util-linux `script` gives the command a terminal; without it there is nothing to test.
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    let d = scratch("progress");
    let run = |extra: &str| {
        let cmd = format!(
            "{} solve --army hexagonal --level 6 --json {extra} > {}/out.json",
            env!("CARGO_BIN_EXE_solarmy"),
            d.display()
        );
        let o = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("out.json")).unwrap()).unwrap();
        assert_eq!(json["min_size"], 36);
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(!run("").trim().is_empty(), "no progress on the terminal");
    assert_eq!(run("-q").trim(), "", "-q still showed progress");
    std::fs::remove_dir_all(&d).ok();
}

/// An army's fewest-moves search keeps its state beside the play; a rerun with the same --out
/// starts from the recorded depths and says so, and a state of another problem is ignored
/// with one line (Conway level 4: start bound 5, 10 moves).
#[test]
fn a_moves_search_resumes_from_its_state_and_says_so() {
    let dir = scratch("moves-state");
    let out = dir.to_str().unwrap();
    let army = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/armies/conway-4-army.csv"
    );
    let mut men: Vec<(i32, i32, i32)> =
        solarmy::report::export::read_army(std::path::Path::new(army))
            .unwrap()
            .into_iter()
            .map(|c| (c.0, c.1, c.2))
            .collect();
    men.sort_unstable();
    let state = |level: i32| {
        serde_json::json!({
            "stamp": {"program": format!("solarmy {}", env!("CARGO_PKG_VERSION")),
                      "kind": "moves",
                      "problem": {"army": "conway", "level": level, "men": men},
                      "options": null},
            "state": {"lower_bound": 9, "positions": [0, 0, 0, 0, 0, 4, 74, 610, 2794],
                      "play": null},
        })
        .to_string()
    };
    let path = dir.join("conway-4-moves-state.json");
    let args = [
        "moves",
        "--army",
        "conway",
        "--level",
        "4",
        "--from",
        army,
        "--no-seed",
        "--probe",
        "0",
        "--out",
        out,
        "--json",
    ];
    std::fs::write(&path, state(4)).unwrap();
    let (c, o, e) = solarmy(&args);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(
        (v["min_moves"].as_u64(), v["resumed_below"].as_u64()),
        (Some(10), Some(9))
    );
    assert_eq!(v["positions"]["8"], 2794);
    assert!(v["positions"].get("9").is_some(), "{o}");
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(kept["state"]["lower_bound"], 10);
    assert!(kept["state"]["play"].is_array());
    // A state of another level: ignored, said in one line, the search from the start bound.
    std::fs::write(&path, state(3)).unwrap();
    let (c, o, e) = solarmy(&args);
    assert_eq!(c, 0, "{e}");
    assert!(
        e.contains("ignoring") && e.trim().lines().count() == 1,
        "{e}"
    );
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert!(v["resumed_below"].is_null() && v["min_moves"] == 10, "{o}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 38 §2's misleading errors, each now one line that says what is wrong: a model file's
/// missing field and malformed `start`, a non-ASCII name, a number too large, `verify` asked
/// for the wrong flag, `--run-job` with another problem than its sweep's, and the plurals.
#[test]
fn the_errors_that_misled_say_what_is_wrong() {
    let dir = scratch("misleading");
    let models = concat!(env!("CARGO_MANIFEST_DIR"), "/models");
    let conway = std::fs::read_to_string(format!("{models}/conway.toml")).unwrap();
    let model = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let keep = |skip: &str, add: &str| {
        let lines = conway.lines().filter(|l| !l.starts_with(skip));
        lines.chain([add]).collect::<Vec<_>>().join("\n")
    };
    let cases = [
        (
            model("nodir.toml", keep("directions", "")),
            "missing field `directions`",
            "line",
        ),
        (
            model("start.toml", keep("start", "start = \"half-space\"")),
            "it must be a table: { kind = \"half-space\" }",
            "internally tagged",
        ),
        (
            model("name.toml", keep("name", "name = \"армия\"")),
            "ASCII letters",
            "~",
        ),
    ];
    for (path, says, not) in &cases {
        let err = one_line(&["solve", "--model", path, "--level", "2"], 2);
        assert!(err.contains(says) && !err.contains(not), "{path}: {err}");
    }
    let err = one_line(&["solve", "--army", "conway", "--level", "99999999999"], 2);
    assert!(err.contains("from 1 to 2147483647"), "{err}");
    let english = format!("{models}/english.toml");
    for (args, says, not) in [
        (
            &["verify", "--model", &english, "a.csv", "p.csv"][..],
            "needs --finish",
            "--level",
        ),
        (
            &[
                "verify", "--army", "conway", "--finish", "0,0", "a.csv", "p.csv",
            ],
            "--level N",
            "--vacancy",
        ),
        (
            &["verify", "--army", "conway", "a.csv", "p.csv"],
            "needs --level N",
            "--finish",
        ),
    ] {
        let err = one_line(args, 2);
        assert!(err.contains(says) && !err.contains(not), "{args:?}: {err}");
    }
    // A job of another problem than the sweep's is refused before any work or answer.
    let jobs = dir.join("jobs");
    let skew = ["cases", "--army", "skew", "--level", "5", "--size", "19"];
    let (code, _, err) =
        solarmy(&[&skew[..], &["--emit-jobs", jobs.to_str().unwrap(), "-q"]].concat());
    assert_eq!(code, 0, "{err}");
    let other = ["cases", "--army", "skew", "--level", "6", "--size", "19"];
    let run = ["--run-job", jobs.to_str().unwrap(), "--case", "1"];
    let err = one_line(&[&other[..], &run].concat(), 1);
    assert!(
        err.contains("sweep of --run-job is --army skew --level 5 --size 19"),
        "{err}"
    );
    let results = std::fs::read_dir(jobs.join("results")).map_or(0, |d| d.count());
    assert_eq!(results, 0, "a job of another problem wrote a result");
    // Plurals: one jump, one move, one man left; one army.
    let (code, out, _) = solarmy(&[
        "solve",
        "--army",
        "conway",
        "--level",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("2 men, 1 jump, 1 move,"), "{out}");
    let (a, p) = (dir.join("conway-1-army.csv"), dir.join("conway-1-play.csv"));
    let (_, out, _) = solarmy(&[
        "verify",
        "--army",
        "conway",
        "--level",
        "1",
        a.to_str().unwrap(),
        p.to_str().unwrap(),
    ]);
    assert!(
        out.starts_with("legal: 2 men, 1 jump, 1 move, 1 man left"),
        "{out}"
    );
    let (_, out, _) = solarmy(&["count", "--army", "conway", "--level", "2"]);
    assert!(out.contains("\n1 army up to the mirror, 2 in all"), "{out}");
}
