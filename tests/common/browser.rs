//! Headless Chromium driven over plain WebDriver HTTP, for the browser tests (`viewer.rs`):
//! chromedriver listens on loopback and a few lines below speak HTTP/1.1 to it over a
//! `TcpStream`, so no async runtime is needed. Needs Debian's chromium and chromium-driver
//! (`scripts/browser-setup`).

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver, killed when dropped (also when a test panics before its session exists).
pub struct Service(Child);

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A minimal synchronous WebDriver client: chromedriver on a loopback port, one session.
/// Dropping it ends the session (and so Chromium), then chromedriver.
pub struct Driver {
    port: u16,
    _chromedriver: Service,
    session: String,
    _profile: tempfile::TempDir,
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request to chromedriver; the JSON body of the answer. chromedriver keeps
/// the connection open, so the body is read by its Content-Length.
pub fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
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
    pub fn start() -> Driver {
        Driver::start_scaled(1.0)
    }

    /// A session whose pages are drawn at `scale` device pixels per CSS pixel (2: sharper
    /// screenshots).
    pub fn start_scaled(scale: f64) -> Driver {
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
                    format!("--force-device-scale-factor={scale}"),
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

    pub fn call(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        let v = http(self.port, method, &path, body.as_ref()).unwrap();
        if v["value"].get("error").is_some() {
            panic!("WebDriver {what}: {}", v["value"]);
        }
        v["value"].clone()
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "url", Some(json!({ "url": url })));
    }

    /// Runs a script in the page (its body; `return` gives a value back).
    pub fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Sets the window's outer size in CSS pixels.
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    pub fn screenshot(&self, path: &Path) {
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

pub fn base64_decode(s: &str) -> Vec<u8> {
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
