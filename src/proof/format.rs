//! The proof file: what a claim "K men suffice, and K − 1 do not" rests on, as data.
//!
//! A proof names the problem, the claim, the play that shows K men suffice, and for every
//! round below K (every army size the pagoda bound leaves open) and every last jump d, the
//! evidence that no army of that size ends with a jump over d: a direct integer program on
//! a bounded board, or a case split by exponent profile whose cases are each ruled out by a
//! reduction or by an integer program. Every number is stated so that the checker
//! ([`super::check`]) can recompute it and name the first one that disagrees. Integer
//! programs are given by what defines them ([`IpDef`]), never as a solver's file, with the
//! verdicts of the solvers and, where there is one, an exact certificate.
//!
//! Written as JSON, or gzip-compressed JSON when the file name ends in `.gz`.

use super::farkas::Tree;
use crate::error::Error;
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use serde::{Deserialize, Serialize};

/// The format tag every proof carries; the checker refuses any other.
pub const FORMAT: &str = "solarmy-proof/1";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Proof {
    pub format: String,
    /// The program that wrote it, e.g. "solarmy 0.1.0".
    pub program: String,
    pub army: String,
    /// The model file's text when the problem is not one of the bundled models (the
    /// checker reads the problem from it; a bundled one is known by `army`, its name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The problem's fingerprint ([`crate::problem::fingerprint`]): the checker rebuilds the
    /// problem, recomputes it and refuses the proof when they differ. Proofs written before
    /// 26 November 2026 have none; the checker then prints the one it computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    pub level: i32,
    pub claim: Claim,
    /// A play of `claim` men reaching the target (for a minimum).
    pub play: Option<Play>,
    /// Every (round, last jump) the claim's lower bound needs, in increasing rounds.
    pub rounds: Vec<RoundProof>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// No army reaches the level: for every last jump d of the split, all start cells
    /// together weigh at most 1 under the improved function of d, under which the position
    /// {d, 2d} before the last jump already weighs 1 (a finite army weighs strictly less).
    Unreachable { last_jumps: Vec<(Cell, Golden)> },
    /// K men suffice and K − 1 do not.
    Minimum { men: u64 },
    /// A bound where the minimum is open: no army of fewer than `men` men reaches the level
    /// (every round of 1 … men − 1 men is ruled out, by weight or by its evidence). The
    /// proof's play, when it carries one, is the best army known, replayed: the minimum lies
    /// between `men` and its size.
    AtLeast { men: u64 },
    /// K men suffice and K − 1 do not (as for Minimum, with the proof's play), and every
    /// army of K men is the image under a symmetry of one of `armies`, each given with a
    /// play: the round-K program of every last jump, with a no-good cut on each image of
    /// each listed army, is infeasible. `total` counts the distinct images.
    Count {
        men: u64,
        armies: Vec<Play>,
        up_to_symmetry: usize,
        total: usize,
    },
    /// No army reaches the level: all start cells together weigh `weight` <= 1. Beyond the
    /// levels the pagoda window counts, `weight` is that of the start region at level
    /// `counted_at` < level, which holds the region of every higher level.
    Impossible {
        weight: Golden,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counted_at: Option<i32>,
    },
    /// No army reaches the level: pagoda functions found by linear programming
    /// ([`LpFunction`], checked by [`super::lp`]). Either one function normalised on the target
    /// under which the whole start region weighs less than the target, or one per last jump d
    /// of the split, each normalised on the position {d, 2d} before the last jump, under which
    /// the start region weighs less than that position.
    PagodaLp { functions: Vec<LpFunction> },
    /// A peg-solitaire board problem (the model's start kind "board"; `level` is 0, the
    /// model's text is in `model`): from every hole filled but the vacancy, to one man on
    /// the finish. Checked by [`super::peg`].
    Board(BoardClaim),
    /// A pattern problem on a peg-solitaire board (the model's start kind "board", `level`
    /// 0, the model's text in `model`): from the men of `start` to exactly the men of
    /// `finish`. Checked by [`super::peg`], as a board claim is.
    Pattern(PatternClaim),
    /// The fewest moves of a problem, a move being one man's run of jumps: the proof's
    /// `play` reaches the goal in `moves` moves, and no play has fewer. Checked by
    /// [`super::moves`].
    Moves(MovesClaim),
}

/// A pagoda function with exact weights: on the window max(|x|, |y|) <= `radius` the stated
/// weights (row by row, y then x from −radius to radius), beyond it the geometric tail
/// `tail`·σ^(|x − p_x| + |y − p_y| − radius), p = `centre`, a window cell. The scale is free (every test compares weights of the same
/// function), so the weights are kept in Z\[σ\], most of them integers.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LpFunction {
    pub radius: i32,
    pub weights: Vec<Golden>,
    pub tail: Golden,
    #[serde(default)]
    pub centre: Cell,
    /// None: the test weight is the target's; Some(d): that of {d, 2d}, the position before a
    /// last jump over d.
    pub normalised: Option<Cell>,
}

