//! One vocabulary and one JSON shape (docs/cli.md): every command's `--help` names the
//! common flags, its examples and its exit codes, and a small run of every command prints
//! JSON that docs/json-schema.json accepts. The schema is read from the file and checked by
//! the small validator below (the keywords the file uses, no more).

mod common;

use common::{scratch, solarmy};
use serde_json::Value;

/// The commands and the name of their time limit: the whole command's `--time-limit`
/// everywhere (cases and check have their per-case and per-program limits beside it).
const COMMANDS: [(&str, &str); 10] = [
    ("solve", "--time-limit"),
    ("verify", "--time-limit"),
    ("bounds", "--time-limit"),
    ("cases", "--time-limit"),
    ("check", "--time-limit"),
    ("certify", "--time-limit"),
    ("count", "--time-limit"),
    ("pagoda", "--time-limit"),
    ("catalog", "--time-limit"),
    ("moves", "--time-limit"),
];

#[test]
fn every_command_help_names_the_common_flags_examples_and_exit_codes() {
    for (cmd, time) in COMMANDS {
        let (code, help, err) = solarmy(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        let out = if cmd == "check" {
            "--out"
        } else {
            "--out <DIR>"
        };
        let time = format!("{time} <SECONDS>");
        for flag in ["-q, --quiet", "-v, --verbose", "--json", out, &time] {
            assert!(help.contains(flag), "{cmd} --help lacks {flag}");
        }
        assert!(
            help.contains("Examples:\n  solarmy ") && help.contains("Exit codes: 0 "),
            "{cmd}: examples and exit codes"
        );
        // Placeholders say what goes there, not the flag's name again.
        for bad in ["<SECS>", "<OUT>", "<MARGIN>", "<TT_ENTRIES>", "<PROBE>"] {
            assert!(!help.contains(bad), "{cmd} --help: {bad}");
        }
    }
    for (cmd, limit) in [
        ("cases", "--case-time-limit <SECONDS>"),
        ("check", "--program-time-limit <SECONDS>"),
    ] {
        let (_, help, _) = solarmy(&[cmd, "--help"]);
        assert!(help.contains(limit), "{cmd} --help lacks {limit}");
    }
    // The limits, and certify's older spelling (scripts use it), parse their seconds: a bad
    // value is refused by the value's parser (exit 2 naming the number), not as an unknown
    // flag.
    for old in [
        &[
            "cases",
            "--army",
            "conway",
            "--level",
            "3",
            "--size",
            "8",
            "--time-limit",
            "x",
        ][..],
        &["check", "--time-limit", "x", "p.json"],
        &["check", "--program-time-limit", "x", "p.json"],
        &["certify", "--seconds", "x", "p.json"],
    ] {
        let (code, _, err) = solarmy(old);
        assert_eq!(code, 2, "{old:?}");
        assert!(
            err.contains("seconds") && !err.contains("unexpected"),
            "{old:?}: {err}"
        );
    }
}

#[test]
fn every_command_json_has_the_envelope_of_the_schema() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string("docs/json-schema.json").unwrap()).unwrap();
    let d = scratch("vocabulary");
    let d = d.to_str().unwrap();
    let tri = "models/triangle5.toml";
    std::fs::write(format!("{d}/s.csv"), "x,y\n0,0\n1,0\n").unwrap();
    std::fs::write(format!("{d}/f.csv"), "x,y\n2,0\n").unwrap();
    // One command line a line (the scratch directory's path has no spaces), and its exit.
    let runs = [
        (
            format!("solve --army conway --level 2 --out {d} --proof {d}/c2.json"),
            0,
        ),
        (
            format!("solve --model {tri} --vacancy 0,0 --finish 0,0 --proof {d}/t.json"),
            0,
        ),
        ("solve --army skew --level 7".into(), 0),
        (
            format!("solve --model {tri} --start {d}/s.csv --finish {d}/f.csv --proof {d}/p.json"),
            0,
        ),
        (
            format!("verify --army conway --level 2 {d}/conway-2-army.csv {d}/conway-2-play.csv"),
            0,
        ),
        (
            format!("verify --army conway --level 3 {d}/conway-2-army.csv {d}/conway-2-play.csv"),
            1,
        ),
        ("bounds --army conway --results results".into(), 0),
        ("bounds".into(), 0),
        ("cases --army conway --level 3 --size 8".into(), 0),
        ("cases --army skew --level 7 --size 8".into(), 0),
        (
            format!("check {d}/c2.json {d}/t.json {d}/p.json no-such-proof.json"),
            1,
        ),
        (format!("certify {d}/c2.json"), 0),
        ("count --army conway --level 2".into(), 0),
        (
            "pagoda --model models/desert-square.toml --level 2".into(),
            0,
        ),
        (
            "pagoda --model models/desert-square.toml --level 5 --time-limit 0.01".into(),
            3,
        ),
        (format!("catalog --model {tri} --moves"), 0),
        (format!("moves --model {tri} --vacancy 0,0 --finish 0,0"), 0),
        (
            format!("moves --model {tri} --vacancy 0,0 --finish 0,0 --ida"),
            0,
        ),
        (
            format!("moves --army conway --level 2 --from {d}/conway-2-army.csv"),
            0,
        ),
        ("moves --army conway --level 2".into(), 0),
        ("moves --army conway --level 5".into(), 0),
        // --time-limit stops the whole command, cases and check too: what is settled is
        // reported, the rest said stopped.
        (
            format!("cases --army hexagonal --level 7 --size 144 --solve {d}/h7 --time-limit 1"),
            3,
        ),
        (
            format!(
                "check --time-limit 1 {d}/c2.json results/proofs/hexagonal-7.json.gz {d}/t.json"
            ),
            3,
        ),
    ];
    let mut fingerprints = Vec::new();
    for (line, want) in &runs {
        let args: Vec<&str> = line.split(' ').chain(["--json"]).collect();
        let want = *want;
        let (code, stdout, err) = solarmy(&args);
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(!stdout.trim().is_empty(), "{args:?}: no JSON");
        for line in stdout.lines() {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            if let Err(e) = valid(&v, &schema, &schema) {
                panic!("{args:?}: {e}\n{line}");
            }
            armies_are_men(&v).unwrap_or_else(|e| panic!("{args:?}: {e}\n{line}"));
            if want == 3 && args.contains(&"--time-limit") && v["file"] != args[3] {
                assert_eq!(v["status"], "time_limit", "{args:?}: {line}");
            }
            // A problem, less its fingerprint, names it: level 2 of conway, (0,0) -> (0,0)
            // of the triangle; whichever command names it, the fingerprint is the same.
            let mut p = v["problem"].clone();
            if let Some(f) = p.as_object_mut().and_then(|o| o.remove("fingerprint")) {
                fingerprints.push((args[0], p.to_string(), f));
            }
        }
    }
    for key in [
        r#"{"level":2,"name":"conway"}"#,
        r#"{"finish":[0,0],"name":"triangle5","vacancy":[0,0]}"#,
    ] {
        let named: Vec<_> = fingerprints.iter().filter(|f| f.1 == key).collect();
        let commands: std::collections::BTreeSet<_> = named.iter().map(|f| f.0).collect();
        assert!(commands.len() >= 2, "{key}: {named:?}");
        assert!(named.iter().all(|f| f.2 == named[0].2), "{named:?}");
    }
}

