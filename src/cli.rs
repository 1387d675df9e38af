//! The commands behind `solarmy`: argument types, input checks, output formats.
//!
//! Input is checked here, once, so every command rejects an unknown army or a level below 1
//! with one line, before any work starts.

use crate::bounds;
use crate::export;
use crate::geometry::Army;
use crate::minimum::{self, Outcome, Request, Status};
use crate::pagoda::Pagoda;
use crate::render;
use crate::verify;
use clap::Args;
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// conway, skew, diagonal, hexagonal or pablito
    #[arg(long)]
    pub army: String,
    /// Men start in rows y >= level; the target is (0,0)
    #[arg(long, allow_hyphen_values = true)]
    pub level: String,
    /// Stop after this many seconds and report the best army and the bound proven so far
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Write <army>-<level>-army.csv and -play.csv here
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Write each IP as solved (MPS or LP by extension), as FILE-<men>men-d<x>_<y>.<ext>
    #[arg(long, value_name = "FILE")]
    pub write_model: Option<PathBuf>,
    /// Seconds a direct IP may run before its round is split into cases
    #[arg(long, default_value_t = 30.0)]
    pub direct_budget: f64,
    /// Re-prove every infeasible IP with CBC, a second MIP solver (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
    /// Write the proof of the answer (JSON; gzip-compressed when FILE ends in .gz), for `solarmy check`
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Proof files written by `solve --proof`
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object per file, on its own line
    #[arg(long)]
    pub json: bool,
    /// Accept only exact certificates: refuse any step that would rest on re-solving an IP
    #[arg(long)]
    pub certificates_only: bool,
    /// Seconds HiGHS may spend re-solving one IP that has no certificate
    #[arg(long)]
    pub time_limit: Option<f64>,
}

/// Re-verifies proof files; exit 0 only if every step of every file holds.
pub fn check(a: &CheckArgs) -> Result<u8, String> {
    let opts = crate::proof::check::Options {
        certificates_only: a.certificates_only,
        time_limit: a.time_limit,
    };
    let mut failed = 0;
    for path in &a.files {
        let result = crate::proof::format::Proof::read(path)
            .and_then(|p| crate::proof::check::check(&p, &opts).map_err(|e| e.to_string()));
        match (&result, a.json) {
            (Ok(s), true) => println!("{}", json!({"file": path, "ok": true, "summary": s})),
            (Err(e), true) => println!("{}", json!({"file": path, "ok": false, "error": e})),
            (Ok(s), false) => println!(
                "{}: {} {}: {} proven: {} steps, {} rounds, {} cases, {} integer programs ({} exact certificates, {} re-solved by HiGHS), {:.2} s",
                path.display(),
                s.army,
                s.level,
                s.claim,
                s.steps,
                s.rounds,
                s.cases,
                s.ips,
                s.certified,
                s.solver_only,
                s.seconds
            ),
            (Err(e), false) => eprintln!("solarmy: {}: {e}", path.display()),
        }
        failed += result.is_err() as usize;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[arg(long)]
    pub army: String,
    #[arg(long, allow_hyphen_values = true)]
    pub level: String,
    /// CSV with header x,y
    pub army_csv: PathBuf,
    /// CSV with columns from_x,from_y,over_x,over_y,to_x,to_y
    pub play_csv: PathBuf,
}

#[derive(Args, Debug)]
pub struct CasesArgs {
    #[arg(long)]
    pub army: String,
    #[arg(long, allow_hyphen_values = true)]
    pub level: String,
    /// Number of men K
    #[arg(long)]
    pub size: u64,
    /// Solve every case that no reduction rules out, logging to DIR/<army>-<level>-<size>-cases.jsonl
    #[arg(long, value_name = "DIR")]
    pub solve: Option<PathBuf>,
    /// Seconds per case when solving
    #[arg(long)]
    pub time_limit: Option<f64>,
    #[arg(long)]
    pub json: bool,
    /// Re-prove every infeasible IP with CBC, a second MIP solver (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
}

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// One army (default: all five)
    #[arg(long)]
    pub army: Option<String>,
    #[arg(long)]
    pub json: bool,
    /// Where to look for min-sizes.csv (IP bounds and armies computed before)
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
}

pub fn parse_army(s: &str) -> Result<Army, String> {
    s.parse()
}

pub fn parse_level(s: &str) -> Result<i32, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 && n <= 1000 => Ok(n as i32),
        Ok(n) => Err(format!("level must be a whole number from 1 up, got {n}")),
        Err(_) => Err(format!("level must be a whole number from 1 up, got '{s}'")),
    }
}

