//! Files written whole or not at all: every result file goes through [`write_atomic`], so an
//! interrupted run never leaves a partial file, a symlink keeps pointing where it did, and a
//! device or pipe is written to, never replaced. Uses only [`crate::error`].

use crate::error::Error;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a search keeps its case logs: `given` (the user's `--out`, kept), or a fresh
/// directory under the system's temporary directory, removed when the second part is dropped.
pub fn case_dir(
    given: Option<&Path>,
    prefix: &str,
) -> Result<(PathBuf, Option<tempfile::TempDir>), Error> {
    if let Some(d) = given {
        return Ok((d.to_path_buf(), None));
    }
    let t = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .map_err(|e| {
            Error::io(
                "create a directory for case logs in",
                std::env::temp_dir(),
                e,
            )
        })?;
    Ok((t.path().to_path_buf(), Some(t)))
}

/// Writes `bytes` to `path` whole:
/// - a regular file (new or old) atomically: to a temporary file in the same directory
///   (`tempfile`), synced, then renamed into place, with the old file's permissions, or for a
///   new one those the umask allows (as any program's new file);
/// - through a symlink: the file it points to, atomically the same way (the link stays);
/// - a device, pipe or socket (`/dev/stdout`, `/dev/full`, a FIFO), or any path under /dev
///   or /proc: written directly, since replacing it would destroy it or what the shell has
///   open; a failure (a full device) is reported, not hidden.
///
/// A failure names `path` and the reason and leaves no partial regular file (the temporary
/// file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let fail = |e| Error::io("write", path, e);
    if written_in_place(path) {
        return write_through(path, bytes).map_err(fail);
    }
    let target = resolve(path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, e))?;
    let mut f = tempfile::Builder::new()
        .prefix(".solarmy-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(fail)?;
    let permissions = match fs::metadata(&target) {
        Ok(m) => m.permissions(),
        Err(_) => new_file_permissions(),
    };
    f.write_all(bytes)
        .and_then(|_| f.as_file().set_permissions(permissions))
        .and_then(|_| f.as_file().sync_all())
        .map_err(fail)?;
    f.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Whether [`write_atomic`] writes `path` in place: a device, pipe or socket (followed
/// through symlinks), or any path under /dev or /proc, where /dev/stdout or /proc/self/fd/1
/// may lead to a regular file the shell has open, which replacing would lose.
pub fn written_in_place(path: &Path) -> bool {
    path.starts_with("/dev")
        || path.starts_with("/proc")
        || fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// The file a path names once its symlinks are followed (a dangling link: the path it
/// points to, made absolute against the link's directory); the path itself otherwise.
fn resolve(path: &Path) -> PathBuf {
    if let Ok(p) = fs::canonicalize(path) {
        return p;
    }
    match fs::read_link(path) {
        Ok(to) if to.is_absolute() => to,
        Ok(to) => path.parent().unwrap_or(Path::new(".")).join(to),
        Err(_) => path.to_path_buf(),
    }
}

/// Writes to an existing non-regular file in place (a device or a pipe has nothing to
/// replace atomically).
fn write_through(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// rw for everyone, less the process's umask: what `open(…, 0666)` gives a new file.
fn new_file_permissions() -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(0o666 & !umask())
}

/// The process's umask, read without changing it (Linux's /proc/self/status); 022 where
/// that cannot be read.
fn umask() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_new_file_follows_the_umask_and_an_old_one_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_atomic(&p, b"x").unwrap();
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask());
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"y").unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(fs::read(&p).unwrap(), b"y");
    }

    #[test]
    fn a_symlink_stays_and_its_target_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("t.json"), dir.path().join("l.json"));
        fs::write(&target, b"old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"new");
        // A dangling link: its target is created.
        let (gone, dangling) = (dir.path().join("gone.json"), dir.path().join("d.json"));
        std::os::unix::fs::symlink(&gone, &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(fs::read(&gone).unwrap(), b"made");
    }

    #[test]
    fn a_device_is_written_not_replaced() {
        write_atomic(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
        if Path::new("/dev/full").exists() {
            assert!(write_atomic(Path::new("/dev/full"), b"x").is_err());
            assert!(!fs::metadata("/dev/full").unwrap().is_file());
        }
    }
}