#[test]
fn catalog_writes_nothing_without_out() {
    let d = scratch("vocabulary-catalog");
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/triangle5.toml");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(["catalog", "--model", model.to_str().unwrap()])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "catalog wrote files"
    );
}

/// One meaning for `army` at every depth (count's armies, check's summary): the men, a list
/// of cells, or null; never a name (that is `problem.name`).
fn armies_are_men(v: &Value) -> Result<(), String> {
    match v {
        Value::Object(o) => {
            if let Some(a) = o.get("army")
                && !(a.is_null() || a.as_array().is_some_and(|m| m.iter().all(Value::is_array)))
            {
                return Err(format!("army is not the men: {a}"));
            }
            o.values().try_for_each(armies_are_men)
        }
        Value::Array(a) => a.iter().try_for_each(armies_are_men),
        _ => Ok(()),
    }
}

/// Whether `v` satisfies `s`, a (sub)schema of `root`, for the keywords the schema file uses:
/// $ref (to #/$defs/…), type, enum, required, properties, items, minItems, maxItems,
/// minimum, pattern (a hex digest only), oneOf and not, and the schema `false` (no value).
fn valid(v: &Value, s: &Value, root: &Value) -> Result<(), String> {
    if s == &Value::Bool(false) {
        return Err(format!("{v} is not allowed here"));
    }
    if let Some(r) = s["$ref"].as_str() {
        let name = r
            .strip_prefix("#/$defs/")
            .ok_or(format!("unknown $ref {r}"))?;
        return valid(v, &root["$defs"][name], root);
    }
    if let Some(t) = s["type"].as_str()
        && !has_type(v, t)
    {
        return Err(format!("{v} is not of type {t}"));
    }
    if let Some(options) = s["enum"].as_array()
        && !options.contains(v)
    {
        return Err(format!("{v} is none of {options:?}"));
    }
    if let Some(options) = s["oneOf"].as_array() {
        let ok = options.iter().filter(|o| valid(v, o, root).is_ok()).count();
        if ok != 1 {
            return Err(format!("{v} matches {ok} of the oneOf options, not one"));
        }
    }
    if let Some(n) = s.get("not")
        && valid(v, n, root).is_ok()
    {
        return Err(format!("{v} matches what it must not: {n}"));
    }
    if let Some(m) = s["minimum"].as_f64()
        && v.as_f64().is_some_and(|x| x < m)
    {
        return Err(format!("{v} < {m}"));
    }
    if let Some(p) = s["pattern"].as_str() {
        assert_eq!(p, "^[0-9a-f]{64}$", "the validator knows this pattern only");
        let hex = v.as_str().is_some_and(|x| {
            x.len() == 64
                && x.chars()
                    .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        });
        if !hex {
            return Err(format!("{v} is not a SHA-256 in hex"));
        }
    }
    if let Some(a) = v.as_array() {
        valid_array(a, s, root)?;
    }
    if let Some(o) = v.as_object() {
        for key in s["required"].as_array().into_iter().flatten() {
            let key = key.as_str().unwrap();
            if !o.contains_key(key) {
                return Err(format!("no key {key}"));
            }
        }
        for (key, sub) in s["properties"].as_object().into_iter().flatten() {
            if let Some(x) = o.get(key) {
                valid(x, sub, root).map_err(|e| format!("{key}: {e}"))?;
            }
        }
    }
    Ok(())
}

/// An array's items, minItems and maxItems.
fn valid_array(a: &[Value], s: &Value, root: &Value) -> Result<(), String> {
    let len = a.len() as u64;
    if s["minItems"].as_u64().is_some_and(|m| len < m)
        || s["maxItems"].as_u64().is_some_and(|m| len > m)
    {
        return Err(format!("an array of {len} items"));
    }
    if s.get("items").is_some() {
        for x in a {
            valid(x, &s["items"], root)?;
        }
    }
    Ok(())
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => panic!("the validator knows no type {t}"),
    }
}
