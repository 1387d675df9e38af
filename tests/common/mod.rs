//! Shared by the integration tests: run the `solarmy` binary.

use std::process::Command;

/// Exit code, stdout and stderr of `solarmy ARGS`.
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
