//! Shared by the integration tests: run the `solarmy` binary.

use std::process::Command;

/// Exit code, stdout and stderr of `solarmy ARGS`.
#[allow(dead_code)]
pub fn solarmy(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// As [`solarmy`], with `input` on standard input.
#[allow(dead_code)]
pub fn solarmy_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// A fresh empty directory under the system's temporary directory, named after `tag`, and
/// removed with what it holds when dropped (a test leaves nothing behind).
#[allow(dead_code)]
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

#[allow(dead_code)]
pub fn scratch(tag: &str) -> Scratch {
    let d = tempfile::Builder::new()
        .prefix(&format!("solarmy-{tag}-"))
        .tempdir();
    Scratch(d.unwrap())
}
