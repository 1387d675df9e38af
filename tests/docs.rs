//! The README and the guide in docs/ stay true: every example command they show runs, and
//! every relative link points to a file that exists (and, into a Markdown file, to one of its
//! headings).
//!
//! An example is a line of a ```sh block that starts with `solarmy `, or of a ```console
//! block that starts with `$ solarmy `. The examples of one page run in order, in a scratch
//! directory of their own that sees the repository's `models/` and `results/`, and must exit
//! 0 or 3 (3: stopped, or a sweep merged before its jobs ran). A ```toml block whose first line
//! is `# models/NAME.toml: …` is written there as that file when the repository has none. A
//! command whose comment (after ` #`) says "slow" is left out. Pages run in parallel.

#[allow(dead_code)]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every Markdown file under `dir` (results/ is generated; its pages are read too).
fn markdown_under(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// A fenced block: its info string and its lines.
struct Block {
    lang: String,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            match current.take() {
                Some(b) => out.push(b),
                None => {
                    current = Some(Block {
                        lang: rest.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(b) = current.as_mut() {
            b.lines.push(line.to_string());
        }
    }
    out
}

/// The example commands of a page, in order, and the model files its TOML blocks define.
fn examples(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut commands = Vec::new();
    let mut models = Vec::new();
    for b in blocks(text) {
        match b.lang.as_str() {
            "sh" | "console" => {
                for line in &b.lines {
                    let line = line.trim();
                    let cmd = if b.lang == "console" {
                        line.strip_prefix("$ ")
                    } else {
                        Some(line)
                    };
                    let Some(cmd) = cmd.filter(|c| c.starts_with("solarmy ")) else {
                        continue;
                    };
                    let (cmd, comment) = cmd.split_once(" #").unwrap_or((cmd, ""));
                    if comment.to_lowercase().contains("slow") {
                        continue;
                    }
                    commands.push(cmd.trim().to_string());
                }
            }
            "toml" => {
                let first = b.lines.first().map(String::as_str).unwrap_or("");
                let name = first
                    .strip_prefix("# models/")
                    .and_then(|rest| rest.split_once(':'))
                    .map(|(name, _)| name)
                    .filter(|name| name.ends_with(".toml"));
                if let Some(name) = name {
                    models.push((name.to_string(), b.lines.join("\n") + "\n"));
                }
            }
            _ => {}
        }
    }
    (commands, models)
}

/// A scratch directory with `models/` (links to the repository's files, plus the page's own)
/// and `results/` (a link to the repository's).
fn sandbox(tag: &str, models: &[(String, String)]) -> common::Scratch {
    let dir = common::scratch(tag);
    let m = dir.join("models");
    std::fs::create_dir_all(&m).unwrap();
    for e in std::fs::read_dir(root().join("models")).unwrap() {
        let p = e.unwrap().path();
        std::os::unix::fs::symlink(&p, m.join(p.file_name().unwrap())).unwrap();
    }
    for (name, text) in models {
        if !root().join("models").join(name).exists() {
            std::fs::write(m.join(name), text).unwrap();
        }
    }
    std::os::unix::fs::symlink(root().join("results"), dir.join("results")).unwrap();
    dir
}

/// An example must never write into the published results.
fn writes_into_results(cmd: &str) -> bool {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    words.windows(2).any(|w| {
        matches!(
            w[0],
            "--out" | "--proof" | "--solve" | "--emit-jobs" | "--write-model" | "--cbc-record"
        ) && w[1].starts_with("results")
    }) || (words.get(1) == Some(&"certify")
        && !words.contains(&"--out")
        && words.iter().any(|w| w.starts_with("results/")))
}

#[test]
fn the_example_commands_of_the_readme_and_the_guide_run() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_solarmy"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut total = 0;
    let handles: Vec<_> = pages()
        .into_iter()
        .map(|page| {
            let text = std::fs::read_to_string(&page).unwrap();
            let (commands, models) = examples(&text);
            total += commands.len();
            let path = path.clone();
            std::thread::spawn(move || {
                let name = page.strip_prefix(root()).unwrap().display().to_string();
                let tag = format!("docs-{}", name.replace(['/', '.'], "-"));
                let dir = sandbox(&tag, &models);
                let mut failures = Vec::new();
                for cmd in &commands {
                    assert!(
                        !writes_into_results(cmd),
                        "{name}: `{cmd}` writes into results/"
                    );
                    let t = std::time::Instant::now();
                    let o = Command::new("bash")
                        .args(["-c", cmd])
                        .current_dir(&dir)
                        .env("PATH", &path)
                        .output()
                        .unwrap();
                    let code = o.status.code().unwrap_or(-1);
                    eprintln!(
                        "{name}: {cmd}: exit {code}, {:.1} s",
                        t.elapsed().as_secs_f64()
                    );
                    if code != 0 && code != 3 {
                        failures.push(format!(
                            "{name}: `{cmd}` exited {code}: {}",
                            String::from_utf8_lossy(&o.stderr).trim()
                        ));
                    }
                }
                std::fs::remove_dir_all(&dir).ok();
                failures
            })
        })
        .collect();
    let failures: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert!(
        total >= 20,
        "only {total} examples found: is the parser right?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// GitHub's anchor of a heading: lower case, spaces to '-', punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the Markdown links and images of a text, outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(j) = after.find(')') else { break };
            out.push(after[..j].trim().to_string());
            rest = &after[j..];
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_readme_and_the_guide_resolves() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for link in links(&text) {
            if link.starts_with("http://")
                || link.starts_with("https://")
                || link.starts_with("mailto:")
            {
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((link.as_str(), ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            checked += 1;
            if !target.exists() {
                bad.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&target).unwrap();
                if !anchors(&text).iter().any(|a| a == anchor) {
                    bad.push(format!("{}: {link}: no such heading", page.display()));
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} links found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_readme_is_a_front_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines; the guide lives in docs/"
    );
    // Its first two commands: the main job, then the tests, as .ci/run runs them.
    let commands: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("bash scripts/setup && "))
        .collect();
    assert!(commands.len() >= 2, "{commands:?}");
    assert!(commands[0].starts_with("bash scripts/setup && scripts/reproduce"));
    assert!(commands[1].starts_with("bash scripts/setup && cargo test --release"));
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.contains("bash scripts/setup && cargo test --release"));
    // Sources are cited by author and title; the reader has no numbered reference files.
    let mut results = Vec::new();
    markdown_under(&root().join("results"), &mut results);
    for page in pages().into_iter().chain(results) {
        let text = std::fs::read_to_string(&page).unwrap();
        for stale in ["reference 00", "shared/notes", "../shared"] {
            assert!(!text.contains(stale), "{}: '{stale}'", page.display());
        }
    }
}
