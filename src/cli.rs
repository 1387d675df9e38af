//! The commands behind `solarmy`: argument types, input checks, output formats.
//!
//! Input is checked here, once, so every command rejects an unknown army or a level below 1
//! with one line, before any work starts. Errors carry their exit code ([`Error`]): 2 for a
//! bad command line, 1 for any other failure. Everything for stdout goes through [`emit`],
//! so a closed pipe ends a command quietly and a full disk is one line, never a panic.

use crate::bounds;
use crate::export;
use crate::geometry::Cell;
use crate::golden::Golden;
use crate::minimum::{self, Outcome, Request, Status};
use crate::pagoda::Pagoda;
use crate::problem::Army;
use crate::render;
use crate::verify;
use clap::Args;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Exit codes, for `--help` and the README.
pub const EXIT_CODES: &str = "Exit codes: 0 answered (optimal, impossible, legal), 1 failure (an input file unreadable \
or malformed, an illegal play, a file that cannot be written, a solver error), 2 bad command line \
(unknown option or army, a number out of range), 3 stopped early by --time-limit or Ctrl-C \
(what was found is still reported).";

const SOLVE_HELP: &str = "Examples:
  solarmy solve --army hexagonal --level 6              # 36 men, about 3 s
  solarmy solve --army diagonal --level 5 --json --out armies
  solarmy solve --army skew --level 7                   # impossible, with the exact weight

Exit codes: 0 answered (optimal or impossible), 1 failure (a file that cannot be written, a
solver error), 2 bad command line, 3 stopped by --time-limit or Ctrl-C (the best army and the
bound proven so far are still reported).";

