//! A stop by Ctrl-C and a stop by the time limit, in the same round, report the same thing:
//! the bound rests on the finished rounds only. Its own test binary, since Ctrl-C is a
//! process-wide flag.

use solarmy::ip::solve::INTERRUPTED;
use solarmy::problem::Army;
use solarmy::search::minimum::{Request, Status, find_minimum};
use std::sync::atomic::Ordering;

#[test]
fn ctrl_c_and_time_limit_in_the_first_round_report_the_same_bound() {
    let timed = find_minimum(&Request {
        time_limit: Some(0.001),
        ..Request::new(Army::hexagonal(), 7)
    })
    .unwrap();
    INTERRUPTED.store(true, Ordering::Relaxed);
    let stopped = find_minimum(&Request::new(Army::hexagonal(), 7)).unwrap();
    INTERRUPTED.store(false, Ordering::Relaxed);
    assert_eq!(timed.status, Status::TimeLimit);
    assert_eq!(stopped.status, Status::Interrupted);
    for out in [&timed, &stopped] {
        // Nothing below the pagoda bound needed proving: the bound is proven as far as it goes.
        assert_eq!(out.lower_bound, out.pagoda_bound);
        assert!(out.board_proven);
        assert_eq!(out.min_size, None);
    }
}
