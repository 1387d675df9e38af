//! `solarmy count`: every minimum army of an entry ([`crate::search::count`]), printed, as JSON, and
//! with `--out` as CSV files and one contact sheet (every army, small, in a grid). With `--out`
//! a count also keeps what it settled ([`crate::search::state`]: the climb's rounds and cases,
//! the last jumps counted and the armies found), and a rerun resumes from it.

use crate::cli::args::{Error, ProblemArg, parse_level};
use crate::report::export;
use crate::report::render;
use crate::search::count::{self, CountOutcome};
use crate::search::state::{self, Stamp};
use crate::weight::pagoda::Pagoda;
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};

const COUNT_HELP: &str = "Examples:
  solarmy count --army conway --level 4
  solarmy count --army hexagonal --level 5 --json
  solarmy count --army skew --level 4 --out counts/
  solarmy count --army hexagonal --level 6 --cases --proof hexagonal-6-count.json.gz

Exit codes: 0 complete count, 1 failure (a file that cannot be written, a solver error), 2 bad
command line (a model file unreadable or malformed too), 3 incomplete (a time limit, Ctrl-C,
an undecided army, or no proven minimum: the count is then a lower bound, \"at least N\").";

#[derive(Args, Debug)]
#[command(after_help = COUNT_HELP)]
pub struct CountArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men start at distance >= level from the target (0,0) (rows y >= level for the five armies)
    #[arg(long, allow_hyphen_values = true)]
    pub level: String,
    /// Stop after this many seconds (0 < SECONDS <= 1e9); the count is then reported as a
    /// lower bound
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Cases of a split round solved at once while proving the minimum, and with --cases
    /// while counting, each HiGHS on its own thread (default: the cores)
    #[arg(long, value_name = "N", default_value_t = crate::cli::args::default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Write every army and its play (CSV) and a contact sheet (SVG) here, and keep what is
    /// settled (the climb's rounds and cases, the last jumps counted) for a rerun to resume
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the count's proof here (.json, or .json.gz), for `solarmy check`: the minimum's
    /// proof, every army with its play, and the final program of each last jump with every
    /// cut. Written only for a complete count
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Count the round of K men case by case, by exponent profile (the cases `solve` splits
    /// a hard round into, on --jobs threads), each case's program solved until every army
    /// of it is cut off; the proof states the cases
    #[arg(long)]
    pub cases: bool,
    #[command(flatten)]
    pub display: crate::cli::args::Display,
}

pub fn run(a: &CountArgs) -> Result<u8, Error> {
    let army = a.problem.army()?;
    let level = parse_level(&a.level)?;
    // --time-limit is checked by its parser (cli::parse_seconds); the outputs before the
    // count, so that a long count never ends unwritable.
    if let Some(dir) = &a.out {
        crate::cli::args::check_writable(dir)?;
    }
    crate::cli::args::check_parent_writable(a.proof.as_deref())?;
    // Ctrl-C stops the solver calls: the armies counted so far are printed and written,
    // reported as a lower bound (exit 3), as a time limit would.
    crate::cli::args::install_interrupt_handler();
    let state = a.out.as_ref().map(|dir| {
        let path = dir.join(format!("{army}-{level}-count-state.json"));
        let stamp = Stamp::new("count", state_problem(army, level), json!(null));
        (path, stamp)
    });
    let resume = state.as_ref().and_then(|(path, stamp)| {
        let s: Option<count::Settled> = state::read(path, stamp);
        if let Some(s) = &s {
            let what = format!(
                "{} men: {} of {} last jumps counted, {} start sets found",
                s.men,
                s.done.len(),
                army.lattice().last_jump_directions().len(),
                s.armies.len()
            );
            state::say_resumed(path, &what, a.display.quiet);
        }
        s
    });
    let run = count::Run {
        jobs: a.jobs as usize,
        progress: a.display.progress(),
        // The climb's settled rounds and cases are kept there too, and resumed.
        case_dir: a.out.clone(),
        resume,
        by_cases: a.cases,
    };
    let out = count::count_on(army, level, a.time_limit, run)?;
    if let Some((path, stamp)) = &state
        && out.settled.men > 0
    {
        state::write(path, stamp, &out.settled)?;
    }
    if a.json {
        outln!("{}", to_json(&out));
    } else {
        out!("{}", summary(&out));
    }
    if let Some(dir) = &a.out {
        write(dir, &out)?;
    }
    if let (Some(path), Some(proof)) = (&a.proof, &out.proof) {
        crate::files::write_atomic(path, &proof.to_bytes(path)?)?;
    } else if let Some(path) = &a.proof {
        eprintln!(
            "solarmy: no proof written to {}: the count is not complete",
            path.display()
        );
    }
    Ok(if out.complete { 0 } else { 3 })
}

/// The problem a count's state is for: the army's fingerprint and the level.
fn state_problem(army: crate::problem::Army, level: i32) -> serde_json::Value {
    json!({"fingerprint": army.problem().fingerprint(), "level": level})
}

pub fn to_json(out: &CountOutcome) -> serde_json::Value {
    let mut fields = json!({
        "fingerprint": out.army.problem().fingerprint(),
        "level": out.level,
        "min_size": out.min_size,
        "up_to_symmetry": out.up_to_symmetry,
        "total": out.total,
        "unplayable": out.unplayable,
        "undecided": out.undecided,
        "complete": out.complete,
        "reason": out.reason,
        "seconds": out.seconds,
        "armies": out.armies,
    });
    // Each army as every command gives one, its men under `army`, and its verified play
    // inline.
    if let Some(list) = fields["armies"].as_array_mut() {
        for (entry, a) in list.iter_mut().zip(&out.armies) {
            entry["army"] = json!(a.cells);
            entry["play"] = json!(a.playable.then_some(&a.play));
            if let Some(o) = entry.as_object_mut() {
                o.remove("cells");
            }
        }
    }
    let problem = crate::cli::envelope::army(out.army, out.level);
    crate::cli::envelope::wrapped(fields, problem, status(out), out.seconds)
}

/// complete (every minimum army counted), impossible (no army reaches the level) or
/// incomplete (the count is a lower bound).
fn status(out: &CountOutcome) -> &'static str {
    match (out.complete, out.min_size) {
        (true, None) => "impossible",
        (true, Some(_)) => "complete",
        (false, _) => "incomplete",
    }
}

