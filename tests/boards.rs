//! Classical boards (issue 14): the English catalogue arrives at Bell's count, and the
//! 15-hole triangle agrees with an exhaustive search over all its positions.

use solarmy::peg::PegBoard;
use solarmy::peg::catalog;
use solarmy::peg::settle::Limits;
use std::path::Path;

fn board(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"))).unwrap()
}

/// Bell's catalogue: 21 solvable problems on the English board, up to symmetry.
#[test]
fn english_board_has_21_solvable_problems() {
    let b = board("english");
    let out = catalog::run(&b, &Limits::default(), |o| {
        eprintln!("{:?} {:?} {} {:.2}s ips {} cuts {}", o.vacancy, o.finish, o.verdict.reason(), o.seconds, o.ips, o.cuts)
    })
    .unwrap();
    assert!(out.iter().all(|o| o.verdict.solvable().is_some()));
    assert_eq!(catalog::solvable(&out), 21);
}
