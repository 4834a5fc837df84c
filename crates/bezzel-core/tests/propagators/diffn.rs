//! Non-overlapping boxes (`diffn`, `diffn_nonstrict`, `diffn_k`, `diffn_k_vars`) against
//! brute force and against the pair rule the propagator claims.
//!
//! Random small instances in one to three dimensions, with origins that are variables or
//! views, and sizes that are constants (zero and negative ones included) or views: every
//! assignment is enumerated and judged by MiniZinc's decomposition, written here, and the
//! solver's solution set must be exactly that set, in a plain search and in searches with
//! random decisions. At every node of those searches each pair of boxes that must be apart
//! is judged by brute force over the node's values: some dimension can still separate the
//! two boxes, and where only one can, every value of their origins and sizes there has a
//! support in that dimension from the other three's values. And along each dimension the
//! boxes that take room (every size at least 1) are tasks on a resource as wide as the
//! cross-section of the node's bounding box: the time-table and energetic rules of the
//! cumulative resource hold there, checked time by time and window by window.

use bezzel_core::prelude::*;

use crate::brute::*;
use crate::scheduling::{Case, TaskBounds, check_random_cases, energetic_holds, time_table_holds};

/// A box's size in one dimension: a constant, or a view over one of the case's variables.
#[derive(Debug, Clone, Copy)]
enum Extent {
    Fixed(i64),
    View(ViewSpec),
}

#[derive(Debug, Clone)]
struct DiffnCase {
    domains: Vec<Vec<i32>>,
    /// Box `i`'s origin in dimension `d`.
    origins: Vec<Vec<ViewSpec>>,
    /// Box `i`'s size in dimension `d`.
    sizes: Vec<Vec<Extent>>,
    strict: bool,
}

impl DiffnCase {
    /// Constant sizes, or (with `variable_sizes`) sizes that are views over a few variables
    /// of their own, in one to three dimensions.
    fn random(rng: &mut Rng, variable_sizes: bool) -> DiffnCase {
        let dims = rng.range(1, 3) as usize;
        // At most eight origins (six with variable sizes), so that enumeration stays small.
        let most_origins = if variable_sizes { 6 } else { 8 };
        let boxes = rng.range(2, (most_origins / dims).max(2) as i64) as usize;
        let cells = boxes * dims;
        let width = if cells > 6 { 2 } else { 3 };
        // Intervals and sets with holes, about half each.
        let mut domains = Vec::new();
        for _ in 0..cells {
            let lo = rng.range(0, 1) as i32;
            let interval = rng.chance(50);
            domains.push(if interval {
                (lo..=lo + width).collect()
            } else {
                domain(rng, 0, width)
            });
        }
        let origins = (0..boxes)
            .map(|i| {
                (0..dims)
                    .map(|d| {
                        if rng.chance(85) {
                            ViewSpec::var(i * dims + d)
                        } else {
                            ViewSpec::random(rng, cells)
                        }
                    })
                    .collect()
            })
            .collect();
        let size_vars = if variable_sizes {
            rng.range(1, 3) as usize
        } else {
            0
        };
        for _ in 0..size_vars {
            domains.push(domain(rng, -1, 2));
        }
        let sizes = (0..boxes)
            .map(|_| {
                (0..dims)
                    .map(|_| {
                        if variable_sizes {
                            let var = cells + rng.below(size_vars as u64) as usize;
                            let negated = rng.chance(10);
                            Extent::View(ViewSpec::of(var, negated, if negated { 1 } else { 0 }))
                        } else if rng.chance(15) {
                            Extent::Fixed(0)
                        } else if rng.chance(5) {
                            Extent::Fixed(-1)
                        } else {
                            Extent::Fixed(rng.range(1, 3))
                        }
                    })
                    .collect()
            })
            .collect();
        DiffnCase {
            domains,
            origins,
            sizes,
            strict: rng.chance(60),
        }
    }

    fn size(e: Extent, a: &[i32]) -> i64 {
        match e {
            Extent::Fixed(v) => v,
            Extent::View(v) => v.eval(a),
        }
    }

    /// The values an origin takes at a node.
    fn origin_values(v: ViewSpec, node: &Node) -> Vec<i64> {
        node[v.var].iter().map(|&x| v.at(x)).collect()
    }

