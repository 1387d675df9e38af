//! `solve` on single English problems (issue 40, "one problem, fast"): the fast depth-first
//! search's play is replayed by the independent checker, and the answer says which play it
//! is. Not timed (times are `scripts/bench`'s board section).

use serde_json::Value;
use solarmy::play::peg::dfs::{self, Tuning};
use solarmy::play::peg::play::Found;
use solarmy::play::peg::{PegBoard, parse_cell};
use solarmy::proof::verify::Step;
use std::path::Path;
use std::process::Command;

fn english() -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml")).unwrap()
}

#[test]
fn solve_reports_a_replayed_first_play_of_english_problems() {
    let b = english();
    for (v, f) in [
        ("0,0", "0,0"),
        ("-2,-1", "-2,-1"),
        ("-3,-1", "0,2"),
        ("1,0", "-2,0"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_solarmy"))
            .args([
                "solve",
                "--model",
                "models/english.toml",
                "--vacancy",
                v,
                "--finish",
                f,
            ])
            .arg("--json")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{v} -> {f}");
        let j: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(j["status"], "solvable", "{v} -> {f}");
        assert_eq!(j["play_kind"], "first", "{v} -> {f}");
        let play: Vec<Step> = serde_json::from_value(j["play"].clone()).unwrap();
        let (vc, fc) = (parse_cell(v).unwrap(), parse_cell(f).unwrap());
        b.replay(vc, &play, fc).expect("the play replays");
    }
}

#[test]
fn the_fast_search_finds_every_solvable_english_problem_within_its_budget() {
    let b = english();
    let csv = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/boards/english.csv"),
    )
    .unwrap();
    let mut solvable = 0;
    for line in csv.lines().skip(1).filter(|l| l.contains(",true,")) {
        let c: Vec<i32> = line
            .split(',')
            .take(4)
            .map(|x| x.parse().unwrap())
            .collect();
        let (v, f) = (
            b.index[&solarmy::problem::geometry::Cell::xy(c[0], c[1])],
            b.index[&solarmy::problem::geometry::Cell::xy(c[2], c[3])],
        );
        let (Found::Play(seq), spent) = dfs::find(&b, v, f, &Tuning::default()) else {
            panic!("{line}: no play within the budget");
        };
        assert!(spent.nodes <= Tuning::default().nodes);
        let play: Vec<Step> = seq
            .iter()
            .map(|&j| {
                let jump = b.jumps[j];
                Step {
                    from: b.cells[jump.from],
                    over: b.cells[jump.over],
                    to: b.cells[jump.to],
                }
            })
            .collect();
        b.replay(b.cells[v], &play, b.cells[f])
            .expect("the play replays");
        solvable += 1;
    }
    assert_eq!(solvable, 21);
}
