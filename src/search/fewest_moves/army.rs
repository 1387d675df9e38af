//! An army's fewest moves (`moves --army A --level N --from ARMY_CSV`) as library calls: the
//! seed play chosen ([`seed_play`]: an explicit play, else the army file's sibling play), what
//! an earlier run kept taken ([`resume()`]: its proven bound and its best play, from
//! [`super::resume`]), and the search of [`crate::play::moves`] run from there ([`solve`]),
//! its play replayed by the independent checker and the state written again for the next run.
//! Two calls, not one, so that a caller may start its display between them: what [`resume()`]
//! says on stderr comes before it.

use super::replayed_as_reported;
use super::resume::{self, State};
use crate::error::{Error, Result};
use crate::play::moves::{self, Answer, Options, Problem};
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::verify::{self, Step};
use std::path::{Path, PathBuf};

/// A reader of play files (the commands pass [`crate::report::export::read_play`], the CSV
/// reader, which lives on a floor above this one).
pub type ReadPlay<'a> = &'a dyn Fn(&Path) -> Result<Vec<Step>>;

/// The sibling play file of `.../<stem>-army.csv`, if the name fits.
pub fn sibling_play(army_csv: &Path) -> Option<PathBuf> {
    let name = army_csv.file_name()?.to_str()?;
    let stem = name.strip_suffix("-army.csv")?;
    Some(army_csv.with_file_name(format!("{stem}-play.csv")))
}

/// The seed play of the army `men` (read from `from`) at `level`: the play of `seed` when
/// given, which must replay; else the army file's sibling play when it exists and replays;
/// else none. A sibling that does not replay is no error: the note says why it was not used.
pub fn seed_play(
    seed: Option<&Path>,
    from: &Path,
    (army, level, men): (Army, i32, &[Cell]),
    read: ReadPlay,
) -> Result<(Option<Vec<Step>>, Option<String>)> {
    let lattice = army.lattice();
    if let Some(path) = seed {
        let play = read(path)?;
        verify::replay(&lattice, level, men, &play)
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
        return Ok((Some(play), None));
    }
    let Some(path) = sibling_play(from).filter(|p| p.exists()) else {
        return Ok((None, None));
    };
    match read(&path).and_then(|play| verify::replay(&lattice, level, men, &play).map(|_| play)) {
        Ok(play) => Ok((Some(play), None)),
        Err(e) => Ok((
            None,
            Some(format!(
                "{} not used as a seed: {e}",
                path.to_string_lossy()
            )),
        )),
    }
}

/// What a search starts from: the state file (with an output directory), what an earlier run
/// kept in it, and the seed play.
pub struct Resumed {
    pub path: Option<PathBuf>,
    pub earlier: Option<State>,
    pub seed: Option<Vec<Step>>,
}

/// The state an earlier run kept in `out` for this problem (one line on stderr when one is
/// ignored), and the seed: `seed`, or the earlier run's best play when it is shorter and
/// replays.
pub fn resume(
    out: Option<&Path>,
    (army, level, men): (Army, i32, &[Cell]),
    seed: Option<Vec<Step>>,
) -> Resumed {
    let path = out.map(|dir| resume::path(dir, army.name(), level));
    let earlier = (path.as_ref()).and_then(|p| resume::read(p, army.name(), level, men));
    let lattice = army.lattice();
    let replay = |p: &[Step]| verify::replay(&lattice, level, men, p).map_err(|e| e.to_string());
    let seed = resumed_seed(seed, earlier.as_ref(), &replay);
    Resumed {
        path,
        earlier,
        seed,
    }
}

/// The seed, or the earlier run's best play when it is shorter and replays (one that does not
/// is dropped with a line saying so).
pub fn resumed_seed(
    seed: Option<Vec<Step>>,
    earlier: Option<&State>,
    replay: &dyn Fn(&[Step]) -> std::result::Result<verify::Replay, String>,
) -> Option<Vec<Step>> {
    let moves = |p: &Vec<Step>| verify::count_moves(p);
    let Some(kept) = earlier.and_then(|s| s.play.clone()) else {
        return seed;
    };
    if let Err(e) = replay(&kept) {
        eprintln!("solarmy: the recorded best play is not used: {e}");
        return seed;
    }
    match seed {
        Some(s) if moves(&s) <= moves(&kept) => Some(s),
        _ => Some(kept),
    }
}

/// The fewest moves of the army `men` at `level` (`problem`, [`Problem::army`]), searched by
/// [`crate::play::moves::solve`] with `opts`, from the seed and the bound of `resumed` (they
/// replace `opts.seed` and `opts.resume_depth`): the play replayed as reported, the positions
/// of the depths an earlier run searched taken from it, and the state written again.
pub fn solve(
    problem: &Problem,
    (army, level, men): (Army, i32, &[Cell]),
    resumed: Resumed,
    mut opts: Options,
) -> Result<Answer> {
    let Resumed {
        path,
        earlier,
        seed,
    } = resumed;
    opts.seed = seed;
    opts.resume_depth = earlier.as_ref().map_or(0, |s| s.lower_bound);
    let mut ans = moves::solve(problem, opts).map_err(Error::Solver)?;
    let lattice = army.lattice();
    let replay = |p: &[Step]| verify::replay(&lattice, level, men, p).map_err(|e| e.to_string());
    replayed_as_reported(ans.play.as_deref(), ans.play_moves, &replay)?;
    if let (Some(s), Some(d)) = (&earlier, ans.resumed_below) {
        ans.positions = resume::merged(&s.positions, &ans.positions, d);
    }
    if let Some(path) = &path {
        resume::write(
            path,
            (army.name(), level, men),
            ans.lower_bound,
            &ans.positions,
            ans.play.as_deref(),
        )?;
    }
    Ok(ans)
}