    /// The values a size takes at a node.
    fn size_values(e: Extent, node: &Node) -> Vec<i64> {
        match e {
            Extent::Fixed(v) => vec![v],
            Extent::View(v) => Self::origin_values(v, node),
        }
    }

    /// The resource along each dimension at a node: the capacity is the product, over the
    /// other dimensions, of the extent from the least origin to the furthest end; a box with
    /// every size at least 1 is a task (its origin's bounds, its least size along the
    /// dimension, the product of its least other sizes as height). The rules of the
    /// cumulative resource hold on those tasks, forward and backward.
    fn judge_stacks(&self, node: &Node) {
        let (n, dims) = (self.origins.len(), self.origins[0].len());
        let origin = |i: usize, e: usize| Self::origin_values(self.origins[i][e], node);
        let size = |i: usize, e: usize| Self::size_values(self.sizes[i][e], node);
        let least = |i: usize, e: usize| *size(i, e).iter().min().unwrap();
        for d in 0..dims {
            let cap: i64 = (0..dims)
                .filter(|&e| e != d)
                .map(|e| {
                    let low = (0..n).flat_map(|i| origin(i, e)).min().unwrap();
                    let high = (0..n)
                        .map(|i| {
                            let most = *size(i, e).iter().max().unwrap();
                            origin(i, e).iter().max().unwrap() + most.max(0)
                        })
                        .max()
                        .unwrap();
                    high - low
                })
                .product();
            let tasks: Vec<TaskBounds> = (0..n)
                .filter(|&i| (0..dims).all(|e| least(i, e) > 0))
                .map(|i| {
                    let o = origin(i, d);
                    let height = (0..dims).filter(|&e| e != d).map(|e| least(i, e)).product();
                    let (lo, hi) = (*o.iter().min().unwrap(), *o.iter().max().unwrap());
                    (lo, hi, least(i, d), height)
                })
                .collect();
            let mirrored: Vec<TaskBounds> = tasks
                .iter()
                .map(|&(est, lst, p, r)| (-(lst + p), -(est + p), p, r))
                .collect();
            for (side, t) in [("forward", &tasks), ("backward", &mirrored)] {
                for rule in [time_table_holds(t, cap, cap), energetic_holds(t, cap, cap)] {
                    if let Err(rule) = rule {
                        panic!(
                            "{rule} ({side}) along dimension {d}, capacity {cap}, not applied \
                             at {node:?} of {self:?}"
                        );
                    }
                }
            }
        }
    }

    /// Boxes `i` and `j` in dimension `d` at a node: the values of (origin, size) of each.
    fn sides(&self, node: &Node, i: usize, j: usize, d: usize) -> [Vec<i64>; 4] {
        [
            Self::origin_values(self.origins[i][d], node),
            Self::size_values(self.sizes[i][d], node),
            Self::origin_values(self.origins[j][d], node),
            Self::size_values(self.sizes[j][d], node),
        ]
    }
}

/// Whether `[o1, o1 + s1)` and `[o2, o2 + s2)` are apart, as MiniZinc states it.
fn apart(o1: i64, s1: i64, o2: i64, s2: i64) -> bool {
    o1 + s1 <= o2 || o2 + s2 <= o1
}

/// Whether `value`, in position `at` of (o1, s1, o2, s2), has a support among `values`
/// (the others' values) that sets the two boxes apart.
fn supported(values: &[Vec<i64>; 4], at: usize, value: i64) -> bool {
    let pick = |k: usize| -> Vec<i64> {
        if k == at {
            vec![value]
        } else {
            values[k].clone()
        }
    };
    let (a, b, c, d) = (pick(0), pick(1), pick(2), pick(3));
    a.iter().any(|&o1| {
        b.iter().any(|&s1| {
            c.iter()
                .any(|&o2| d.iter().any(|&s2| apart(o1, s1, o2, s2)))
        })
    })
}

