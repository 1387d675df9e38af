//! Ctrl-C on a long command ends it with exit 3 and what it settled so far, printed and
//! written, never a lost run (exit 130 and an empty `--out`); with `--out` a rerun of the
//! same command resumes from what was kept and ends as a clean run would.

mod common;
use common::scratch;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `solarmy ARGS`, sends SIGINT after `after`, and returns (exit code, stdout).
fn interrupted(args: &[&str], after: Duration) -> (i32, String) {
    let (code, stdout, _) = interrupted_with_stderr(args, after);
    (code, stdout)
}

/// [`interrupted`], with stderr too.
fn interrupted_with_stderr(args: &[&str], after: Duration) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn count_stops_with_the_armies_found() {
    let dir = scratch("sigint-count");
    let out = dir.join("d");
    let (code, stdout) = interrupted(
        &[
            "count",
            "--army",
            "skew",
            "--level",
            "5",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(4),
    );
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("at least"), "{stdout}");
    assert!(std::fs::read_dir(&out).unwrap().count() > 0);
}

#[test]
fn catalog_stops_with_the_problems_settled() {
    let dir = scratch("sigint-catalog");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/diamond41.toml");
    let (code, stdout) = interrupted(
        &["catalog", "--model", model, "--out", dir.to_str().unwrap()],
        Duration::from_secs(3),
    );
    assert_eq!(code, 3, "{stdout}");
    let csv = std::fs::read_to_string(dir.join("diamond41.csv")).unwrap();
    // Every problem has its row: settled, or undecided with the reason.
    assert_eq!(csv.lines().count(), 1 + 237);
    assert!(csv.contains("undecided"), "{csv}");
}

#[test]
fn board_solve_stops_undecided() {
    // Wiegleb's (−4,0) complement: no play is found and nothing rules it out within seconds.
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/wiegleb.toml");
    let (code, stdout) = interrupted(
        &[
            "solve",
            "--model",
            model,
            "--vacancy",
            "-4,0",
            "--finish",
            "-4,0",
            "--json",
        ],
        Duration::from_secs(2),
    );
    assert_eq!(code, 3, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["why"], "interrupted (Ctrl-C)", "{v}");
    assert_eq!(v["solvable"], serde_json::Value::Null, "{v}");
}

#[test]
fn solve_stops_with_its_bound_and_its_rounds_kept() {
    // Hexagonal level 7: its first rounds take seconds; Ctrl-C after 4 s leaves the bound
    // proven so far (at least the pagoda bound) and the rounds settled, for a rerun to read.
    let dir = scratch("sigint-solve");
    let out = dir.join("d");
    let args = [
        "solve",
        "--army",
        "hexagonal",
        "--level",
        "7",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ];
    let (code, stdout) = interrupted(&args, Duration::from_secs(4));
    assert_eq!(code, 3, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["status"], "interrupted", "{v}");
    assert!(v["lower_bound"].as_u64().unwrap() >= 140, "{v}");
    assert!(out.join("hexagonal-7-rounds.jsonl").exists());
}

#[test]
fn cases_stops_with_the_cases_settled() {
    let dir = scratch("sigint-cases");
    let args = [
        "cases",
        "--army",
        "hexagonal",
        "--level",
        "7",
        "--size",
        "144",
        "--solve",
        dir.to_str().unwrap(),
        "--json",
    ];
    let (code, stdout) = interrupted(&args, Duration::from_secs(4));
    assert_eq!(code, 3, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["status"], "interrupted", "{v}");
}

#[test]
fn moves_by_levels_on_disk_stops_and_resumes() {
    // The English central game with its levels on disk: Ctrl-C while they are built leaves
    // only whole level files; the rerun reads them and ends with the 18 moves.
    let dir = scratch("sigint-moves");
    let work = dir.join("levels");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/english.toml");
    let args = [
        "moves",
        "--model",
        model,
        "--vacancy",
        "0,0",
        "--finish",
        "0,0",
        "--work",
        work.to_str().unwrap(),
        "--json",
    ];
    let (code, _) = interrupted(&args, Duration::from_millis(1500));
    assert_eq!(code, 3);
    let files: Vec<String> = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
        .map(|f| f.file_name().to_string_lossy().to_string())
        .collect();
    assert!(!files.is_empty(), "no level written before the interrupt");
    assert!(
        files
            .iter()
            .all(|n| n.starts_with("level-") && n.ends_with(".lvl")),
        "{files:?}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["min_moves"], 18, "{v}");
}

/// `check --cbc`'s CBC calls run in `solarmy cbc-system` children; a check that ends (its
/// `--time-limit` exits the process) must take them with it. Here the child blocks on a
/// pipe with no writer, and the shell that started it exits: the child must be gone.
#[cfg(target_os = "linux")]
#[test]
fn a_cbc_child_ends_with_the_process_that_started_it() {
    let dir = scratch("sigint-cbc-child");
    let fifo = dir.join("system.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let script = format!(
        "'{}' cbc-system '{}' >/dev/null 2>&1 & echo $!; sleep 0.5",
        env!("CARGO_BIN_EXE_solarmy"),
        fifo.display()
    );
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    let pid: i32 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
    // Gone, or a zombie waiting for init to reap it: not running.
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim().starts_with('Z'))
    };
    let t0 = std::time::Instant::now();
    while running() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let alive = running();
    if alive {
        // SAFETY: kill(2) on the pid the shell printed, to leave nothing behind.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert!(!alive, "cbc-system {pid} outlived its parent");
}

