//! Every bit-parallel counter (the bitmask one, the full-symmetry one and the
//! enumerate-and-test one) stops on its cancel flag: a lowered flag changes no count, a raised
//! one stops at once, and one raised from another thread stops a count of days within seconds
//! (the flag is looked at inside each subproblem's search, not only between subproblems). One
//! set of tests, written once for all of them.

use bezzel_queens::bitmask::{BitmaskCounter, BitmaskError};
use bezzel_queens::counter::SplitCounter;
use bezzel_queens::counting::count_pieces;
use bezzel_queens::symmetry::{CanonicalCounter, UniqueCount};
use bezzel_queens::symmetry_count::SymmetryCounter;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// OEIS A000170, starting at n = 1.
const TOTAL: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
/// OEIS A002562, starting at n = 1.
const UNIQUE: [u64; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

fn total(n: usize) -> u64 {
    TOTAL[n - 1]
}

fn unique_and_total(n: usize) -> UniqueCount {
    UniqueCount {
        unique: UNIQUE[n - 1],
        total: TOTAL[n - 1],
    }
}

/// Counter `C` with a lowered flag counts as without one (against `expected`), and with a
/// raised one gives up at once, over many pieces or one.
fn lowered_and_raised<C: SplitCounter>(expected: impl Fn(usize) -> C::Count) {
    let lowered = AtomicBool::new(false);
    for n in 1..=12 {
        assert_eq!(
            count_pieces::<C>(n, Some(2), Some(&lowered), |_, _| {}),
            Ok(expected(n)),
            "n = {n}"
        );
    }
    let raised = AtomicBool::new(true);
    assert_eq!(
        count_pieces::<C>(12, Some(2), Some(&raised), |_, _| {}),
        Err(BitmaskError::Cancelled)
    );
    let piece = &C::subproblems(12).unwrap()[0];
    assert_eq!(
        C::count_subproblem_with_cancel(12, piece, &raised),
        Err(BitmaskError::Cancelled)
    );
}

/// Counter `C` gives up on 21 queens, which has subproblems that take minutes each and days in
/// all, soon after the flag is raised.
fn raised_from_another_thread<C: SplitCounter>() {
    let cancel = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let counting = scope.spawn(|| count_pieces::<C>(21, Some(2), Some(&cancel), |_, _| {}));
        std::thread::sleep(Duration::from_millis(300));
        let raised = Instant::now();
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(
            counting.join().unwrap(),
            Err(BitmaskError::Cancelled),
            "{:?}",
            C::NAME
        );
        // Generous for a loaded machine; without polling inside the search this would be
        // minutes.
        assert!(
            raised.elapsed() < Duration::from_secs(10),
            "{:?}",
            raised.elapsed()
        );
    });
}

#[test]
fn a_lowered_flag_changes_nothing_and_a_raised_one_stops_at_once() {
    lowered_and_raised::<BitmaskCounter>(total);
    lowered_and_raised::<SymmetryCounter>(unique_and_total);
    lowered_and_raised::<CanonicalCounter>(unique_and_total);
}

#[test]
fn raising_the_flag_from_another_thread_stops_a_long_count() {
    raised_from_another_thread::<BitmaskCounter>();
    raised_from_another_thread::<SymmetryCounter>();
    raised_from_another_thread::<CanonicalCounter>();
}
