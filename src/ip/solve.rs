//! Running HiGHS on a [`Model`]: status, proven dual bound, solution, progress, interrupts.
//!
//! good_lp builds the model; what it hides (the MIP dual bound, the exact model status,
//! callbacks, the model writer) is read from the raw HiGHS instance through highs-sys. A
//! time-out or an interrupt is reported as such, with the bound proven so far: never as a
//! result.

use crate::error::Error;
use crate::ip::model::Model;
use indicatif::ProgressBar;
use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by the Ctrl-C handler; HiGHS is asked to stop at its next callback.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpStatus {
    Optimal,
    Infeasible,
    TimeLimit,
    Interrupted,
}

/// What HiGHS returned.
#[derive(Clone, Debug)]
pub struct IpSolution {
    pub status: IpStatus,
    /// Men in the best solution found, if any.
    pub objective: Option<u64>,
    /// Proven lower bound on the objective (rounded up); u64::MAX when infeasible.
    pub bound: u64,
    /// Board cells holding a man at the start, in the best solution found.
    pub start: Vec<usize>,
    /// (jump index, count) with count > 0.
    pub jumps: Vec<(usize, u32)>,
    /// Wall-clock seconds (what a user waits).
    pub seconds: f64,
    /// CPU seconds of the calling thread, on which HiGHS runs its branch and bound: its
    /// work, which unlike wall time does not grow with the machine's load, so what is
    /// decided from it (whether a certificate tree is tried) comes out the same on a
    /// busy machine.
    pub cpu_seconds: f64,
}

/// CPU seconds the calling thread has run so far (0 if the clock cannot be read).
pub fn thread_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    match unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } {
        0 => t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9,
        _ => 0.0,
    }
}

#[derive(Clone, Default)]
pub struct Options {
    /// Seconds HiGHS may run.
    pub time_limit: Option<f64>,
    /// A spinner to feed with incumbent and bound (None: silent).
    pub progress: Option<ProgressBar>,
    /// Label shown in front of the progress line.
    pub label: String,
    /// HiGHS stops as on Ctrl-C (status Interrupted) once this is set: a sweep's other
    /// worker found the army the round looks for, so this program's answer is not needed.
    pub stop: Option<Arc<AtomicBool>>,
}

struct CallbackState {
    progress: Option<ProgressBar>,
    label: String,
    last: Instant,
    stop: Option<Arc<AtomicBool>>,
}

/// Asks HiGHS to stop, from inside one of its callbacks, once Ctrl-C set [`INTERRUPTED`]
/// or `stop` is set.
///
/// # Safety
/// `input` is null or the input struct HiGHS passed to the callback being run.
pub(crate) unsafe fn pass_interrupt(
    input: *mut highs_sys::HighsCallbackDataIn,
    stop: Option<&AtomicBool>,
) {
    let asked =
        INTERRUPTED.load(Ordering::Relaxed) || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if asked && !input.is_null() {
        // SAFETY: by the caller's promise, a non-null input is HiGHS's own struct.
        unsafe { (*input).user_interrupt = 1 };
    }
}

unsafe extern "C" fn callback(
    _kind: c_int,
    _message: *const c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    input: *mut highs_sys::HighsCallbackDataIn,
    user: *mut c_void,
) {
    // SAFETY: HiGHS passes back the pointer given to Highs_setCallback, which outlives the run.
    let state = unsafe { &mut *(user as *mut CallbackState) };
    // SAFETY: `input` is what HiGHS passed to this callback.
    unsafe { pass_interrupt(input, state.stop.as_deref()) };
    if out.is_null() {
        return;
    }
    if let Some(pb) = &state.progress
        && state.last.elapsed() >= Duration::from_millis(200)
    {
        // SAFETY: non-null out is valid for the duration of the callback.
        let o = unsafe { &*out };
        let inc = if o.mip_primal_bound.abs() < 1e20 {
            format!("{:.0}", o.mip_primal_bound)
        } else {
            "-".into()
        };
        let bound = if o.mip_dual_bound.abs() < 1e20 {
            format!("{:.2}", o.mip_dual_bound)
        } else {
            "-".into()
        };
        pb.set_message(format!(
            "{}  {:>6.1}s  incumbent {inc}  bound {bound}  gap {:.1}%  nodes {}",
            state.label,
            o.running_time,
            o.mip_gap.min(1.0) * 100.0,
            o.mip_node_count
        ));
        state.last = Instant::now();
    }
}

