//! Fewest-moves proofs: `moves --proof` writes one that `check` accepts; a tampered one (m
//! lowered, a count changed, the play shortened, the problem changed, a longer play claimed
//! fewest) is refused with a one-line reason; the checker's search by moves agrees with the
//! search of `play::moves` on small armies.

mod common;
use common::{scratch, solarmy};
use solarmy::play::moves::{self as fewest, Options, Problem, Status};
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{self, Options as CheckOptions};
use solarmy::proof::format::{Claim, FORMAT, MovesClaim, Play, Proof};
use solarmy::proof::verify::Step;
use solarmy::report::export;
use std::path::{Path, PathBuf};

fn results(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// A proof of "the play is fewest" for an army, its claim filled by the checker's search.
fn army_proof(army: Army, level: i32, men: &[Cell], play: &[Step]) -> Proof {
    let mut proof = Proof {
        format: FORMAT.into(),
        program: "test".into(),
        army: army.name().into(),
        model: None,
        fingerprint: Some(army.problem().fingerprint()),
        level,
        claim: Claim::Moves(MovesClaim {
            board: None,
            moves: 0,
            cells: 0,
            last_over: Vec::new(),
            counts: Vec::new(),
            levels: None,
        }),
        play: Some(Play {
            army: men.to_vec(),
            jumps: play.iter().map(|s| (s.from, s.over, s.to)).collect(),
        }),
        rounds: Vec::new(),
    };
    if let Ok(claim) = solarmy::proof::moves::prepare(&proof, None) {
        proof.claim = Claim::Moves(claim);
    }
    proof
}

fn fewest_play(army: Army, level: i32) -> (Vec<Cell>, Vec<Step>, u32) {
    let men =
        export::read_army(&results(&format!("results/armies/{army}-{level}-army.csv"))).unwrap();
    let p = Problem::army(army, level, &men).unwrap();
    let ans = fewest::solve(&p, Options::default()).unwrap();
    assert_eq!(ans.status, Status::Optimal, "{army} {level}");
    (men, ans.play.unwrap(), ans.min_moves.unwrap())
}

fn claim_of(proof: &mut Proof) -> &mut MovesClaim {
    match &mut proof.claim {
        Claim::Moves(c) => c,
        _ => unreachable!(),
    }
}

/// The check's error, which must be one line.
fn refused(proof: &Proof) -> String {
    let e = check::check(proof, &CheckOptions::default())
        .expect_err("a tampered proof must be refused")
        .to_string();
    assert!(!e.contains('\n'), "{e}");
    e
}

#[test]
fn the_checkers_search_agrees_with_the_fewest_moves_search() {
    for (army, level) in [
        (Army::conway(), 3),
        (Army::conway(), 4),
        (Army::skew(), 4),
        (Army::pablito(), 4),
        (Army::hexagonal(), 4),
        (Army::diagonal(), 4),
        (Army::diagonal(), 5),
    ] {
        let (men, play, m) = fewest_play(army, level);
        let proof = army_proof(army, level, &men, &play);
        let s = check::check(&proof, &CheckOptions::default()).unwrap();
        assert!(
            s.claim.contains(&format!("fewest moves {m}")),
            "{}",
            s.claim
        );
    }
}

#[test]
fn a_tampered_moves_proof_is_refused_with_a_one_line_reason() {
    let (men, play, m) = fewest_play(Army::conway(), 4);
    let good = army_proof(Army::conway(), 4, &men, &play);
    assert!(check::check(&good, &CheckOptions::default()).is_ok());

    let mut lower = good.clone();
    claim_of(&mut lower).moves = m - 1;
    assert!(refused(&lower).contains(&format!("the play takes {m} moves, claimed {}", m - 1)));

    let mut count = good.clone();
    claim_of(&mut count).counts[3] += 1;
    assert!(refused(&count).contains("depth 3:"));

    let mut short = good.clone();
    short.play.as_mut().unwrap().jumps.pop();
    assert!(refused(&short).contains("does not replay"));

    let mut other = good.clone();
    other.army = "skew".into();
    refused(&other);

    let mut print = good.clone();
    print.fingerprint = Some("00".repeat(32));
    assert!(refused(&print).contains("not the problem claimed"));

    let mut premise = good.clone();
    claim_of(&mut premise).last_over.pop();
    assert!(refused(&premise).contains("last jumps pass over"));
}

#[test]
fn a_longer_play_claimed_fewest_is_refused_by_the_search() {
    // The integer program's play of Conway's level 4 takes more moves than the fewest, 10.
    let men = export::read_army(&results("results/armies/conway-4-army.csv")).unwrap();
    let play = export::read_play(&results("results/armies/conway-4-play.csv")).unwrap();
    let long = solarmy::proof::verify::count_moves(&play) as u32;
    assert!(long > 10);
    let proof = army_proof(Army::conway(), 4, &men, &play);
    let e = solarmy::proof::moves::prepare(&proof, None).unwrap_err();
    assert!(e.contains("finds a play of 10 moves"), "{e}");
    let mut claimed = proof.clone();
    claimed.claim = Claim::Moves(MovesClaim {
        board: None,
        moves: long,
        cells: 6972,
        last_over: vec![
            Cell::xy(-1, 0),
            Cell::xy(0, -1),
            Cell::xy(0, 1),
            Cell::xy(1, 0),
        ],
        counts: vec![1; long as usize],
        levels: None,
    });
    assert!(refused(&claimed).contains("a play of 10 moves reaches the goal"));
}

#[test]
fn check_accepts_what_moves_proof_writes() {
    let dir = scratch("moves-proof");
    let army = results("results/armies/conway-4-army.csv");
    let file = dir.join("conway-4-moves.json.gz");
    let (code, out, err) = solarmy(&[
        "moves",
        "--army",
        "conway",
        "--level",
        "4",
        "--from",
        army.to_str().unwrap(),
        "--proof",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    let (code, out, err) = solarmy(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("fewest moves 10"), "{out}");

    let board = dir.join("triangle.json");
    let model = results("models/triangle5.toml");
    let (code, _, err) = solarmy(&[
        "moves",
        "--model",
        model.to_str().unwrap(),
        "--vacancy",
        "0,0",
        "--finish",
        "3,0",
        "--proof",
        board.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = solarmy(&["check", board.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(0,0)->(3,0) fewest moves 11"), "{out}");

    // A board proof whose finish is changed names another problem.
    let mut p = Proof::read(&board).unwrap();
    claim_of(&mut p).board = Some((Cell::xy(0, 0), Cell::xy(2, 0)));
    refused(&p);

    // --proof of the fewest over every army: refused on the command line, one line.
    let (code, _, err) = solarmy(&[
        "moves", "--army", "conway", "--level", "3", "--proof", "x.json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
