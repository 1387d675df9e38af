//! The help texts after each command's options: its examples and its exit codes. The exit
//! codes are the table of docs/cli.md, said for each command; [`EXIT_CODES`] is the summary
//! `solarmy --help` ends with.

/// `solarmy --help`: where to start, and the exit codes every command shares.
pub const EXIT_CODES: &str = "Start here:
  solarmy solve --army conway --level 4 --out armies --proof conway-4.json
                                 # 20 men: the army, its play, pictures, a viewer page
  solarmy check conway-4.json    # re-verify that proof with the separate checker
  solarmy bounds                 # what the pagoda functions alone say, level by level
  solarmy catalog --model models/english.toml --out catalog   # every problem of the 33-hole board
Each command's --help has examples; docs/ is the guide (the command line's vocabulary, JSON and
exit codes in docs/cli.md, the mathematics in docs/mathematics.md), README.md the results.

The commands share -q, -v, --json, --out DIR (nothing is written without it) and --time-limit
SECONDS for the whole command (per case and per program: cases --case-time-limit, check and
certify --program-time-limit); their JSON has problem, status and seconds.

Exit codes: 0 answered (optimal, impossible, legal, every step holds), 1 failure (a data file \
such as a CSV, a proof or a manifest unreadable or malformed, an illegal play, a failing proof \
step, a file that cannot be written, a solver error), 2 bad command line (an unknown option, \
army or shell, a number out of range, a model file unreadable or malformed), 3 stopped early by \
--time-limit or Ctrl-C or left incomplete (what was found is still reported).";

pub const SOLVE_HELP: &str = "Examples:
  solarmy solve --army hexagonal --level 6              # 36 men, about 3 s
  solarmy solve --model models/english.toml --vacancy 0,0 --finish 0,0 --proof central.json
  solarmy solve --model models/english.toml --start models/patterns/english-latin-cross.csv --finish models/patterns/english-centre.csv

Exit codes: 0 answered (optimal or impossible; a board problem solvable or not), 1 failure (a
file that cannot be written, a solver error), 2 bad command line (a model file unreadable or
malformed too), 3 stopped by --time-limit or Ctrl-C (the best army and the bound proven so
far are still reported; a board problem left undecided).";

pub const CHECK_HELP: &str = "Examples:
  solarmy solve --army conway --level 4 --proof conway-4.json && solarmy check conway-4.json
  solarmy check results/proofs/*
  solarmy check --json --certificates-only results/proofs/skew-6.json.gz
  solarmy check --cbc --program-time-limit 3600 results/proofs/hexagonal-7.json.gz
  solarmy check --out vipr results/proofs/skew-5.json.gz   # then: viprchk vipr/*.vipr

With --cbc (a build with --features cbc), CBC solves every infeasible integer program again,
certified or not, guided first (the men objective, CBC's preprocessing), then plain if that
gives no verdict in --program-time-limit: CBC finding one feasible fails its step (the solvers
disagree); a CBC time-out is reported as no verdict, never counted as a confirmation.

Exit codes: 0 every step of every file holds, 1 a file is unreadable or a step fails (one line
per bad file, naming its first failing step), 2 bad command line (or --cbc without CBC, a
--model file unreadable or malformed), 3 stopped by --time-limit (the files checked are
reported, the others said not checked; 1 if a file checked failed).";

pub const VERIFY_HELP: &str = "Examples:
  solarmy verify --army diagonal --level 5 armies/diagonal-5-army.csv armies/diagonal-5-play.csv
  solarmy verify --army conway --level 2 --json army.csv - < play.csv

Exit codes: 0 the play is legal and reaches the target, 1 it is not (the first illegal jump is
named) or a CSV file is unreadable or malformed, 2 bad command line (a model file unreadable or
malformed too), 3 stopped by --time-limit.";

pub const CASES_HELP: &str = "Examples:
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
failure (a refused stamp, an unreadable manifest), 2 bad command line (a model file unreadable
or malformed too), 3 stopped early (--time-limit or Ctrl-C, status time_limit or interrupted;
--case-time-limit; the enumeration's case or node budget; a merge with cases still open).";

pub const BOUNDS_HELP: &str = "Examples:
  solarmy bounds                                        # all five armies
  solarmy bounds --army diagonal --json
  solarmy bounds --results results                      # with the IP columns of min-sizes.csv

Exit codes: 0 printed, 1 a malformed min-sizes.csv or an unwritable --out, 2 bad command line
(unknown army, a missing --results directory, a model file unreadable or malformed), 3 stopped
by --time-limit.";

pub const CATALOG_HELP: &str = "Examples:
  solarmy catalog --model models/triangle5.toml           # the 15-hole triangle, about 1 s
  solarmy catalog --model models/english.toml --out catalog --json
  solarmy catalog --model models/6x6.toml --out catalog --moves --moves-time-limit 600

With --out DIR: DIR/<board>.csv (vacancy, finish, solvable, reason, seconds), DIR/<board>.svg
and DIR/<board>/ with every problem's proof, and for a solvable one its play, picture and
viewer page; without it nothing is written.

Exit codes: 0 every problem settled (and with --moves every one searched to the end), 1 failure
(a file that cannot be written, a solver error), 2 bad command line (a model file unreadable,
malformed or no board), 3 a problem left undecided (--time-limit, Ctrl-C) or with --moves one
not searched to the end.";

pub const COMPLETIONS_HELP: &str = "Examples:
  solarmy completions bash > /etc/bash_completion.d/solarmy
  solarmy completions zsh > ~/.zfunc/_solarmy
  solarmy completions fish > ~/.config/fish/completions/solarmy.fish

Exit codes: 0 printed, 2 bad command line (an unknown shell).";

pub const MANPAGE_HELP: &str = "Examples:
  solarmy manpage > solarmy.1 && man ./solarmy.1
  solarmy manpage --out man && man ./man/solarmy-solve.1   # every command's page

Exit codes: 0 printed or written, 1 standard output or DIR cannot be written.";
