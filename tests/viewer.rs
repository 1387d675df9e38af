//! The play viewer (`<army>-<level>.html`): self-contained and small, checked without a
//! browser; and stepped through move by move in headless Chromium (ignored by default: it
//! needs Debian's chromium and chromium-driver, which `scripts/browser-setup` installs, and
//! `scripts/browser-test` runs it).
//!
//! The browser is driven over plain WebDriver HTTP: chromedriver listens on loopback and a
//! few lines below speak HTTP/1.1 to it over a `TcpStream`, so no async runtime is needed.

use serde_json::{Value, json};
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::verify::{self, Step};
use solarmy::report::export;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// chromedriver, killed when dropped (also when a test panics before its session exists).
struct Service(Child);

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A minimal synchronous WebDriver client: chromedriver on a loopback port, one session.
/// Dropping it ends the session (and so Chromium), then chromedriver.
struct Driver {
    port: u16,
    _chromedriver: Service,
    session: String,
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request to chromedriver; the JSON body of the answer. chromedriver keeps
/// the connection open, so the body is read by its Content-Length.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map_or(String::new(), |b| b.to_string());
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let mut want: Option<usize> = None;
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .ok_or_else(|| format!("no Content-Length in {head}"))?
                .trim()
                .parse::<usize>()
                .map_err(|e| e.to_string())?;
            want = Some(split + 4 + len);
        }
        if want.is_some_and(|w| raw.len() >= w) {
            break;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the answer was complete".into());
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let end = want.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let payload = &raw[split + 4..end];
    serde_json::from_slice(payload)
        .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(payload)))
}

impl Driver {
    fn start() -> Driver {
        let port = free_port();
        let chromedriver = Service(
            Command::new("chromedriver")
                .arg(format!("--port={port}"))
                .arg("--allowed-ips=127.0.0.1")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver not found: run scripts/browser-setup"),
        );
        let t = Instant::now();
        while http(port, "GET", "/status", None)
            .map(|v| v["value"]["ready"] != json!(true))
            .unwrap_or(true)
        {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::Builder::new()
            .prefix("solarmy-chromium-")
            .tempdir()
            .unwrap();
        let binary = std::env::var("SOLARMY_CHROMIUM").unwrap_or_else(|_| {
            ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
                .into_iter()
                .find(|p| Path::new(p).exists())
                .unwrap_or("chromium")
                .to_string()
        });
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--hide-scrollbars",
                    format!("--user-data-dir={}", profile.path().display()),
                    "--window-size=1280,1000",
                ],
            },
        }}});
        let v = http(port, "POST", "/session", Some(&caps)).unwrap();
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        Driver {
            port,
            _chromedriver: chromedriver,
            session,
            _profile: profile,
        }
    }

    fn call(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        let v = http(self.port, method, &path, body.as_ref()).unwrap();
        if v["value"].get("error").is_some() {
            panic!("WebDriver {what}: {}", v["value"]);
        }
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.call("POST", "url", Some(json!({ "url": url })));
    }

    /// Runs a script in the page (its body; `return` gives a value back).
    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn screenshot(&self, path: &Path) {
        let b64 = self.call("GET", "screenshot", None);
        std::fs::write(path, base64_decode(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| val(c) as u32).collect();
        let n = v.iter().fold(0u32, |a, &x| a << 6 | x) << (6 * (4 - v.len()));
        out.extend_from_slice(&n.to_be_bytes()[1..v.len()]);
    }
    out
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
