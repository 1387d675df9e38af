//! The `solarmy` command line. Thin: parsing, printing, exit codes.
//!
//! Exit codes (docs/cli.md has them per command): 0 answered (optimal or impossible; a play
//! verified), 1 failure (a data file unreadable or malformed, an illegal play, a file that
//! cannot be written; one line on stderr), 2 bad command line, a malformed model file
//! included (one line on stderr), 3 stopped early by a time limit or Ctrl-C (what was found
//! is still reported).

use clap::{CommandFactory, Parser, Subcommand};
use solarmy::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "solarmy",
    version,
    about = "Minimum size of a solitaire army: pagoda bounds, integer programs on HiGHS, verified plays",
    after_help = cli::EXIT_CODES
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find the minimum army reaching a level, with a verified play and a proven bound.
    Solve(cli::SolveArgs),
    /// Replay an army and a play from CSV files.
    Verify(cli::VerifyArgs),
    /// Pagoda bounds per level: highest level, lower bound on the army size, slack.
    Bounds(cli::BoundsArgs),
    /// Split armies of K men into cases by exponent profile; optionally solve each case.
    Cases(cli::CasesArgs),
    /// Re-verify proof files written by `solve --proof`, step by step.
    Check(cli::CheckArgs),
    /// Add exact certificates to the integer programs of a proof file that lack one.
    Certify(solarmy::cli::certify::CertifyArgs),
    /// Count every minimum army of an entry, up to the mirror and in total.
    Count(solarmy::cli::count::CountArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell).
    #[command(after_help = cli::COMPLETIONS_HELP)]
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout, or write every page into a directory.
    #[command(after_help = cli::MANPAGE_HELP)]
    Manpage {
        /// Write solarmy.1 and one page per command (solarmy-solve.1, …) into DIR
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// The fewest moves for a given army to reach the target, proven by exhaustive search.
    Moves(solarmy::cli::moves::MovesArgs),
    /// Pagoda functions by linear programming: impossibility, or a lower bound on the army size.
    Pagoda(solarmy::cli::pagoda::PagodaArgs),
    /// Settle every single-vacancy to single-survivor problem of a board, up to symmetry.
    Catalog(cli::CatalogArgs),
    /// One CBC call of `check --cbc`, in a process of its own (libcbc is not thread-safe).
    #[command(hide = true)]
    CbcSystem(cli::CbcSystemArgs),
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => return cli::finish(Err(cli::usage_error(e))),
    };
    cli::finish(match args.command {
        Command::Solve(a) => cli::solve(&a),
        Command::Verify(a) => cli::verify(&a),
        Command::Bounds(a) => cli::bounds(&a),
        Command::Cases(a) => cli::cases(&a),
        Command::Check(a) => cli::check(&a),
        Command::Certify(a) => solarmy::cli::certify::run(&a),
        Command::Count(a) => solarmy::cli::count::run(&a),
        Command::Moves(a) => solarmy::cli::moves::moves(&a),
        Command::Pagoda(a) => solarmy::cli::pagoda::run(&a),
        Command::Catalog(a) => solarmy::cli::board::catalog(&a),
        Command::CbcSystem(a) => cli::cbc_system(&a),
        Command::Completions { shell } => cli::completions(Args::command(), shell),
        Command::Manpage { out } => cli::manpage(Args::command(), out.as_deref()),
    })
}
