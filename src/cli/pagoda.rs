//! `solarmy pagoda`: the best pagoda functions of a level found by linear programming
//! ([`crate::ip::lp_pagoda`]), what they prove, and the proof file of an impossible level.

use crate::cli::args::{Error, ProblemArg, emitln, parse_level};
use crate::ip::lp_pagoda::{self, Analysis, Found};
use crate::proof::format::{FORMAT, Proof};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

const PAGODA_HELP: &str = "Examples:
  solarmy pagoda --model models/desert-square.toml --level 7 --proof square-7.json
  solarmy pagoda --model models/desert-rhombus.toml --level 6 --json

The LP's variables are the weights on the window max(|x|,|y|) <= level + margin and a factor τ
of the tail τ·σ^(M−R) beyond it (M the Manhattan distance from the target, or from d for a
function normalised on the last jump over d); its rows the pagoda condition on every jump touching the
window. Its float optimum is made exact (integer weights in Z[σ]) and weighed exactly; only
the exact weights are reported as proof. Needs Conway's jumps on every cell (the tail lemma).
Every cell beyond the window is counted as a start cell, so on a half-plane (the five armies)
the bound is looser than the pagoda bound; it is meant for deserts.

Exit codes: 0 answered (impossible, or not proven impossible, with the bounds), 1 failure (a
solver error, a proof file that cannot be written), 2 bad command line (a level whose window
exceeds radius 16, a model without unit jumps on every cell, a model file unreadable or
malformed), 3 stopped by --time-limit (no answer).";

#[derive(Args, Debug)]
#[command(after_help = PAGODA_HELP)]
pub struct PagodaArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men start at distance >= level from the target (1 up to 16 − margin)
    #[arg(long, allow_hyphen_values = true)]
    pub level: String,
    /// The window reaches this far beyond the level (0 to 14)
    #[arg(long, value_name = "N", default_value_t = lp_pagoda::DEFAULT_MARGIN, value_parser = clap::value_parser!(i32).range(0..=14))]
    pub margin: i32,
    /// Army sizes searched for a lower bound, per last jump (0: none)
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub max_men: u64,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Write the proof of an impossible level (JSON; gzip-compressed when FILE ends in .gz)
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Stop after this many seconds (0 < SECONDS <= 1e9), exit 3 with no answer (the linear
    /// programs cannot stop part-way)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write the proof of an impossible level here too, as DIR/<model>-<level>-pagoda.proof.json
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub display: crate::cli::args::Display,
}

pub fn run(a: &PagodaArgs) -> Result<u8, Error> {
    let army = a.problem.army()?;
    let level = parse_level(&a.level)?;
    let lattice = army.lattice();
    crate::proof::lp::tail_lemma_applies(&lattice).map_err(Error::usage)?;
    lp_pagoda::radius(level, a.margin).map_err(|e| Error::usage(e.to_string()))?;
    crate::cli::args::check_parent_writable(a.proof.as_deref())?;
    let in_out = a
        .out
        .as_ref()
        .map(|dir| dir.join(format!("{}-{level}-pagoda.proof.json", army.name())));
    crate::cli::args::check_parent_writable(in_out.as_deref())?;
    let problem = crate::cli::envelope::army(army, level);
    crate::cli::envelope::watchdog(a.time_limit, a.json, problem.clone());
    let t0 = std::time::Instant::now();
    let cap = (a.max_men > 0).then_some(a.max_men);
    let an = lp_pagoda::analyse(&lattice, level, a.margin, cap)?;
    let seconds = t0.elapsed().as_secs_f64();
    crate::cli::envelope::answered();
    let shown = if a.json {
        let mut j = json_of(army.name(), &an, seconds);
        // The status is json_of's own: impossible or open.
        crate::cli::envelope::wrap(&mut j, problem, "open", seconds);
        emitln(&j.to_string())
    } else {
        emitln(&text_of(army.name(), &an, seconds))
    };
    // DIR gets the proof of an impossible level only; --proof FILE is told why it got none.
    let asked = a
        .proof
        .iter()
        .chain(in_out.iter().filter(|_| an.impossible()));
    for path in asked {
        match an.claim() {
            Some(claim) => {
                let proof = Proof {
                    format: FORMAT.into(),
                    program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
                    army: army.name().into(),
                    model: (!army.problem().bundled).then(|| army.problem().source.clone()),
                    fingerprint: Some(army.problem().fingerprint()),
                    level,
                    claim,
                    play: None,
                    rounds: Vec::new(),
                };
                crate::files::write_atomic(path, &proof.to_bytes(path)?)?;
            }
            None => eprintln!(
                "solarmy: no proof written: the LP functions do not rule out level {level}"
            ),
        }
    }
    shown?;
    Ok(0)
}

fn found_json(f: &Found) -> serde_json::Value {
    json!({
        "lp_value": f.lp_value,
        "start_over_test": f.ratio(),
        "start": f.weighed.start.to_string(),
        "test": f.weighed.goal.to_string(),
        "rules_out": f.rules_out(),
    })
}

fn json_of(name: &str, an: &Analysis, seconds: f64) -> serde_json::Value {
    json!({
        "model": name,
        "level": an.level,
        "radius": an.radius,
        "status": if an.impossible() { "impossible" } else { "open" },
        "target": found_json(&an.target),
        "last_jumps": an.last_jumps.iter().map(|(d, f)| {
            let mut v = found_json(f);
            v["d"] = json!([d.0, d.1]);
            v
        }).collect::<Vec<_>>(),
        "ruled_out": an.ruled_out.iter().map(|(d, k)| json!({"d": [d.0, d.1], "up_to": k})).collect::<Vec<_>>(),
        "size_bound": an.size_bound(),
        "seconds": seconds,
    })
}

fn text_of(name: &str, an: &Analysis, seconds: f64) -> String {
    let verdict = |f: &Found| {
        if f.rules_out() {
            "below 1: rules it out"
        } else {
            "not below 1"
        }
    };
    let mut s = format!(
        "{name} level {}: pagoda functions by LP on the window |x|,|y| <= {} with the tail τ·σ^(M−{}), M the distance from the target or from d\n",
        an.level, an.radius, an.radius
    );
    s += &format!(
        "normalised on the target: the start region weighs at most {:.6} of the target (LP {:.6}), {}\n",
        an.target.ratio(),
        an.target.lp_value,
        verdict(&an.target)
    );
    for (d, f) in &an.last_jumps {
        s += &format!(
            "normalised on {{d, 2d}}, d={d:?}: the start region weighs at most {:.6} of it (LP {:.6}), {}\n",
            f.ratio(),
            f.lp_value,
            verdict(f)
        );
    }
    for (d, k) in &an.ruled_out {
        s += &match k {
            Some(k) => {
                format!("d={d:?}: armies of up to {k} men ruled out, one function per size\n")
            }
            None => format!("d={d:?}: not even 1 man ruled out\n"),
        };
    }
    s += &if an.impossible() {
        format!(
            "impossible, proven: no army of any size reaches level {}",
            an.level
        )
    } else {
        match an.size_bound() {
            Some(b) => format!("open: not ruled out; every army has at least {b} men"),
            None => "open: not ruled out".into(),
        }
    };
    s + &format!("  ({seconds:.2} s)")
}
