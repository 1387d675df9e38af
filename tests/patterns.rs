//! Pattern problems (issue 40): `solve --model BOARD --start FILE --finish FILE`. On the
//! 15-hole triangle every answer agrees with a brute-force search over all its positions and
//! every proof checks; on the English board the Latin cross is solved from the command line;
//! a proof moved to other patterns, or given a verdict made for a single vacancy, is refused;
//! bad input gets one line.

mod common;
use common::{scratch, solarmy};
use solarmy::play::peg::PegBoard;
use solarmy::play::peg::pattern::{self, Pattern};
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{Options, check};
use solarmy::proof::format::{BoardVerdict, Claim, Proof};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn model(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"))
}

/// Whether `finish` is reached from `start` (hole masks), by brute force over the board's
/// positions, sharing nothing with the solver but the model's holes and directions.
fn reachable(b: &PegBoard, start: u32, finish: u32) -> bool {
    let idx = |c: Cell| b.cells.iter().position(|&h| h == c);
    let mut lines = Vec::new();
    for (a, &Cell(x, y, _)) in b.cells.iter().enumerate() {
        for &Cell(dx, dy, _) in &b.directions {
            if let (Some(o), Some(t)) = (
                idx(Cell::xy(x + dx, y + dy)),
                idx(Cell::xy(x + 2 * dx, y + 2 * dy)),
            ) {
                lines.push((a, o, t));
            }
        }
    }
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        for &(a, o, t) in &lines {
            if p >> a & 1 == 1 && p >> o & 1 == 1 && p >> t & 1 == 0 {
                let q = p ^ (1 << a) ^ (1 << o) ^ (1 << t);
                if seen.insert(q) {
                    stack.push(q);
                }
            }
        }
    }
    seen.contains(&finish)
}

fn cells_of(b: &PegBoard, mask: u32) -> Vec<Cell> {
    (0..b.cells.len())
        .filter(|&h| mask >> h & 1 == 1)
        .map(|h| b.cells[h])
        .collect()
}

#[test]
fn triangle_patterns_agree_with_brute_force_and_their_proofs_check() {
    let b = PegBoard::read(&model("triangle5")).unwrap();
    let n = b.cells.len() as u32;
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut reasons = std::collections::BTreeMap::new();
    for _ in 0..300 {
        let start = (next() as u32) & ((1 << n) - 1);
        let one = |k: u64| 1u32 << (k % n as u64);
        // One man to finish on, and a second one time in four.
        let finish = one(next()) | if next() % 4 == 0 { one(next()) } else { 0 };
        if start == 0 {
            continue;
        }
        let p = Pattern {
            start: cells_of(&b, start),
            finish: cells_of(&b, finish),
        };
        let o = pattern::settle(&b, &p, &Default::default()).unwrap();
        let truth = reachable(&b, start, finish);
        assert_eq!(
            o.verdict.solvable(),
            Some(truth),
            "{p:?}: {:?}",
            o.verdict.reason()
        );
        *reasons.entry(o.verdict.reason()).or_insert(0) += 1;
        let proof = pattern::proof(&b, &p, &o).unwrap();
        let s = check(&proof, &Options::default()).unwrap();
        assert!(s.claim.starts_with("pattern of"), "{}", s.claim);
    }
    // The sample reaches every kind of answer but the jump program's tree.
    for reason in [
        "play",
        "position class",
        "resource count",
        "exhaustive search",
    ] {
        assert!(reasons.contains_key(reason), "{reason}: {reasons:?}");
    }
}

fn write_men(dir: &Path, name: &str, men: &[(i32, i32)]) -> String {
    let text: String = men.iter().map(|(x, y)| format!("{x},{y}\n")).collect();
    let path = dir.join(name);
    std::fs::write(&path, format!("x,y\n{text}")).unwrap();
    path.to_string_lossy().into()
}

/// The Latin cross (Bell's d2, c3, d3, e3, d4, d5) to the centre.
fn latin_cross(dir: &Path) -> (String, String) {
    let cross = [(0, -2), (-1, -1), (0, -1), (1, -1), (0, 0), (0, 1)];
    (
        write_men(dir, "cross.csv", &cross),
        write_men(dir, "centre.csv", &[(0, 0)]),
    )
}

