//! Both fast counters, the bitmask one and the full-symmetry one, stop on their cancel flag:
//! a lowered flag changes no count, a raised one stops at once, and one raised from another
//! thread stops a count of days within seconds (the flag is looked at inside each subproblem's
//! search, not only between subproblems). One set of tests, written once for both.

use bezzel_queens::bitmask::BitmaskError;
use bezzel_queens::symmetry::UniqueCount;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// OEIS A000170, starting at n = 1.
const TOTAL: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
/// OEIS A002562, starting at n = 1.
const UNIQUE: [u64; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

macro_rules! cancel_tests {
    ($engine:ident, $expected:expr) => {
        mod $engine {
            use super::*;
            use bezzel_queens::$engine::{
                count_parallel_with_cancel, count_subproblem_with_cancel, subproblems,
            };

            #[test]
            fn a_lowered_flag_changes_nothing_and_a_raised_one_stops_at_once() {
                let lowered = AtomicBool::new(false);
                for n in 1..=12 {
                    assert_eq!(
                        count_parallel_with_cancel(n, Some(2), &lowered),
                        Ok($expected(n)),
                        "n = {n}"
                    );
                }
                let raised = AtomicBool::new(true);
                assert_eq!(
                    count_parallel_with_cancel(12, Some(2), &raised),
                    Err(BitmaskError::Cancelled)
                );
                let piece = &subproblems(12).unwrap()[0];
                assert_eq!(
                    count_subproblem_with_cancel(12, piece, &raised),
                    Err(BitmaskError::Cancelled)
                );
            }

            /// n = 21 has subproblems that take minutes each, and days in all.
            #[test]
            fn raising_the_flag_from_another_thread_stops_a_long_count() {
                let cancel = AtomicBool::new(false);
                std::thread::scope(|scope| {
                    let counting = scope.spawn(|| count_parallel_with_cancel(21, Some(2), &cancel));
                    std::thread::sleep(Duration::from_millis(300));
                    let raised = Instant::now();
                    cancel.store(true, Ordering::Relaxed);
                    assert_eq!(counting.join().unwrap(), Err(BitmaskError::Cancelled));
                    // Generous for a loaded machine; without polling inside the search
                    // this would be minutes.
                    assert!(
                        raised.elapsed() < Duration::from_secs(10),
                        "{:?}",
                        raised.elapsed()
                    );
                });
            }
        }
    };
}

cancel_tests!(bitmask, |n: usize| TOTAL[n - 1]);
cancel_tests!(symmetry_count, |n: usize| UniqueCount {
    unique: UNIQUE[n - 1],
    total: TOTAL[n - 1],
});