/// "the mirror" for the five armies (their one symmetry besides the identity), else the count.
fn up_to(out: &CountOutcome) -> String {
    match out.army.lattice().symmetries.len() {
        2 => "the mirror".into(),
        n => format!("its {n} symmetries"),
    }
}

/// "1 army", "N armies".
fn armies(n: usize) -> String {
    match n {
        1 => "1 army".into(),
        n => format!("{n} armies"),
    }
}

fn summary(out: &CountOutcome) -> String {
    let men = out.min_size.map_or("-".into(), |k| k.to_string());
    let at_least = if out.complete { "" } else { "at least " };
    let mut s = format!(
        "army {}  level {}  minimum {men}\n{at_least}{} up to {}, {at_least}{} in all\n",
        out.army,
        out.level,
        armies(out.up_to_symmetry),
        up_to(out),
        out.total
    );
    for (i, a) in out.armies.iter().enumerate() {
        let kind = match (a.playable, a.symmetric, a.images) {
            (false, _, _) => "undecided".to_string(),
            (true, true, _) => "its own image under every symmetry".to_string(),
            (true, false, 2) => "with its mirror image".to_string(),
            (true, false, n) => format!("one of {n} images"),
        };
        s += &format!("  army {}: {} men, {kind}\n", i + 1, a.cells.len());
    }
    // A complete count with a reason and no minimum is an impossible level: an answer.
    match (&out.reason, out.complete && out.min_size.is_none()) {
        (Some(why), true) => s += &format!("impossible: {why}\n"),
        (Some(why), false) => s += &format!("incomplete: {why}\n"),
        (None, _) => {}
    }
    s += &format!("{:.2} s\n", out.seconds);
    s
}

