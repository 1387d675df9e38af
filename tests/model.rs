//! A model written by --write-model, read back and solved by HiGHS alone, gives the same
//! optimum; the pictures are well-formed SVG that draw every man.

use std::ffi::CString;
use std::process::Command;

fn highs_objective(path: &std::path::Path) -> (i32, f64) {
    let c = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: plain use of the HiGHS C API on a fresh instance.
    unsafe {
        let h = highs_sys::Highs_create();
        let opt = CString::new("output_flag").unwrap();
        highs_sys::Highs_setBoolOptionValue(h, opt.as_ptr(), 0);
        assert!(highs_sys::Highs_readModel(h, c.as_ptr()) >= 0);
        highs_sys::Highs_run(h);
        let status = highs_sys::Highs_getModelStatus(h);
        let obj = highs_sys::Highs_getObjectiveValue(h);
        highs_sys::Highs_destroy(h);
        (status, obj)
    }
}

#[test]
fn written_mps_resolves_to_the_same_optimum_and_svgs_are_well_formed() {
    let dir = std::env::temp_dir().join(format!("solarmy-model-{}", std::process::id()));
    let base = dir.join("conway-4.mps");
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args([
            "solve", "--army", "conway", "--level", "4", "--json", "--out",
        ])
        .arg(&dir)
        .arg("--write-model")
        .arg(&base)
        .output()
        .unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["min_size"], 20);
    // The round that found the army: optimum 20 again.
    let (status, obj) = highs_objective(&dir.join("conway-4-20men-d0_1.mps"));
    assert_eq!(status, highs_sys::kHighsModelStatusOptimal);
    assert!((obj - 20.0).abs() < 1e-6, "{obj}");
    // The round that proved the bound: infeasible again.
    let (status, _) = highs_objective(&dir.join("conway-4-19men-d0_1.mps"));
    assert_eq!(status, highs_sys::kHighsModelStatusInfeasible);
    // Columns and rows are named after jumps and cells: a jump from (0, 3) over (0, 2), the
    // target's balance row, a start cell.
    let mps = std::fs::read_to_string(dir.join("conway-4-20men-d0_1.mps")).unwrap();
    assert!(
        mps.contains("j_0_3_0_2") && mps.contains("cell_0_0"),
        "{}",
        &mps[..2000]
    );
    assert!(
        mps.contains("s_m1_4") && !mps.contains(" c0 "),
        "{}",
        &mps[..2000]
    );

    for name in ["conway-4-army.svg", "conway-4-play.svg"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut men = 0;
        let mut depth = 0i32;
        for ev in svg::read(&text).unwrap() {
            match ev {
                svg::parser::Event::Tag(tag, kind, attrs) => {
                    use svg::node::element::tag::Type;
                    match kind {
                        Type::Start => depth += 1,
                        Type::End => depth -= 1,
                        Type::Empty => {}
                    }
                    if tag == "circle"
                        && attrs.get("class").map(|f| f.to_string()) == Some("man".into())
                    {
                        men += 1;
                    }
                }
                svg::parser::Event::Error(e) => panic!("{name}: {e}"),
                _ => {}
            }
        }
        assert_eq!(depth, 0, "{name}: unbalanced tags");
        if name.ends_with("army.svg") {
            assert_eq!(men, 20, "{name}: every man drawn");
        } else {
            // One frame per move plus the army; 20 men in the first frame, 1 in the last.
            assert!(men > 20);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A model file name HiGHS cannot write is refused before anything is solved.
#[test]
fn a_model_format_is_checked_before_solving() {
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args([
            "solve",
            "--army",
            "conway",
            "--level",
            "4",
            "--write-model",
            "m.txt",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && o.stdout.is_empty(), "{err}");
    assert!(
        err.contains(".mps or .lp") && err.lines().count() == 1,
        "{err}"
    );
}
