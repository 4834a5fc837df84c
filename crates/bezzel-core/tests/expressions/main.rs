//! Modelling in expressions against ground truth from outside the lowering: random
//! expressions evaluated directly over every assignment, and models written both in
//! expressions and by hand that must search the same tree.

#[path = "../brute/mod.rs"]
mod brute;

mod lowering_against_evaluation;
mod node_counts;
mod scaled_views;
mod sums_against_evaluation;
mod surface;
