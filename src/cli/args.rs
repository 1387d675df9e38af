//! The command line's vocabulary: every command's arguments and help texts, the checks on
//! input that every command shares ([`parse_level`], [`ProblemArg`], [`check_writable`]),
//! and the error type with its exit code ([`Error`]). Everything for stdout goes through
//! [`emit`], so a closed pipe ends a command quietly and a full disk is one line, never a
//! panic. The bottom of [`crate::cli`]: the command modules use it, it uses none of them.

use crate::cli::help::*;
use crate::problem::Army;
use crate::problem::{Problem, file::Start};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// How much goes to stderr while a command runs.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct Display {
    /// Nothing on stderr but warnings and errors: no progress display (shown only when
    /// stderr is a terminal) and no lines per step
    #[arg(short, long)]
    pub quiet: bool,
    /// One line on stderr per step as it is done, where the command has steps to tell (an
    /// integer program solved, a board problem settled)
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
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["vacancy", "finish", "start"])]
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
    /// Board models only: the hole the last man must stand on (x,y); with --start, a CSV file of the finish position's men (columns x, y)
    #[arg(
        long,
        value_name = "X,Y|FILE",
        allow_hyphen_values = true,
        conflicts_with = "level"
    )]
    pub finish: Option<String>,
    /// Board models only: a pattern problem, from the men of this CSV file (columns x, y, as an army's) to exactly those of --finish FILE
    #[arg(
        long,
        value_name = "FILE",
        requires = "finish",
        conflicts_with_all = ["level", "vacancy", "out"]
    )]
    pub start: Option<PathBuf>,
    /// Stop after this many seconds (0 < SECONDS <= 1e9) and report the best army and the bound proven so far
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write <army>-<level>-army.csv|svg and -play.csv|svg here (checked to be writable before
    /// solving), and keep what is settled (an army's rounds and cases, a board problem's rounds
    /// refuted) for a rerun to resume from
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Also print the army (rows of o and ., the target marked) and the play as numbered moves; on a square board of at most 9 x 9 holes also in Bell's notation (a-g, 1-7 on the English board)
    #[arg(long, conflicts_with = "json")]
    pub show: bool,
    /// Write each IP as solved (MPS or LP by extension), as FILE-<men>men-d<x>_<y>.<ext>
    #[arg(long, value_name = "FILE")]
    pub write_model: Option<PathBuf>,
    /// Seconds a direct IP may run before its round is split into cases (0 < SECONDS <= 1e9)
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, allow_hyphen_values = true, value_parser = parse_seconds)]
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
    /// First look for an army for up to SECONDS seconds (taken from --time-limit), with no proof: a verified army found caps the climb, whose rounds of its size and above are never solved; when the climb stops short of it, it is reported as best_size, never as the minimum
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub find: Option<f64>,
    /// An army found elsewhere (an earlier run, scripts/find-army): its ARMY and PLAY CSV files, replayed at the level before anything is solved; a legal one caps the climb as --find's army does and is reported as best_size, never as the minimum; an illegal one is an error
    #[arg(long, num_args = 2, value_names = ["ARMY", "PLAY"])]
    pub incumbent: Option<Vec<PathBuf>>,
    #[command(flatten)]
    pub display: Display,
}

