//! The Golomb ruler of `examples/golomb.rs`: optimal lengths against the published values
//! and the rulers found, checked from the definition.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../../examples/golomb.rs"]
mod golomb;

/// The marks and proven length of the optimal ruler that `examples/golomb.rs` finds.
fn optimal_ruler(n: usize) -> (Vec<i32>, i32) {
    let (mut solver, marks) = golomb::golomb(n).unwrap();
    let best = solver.minimize(marks[n - 1]).unwrap().finish();
    assert!(best.optimal, "{n} marks: not proven optimal");
    (
        best.solution.unwrap().values_of(&marks),
        best.value.unwrap(),
    )
}

/// Whether `marks` starts at 0, increases, and has all pairwise distances different.
fn is_golomb(marks: &[i32]) -> bool {
    let mut distances: Vec<i32> = (0..marks.len())
        .flat_map(|i| (i + 1..marks.len()).map(move |j| marks[j] - marks[i]))
        .collect();
    let pairs = distances.len();
    distances.sort_unstable();
    distances.dedup();
    marks[0] == 0 && marks.windows(2).all(|w| w[0] < w[1]) && distances.len() == pairs
}

#[test]
fn optimal_lengths_are_the_published_ones() {
    // OEIS A003022: the shortest Golomb rulers with 2, 3, ... marks have length 1, 3, 6, 11,
    // 17, 25, 34, 44, 55.
    for (n, length) in [(2, 1), (3, 3), (4, 6), (5, 11), (6, 17), (7, 25), (8, 34)] {
        let (marks, value) = optimal_ruler(n);
        assert_eq!(value, length, "{n} marks");
        assert_eq!(*marks.last().unwrap(), length);
        assert!(
            is_golomb(&marks),
            "{n} marks: {marks:?} is not a Golomb ruler"
        );
    }
}

#[test]
fn optimal_rulers_of_4_to_7_marks() {
    let rulers: Vec<String> = (4..=7)
        .map(|n| {
            let (marks, _) = optimal_ruler(n);
            let marks: Vec<String> = marks.iter().map(i32::to_string).collect();
            format!("{n}: {}", marks.join(" "))
        })
        .collect();
    insta::assert_snapshot!("golomb_rulers_4_to_7", rulers.join("\n"));
}
