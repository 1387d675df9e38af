//! The search by levels pruned per problem ([`solarmy::play::peg::fewest::Pruning`]): on every
//! problem tried, the pruned levels give the same fewest moves, the same positions on some
//! play and the same table as the unpruned ones, with no more positions built; a pagoda that
//! rises on a jump is never used; the catalogue pruned agrees with the catalogue shared.

use solarmy::play::peg::PegBoard;
use solarmy::play::peg::fewest::{self, Bits, Limits, Pagodas, Pruning, Status};
use solarmy::play::peg::sharpen::Sharpening;
use solarmy::problem::geometry::Cell;
use std::path::Path;

fn board(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml")))
        .unwrap()
}

fn limits(pruning: Pruning) -> Limits {
    Limits {
        pruning,
        ..Limits::default()
    }
}

/// Pruned and unpruned answers of (v, f) are the same; returns (built unpruned, built pruned).
fn same(b: &PegBoard, (v, f): (usize, usize), pruning: Pruning) -> (u64, u64) {
    let (plain, n0) = fewest::solve_one(b, v, f, &Limits::default()).unwrap();
    let (pruned, n1) = fewest::solve_one(b, v, f, &limits(pruning)).unwrap();
    let what = format!("{} {:?} -> {:?}", b.name, b.cells[v], b.cells[f]);
    assert_eq!(plain.min_moves, pruned.min_moves, "{what}");
    assert_eq!(plain.on_plays, pruned.on_plays, "{what}");
    assert_eq!(plain.table, pruned.table, "{what}");
    assert_eq!(plain.play.is_some(), pruned.play.is_some(), "{what}");
    // Pruned levels are kept up to the symmetries fixing both holes, the shared ones up to
    // those fixing one: the counts compare when the two groups are one.
    if v == f {
        assert!(n1 <= n0, "{what}: {n1} built pruned, {n0} unpruned");
    }
    (n0, n1)
}

/// The triangle has no shape pagoda: the pruned levels differ only by their group (the
/// symmetries fixing both holes), and every answer is the same.
#[test]
fn pruned_levels_change_no_answer_on_the_triangle() {
    let b = board("triangle5");
    for v in 0..b.cells.len() {
        for f in 0..b.cells.len() {
            same(&b, (v, f), Pruning::Shape);
        }
    }
}

/// Pagodas made for the problem by the integer program prune the 32-hole diamond's levels
/// and change no answer.
#[test]
fn sharpened_pagodas_prune_and_change_no_answer() {
    let b = board("diamond32");
    let how = Sharpening {
        rounds: 2,
        samples: 100,
        limit: 2,
        seconds: 1.0,
    };
    let problems = b.problems();
    let centre = problems.iter().find(|(v, f)| v == f).unwrap();
    let other = problems.iter().find(|(v, f)| v != f).unwrap();
    for &(v, f) in [centre, other] {
        let (n0, n1) = same(
            &b,
            (b.index[&v], b.index[&f]),
            Pruning::Sharpened(how.clone()),
        );
        if v == f {
            assert!(n1 < n0, "{v:?}: nothing pruned: {n1} of {n0}");
        }
    }
}

/// A "pagoda" that rises on some jump would prune positions on plays: it is left out.
#[test]
fn a_weight_that_rises_on_a_jump_is_never_used() {
    let b = board("english");
    let bits = Bits::new(&b).unwrap();
    let rising: Vec<i64> = (0..b.cells.len() as i64).collect();
    assert!(
        b.jumps
            .iter()
            .any(|j| rising[j.to] > rising[j.from] + rising[j.over])
    );
    let keep = Pagodas::toward(&bits, &[rising], &[0], 0);
    assert!(keep.is_empty() && keep.keeps(0));
    let count = Pagodas::toward(&bits, &solarmy::play::peg::exhaust::candidates(&b), &[0], 0);
    assert!(!count.is_empty());
}

#[test]
fn the_catalogue_pruned_agrees_with_the_catalogue_shared() {
    let b = board("triangle5");
    let shared = fewest::catalogue(&b, &Limits::default(), None, &mut |_| {}).unwrap();
    let pruned = fewest::catalogue(&b, &limits(Pruning::Shape), None, &mut |_| {}).unwrap();
    let answers = |es: &[fewest::Entry]| -> Vec<(Cell, Cell, Option<u32>, Vec<u64>)> {
        es.iter()
            .map(|e| {
                assert_eq!(e.status, Status::Searched);
                let s = &e.solved;
                (e.vacancy, e.finish, s.min_moves, s.on_plays.clone())
            })
            .collect()
    };
    assert_eq!(answers(&shared), answers(&pruned));
}

#[test]
fn memory_sizes_parse_and_a_small_budget_stops_in_one_line() {
    assert_eq!(fewest::parse_memory("16G"), Ok(16 << 30));
    assert_eq!(fewest::parse_memory("512m"), Ok(512 << 20));
    assert_eq!(fewest::parse_memory("1048576"), Ok(1 << 20));
    for bad in ["", "G", "12X", "-1G", "1K", "99999999999T"] {
        assert!(fewest::parse_memory(bad).is_err(), "{bad}");
    }
    assert!(fewest::half_the_machine() > 0);
    let b = board("english");
    let c = b.index[&Cell::xy(0, 0)];
    let small = Limits::default().with_memory(4 << 20);
    let e = fewest::solve_one(&b, c, c, &small).unwrap_err();
    assert!(e.contains("memory budget") && !e.contains('\n'), "{e}");
    // A budget that holds the levels gives the answer (the triangle: a few kilobytes).
    let t = board("triangle5");
    let lim = Limits::default().with_memory(1 << 20);
    let (s, _) = fewest::solve_one(&t, 0, 0, &lim).unwrap();
    let (plain, _) = fewest::solve_one(&t, 0, 0, &Limits::default()).unwrap();
    assert_eq!(s.min_moves, plain.min_moves);
}
