//! The play viewer (`<army>-<level>.html`): self-contained and small, checked without a
//! browser; and stepped through move by move in headless Chromium (ignored by default: it
//! needs Debian's chromium and chromium-driver, which `scripts/browser-setup` installs, and
//! `scripts/browser-test` runs it).
//!
//! The browser is driven over plain WebDriver HTTP by `common/browser.rs`.

#[path = "common/browser.rs"]
mod browser;

use browser::Driver;
use serde_json::{Value, json};
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::verify::{self, Step};
use solarmy::report::export;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The position after every jump (index 0: the army), replayed here, apart from the viewer.
fn positions(army: &[Cell], play: &[Step]) -> Vec<BTreeSet<Cell>> {
    let mut men: BTreeSet<Cell> = army.iter().copied().collect();
    let mut out = vec![men.clone()];
    for s in play {
        assert!(men.remove(&s.from) && men.remove(&s.over) && men.insert(s.to));
        out.push(men.clone());
    }
    out
}

/// The JSON embedded in a viewer page.
fn embedded_data(page: &str) -> Value {
    let open = r#"<script type="application/json" id="data">"#;
    let start = page.find(open).expect("no data element") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("embedded data is not JSON")
}

#[test]
fn hexagonal_7_page_is_self_contained_and_small() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/armies");
    let army = export::read_army(&dir.join("hexagonal-7-army.csv")).unwrap();
    let play = export::read_play(&dir.join("hexagonal-7-play.csv")).unwrap();
    verify::replay(&Army::hexagonal().lattice(), 7, &army, &play).unwrap();
    let page = solarmy::report::viewer::html(
        Army::hexagonal(),
        7,
        &army,
        &play,
        "hexagonal army, level 7: 145 men (minimum)",
    );
    println!("hexagonal 7 viewer page: {} bytes", page.len());
    assert!(page.len() < 2_000_000, "{} bytes", page.len());
    // Works offline: no address of any other machine, nothing loaded from outside the file.
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("src=") && !page.contains("<link") && !page.contains("@import"));
    assert!(page.contains("window.viewer"));

    let v = embedded_data(&page);
    assert_eq!(v["men"].as_array().unwrap().len(), army.len());
    assert_eq!(v["jumps"].as_array().unwrap().len(), play.len());
    assert_eq!(v["moves"], json!(verify::count_moves(&play)));
    assert_eq!(v["files"]["army_csv"], json!("hexagonal-7-army.csv"));
    assert_eq!(v["files"]["play_csv"], json!("hexagonal-7-play.csv"));
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), play.len() + 1);
    // No jump gains weight; {d, 2d} before the last jump weighs exactly 1.
    for w in steps.windows(2) {
        assert!(w[1]["weight_value"].as_f64() <= w[0]["weight_value"].as_f64());
    }
    assert_eq!(steps[play.len() - 1]["weight"], json!("1"));
    assert_eq!(steps[play.len() - 1]["slack"], json!("0"));
    assert_eq!(steps[play.len()]["men"], json!(1));
    assert!(steps[0]["slack_value"].as_f64().unwrap() >= 0.0);
    // A minimum army splits into the two regiments, both manned.
    let count = |r: &str| {
        v["men"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m[2] == r)
            .count()
    };
    assert_eq!(count("target") + count("over"), army.len());
    assert!(count("target") > 0 && count("over") > 0);
    // Every man and every jump's cells have plane coordinates in the page.
    let cells: BTreeSet<Cell> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Cell::xy(c[0].as_i64().unwrap() as i32, c[1].as_i64().unwrap() as i32))
        .collect();
    for s in &play {
        assert!(cells.contains(&s.from) && cells.contains(&s.over) && cells.contains(&s.to));
    }
}

/// The men drawn (the `data-x/data-y` of every `.man`), the step shown and the status line.
const READ: &str = "return [window.viewer.step, \
    Array.from(document.querySelectorAll('.man')).map(e => [Number(e.dataset.x), Number(e.dataset.y)]), \
    document.getElementById('status').textContent.replace(/\\s+/g, ' ').trim()];";

