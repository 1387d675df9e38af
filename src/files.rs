//! Files written whole or not at all: every result file goes through [`write_atomic`], so an
//! interrupted run never leaves a partial file. Uses only [`crate::error`].

use crate::error::Error;
use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: to a temporary file in the same directory
/// (`tempfile`), synced, then renamed into place. A failure names `path` and the reason and
/// leaves no partial file (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let fail = |e| Error::io("write", path, e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let mut f = tempfile::Builder::new()
        .prefix(".solarmy-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    f.write_all(bytes)
        .and_then(|_| f.as_file().sync_all())
        .map_err(fail)?;
    f.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
