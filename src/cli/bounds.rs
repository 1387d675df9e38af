//! `solarmy bounds`: what the pagoda functions alone say of each level of an army
//! ([`crate::report::bounds`]), with the integer programs' bounds of a results directory.

use crate::cli::args::{BoundsArgs, Error, emit, emitln, parse_army};
use crate::cli::envelope;
use crate::problem::Army;
use crate::report::bounds::{self, ArmyBounds};
use crate::report::export;
use serde_json::json;

/// `solarmy bounds`.
pub fn bounds(a: &BoundsArgs) -> Result<u8, Error> {
    let armies = match (&a.army, &a.model) {
        (Some(s), _) => vec![parse_army(s)?],
        (None, Some(path)) => vec![Army::read(path).map_err(Error::usage)?],
        (None, None) => Army::all().to_vec(),
    };
    let computed = match &a.results {
        None => Vec::new(),
        Some(dir) => computed(dir)?,
    };
    let t0 = std::time::Instant::now();
    let problems: Vec<_> = armies
        .iter()
        .map(|&x| envelope::model(x.name(), &x.problem().spec))
        .collect();
    // One army is one problem; all five, the list of them.
    let problem = match problems.as_slice() {
        [one] => one.clone(),
        _ => json!(problems),
    };
    envelope::watchdog(a.time_limit, a.json, problem.clone());
    let mut all: Vec<_> = armies.into_iter().map(bounds::army_bounds).collect();
    for b in &mut all {
        for l in &mut b.levels {
            if let Some(r) = computed
                .iter()
                .find(|r| r.army == b.army.name() && r.level == l.level)
            {
                l.computed = Some(r.clone());
            }
        }
    }
    envelope::answered();
    if let Some(dir) = &a.out {
        crate::cli::args::check_writable(dir)?;
        crate::files::write_atomic(&dir.join("bounds.csv"), csv(&all).as_bytes())?;
    }
    if a.json {
        let mut armies = json!(all);
        if let Some(list) = armies.as_array_mut() {
            for (entry, p) in list.iter_mut().zip(&problems) {
                entry["problem"] = p.clone();
                // `army` holds men in every command's JSON: the name is the problem's.
                drop_names(entry);
            }
        }
        let seconds = t0.elapsed().as_secs_f64();
        let doc = envelope::wrapped(json!({ "armies": armies }), problem, "complete", seconds);
        emitln(&doc.to_string())?;
        return Ok(0);
    }
    let mut s = String::new();
    let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
    for b in &all {
        // The standard function's limit: an upper bound on the highest reachable level
        // (a desert's improved functions rule out more, and 3-D's top is open).
        s += &format!(
            "{} army: pagoda limit level {} (the standard pagoda function rules out every level above it)\n",
            b.army, b.max_level
        );
        if a.results.is_some() {
            s += "  level  pagoda bound  IP bound  best army  status      slack of the heaviest army\n";
        } else {
            s += "  level  pagoda bound  slack of the heaviest army\n";
        }
        for l in &b.levels {
            let slack = format!("{} = {} ≈ {:.3e}", l.slack_sigma, l.slack, l.slack_value);
            if a.results.is_none() {
                s += &format!("  {:>5}  {:>12}  {slack}\n", l.level, l.lower_bound);
                continue;
            }
            let (ip, best, status) = match &l.computed {
                Some(r) => (show(r.lower_bound), show(r.min_size), r.status.clone()),
                None => ("-".into(), "-".into(), "-".into()),
            };
            s += &format!(
                "  {:>5}  {:>12}  {:>8}  {:>9}  {:<10}  {slack}\n",
                l.level, l.lower_bound, ip, best, status
            );
        }
    }
    emit(&s)?;
    Ok(0)
}

/// The rows of DIR/min-sizes.csv (`--results DIR`).
fn computed(dir: &std::path::Path) -> Result<Vec<export::MinSizeRow>, Error> {
    if !dir.is_dir() {
        return Err(Error::usage(format!(
            "--results {}: no such directory",
            dir.display()
        )));
    }
    let file = dir.join("min-sizes.csv");
    if !file.is_file() {
        return Err(Error::usage(format!(
            "--results {}: holds no min-sizes.csv",
            dir.display()
        )));
    }
    Ok(export::read_min_sizes(&file)?)
}

/// DIR/bounds.csv: one row per army and level.
fn csv(all: &[ArmyBounds]) -> String {
    let mut s = String::from("army,level,pagoda_bound,last_jump_x,last_jump_y,slack,slack_value\n");
    for b in all {
        for l in &b.levels {
            s += &format!(
                "{},{},{},{},{},{},{:e}\n",
                b.army.name(),
                l.level,
                l.lower_bound,
                l.last_jump.0,
                l.last_jump.1,
                l.slack,
                l.slack_value
            );
        }
    }
    s
}

/// Removes `army` where it names the army, in an army's entry and in each level's
/// `computed` row (the name is the entry's `problem`).
fn drop_names(entry: &mut serde_json::Value) {
    entry.as_object_mut().map(|o| o.remove("army"));
    for l in entry["levels"].as_array_mut().into_iter().flatten() {
        l["computed"].as_object_mut().map(|o| o.remove("army"));
    }
}
