//! `check --time-limit SECONDS`: the whole command stopped after SECONDS. The files checked
//! by then have their lines; the file being checked and those after it each get one saying
//! they were not checked (status `time_limit`), and the command ends with exit 3 (1 when a
//! file checked before failed). A file's line is printed under the same lock the stop takes,
//! so no file is reported twice and no line is cut. The CBC processes of `check --cbc`
//! end with it ([`end_with_parent`]): a stopped check leaves none running.

use crate::cli::envelope;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Where the check is: the file being checked, its problem once read, the files failed.
pub struct Progress {
    /// The index of the file being checked.
    pub next: usize,
    /// The problem of the file being checked, once its proof is read.
    pub problem: Option<Value>,
    /// When the file being checked was started.
    pub started: Instant,
    /// Files checked that failed.
    pub failed: usize,
    /// Every file is checked: the stop stands down.
    pub done: bool,
}

/// The progress the check and its stop share.
#[derive(Clone)]
pub struct Stop(Arc<Mutex<Progress>>);

impl Stop {
    /// The progress at the first file, and with `limit` the thread that stops the command
    /// after `limit` seconds.
    pub fn start(files: &[PathBuf], limit: Option<f64>, json: bool) -> Stop {
        let stop = Stop(Arc::new(Mutex::new(Progress {
            next: 0,
            problem: None,
            started: Instant::now(),
            failed: 0,
            done: false,
        })));
        if let Some(secs) = limit {
            let (s, files) = (stop.clone(), files.to_vec());
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_secs_f64(secs));
                s.expire(&files, secs, json);
            });
        }
        stop
    }

    /// The progress, locked: a file's line is printed while it is held.
    pub fn lock(&self) -> MutexGuard<'_, Progress> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ctrl-C ends the command as the time limit does: the files not checked said, exit 3
    /// (1 when a file checked before failed); the levels a check built on disk stay for a
    /// rerun (`check --work`), as every part is renamed into place only when complete.
    pub fn on_interrupt(&self, files: &[PathBuf], json: bool) {
        let (s, files) = (self.clone(), files.to_vec());
        let _ = ctrlc::set_handler(move || s.end(&files, None, json));
    }

    /// The time limit has passed: the files not checked said, and the command ended.
    fn expire(&self, files: &[PathBuf], secs: f64, json: bool) {
        self.end(files, Some(secs), json);
    }

    /// Stopped by the time limit (`Some(secs)`) or Ctrl-C (None).
    fn end(&self, files: &[PathBuf], limit: Option<f64>, json: bool) {
        let why = match limit {
            Some(secs) => format!("stopped by --time-limit after {secs} s"),
            None => "interrupted (Ctrl-C)".to_string(),
        };
        let p = self.lock();
        if p.done {
            return;
        }
        let left = files.get(p.next..).unwrap_or_default();
        let text = match json {
            true => left
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let (problem, seconds) = match i {
                        0 => (p.problem.clone(), p.started.elapsed().as_secs_f64()),
                        _ => (None, 0.0),
                    };
                    let line = json!({
                        "file": f,
                        "ok": false,
                        "error": format!("not checked: {why}"),
                    });
                    let problem = problem.unwrap_or(Value::Null);
                    let status = if limit.is_some() {
                        "time_limit"
                    } else {
                        "interrupted"
                    };
                    let v = envelope::wrapped(line, problem, status, seconds);
                    format!("{v}\n")
                })
                .collect(),
            false => {
                let names: Vec<String> = left.iter().map(|f| f.display().to_string()).collect();
                format!(
                    "{why}: {} of {} files checked; not checked: {}\n",
                    p.next,
                    files.len(),
                    names.join(", ")
                )
            }
        };
        crate::cli::args::out(&text);
        std::process::exit(if p.failed > 0 { 1 } else { 3 });
    }
}

/// Called first in a `cbc-system` child: it is killed when the check that started it ends,
/// however it ends (the time limit's `exit`, Ctrl-C, a crash), so no CBC call outlives the
/// check. A child whose check has already gone ends at once.
pub fn end_with_parent() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(PR_SET_PDEATHSIG) and getppid take no pointers and touch no memory.
        let orphan = unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::getppid() == 1
        };
        // Reparented to init before the signal was armed: the check ended already.
        if orphan {
            std::process::exit(3);
        }
    }
}