/// "`moves` moves, and no play has fewer": for an army at the proof's `level`, from the
/// play's army to a man on the target (0,0); for a board (`board` = (vacancy, finish), the
/// model's text in the proof, `level` 0), from every hole filled but the vacancy to one man
/// on the finish. The rest is what the checker's breadth-first search by moves
/// ([`super::moves`]) repeats: its ground (`cells`: the board's holes, or for an army every
/// lattice cell a man of the play's army can ever reach), the cells a last jump into the
/// target passes over (`last_over`, whose improved pagoda functions and distances its bound
/// uses), and `counts[k]`, the positions it keeps k moves after the start, for k = 0 …
/// `moves` − 1 (the search as it ran when the proof was written; the checker names the first
/// depth whose count differs).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MovesClaim {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<(Cell, Cell)>,
    pub moves: u32,
    pub cells: u64,
    pub last_over: Vec<Cell>,
    pub counts: Vec<u64>,
    /// Present for a board claim proven by the checker's search by levels
    /// ([`super::fewest`]) instead of its search by moves (`cells`, `last_over` and `counts`
    /// are then unused): every level's count as that search made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<LevelCounts>,
}

/// The counts of the checker's search by levels for a board's fewest moves
/// ([`super::fewest`]), each compared so that a mismatch names its level: the symmetries
/// kept (those of the board fixing the vacancy and the finish), the positions of each
/// forward level (j jumps from the start) and backward level (k jumps before the finish),
/// and the positions on some play after each number of jumps. With `pagodas`, both sides'
/// levels are pruned by them (each verified never to rise on a jump, then closed under the
/// symmetries): forward a position lower than the finish alone, backward one higher than the
/// start, is dropped; the positions on some play are the same.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LevelCounts {
    pub symmetries: usize,
    pub forward: Vec<u64>,
    pub backward: Vec<u64>,
    pub on_plays: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pagodas: Vec<Vec<(Cell, i64)>>,
}

/// One board problem and its verdict.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BoardClaim {
    pub vacancy: Cell,
    pub finish: Cell,
    pub verdict: BoardVerdict,
}

/// A pattern problem and its verdict: any verdict of a board problem but the pruned
/// exhaustion ([`BoardVerdict::Exhausted`], made for a single vacancy and finish).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PatternClaim {
    pub start: Vec<Cell>,
    pub finish: Vec<Cell>,
    pub verdict: BoardVerdict,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum BoardVerdict {
    /// Solvable: the proof's `play` (its `army` the start position) ends with one man on the
    /// finish.
    Solvable,
    /// Not solvable by the position class: `witness` meets every jump's three holes an even
    /// number of times, so the parity of the men on it never changes in play, and the start
    /// and the finish have the parities stated, which differ.
    PositionClass {
        witness: Vec<Cell>,
        start_parity: u8,
        finish_parity: u8,
    },
    /// Not solvable: the jump program (one count per jump, one balance row per hole, as the
    /// checker builds it) has no integer solution. A certificate that is a single Farkas leaf
    /// is a resource count; a deeper tree uses integrality.
    NoJumpVector {
        rows: usize,
        cols: usize,
        certificate: Tree,
    },
    /// Not solvable by exhaustion: exactly `positions` positions are reachable from the
    /// start, and the finish alone is not one of them (the checker enumerates them again,
    /// up to its limit).
    Unreachable { positions: u64 },
    /// Not solvable by a pruned exhaustion that meets in the middle (the checker runs it
    /// again, [`crate::proof::levels`]). Each pagoda (weights on holes, unlisted holes 0)
    /// satisfies p(to) <= p(from) + p(over) for every jump, so it never increases in play.
    /// Positions are kept up to the board's symmetries fixing the finish (`symmetries` of
    /// them). `forward[j]`: positions j jumps after the start not pruned (p lower than on the
    /// finish alone); `backward[k]`: positions k jumps before the finish alone not pruned (p
    /// higher than on every image of the start); the last forward and backward levels share
    /// no position, or the forward side dies out (its last count 0, no backward side). With
    /// `children`, the backward side stops one level short and no child of the last forward
    /// level lies in the last backward level ([`crate::proof::outcore`]).
    Exhausted {
        pagodas: Vec<Vec<(Cell, i64)>>,
        symmetries: usize,
        forward: Vec<u64>,
        backward: Vec<u64>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        children: bool,
    },
}

/// An army and its play, in the coordinates of the CSV files.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Play {
    pub army: Vec<Cell>,
    /// (from, over, to) per jump.
    pub jumps: Vec<(Cell, Cell, Cell)>,
}

/// No army of `men` men ends with the last jump over `last_jump`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundProof {
    pub men: u64,
    pub last_jump: Cell,
    pub evidence: Evidence,
}

// A proof holds one of these per round or case: boxing the large variant would save little.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The heaviest army of `men` men under the improved function of d weighs `heaviest`,
    /// less than the position {d, 2d} (weight 1).
    Weight { heaviest: Golden },
    /// One integer program for every army of at most `men` men.
    Direct { board: BoardBasis, ip: IpProof },
    /// One case per exponent profile of exactly `men` men.
    Cases { cases: Vec<CaseProof> },
}