const CHECK_HELP: &str = "Examples:
  solarmy solve --army conway --level 4 --proof conway-4.json && solarmy check conway-4.json
  solarmy check results/proofs/*
  solarmy check --json --certificates-only results/proofs/skew-6.json.gz
  solarmy check --cbc --time-limit 3600 results/proofs/hexagonal-7.json.gz

With --cbc (a build with --features cbc), CBC solves every infeasible integer program again,
certified or not: CBC finding one feasible fails its step (the solvers disagree); a CBC
time-out is reported as no verdict, never counted as a confirmation.

Exit codes: 0 every step of every file holds, 1 a file is unreadable or a step fails (one line
per bad file, naming its first failing step), 2 bad command line (or --cbc without CBC).";

const VERIFY_HELP: &str = "Examples:
  solarmy verify --army diagonal --level 5 armies/diagonal-5-army.csv armies/diagonal-5-play.csv
  solarmy verify --army conway --level 2 army.csv - < play.csv

Exit codes: 0 the play is legal and reaches the target, 1 it is not (the first illegal jump is
named) or a file is unreadable or malformed, 2 bad command line.";

const CASES_HELP: &str = "Examples:
  solarmy cases --army diagonal --level 8 --size 122    # every case ruled out (Table 5)
  solarmy cases --army hexagonal --level 6 --size 36 --solve logs --json
  solarmy cases --army skew --level 6 --size 45 --emit-jobs sweep   # 72 jobs, then:
    parallel --joblog sweep/joblog --resume < sweep/jobs.txt        # or sbatch --wait sweep/slurm.sh
    solarmy cases --merge sweep --json                              # as --solve sweep --json prints

The case log of --solve DIR is DIR/<army>-<level>-<size>-d<x>_<y>[-d<x>_<y>...]-cases.jsonl (one
d<x>_<y> per last jump); a rerun resumes from it. A feasible case's army and play are written
to DIR/<army>-<level>-<size>men-army.csv|svg and -play.csv|svg.

--emit-jobs DIR writes DIR/manifest.json, DIR/jobs.txt (one `--run-job DIR --case I` line per
case without a result) and DIR/slurm.sh (an sbatch --array script); --merge DIR re-checks every
result as a resumed case log line (a result stamped for another version or problem is refused)
and reports the jobs without a result, whose cases stay open.

Exit codes: 0 answered (every case settled, or the size ruled out; a job: its case settled), 1
failure (a refused stamp), 2 bad command line, 3 stopped early (time limit, Ctrl-C, the
enumeration's case or node budget; a merge with cases still open).";

const BOUNDS_HELP: &str = "Examples:
  solarmy bounds                                        # all five armies
  solarmy bounds --army diagonal --json
  solarmy bounds --results results                      # with the IP columns of min-sizes.csv

Exit codes: 0 printed, 1 a malformed min-sizes.csv, 2 bad command line (unknown army, a missing
--results directory).";

pub const COMPLETIONS_HELP: &str = "Examples:
  solarmy completions bash > /etc/bash_completion.d/solarmy
  solarmy completions zsh > ~/.zfunc/_solarmy
  solarmy completions fish > ~/.config/fish/completions/solarmy.fish

Exit codes: 0 printed, 2 bad command line (an unknown shell).";

pub const MANPAGE_HELP: &str = "Examples:
  solarmy manpage > solarmy.1 && man ./solarmy.1
  solarmy manpage | gzip > /usr/local/share/man/man1/solarmy.1.gz

Exit codes: 0 printed, 1 standard output cannot be written.";

/// How much goes to stderr while a command runs.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct Display {
    /// No progress display on stderr (it is shown only when stderr is a terminal)
    #[arg(short, long)]
    pub quiet: bool,
    /// One line per integer program solved, on stderr, as it is solved
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
}

impl Display {
    /// The live display is on when stderr is a terminal and -q was not given, whether or
    /// not stdout carries JSON.
    pub fn progress(self) -> bool {
        !self.quiet && std::io::stderr().is_terminal()
    }
}

#[derive(Args, Debug)]
#[command(after_help = SOLVE_HELP)]
pub struct SolveArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men start at distance >= level from the target (0,0): rows y >= level for the five armies, outside the desert of side 2·level − 1 for a square desert (1 to 2147483647). Not for boards
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["vacancy", "finish"])]
    pub level: Option<String>,
    /// Board models only: the hole left empty at the start (x,y)
    #[arg(
        long,
        value_name = "X,Y",
        allow_hyphen_values = true,
        requires = "finish",
        conflicts_with = "level"
    )]
    pub vacancy: Option<String>,
    /// Board models only: the hole the last man must stand on (x,y)
    #[arg(
        long,
        value_name = "X,Y",
        allow_hyphen_values = true,
        requires = "vacancy",
        conflicts_with = "level"
    )]
    pub finish: Option<String>,
    /// Stop after this many seconds (0 < SECS <= 1e9) and report the best army and the bound proven so far
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write <army>-<level>-army.csv|svg and -play.csv|svg here (checked to be writable before solving)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Write each IP as solved (MPS or LP by extension), as FILE-<men>men-d<x>_<y>.<ext>
    #[arg(long, value_name = "FILE")]
    pub write_model: Option<PathBuf>,
    /// Seconds a direct IP may run before its round is split into cases (0 < SECS <= 1e9)
    #[arg(long, value_name = "SECS", default_value_t = 30.0, allow_hyphen_values = true, value_parser = parse_seconds)]
    pub direct_budget: f64,
    /// Re-prove every infeasible IP with CBC, a second MIP solver (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
    /// Cases of a split round solved at once, each HiGHS on its own thread (default: the cores)
    #[arg(long, value_name = "N", default_value_t = default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Write the proof of the answer (JSON; gzip-compressed when FILE ends in .gz), for `solarmy check`
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    #[command(flatten)]
    pub display: Display,
}

/// `catalog`: every single-vacancy → single-survivor problem of a board, up to symmetry.
#[derive(Args, Debug)]
pub struct CatalogArgs {
    /// A board model file (start kind "board"), e.g. models/english.toml
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Print the catalogue as one JSON object
    #[arg(long)]
    pub json: bool,
    /// Write DIR/<board>.csv and .svg, and DIR/<board>/ with every problem's proof and play
    #[arg(long, value_name = "DIR", default_value = "results/boards")]
    pub out: PathBuf,
    /// One line per problem on stderr as it is settled
    #[arg(long, short)]
    pub verbose: bool,
    /// After this many seconds, settle the remaining problems by the cheap steps only
    /// (position class, resource count); what they leave open is reported undecided
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Also the fewest moves of every problem (the exact search by levels, boards of at most
    /// 64 holes): DIR/<board>-moves.csv, and each shortest play and its per-level position
    /// counts in DIR/<board>/
    #[arg(long)]
    pub moves: bool,
    /// With --moves: after this many seconds of the moves, list the problems left as not
    /// searched (status time_limit)
    #[arg(long, value_name = "SECS", requires = "moves", value_parser = parse_seconds)]
    pub moves_time_limit: Option<f64>,
}

#[derive(Args, Debug)]
#[command(after_help = CHECK_HELP)]
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
    /// Seconds HiGHS may spend re-solving one IP that has no certificate, and CBC one IP
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// IPs without a certificate re-solved at once, one HiGHS each (default: the cores)
    #[arg(long, value_name = "N", default_value_t = default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Ask CBC, a second MIP solver, to prove every infeasible IP too (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
    /// With --cbc: keep CBC's verdicts in this JSON-lines file, and do not ask CBC again about
    /// a system the file says it proved infeasible (a long second opinion survives a stop)
    #[arg(long, value_name = "FILE", requires = "cbc")]
    pub cbc_record: Option<PathBuf>,
}

/// Re-verifies proof files; exit 0 only if every step of every file holds.
pub fn check(a: &CheckArgs) -> Result<u8, Error> {
    check_cbc(a.cbc)?;
    let opts = crate::proof::check::Options {
        certificates_only: a.certificates_only,
        time_limit: a.time_limit,
        jobs: a.jobs as usize,
        cbc: a.cbc,
        cbc_record: match &a.cbc_record {
            Some(p) => Some(std::sync::Arc::new(
                crate::proof::check::Record::open(p)
                    .map_err(|e| Error::failure(format!("{}: {e}", p.display())))?,
            )),
            None => None,
        },
    };
    let mut failed = 0;
    for path in &a.files {
        let result = crate::proof::format::Proof::read(path)
            .and_then(|p| Ok(crate::proof::check::check(&p, &opts)?))
            .map_err(|e: crate::error::Error| e.to_string());
        match (&result, a.json) {
            (Ok(s), true) => emitln(&json!({"file": path, "ok": true, "summary": s}).to_string())?,
            (Err(e), true) => emitln(&json!({"file": path, "ok": false, "error": e}).to_string())?,
            (Ok(s), false) => emitln(&check_line(path, s))?,
            (Err(e), false) => eprintln!("solarmy: {}: {e}", path.display()),
        }
        failed += result.is_err() as usize;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// One file's summary for people: what was proven, on what, and what CBC said.
fn check_line(path: &Path, s: &crate::proof::check::Summary) -> String {
    let cbc = s.cbc.as_ref().map_or(String::new(), |c| {
        let open = c
            .cbc_no_verdict_at
            .iter()
            .map(|a| format!("; no verdict at {a}"));
        format!(
            "; CBC confirmed {} of {} ({} no verdict), {:.2} s, slowest {:.2} s{}",
            c.cbc_confirmed,
            s.ips,
            c.cbc_no_verdict,
            c.cbc_seconds,
            c.cbc_max_seconds,
            open.collect::<String>()
        )
    });
    format!(
        "{}: {} {}: {} proven: {} steps, {} rounds, {} cases, {} integer programs ({} exact certificates, {} re-solved by HiGHS), {:.2} s{cbc}",
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
    )
}

#[derive(Args, Debug)]
#[command(after_help = VERIFY_HELP)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men must start at distance >= level from the target (rows y >= level for the five armies; 1 to 2147483647). Not for boards
    #[arg(long, allow_hyphen_values = true, required_unless_present = "finish")]
    pub level: Option<String>,
    /// Board models only: the hole the last man must stand on (x,y); ARMY_CSV is the start
    #[arg(
        long,
        value_name = "X,Y",
        allow_hyphen_values = true,
        conflicts_with = "level"
    )]
    pub finish: Option<String>,
    /// CSV with header x,y ('-': standard input)
    pub army_csv: PathBuf,
    /// CSV with columns from_x,from_y,over_x,over_y,to_x,to_y ('-': standard input, if ARMY_CSV is not)
    pub play_csv: PathBuf,
}

#[derive(Args, Debug)]
#[command(after_help = CASES_HELP)]
pub struct CasesArgs {
    /// conway, skew, diagonal, hexagonal or pablito (the model files built in)
    #[arg(long, conflicts_with = "model", required_unless_present_any = ["model", "merge"])]
    pub army: Option<String>,
    /// A model file (TOML, schema in models/README.md), e.g. models/hexagonal.toml
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Men start at distance >= level from the target: rows y >= level for the five armies, the model's own metric for a desert (1 to 2147483647)
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    pub level: Option<String>,
    /// Number of men K (1 up to what the start cells of the pagoda window hold)
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = parse_size, required_unless_present = "merge")]
    pub size: Option<u64>,
    /// Solve every case that no reduction rules out, logging to DIR/<army>-<level>-<K>-d<x>_<y>[-d..]-cases.jsonl
    #[arg(long, value_name = "DIR")]
    pub solve: Option<PathBuf>,
    /// Write the cases to solve as independent jobs: DIR/manifest.json, DIR/jobs.txt (one command line per case without a result), DIR/slurm.sh (an sbatch --array script)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["solve", "run_job", "merge"])]
    pub emit_jobs: Option<PathBuf>,
    /// Solve job I (--case I) of DIR, writing DIR/results/I.json
    #[arg(long, value_name = "DIR", requires = "case", conflicts_with_all = ["solve", "merge"])]
    pub run_job: Option<PathBuf>,
    /// The job --run-job solves, from 1 (line I of a fresh DIR/jobs.txt)
    #[arg(long, value_name = "I", requires = "run_job")]
    pub case: Option<usize>,
    /// Complete the round from the job results in DIR (the problem is read from DIR/manifest.json): the same case log and answer as --solve DIR
    #[arg(long, value_name = "DIR", conflicts_with_all = ["solve", "level", "size", "army", "model", "cbc"])]
    pub merge: Option<PathBuf>,
    /// Seconds per case when solving (0 < SECS <= 1e9)
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// One JSON object on stdout (the cases, and with --solve the results)
    #[arg(long)]
    pub json: bool,
    /// Re-prove every infeasible IP with CBC, a second MIP solver (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
    /// Cases of a split round solved at once, each HiGHS on its own thread (default: the cores)
    #[arg(long, value_name = "N", default_value_t = default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Stop the enumeration once it holds this many cases (bounds its memory)
    #[arg(long, value_name = "N", default_value_t = MAX_CASES)]
    pub max_cases: usize,
    #[command(flatten)]
    pub display: Display,
}

#[derive(Args, Debug)]
#[command(after_help = BOUNDS_HELP)]
pub struct BoundsArgs {
    /// One army (default: all five)
    #[arg(long, conflicts_with = "model")]
    pub army: Option<String>,
    /// A model file instead of the bundled armies (TOML, schema in models/README.md)
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// One JSON object on stdout: {"armies": [...]}
    #[arg(long)]
    pub json: bool,
    /// A directory holding min-sizes.csv (as results/ does): adds its IP bounds and armies
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
}

/// Cases the enumeration of `cases` may hold (a few hundred bytes each: well under 1 GB).
pub const MAX_CASES: usize = 200_000;

/// Largest `--time-limit` and `--direct-budget`, in seconds (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// An error with its exit code: 2 for a bad command line, 1 for any other failure, and 0
/// with no message for a closed standard output (the reader has gone: exit quietly).
#[derive(Debug)]
pub struct Error {
    pub code: u8,
    pub message: String,
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Error {
        Error {
            code: 2,
            message: message.into(),
        }
    }
    pub fn failure(message: impl Into<String>) -> Error {
        Error {
            code: 1,
            message: message.into(),
        }
    }
    /// Standard output was closed by its reader.
    pub fn closed() -> Error {
        Error {
            code: 0,
            message: String::new(),
        }
    }
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::failure(message)
    }
}

impl From<Error> for String {
    fn from(e: Error) -> String {
        e.message
    }
}

/// Every failure the library reports ends a command with exit 1 and its message.
impl From<crate::error::Error> for Error {
    fn from(e: crate::error::Error) -> Error {
        Error::failure(e.to_string())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Writes `text` to standard output and flushes it: a closed pipe is [`Error::closed`], any
/// other failure (a full disk) one line naming standard output.
pub fn emit(text: &str) -> Result<(), Error> {
    let mut o = std::io::stdout().lock();
    o.write_all(text.as_bytes())
        .and_then(|_| o.flush())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Error::closed()
            } else {
                Error::failure(format!("cannot write to standard output: {e}"))
            }
        })
}

/// [`emit`] with a newline.
pub fn emitln(text: &str) -> Result<(), Error> {
    emit(&format!("{text}\n"))
}

/// A time in seconds: a number greater than 0 and at most [`MAX_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_SECONDS => Ok(t),
        _ => Err(format!(
            "must be a number of seconds greater than 0 and at most {MAX_SECONDS:e}"
        )),
    }
}

/// A number of men: a whole number from 1 (the upper limit depends on the army: see `cases`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("must be a whole number of men from 1 up".into()),
    }
}

/// The number of cores, the default of `--jobs`.
fn default_jobs() -> u16 {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(1024) as u16)
}

pub fn parse_army(s: &str) -> Result<Army, Error> {
    s.parse().map_err(Error::usage)
}

/// The problem a command works on: a bundled army by name, or any model file.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct ProblemArg {
    /// conway, skew, diagonal, hexagonal or pablito (the model files built in)
    #[arg(long)]
    pub army: Option<String>,
    /// A model file (TOML, schema in models/README.md), e.g. models/hexagonal.toml
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
}

impl ProblemArg {
    pub fn army(&self) -> Result<Army, Error> {
        match (&self.army, &self.model) {
            (Some(name), _) => parse_army(name),
            (None, Some(path)) => Army::read(path).map_err(Error::usage),
            (None, None) => Err(Error::usage("give --army NAME or --model FILE")),
        }
    }
}

/// A level: a whole number from 1 to i32::MAX. Every level above the army's highest
/// reachable one is answered `impossible`, with the exact weight of its start rows.
pub fn parse_level(s: &str) -> Result<i32, Error> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 && n <= i32::MAX as i64 => Ok(n as i32),
        _ => Err(Error::usage(format!(
            "level must be a whole number from 1 to {}, got '{s}'",
            i32::MAX
        ))),
    }
}

/// `--cbc` in a build that has no CBC is refused up front rather than ignored.
fn check_cbc(asked: bool) -> Result<(), Error> {
    if asked && !crate::second::AVAILABLE {
        return Err(Error::usage(
            "--cbc needs a build with CBC: apt-get install -y coinor-libcbc-dev, then cargo build --release --features cbc",
        ));
    }
    Ok(())
}

fn install_interrupt_handler() {
    // A second Ctrl-C while HiGHS winds down is harmless: the flag is already set.
    let _ = ctrlc::set_handler(|| {
        crate::solve::INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

/// Creates `dir` if needed and checks that a file can be written in it, so that a long run
/// does not end with its result unwritable.
pub fn check_writable(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::failure(format!("cannot create {}: {e}", dir.display())))?;
    tempfile::Builder::new()
        .prefix(".solarmy-check-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| Error::failure(format!("cannot write in {}: {e}", dir.display())))
}

pub fn solve(a: &SolveArgs) -> Result<u8, Error> {
    if a.vacancy.is_some() || crate::cli_board::is_board(&a.problem) {
        return crate::cli_board::solve(a);
    }
    let army = a.problem.army()?;
    let level = parse_level(a.level.as_deref().unwrap_or_default())?;
    check_cbc(a.cbc)?;
    if let Some(dir) = &a.out {
        check_writable(dir)?;
    }
    if let Some(dir) = a.write_model.as_ref().and_then(|f| f.parent())
        && !dir.as_os_str().is_empty()
    {
        check_writable(dir)?;
    }
    if let Some(dir) = a.proof.as_ref().and_then(|f| f.parent())
        && !dir.as_os_str().is_empty()
    {
        check_writable(dir)?;
    }
    install_interrupt_handler();
    let req = Request {
        time_limit: a.time_limit,
        progress: a.display.progress(),
        stability_margin: 2,
        write_model: a.write_model.clone(),
        direct_budget: Some(a.direct_budget),
        case_dir: a.out.clone(),
        second_opinion: a.cbc,
        jobs: a.jobs as usize,
        verbose: a.display.verbose,
        ..Request::new(army, level)
    };
    let out = minimum::find_minimum(&req)?;
    // The answer first, then the files: a file that cannot be written never hides it.
    let files = match (&a.out, out.verified) {
        (Some(dir), true) => Some(output_paths(dir, &format!("{}-{}", out.army, out.level))),
        _ => None,
    };
    let shown = if a.json {
        emitln(&outcome_json(&out, files.as_ref()).to_string())
    } else {
        print_summary(&out)
    };
    // Written even when standard output has gone: the files were asked for.
    if let (Some(dir), Some(_)) = (&a.out, &files) {
        write_outputs(dir, &out)?;
    }
    if let Some(path) = &a.proof {
        write_proof(path, &out)?;
    }
    shown?;
    if let (Some(f), false) = (&files, a.json) {
        emitln(&format!("wrote {} and {}", f.0.display(), f.1.display()))?;
    }
    Ok(match out.status {
        Status::Optimal | Status::Impossible => 0,
        Status::Open | Status::TimeLimit | Status::Interrupted => 3,
    })
}

/// Writes the proof of an answer; says on stderr what it lacks when it is incomplete.
fn write_proof(path: &std::path::Path, out: &Outcome) -> Result<(), crate::error::Error> {
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

/// The army and play CSV files `write_outputs` writes for `stem` in `dir`.
pub fn output_paths(dir: &Path, stem: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{stem}-army.csv")),
        dir.join(format!("{stem}-play.csv")),
    )
}

/// Writes `solve`'s files for `out`: DIR/<army>-<level>-army.csv|svg and -play.csv|svg;
/// returns the CSV paths.
pub fn write_outputs(dir: &Path, out: &Outcome) -> Result<(PathBuf, PathBuf), String> {
    write_outputs_as(dir, &format!("{}-{}", out.army, out.level), out, true)
}

/// Writes the army and play as CSV and SVG, DIR/<stem>-army.csv|svg and -play.csv|svg; returns
/// the CSV paths. `minimum` marks the caption. A failure names the file; no partial file is
/// left (each is written to a temporary file and renamed into place).
pub fn write_outputs_as(
    dir: &Path,
    stem: &str,
    out: &Outcome,
    minimum: bool,
) -> Result<(PathBuf, PathBuf), String> {
    let (army, play) = output_paths(dir, stem);
    export::write_atomic(
        &army,
        export::army_csv(&out.army_cells, out.army.problem().spec.dimension).as_bytes(),
    )?;
    export::write_atomic(
        &play,
        export::play_csv(&out.play, out.army.problem().spec.dimension).as_bytes(),
    )?;
    let lattice = out.army.lattice();
    let pagoda = Pagoda::improved(&lattice, out.last_jump.unwrap_or(lattice.directions[0]));
    let caption = format!(
        "{} army, level {}: {} men{}",
        out.army,
        out.level,
        out.army_cells.len(),
        if minimum && out.status == Status::Optimal {
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
    // The step-by-step viewer draws the plane; a 3-D play is drawn layer by layer instead.
    if lattice.dimension() == 2 {
        let html = crate::viewer::html(out.army, out.level, &out.army_cells, &out.play, &caption);
        export::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())?;
    }
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
    let mut v = json!({
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
        "unresolved": out.unresolved,
        "ips": out.ips,
        "proof_complete": out.proof_complete,
        "case_logs": out.case_logs,
        "order_seconds": out.order_seconds,
        "army_csv": files.map(|f| f.0.display().to_string()),
        "play_csv": files.map(|f| f.1.display().to_string()),
        "rounds": out.rounds,
    });
    if out.status == Status::Impossible {
        // No board was built: an impossible level reports none.
        for key in ["board_proven", "stable", "cells", "jumps"] {
            v.as_object_mut().unwrap().remove(key);
        }
    }
    v
}

fn print_summary(out: &Outcome) -> Result<(), Error> {
    let mut s = format!("army {}  level {}\n", out.army, out.level);
    match out.status {
        Status::Impossible => {
            s += &format!(
                "impossible: {}\n",
                out.reason.as_deref().unwrap_or("pagoda bound")
            );
            return emit(&s);
        }
        st => s += &format!("status {}\n", st.as_str()),
    }
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    s += &format!(
        "minimum {}  (lower bound {}, pagoda bound {})\n",
        show(out.min_size),
        show(out.lower_bound),
        show(out.pagoda_bound)
    );
    s += &format!(
        "board {} cells, {} jumps; proven to hold every useful cell: {}{}\n",
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
        s += &format!(
            "play verified: {} men, {} jumps, {} moves, last jump over {:?}\n",
            out.army_cells.len(),
            out.play.len(),
            out.moves,
            out.last_jump.unwrap_or(Cell::ORIGIN)
        );
    }
    s += &format!("{} integer programs, {:.2} s\n", out.ips, out.seconds);
    emit(&s)
}

pub fn verify(a: &VerifyArgs) -> Result<u8, Error> {
    if a.finish.is_some() || crate::cli_board::is_board(&a.problem) {
        return crate::cli_board::verify(a);
    }
    let army = a.problem.army()?;
    let level = parse_level(a.level.as_deref().unwrap_or_default())?;
    let dash = Path::new("-");
    if a.army_csv == dash && a.play_csv == dash {
        return Err(Error::usage(
            "standard input ('-') can stand for ARMY_CSV or PLAY_CSV, not both",
        ));
    }
    let dimension = army.problem().spec.dimension;
    let men = export::read_army_in(&a.army_csv, dimension)?;
    let play = export::read_play_in(&a.play_csv, dimension)?;
    let r = verify::replay(&army.lattice(), level, &men, &play)?;
    let target = if dimension == 3 { "(0,0,0)" } else { "(0,0)" };
    emitln(&format!(
        "legal: {} men, {} jumps, {} moves, {} men left, target {target} reached at level {level}",
        r.men, r.jumps, r.moves, r.men_left
    ))?;
    Ok(0)
}

pub fn bounds(a: &BoundsArgs) -> Result<u8, Error> {
    let armies = match (&a.army, &a.model) {
        (Some(s), _) => vec![parse_army(s)?],
        (None, Some(path)) => vec![Army::read(path).map_err(Error::usage)?],
        (None, None) => Army::all().to_vec(),
    };
    let computed = match &a.results {
        None => Vec::new(),
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Error::usage(format!(
                    "--results {}: no such directory",
                    dir.display()
                )));
            }
            let file = dir.join("min-sizes.csv");
            if !file.is_file() {
                return Err(Error::usage(format!(
                    "--results {}: holds no min-sizes.csv",
                    dir.display()
                )));
            }
            export::read_min_sizes(&file)?
        }
    };
    let mut all: Vec<_> = armies.into_iter().map(bounds::army_bounds).collect();
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
        emitln(&json!({ "armies": all }).to_string())?;
        return Ok(0);
    }
    let mut s = String::new();
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    for b in &all {
        s += &format!("{} army: highest reachable level {}\n", b.army, b.max_level);
        if a.results.is_some() {
            s += "  level  pagoda bound  IP bound  best army  status      slack of the heaviest army\n";
        } else {
            s += "  level  pagoda bound  slack of the heaviest army\n";
        }
        for l in &b.levels {
            let slack = format!("{} = {} ≈ {:.3e}", l.slack_sigma, l.slack, l.slack_value);
            if a.results.is_none() {
                s += &format!("  {:>5}  {:>12}  {slack}\n", l.level, l.lower_bound);
                continue;
            }
            let (ip, best, status) = match &l.computed {
                Some(r) => (show(r.lower_bound), show(r.min_size), r.status.clone()),
                None => ("-".into(), "-".into(), "-".into()),
            };
            s += &format!(
                "  {:>5}  {:>12}  {:>8}  {:>9}  {:<10}  {slack}\n",
                l.level, l.lower_bound, ip, best, status
            );
        }
    }
    emit(&s)?;
    Ok(0)
}

/// The start cells the pagoda window holds, up to the exponent the case enumeration may
/// enter, for the last jump d: more men than this cannot be split into cases.
fn window_capacity(pagoda: &Pagoda, level: i32) -> (u64, i32) {
    let profile = pagoda.start_profile(level);
    let cap = pagoda.trusted_exponent() - 8;
    ((0..=cap).map(|e| profile.count(e)).sum(), cap)
}

/// Last jumps ruled out by weight (with the heaviest weight), and why the enumeration stopped.
type Screened = (Vec<(crate::geometry::Cell, Golden)>, Option<String>);

/// What `cases` checks before it builds the sweep: that the pagoda window holds `size` men
/// (else a usage error), which last jumps no army of `size` men is heavy enough for (with
/// the heaviest army's weight), and whether the enumeration of the others stops at its
/// case cap or node budget (why, in one line). The enumeration is bounded in memory by
/// `max_cases`, so a size far above the minimum stops here rather than in the sweep.
fn screen(army: Army, level: i32, size: u64, max_cases: usize) -> Result<Screened, Error> {
    let lattice = army.lattice();
    let mut light = Vec::new();
    for d in lattice.last_jump_directions() {
        let pagoda = Pagoda::improved(&lattice, d);
        let (room, top) = window_capacity(&pagoda, level);
        if size > room {
            return Err(Error::usage(format!(
                "--size {size}: more men than the start cells up to exponent {top} hold ({room}), the most solarmy's pagoda window can split into cases"
            )));
        }
        let profile = pagoda.start_profile(level);
        let (_, heaviest) = profile.heaviest(size);
        if heaviest < Golden::ONE {
            light.push((d, heaviest));
            continue;
        }
        let all = crate::cases::enumerate_capped(
            &profile,
            size,
            Golden::ONE,
            &[1, 2],
            top,
            crate::cases::BUDGET,
            max_cases,
            crate::pagoda::sharper_profile(army, d, level).as_ref(),
        );
        let why = match all.stopped {
            Some(crate::cases::Stop::Cases) => format!("{max_cases} cases (--max-cases)"),
            Some(crate::cases::Stop::Nodes) => {
                format!("{} nodes (its node budget)", crate::cases::BUDGET)
            }
            None => continue,
        };
        return Ok((
            light,
            Some(format!(
                "the enumeration stopped at {why} for the last jump over {d:?}: armies of {size} men, far above the minimum, have too many profiles to list"
            )),
        ));
    }
    Ok((light, None))
}

/// The problem, level and size of a `cases` call: from the command line, or from the
/// manifest of the jobs being merged.
fn cases_problem(
    a: &CasesArgs,
    manifest: Option<&crate::cli_jobs::Manifest>,
) -> Result<(ProblemArg, i32, u64), Error> {
    Ok(match manifest {
        Some(m) => (m.problem.arg(), m.problem.level, m.problem.men),
        None => (
            ProblemArg {
                army: a.army.clone(),
                model: a.model.clone(),
            },
            parse_level(a.level.as_deref().unwrap_or_default())?,
            a.size.unwrap_or_default(),
        ),
    })
}

/// The last jumps ruled out by weight alone, as JSON entries and as lines of text.
fn light_report(
    army: Army,
    level: i32,
    size: u64,
    light: &[(crate::geometry::Cell, Golden)],
) -> (Vec<serde_json::Value>, String) {
    let entries = light
        .iter()
        .map(|(d, w)| json!({"last_jump": d, "heaviest_weight": w.to_string(), "heaviest_weight_value": w.to_f64()}))
        .collect();
    let lines = light
        .iter()
        .map(|(d, w)| {
            format!(
                "{army} army, level {level}, {size} men, last jump over {d:?}: ruled out by weight: the heaviest {size} men weigh {w} ≈ {:.6} < 1\n",
                w.to_f64()
            )
        })
        .collect();
    (entries, lines)
}

/// What the cheap tests say of a `cases` call before any case is listed.
enum CasesScreen {
    /// Answered already (impossible level, or every last jump ruled out by weight).
    Answered(u8),
    /// Cases to list: the last jumps ruled out by weight, as JSON and as text.
    Cases(Vec<serde_json::Value>, String),
}

/// The impossibility test and the weight screen of every last jump, reported when they
/// answer the call; a screen stopped by its case cap is exit 3.
fn screen_cases(
    a: &CasesArgs,
    (army, level, size): (Army, i32, u64),
    cbc: bool,
    object: &dyn Fn(serde_json::Value) -> String,
) -> Result<CasesScreen, Error> {
    if let Some(reason) = crate::pagoda::impossibility_reason(army, level) {
        if a.json {
            emitln(&object(json!({"status": "impossible", "reason": reason})))?;
        } else {
            emitln(&format!("impossible: {reason}"))?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    check_cbc(cbc)?;
    let (light, stopped) = screen(army, level, size, a.max_cases)?;
    let (light_json, light_lines) = light_report(army, level, size, &light);
    if let Some(why) = stopped {
        if a.json {
            emitln(&object(json!({"status": "stopped", "reason": why})))?;
        }
        return Err(Error {
            code: 3,
            message: why,
        });
    }
    if light.len() == army.lattice().last_jump_directions().len() {
        if a.json {
            emitln(&object(
                json!({"status": "ruled_out_by_weight", "ruled_out_by_weight": light_json}),
            ))?;
        } else {
            emit(&light_lines)?;
        }
        return Ok(CasesScreen::Answered(0));
    }
    Ok(CasesScreen::Cases(light_json, light_lines))
}

pub fn cases(a: &CasesArgs) -> Result<u8, Error> {
    let manifest = a
        .merge
        .as_deref()
        .map(crate::cli_jobs::read_manifest)
        .transpose()?;
    let (problem, level, size) = cases_problem(a, manifest.as_ref())?;
    let army = problem.army()?;
    let head = json!({"army": army.name(), "level": level, "men": size});
    let object = |extra: serde_json::Value| {
        let mut v = head.clone();
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v.to_string()
    };
    let cbc = manifest.as_ref().map_or(a.cbc, |m| m.cbc);
    let (light_json, light_lines) = match screen_cases(a, (army, level, size), cbc, &object)? {
        CasesScreen::Answered(code) => return Ok(code),
        CasesScreen::Cases(json, lines) => (json, lines),
    };
    let solve_dir = a.solve.as_ref().or(a.merge.as_ref());
    if let Some(dir) = solve_dir.or(a.emit_jobs.as_ref()) {
        check_writable(dir)?;
    }
    install_interrupt_handler();
    let mut sweep = crate::sweep::Sweep::new(army, level, size);
    sweep.second_opinion = cbc;
    sweep.jobs = a.jobs as usize;
    if let (Some(dir), Some(job)) = (&a.run_job, a.case) {
        return crate::cli_jobs::run(dir, &sweep, job, a.time_limit);
    }
    if let Some(dir) = &a.emit_jobs {
        let problem = crate::cli_jobs::Problem::new(&problem, level, size)?;
        return emit_jobs(dir, &sweep, problem, a);
    }
    let missing = match (&manifest, &a.merge) {
        (Some(m), Some(dir)) => crate::cli_jobs::seed(dir, m, &mut sweep)?,
        _ => Vec::new(),
    };
    let complete = sweep.families.iter().all(|f| f.complete);
    let fields = json!({
        "status": "cases",
        "ruled_out_by_weight": light_json,
        "enumeration_complete": complete,
        "families": sweep.families,
        "solved": solve_dir.is_some(),
    });
    if !a.json {
        emit(&light_lines)?;
        emit(&sweep.table())?;
    }
    if !complete {
        eprintln!(
            "solarmy: the enumeration was cut at its exponent cap: the cases are not proven to cover every army of {size} men"
        );
    }
    let Some(dir) = solve_dir else {
        if a.json {
            emitln(&object(fields))?;
        }
        return Ok(0);
    };
    let merged = manifest.as_ref().zip(a.merge.as_deref());
    let after = || {
        if let Some((m, dir)) = merged {
            crate::cli_jobs::report_missing(dir, m, &missing);
        }
    };
    solve_cases(a, &mut sweep, dir, fields, (&object, &after))
}

/// Solves the sweep's cases into `dir` (or completes a merge; `after` then names the jobs
/// without a result) and reports: JSON with the counts and the army's files, or the
/// summary; the army's CSV files when one is found.
fn solve_cases(
    a: &CasesArgs,
    sweep: &mut crate::sweep::Sweep,
    dir: &Path,
    mut fields: serde_json::Value,
    (object, after): (&dyn Fn(serde_json::Value) -> String, &dyn Fn()),
) -> Result<u8, Error> {
    sweep.verbose = a.display.verbose;
    let report = sweep.solve(dir, a.time_limit, a.display.progress())?;
    after();
    let stem = format!("{}-{}-{}men", sweep.army, sweep.level, sweep.men);
    let files = report.found.as_ref().map(|_| output_paths(dir, &stem));
    if let Some(o) = fields.as_object_mut() {
        if let Ok(serde_json::Value::Object(r)) = serde_json::to_value(&report) {
            o.extend(r);
        }
        for (name, n) in report.counts() {
            o.insert(name.into(), json!(n));
        }
        o.insert(
            "army_csv".into(),
            json!(files.as_ref().map(|f| f.0.display().to_string())),
        );
        o.insert(
            "play_csv".into(),
            json!(files.as_ref().map(|f| f.1.display().to_string())),
        );
    }
    let shown = if a.json {
        emitln(&object(fields))
    } else {
        emitln(&report.summary())
    };
    if let Some(found) = &report.found {
        write_outputs_as(dir, &stem, found, false)?;
        if let (false, Ok(()), Some(f)) = (a.json, &shown, &files) {
            emitln(&format!("wrote {} and {}", f.0.display(), f.1.display()))?;
        }
    }
    shown?;
    Ok(if report.complete { 0 } else { 3 })
}

/// `cases --emit-jobs DIR`: the sweep written down as jobs, and what to do with them.
fn emit_jobs(
    dir: &Path,
    sweep: &crate::sweep::Sweep,
    problem: crate::cli_jobs::Problem,
    a: &CasesArgs,
) -> Result<u8, Error> {
    let (jobs, cases) = crate::cli_jobs::emit(dir, sweep, problem, a.time_limit, a.cbc)?;
    let d = dir.display();
    if a.json {
        emitln(
            &json!({"army": sweep.army.name(), "level": sweep.level, "men": sweep.men,
            "status": "jobs", "jobs": jobs, "cases": cases, "dir": d.to_string()})
            .to_string(),
        )?;
    } else {
        emitln(&format!(
            "{jobs} jobs ({cases} cases to solve) in {d}/jobs.txt and {d}/slurm.sh; run them with
  parallel --joblog {d}/joblog --resume < {d}/jobs.txt
or
  sbatch --wait {d}/slurm.sh
then: solarmy cases --merge {d}"
        ))?;
    }
    Ok(0)
}

/// `solarmy completions SHELL`: the completion script on stdout.
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> Result<u8, Error> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "solarmy", &mut buf);
    emit(&String::from_utf8_lossy(&buf))?;
    Ok(0)
}

/// `solarmy manpage`: the manual page, roff, on stdout.
pub fn manpage(cmd: clap::Command) -> Result<u8, Error> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Error::failure(format!("cannot render the manual page: {e}")))?;
    emit(&String::from_utf8_lossy(&buf))?;
    Ok(0)
}

/// A command-line error from clap: help and version go to stdout (exit 0); anything else is
/// one line on stderr and exit 2.
pub fn usage_error(e: clap::Error) -> Error {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match emit(&e.render().to_string()) {
            Ok(()) => Error::closed(),
            Err(err) => err,
        },
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            Error::usage(
                "a command is needed: solve, verify, cases, bounds, check, count, moves, completions or manpage (solarmy --help)",
            )
        }
        _ => {
            // clap's first line, with the list it announces (the missing arguments) joined on.
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut line = lines
                .next()
                .unwrap_or("bad command line")
                .trim_start_matches("error: ")
                .to_string();
            while line.ends_with(':') {
                match lines.next().filter(|l| !l.starts_with("Usage")) {
                    Some(next) => line = format!("{line} {next}"),
                    None => break,
                }
            }
            Error::usage(format!("{line} (see --help)"))
        }
    }
}

/// The exit code of a command's result; an error is one line on stderr.
pub fn finish(result: Result<u8, Error>) -> std::process::ExitCode {
    match result {
        Ok(code) => std::process::ExitCode::from(code),
        Err(e) => {
            if !e.message.is_empty() {
                let _ = writeln!(std::io::stderr(), "solarmy: {}", e.message);
            }
            std::process::ExitCode::from(e.code)
        }
    }
}
