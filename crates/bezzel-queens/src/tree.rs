//! A queens search, recorded and drawn: the tree page of [`bezzel_core::search::tree`] with
//! the domains at a node shown as the board (one row per variable, a column per value).
//!
//! [`record`] runs any search of the model (its first solution, its count) with a recorder
//! watching, so that the page shows exactly the search whose answer the caller reports;
//! [`page_options`] says how the page draws it.
//!
//! ```
//! use bezzel_queens::{model::Queens, tree};
//!
//! let mut q = Queens::lexicographic(4)?;
//! let (count, recorded) = tree::record(&mut q, 1000, Queens::count);
//! assert_eq!(count, 2);
//! assert_eq!(recorded.total_solutions(), 2); // the two solutions of 4 queens, both drawn
//! assert!(recorded.to_html(&tree::page_options(4)).contains("4 queens"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::model::Queens;
use bezzel_core::search::tree::{self, Layout, PageOptions, SearchTree};

/// Runs `search` on the model with a recorder keeping at most `limit` nodes watching, and
/// returns its answer and the tree it searched (cut short when the model's cancel flag
/// stopped the search, and then drawn as far as it went).
pub fn record<T>(
    q: &mut Queens,
    limit: usize,
    search: impl FnOnce(&mut Queens) -> T,
) -> (T, SearchTree) {
    tree::start(q.solver_mut(), limit);
    let answer = search(q);
    let recorded = tree::take(q.solver_mut()).expect("the recorder put there");
    (answer, recorded)
}

/// How a page draws a search of `n` queens: titled `n queens`, the domains as a board.
pub fn page_options(n: usize) -> PageOptions {
    PageOptions {
        title: format!("{n} queens"),
        layout: Layout::Queens,
        symbols: Vec::new(),
    }
}
