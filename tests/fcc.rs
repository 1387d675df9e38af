//! The fcc lattice (models/fcc.toml: the twelve jumps (±1, ±1, 0) on the even cells of Z^3,
//! men in the layers z >= n): the model is bundled and parses, its pagoda functions check
//! exactly, the solver's weights equal the checker's closed form at every level the checker
//! weighs, and the low levels' minima are found, replayed and their proofs checked.

use solarmy::problem::Army;
use solarmy::problem::fingerprint::bundled_spec;
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{Options, check};
use solarmy::proof::verify;
use solarmy::proof::weigh::{MAX_LEVEL, start_weight};
use solarmy::search::minimum::{Request, Status, find_minimum};
use solarmy::weight::golden::Golden;
use solarmy::weight::pagoda::{
    Pagoda, StartWeight, highest_level, impossibility_reason, window_level,
};
use std::path::Path;

fn fcc() -> Army {
    Army::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/fcc.toml")).unwrap()
}

#[test]
fn the_fcc_model_is_bundled_with_the_squares_symmetries_and_three_last_jumps() {
    let spec = bundled_spec("fcc").expect("fcc is bundled");
    assert_eq!((spec.dimension, spec.directions.len()), (3, 12));
    let army = fcc();
    assert_eq!(army.problem().symmetries.len(), 8);
    let l = army.lattice();
    assert_eq!(l.dimension(), 3);
    // Up to the symmetries the last jump runs in the layer, up or down.
    let d = l.last_jump_directions();
    assert_eq!(d.len(), 3, "{d:?}");
    let mut rows: Vec<i32> = d.iter().map(|c| c.row()).collect();
    rows.sort();
    assert_eq!(rows, vec![-1, 0, 1]);
}

/// The standard function and the improved one of every last jump are pagoda functions on
/// the whole window, checked exactly, with none of the jump types the board argument
/// cannot read.
#[test]
fn the_fcc_pagoda_functions_check_exactly() {
    let l = fcc().lattice();
    let mut fs = vec![Pagoda::standard(&l)];
    fs.extend(
        l.last_jump_directions()
            .into_iter()
            .map(|d| Pagoda::improved(&l, d)),
    );
    for f in fs {
        let c = f.check().unwrap();
        assert!(!c.types.contains("other"), "{:?}", c.types);
        assert!(c.lossy_landing_ok && c.loss_gap_ok, "{:?}", f.source);
    }
}

/// The highest level, derived by the solver, is where the checker's closed form crosses 1;
/// the solver's weight of the layers z >= n (counted in the window up to its level, read off
/// as σ^n times a quadratic in n beyond it) equals the checker's, at every level the window
/// counts, two above it and the highest the checker weighs.
#[test]
fn the_fcc_weights_agree_and_the_highest_level_is_where_they_cross_one() {
    let army = fcc();
    let l = army.lattice();
    let checker = |n: i32| start_weight(&l, n, Cell::ORIGIN, 0).unwrap();
    let top = highest_level(army);
    assert!(checker(top) > Golden::ONE && checker(top + 1) <= Golden::ONE);
    assert_eq!(top, 14);
    let window = window_level(&l);
    assert!(window > top);
    // Every level the window counts, and beyond it the quadratic read off the window.
    for n in (1..=window + 2).chain([MAX_LEVEL]) {
        let w = StartWeight::of(army, n);
        assert_eq!(Golden::pow(n) * w.factor, checker(n), "level {n}");
        assert_eq!(w.exceeds_one(), n <= top, "level {n}");
    }
    for n in [top + 1, MAX_LEVEL + 1, 1000] {
        let reason = impossibility_reason(army, n).unwrap();
        assert!(reason.contains("layers z >="), "{reason}");
    }
    assert!(impossibility_reason(army, top).is_none());
}

/// The answer at `level`, its proof checked (through JSON, as `solarmy check` reads it).
fn solved(level: i32) -> solarmy::search::minimum::Outcome {
    let out = find_minimum(&Request::new(fcc(), level)).unwrap();
    let text = serde_json::to_string(&out.proof().unwrap()).unwrap();
    let proof: solarmy::proof::format::Proof = serde_json::from_str(&text).unwrap();
    check(&proof, &Options::default()).unwrap();
    out
}

fn minima(levels: std::ops::RangeInclusive<i32>) -> Vec<u64> {
    let l = fcc().lattice();
    levels
        .map(|n| {
            let out = solved(n);
            assert_eq!(out.status, Status::Optimal, "level {n}");
            assert!(out.verified && out.proof_complete, "level {n}");
            assert!(
                out.army_cells
                    .iter()
                    .all(|&c| c.row() >= n && l.contains(c))
            );
            verify::replay(&l, n, &out.army_cells, &out.play).unwrap();
            out.min_size.unwrap()
        })
        .collect()
}

/// Levels 1 to 4: 2, 3, 5 and 8 men, each play replayed and each proof checked; the first level beyond the pagoda's limit is impossible, proven by the
/// checker's own closed form.
#[test]
fn the_low_fcc_levels_are_solved_and_proven() {
    assert_eq!(minima(1..=4), vec![2, 3, 5, 8]);
    let over = highest_level(fcc()) + 1;
    let out = solved(over);
    assert_eq!(out.status, Status::Impossible);
}

/// Levels 5 to 7: 13, 21 and 34 men (about 90 s of solving on an idle machine; 5 minutes at
/// load 9 on 2 cores).
#[test]
#[ignore]
fn fcc_levels_5_to_7_are_solved_and_proven() {
    assert_eq!(minima(5..=7), vec![13, 21, 34]);
}
