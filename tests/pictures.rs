//! Pictures and plays that read: the board play as a strip of frames with a viewer page (for
//! `solve` and for `moves`), one orientation (y downward) in every picture, column labels on
//! the hexagonal lattice that lead to the right x, and `--show` in the terminal.
//!
//! `repaint_results` (ignored) redraws the published pictures and pages from the stored CSV
//! files: `cargo test --release --test pictures -- --ignored repaint_results`.

mod common;

use common::{scratch, solarmy};
use solarmy::play::peg::PegBoard;
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::report::{boards, export, render, viewer};
use solarmy::weight::pagoda::Pagoda;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn board(name: &str) -> PegBoard {
    PegBoard::read(&root().join(format!("models/{name}.toml"))).unwrap()
}

/// A column guide: its line's two ends and its label.
type Guide = ((f64, f64), (f64, f64), String);

/// Every `<g class="column">` of an SVG.
fn column_guides(svg: &str) -> Vec<Guide> {
    use svg::parser::Event;
    let mut out = Vec::new();
    let mut inside = false;
    let mut line = None;
    for ev in svg::read(svg).unwrap() {
        match ev {
            Event::Tag("g", kind, attrs) => {
                inside = kind == svg::node::element::tag::Type::Start
                    && attrs.get("class").map(|v| v.to_string()).as_deref() == Some("column");
            }
            Event::Tag("line", _, attrs) if inside => {
                let f = |k: &str| attrs[k].to_string().parse::<f64>().unwrap();
                line = Some(((f("x1"), f("y1")), (f("x2"), f("y2"))));
            }
            Event::Text(t) if inside => {
                let (a, b) = line.take().unwrap();
                out.push((a, b, t.trim().to_string()));
            }
            _ => {}
        }
    }
    out
}

/// The centre of the red target ring.
fn target_centre(svg: &str) -> (f64, f64) {
    for ev in svg::read(svg).unwrap() {
        if let svg::parser::Event::Tag("circle", _, attrs) = ev
            && attrs.get("stroke").map(|v| v.to_string()).as_deref() == Some("#d00")
        {
            let f = |k: &str| attrs[k].to_string().parse::<f64>().unwrap();
            return (f("cx"), f("cy"));
        }
    }
    panic!("no target ring");
}

#[test]
fn hexagonal_column_guides_lead_to_the_right_x() {
    let dir = root().join("results/armies");
    let army = export::read_army(&dir.join("hexagonal-7-army.csv")).unwrap();
    let play = export::read_play(&dir.join("hexagonal-7-play.csv")).unwrap();
    let lattice = Army::hexagonal().lattice();
    let pagoda = Pagoda::improved(&lattice, play.last().unwrap().over);
    let svg = render::army_svg(&lattice, &pagoda, 7, &army, &play, "hexagonal 7");
    let guides = column_guides(&svg);
    assert!(guides.len() >= 5, "{} guides", guides.len());
    // The guide labelled 0 runs through the target (0, 0); every guide is labelled by a
    // multiple of its step, and slants (x constant is not upright on this lattice).
    let (a, b, _) = guides
        .iter()
        .find(|g| g.2 == "0")
        .expect("a guide for x = 0");
    let t = target_centre(&svg);
    let cross = (b.0 - a.0) * (t.1 - a.1) - (b.1 - a.1) * (t.0 - a.0);
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    assert!(
        (cross / len).abs() < 0.5,
        "the x = 0 guide misses the target by {}",
        cross / len
    );
    assert!((b.0 - a.0).abs() > 10.0, "the guide is upright");
    for (_, _, x) in &guides {
        assert_eq!(x.parse::<i32>().unwrap() % 5, 0, "{x}");
    }
}