impl Case for DiffnCase {
    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }

    /// MiniZinc's decomposition of `diffn_k` (`diffn_nonstrict_k` unless strict), pair by
    /// pair.
    fn holds(&self, a: &[i32]) -> bool {
        let n = self.origins.len();
        let size = |i: usize, d: usize| Self::size(self.sizes[i][d], a);
        let free = |i: usize| !self.strict && (0..self.sizes[i].len()).any(|d| size(i, d) == 0);
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                free(i)
                    || free(j)
                    || (0..self.origins[i].len()).any(|d| {
                        let (oi, oj) = (self.origins[i][d].eval(a), self.origins[j][d].eval(a));
                        apart(oi, size(i, d), oj, size(j, d))
                    })
            })
        })
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let origins: Vec<Vec<IntView>> = self.origins.iter().map(|b| views(b, &vars)).collect();
        let constants: Option<Vec<Vec<i32>>> = self
            .sizes
            .iter()
            .map(|b| {
                b.iter()
                    .map(|e| match *e {
                        Extent::Fixed(v) => Some(v as i32),
                        Extent::View(_) => None,
                    })
                    .collect()
            })
            .collect();
        match constants {
            // The two-dimensional forms, through their own entry points.
            Some(sizes) if origins[0].len() == 2 => {
                let column = |rows: &[Vec<IntView>], d: usize| -> Vec<IntView> {
                    rows.iter().map(|b| b[d]).collect()
                };
                let (x, y) = (column(&origins, 0), column(&origins, 1));
                let dx: Vec<i32> = sizes.iter().map(|b| b[0]).collect();
                let dy: Vec<i32> = sizes.iter().map(|b| b[1]).collect();
                if self.strict {
                    m.diffn(&x, &y, &dx, &dy).unwrap();
                } else {
                    m.diffn_nonstrict(&x, &y, &dx, &dy).unwrap();
                }
            }
            Some(sizes) => m.diffn_k(&origins, &sizes, self.strict).unwrap(),
            None => {
                let sizes: Vec<Vec<IntView>> = self
                    .sizes
                    .iter()
                    .map(|b| {
                        b.iter()
                            .map(|e| match *e {
                                Extent::View(v) => v.view(&vars),
                                Extent::Fixed(_) => unreachable!("views only"),
                            })
                            .collect()
                    })
                    .collect();
                m.diffn_k_vars(&origins, &sizes, self.strict).unwrap();
            }
        }
        (m, vars)
    }

    /// The pair rule, on every pair that must be apart at the node, and the resource along
    /// each dimension.
    fn judge(&self, node: &Node) {
        self.judge_stacks(node);
        let n = self.origins.len();
        let dims = self.origins[0].len();
        let may_vanish = |i: usize| {
            !self.strict
                && (0..dims).any(|d| Self::size_values(self.sizes[i][d], node).contains(&0))
        };
        for i in 0..n {
            for j in i + 1..n {
                if may_vanish(i) || may_vanish(j) {
                    continue;
                }
                let separable: Vec<usize> = (0..dims)
                    .filter(|&d| {
                        let v = self.sides(node, i, j, d);
                        v[0].iter().any(|&x| supported(&v, 0, x))
                    })
                    .collect();
                assert!(
                    !separable.is_empty(),
                    "boxes {i} and {j} cannot be apart, yet no failure at {node:?} of {self:?}"
                );
                if let [d] = separable[..] {
                    let v = self.sides(node, i, j, d);
                    for (at, values) in v.iter().enumerate() {
                        for &value in values {
                            assert!(
                                supported(&v, at, value),
                                "boxes {i} and {j}, apart only in dimension {d}: value {value} \
                                 of argument {at} there has no support, at {node:?} of {self:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn diffn_matches_brute_force_and_applies_its_pair_rule_at_every_node() {
    // Constant sizes (zero and negative ones among them), then sizes that are views.
    for (seed, rounds, variable_sizes) in [(0xd1ff_0001, 200, false), (0xd1ff_0002, 120, true)] {
        check_random_cases(seed, rounds, 2, |rng, _| {
            DiffnCase::random(rng, variable_sizes)
        });
    }
}

#[test]
fn diffn_cuts_the_other_box_out_of_an_origin() {
    // One row: only x can set the boxes apart, and both orders are open. The box of width
    // 2 may not start where it would cover any of 4..7, the fixed box of width 3: 3..=6 go,
    // leaving a hole that bounds reasoning alone would not make.
    let mut m = Model::new();
    let x = [m.int_var(0..=10).unwrap(), m.int_var(4..=4).unwrap()];
    let y = m.int_vars(2, 0..=0).unwrap();
    m.diffn(&x, &y, &[2, 3], &[1, 1]).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(x[0]).unwrap(), vec![0, 1, 2, 7, 8, 9, 10]);
}

#[test]
fn bad_diffn_arguments_are_model_errors() {
    let mut m = Model::new();
    let x = m.int_vars(2, 0..=3).unwrap();
    let (uneven, single) = (
        vec![vec![x[0], x[1]], vec![x[1]]],
        vec![vec![x[0]], vec![x[1]]],
    );
    let errors = [
        (m.diffn(&x, &x[..1], &[1, 1], &[1, 1]), "diffn: x and y"),
        (m.diffn_nonstrict(&x, &x, &[1, 1], &[1]), "diffn: x and dy"),
        (
            m.diffn_k(&uneven, &[vec![1, 1], vec![1]], true),
            "dimensions of the boxes",
        ),
        (m.diffn_k(&single, &[vec![1]], true), "origins and sizes"),
        (
            m.diffn_k_vars(&single, &[vec![x[0]], vec![]], false),
            "dimensions of origins and sizes",
        ),
    ];
    for (result, says) in errors {
        let e = result.unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn boxes_without_dimensions_always_overlap() {
    // MiniZinc: two boxes are apart if some dimension sets them apart; with none, never.
    for strict in [true, false] {
        let mut m = Model::new();
        let none: Vec<Vec<VarId>> = vec![Vec::new(), Vec::new()];
        m.diffn_k(&none, &[Vec::new(), Vec::new()], strict).unwrap();
        assert_eq!(Solver::new(m).count(), 0, "strict: {strict}");
    }
}

/// Whether root propagation fails on `w` × `h` rectangles with origins `x[i]` and rows
/// `y[i]` within the given ranges.
fn rectangles_fail_at_root(x: &[(i32, i32)], y: &[(i32, i32)], w: i32, h: i32) -> bool {
    let mut m = Model::new();
    let mut vars = |r: &[(i32, i32)]| -> Vec<VarId> {
        r.iter().map(|&(a, b)| m.int_var(a..=b).unwrap()).collect()
    };
    let (x, y) = (vars(x), vars(y));
    let n = x.len();
    m.diffn(&x, &y, &vec![w; n], &vec![h; n]).unwrap();
    m.propagate().is_err()
}

#[test]
fn rectangles_on_one_fixed_row_get_edge_finding() {
    // Three 2 × 1 rectangles on one row, each starting within 0..=3: together they need 6
    // time units in a window of 5. Every pair fits, so pairwise reasoning cannot see it; the
    // unary resource posted beside it fails at the root.
    assert!(rectangles_fail_at_root(&[(0, 3); 3], &[(0, 0); 3], 2, 1));
    // Rows that need not cross (one rectangle may move to another row): no failure.
    assert!(!rectangles_fail_at_root(
        &[(0, 3); 3],
        &[(0, 0), (0, 0), (0, 1)],
        2,
        1
    ));
}

#[test]
fn three_boxes_in_one_column_of_two_rows_fail_at_the_root() {
    // Three unit squares at x = 0, each on row 0 or 1: every pair can still take two rows,
    // so the pair rule sees nothing; the boxes' cross-sections (1 each) do not fit into the
    // bounding box's (2 rows), and the resource along x fails.
    assert!(rectangles_fail_at_root(&[(0, 0); 3], &[(0, 1); 3], 1, 1));
    // Two of them fit, one per row.
    assert!(!rectangles_fail_at_root(&[(0, 0); 2], &[(0, 1); 2], 1, 1));
}

#[test]
fn the_capacity_shrinks_with_the_rows_left() {
    // Unit squares: two at x = 0 and one within 0..=3, each on a row in 0..=2. Three rows
    // hold all three at x = 0. Once every row lies within 0..=1 (the bounding box is two
    // rows high), only two fit there, and the third moves on; no pair could tell.
    let mut m = Model::new();
    let x = [
        m.int_var(0..=0).unwrap(),
        m.int_var(0..=0).unwrap(),
        m.int_var(0..=3).unwrap(),
    ];
    let y = m.int_vars(3, 0..=2).unwrap();
    m.diffn(&x, &y, &[1, 1, 1], &[1, 1, 1]).unwrap();
    m.propagate().unwrap();
    assert_eq!(m.domain(x[2]).unwrap(), vec![0, 1, 2, 3]);
    let top = m.int_var(1..=1).unwrap();
    for &row in &y {
        m.less_eq(row, top).unwrap();
    }
    m.propagate().unwrap();
    assert_eq!(m.domain(x[2]).unwrap(), vec![1, 2, 3]);
}
