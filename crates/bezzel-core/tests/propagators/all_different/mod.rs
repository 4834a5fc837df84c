//! All-different at every level, and the family that propagates domain-level all-differents
//! sharing variables as one propagator: each suite checks it against ground truth that never
//! goes through the family (the units posted one by one, enumeration, matchings written here).
//! CI runs these suites a second time with `BEZZEL_NO_AVX2=1` (the family's plain kernels):
//! `cargo test -p bezzel-core --test propagators -- all_different::`.

mod family_consistency;
mod family_equals_units;
mod family_fixpoint;
mod family_kernels;
mod family_odd_shapes;
mod levels;
mod offset_families;
mod seven_open_cells;
