//! The `moves` command's arguments and the printing its army search ([`super::moves`]) and
//! its board searches ([`super::moves_board`], [`super::moves_levels`]) share.

use crate::cli::args::{Error, ProblemArg};
use crate::play::moves::{Answer, Status};
use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use crate::search::fewest_moves::proof::{Claimed, proof_of, write_proof};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};

pub const MOVES_HELP: &str = "Examples:
  solarmy moves --army conway --level 4 --from results/armies/conway-4-army.csv   # 10, proven
  solarmy moves --army conway --level 4   # over every minimum army: 10, proven
  solarmy moves --army diagonal --level 6 --from results/armies/diagonal-6-army.csv --json
  solarmy moves --army pablito --level 6 --from results/armies/pablito-6-army.csv --time-limit 60
  solarmy moves --model models/triangle5.toml --vacancy 2,0 --finish 2,0   # a board: 9, proven

Exit codes: 0 the fewest moves proven, 1 failure (an unreadable or illegal army or seed),
2 bad command line, 3 stopped by --time-limit or Ctrl-C (the proven lower bound and the best
play known are reported, said as such).";

#[derive(Args, Debug)]
#[command(after_help = MOVES_HELP)]
pub struct MovesArgs {
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Men start at distance >= level from the target (0,0) (rows y >= level for the five armies)
    #[arg(long, allow_hyphen_values = true)]
    pub level: Option<String>,
    /// The army (CSV with header x,y); without it, every minimum army of the entry
    #[arg(long, value_name = "ARMY_CSV")]
    pub from: Option<PathBuf>,
    /// A board problem (with --model BOARD and --finish): the one empty hole at the start
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub vacancy: Option<String>,
    /// A board problem: the hole the last man must end on
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub finish: Option<String>,
    /// A known play of this army (its move count bounds the search from above); default: the
    /// army file's sibling <...>-play.csv when it exists and replays
    #[arg(long, value_name = "PLAY_CSV")]
    pub seed: Option<PathBuf>,
    /// A board problem: use the iterative-deepening search with bounds instead of the exact
    /// search by levels (the default for boards of at most 64 holes)
    #[arg(long)]
    pub ida: bool,
    /// With --ida: search each depth breadth-first, a position as one word (boards of at
    /// most 64 holes), instead of depth-first with a transposition table; faster where a
    /// depth holds more positions than the table, at 16 bytes a position
    #[arg(long, requires = "ida")]
    pub breadth: bool,
    /// A board problem: count the positions by moves, levels 0 … K, instead of solving it:
    /// forward from the start (reached in k moves and no fewer) and backward from the finish
    /// (Beasley's endgame table: the finish reached in k moves and no fewer), each in all and
    /// as kept by the problem's pagodas (--prune), up to the symmetries fixing both holes
    #[arg(long, value_name = "K", conflicts_with_all = ["ida", "proof"])]
    pub level_counts: Option<usize>,
    /// A board problem by levels: prune each side's levels by pagoda functions made for the
    /// problem: off, shape (the board's resource counts) or sharpened (those and pagodas
    /// found by a small integer program); the fewest moves are the same, the levels smaller
    #[arg(long, value_name = "HOW", default_value = "off", value_parser = crate::play::peg::fewest::Pruning::parse)]
    pub prune: crate::play::peg::fewest::Pruning,
    /// A board problem by levels: the memory its levels may take, e.g. 16G (default: half the
    /// machine); levels that would need more stop the search with one line (exit 3)
    #[arg(long, value_name = "BYTES", value_parser = crate::play::peg::fewest::parse_memory)]
    pub memory: Option<usize>,
    /// A board problem by levels: skip the table of positions by fewest moves from the start
    /// (Beasley's), a second pass over the move graph that takes about a fifth of a large
    /// problem's time; the fewest moves and the play are the same
    #[arg(long)]
    pub no_table: bool,
    /// A board problem by levels: keep the levels on disk in DIR, as sorted files, so that the
    /// search needs memory only for its sorting buffers and the positions on some play; the
    /// levels stay there for the next run (which resumes from them) and for other problems
    /// of the same holes
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// With --work: the disk the levels may take at once, e.g. 200G (default: the space free
    /// there, less 1 GiB); more stops the search with one line (exit 3)
    #[arg(long, value_name = "BYTES", requires = "work", value_parser = crate::play::peg::fewest::parse_memory)]
    pub disk: Option<usize>,
    /// With --work: how the middle of the positions on some play is found: level (from the
    /// middle level) or children (from the children of the level before it, asked of a Bloom
    /// filter first: the largest level is never built, which saves its disk and time when
    /// few positions are on some play)
    #[arg(long, value_name = "HOW", default_value = "level", requires = "work", value_parser = crate::play::peg::fewest::Meet::parse)]
    pub meet: crate::play::peg::fewest::Meet,
    /// With --work: how the positions on some play are tested against each level beside the
    /// middle: load (the level read into a table in memory), scan (the level read against
    /// the positions found), pairs (candidates sorted and merged with the level), or auto
    /// (load when the memory budget holds the level); all give the same answer
    #[arg(long, value_name = "HOW", default_value = "auto", requires = "work", value_parser = crate::play::peg::fewest::Join::parse)]
    pub join: crate::play::peg::fewest::Join,
    /// With --work: build only part K of N of level J (the positions whose hash is K) from
    /// the complete level J − 1, as one job of a job array (scripts/levels-array), and exit
    #[arg(long, value_name = "J:K/N", requires = "work", value_parser = |s: &str| crate::play::peg::fewest::Job::parse(s, false))]
    pub level_part: Option<crate::play::peg::fewest::Job>,
    /// With --work: write level J from its N parts (built by --level-part), and exit
    #[arg(long, value_name = "J:N", requires = "work", conflicts_with = "level_part", value_parser = |s: &str| crate::play::peg::fewest::Job::parse(s, true))]
    pub level_merge: Option<crate::play::peg::fewest::Job>,
    /// Use no known play: search until a play is found
    #[arg(long, conflicts_with = "seed")]
    pub no_seed: bool,
    /// Stop after this many seconds; report the best play known and the proven lower bound
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Transposition-table cap in entries (the search stays correct when it is hit)
    #[arg(long, value_name = "N", default_value_t = 4_000_000)]
    pub tt_entries: usize,
    /// Positions to spend first on looking for plays shorter than the seed (depth-first one move
    /// below the best known); they are not part of the proof
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub probe: u64,
    /// Write <army>-<level>-moves-play.csv here; with --from, also the search's state
    /// (<army>-<level>-moves-state.json: depths searched, best play), from which a rerun with
    /// the same --out resumes after a time limit or Ctrl-C
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the proof of a proven minimum (JSON; gzip-compressed when FILE ends in .gz) for
    /// `solarmy check`, which repeats its search by moves; an army needs --from. When the
    /// checker's search would be too large no proof is written, with a line saying why
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Also print the army or start (rows of o and ., the target or finish marked) and the
    /// play as numbered moves; on a square board of at most 9 x 9 holes also in Bell's
    /// notation (a-g, 1-7 on the English board)
    #[arg(long, conflicts_with = "json")]
    pub show: bool,
    #[command(flatten)]
    pub display: crate::cli::args::Display,
}

