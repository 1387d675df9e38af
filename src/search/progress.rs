//! The live display of a long command, one look for all of them: a bar with its unit of work
//! (`problem 3/151`, `last jump 2/4`, `program 5/12`), the time spent and an estimate of the
//! time left, or a spinner with the time spent where the work has no known end (the rounds of
//! a climb). Both clear their line when finished or dropped, so none is left above the
//! answer. Whether to draw at all is the caller's: not under `-q`, nor when stderr is not a
//! terminal (`Display::progress` in the command layer).

use indicatif::{HumanDuration, ProgressBar, ProgressFinish, ProgressState, ProgressStyle};
use std::time::Duration;

/// A bar of `len` units named `unit` ("problems", "cases"), or None when `shown` is false.
pub fn bar(shown: bool, len: usize, unit: &str) -> Option<ProgressBar> {
    shown.then(|| {
        let pb = ProgressBar::new(len as u64).with_finish(ProgressFinish::AndClear);
        let template = format!(
            "{{bar:30}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} ({{left}})  {{wide_msg}}"
        );
        if let Ok(style) = ProgressStyle::with_template(&template) {
            pb.set_style(style.with_key("left", left));
        }
        pb.enable_steady_tick(Duration::from_millis(250));
        pb
    })
}

/// The time left, estimated from the units done; "?" before the first is done.
fn left(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = match state.pos() {
        0 => write!(w, "? left"),
        _ => write!(w, "about {:#} left", HumanDuration(state.eta())),
    };
}

/// A spinner with the time spent and a message, or None when `shown` is false.
pub fn spinner(shown: bool) -> Option<ProgressBar> {
    shown.then(|| {
        let pb = ProgressBar::new_spinner().with_finish(ProgressFinish::AndClear);
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise}  {wide_msg}") {
            pb.set_style(style);
        }
        pb.enable_steady_tick(Duration::from_millis(250));
        pb
    })
}

/// A line that does not disturb the display: above the bar when there is one, else on
/// stderr.
pub fn say(pb: Option<&ProgressBar>, line: &str) {
    match pb {
        Some(pb) => pb.println(line),
        None => eprintln!("{line}"),
    }
}
