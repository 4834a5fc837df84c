//! A propagator posted after `Model::propagate` must size its value window from the declared
//! domains: the search starts from them again, not from the narrowed ones. Here a Hall set
//! narrows `a` to {0, 1} before the second `all_different` is posted; the search undoes that,
//! so a prefix fixing `a` to 60 puts `a + 10 = 70` outside a window sized from the narrowed
//! domain (this panicked with a shift overflow in debug builds and noted a wrong value in
//! release builds).

use bezzel_core::prelude::*;

fn build(consistency: Consistency) -> (Model, VarId) {
    let mut m = Model::new();
    let a = m.int_var(0..=63).unwrap();
    let b = m.int_var(0..=63).unwrap();
    let c = m.int_var(0..=63).unwrap();
    let mut hall = vec![a];
    hall.extend(m.int_vars(62, 2..=63).unwrap());
    m.all_different_with(&hall, Consistency::Domain).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(a).unwrap(), vec![0, 1]);
    m.all_different_with(&[a.offset(10), b.into(), c.into()], consistency)
        .unwrap();
    (m, a)
}

#[test]
fn a_prefix_outside_the_narrowed_domain_is_refuted_at_every_level() {
    for consistency in [Consistency::Value, Consistency::Bounds, Consistency::Domain] {
        let (m, a) = build(consistency);
        let mut s = Solver::new(m);
        let count = s.count_in(&[Decision::Assign(a, 60)]).unwrap();
        assert_eq!(count, 0, "{consistency}");
    }
}

#[test]
fn the_whole_search_agrees_with_a_model_that_never_propagated_early() {
    for consistency in [Consistency::Value, Consistency::Bounds, Consistency::Domain] {
        let (m, _) = build(consistency);
        let early = Solver::new(m).first().is_some();
        let mut fresh = Model::new();
        let a = fresh.int_var(0..=1).unwrap();
        let b = fresh.int_var(0..=63).unwrap();
        let c = fresh.int_var(0..=63).unwrap();
        fresh
            .all_different_with(&[a.offset(10), b.into(), c.into()], consistency)
            .unwrap();
        assert_eq!(early, Solver::new(fresh).first().is_some(), "{consistency}");
    }
}