/// The model file formats HiGHS writes, by extension.
pub const MODEL_FORMATS: [&str; 2] = ["mps", "lp"];

/// Whether `path` names a model file format HiGHS writes (checked before any solving).
pub fn check_model_path(path: &Path) -> Result<(), Error> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if MODEL_FORMATS.contains(&ext.to_ascii_lowercase().as_str()) {
        return Ok(());
    }
    Err(Error::Input(format!(
        "{}: a model file is written as .mps or .lp (the extension chooses the format)",
        path.display()
    )))
}

/// Writes the model exactly as it would be solved; the format follows the extension
/// (.mps or .lp), by the HiGHS writer, with the columns and rows named after jumps and cells.
pub fn write_model(model: Model, path: &Path) -> Result<(), Error> {
    check_model_path(path)?;
    let names = model.names.clone();
    let mut inner = model
        .problem
        .try_into_inner()
        .map_err(|e| Error::Solver(format!("HiGHS could not build the model: {e}")))?;
    if let Some((cols, rows)) = names {
        name_columns_and_rows(inner.as_mut_ptr(), &cols, &rows)?;
    }
    let c = CString::new(path.to_string_lossy().as_bytes())
        .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    // SAFETY: a live HiGHS instance and a NUL-terminated path.
    let status = unsafe { highs_sys::Highs_writeModel(inner.as_mut_ptr(), c.as_ptr()) };
    if status < 0 {
        return Err(Error::Solver(format!(
            "HiGHS could not write {}",
            path.display()
        )));
    }
    Ok(())
}

/// Gives HiGHS the names of the columns and of the first rows; the remaining rows are named
/// `side_<k>` (HiGHS writes a file only when every name is given or none).
fn name_columns_and_rows(
    highs: *mut std::ffi::c_void,
    cols: &[String],
    rows: &[String],
) -> Result<(), Error> {
    let bad = |what: &str| Error::Solver(format!("HiGHS refused the {what} names"));
    // SAFETY: a live HiGHS instance; every name is NUL-terminated and outlives the call.
    let (ncol, nrow) = unsafe {
        (
            highs_sys::Highs_getNumCol(highs),
            highs_sys::Highs_getNumRow(highs),
        )
    };
    if ncol as usize != cols.len() {
        return Ok(()); // not the layout the names describe: leave HiGHS's own
    }
    for (i, n) in cols.iter().enumerate() {
        let n = CString::new(n.as_str()).map_err(|_| bad("column"))?;
        if unsafe { highs_sys::Highs_passColName(highs, i as _, n.as_ptr()) } < 0 {
            return Err(bad("column"));
        }
    }
    for i in 0..nrow as usize {
        // Past the named rows: the side constraints, counted from 0.
        let n = rows
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("side_{}", i - rows.len()));
        let n = CString::new(n).map_err(|_| bad("row"))?;
        if unsafe { highs_sys::Highs_passRowName(highs, i as _, n.as_ptr()) } < 0 {
            return Err(bad("row"));
        }
    }
    Ok(())
}