/// Runs `solarmy ARGS` to its end: (exit code, stdout, stderr).
fn whole(args: &[&str]) -> (i32, String, String) {
    common::solarmy(args)
}

/// The lines of a text with every "<number> s" (a time) taken out.
fn timeless(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_end().ends_with(" s"))
        .map(String::from)
        .collect()
}

/// The files of a directory (not its state, logs and records), name and contents, sorted.
fn results(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|f| f.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".csv") || n.ends_with(".svg"))
        .map(|n| (n.clone(), std::fs::read_to_string(dir.join(&n)).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn count_interrupted_and_rerun_counts_as_a_clean_run() {
    // Hexagonal level 5: some seconds of climb and count. Ctrl-C after 3 s, then the same
    // command again: its files and its answer are a clean run's.
    let dir = scratch("sigint-count-resume");
    let (clean, resumed) = (dir.join("clean"), dir.join("resumed"));
    let args = |out: &std::path::Path| {
        let out = out.to_str().unwrap().to_string();
        [
            "count",
            "--army",
            "hexagonal",
            "--level",
            "5",
            "--jobs",
            "1",
            "--out",
            &out,
        ]
        .map(String::from)
    };
    let (a, b) = (args(&clean), args(&resumed));
    let (a, b): (Vec<&str>, Vec<&str>) = (
        a.iter().map(String::as_str).collect(),
        b.iter().map(String::as_str).collect(),
    );
    let (code, _) = interrupted(&b, Duration::from_secs(3));
    assert!(code == 3 || code == 0, "{code}");
    let kept = resumed.join("hexagonal-5-count-state.json").exists();
    let (code, again, err) = whole(&b);
    assert_eq!(code, 0, "{err}");
    if kept {
        assert!(err.contains("solarmy: resuming from"), "{err}");
    }
    let (code, first, _) = whole(&a);
    assert_eq!(code, 0);
    assert_eq!(timeless(&again), timeless(&first));
    assert_eq!(results(&resumed), results(&clean));
}

/// The catalogue's CSV without its seconds column: each problem's verdict and reason.
fn verdicts(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            if f.len() > 6 {
                f.remove(6);
            }
            f.join(",")
        })
        .collect()
}

#[test]
fn catalog_interrupted_and_rerun_decides_as_a_clean_run() {
    // The 32-hole diamond: tens of seconds. Ctrl-C after 6 s leaves the problems decided
    // by then in the state; the rerun takes them and settles the rest.
    let dir = scratch("sigint-catalog-resume");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/diamond32.toml");
    let (clean, resumed) = (dir.join("clean"), dir.join("resumed"));
    let run = |out: &std::path::Path| {
        ["catalog", "--model", model, "--out", out.to_str().unwrap()].map(String::from)
    };
    let b = run(&resumed);
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let (code, _) = interrupted(&b, Duration::from_secs(6));
    assert!(code == 3 || code == 0, "{code}");
    let (code, _, err) = whole(&b);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("solarmy: resuming from"), "{err}");
    assert!(err.contains("problems decided"), "{err}");
    let a = run(&clean);
    let (code, _, _) = whole(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0);
    let csv = |d: &std::path::Path| std::fs::read_to_string(d.join("diamond32.csv")).unwrap();
    assert_eq!(verdicts(&csv(&resumed)), verdicts(&csv(&clean)));
}

