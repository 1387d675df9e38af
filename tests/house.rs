//! The house has one direction: each folder of `src/` uses only the folders below it, and no
//! two modules import each other, directly or round a cycle. This reads the sources (their
//! `crate::` and `super::` paths, outside comments and unit tests) and fails naming the import
//! that breaks the order, so a new dependency upward is caught when it is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors, bottom first (`src/lib.rs` says what each holds).
const FLOORS: [&str; 11] = [
    "error", "files", "problem", "weight", "proof", "reduce", "ip", "play", "search", "report",
    "cli",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file: `src/ip/certify/branch.rs` is ["ip", "certify", "branch"].
fn module_of(path: &Path) -> Vec<String> {
    let rel = path.strip_prefix("src").unwrap().with_extension("");
    let mut m: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if m.last().is_some_and(|s| s == "mod") {
        m.pop();
    }
    m
}

/// The code of a file without its comments and its unit tests.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .collect()
}

/// The first two segments of every module path the code names: `crate::a::b::…` and, for a
/// file at `m`, `super::x` (the sibling `x`).
fn imports(m: &[String], code: &str) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        let a = ident(rest);
        let b = rest[a.len()..]
            .strip_prefix("::")
            .map(ident)
            .unwrap_or_default();
        out.insert([a, b].into_iter().filter(|s| !s.is_empty()).collect());
    }
    for (i, _) in code.match_indices("super::") {
        let mut p = m[..m.len().saturating_sub(1)].to_vec();
        p.push(ident(&code[i + 7..]));
        out.insert(p);
    }
    out
}

/// Every file's module and the modules it imports, two segments deep (a folder's files).
fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in files {
        let m = module_of(&f);
        if m == ["lib"] || m == ["main"] {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let node: Vec<String> = m.iter().take(2).cloned().collect();
        for mut to in imports(&m, &code(&text)) {
            to.truncate(2);
            if to[0] != node[0] || (to.len() == 2 && node.len() == 2 && to != node) {
                g.entry(node.clone()).or_default().insert(to);
            }
        }
    }
    g
}

#[test]
fn each_floor_uses_only_the_floors_below_it() {
    let floor = |s: &str| FLOORS.iter().position(|f| *f == s);
    for (from, tos) in graph() {
        let a = floor(&from[0]).unwrap_or_else(|| panic!("src/{} is on no floor", from[0]));
        for to in tos {
            let b = floor(&to[0]).unwrap_or_else(|| panic!("{} names crate::{}", from[0], to[0]));
            assert!(
                b <= a,
                "{} imports {}, a floor above it",
                from.join("/"),
                to.join("/")
            );
        }
    }
}

#[test]
fn no_two_modules_import_each_other() {
    let g = graph();
    // Depth-first search; a module met again while still open closes a cycle.
    fn visit<'a>(
        g: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        u: &'a Vec<String>,
        open: &mut Vec<&'a Vec<String>>,
        done: &mut BTreeSet<&'a Vec<String>>,
    ) {
        if done.contains(u) {
            return;
        }
        if let Some(i) = open.iter().position(|v| *v == u) {
            let cycle: Vec<String> = open[i..].iter().map(|v| v.join("/")).collect();
            panic!("import cycle: {} -> {}", cycle.join(" -> "), u.join("/"));
        }
        open.push(u);
        for v in g.get(u).into_iter().flatten() {
            visit(g, v, open, done);
        }
        open.pop();
        done.insert(u);
    }
    let mut done = BTreeSet::new();
    for u in g.keys() {
        visit(&g, u, &mut Vec::new(), &mut done);
    }
}

#[test]
fn every_module_opens_with_a_doc_paragraph() {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(
            text.starts_with("//!"),
            "{} does not open with a //! paragraph saying its job",
            f.display()
        );
    }
}
