//! Regiments: which of the two men of the final position each man of an army feeds.
//!
//! Every play that reaches the target ends with a jump from 2d over d into (0,0). Just before
//! it two men matter: the man on 2d, who makes the last jump and ends on the target (the
//! *target man*), and the man on d, whom that jump removes (the *d man*). The paper's
//! Figures 8–12 colour an army by which of the two each man helps to bring into place; this
//! module makes that precise.
//!
//! A man keeps his identity as he jumps. Every man who does not survive is removed exactly
//! once, by the man who jumps over him: his *remover*. The remover relation is a forest whose
//! roots are the men still standing at the end. Walking the play backwards from its last jump:
//! - the target man (the jumper of the last jump) is in regiment [`Regiment::Target`];
//! - the d man (the man the last jump removes) is in regiment [`Regiment::Over`];
//! - every other removed man is in his remover's regiment, recursively;
//! - a man who is still standing at the end without being the target man, and every man
//!   removed on his behalf, is in no regiment ([`Regiment::Spare`]); a minimum army has none.
//!
//! So the d regiment is the d man, the men he removed on his way to d, the men they removed
//! on their way to where he jumped them, and so on: everything spent on bringing a man to d.
//! The target regiment is everything spent on bringing the target man to 2d, and the target
//! man himself. The two regiments partition a minimum army.

use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use std::collections::HashMap;

/// Which final man a man of the army feeds; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Regiment {
    /// The man who makes the last jump and ends on the target, and the men he spent.
    Target,
    /// The man the last jump passes over (on d), and the men he spent.
    Over,
    /// Neither: a man left standing elsewhere at the end, and the men he spent.
    Spare,
}

/// The regiment of every man of `army` (same order) under `play`. A play that is empty, or
/// that jumps from or over an empty cell, puts every man in [`Regiment::Spare`].
pub fn regiments(army: &[Cell], play: &[Step]) -> Vec<Regiment> {
    let spare = vec![Regiment::Spare; army.len()];
    let mut on: HashMap<Cell, usize> = army.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut remover: Vec<Option<usize>> = vec![None; army.len()];
    let mut last = None;
    for s in play {
        let (Some(jumper), Some(victim)) = (on.remove(&s.from), on.remove(&s.over)) else {
            return spare;
        };
        remover[victim] = Some(jumper);
        on.insert(s.to, jumper);
        last = Some((jumper, victim));
    }
    let Some((target_man, d_man)) = last else {
        return spare;
    };
    (0..army.len())
        .map(|mut m| {
            loop {
                if m == d_man {
                    return Regiment::Over;
                }
                if m == target_man {
                    return Regiment::Target;
                }
                match remover[m] {
                    Some(r) => m = r,
                    None => return Regiment::Spare,
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Regiment::*;

    fn s(from: Cell, over: Cell, to: Cell) -> Step {
        Step { from, over, to }
    }

    #[test]
    fn regiments_follow_the_remover_chain() {
        // The last jump is (2,0) over d = (1,0) into the target.
        let army = [
            Cell::xy(2, 2), // T, removed by R
            Cell::xy(1, 2), // R, removed by E
            Cell::xy(4, 2), // E, the target man
            Cell::xy(2, 1), // F, removed by E
            Cell::xy(3, 0), // G, the d man
            Cell::xy(2, 0), // H, removed by G
            Cell::xy(9, 9), // S, left standing
            Cell::xy(9, 8), // U, removed by S
        ];
        let play = [
            s(Cell::xy(9, 9), Cell::xy(9, 8), Cell::xy(9, 7)),
            s(Cell::xy(3, 0), Cell::xy(2, 0), Cell::xy(1, 0)),
            s(Cell::xy(1, 2), Cell::xy(2, 2), Cell::xy(3, 2)),
            s(Cell::xy(4, 2), Cell::xy(3, 2), Cell::xy(2, 2)),
            s(Cell::xy(2, 2), Cell::xy(2, 1), Cell::xy(2, 0)),
            s(Cell::xy(2, 0), Cell::xy(1, 0), Cell::ORIGIN),
        ];
        assert_eq!(
            regiments(&army, &play),
            vec![Target, Target, Target, Target, Over, Over, Spare, Spare]
        );
    }

    #[test]
    fn regiments_of_no_play_or_a_broken_one_are_spare() {
        let army = [Cell::xy(0, 1), Cell::xy(0, 2)];
        assert_eq!(regiments(&army, &[]), vec![Spare; 2]);
        // The second jump starts from an empty cell.
        let play = [
            s(Cell::xy(0, 2), Cell::xy(0, 1), Cell::ORIGIN),
            s(Cell::xy(0, 2), Cell::xy(0, 1), Cell::ORIGIN),
        ];
        assert_eq!(regiments(&army, &play), vec![Spare; 2]);
        assert_eq!(regiments(&army, &play[..1]), vec![Over, Target]);
    }
}