fn drawn(v: &Value) -> Vec<Cell> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| Cell::xy(p[0].as_i64().unwrap() as i32, p[1].as_i64().unwrap() as i32))
        .collect()
}

/// Solves one entry through the library, writes its files as `solve --out` does, and steps
/// through its page.
fn solve_and_step_through(driver: &Driver, dir: &Path, army: Army, level: i32) -> PathBuf {
    let out = solarmy::search::minimum::find_minimum(&solarmy::search::minimum::Request::new(
        army, level,
    ))
    .unwrap();
    assert!(out.verified, "{army} {level}: no verified play");
    solarmy::cli::write_outputs(dir, &out).unwrap();
    let stem = format!("{army}-{level}");
    for f in ["army.csv", "play.csv", "army.svg", "play.svg"] {
        assert!(
            dir.join(format!("{stem}-{f}")).exists(),
            "{stem}-{f} missing"
        );
    }
    step_through(
        driver,
        &dir.join(format!("{stem}.html")),
        &out.army_cells,
        &out.play,
    )
}

/// Writes the page of a stored result (results/armies/<army>-<level>-*.csv) and steps
/// through it.
fn stored_step_through(driver: &Driver, dir: &Path, army: Army, level: i32) -> PathBuf {
    let stored = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/armies");
    let stem = format!("{army}-{level}");
    let men = export::read_army(&stored.join(format!("{stem}-army.csv"))).unwrap();
    let play = export::read_play(&stored.join(format!("{stem}-play.csv"))).unwrap();
    let page = dir.join(format!("{stem}.html"));
    let caption = format!("{army} army, level {level}: {} men", men.len());
    std::fs::write(
        &page,
        solarmy::report::viewer::html(army, level, &men, &play, &caption),
    )
    .unwrap();
    step_through(driver, &page, &men, &play)
}

