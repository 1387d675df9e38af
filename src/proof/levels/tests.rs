//! Tests of the checker's search by levels: merging, children against a fresh computation, threads against one.

use super::*;

/// A 5 × 5 square's holes (index 5y + x) and its jumps along rows and columns.
fn square() -> Vec<(usize, usize, usize)> {
    let mut jumps = Vec::new();
    for y in 0..5 {
        for x in 0..3 {
            jumps.push((5 * y + x, 5 * y + x + 1, 5 * y + x + 2));
            jumps.push((5 * y + x + 2, 5 * y + x + 1, 5 * y + x));
            jumps.push((5 * x + y, 5 * x + y + 5, 5 * x + y + 10));
            jumps.push((5 * x + y + 10, 5 * x + y + 5, 5 * x + y));
        }
    }
    jumps
}

#[test]
fn merging_keeps_each_position_once_in_order() {
    assert_eq!(merge(&[1, 3, 5], &[2, 3, 6, 9]), vec![1, 2, 3, 5, 6, 9]);
    assert_eq!(merge(&[], &[4]), vec![4]);
    assert_eq!(merge(&[7], &[]), vec![7]);
    let (a, b) = ([1, 3, 5, 7, 9], [2, 3, 4, 9, 10, 11]);
    assert_eq!(merge(&a, &b), vec![1, 2, 3, 4, 5, 7, 9, 10, 11]);
    assert_eq!(merge(&[], &b), b.to_vec());
    assert_eq!(merge(&a, &[]), a.to_vec());
}

/// The square's eight symmetries as permutations of its holes.
fn turns() -> Vec<Vec<usize>> {
    type Map = fn(usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |x, y| (x, y),
        |x, y| (4 - x, y),
        |x, y| (x, 4 - y),
        |x, y| (4 - x, 4 - y),
        |x, y| (y, x),
        |x, y| (4 - y, x),
        |x, y| (y, 4 - x),
        |x, y| (4 - y, 4 - x),
    ];
    maps.iter()
        .map(|m| {
            (0..25)
                .map(|h| {
                    let (x, y) = m(h % 5, h / 5);
                    5 * y + x
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_child_built_from_its_parent_is_the_child_computed_afresh() {
    let jumps = square();
    let perms = turns();
    let canon = Canon::new(25, &perms);
    // Any weights do here: only the arithmetic is compared, not the pruning's premise.
    let w: Vec<i64> = (0..25).map(|h| (h as i64 * 7) % 5 - 2).collect();
    for forward in [true, false] {
        let values = Values::new(25, vec![(w.clone(), 0), (vec![1; 25], 12)], forward);
        let moves = Step::moves(&jumps, &canon, &values, forward);
        let (mut vals, mut imgs) = (vec![0i64; 2], vec![0u64; 8]);
        for seed in 0..2000u64 {
            let p = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 39;
            values.values(p, &mut vals);
            canon.images(p, &mut imgs);
            for m in moves
                .iter()
                .filter(|m| p & m.full == m.full && p & m.empty == 0)
            {
                let q = p ^ m.flip;
                assert_eq!(canon.least_after(q, &imgs, &m.flips), canon.least(q));
                assert_eq!(values.pruned_after(&vals, &m.change), values.pruned(q));
            }
        }
    }
}

#[test]
fn a_level_built_on_threads_is_the_level_built_on_one() {
    let jumps = square();
    let canon = Canon::new(25, &[]);
    let values = Values::new(25, Vec::new(), true);
    let step = Step {
        moves: &Step::moves(&jumps, &canon, &values, true),
        max_level: usize::MAX,
        canon: &canon,
        values: &values,
    };
    let mut level = vec![((1u64 << 25) - 1) ^ (1 << 12)];
    for _ in 0..4 {
        let one = step.expand(&level).unwrap();
        assert_eq!(step.next_on(&level, 3, 1).unwrap(), one);
        level = one;
    }
    assert!(level.len() > 100);
    let capped = Step {
        max_level: 10,
        ..step
    };
    assert_eq!(capped.next_on(&level, 3, 1), None);
}
