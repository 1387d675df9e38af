//! Three-dimensional armies (models/conway-3d.toml): the model's derived symmetries and
//! highest level, a small army solved, replayed and its proof checked, the files in 3-D
//! coordinates, and the checker refusing a damaged 3-D play.

use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{Options, check};
use solarmy::proof::format::Proof;
use solarmy::proof::verify;
use solarmy::report::export;
use solarmy::search::minimum::{Request, Status, find_minimum};
use solarmy::weight::pagoda::highest_level;
use std::path::Path;

fn conway_3d() -> Army {
    Army::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/conway-3d.toml")).unwrap()
}

#[test]
fn the_3d_half_space_has_the_squares_eight_symmetries_and_reaches_level_7() {
    let army = conway_3d();
    assert_eq!(army.problem().symmetries.len(), 8);
    let l = army.lattice();
    assert_eq!(l.dimension(), 3);
    // Up to the symmetries the last jump is sideways, up or down: (1,0,0), (0,0,±1).
    let mut d: Vec<Cell> = l.last_jump_directions();
    d.sort();
    assert_eq!(d.len(), 3, "{d:?}");
    // Every symmetry keeps the layers z = const (the row).
    for s in &l.symmetries {
        assert_eq!(s[1], [0, 1, 0]);
    }
    // Eriksson and Lindström: Z^n reaches level 3n − 2.
    assert_eq!(highest_level(army), 7);
}

/// A 3-D model's error names the field, on one line.
#[test]
fn a_bad_3d_model_names_its_field() {
    let model = |dirs: &str, cells: &str, extra: &str| {
        format!(
            "name = \"t\"\ndimension = 3\ndirections = {dirs}\ncells = {cells}\nstart = {{ kind = \"half-space\" }}\n{extra}"
        )
    };
    let six = "[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]]";
    let cases = [
        (
            model("[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0]]", "\"all\"", ""),
            "`directions`",
        ),
        (model("[[1,0],[-1,0],[0,1]]", "\"all\"", ""), "`directions`"),
        (model(six, "\"triangle\"", ""), "`cells`"),
        (
            model(six, "\"all\"", "embedding = \"hexagonal\""),
            "`embedding`",
        ),
        (model(six, "\"all\"", "target = [0, 0]"), "`target`"),
    ];
    for (text, field) in cases {
        let e = Army::parse(&text).map(|_| ()).expect_err(&text);
        assert!(e.contains(field), "{text}\n=> {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

fn solved(level: i32) -> (solarmy::search::minimum::Outcome, Proof) {
    let out = find_minimum(&Request::new(conway_3d(), level)).unwrap();
    assert_eq!(out.status, Status::Optimal);
    assert!(out.verified && out.proof_complete);
    let proof = out.proof().unwrap();
    (out, proof)
}

#[test]
fn level_3_in_three_dimensions_is_solved_replayed_and_proven() {
    let (out, proof) = solved(3);
    let army = conway_3d();
    assert_eq!(out.min_size, Some(8));
    assert!(out.army_cells.iter().all(|c| c.row() >= 3));
    assert!(out.army_cells.iter().any(|c| c.2 != 0), "a 3-D army");
    verify::replay(&army.lattice(), 3, &out.army_cells, &out.play).unwrap();
    check(&proof, &Options::default()).unwrap();
    // Through JSON, as `solarmy check` reads it: cells are written [x, y, z].
    let text = serde_json::to_string(&proof).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let men = v["play"]["army"].as_array().unwrap();
    assert!(
        men.iter().all(|c| c.as_array().unwrap().len() == 3),
        "{men:?}"
    );
    let back: Proof = serde_json::from_str(&text).unwrap();
    check(&back, &Options::default()).unwrap();
    // CSV files carry z columns and read back the same.
    let dir = tempfile::tempdir().unwrap();
    let (a, p) = (dir.path().join("a.csv"), dir.path().join("p.csv"));
    std::fs::write(&a, export::army_csv(&out.army_cells, 3)).unwrap();
    std::fs::write(&p, export::play_csv(&out.play, 3)).unwrap();
    assert!(std::fs::read_to_string(&a).unwrap().starts_with("x,y,z\n"));
    assert_eq!(export::read_army(&a).unwrap(), out.army_cells);
    assert_eq!(export::read_play(&p).unwrap(), out.play);
}

#[test]
fn a_damaged_3d_play_is_refused() {
    let (_, proof) = solved(2);
    let mut bad = proof.clone();
    let jumps = &mut bad.play.as_mut().unwrap().jumps;
    // Move the first jump's landing cell one layer up: no longer a jump.
    jumps[0].2 = jumps[0].2 + Cell(0, 1, 0);
    assert!(check(&bad, &Options::default()).is_err());
}