/// `catalog`: every single-vacancy → single-survivor problem of a board, up to symmetry.
#[derive(Args, Debug)]
#[command(after_help = CATALOG_HELP)]
pub struct CatalogArgs {
    /// A board model file (start kind "board"), e.g. models/english.toml
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Print the catalogue as one JSON object (with --moves, a second line: the moves)
    #[arg(long)]
    pub json: bool,
    /// Write DIR/<board>.csv and .svg, and DIR/<board>/ with every problem's proof and play,
    /// and keep the problems decided (and searched, with --moves) for a rerun to resume from
    /// (without it, nothing is written; the published catalogues in results/boards/ are
    /// written by scripts/catalog alone)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub display: Display,
    /// After this many seconds, settle the remaining problems by the cheap steps only
    /// (position class, resource count); what they leave open is reported undecided
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Also the fewest moves of every problem (the exact search by levels, boards of at most
    /// 64 holes): DIR/<board>-moves.csv, and each shortest play and its per-level position
    /// counts in DIR/<board>/
    #[arg(long)]
    pub moves: bool,
    /// With --moves: after this many seconds of the moves, list the problems left as not
    /// searched (status time_limit; a problem whose levels outgrow memory is listed as
    /// too_many_positions, and after Ctrl-C the rest as interrupted; exit 3 if any)
    #[arg(long, value_name = "SECONDS", requires = "moves", value_parser = parse_seconds)]
    pub moves_time_limit: Option<f64>,
    /// With --moves: prune each problem's levels by pagoda functions made for it (off, shape
    /// or sharpened; see `moves --prune`); when on, each problem builds its own levels
    #[arg(long, value_name = "HOW", requires = "moves", default_value = "off", value_parser = crate::play::peg::fewest::Pruning::parse)]
    pub prune: crate::play::peg::fewest::Pruning,
    /// With --moves: the memory one problem's levels may take, e.g. 16G (default: half the
    /// machine); a problem that would need more is listed as too_many_positions
    #[arg(long, value_name = "BYTES", requires = "moves", value_parser = crate::play::peg::fewest::parse_memory)]
    pub memory: Option<usize>,
}

/// `solarmy cbc-system FILE [--time-limit SECONDS]` (hidden): one CBC call in its own process.
#[derive(clap::Args)]
pub struct CbcSystemArgs {
    /// The system, as JSON
    pub file: PathBuf,
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// How CBC searches (proof::resolve::CbcStrategy): guided or plain
    #[arg(long, default_value = "plain", value_parser = parse_strategy)]
    pub strategy: crate::proof::resolve::CbcStrategy,
}

fn parse_strategy(s: &str) -> Result<crate::proof::resolve::CbcStrategy, String> {
    crate::proof::resolve::CbcStrategy::parse(s).ok_or_else(|| {
        let names: Vec<_> = crate::proof::resolve::CbcStrategy::ORDER
            .map(|s| s.name())
            .into();
        format!("'{s}' is not a CBC strategy ({})", names.join(", "))
    })
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
    /// (0 < SECONDS <= 1e9)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub program_time_limit: Option<f64>,
    /// Stop the whole command after this many seconds (0 < SECONDS <= 1e9): the files
    /// checked are reported, the file being checked and those after it as not checked
    /// (status time_limit), exit 3 (1 if a file checked before failed)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// IPs without a certificate re-solved at once, one HiGHS each (default: the cores)
    #[arg(long, value_name = "N", default_value_t = default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Ask CBC, a second MIP solver, to prove every infeasible IP too (needs a build with --features cbc)
    #[arg(long)]
    pub cbc: bool,
    /// With --cbc: keep CBC's verdicts in this JSON-lines file, and do not ask CBC again about
    /// a system the file says it proved infeasible, nor with a strategy that left it with no
    /// verdict within at least --program-time-limit (a long second opinion survives a stop)
    #[arg(long, value_name = "FILE", requires = "cbc")]
    pub cbc_record: Option<PathBuf>,
    /// Refuse a proof unless it is about this bundled problem (an army, a desert,
    /// conway-3d, fcc or a board of models/)
    #[arg(long, value_name = "NAME", conflicts_with = "model")]
    pub army: Option<String>,
    /// Refuse a proof unless it is about the problem of this model file (compared by
    /// fingerprint: the name, comments and field order do not matter)
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// After a file checks, write each of its infeasible integer programs that has an exact
    /// certificate to DIR as a VIPR 1.1 file (<proof>-<men>men-d<d>[-case<n>].vipr), for
    /// viprchk or any other VIPR checker
    #[arg(long, visible_alias = "out", value_name = "DIR")]
    pub vipr: Option<PathBuf>,
    /// With --vipr: also write each program WITHOUT an exact certificate (resting on HiGHS)
    /// as its problem alone, <proof>-<men>men-d<d>[-case<n>]-problem.vipr (no derivation),
    /// for an exact solver such as exact SCIP to certify (scripts/scip-exact)
    #[arg(long, requires = "vipr")]
    pub vipr_unsolved: bool,
    /// A board's pruned exhaustion: keep its levels on disk in DIR (one subdirectory per
    /// search), for searches too large for memory; a rerun reads the levels already complete
    /// there (trusted as this checker's own work: one check per DIR at a time); with -v, a
    /// line per level built
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// With --work: the memory the sorting buffers may take, e.g. 8G (default: half the machine)
    #[arg(long, value_name = "BYTES", requires = "work", value_parser = crate::play::peg::fewest::parse_memory)]
    pub memory: Option<usize>,
    /// With --work: the files each level is split into (by a hash of the position), each
    /// built, and kept for a rerun, on its own
    #[arg(long, value_name = "N", requires = "work", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub parts: u16,
    #[command(flatten)]
    pub display: Display,
}

impl CheckArgs {
    /// The problem the proofs must be about, if the user named one.
    pub fn expected(&self) -> Result<Option<crate::problem::file::Spec>, Error> {
        use crate::problem::fingerprint::{BUNDLED_MODELS, bundled_spec};
        match (&self.army, &self.model) {
            (Some(name), _) => bundled_spec(name).map(Some).ok_or_else(|| {
                let names: Vec<&str> = BUNDLED_MODELS.iter().map(|(n, _)| *n).collect();
                Error::usage(format!(
                    "unknown problem '{name}': expected one of {} (or --model FILE)",
                    names.join(", ")
                ))
            }),
            (None, Some(path)) => crate::problem::Problem::read(path)
                .map(|p| Some(p.spec))
                .map_err(Error::usage),
            (None, None) => Ok(None),
        }
    }
}

#[derive(Args, Debug)]
#[command(after_help = VERIFY_HELP)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men must start at distance >= level from the target (rows y >= level for the five armies; 1 to 2147483647). Not for boards
    #[arg(long, allow_hyphen_values = true)]
    pub level: Option<String>,
    /// Board models only: the hole the last man must stand on (x,y), or a CSV file of the finish position's men (a pattern problem); ARMY_CSV is the start
    #[arg(
        long,
        value_name = "X,Y|FILE",
        allow_hyphen_values = true,
        conflicts_with = "level"
    )]
    pub finish: Option<String>,
    /// CSV with header x,y ('-': standard input)
    pub army_csv: PathBuf,
    /// CSV with columns from_x,from_y,over_x,over_y,to_x,to_y ('-': standard input, if ARMY_CSV is not)
    pub play_csv: PathBuf,
    /// One JSON object on stdout (an illegal play too, with its error; exit 1)
    #[arg(long)]
    pub json: bool,
    /// Stop after this many seconds (0 < SECONDS <= 1e9), exit 3; a replay takes milliseconds
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write the legal play's pictures here: <army>-<level>-verified-army.svg, -play.svg and
    /// the viewer page .html (a board: <board>-verified-play.svg and .html)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub display: Display,
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
    /// Stop the whole command after this many seconds (0 < SECONDS <= 1e9): no case starts
    /// after it, the cases not settled stay open, and what is settled is reported (status
    /// time_limit, exit 3)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Seconds each case may take when solving: its integer program, each box of a case split
    /// on the fly, its certificate (0 < SECONDS <= 1e9); written into the job lines of
    /// --emit-jobs
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub case_time_limit: Option<f64>,
    /// One JSON object on stdout (the cases, and with --solve the results)
    #[arg(long)]
    pub json: bool,
    /// Write that JSON object to DIR/<army>-<level>-<K>men-cases.json too (the case log and
    /// the army found go to the --solve DIR)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
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
    /// One JSON object on stdout: {"armies": [...]} and the envelope
    #[arg(long)]
    pub json: bool,
    /// A directory holding min-sizes.csv (as results/ does): adds its IP bounds and armies
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Stop after this many seconds (0 < SECONDS <= 1e9), exit 3; the bounds take milliseconds
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write DIR/bounds.csv: army, level, pagoda bound, its last jump and the slack
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub display: Display,
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