#[test]
fn catalog_moves_stopped_and_rerun_finds_a_clean_runs_moves() {
    // The 15-hole triangle's moves take a fraction of a second: a moves time limit stops the
    // first run after a problem or a few; the rerun takes them and searches the rest.
    let dir = scratch("sigint-catalog-moves");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/triangle5.toml");
    let (clean, resumed) = (dir.join("clean"), dir.join("resumed"));
    let (r, c) = (resumed.to_str().unwrap(), clean.to_str().unwrap());
    let base = ["catalog", "--model", model, "--moves", "--out"];
    let late = ["--moves-time-limit", "0.02"];
    let (code, _, _) = whole(&[&base[..], &[r], &late[..]].concat());
    assert!(code == 3 || code == 0, "{code}");
    let (code, _, err) = whole(&[&base[..], &[r]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("resuming from") && err.contains("the fewest moves of"),
        "{err}"
    );
    let (code, _, _) = whole(&[&base[..], &[c]].concat());
    assert_eq!(code, 0);
    // vacancy, finish, orbit, status, min_moves, on_plays: all but the levels built and the
    // seconds, which depend on what the run before built.
    let moves = |d: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(d.join("triangle5-moves.csv"))
            .unwrap()
            .lines()
            .map(|l| l.split(',').take(8).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(moves(&resumed), moves(&clean));
}

#[test]
fn board_solve_keeps_its_rounds_and_a_rerun_resumes_them() {
    // Wiegleb's (−4,0) complement again: Ctrl-C after 2 s ends the search at its next round,
    // and the rounds refuted by then are kept. A state of another problem is ignored with
    // one line; a state whose every round is refuted resumes at once, to the same answer.
    let dir = scratch("sigint-solve-board");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/wiegleb.toml");
    let out = dir.to_str().unwrap();
    let args = [
        "solve",
        "--model",
        model,
        "--vacancy",
        "-4,0",
        "--finish",
        "-4,0",
        "--out",
        out,
        "--json",
    ];
    let (code, _) = interrupted(&args, Duration::from_secs(2));
    assert_eq!(code, 3);
    let path = dir.join("wiegleb-v-4_0-f-4_0-solve-state.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(state["state"]["rounds"].as_u64().unwrap() >= 1, "{state}");
    // Every round refuted, the exhaustion included: nothing is left to run.
    state["state"]["rounds"] = 3.into();
    state["state"]["exhausted"] = true.into();
    state["state"]["why"] = "; (kept)".into();
    std::fs::write(&path, state.to_string()).unwrap();
    let (code, stdout, err) = whole(&args);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("3 of 3 rounds of effort refuted"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["why"].as_str().unwrap().ends_with("; (kept)"), "{v}");
    // Another problem's stamp: ignored in one line, and the run starts afresh.
    state["stamp"]["problem"] = "0000".into();
    std::fs::write(&path, state.to_string()).unwrap();
    let (code, _, err) = interrupted_with_stderr(&args, Duration::from_millis(500));
    assert_eq!(code, 3);
    assert!(
        err.contains("ignoring") && err.contains("written for another problem"),
        "{err}"
    );
}

/// `check --work`: Ctrl-C while the levels are built on disk ends the check with exit 3 and
/// the file said not checked; the complete parts stay, and the rerun reads them (their
/// times unchanged) and accepts the proof. The proof is `moves --proof`'s on an English
/// problem with no play ((0,1) -> (0,2), ruled out by position class; its levels pruned by
/// the board's resource counts).
#[test]
fn check_on_disk_stops_and_resumes() {
    let dir = scratch("sigint-check-work");
    let proof = dir.join("no-play.json");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/english.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args([
            "moves",
            "--model",
            model,
            "--vacancy",
            "0,1",
            "--finish",
            "0,2",
        ])
        .args(["--prune", "shape", "--no-table", "-q", "--proof"])
        .arg(&proof)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let work = dir.join("levels");
    let args = [
        "check",
        "--work",
        work.to_str().unwrap(),
        "--parts",
        "2",
        proof.to_str().unwrap(),
    ];
    let (code, out) = interrupted(&args, Duration::from_millis(2500));
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("interrupted (Ctrl-C)"), "{out}");
    let parts = |ext: &str| -> Vec<(String, std::time::SystemTime)> {
        let mut v: Vec<_> = std::fs::read_dir(&work)
            .unwrap()
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
            .filter(|f| f.file_name().to_string_lossy().ends_with(ext))
            .map(|f| {
                let t = f.metadata().unwrap().modified().unwrap();
                (f.file_name().to_string_lossy().to_string(), t)
            })
            .collect();
        v.sort();
        v
    };
    let before = parts(".lvl");
    assert!(!before.is_empty(), "no part written before the interrupt");
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let after = parts(".lvl");
    assert!(
        before.iter().all(|b| after.contains(b)),
        "a part built again"
    );
    assert!(after.len() > before.len());
}
