//! A test binary of its own, not a module of `propagators` or `search`: its global allocator
//! is the whole process's, so in a shared binary every other suite would run through it, and
//! the `unsafe` it needs would be allowed in all of them.
//!
//! The search loop allocates nothing per node once warm: a second run over the same tree
//! performs no heap allocation at all. Checked with a global allocator that counts the
//! allocations of the thread running the search only: the test harness's own threads allocate
//! now and then (that made this test fail about one run in four).

// A global allocator can only be written with `unsafe`; this one forwards every call unchanged
// to `System`, so it is exactly as sound as `System` itself. Library code stays unsafe-free.
#![allow(unsafe_code)]

use bezzel_core::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations are counted. A `const` cell: reading it never
    /// allocates, so the allocator may.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count_one() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged to the system allocator, whose contract the caller
        // already meets.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this `layout` (see `alloc`).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: as in `dealloc`; `new_size` is the caller's, passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

mod common;

fn queens(n: usize, var_order: VarOrder, consistency: Consistency) -> Solver {
    let (mut m, q) = common::queens(n, consistency).unwrap();
    // A linear and a binary constraint too, so that their propagators are exercised.
    m.linear(&[1, -1], &[q[0], q[1]], Relation::Le, n as i32)
        .unwrap();
    m.less_eq(q[2], q[3].offset(n as i32)).unwrap();
    Solver::with_config(
        m,
        SearchConfig {
            var_order,
            ..SearchConfig::default()
        },
    )
}

#[test]
fn a_warm_search_allocates_nothing() {
    let runs = [
        (VarOrder::SmallestDomain, Consistency::Value),
        (VarOrder::InputOrder, Consistency::Value),
        (VarOrder::DomWDeg, Consistency::Value),
        (VarOrder::SmallestDomain, Consistency::Bounds),
        (VarOrder::SmallestDomain, Consistency::Domain),
    ];
    for (order, consistency) in runs {
        let mut solver = queens(9, order, consistency);
        let warm_up = solver.count();
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        COUNTED.set(true);
        let again = solver.count();
        COUNTED.set(false);
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert_eq!(warm_up, 352);
        assert_eq!(again, 352);
        assert!(solver.stats().nodes > 300, "{}", solver.stats());
        assert_eq!(
            after - before,
            0,
            "{order:?}/{consistency:?}: allocations during a warm run"
        );
    }
}