/// Why the direct program's board holds every cell real play can use.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardBasis {
    /// Step 1 of the board argument: the heaviest `men` − 1 men weigh `rest` < 1, so the
    /// farthest man has exponent E with σ^E >= 1 − rest, E in `farthest`; step 2 bounds the
    /// cells reached from each E. `max_slack` is the heaviest army's slack.
    Weight {
        rest: Golden,
        farthest: (i32, i32),
        max_slack: Golden,
        max_exponent: i32,
    },
    /// The case split bounds it: the farthest any case surviving the reductions can reach,
    /// and the largest slack among them (`open` cases of `total`).
    Cases {
        total: usize,
        open: usize,
        max_slack: Golden,
        max_exponent: i32,
    },
}

/// An exponent profile and what settles it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseProof {
    /// (exponent, men) for every class with men.
    pub profile: Vec<(i32, u64)>,
    /// Σ n_i σ^i − 1.
    pub slack: Golden,
    pub outcome: CaseOutcome,
}

#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseOutcome {
    /// A reduction of [`Reduction`] rules the case out.
    RuledOut(Reduction),
    /// The case's integer program has no solution. `reach` is the farthest exponent real
    /// play of this case can reach (step 2 of the board argument over every pivot).
    Ip { reach: i32, ip: IpProof },
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Reduction {
    /// 0 < S < σ^E, E the farthest class: the slack can never be spent.
    Proposition1 { farthest: i32 },
    /// Zero slack and the one-dimensional tableau needs a negative jump count at `class`
    /// (or a jump below the last-jump position when `class` is None).
    Tableau { class: Option<i32> },
    /// The men from class `far_from` on cannot be met by the men up to class `body_top`.
    FarGroup { body_top: i32, far_from: i32 },
}

/// An integer program by its definition: STA + A·J = {d, 2d} on the board of every cell of
/// exponent <= `max_exponent` (improved function of d) and every jump losing at most
/// `max_loss`, with the side constraints listed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IpDef {
    pub last_jump: Cell,
    pub max_men: u64,
    pub min_men: Option<u64>,
    pub max_exponent: i32,
    pub max_loss: Golden,
    /// Men per exponent class (a case): every class of the board not listed holds none.
    pub classes: Option<Vec<(i32, u64)>>,
    /// At most this many jumps that lose weight.
    pub lossy_cap: Option<u64>,
    /// No-good cuts: for each start set listed, not all of its cells hold a man (a count's
    /// program excludes the armies already counted; nothing else may carry cuts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<Vec<Cell>>,
}

/// An integer program shown infeasible.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IpProof {
    pub def: IpDef,
    /// Size of the program, as the checker will rebuild it.
    pub rows: usize,
    pub cols: usize,
    /// HiGHS's verdict, and CBC's when asked for.
    pub highs: String,
    pub cbc: Option<String>,
    /// An exact certificate: a Farkas leaf when the LP relaxation is infeasible, else a
    /// branch-and-bound tree of them, split on columns or on integer rows
    /// ([`Tree::SplitRow`], JSON `split_row`; older files have none and read unchanged).
    pub certificate: Option<Tree>,
    /// The search's seconds on the program: for one HiGHS settled, the CPU seconds of its
    /// thread (its work, which does not grow with the machine's load, so that what is
    /// decided from it, such as whether a certificate tree is tried, comes out the same on
    /// a busy machine; proofs written before 25 November 2026 hold wall seconds); for a
    /// direct round settled by its LP certificate, that LP's CPU seconds; for a case settled
    /// by its LP certificate or split on the fly, the wall seconds the sweep spent on it.
    /// Never evidence: it orders work.
    pub seconds: f64,
}

impl Proof {
    /// Reads a proof from JSON or gzip-compressed JSON (by the `.gz` extension).
    pub fn read(path: &std::path::Path) -> Result<Proof, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, e))?;
        let bad = |what: String| Error::Input(format!("{}: {what}", path.display()));
        let text = if path.extension().is_some_and(|e| e == "gz") {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut s)
                .map_err(|e| bad(format!("not gzip-compressed JSON: {e}")))?;
            s
        } else {
            String::from_utf8(bytes).map_err(|_| bad("not UTF-8".into()))?
        };
        // Certificate trees nest one level per split: past serde_json's default depth of 128,
        // which check_tree's own guard (farkas::MAX_TREE_DEPTH) replaces.
        let mut de = serde_json::Deserializer::from_str(&text);
        de.disable_recursion_limit();
        Proof::deserialize(&mut de).map_err(|e| bad(format!("not a proof: {e}")))
    }

    /// The proof as bytes for `path`: gzip-compressed when it ends in `.gz`.
    pub fn to_bytes(&self, path: &std::path::Path) -> Result<Vec<u8>, Error> {
        let json = serde_json::to_vec(self).map_err(|e| Error::Input(e.to_string()))?;
        if path.extension().is_none_or(|e| e != "gz") {
            return Ok(json);
        }
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut z, &json).map_err(|e| Error::io("compress", path, e))?;
        z.finish().map_err(|e| Error::io("compress", path, e))
    }
}