/// Set once standard output is found closed (`solarmy … | head`) or unwritable: later
/// output is dropped, and the run goes on, so that its files are still written.
static STDOUT_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints `text` for commands that report as they go (the `out!` and `outln!` of this folder):
/// unlike `print!`, a closed pipe is no panic. Any other write error is said once on stderr.
pub fn out(text: &str) {
    use std::sync::atomic::Ordering::Relaxed;
    if STDOUT_GONE.load(Relaxed) {
        return;
    }
    if let Err(e) = emit(text) {
        STDOUT_GONE.store(true, Relaxed);
        if !e.message.is_empty() {
            eprintln!("solarmy: {}", e.message);
        }
    }
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
pub fn default_jobs() -> u16 {
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
pub(crate) fn check_cbc(asked: bool) -> Result<(), Error> {
    if asked && !crate::ip::second::AVAILABLE {
        return Err(Error::usage(
            "--cbc needs a build with CBC: apt-get install -y coinor-libcbc-dev, then cargo build --release --features cbc",
        ));
    }
    Ok(())
}

pub(crate) fn install_interrupt_handler() {
    // A second Ctrl-C while HiGHS winds down is harmless: the flag is already set.
    let _ = ctrlc::set_handler(|| {
        crate::ip::solve::INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
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

/// [`check_writable`] on the folder a file is to be written in, when one is given.
pub fn check_parent_writable(file: Option<&Path>) -> Result<(), Error> {
    // A device or pipe (/dev/stdout) is written in place, not beside: nothing to probe.
    if file.is_some_and(crate::files::written_in_place) {
        return Ok(());
    }
    match file.and_then(|f| f.parent()) {
        Some(dir) if !dir.as_os_str().is_empty() => check_writable(dir),
        _ => Ok(()),
    }
}

/// Whether the problem argument names a board model (a file whose start kind is "board").
pub fn is_board(p: &ProblemArg) -> bool {
    p.model
        .as_deref()
        .and_then(|m| Problem::read(m).ok())
        .is_some_and(|p| p.spec.start == Start::Board)
}

/// A spinner on stderr when it is a terminal (the levels' progress). It clears its line when
/// dropped, so that a command ended by an error or a stop leaves no stale line above what it
/// prints.
pub fn spinner() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let pb =
            indicatif::ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .expect("a valid template"),
        );
        pb.enable_steady_tick(std::time::Duration::from_millis(200));
        pb
    })
}
