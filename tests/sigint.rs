//! Ctrl-C on a long command ends it with exit 3 and what it settled so far, printed and
//! written, never a lost run (exit 130 and an empty `--out`).

mod common;
use common::scratch;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `solarmy ARGS`, sends SIGINT after `after`, and returns (exit code, stdout).
fn interrupted(args: &[&str], after: Duration) -> (i32, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
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