/// `--cbc` in a build that has no CBC is refused up front rather than ignored.
fn check_cbc(asked: bool) -> Result<(), String> {
    if asked && !crate::second::AVAILABLE {
        return Err("--cbc needs a build with CBC: apt-get install -y coinor-libcbc-dev, then cargo build --release --features cbc".into());
    }
    Ok(())
}

fn install_interrupt_handler() {
    // A second Ctrl-C while HiGHS winds down is harmless: the flag is already set.
    let _ = ctrlc::set_handler(|| {
        crate::solve::INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

pub fn solve(a: &SolveArgs) -> Result<u8, String> {
    let army = parse_army(&a.army)?;
    let level = parse_level(&a.level)?;
    if let Some(t) = a.time_limit
        && !(t > 0.0)
    {
        return Err(format!("--time-limit must be positive seconds, got {t}"));
    }
    check_cbc(a.cbc)?;
    install_interrupt_handler();
    let req = Request {
        time_limit: a.time_limit,
        progress: !a.json && std::io::stderr().is_terminal(),
        stability_margin: 2,
        write_model: a.write_model.clone(),
        direct_budget: Some(a.direct_budget),
        case_dir: a.out.clone(),
        second_opinion: a.cbc,
        ..Request::new(army, level)
    };
    let out = minimum::find_minimum(&req)?;
    if let Some(path) = &a.proof {
        write_proof(path, &out)?;
    }
    let files = match (&a.out, out.verified) {
        (Some(dir), true) => Some(write_outputs(dir, &out)?),
        _ => None,
    };
    if a.json {
        println!("{}", outcome_json(&out, files.as_ref()));
    } else {
        print_summary(&out, files.as_ref());
    }
    Ok(match out.status {
        Status::Optimal | Status::Impossible => 0,
        Status::Open | Status::TimeLimit | Status::Interrupted => 3,
    })
}

/// Writes the proof of an answer; says on stderr what it lacks when it is incomplete.
fn write_proof(path: &std::path::Path, out: &Outcome) -> Result<(), String> {
    let Some(proof) = out.proof() else {
        eprintln!(
            "solarmy: no proof written: the answer is {}",
            out.status.as_str()
        );
        return Ok(());
    };
    if !out.proof_complete || out.status != Status::Optimal && out.status != Status::Impossible {
        eprintln!(
            "solarmy: the proof in {} is incomplete: a board was not proven or a round is open",
            path.display()
        );
    }
    export::write_atomic(path, &proof.to_bytes(path)?)
}

/// Writes the army and play CSV files; returns their paths.
pub fn write_outputs(dir: &std::path::Path, out: &Outcome) -> Result<(PathBuf, PathBuf), String> {
    let stem = format!("{}-{}", out.army, out.level);
    let army = dir.join(format!("{stem}-army.csv"));
    let play = dir.join(format!("{stem}-play.csv"));
    export::write_atomic(&army, export::army_csv(&out.army_cells).as_bytes())?;
    export::write_atomic(&play, export::play_csv(&out.play).as_bytes())?;
    let lattice = out.army.lattice();
    let pagoda = Pagoda::improved(&lattice, out.last_jump.unwrap_or(lattice.directions[0]));
    let caption = format!(
        "{} army, level {}: {} men{}",
        out.army,
        out.level,
        out.army_cells.len(),
        if out.status == Status::Optimal {
            " (minimum)"
        } else {
            ""
        }
    );
    let svg = render::army_svg(
        &lattice,
        &pagoda,
        out.level,
        &out.army_cells,
        &out.play,
        &caption,
    );
    export::write_atomic(&dir.join(format!("{stem}-army.svg")), svg.as_bytes())?;
    let html = crate::viewer::html(out.army, out.level, &out.army_cells, &out.play, &caption);
    export::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())?;
    let caption = format!("{caption}, {} jumps in {} moves", out.play.len(), out.moves);
    let svg = render::play_svg(
        &lattice,
        &pagoda,
        out.level,
        &out.army_cells,
        &out.play,
        &caption,
    );
    export::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())?;
    Ok((army, play))
}

pub fn outcome_json(out: &Outcome, files: Option<&(PathBuf, PathBuf)>) -> serde_json::Value {
    json!({
        "army": out.army.name(),
        "level": out.level,
        "status": out.status.as_str(),
        "min_size": out.min_size,
        "lower_bound": out.lower_bound,
        "pagoda_bound": out.pagoda_bound,
        "board_proven": out.board_proven,
        "stable": out.stable,
        "cells": out.cells,
        "jumps": out.jumps,
        "seconds": out.seconds,
        "reason": out.reason,
        "verified": out.verified,
        "moves": out.moves,
        "last_jump": out.last_jump,
        "unorderable": out.unorderable,
        "case_logs": out.case_logs,
        "order_seconds": out.order_seconds,
        "army_csv": files.map(|f| f.0.display().to_string()),
        "play_csv": files.map(|f| f.1.display().to_string()),
        "rounds": out.rounds,
    })
}

fn print_summary(out: &Outcome, files: Option<&(PathBuf, PathBuf)>) {
    println!("army {}  level {}", out.army, out.level);
    match out.status {
        Status::Impossible => {
            println!(
                "impossible: {}",
                out.reason.as_deref().unwrap_or("pagoda bound")
            );
            return;
        }
        s => println!("status {}", s.as_str()),
    }
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    println!(
        "minimum {}  (lower bound {}, pagoda bound {})",
        show(out.min_size),
        show(out.lower_bound),
        show(out.pagoda_bound)
    );
    println!(
        "board {} cells, {} jumps; proven to hold every useful cell: {}{}",
        out.cells,
        out.jumps,
        if out.board_proven { "yes" } else { "no" },
        match out.stable {
            Some(true) => " (optimum unchanged on a larger board)",
            Some(false) => " (optimum MOVED on a larger board)",
            None => "",
        }
    );
    if out.verified {
        println!(
            "play verified: {} men, {} jumps, {} moves, last jump over {:?}",
            out.army_cells.len(),
            out.play.len(),
            out.moves,
            out.last_jump.unwrap_or((0, 0))
        );
    }
    println!(
        "{} integer programs, {:.2} s",
        out.rounds.len(),
        out.seconds
    );
    if let Some((a, p)) = files {
        println!("wrote {} and {}", a.display(), p.display());
    }
}

pub fn verify(a: &VerifyArgs) -> Result<u8, String> {
    let army = parse_army(&a.army)?;
    let level = parse_level(&a.level)?;
    let men = export::read_army(&a.army_csv)?;
    let play = export::read_play(&a.play_csv)?;
    let r = verify::replay(&army.lattice(), level, &men, &play)?;
    println!(
        "legal: {} men, {} jumps, {} moves, {} men left, target (0,0) reached at level {level}",
        r.men, r.jumps, r.moves, r.men_left
    );
    Ok(0)
}

pub fn bounds(a: &BoundsArgs) -> Result<u8, String> {
    let armies = match &a.army {
        Some(s) => vec![parse_army(s)?],
        None => Army::ALL.to_vec(),
    };
    let mut all: Vec<_> = armies.into_iter().map(bounds::army_bounds).collect();
    let computed = export::read_min_sizes(&a.results.join("min-sizes.csv"))?;
    for b in &mut all {
        for l in &mut b.levels {
            if let Some(r) = computed
                .iter()
                .find(|r| r.army == b.army.name() && r.level == l.level)
            {
                l.computed = Some(r.clone());
            }
        }
    }
    if a.json {
        let v = if all.len() == 1 {
            serde_json::to_value(&all[0])
        } else {
            serde_json::to_value(&all)
        };
        println!("{}", v.map_err(|e| e.to_string())?);
        return Ok(0);
    }
    for b in &all {
        println!("{} army: highest reachable level {}", b.army, b.max_level);
        println!(
            "  level  pagoda bound  IP bound  best army  status      slack of the heaviest army"
        );
        for l in &b.levels {
            let (ip, best, status) = match &l.computed {
                Some(r) => (r.lower_bound.clone(), r.min_size.clone(), r.status.clone()),
                None => ("-".into(), "-".into(), "-".into()),
            };
            println!(
                "  {:>5}  {:>12}  {:>8}  {:>9}  {:<10}  {} = {} ≈ {:.3e}",
                l.level, l.lower_bound, ip, best, status, l.slack_sigma, l.slack, l.slack_value
            );
        }
    }
    Ok(0)
}

pub fn cases(a: &CasesArgs) -> Result<u8, String> {
    let army = parse_army(&a.army)?;
    let level = parse_level(&a.level)?;
    if let Some(reason) = crate::pagoda::impossibility_reason(army, level) {
        println!("impossible: {reason}");
        return Ok(0);
    }
    check_cbc(a.cbc)?;
    install_interrupt_handler();
    let mut sweep = crate::sweep::Sweep::new(army, level, a.size);
    sweep.second_opinion = a.cbc;
    if a.json && a.solve.is_none() {
        println!(
            "{}",
            serde_json::to_string(&sweep.families).map_err(|e| e.to_string())?
        );
        return Ok(0);
    }
    if !a.json {
        print!("{}", sweep.table());
    }
    let Some(dir) = &a.solve else { return Ok(0) };
    let progress = !a.json && std::io::stderr().is_terminal();
    let report = sweep.solve(dir, a.time_limit, progress)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
    } else {
        println!("{}", report.summary());
    }
    Ok(if report.complete { 0 } else { 3 })
}
