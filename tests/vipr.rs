//! `check --vipr` writes certificates that the field's own checker accepts: viprchk, built
//! here from the VIPR repository's C++ source (g++ and libgmp-dev, which scripts/setup
//! installs), verifies the exported programs of small entries (plain Farkas leaves, trees
//! split on columns and on rows, a case of a split round) and refuses tampered ones.

mod common;
use common::{scratch, solarmy};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference checker's source (MIT, Cheung and Zuse Institute Berlin), an unmodified copy
/// from the public VIPR repository kept in tests/vipr/; VIPRCHK_SOURCE overrides it.
const SOURCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vipr/viprchk.cpp");
const VERIFIED: &str = "Infeasibility verified.";

/// viprchk, compiled once per test process.
fn viprchk() -> &'static Path {
    // In cargo's directory for tests' files, not /tmp: the executable outlives every test.
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viprchk");
        std::fs::create_dir_all(&dir).unwrap();
        build(&dir)
    })
}

fn build(dir: &Path) -> PathBuf {
    let source = std::env::var("VIPRCHK_SOURCE").unwrap_or_else(|_| SOURCE.into());
    assert!(
        Path::new(&source).exists(),
        "no VIPR checker source at {source} (set VIPRCHK_SOURCE to viprchk.cpp)"
    );
    let exe = dir.join("viprchk");
    let o = Command::new("g++")
        .args(["-O2", "-std=c++17", "-o"])
        .arg(&exe)
        .arg(&source)
        .args(["-lgmpxx", "-lgmp"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run g++ ({e}): run scripts/setup"));
    assert!(
        o.status.success(),
        "g++ could not build viprchk (scripts/setup installs g++ and libgmp-dev): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    exe
}

/// viprchk's verdict on one file: whether it verified, and what it printed.
fn verify(viprchk: &Path, file: &Path) -> (bool, String) {
    let o = Command::new(viprchk).arg(file).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success() && text.contains(VERIFIED), text)
}

fn vipr_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".vipr")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn exported_certificates_are_verified_by_viprchk_and_tampered_ones_are_not() {
    let dir = scratch("vipr");
    let exe = viprchk();
    let out = dir.join("out");
    // Conway 4: a split on a row; skew 5, hexagonal 6, Pablito 5: trees split on columns
    // and rows; diagonal 4: single Farkas leaves; the conway 4 count: cases with no-good cuts.
    let entries = [
        ("results/proofs/conway-4.json.gz", "conway-4-", 1),
        ("results/proofs/skew-5.json.gz", "skew-5-", 1),
        ("results/proofs/hexagonal-6.json.gz", "hexagonal-6-", 1),
        ("results/proofs/pablito-5.json.gz", "pablito-5-", 1),
        ("results/proofs/diagonal-4.json.gz", "diagonal-4-", 2),
        (
            "results/counts/conway-4-count.json.gz",
            "conway-4-count-",
            5,
        ),
    ];
    let root = env!("CARGO_MANIFEST_DIR");
    for (proof, prefix, programs) in entries {
        let path = format!("{root}/{proof}");
        let (code, stdout, err) = solarmy(&["check", "--vipr", out.to_str().unwrap(), &path]);
        assert_eq!(code, 0, "{proof}: {err}");
        assert!(
            stdout.contains(&format!("VIPR: {programs} of {programs} integer programs")),
            "{proof}: {stdout}"
        );
        let files = vipr_files(&out, prefix);
        assert_eq!(files.len(), programs, "{proof}: {files:?}");
        for f in &files {
            let (ok, text) = verify(exe, f);
            assert!(ok, "{}: viprchk did not verify it:\n{text}", f.display());
            assert!(!text.contains("Warning"), "{}: {text}", f.display());
        }
    }
    let text = std::fs::read_to_string(&vipr_files(&out, "skew-5-")[0]).unwrap();
    tampered_files_are_refused(exe, &dir, &text);
    std::fs::remove_dir_all(&dir).ok();
}

/// A multiplier changed, a row dropped from a leaf, a branch that no longer covers every
/// integer point: each refused.
fn tampered_files_are_refused(exe: &Path, dir: &Path, text: &str) {
    let leaf = text.lines().find(|l| l.starts_with("leaf")).unwrap();
    // The last multiplier (a bound's, cancelling one column) one larger.
    let (head, tail) = leaf.rsplit_once(" } ").unwrap();
    let (before, y) = head.rsplit_once(' ').unwrap();
    let y: i64 = y.parse().unwrap();
    let multiplier = format!("{before} {} }} {tail}", y + 1);
    // The first multiplier left out.
    let (start, rest) = leaf.split_once("{ lin ").unwrap();
    let mut words = rest.split_whitespace();
    let p: usize = words.next().unwrap().parse().unwrap();
    let kept: Vec<&str> = words.skip(2).collect();
    let dropped = format!("{start}{{ lin {} {}", p - 1, kept.join(" "));
    // The root's split: its upper branch x >= v + 1 moved to x >= v + 2.
    let root = text.lines().last().unwrap();
    let s = root.strip_prefix("uns").unwrap().split(' ').next().unwrap();
    let ge = text
        .lines()
        .find(|l| l.starts_with(&format!("split{s}_ge G ")))
        .unwrap();
    let v: i64 = ge.split(' ').nth(2).unwrap().parse().unwrap();
    let gap = ge.replacen(&format!(" G {v} "), &format!(" G {} ", v + 1), 1);
    for (what, from, to) in [
        ("a multiplier changed", leaf, multiplier.as_str()),
        ("a row dropped", leaf, dropped.as_str()),
        ("a branch moved", ge, gap.as_str()),
    ] {
        assert_ne!(from, to, "{what}");
        let bad = dir.join("tampered.vipr");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let (ok, out) = verify(exe, &bad);
        assert!(!ok, "{what}: viprchk accepted it:\n{out}");
    }
}

/// The only case splits of the published proofs are hexagonal 7's: one of its cases,
/// exported through the library (checking the whole proof re-solves its 6 programs that
/// have no certificate, minutes of HiGHS), is verified too.
#[test]
fn a_case_of_a_split_round_is_verified() {
    use solarmy::proof::format::Proof;
    use solarmy::proof::vipr;
    let dir = scratch("vipr-case");
    let exe = viprchk();
    let root = env!("CARGO_MANIFEST_DIR");
    let proof = Proof::read(Path::new(&format!(
        "{root}/results/proofs/hexagonal-7.json.gz"
    )))
    .unwrap();
    let (spaces, programs) = vipr::programs(&proof).unwrap();
    assert_eq!(programs.len(), 371);
    assert_eq!(programs.iter().filter(|p| p.exact()).count(), 365);
    // Two of its exact cases: the first and the last.
    let cases: Vec<&vipr::Program> = programs
        .iter()
        .filter(|p| p.case.is_some() && p.exact())
        .collect();
    assert!(cases.len() > 300, "{} exact cases", cases.len());
    let picked = [cases[0], cases[cases.len() - 1]];
    for p in picked {
        let text = vipr::render(&proof, &spaces[p.space], p, None)
            .unwrap()
            .unwrap();
        let f = dir.join("case.vipr");
        std::fs::write(&f, &text).unwrap();
        let (ok, out) = verify(exe, &f);
        assert!(ok, "case {:?}: viprchk did not verify it:\n{out}", p.case);
    }
    // A program left to the solvers has nothing to export.
    let solver = programs.iter().find(|p| !p.exact()).unwrap();
    assert!(
        vipr::render(&proof, &spaces[solver.space], solver, None)
            .unwrap()
            .is_none()
    );
    // But its problem alone is written (for an exact solver to certify), and viprchk
    // refuses it: it derives nothing.
    let problem = vipr::render_problem(&proof, &spaces[solver.space], solver, None).unwrap();
    assert!(problem.ends_with("RTP infeas\nSOL 0\nDER 0\n"));
    let f = dir.join("problem.vipr");
    std::fs::write(&f, &problem).unwrap();
    assert!(
        !verify(exe, &f).0,
        "viprchk verified a file with no derivation"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The problem alone (`check --vipr-unsolved`'s `-problem.vipr`) is the normal export's
/// text up to its `DER` section, comments aside: the same system, names and constraint
/// order, so that a certificate another solver writes for it is about the checker's program.
#[test]
fn the_problem_alone_is_the_problem_section_of_the_export() {
    use solarmy::proof::format::Proof;
    use solarmy::proof::vipr;
    let root = env!("CARGO_MANIFEST_DIR");
    let proof = Proof::read(Path::new(&format!(
        "{root}/results/proofs/conway-4.json.gz"
    )))
    .unwrap();
    let (spaces, programs) = vipr::programs(&proof).unwrap();
    let exact: Vec<_> = programs.iter().filter(|p| p.exact()).collect();
    assert!(!exact.is_empty());
    let body = |t: &str| -> String {
        let lines = t.lines().filter(|l| !l.starts_with("% "));
        lines
            .take_while(|l| !l.starts_with("DER "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for p in exact {
        let full = vipr::render(&proof, &spaces[p.space], p, None)
            .unwrap()
            .unwrap();
        let alone = vipr::render_problem(&proof, &spaces[p.space], p, None).unwrap();
        assert!(alone.ends_with("SOL 0\nDER 0\n"), "{alone}");
        assert!(body(&alone).contains("\nCON "), "{alone}");
        assert_eq!(
            body(&alone),
            body(&full),
            "{} men, case {:?}",
            p.men,
            p.case
        );
    }
}

/// A folder that cannot be made is one line and exit 1 before any work; a board problem's
/// jump program is checked but not exported, and says so.
#[test]
fn bad_folders_are_refused_and_board_programs_are_named() {
    let root = env!("CARGO_MANIFEST_DIR");
    let conway = format!("{root}/results/proofs/conway-4.json.gz");
    let (code, out, err) = solarmy(&["check", "--vipr", "/dev/null/vipr", &conway]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(out.is_empty(), "{out}");
    let dir = scratch("vipr-board");
    let board = format!("{root}/results/boards/diamond41/diamond41-v-1_0-f1_0.proof.json");
    let (code, out, err) = solarmy(&["check", "--vipr", dir.to_str().unwrap(), &board]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("VIPR: 0 of 1 integer programs") && out.contains("not exported"),
        "{out}"
    );
    let (code, out, _) = solarmy(&["check", "--json", "--vipr", dir.to_str().unwrap(), &conway]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["vipr"]["exported"], 1, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A tree with Chvátal–Gomory cuts becomes `rnd` derivations that viprchk verifies: on
/// x0 + x1 = 1, x0 − x1 = 0 over binaries, (row 0 + row 1)/2 rounds to x0 >= 1 and
/// −(row 0 + row 1)/2 to −x0 >= 0, under a split on x1 whose other side is a cut on a
/// bound. A multiplier or a rounding changed in the file is refused.
#[test]
fn a_tree_with_cuts_is_verified_by_viprchk() {
    use solarmy::proof::cut::Cut;
    use solarmy::proof::farkas::{Farkas, LinearSystem, Row, Tree, check_tree};
    use solarmy::proof::vipr::{Names, render_system};
    let eq = |coefs: &[(usize, i64)], b| Row {
        coefs: coefs.to_vec(),
        lo: Some(b),
        hi: Some(b),
    };
    let sys = LinearSystem {
        cols: vec![(0, Some(1)), (0, Some(1))],
        rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
    };
    let cut = |m: &[(usize, i64)], b: &[(usize, i64)], d, then| Tree::Cut {
        cut: Cut {
            multipliers: m.to_vec(),
            bounds: b.to_vec(),
            divisor: d,
        },
        then: Box::new(then),
    };
    let leaf = |m: &[(usize, i64)]| {
        Tree::Leaf(Farkas {
            multipliers: m.to_vec(),
        })
    };
    // The first cut's multipliers 2/4 are written in lowest terms, 1/2: viprchk (GMP) reads
    // a fraction as written and mis-sums one that is not.
    let two = cut(
        &[(0, 2), (1, 2)],
        &[],
        4,
        cut(&[(0, -1), (1, -1)], &[], 2, leaf(&[(2, 1), (3, 1)])),
    );
    // Below x1 <= 0: row 0 and that bound (the split's assumption) give x0 >= 1, and with
    // −row 1 (x1 − x0 >= 0) the leaf sums to x1 >= 1 against x1 <= 0.
    let tree = Tree::Split {
        col: 1,
        value: 0,
        below: Box::new(cut(&[(0, 1)], &[(1, -1)], 1, leaf(&[(2, 1), (1, -1)]))),
        above: Box::new(two),
    };
    assert_eq!(check_tree(&sys, &tree), Ok(()));
    let names = Names {
        cols: vec!["x0".into(), "x1".into()],
        rows: vec!["r0".into(), "r1".into()],
        comments: vec!["a tree with cuts".into()],
    };
    let text = render_system(&sys, &names, &tree).unwrap();
    assert!(
        text.contains("cut1 G 1 1  0 1 { rnd 2  4 1  6 -1 } -1"),
        "{text}"
    );
    // A sum of equations is stated as a >= row first (viprchk rounds no equation).
    assert!(
        text.contains("cutsum2 G 1/2 1  0 1 { lin 2  4 1/2  5 1/2 } -1"),
        "{text}"
    );
    assert!(
        text.contains("cut2 G 1 1  0 1 { rnd 1  10 1 } -1"),
        "{text}"
    );
    let dir = scratch("vipr-cuts");
    let file = dir.join("cuts.vipr");
    std::fs::write(&file, &text).unwrap();
    let (ok, said) = verify(viprchk(), &file);
    assert!(ok, "viprchk refused a tree with cuts: {said}\n{text}");
    // A multiplier changed (1/2 to 1, or a bound's −1 to −2): the sum is not the row stated;
    // a rounding changed (x0 >= 1 stated as x0 >= 2) does not follow.
    for (from, to) in [
        ("4 1/2  5 1/2", "4 1  5 1/2"),
        ("rnd 2  4 1  6 -1", "rnd 2  4 1  6 -2"),
        ("cut2 G 1 1  0 1 { rnd", "cut2 G 2 1  0 1 { rnd"),
    ] {
        assert!(text.contains(from), "{from}: {text}");
        let bad = dir.join("tampered.vipr");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let (ok, said) = verify(viprchk(), &bad);
        assert!(!ok, "viprchk took a tampered cut ({from} -> {to}): {said}");
    }
}
