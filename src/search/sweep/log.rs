//! The case log of a sweep: a stamp (what wrote it), then one JSON line per case settled,
//! written by one thread. A rerun resumes from it, but a log is a cache, never evidence:
//! a line read back counts only once its certificate checks again, or its play replays
//! again ([`Sweep::still_holds`]); results solved elsewhere (job files) are taken the same
//! way.

use super::{CaseResult, Header, Report, Stamp, Sweep};
use crate::error::Error;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify;
use crate::reduce::cases;
use crate::search::outcome;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

impl Sweep {
    pub(super) fn log_name(&self, extra: i32) -> String {
        let dirs: Vec<Cell> = self.families.iter().map(|f| f.last_jump).collect();
        let name = log_name(self.army, self.level, self.men, &dirs, extra);
        // A count's log beside the climb's log of the same round, which it must not replace.
        match self.count {
            true => name.replace("-cases.jsonl", "-count-cases.jsonl"),
            false => name,
        }
    }

    /// Where the case log of a sweep over these last jumps lies in `dir`.
    pub fn log_path(army: Army, level: i32, men: u64, dirs: &[Cell], dir: &Path) -> PathBuf {
        dir.join(log_name(army, level, men, dirs, 0))
    }

    /// What a case log or a job result of this sweep is stamped with.
    pub fn job_stamp(&self) -> Stamp {
        self.stamp(0)
    }

    pub(super) fn stamp(&self, extra: i32) -> Stamp {
        Stamp {
            program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
            army: self.army.to_string(),
            level: self.level,
            men: self.men,
            last_jumps: self.families.iter().map(|f| f.last_jump).collect(),
            extra,
            budget: cases::BUDGET,
            count: self.count,
        }
    }

    /// The results of a case log that still hold: only when its stamp matches exactly
    /// (otherwise one line on stderr says why it is ignored), and then only infeasible
    /// cases whose certificate checks again and feasible cases whose play replays again.
    /// A log is a cache, never evidence: anything else is solved again.
    fn resume(&self, path: &Path, extra: i32) -> Vec<CaseResult> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Vec::new();
        };
        let mut lines = text.lines();
        let header = lines
            .next()
            .and_then(|l| serde_json::from_str::<Header>(l).ok());
        if header.is_none_or(|h| h.stamp != self.stamp(extra)) {
            eprintln!(
                "solarmy: ignoring {}: written by another version or for another problem",
                path.display()
            );
            return Vec::new();
        }
        lines
            .filter_map(|l| serde_json::from_str::<CaseResult>(l).ok())
            .filter(|r| self.still_holds(r))
            .collect()
    }

    /// Whether a result read back (from a log or a job) counts: an infeasible case with a
    /// certificate that checks again, a feasible one whose play replays again.
    pub fn still_holds(&self, r: &CaseResult) -> bool {
        match r.status.as_str() {
            "infeasible" => {
                !(self.second_opinion && r.cbc.is_none())
                    && r.ip.as_ref().is_some_and(|ip| {
                        crate::ip::evidence::still_certified(self.army, self.level, ip)
                    })
                    && r.counted.iter().all(|(army, play)| {
                        play.as_ref().is_none_or(|p| {
                            verify::replay(&self.army.lattice(), self.level, army, p).is_ok()
                        })
                    })
            }
            "feasible" => match (&r.army, &r.play) {
                (Some(army), Some(play)) => {
                    verify::replay(&self.army.lattice(), self.level, army, play).is_ok()
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The cases settled before this run, by key: from the narrower sweep's log (where the
    /// board was proven, the program is the same however wide the caps), this sweep's log,
    /// and the jobs' results (seeded, which count as solved by this run: the one that
    /// completes it); and how many were seeded.
    pub(super) fn settled_before(
        &self,
        dir: &Path,
        log: &Path,
    ) -> (HashMap<(Cell, String), CaseResult>, usize) {
        let mut done: HashMap<(Cell, String), CaseResult> = HashMap::new();
        if self.extra > 0 {
            for r in self.resume(&dir.join(self.log_name(0)), 0) {
                if r.board_proven {
                    done.insert((r.last_jump, r.case.clone()), r);
                }
            }
        }
        for r in self.resume(log, self.extra) {
            done.insert((r.last_jump, r.case.clone()), r);
        }
        let mut seeded = 0;
        for r in self.seed.iter().filter(|r| self.still_holds(r)) {
            seeded += 1;
            done.insert((r.last_jump, r.case.clone()), r.clone());
        }
        (done, seeded)
    }

    /// A resumed feasible case: its army, replayed already by [`Sweep::resume`], counts.
    pub(super) fn take_found(&self, r: &CaseResult, report: &mut Report) {
        let (Some(army), Some(play), None) = (&r.army, &r.play, &report.found) else {
            return;
        };
        let req = outcome::Request::new(self.army, self.level);
        let mut out = outcome::empty_outcome(&req);
        if let Ok(replay) = verify::replay(&self.army.lattice(), self.level, army, play) {
            out.status = outcome::Status::Optimal;
            out.min_size = Some(army.len() as u64);
            out.moves = replay.moves;
            out.verified = true;
            out.army_cells = army.clone();
            out.play = play.clone();
            out.last_jump = Some(r.last_jump);
            report.found = Some(out);
        }
    }
}

/// The case log, written by one thread: the stamp and the lines kept from a resumed log at
/// once (atomically), then one line appended per case settled.
pub(super) struct LogWriter {
    file: std::fs::File,
    path: PathBuf,
}

impl LogWriter {
    pub(super) fn start<'a>(
        path: &Path,
        stamp: &Stamp,
        kept: impl Iterator<Item = &'a CaseResult>,
    ) -> Result<LogWriter, Error> {
        let mut text = json_line(&Header {
            stamp: stamp.clone(),
        })?;
        for r in kept {
            text += &json_line(r)?;
        }
        crate::files::write_atomic(path, text.as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Error::io("write", path, e))?;
        Ok(LogWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    pub(super) fn append(&mut self, r: &CaseResult) -> Result<(), Error> {
        use std::io::Write;
        let line = json_line(r)?;
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| Error::io("write", &self.path, e))
    }
}

/// DIR-relative name of a case log: <army>-<level>-<men>-d<x>_<y>[-…][-wider<extra>]-cases.jsonl.
fn log_name(army: Army, level: i32, men: u64, dirs: &[Cell], extra: i32) -> String {
    let dirs: Vec<String> = dirs.iter().map(|d| format!("d{}", d.tag())).collect();
    let wider = if extra > 0 {
        format!("-wider{extra}")
    } else {
        String::new()
    };
    format!("{army}-{level}-{men}-{}{wider}-cases.jsonl", dirs.join("-"))
}

/// One JSON line of a log.
fn json_line<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::Input(e.to_string()))
}