/// DIR/<army>-<level>-count-<i>-army.csv and -play.csv per army, and DIR/<army>-<level>-count.svg.
fn write(dir: &Path, out: &CountOutcome) -> Result<(), crate::error::Error> {
    let stem = format!("{}-{}-count", out.army, out.level);
    for (i, a) in out.armies.iter().enumerate() {
        let path = dir.join(format!("{stem}-{}-army.csv", i + 1));
        crate::files::write_atomic(
            &path,
            export::army_csv(&a.cells, out.army.problem().spec.dimension).as_bytes(),
        )?;
        if a.playable {
            let path = dir.join(format!("{stem}-{}-play.csv", i + 1));
            crate::files::write_atomic(
                &path,
                export::play_csv(&a.play, out.army.problem().spec.dimension).as_bytes(),
            )?;
            let caption = format!(
                "{} army, level {}: minimum army {}",
                out.army,
                out.level,
                i + 1
            );
            let page =
                crate::report::viewer::html(out.army, out.level, &a.cells, &a.play, &caption);
            let path = dir.join(format!("{stem}-{}.html", i + 1));
            crate::files::write_atomic(&path, page.as_bytes())?;
        }
    }
    crate::files::write_atomic(
        &dir.join(format!("{stem}.svg")),
        contact_sheet(out).as_bytes(),
    )
}

/// Every army of the count, small, in a grid: each army picture nested at its place.
pub fn contact_sheet(out: &CountOutcome) -> String {
    let lattice = out.army.lattice();
    let pictures: Vec<String> = out
        .armies
        .iter()
        .enumerate()
        .map(|(i, a)| {
            // Shaded under the improved function of the army's own last jump.
            let d = a
                .play
                .last()
                .map_or(lattice.last_jump_directions()[0], |s| s.over);
            let pagoda = Pagoda::improved(&lattice, d);
            let caption = format!(
                "army {}{}",
                i + 1,
                if a.symmetric { " (symmetric)" } else { "" }
            );
            render::army_svg(&lattice, &pagoda, out.level, &a.cells, &a.play, &caption)
        })
        .collect();
    let size = |svg: &str, key: &str| -> f64 {
        let at = svg.find(&format!("{key}=\"")).map(|i| i + key.len() + 2);
        at.and_then(|i| svg[i..].split('"').next()?.parse().ok())
            .unwrap_or(200.0)
    };
    let (w, h) = pictures.iter().fold((0f64, 0f64), |(w, h), p| {
        (w.max(size(p, "width")), h.max(size(p, "height")))
    });
    let columns = (pictures.len() as f64).sqrt().ceil().max(1.0) as usize;
    let rows = pictures.len().div_ceil(columns).max(1);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n<title>{} army, level {}: {} minimum armies up to {}</title>\n",
        columns as f64 * w,
        rows as f64 * h + 24.0,
        out.army,
        out.level,
        out.up_to_symmetry,
        up_to(out)
    );
    s += &format!(
        "<text x=\"8\" y=\"16\" font-family=\"sans-serif\" font-size=\"13\">{} army, level {}: {} men; {}{} up to {}, {} in all</text>\n",
        out.army,
        out.level,
        out.min_size.unwrap_or(0),
        if out.complete { "" } else { "at least " },
        armies(out.up_to_symmetry),
        up_to(out),
        out.total
    );
    for (i, p) in pictures.iter().enumerate() {
        let body = p.find("<svg").map_or(p.as_str(), |k| &p[k..]);
        // Each picture's definitions get ids of their own in the shared document.
        let body = body
            .replace("id=\"board\"", &format!("id=\"board{i}\""))
            .replace("href=\"#board\"", &format!("href=\"#board{i}\""));
        let (x, y) = ((i % columns) as f64 * w, (i / columns) as f64 * h + 24.0);
        s += &body.replacen("<svg", &format!("<svg x=\"{x}\" y=\"{y}\""), 1);
        s += "\n";
    }
    s + "</svg>\n"
}