/// Solves the model with HiGHS.
pub fn solve(model: Model, opts: &Options) -> Result<IpSolution, Error> {
    // After Ctrl-C nothing new starts: HiGHS would presolve and solve the root LP before its
    // first interrupt check, which on the largest programs takes seconds.
    if INTERRUPTED.load(Ordering::Relaxed) {
        return Ok(IpSolution {
            status: IpStatus::Interrupted,
            objective: None,
            bound: 0,
            start: Vec::new(),
            jumps: Vec::new(),
            seconds: 0.0,
            cpu_seconds: 0.0,
        });
    }
    let (t0, c0) = (Instant::now(), thread_seconds());
    let start_cells = model.start_cells.clone();
    let mut inner = model
        .problem
        .try_into_inner()
        .map_err(|e| Error::Solver(format!("HiGHS could not build the model: {e}")))?;
    inner.make_quiet();
    inner.set_option("mip_rel_gap", 0.0);
    // The objective counts men, so any bound above k − 1 proves k.
    inner.set_option("mip_abs_gap", 0.999);
    if let Some(t) = opts.time_limit {
        inner.set_option("time_limit", t.max(0.01));
    }
    let mut state = Box::new(CallbackState {
        progress: opts.progress.clone(),
        label: opts.label.clone(),
        last: Instant::now() - Duration::from_secs(1),
        stop: opts.stop.clone(),
    });
    // SAFETY: the state box lives until after the run; the callback only reads HiGHS data.
    unsafe {
        let p = inner.as_mut_ptr();
        highs_sys::Highs_setCallback(
            p,
            Some(callback),
            &mut *state as *mut CallbackState as *mut c_void,
        );
        highs_sys::Highs_startCallback(p, highs_sys::kHighsCallbackMipInterrupt);
        highs_sys::Highs_startCallback(p, highs_sys::kHighsCallbackMipImprovingSolution);
    }
    let solved = inner
        .try_solve()
        .map_err(|e| Error::Solver(format!("HiGHS failed: {e:?}")))?;
    drop(state);
    use highs::HighsModelStatus as S;
    let status = match solved.status() {
        S::Optimal => IpStatus::Optimal,
        S::Infeasible => IpStatus::Infeasible,
        S::ReachedTimeLimit => IpStatus::TimeLimit,
        S::ReachedInterrupt => IpStatus::Interrupted,
        other => {
            return Err(Error::Solver(format!("HiGHS ended with status {other:?}")));
        }
    };
    let (objective, start, jumps) = point(&solved, status, &start_cells);
    let bound = proven_bound(&solved, status, objective);
    Ok(IpSolution {
        status,
        objective,
        bound,
        start,
        jumps,
        seconds: t0.elapsed().as_secs_f64(),
        cpu_seconds: thread_seconds() - c0,
    })
}

/// The men and jump counts of HiGHS's point (rounded; the replay checks them), when it has one
/// and the program is not infeasible.
fn point(
    solved: &highs::SolvedModel,
    status: IpStatus,
    start_cells: &[usize],
) -> (Option<u64>, Vec<usize>, Vec<(usize, u32)>) {
    let has_solution = solved
        .int_info_value(c"primal_solution_status")
        .map(|s| s == 2)
        .unwrap_or(false);
    if !has_solution || status == IpStatus::Infeasible {
        return (None, Vec::new(), Vec::new());
    }
    let n_start = start_cells.len();
    let sol = solved.get_solution();
    let cols = sol.columns();
    let start: Vec<usize> = (0..n_start)
        .filter(|&i| cols[i] > 0.5)
        .map(|i| start_cells[i])
        .collect();
    let jumps: Vec<(usize, u32)> = cols[n_start..]
        .iter()
        .enumerate()
        .filter(|(_, v)| **v > 0.5)
        .map(|(j, v)| (j, v.round() as u32))
        .collect();
    (Some(start.len() as u64), start, jumps)
}

/// The lower bound on the men the run proved: everything when infeasible, the optimum when
/// optimal, else HiGHS's dual bound rounded up.
fn proven_bound(solved: &highs::SolvedModel, status: IpStatus, objective: Option<u64>) -> u64 {
    match status {
        IpStatus::Infeasible => u64::MAX,
        IpStatus::Optimal => objective.unwrap_or(u64::MAX),
        _ => {
            let b = solved.double_info_value(c"mip_dual_bound").unwrap_or(0.0);
            // Round up, with a tolerance for HiGHS's floating point.
            if b.is_finite() {
                (b - 1e-6).ceil().max(0.0) as u64
            } else {
                0
            }
        }
    }
}
