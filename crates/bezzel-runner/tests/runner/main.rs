//! The runner's own tests, with subproblems of its own kinds (numbers, ranges) and ground
//! truth computed here: the checkpoint journal's refusals, and the distributed protocol with
//! ranks as threads. The tests that run constraint searches on the runner are bezzel-core's
//! (`tests/parallel`).

mod checkpoint;
mod distributed;