/// Loads a page and steps through every jump with the "next" button, checking the drawn men
/// against the replay after each; then moves, keys and slider; then takes a screenshot.
fn step_through(driver: &Driver, page: &Path, men: &[Cell], play: &[Step]) -> PathBuf {
    let stem = page.file_stem().unwrap().to_string_lossy().to_string();
    let dir = page.parent().unwrap();
    let want = positions(men, play);
    let n = play.len();
    let moves = verify::count_moves(play);

    driver.goto(&format!(
        "file://{}",
        page.canonicalize().unwrap().display()
    ));
    assert_eq!(driver.run("return window.viewer.total"), json!(n));
    assert_eq!(driver.run("return window.viewer.moves"), json!(moves));
    let links = driver.run(
        "return Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('href'))",
    );
    assert_eq!(
        links,
        json!([
            format!("{stem}-army.csv"),
            format!("{stem}-play.csv"),
            format!("{stem}-army.svg"),
            format!("{stem}-play.svg")
        ])
    );

    // Jump by jump with the "next" button: after each, the drawn men are the replayed position.
    let mut v = driver.run(&format!("window.viewer.go(0); {READ}"));
    let mut move_no = 0;
    for k in 0..=n {
        if k > 0 {
            v = driver.run(&format!("document.getElementById('next').click(); {READ}"));
            if k == 1 || play[k - 2].to != play[k - 1].from {
                move_no += 1;
            }
            let status = v[2].as_str().unwrap();
            assert!(
                status.contains(&format!("Move {move_no} of {moves}")),
                "{stem} step {k}: {status}"
            );
        }
        assert_eq!(v[0], json!(k), "{stem}: step shown");
        let shown = drawn(&v[1]);
        let set: BTreeSet<Cell> = shown.iter().copied().collect();
        assert_eq!(shown.len(), set.len(), "{stem} step {k}: a man drawn twice");
        assert_eq!(
            set, want[k],
            "{stem} step {k}: drawn men differ from the replay"
        );
        assert!(
            v[2].as_str()
                .unwrap()
                .contains(&format!("Men left: {}.", want[k].len())),
            "{stem} step {k}: {}",
            v[2]
        );
    }
    assert!(
        drawn(&v[1]).contains(&Cell::xy(0, 0)),
        "{stem}: no man on the target at the end"
    );
    assert_eq!(
        drawn(&driver.run("return window.viewer.men()")),
        drawn(&v[1])
    );
    // The last position before the last jump is {d, 2d}: weight 1, slack 0.
    let status = driver.run(&format!("window.viewer.go({}); {READ}", n - 1))[2].clone();
    assert!(
        status.as_str().unwrap().contains("Weight 1 ≈ 1.000000"),
        "{status}"
    );

    // Move by move with the keyboard: ↓ reaches the end in exactly `moves` presses.
    driver.run("window.viewer.go(0)");
    for _ in 0..moves {
        driver.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown'}))");
    }
    assert_eq!(driver.run("return window.viewer.step"), json!(n));
    driver.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))");
    assert_eq!(driver.run("return window.viewer.step"), json!(n - 1));
    // The slider moves with the step.
    assert_eq!(
        driver.run("return document.getElementById('slider').value"),
        json!((n - 1).to_string())
    );

    // Play at 16 jumps a second, then pause: the step moves on, then stays.
    driver.run(
        "document.getElementById('speed').value = '16'; window.viewer.go(0); \
         document.getElementById('play').click()",
    );
    std::thread::sleep(Duration::from_millis(600));
    driver.run("document.getElementById('play').click()");
    let played = driver.run("return window.viewer.step");
    std::thread::sleep(Duration::from_millis(300));
    assert!(played.as_u64().unwrap() > 0, "{stem}: play did not advance");
    assert_eq!(
        driver.run("return window.viewer.step"),
        played,
        "{stem}: pause did not stop"
    );

    // A screenshot at the end of the longest move: its path, arrowheads and faded men.
    let mut best = (0, 0);
    let mut start = 0;
    for k in 1..=n {
        if k == n || play[k].from != play[k - 1].to {
            if k - start > best.1 - best.0 {
                best = (start, k);
            }
            start = k;
        }
    }
    driver.run(&format!("window.viewer.go({})", best.1));
    std::thread::sleep(Duration::from_millis(1200));
    let shot = dir.join(format!("{stem}-step{}.png", best.1));
    driver.screenshot(&shot);
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{}: not a PNG", shot.display());
    shot
}

