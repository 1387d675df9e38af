//! The state a long command keeps between runs in its `--out DIR`, so that a rerun with the
//! same arguments resumes instead of starting again: `moves` (the depths searched),
//! `count` (the last jumps counted), `catalog` and `catalog --moves` (the problems decided)
//! and a board `solve` (the rounds of effort refuted). One JSON file per problem, written
//! whole by [`crate::files::write_atomic`] (a temporary file renamed into place: never a
//! partial file; a symlink keeps pointing where it did, a device is never replaced), under a
//! [`Stamp`]: the program, the kind of work, the problem's fingerprint and the options that
//! change what is kept. A state of another stamp, unreadable or not a regular file is ignored
//! with one line on stderr saying why, and the run starts from the beginning. A state is a
//! cache, never evidence: what a command takes from it is checked again (plays replayed,
//! proofs re-derived) or said to rest on this program's earlier run. It lives in the library,
//! not in the commands, so that a library user's long search resumes the same way; its
//! errors are the library's ([`crate::error::Error`]).

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Whose state a file is: a state is taken only when every field is this run's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    /// `solarmy <version>`.
    pub program: String,
    /// The work: "moves", "count", "catalog", "catalog-moves", "solve".
    pub kind: String,
    /// The problem's fingerprint (or what names it exactly: an army's men).
    pub problem: serde_json::Value,
    /// The options that change what is kept (none: null).
    pub options: serde_json::Value,
}

impl Stamp {
    pub fn new(kind: &str, problem: serde_json::Value, options: serde_json::Value) -> Stamp {
        Stamp {
            program: format!("solarmy {}", env!("CARGO_PKG_VERSION")),
            kind: kind.into(),
            problem,
            options,
        }
    }

    /// What differs from `other`, in words (for the line that ignores a state).
    fn differs(&self, other: &Stamp) -> &'static str {
        if self.program != other.program {
            "written by another version"
        } else if self.kind != other.kind {
            "written by another command"
        } else if self.problem != other.problem {
            "written for another problem"
        } else {
            "written with other options"
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Saved<T> {
    stamp: Stamp,
    state: T,
}

/// The state at `path` when its stamp is `stamp`: None when there is none, and, with one line
/// on stderr, when it is of another stamp, unreadable or not a regular file.
pub fn read<T: DeserializeOwned>(path: &Path, stamp: &Stamp) -> Option<T> {
    let ignored = |why: &str| {
        eprintln!("solarmy: ignoring {}: {why}", path.display());
        None
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return ignored(&e.to_string()),
        // A pipe or a device is never read: it could block, or be a terminal.
        Ok(m) if !m.is_file() => return ignored("not a regular file"),
        Ok(_) => {}
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return ignored(&e.to_string()),
    };
    // The stamp first, so that a state of another version whose body changed says so.
    #[derive(Deserialize)]
    struct Head {
        stamp: Stamp,
    }
    match serde_json::from_str::<Head>(&text) {
        Err(_) => return ignored("not a state file of this version of the program"),
        Ok(h) if h.stamp != *stamp => return ignored(h.stamp.differs(stamp)),
        Ok(_) => {}
    }
    match serde_json::from_str::<Saved<T>>(&text) {
        Ok(s) => Some(s.state),
        Err(e) => ignored(&format!("unreadable state: {e}")),
    }
}

/// The items of a list kept at `path` under `stamp` that `keep` still accepts (each checked
/// again: a play replayed), with a line saying how many (`what`) when there are any.
pub fn read_kept<T: DeserializeOwned>(
    path: &Path,
    stamp: &Stamp,
    quiet: bool,
    keep: impl Fn(&T) -> bool,
    what: impl Fn(usize) -> String,
) -> Vec<T> {
    let kept: Vec<T> = read(path, stamp).unwrap_or_default();
    let known: Vec<T> = kept.into_iter().filter(|x| keep(x)).collect();
    if !known.is_empty() {
        say_resumed(path, &what(known.len()), quiet);
    }
    known
}

/// Writes `state` under `stamp` to `path`, whole or not at all.
pub fn write<T: Serialize>(path: &Path, stamp: &Stamp, state: &T) -> Result<()> {
    let saved = Saved {
        stamp: stamp.clone(),
        state,
    };
    let text = serde_json::to_string(&saved)
        .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    crate::files::write_atomic(path, text.as_bytes())
}

/// Removes the state at `path` once its work is done and nothing is left to resume (only a
/// regular file: a symlink, a pipe or a device is left alone).
pub fn remove(path: &Path) {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        let _ = std::fs::remove_file(path);
    }
}

/// "resuming from PATH: WHAT", on stderr unless `quiet`.
pub fn say_resumed(path: &Path, what: &str, quiet: bool) {
    if !quiet {
        eprintln!("solarmy: resuming from {}: {what}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_state_comes_back_only_under_its_own_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x-state.json");
        let stamp = Stamp::new("count", json!("abc"), json!({"jobs": 1}));
        assert_eq!(read::<Vec<u32>>(&path, &stamp), None);
        write(&path, &stamp, &vec![1u32, 2, 3]).unwrap();
        assert_eq!(read::<Vec<u32>>(&path, &stamp), Some(vec![1, 2, 3]));
        let other = Stamp::new("count", json!("abd"), json!({"jobs": 1}));
        assert_eq!(other.differs(&stamp), "written for another problem");
        assert_eq!(read::<Vec<u32>>(&path, &other), None);
        let options = Stamp::new("count", json!("abc"), json!({"jobs": 2}));
        assert_eq!(options.differs(&stamp), "written with other options");
        std::fs::write(&path, "{\"stamp\":").unwrap();
        assert_eq!(read::<Vec<u32>>(&path, &stamp), None);
        // Another body under the right stamp: ignored, not a panic.
        write(&path, &stamp, &"text").unwrap();
        assert_eq!(read::<Vec<u32>>(&path, &stamp), None);
    }
}