/// With --proof on a board problem: the proof of a proven minimum (`play`, when `proven`)
/// written, or why none was; its claim made as `how` says.
pub(crate) fn board_proof(
    a: &MovesArgs,
    board: &crate::play::peg::PegBoard,
    (v, f): (Cell, Cell),
    start: &[Cell],
    (play, proven): (Option<&[Step]>, bool),
    how: Claimed,
) -> Result<Option<Result<PathBuf, String>>, Error> {
    let Some(path) = &a.proof else {
        return Ok(None);
    };
    let (Some(play), true) = (play, proven) else {
        let why = match play {
            None if proven => "no play reaches the finish (`solve --proof` proves that)",
            _ => "the minimum is not proven",
        };
        eprintln!("solarmy: no proof written to {}: {why}", path.display());
        return Ok(Some(Err(why.into())));
    };
    let named = (
        board.name.as_str(),
        Some(board.source.clone()),
        board.fingerprint(v, f),
    );
    let proof = proof_of(named, 0, Some((v, f)), (start, play));
    Ok(Some(write_proof(path, proof, how)?))
}

/// Adds the fields of `extra` (an object) to `j` (an object).
pub(crate) fn merge(j: &mut serde_json::Value, extra: serde_json::Value) {
    if let (Some(o), serde_json::Value::Object(e)) = (j.as_object_mut(), extra) {
        o.extend(e);
    }
}

/// What `--proof` did, for the JSON answer: the file written, or why none was.
pub(crate) fn proof_json(written: &Option<Result<PathBuf, String>>) -> serde_json::Value {
    match written {
        Some(Ok(p)) => json!({"proof": p.display().to_string()}),
        Some(Err(why)) => json!({"proof": null, "proof_not_written": why}),
        None => json!({"proof": null}),
    }
}

