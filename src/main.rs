//! The `solarmy` command line. Thin: parsing, printing, exit codes.
//!
//! Exit codes: 0 answered (optimal or impossible; a play verified), 1 bad input or failure
//! (one line on stderr), 3 stopped early by a time limit or Ctrl-C (what was found is still
//! reported).

use clap::{Parser, Subcommand};
use solarmy::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "solarmy",
    version,
    about = "Minimum size of a solitaire army: pagoda bounds, integer programs on HiGHS, verified plays"
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
    /// The fewest moves for a given army to reach the target, proven by exhaustive search.
    Moves(solarmy::cli_moves::MovesArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Solve(a) => cli::solve(&a),
        Command::Verify(a) => cli::verify(&a),
        Command::Bounds(a) => cli::bounds(&a),
        Command::Cases(a) => cli::cases(&a),
        Command::Check(a) => cli::check(&a),
        Command::Moves(a) => solarmy::cli_moves::moves(&a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("solarmy: {e}");
            ExitCode::from(1)
        }
    }
}