#[test]
fn board_solve_writes_a_strip_and_a_page_and_shows_bell_notation() {
    let out = scratch("pictures-board");
    let o = out.to_str().unwrap();
    let (code, stdout, stderr) = solarmy(&[
        "solve",
        "--model",
        "models/english.toml",
        "--vacancy",
        "0,0",
        "--finish",
        "0,0",
        "--out",
        o,
        "--show",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // The start with Bell's letters, the finish marked, then the numbered moves.
    assert!(stdout.contains("\n          a b c d e f g\n"), "{stdout}");
    assert!(stdout.contains(" 4 y=0  | o o o * o o o"), "{stdout}");
    assert!(stdout.contains("(Bell's standard 7x7 notation"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with(" 1. ")), "{stdout}");
    let svg = std::fs::read_to_string(out.join("english-v0_0-f0_0-play.svg")).unwrap();
    let moves = svg.matches("class=\"caption\"").count() - 1;
    assert!(stdout.contains(&format!("in {moves} moves")), "{stdout}");
    assert!(svg.contains("marker-end=\"url(#head)\""));
    let page = std::fs::read_to_string(out.join("english-v0_0-f0_0.html")).unwrap();
    assert!(page.contains("english-v0_0-f0_0-start.csv"));
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn board_moves_writes_its_picture_and_page() {
    let out = scratch("pictures-moves");
    let o = out.to_str().unwrap();
    let (code, stdout, stderr) = solarmy(&[
        "moves",
        "--model",
        "models/triangle5.toml",
        "--vacancy",
        "2,0",
        "--finish",
        "2,0",
        "--out",
        o,
        "--show",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("in 9 moves"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("9. ")), "{stdout}");
    for f in [
        "-moves-play.svg",
        "-moves.html",
        "-moves-start.csv",
        "-moves-play.csv",
    ] {
        assert!(out.join(format!("triangle5-v2_0-f2_0{f}")).exists(), "{f}");
    }
    let page = std::fs::read_to_string(out.join("triangle5-v2_0-f2_0-moves.html")).unwrap();
    assert!(page.contains("triangle5-v2_0-f2_0-moves-start.csv"));
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn army_solve_shows_the_army_and_its_moves() {
    let (code, stdout, stderr) = solarmy(&["solve", "--army", "conway", "--level", "3", "--show"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("8 men (o a man, . an empty cell, * the target (0, 0)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("y=0 | ") && stdout.contains("*"),
        "{stdout}"
    );
    let men: usize = stdout
        .lines()
        .filter(|l| l.starts_with("y="))
        .map(|l| l.matches('o').count())
        .sum();
    assert_eq!(men, 8, "{stdout}");
    assert!(stdout.contains("7 jumps in"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("1. (")),
        "{stdout}"
    );
    // --show is for people: with --json it is refused.
    let (code, _, _) = solarmy(&[
        "solve", "--army", "conway", "--level", "3", "--show", "--json",
    ]);
    assert_eq!(code, 2);
}

/// The caption `solve --out` gives an army's pictures (min-sizes.csv says which are minimal).
/// Whether results/min-sizes.csv calls the entry minimal.
fn minimal_army(army: Army, level: i32) -> bool {
    let rows = export::read_min_sizes(&root().join("results/min-sizes.csv")).unwrap_or_default();
    rows.iter()
        .any(|r| r.army == army.name() && r.level == level && r.status == "optimal")
}

/// Whether results/deserts.csv calls the level minimal (an open level's army is a best army).
fn minimal_desert(army: Army, level: i32) -> bool {
    let Ok(mut r) = csv::Reader::from_path(root().join("results/deserts.csv")) else {
        return false;
    };
    r.records().filter_map(Result::ok).any(|row| {
        row.get(0) == Some(army.name())
            && row.get(1) == Some(&level.to_string()[..])
            && row.get(2) == Some("optimal")
    })
}

fn army_caption(army: Army, level: i32, men: usize, minimal: bool) -> String {
    let tag = if minimal { " (minimum)" } else { "" };
    format!("{army} army, level {level}: {men} men{tag}")
}

/// Redraws <dir>/<army>-<level>-army.svg, -play.svg and .html from the CSV files (the armies
/// of results/armies, the deserts of results/deserts).
fn repaint_armies(dir: &Path, armies: &[Army], minimal: fn(Army, i32) -> bool) -> usize {
    let mut n = 0;
    for &army in armies {
        for level in 1..=12 {
            let stem = format!("{army}-{level}");
            let (a, p) = (
                dir.join(format!("{stem}-army.csv")),
                dir.join(format!("{stem}-play.csv")),
            );
            if !a.exists() || !p.exists() {
                continue;
            }
            let men = export::read_army(&a).unwrap();
            let play = export::read_play(&p).unwrap();
            let lattice = army.lattice();
            let last = play.last().map_or(lattice.directions[0], |s| s.over);
            let pagoda = Pagoda::improved(&lattice, last);
            let caption = army_caption(army, level, men.len(), minimal(army, level));
            let svg = render::army_svg(&lattice, &pagoda, level, &men, &play, &caption);
            solarmy::files::write_atomic(&dir.join(format!("{stem}-army.svg")), svg.as_bytes())
                .unwrap();
            let html = viewer::html(army, level, &men, &play, &caption);
            solarmy::files::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())
                .unwrap();
            let moves = solarmy::proof::verify::count_moves(&play);
            let caption = format!("{caption}, {} jumps in {moves} moves", play.len());
            let svg = render::play_svg(&lattice, &pagoda, level, &men, &play, &caption);
            solarmy::files::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())
                .unwrap();
            n += 1;
        }
    }
    n
}

/// Redraws results/3d/conway-3d-<level>-army.svg and -play.svg (layer slices) from the CSV
/// files, with the captions `solve --out` gives them (3d.csv says which are minimal).
fn repaint_3d(dir: &Path) -> usize {
    let army = Army::read(&root().join("models/conway-3d.toml")).unwrap();
    let table = std::fs::read_to_string(dir.with_extension("csv")).unwrap_or_default();
    let mut n = 0;
    for level in 1..=12 {
        let stem = format!("{army}-{level}");
        let (a, p) = (
            dir.join(format!("{stem}-army.csv")),
            dir.join(format!("{stem}-play.csv")),
        );
        if !a.exists() || !p.exists() {
            continue;
        }
        let men = export::read_army_in(&a, 3).unwrap();
        let play = export::read_play_in(&p, 3).unwrap();
        let lattice = army.lattice();
        let last = play.last().map_or(lattice.directions[0], |s| s.over);
        let pagoda = Pagoda::improved(&lattice, last);
        let minimum = table
            .lines()
            .any(|l| l.starts_with(&format!("{level},optimal,")));
        let tag = if minimum { " (minimum)" } else { "" };
        let caption = format!("{army} army, level {level}: {} men{tag}", men.len());
        let svg = render::army_svg(&lattice, &pagoda, level, &men, &play, &caption);
        solarmy::files::write_atomic(&dir.join(format!("{stem}-army.svg")), svg.as_bytes())
            .unwrap();
        let moves = solarmy::proof::verify::count_moves(&play);
        let caption = format!("{caption}, {} jumps in {moves} moves", play.len());
        let svg = render::play_svg(&lattice, &pagoda, level, &men, &play, &caption);
        solarmy::files::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())
            .unwrap();
        n += 1;
    }
    n
}

/// The vacancy of a board file stem `<board>-v<x>_<y>-f<x>_<y>…`.
fn vacancy_of(name: &str, stem: &str) -> Option<Cell> {
    let rest = stem.strip_prefix(name)?.strip_prefix("-v")?;
    let v = rest.split("-f").next()?;
    let (x, y) = v.split_once('_')?;
    Some(Cell::xy(x.parse().ok()?, y.parse().ok()?))
}

/// Redraws every board play under results/boards (the catalogues' plays and shortest plays,
/// and the central games of `scripts/board-moves`): strip and page.
fn repaint_board_plays(dir: &Path) -> usize {
    let mut n = 0;
    for name in [
        "english",
        "french",
        "diamond32",
        "diamond41",
        "6x6",
        "wiegleb",
        "triangle5",
    ] {
        let b = board(name);
        for sub in [dir.join(name), dir.join("moves")] {
            let Ok(entries) = std::fs::read_dir(&sub) else {
                continue;
            };
            let mut files: Vec<String> = entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|f| f.starts_with(&format!("{name}-v")) && f.ends_with("-play.csv"))
                .collect();
            files.sort();
            for f in files {
                let stem = f.trim_end_matches("-play.csv");
                let v = vacancy_of(name, stem).unwrap();
                let play = export::read_play(&sub.join(&f)).unwrap();
                let base = stem.trim_end_matches("-moves");
                let start = [format!("{stem}-start.csv"), format!("{base}-start.csv")]
                    .into_iter()
                    .find(|s| sub.join(s).exists())
                    .unwrap_or_else(|| panic!("{stem}: no start CSV"));
                boards::write_play(&sub, (stem, &start), &b, v, &play).unwrap();
                n += 1;
            }
        }
    }
    n
}

/// Redraws the catalogue pictures results/boards/<board>.svg from the catalogues' CSV.
fn repaint_catalogues(dir: &Path) -> usize {
    use solarmy::play::peg::settle::{Outcome, Verdict};
    let mut n = 0;
    for name in [
        "english",
        "french",
        "diamond32",
        "diamond41",
        "6x6",
        "wiegleb",
        "triangle5",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.csv"))) else {
            continue;
        };
        let outcomes: Vec<Outcome> = text
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let c = |i: usize| Cell::xy(f[i].parse().unwrap(), f[i + 1].parse().unwrap());
                let verdict = match f[4] {
                    "true" => Verdict::Solvable { play: Vec::new() },
                    _ => Verdict::Undecided { why: f[5].into() },
                };
                Outcome {
                    vacancy: c(0),
                    finish: c(2),
                    verdict,
                    ips: 0,
                    cuts: 0,
                    seconds: 0.0,
                }
            })
            .collect();
        let svg = boards::catalogue_svg(&board(name), &outcomes);
        solarmy::files::write_atomic(&dir.join(format!("{name}.svg")), svg.as_bytes()).unwrap();
        n += 1;
    }
    n
}

#[test]
#[ignore = "rewrites the published pictures under results/; run by hand after a change to them"]
fn repaint_results() {
    // SOLARMY_RESULTS: another copy of results/ to repaint (to look before writing).
    let results = std::env::var_os("SOLARMY_RESULTS").map_or(root().join("results"), PathBuf::from);
    let a = repaint_armies(&results.join("armies"), &Army::all(), minimal_army);
    let deserts = ["desert-square", "desert-rhombus"]
        .map(|m| Army::read(&root().join(format!("models/{m}.toml"))).unwrap());
    let e = repaint_armies(&results.join("deserts"), &deserts, minimal_desert);
    let b = repaint_board_plays(&results.join("boards"));
    let c = repaint_catalogues(&results.join("boards"));
    let d = repaint_3d(&results.join("3d"));
    println!("repainted {a} armies, {e} deserts, {b} board plays, {c} catalogues, {d} 3-D armies");
    assert!(a > 0 && b > 0 && c > 0 && d > 0 && e > 0);
}