pub(crate) fn answer_json(
    (army, level, men): (&str, i32, usize),
    ans: &Answer,
    seed_moves: Option<u32>,
    tt_cap: usize,
    csv: Option<&Path>,
) -> serde_json::Value {
    let positions: serde_json::Map<String, serde_json::Value> = ans
        .positions
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(d, &n)| (d.to_string(), json!(n)))
        .collect();
    json!({
        "army": army,
        "level": level,
        "men": men,
        "status": ans.status.as_str(),
        "min_moves": ans.min_moves,
        "proven": matches!(ans.status, Status::Optimal | Status::Impossible),
        "lower_bound": ans.lower_bound,
        "start_bound": ans.start_bound,
        "best_moves": ans.play_moves,
        "seed_moves": seed_moves,
        "found_by_search": ans.found_by_search,
        "positions": positions,
        "positions_total": ans.positions.iter().sum::<u64>(),
        "probe_positions": ans.probe_positions,
        "seconds": ans.seconds,
        "tt_entries": ans.tt_entries,
        "tt_cap": tt_cap,
        "tt_full": ans.tt_full,
        "start_symmetric": ans.start_symmetric,
        "play": ans.play,
        "play_csv": csv.map(|p| p.display().to_string()),
        "resumed_below": ans.resumed_below,
    })
}

pub(crate) fn print_answer(
    (army, level, men): (&str, i32, usize),
    ans: &Answer,
    seed_moves: Option<u32>,
    tt_cap: usize,
    csv: Option<&Path>,
) {
    outln!(
        "army {army}  level {level}  {men} men (start {}symmetric)",
        if ans.start_symmetric { "" } else { "not " }
    );
    print_body(ans, seed_moves, tt_cap, csv);
}

/// Everything of the plain-text answer after its first line (the problem's name).
pub(crate) fn print_body(ans: &Answer, seed_moves: Option<u32>, tt_cap: usize, csv: Option<&Path>) {
    let seed = seed_moves.map_or("no seed play".to_string(), |m| {
        format!("seed play {m} moves")
    });
    match ans.status {
        Status::Optimal => {
            let m = ans.min_moves.unwrap_or(0);
            let sb = ans.start_bound.unwrap_or(0);
            outln!(
                "minimum {m} moves, proven: {} ({}; {seed})",
                if m > sb {
                    format!(
                        "no play of fewer (start bound {sb}, depths {sb}..{} searched exhaustively)",
                        m - 1
                    )
                } else {
                    format!("no play of fewer (the start position's bound is {sb})")
                },
                if ans.found_by_search {
                    "play found by the search"
                } else {
                    "the seed play attains it"
                },
            )
        }
        Status::Impossible => outln!("impossible: no play reaches the target (proven)"),
        s => outln!(
            "{}: NOT proven. Proven lower bound {} moves; best play known {} ({})",
            s.as_str(),
            ans.lower_bound,
            ans.play_moves
                .map_or("none".to_string(), |m| format!("{m} moves")),
            if ans.found_by_search {
                "found by the search"
            } else {
                "the seed play"
            }
        ),
    }
    if let Some(d) = ans.resumed_below {
        outln!(
            "resumed: depths below {d} were searched to the end by an earlier run (its state \
             file, <army>-<level>-moves-state.json beside the play), not again; delete that \
             file to prove this in one run"
        );
    }
    let per: Vec<String> = ans
        .positions
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(d, n)| format!("{d}: {n}"))
        .collect();
    outln!(
        "positions per depth: {} (start bound {})",
        if per.is_empty() {
            "-".to_string()
        } else {
            per.join(", ")
        },
        ans.start_bound
            .map_or("dead".to_string(), |b| b.to_string())
    );
    if let Some(play) = &ans.play {
        outln!(
            "play verified: {} jumps in {} moves",
            play.len(),
            ans.play_moves.unwrap_or(0)
        );
    }
    outln!(
        "transposition table: {} entries (cap {tt_cap}){}",
        ans.tt_entries,
        if ans.tt_full {
            "; cap reached, later positions not stored (the search stays exhaustive)"
        } else {
            ""
        }
    );
    outln!("{:.2} s", ans.seconds);
    if let Some(p) = csv {
        outln!("wrote {}", p.display());
    }
}

/// The exit code of a moves answer: 0 answered, 3 stopped early (time limit or Ctrl-C).
pub(crate) fn exit_code(status: Status) -> u8 {
    match status {
        Status::Optimal | Status::Impossible => 0,
        Status::TimeLimit | Status::Interrupted => 3,
    }
}
