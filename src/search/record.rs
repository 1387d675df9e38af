//! The record of a search's settled direct rounds, so that a resumed run does not solve
//! them again: `<army>-<level>-rounds.jsonl` in the case-log directory, a stamp (program,
//! problem) and then one line per direct round shown infeasible, with its proof evidence.
//!
//! Like a case log it is a cache, never evidence: a line is taken only when the stamp
//! matches exactly, the round's program and board basis, recomputed by the search, equal the
//! recorded ones, and its exact certificate checks again on the checker's own system
//! ([`crate::ip::evidence::still_certified`]). A round without a certificate rests on HiGHS's
//! word alone and is solved again. What is taken goes into the proof as recorded, so the
//! proof carries everything the checker needs, as on a fresh run.

use crate::error::Error;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::format::{BoardBasis, Evidence, IpDef, RoundProof};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Stamp {
    program: String,
    army: String,
    level: i32,
}

#[derive(Serialize, Deserialize)]
struct Header {
    stamp: Stamp,
}

/// One settled direct round: its line in the search's report and its evidence.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    pub round: crate::search::outcome::Round,
    pub proof: RoundProof,
}

/// The rounds read back (already re-checked when taken) and the file they go to.
pub struct Record {
    army: Army,
    level: i32,
    path: PathBuf,
    lines: Vec<Line>,
}

impl Record {
    /// The record in `dir` for this problem; lines of another stamp are dropped, with one
    /// line on stderr saying so.
    pub fn open(army: Army, level: i32, dir: &Path) -> Record {
        let path = dir.join(format!("{army}-{level}-rounds.jsonl"));
        let mut record = Record {
            army,
            level,
            path,
            lines: Vec::new(),
        };
        let Ok(text) = std::fs::read_to_string(&record.path) else {
            return record;
        };
        let mut lines = text.lines();
        let header = lines
            .next()
            .and_then(|l| serde_json::from_str::<Header>(l).ok());
        if header.is_none_or(|h| h.stamp != record.stamp()) {
            eprintln!(
                "solarmy: ignoring {}: written by another version or for another problem",
                record.path.display()
            );
            return record;
        }
        record.lines = lines.filter_map(|l| serde_json::from_str(l).ok()).collect();
        record
    }

    fn stamp(&self) -> Stamp {
        Stamp {
            program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
            army: self.army.to_string(),
            level: self.level,
        }
    }

    /// The recorded round of `men` men and last jump `d`, when it holds again: the same
    /// program and board basis as the search's, and a certificate that checks.
    pub fn take(&self, men: u64, d: Cell, def: &IpDef, basis: &BoardBasis) -> Option<Line> {
        let same = |a: &dyn erased::Json, b: &dyn erased::Json| a.json() == b.json();
        self.lines
            .iter()
            .find(|l| {
                l.proof.men == men
                    && l.proof.last_jump == d
                    && match &l.proof.evidence {
                        Evidence::Direct { board, ip } => {
                            same(&ip.def, def)
                                && same(board, basis)
                                && crate::ip::evidence::still_certified(self.army, self.level, ip)
                        }
                        _ => false,
                    }
            })
            .cloned()
    }

    /// Adds a settled round and rewrites the file atomically (a handful of lines).
    pub fn add(&mut self, line: Line) -> Result<(), Error> {
        self.lines
            .retain(|l| (l.proof.men, l.proof.last_jump) != (line.proof.men, line.proof.last_jump));
        self.lines.push(line);
        let json = |v: &dyn erased::Json| v.json() + "\n";
        let mut text = json(&Header {
            stamp: self.stamp(),
        });
        for l in &self.lines {
            text += &json(l);
        }
        crate::files::write_atomic(&self.path, text.as_bytes())
    }
}

/// Serialising values of different types through one function.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }

    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
    }
}
