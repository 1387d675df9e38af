//! One vocabulary and one JSON shape (docs/cli.md): every command's `--help` names the
//! common flags, its examples and its exit codes, and a small run of every command prints
//! JSON that docs/json-schema.json accepts. The schema is read from the file and checked by
//! the small validator below (the keywords the file uses, no more).

mod common;

use common::{scratch, solarmy};
use serde_json::Value;

/// The commands and the name of their time limit: the whole command's `--time-limit`, or
/// for cases and check the per-case and per-program limits that `--time-limit` still spells.
const COMMANDS: [(&str, &str); 9] = [
    ("solve", "--time-limit"),
    ("verify", "--time-limit"),
    ("bounds", "--time-limit"),
    ("cases", "--case-time-limit"),
    ("check", "--program-time-limit"),
    ("certify", "--time-limit"),
    ("count", "--time-limit"),
    ("pagoda", "--time-limit"),
    ("catalog", "--time-limit"),
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
    // The older spellings still parse (scripts use them): a bad value is refused by the
    // value's parser (exit 2 naming the number), not as an unknown flag.
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
    let p = |f: &str| d.join(f).to_str().unwrap().to_string();
    let (proof, army, play) = (p("c2.json"), p("conway-2-army.csv"), p("conway-2-play.csv"));
    let (out, tri) = (p(""), "models/triangle5.toml");
    let runs: Vec<(Vec<&str>, i32)> = vec![
        (
            vec![
                "solve", "--army", "conway", "--level", "2", "--out", &out, "--proof", &proof,
            ],
            0,
        ),
        (
            vec![
                "solve",
                "--model",
                tri,
                "--vacancy",
                "0,0",
                "--finish",
                "0,0",
            ],
            0,
        ),
        (vec!["solve", "--army", "skew", "--level", "7"], 0),
        (
            vec!["verify", "--army", "conway", "--level", "2", &army, &play],
            0,
        ),
        (
            vec!["verify", "--army", "conway", "--level", "3", &army, &play],
            1,
        ),
        (vec!["bounds", "--army", "conway"], 0),
        (vec!["bounds"], 0),
        (
            vec!["cases", "--army", "conway", "--level", "3", "--size", "8"],
            0,
        ),
        (
            vec!["cases", "--army", "skew", "--level", "7", "--size", "8"],
            0,
        ),
        (vec!["check", &proof, "no-such-proof.json"], 1),
        (vec!["certify", &proof], 0),
        (vec!["count", "--army", "conway", "--level", "2"], 0),
        (
            vec![
                "pagoda",
                "--model",
                "models/desert-square.toml",
                "--level",
                "2",
            ],
            0,
        ),
        (
            vec![
                "pagoda",
                "--model",
                "models/desert-square.toml",
                "--level",
                "5",
                "--time-limit",
                "0.01",
            ],
            3,
        ),
        (vec!["catalog", "--model", tri, "--moves"], 0),
    ];
    let mut fingerprints = Vec::new();
    for (args, want) in runs {
        let args: Vec<&str> = args.into_iter().chain(["--json"]).collect();
        let (code, stdout, err) = solarmy(&args);
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(!stdout.trim().is_empty(), "{args:?}: no JSON");
        for line in stdout.lines() {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            if let Err(e) = valid(&v, &schema, &schema) {
                panic!("{args:?}: {e}\n{line}");
            }
            if let Some(f) = v["problem"]["fingerprint"].as_str() {
                fingerprints.push((args[0], v["problem"]["name"].clone(), f.to_string()));
            }
        }
    }
    // The same problem has the same fingerprint whichever command names it.
    let conway: Vec<_> = fingerprints
        .iter()
        .filter(|(_, n, _)| n == "conway")
        .collect();
    assert!(conway.len() >= 6, "{conway:?}");
    assert!(conway.iter().all(|c| c.2 == conway[0].2), "{conway:?}");
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

/// Whether `v` satisfies `s`, a (sub)schema of `root`, for the keywords the schema file uses:
/// $ref (to #/$defs/…), type, enum, required, properties, items, minItems, maxItems,
/// minimum, pattern (a hex digest only), oneOf and not.
fn valid(v: &Value, s: &Value, root: &Value) -> Result<(), String> {
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