#[test]
fn the_latin_cross_is_solved_and_checked_from_the_command_line() {
    let dir = scratch("pattern-cross");
    let (s, f) = latin_cross(&dir);
    let english = model("english");
    let proof = dir.join("cross.json");
    let (code, out, err) = solarmy(&[
        "solve",
        "--model",
        english.to_str().unwrap(),
        "--start",
        &s,
        "--finish",
        &f,
        "--json",
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["status"], "solvable");
    assert_eq!(j["play"].as_array().unwrap().len(), 5);
    assert_eq!(j["problem"]["start"].as_array().unwrap().len(), 6);
    let (code, out, err) = solarmy(&["check", proof.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("pattern of 6 men -> 1 man solvable proven"),
        "{out}"
    );
    // `verify` replays the play to the finish position given as a file, and names the
    // position it ends on when that is not the one given.
    let steps = j["play"].as_array().unwrap().iter().map(|s| {
        let c = |k: &str| format!("{},{}", s[k][0], s[k][1]);
        format!("{},{},{}\n", c("from"), c("over"), c("to"))
    });
    let play = dir.join("play.csv");
    let header = "from_x,from_y,over_x,over_y,to_x,to_y\n".to_string();
    std::fs::write(&play, header + &steps.collect::<String>()).unwrap();
    let m = english.to_str().unwrap();
    let p = play.to_str().unwrap();
    let (code, out, err) = solarmy(&["verify", "--model", m, "--finish", &f, &s, p]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to the finish position (1 man)"), "{out}");
    let other = write_men(&dir, "other.csv", &[(0, 1)]);
    let (code, _, err) = solarmy(&["verify", "--model", m, "--finish", &other, &s, p]);
    assert_eq!(code, 1);
    assert!(err.contains("not one man on the finish (0, 1)"), "{err}");
}

#[test]
fn a_pattern_proof_is_bound_to_its_patterns() {
    let dir = scratch("pattern-bound");
    let (s, f) = latin_cross(&dir);
    let english = model("english");
    let path = dir.join("cross.json");
    let args = [
        "solve",
        "--model",
        english.to_str().unwrap(),
        "--start",
        &s,
        "--finish",
        &f,
    ];
    let (code, _, err) = solarmy(&[&args[..], &["--proof", path.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    let proof = Proof::read(&path).unwrap();
    let refused = |p: &Proof| check(p, &Options::default()).unwrap_err().to_string();
    // Another finish under the same fingerprint: not the problem the fingerprint names.
    let mut moved = proof.clone();
    let Claim::Pattern(c) = &mut moved.claim else {
        panic!("a pattern claim")
    };
    c.finish = vec![Cell::xy(0, -1)];
    assert!(
        refused(&moved).contains("not the problem claimed"),
        "{}",
        refused(&moved)
    );
    // Without the fingerprint, the play itself fails.
    moved.fingerprint = None;
    assert!(
        refused(&moved).contains("not one man on the finish (0, -1)"),
        "{}",
        refused(&moved)
    );
    // A pruned exhaustion is a verdict for one vacancy and one finish.
    let mut pruned = proof.clone();
    if let Claim::Pattern(c) = &mut pruned.claim {
        c.verdict = BoardVerdict::Exhausted {
            pagodas: Vec::new(),
            symmetries: 1,
            forward: vec![1],
            backward: Vec::new(),
            children: false,
        };
    }
    assert!(
        refused(&pruned).contains("not for a pattern"),
        "{}",
        refused(&pruned)
    );
}

#[test]
fn bad_patterns_get_one_line() {
    let dir = scratch("pattern-bad");
    let english = model("english");
    let m = english.to_str().unwrap();
    let centre = write_men(&dir, "centre.csv", &[(0, 0)]);
    let off = write_men(&dir, "off.csv", &[(3, 3)]);
    let twice = write_men(&dir, "twice.csv", &[(0, 1), (0, 1), (0, 2)]);
    for (start, finish, says) in [
        (&off, &centre, "not on a hole"),
        (&twice, &centre, "twice"),
        (&centre, &off, "not on a hole"),
    ] {
        let (code, out, err) =
            solarmy(&["solve", "--model", m, "--start", start, "--finish", finish]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains(says) && err.trim().lines().count() == 1,
            "{err}"
        );
    }
    let (code, _, err) = solarmy(&["solve", "--model", m, "--finish", "0,0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--start FILE"), "{err}");
}

#[test]
fn a_time_limit_leaves_a_hard_pattern_undecided() {
    let dir = scratch("pattern-time");
    let wiegleb = PegBoard::read(&model("wiegleb")).unwrap();
    let all: Vec<(i32, i32)> = wiegleb.cells.iter().map(|c| (c.0, c.1)).collect();
    let start: Vec<(i32, i32)> = all.iter().copied().filter(|&c| c != (-4, 0)).collect();
    let s = write_men(&dir, "start.csv", &start);
    let f = write_men(&dir, "finish.csv", &[(-4, 0)]);
    let m = model("wiegleb");
    let (code, out, err) = solarmy(&[
        "solve",
        "--model",
        m.to_str().unwrap(),
        "--start",
        &s,
        "--finish",
        &f,
        "--time-limit",
        "1",
        "--json",
    ]);
    assert_eq!(code, 3, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["status"], "undecided");
    assert!(j["why"].as_str().unwrap().contains("time limit"), "{out}");
}
