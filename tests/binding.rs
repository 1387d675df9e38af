//! A proof is checked against the problem it names: relabelled proofs of another problem are
//! refused with one line, the fingerprint a proof records must be its problem's, and
//! `check --model`/`--army` asserts which problem a proof must be about.

mod common;
use common::{scratch, solarmy};
use solarmy::proof::format::Proof;
use std::path::{Path, PathBuf};

fn results(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results")
        .join(rel)
}

fn bundled_text(name: &str) -> &'static str {
    solarmy::problem::fingerprint::BUNDLED_MODELS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap()
        .1
}

/// Writes `proof` to `dir/name` and checks it: (exit, stdout, stderr).
fn check(dir: &Path, name: &str, proof: &Proof, extra: &[&str]) -> (i32, String, String) {
    let path = dir.join(name);
    std::fs::write(&path, proof.to_bytes(&path).unwrap()).unwrap();
    let mut args = vec!["check", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    solarmy(&args)
}

fn refused(r: &(i32, String, String), why: &str) {
    assert_eq!(r.0, 1, "{r:?}");
    assert!(r.1.is_empty(), "{r:?}");
    assert_eq!(r.2.lines().count(), 1, "{r:?}");
    assert!(r.2.contains(why), "{why}: {r:?}");
}

#[test]
fn diagonal_relabelled_as_conway_is_refused() {
    let dir = scratch("bind-diagonal");
    let mut p = Proof::read(&results("proofs/diagonal-5.json.gz")).unwrap();
    p.army = "conway".into();
    p.model = Some(bundled_text("diagonal").replace("\"diagonal\"", "\"conway\""));
    refused(
        &check(&dir, "a.json", &p, &[]),
        "field `directions` differs",
    );
    // Without the model text the name alone makes it Conway's problem, whose level 5
    // the evidence cannot reach.
    p.model = None;
    assert_eq!(check(&dir, "b.json", &p, &[]).0, 1);
}

#[test]
fn french_relabelled_as_english_is_refused() {
    let dir = scratch("bind-french");
    let mut p = Proof::read(&results("boards/french/french-v0_0-f0_0.proof.json")).unwrap();
    p.army = "english".into();
    p.model = p
        .model
        .map(|m| m.replace("name = \"french\"", "name = \"english\""));
    refused(&check(&dir, "a.json", &p, &[]), "field `cells` differs");
}

#[test]
fn a_rhombus_proof_with_another_metric_is_refused() {
    let dir = scratch("bind-rhombus");
    let mut p = Proof::read(&results("deserts/desert-rhombus-4.json.gz")).unwrap();
    let model = p.model.clone().unwrap();
    p.model = Some(model.replace("manhattan", "chebyshev"));
    refused(&check(&dir, "a.json", &p, &[]), "field `start` differs");
    // The rhombus's proof under the square desert's name and model: the square desert
    // itself, so the binding holds and the mathematics is what fails.
    p.army = "desert-square".into();
    p.model = Some(bundled_text("desert-square").into());
    // Its recorded fingerprint is the rhombus's: refused by the binding.
    refused(&check(&dir, "b.json", &p, &[]), "not the problem claimed");
    // Without one (as proofs written before fingerprints), the mathematics fails.
    p.fingerprint = None;
    let r = check(&dir, "c.json", &p, &[]);
    refused(&r, "inside the desert");
}

#[test]
fn a_recorded_fingerprint_binds_and_is_printed() {
    let dir = scratch("bind-fingerprint");
    let mut p = Proof::read(&results("proofs/conway-3.json.gz")).unwrap();
    let fp = solarmy::problem::fingerprint::fingerprint(
        &solarmy::problem::fingerprint::bundled_spec("conway").unwrap(),
        solarmy::problem::fingerprint::Ends::Model,
    );
    p.fingerprint = Some(fp.clone());
    let ok = check(&dir, "a.json", &p, &["--army", "conway"]);
    assert_eq!(ok.0, 0, "{ok:?}");
    assert!(ok.1.contains(&format!("problem {}", &fp[..16])), "{ok:?}");
    assert!(!ok.1.contains("not recorded"), "{ok:?}");
    let json = check(&dir, "a.json", &p, &["--json"]);
    assert!(
        json.1.contains(&format!("\"fingerprint\":\"{fp}\"")),
        "{json:?}"
    );
    // The wrong problem asked for, by name or by file.
    refused(
        &check(&dir, "a.json", &p, &["--army", "skew"]),
        "not the model asked for, 'skew'",
    );
    let model = dir.join("hex.toml");
    std::fs::write(&model, bundled_text("hexagonal")).unwrap();
    let r = check(&dir, "a.json", &p, &["--model", model.to_str().unwrap()]);
    refused(&r, "not the model asked for, 'hexagonal'");
    // A fingerprint that is not the problem's.
    p.fingerprint = Some(fp.replace(&fp[..4], "ffff"));
    refused(
        &check(&dir, "b.json", &p, &[]),
        "the proof records problem ffff",
    );
}

/// One proof of each kind of results/ under the name of another bundled problem, with its
/// model text renamed: refused, naming the first field that differs.
#[test]
fn a_relabelled_proof_of_each_kind_is_refused() {
    let dir = scratch("bind-kinds");
    let kinds = [
        ("proofs/skew-4.json.gz", "skew", "pablito", "directions"),
        (
            "counts/diagonal-4-count.json.gz",
            "diagonal",
            "conway",
            "directions",
        ),
        ("3d/conway-3d-3.json.gz", "conway-3d", "conway", "dimension"),
        (
            "deserts/desert-square-3.json.gz",
            "desert-square",
            "conway",
            "start",
        ),
        (
            "boards/english/english-v0_0-f0_0.proof.json",
            "english",
            "french",
            "cells",
        ),
    ];
    for (i, (file, from, to, field)) in kinds.into_iter().enumerate() {
        let mut p = Proof::read(&results(file)).unwrap();
        let text = p.model.clone().unwrap_or_else(|| bundled_text(from).into());
        p.model = Some(text.replace(&format!("\"{from}\""), &format!("\"{to}\"")));
        p.army = to.into();
        let name = format!("{i}.json");
        refused(
            &check(&dir, &name, &p, &[]),
            &format!("field `{field}` differs"),
        );
    }
}

/// A model file may not borrow a bundled name for another problem: its proofs would be
/// refused as relabelled, so it is refused up front, in one line.
#[test]
fn a_model_under_a_bundled_name_must_be_that_model() {
    let dir = scratch("bind-name");
    let model = dir.join("m.toml");
    std::fs::write(
        &model,
        bundled_text("diagonal").replace("\"diagonal\"", "\"conway\""),
    )
    .unwrap();
    let m = model.to_str().unwrap();
    let r = solarmy(&["solve", "--model", m, "--level", "3"]);
    assert_eq!(r.0, 2, "{r:?}");
    assert!(
        r.2.contains("field `name`") && r.2.contains("`directions` differs"),
        "{r:?}"
    );
    assert_eq!(r.2.lines().count(), 1, "{r:?}");
    // The bundled model itself, with other comments, is fine.
    std::fs::write(&model, format!("# mine\n{}", bundled_text("conway"))).unwrap();
    assert_eq!(solarmy(&["solve", "--model", m, "--level", "3"]).0, 0);
}