#[test]
#[ignore = "needs chromium and chromium-driver (scripts/browser-setup); run by scripts/browser-test"]
fn browser_steps_through_every_move() {
    let dir = std::env::temp_dir().join(format!("solarmy-viewer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let driver = Driver::start();
    for (army, level) in [(Army::conway(), 4), (Army::hexagonal(), 6)] {
        let shot = solve_and_step_through(&driver, &dir, army, level);
        println!(
            "{army} {level} (solved): every step checked; screenshot {}",
            shot.display()
        );
    }
    // Every other lattice, from the stored results: skew (diagonal jumps on half the
    // cells), Pablito's triangle, the diagonal army, and the largest hexagonal army.
    for (army, level) in [
        (Army::skew(), 6),
        (Army::pablito(), 6),
        (Army::diagonal(), 8),
        (Army::hexagonal(), 7),
    ] {
        let shot = stored_step_through(&driver, &dir, army, level);
        println!(
            "{army} {level} (stored): every step checked; screenshot {}",
            shot.display()
        );
    }
}

/// The `width` and `height` attributes of an SVG document.
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |k: &str| -> f64 {
        let at = svg.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width").ceil() as u32, attr("height").ceil() as u32)
}

/// Loads `file` in a window sized for `size` (CSS pixels), waits for it to draw, and saves a
/// screenshot as `shot`.
fn shoot(driver: &Driver, file: &Path, size: (u32, u32), shot: &Path) {
    // The window's frame takes some room: ask for more than the page.
    driver.resize(size.0 + 40, size.1 + 140);
    driver.goto(&format!(
        "file://{}",
        file.canonicalize().unwrap().display()
    ));
    std::thread::sleep(Duration::from_millis(800));
    driver.screenshot(shot);
    let png = std::fs::read(shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{}: not a PNG", shot.display());
}

/// The pictures of issue 38 as a reader sees them, in headless Chromium at twice the pixels:
/// a board play's strip (the English central game in its fewest, 18 moves), that play's
/// viewer page part way through, and the hexagonal army of level 7 with its column guides.
/// Written to results/screenshots/ (or $SOLARMY_SCREENSHOTS), linked from results/README.md.
#[test]
#[ignore = "needs chromium and chromium-driver (scripts/browser-setup); run by scripts/browser-test"]
fn browser_screenshots_of_the_pictures() {
    use solarmy::play::peg::PegBoard;
    use solarmy::weight::pagoda::Pagoda;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = std::env::var_os("SOLARMY_SCREENSHOTS")
        .map_or(root.join("results/screenshots"), PathBuf::from);
    std::fs::create_dir_all(&shots).unwrap();
    let dir = std::env::temp_dir().join(format!("solarmy-shots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let driver = Driver::start_scaled(2.0);

    // The English central game, 18 moves (results/boards/moves, proven the fewest).
    let board = PegBoard::read(&root.join("models/english.toml")).unwrap();
    let stored = root.join("results/boards/moves");
    let play = export::read_play(&stored.join("english-v0_0-f0_0-moves-play.csv")).unwrap();
    let stem = "english-v0_0-f0_0-moves";
    solarmy::report::boards::write_play(
        &dir,
        (stem, "english-v0_0-f0_0-moves-start.csv"),
        &board,
        Cell::ORIGIN,
        &play,
    )
    .unwrap();
    let strip = dir.join(format!("{stem}-play.svg"));
    let size = svg_size(&std::fs::read_to_string(&strip).unwrap());
    shoot(
        &driver,
        &strip,
        size,
        &shots.join("english-central-strip.png"),
    );
    let frames = driver.run("return document.querySelectorAll('.caption').length");
    assert_eq!(frames, json!(19), "the start and 18 moves");

    let page = dir.join(format!("{stem}.html"));
    shoot(
        &driver,
        &page,
        (1000, 900),
        &shots.join("english-central-page.png"),
    );
    driver.run("window.viewer.go(21)");
    std::thread::sleep(Duration::from_millis(900));
    driver.screenshot(&shots.join("english-central-page.png"));
    let names = driver.run("return document.querySelectorAll('.bell text').length");
    assert_eq!(names, json!(14), "a–g above, 1–7 beside");
    let status = driver.run("return document.getElementById('s-move').textContent");
    assert!(
        status.as_str().unwrap().contains(": "),
        "the move named: {status}"
    );

    // The hexagonal army of level 7 (the README's picture), its columns labelled by guides.
    let armies = root.join("results/armies");
    let men = export::read_army(&armies.join("hexagonal-7-army.csv")).unwrap();
    let play = export::read_play(&armies.join("hexagonal-7-play.csv")).unwrap();
    let lattice = Army::hexagonal().lattice();
    let pagoda = Pagoda::improved(&lattice, play.last().unwrap().over);
    let caption = "hexagonal army, level 7: 145 men (minimum)";
    let svg = solarmy::report::render::army_svg(&lattice, &pagoda, 7, &men, &play, caption);
    let file = dir.join("hexagonal-7-army.svg");
    std::fs::write(&file, &svg).unwrap();
    shoot(
        &driver,
        &file,
        svg_size(&svg),
        &shots.join("hexagonal-7-army.png"),
    );
    let guides = driver.run("return document.querySelectorAll('g.column').length");
    assert!(guides.as_u64().unwrap() >= 5, "{guides}");
    std::fs::remove_dir_all(&dir).ok();
    println!("screenshots in {}", shots.display());
}
