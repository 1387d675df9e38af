//! `solve --incumbent`: an army found elsewhere is replayed before it counts, caps the climb
//! and is reported as the best army, never as a minimum; an illegal one is refused.

mod common;
use common::solarmy;

const MODEL: &str = "models/desert-rhombus.toml";

/// The 28-man crossing of the rhombus of side 11 (level 6), as results/deserts has it: the
/// climb, given a second, proves less, so the answer is that army as best_size, unproven.
#[test]
fn a_given_army_is_the_best_army_not_a_minimum() {
    let (army, play) = (
        "results/deserts/desert-rhombus-6-army.csv",
        "results/deserts/desert-rhombus-6-play.csv",
    );
    let args = [
        "solve",
        "--model",
        MODEL,
        "--level",
        "6",
        "--time-limit",
        "1",
        "--json",
        "-q",
        "--incumbent",
        army,
        play,
    ];
    let (code, stdout, stderr) = solarmy(&args);
    assert_eq!(code, 3, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["best_size"], 28, "{v}");
    assert!(v["min_size"].is_null(), "a given army is no minimum: {v}");
    assert!(v["lower_bound"].as_u64().unwrap() < 28, "{v}");
}

/// A play that does not reach the target is refused before anything is solved.
#[test]
fn an_illegal_army_is_refused() {
    let dir = common::scratch("incumbent-bad");
    let play = dir.join("play.csv");
    let text = std::fs::read_to_string("results/deserts/desert-rhombus-6-play.csv").unwrap();
    let cut: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&play, cut.join("\n") + "\n").unwrap();
    let args = [
        "solve",
        "--model",
        MODEL,
        "--level",
        "6",
        "--incumbent",
        "results/deserts/desert-rhombus-6-army.csv",
        play.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = solarmy(&args);
    assert_ne!(code, 0, "{stdout}");
    assert!(
        stderr.contains("--incumbent") && stderr.contains("not a legal play"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
