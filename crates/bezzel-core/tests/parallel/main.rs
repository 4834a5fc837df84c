//! Parallel search on the runner: counts and solution sets equal sequential search's
//! ([`search`]), checkpoint journals of constraint-search splits survive damage, edits, tears
//! and sharing ([`checkpoint`]), and distributed runs on ranks as threads count A000170 and
//! resume ([`distributed`]). The runner's tests of its own are bezzel-runner's.

#[path = "../common/mod.rs"]
mod common;

use common::queens;

mod checkpoint;
mod distributed;
mod search;
