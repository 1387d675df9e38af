//! A board's fewest moves proven by the checker's own search by levels
//! (`solarmy::proof::fewest`): `moves --proof` on a board writes a claim by levels that
//! `check` accepts; its minimum agrees with the checker's search by moves on the triangle; a
//! tampered claim (a count, the symmetries, the moves, the problem) is refused with a
//! one-line reason naming what differs.

mod common;
use common::{scratch, solarmy};
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{self, Options as CheckOptions};
use solarmy::proof::format::{Claim, MovesClaim, Proof};
use std::path::{Path, PathBuf};

fn results(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
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

/// `moves --proof` on a board problem of `model`: the proof written.
fn board_proof(model: &str, v: &str, f: &str, dir: &Path) -> Proof {
    board_proof_with(model, (v, f), dir, &[])
}

/// [`board_proof`] with more arguments to `moves`.
fn board_proof_with(model: &str, (v, f): (&str, &str), dir: &Path, more: &[&str]) -> Proof {
    let file = dir.join(format!("{v}-{f}.json"));
    let model = results(model);
    let args = [
        "moves",
        "--model",
        model.to_str().unwrap(),
        &format!("--vacancy={v}"),
        &format!("--finish={f}"),
        "--proof",
        file.to_str().unwrap(),
    ];
    let (code, out, err) = solarmy(&[&args[..], more].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    Proof::read(&file).unwrap()
}

#[test]
fn the_search_by_levels_agrees_with_the_search_by_moves_on_the_triangle() {
    let dir = scratch("fewest-proof");
    for (v, f) in [
        ("0,0", "3,0"),
        ("2,0", "2,0"),
        ("1,0", "1,0"),
        ("0,0", "0,0"),
    ] {
        let proof = board_proof("models/triangle5.toml", v, f, &dir);
        let claim = match &proof.claim {
            Claim::Moves(c) => c.clone(),
            _ => unreachable!(),
        };
        let levels = claim.levels.as_ref().expect("a board's claim is by levels");
        assert!(levels.on_plays.iter().all(|&n| n > 0), "{v} {f}");
        let summary = check::check(&proof, &CheckOptions::default()).unwrap();
        assert!(
            summary.claim.contains("search by levels"),
            "{}",
            summary.claim
        );
        // The search by moves, on the same play, makes the same claim of moves.
        let by_moves = solarmy::proof::moves::prepare(&proof, claim.board).unwrap();
        assert_eq!(by_moves.moves, claim.moves, "{v} {f}");
    }
}

#[test]
fn a_tampered_claim_by_levels_is_refused_naming_what_differs() {
    let dir = scratch("fewest-tamper");
    let good = board_proof("models/triangle5.toml", "0,0", "3,0", &dir);

    let mut p = good.clone();
    let levels = claim_of(&mut p).levels.as_mut().unwrap();
    levels.on_plays[4] += 1;
    let e = refused(&p);
    assert!(e.contains("positions on some play after jumps 4"), "{e}");

    let mut p = good.clone();
    claim_of(&mut p).levels.as_mut().unwrap().forward[2] -= 1;
    assert!(refused(&p).contains("forward level 2"));

    let mut p = good.clone();
    claim_of(&mut p).levels.as_mut().unwrap().symmetries += 1;
    assert!(refused(&p).contains("symmetries fix the vacancy and the finish"));

    let mut p = good.clone();
    claim_of(&mut p).moves -= 1;
    assert!(refused(&p).contains("moves, claimed"));

    // Another problem under the same counts: the finish changed.
    let mut p = good.clone();
    claim_of(&mut p).board = Some((Cell::xy(0, 0), Cell::xy(2, 0)));
    refused(&p);
}

#[test]
#[ignore = "about a minute: the English central game, 1.7 million positions on some play"]
fn the_english_central_game_is_proven_in_18_moves() {
    let dir = scratch("fewest-english");
    let proof = board_proof("models/english.toml", "0,0", "0,0", &dir);
    let s = check::check(&proof, &CheckOptions::default()).unwrap();
    assert!(s.claim.contains("fewest moves 18"), "{}", s.claim);
    assert!(
        s.claim.contains("1679072 positions on some play"),
        "{}",
        s.claim
    );
}

/// The 6×6 board's proofs in results/ (`scripts/board-proofs --board 6x6 --ida`) whose check
/// took at most `most` seconds or more than `least` (the CSV's `check_seconds`): every such row
/// its CSV calls proven has its proof accepted by the checker's search by moves, and a claim
/// of one move fewer refused. The number of rows checked.
fn check_6x6_rows((least, most): (f64, f64)) -> usize {
    let csv = std::fs::read_to_string(results("results/boards/6x6-moves-proofs.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|&h| h == name).unwrap();
    let mut n = 0;
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        let secs: f64 = row[col("check_seconds")].parse().unwrap_or(f64::MAX);
        if row[col("status")] != "proven" || secs <= least || secs > most {
            continue;
        }
        let mut proof = Proof::read(&results(row[col("proof")])).unwrap();
        let s = check::check(&proof, &CheckOptions::default()).unwrap();
        assert!(s.claim.contains("fewest moves"), "{}", s.claim);
        let m = claim_of(&mut proof).moves;
        assert_eq!(m.to_string(), row[col("proof_moves")]);
        assert!((15..=16).contains(&m), "{line}");
        claim_of(&mut proof).moves = m - 1;
        refused(&proof);
        n += 1;
    }
    n
}

/// The 6×6 proofs whose Merson regions leave the checker next to nothing to search (Beasley:
/// 15 moves from a vacancy off the corners, 16 from a corner): all but one of the 21.
#[test]
fn the_6x6_fewest_moves_check_by_merson_regions() {
    assert!(
        check_6x6_rows((-1.0, 5.0)) >= 20,
        "the 6×6 proofs are missing"
    );
}

/// The 6×6 proofs whose check searches (the a3 complement: 16 moves where the regions give
/// 15, about two minutes for the checker to exhaust 15).
#[test]
#[ignore]
fn the_6x6_fewest_moves_that_need_a_search() {
    assert!(check_6x6_rows((5.0, f64::MAX)) >= 1);
}

/// Levels pruned by pagodas made for the problem (`--prune sharpened`): the proof states the
/// pagodas and the pruned counts, and the checker prunes its own levels by them, each
/// verified never to rise on a jump. Accepted; refused when a pagoda rises on a jump, or when
/// the pagodas are dropped (the checker's unpruned counts differ, naming the level).
#[test]
fn levels_pruned_by_pagodas_are_stated_and_rechecked() {
    let dir = scratch("fewest-proof-pruned");
    let proof = board_proof_with(
        "models/triangle5.toml",
        ("2,0", "2,0"),
        &dir,
        &["--prune", "sharpened"],
    );
    let s = check::check(&proof, &CheckOptions::default()).unwrap();
    assert!(s.claim.contains("fewest moves 9"), "{}", s.claim);
    let levels = |p: &mut Proof| claim_of(p).levels.clone().unwrap();
    assert!(!levels(&mut proof.clone()).pagodas.is_empty());
    let mut rising = proof.clone();
    if let Some(l) = claim_of(&mut rising).levels.as_mut() {
        let (cell, w) = l.pagodas[0][0];
        l.pagodas[0][0] = (cell, w + 1000);
    }
    let e = refused(&rising);
    assert!(e.contains("increases on the jump"), "{e}");
    let mut dropped = proof.clone();
    if let Some(l) = claim_of(&mut dropped).levels.as_mut() {
        l.pagodas.clear();
    }
    let e = refused(&dropped);
    assert!(e.contains("level"), "{e}");
}
