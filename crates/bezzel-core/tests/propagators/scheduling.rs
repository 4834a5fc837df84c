//! Scheduling constraints (`disjunctive`, `disjunctive_strict`, `cumulative`,
//! `cumulative_vars`) against brute force and against their own rules.
//!
//! For random small instances every assignment is enumerated and judged by the definitions
//! written here, independently of the engine: the solver's solution set (solution checking
//! on) must be exactly that set. Searches with random decisions then record the domains at
//! every node (after each fixpoint of propagation), and each node is judged against the rules
//! the propagators claim, recomputed here from the node's bounds by brute force over subsets
//! of tasks, times and starts: overload checking, detectable precedences, not-first/not-last
//! and edge finding for the unary resource; the time-table rule and energetic reasoning over
//! task intervals for the cumulative one. Finally a job shop (Fisher and Thompson's ft06,
//! optimum 55) is solved to optimality with one `disjunctive` per machine and with the
//! decomposition into reified pairs, which must agree.

use bezzel_core::prelude::*;

use crate::brute;
use crate::common::FT06;

use brute::*;

/// A random scheduling instance: its variables' domains, its definition written here, its
/// model, and the rules its propagator claims at a node.
pub(crate) trait Case: std::fmt::Debug {
    fn domains(&self) -> &[Vec<i32>];
    /// Whether an assignment of every variable satisfies the definition.
    fn holds(&self, a: &[i32]) -> bool;
    fn model(&self) -> (Model, Vec<VarId>);
    /// Panics where a rule the propagator claims was not applied at `node`.
    fn judge(&self, node: &Node);
}

/// `case` matches brute force: the solver's solution set is exactly the definition's, and so
/// is that of `walks` searches with random decisions (from `seed`), which hand every node to
/// the case's rules.
fn check_case(case: &dyn Case, walks: u64, seed: u64) {
    let expected = brute(case.domains(), &|a| case.holds(a));
    assert_eq!(solve(case.model().0), expected, "{case:?}");
    for w in 0..walks {
        let (m, vars) = case.model();
        let rng = Rng::seeded(seed.wrapping_mul(31).wrapping_add(w));
        let walked = record_search(m, &vars, checked(), rng, random_decision);
        assert_eq!(
            walked.solutions, expected,
            "walk {w}: solution sets differ on {case:?}"
        );
        for node in walked.nodes.iter().take(300) {
            case.judge(&project(node, &vars));
        }
    }
}

/// `rounds` random cases, made by `random` from the random numbers of `seed` and the round,
/// each checked by [`check_case`] with `walks` walks.
pub(crate) fn check_random_cases<C: Case>(
    seed: u64,
    rounds: u64,
    walks: u64,
    random: impl Fn(&mut Rng, u64) -> C,
) {
    let mut rng = Rng(seed);
    for round in 0..rounds {
        check_case(&random(&mut rng, round), walks, round);
    }
}

/// The least and the greatest value of a view over a node's domain of its variable.
fn view_bounds(v: ViewSpec, node: &Node) -> (i64, i64) {
    let d = &node[v.var];
    v.interval(d[0], d[d.len() - 1])
}

// ---------------------------------------------------------------------------------------
// The unary resource.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct DisjCase {
    domains: Vec<Vec<i32>>,
    starts: Vec<ViewSpec>,
    durations: Vec<i64>,
    strict: bool,
}

impl DisjCase {
    /// From 1 to `max_tasks` tasks.
    fn random(rng: &mut Rng, strict: bool, max_tasks: i64) -> DisjCase {
        let tasks = rng.range(1, max_tasks) as usize;
        // Mostly one variable per task, sometimes views and shared variables.
        let vars = if rng.chance(80) {
            tasks
        } else {
            rng.range(1, tasks as i64) as usize
        };
        let width = rng.range(3, 8) as i32;
        let domains: Vec<Vec<i32>> = (0..vars)
            .map(|_| {
                if rng.chance(50) {
                    let lo = rng.range(0, 2) as i32;
                    (lo..=lo + width).collect()
                } else {
                    domain(rng, 0, width)
                }
            })
            .collect();
        let starts = (0..tasks)
            .map(|i| {
                if vars == tasks && rng.chance(80) {
                    ViewSpec::var(i)
                } else {
                    ViewSpec::random(rng, vars)
                }
            })
            .collect();
        let durations = (0..tasks)
            .map(|_| if rng.chance(15) { 0 } else { rng.range(1, 4) })
            .collect();
        DisjCase {
            domains,
            starts,
            durations,
            strict,
        }
    }

    /// The tasks of positive duration at a node, as (est, lct, p).
    fn tasks(&self, node: &Node) -> Vec<(i64, i64, i64)> {
        self.starts
            .iter()
            .zip(&self.durations)
            .filter(|(_, p)| **p > 0)
            .map(|(&s, &p)| {
                let (lo, hi) = view_bounds(s, node);
                (lo, hi + p, p)
            })
            .collect()
    }

    /// Strict zero-duration tasks against each task of positive duration, on bounds: a point
    /// surely after a task's start is after its end, and one surely before its end is at or
    /// before its start.
    fn judge_points(&self, node: &Node) {
        for (&z, _) in self
            .starts
            .iter()
            .zip(&self.durations)
            .filter(|t| *t.1 == 0)
        {
            let (zlo, zhi) = view_bounds(z, node);
            for (&s, &p) in self.starts.iter().zip(&self.durations).filter(|t| *t.1 > 0) {
                let (slo, shi) = view_bounds(s, node);
                if zlo > shi {
                    assert!(
                        zlo >= slo + p && shi <= zhi - p,
                        "point after a start not pushed past its end at {node:?} of {self:?}"
                    );
                }
                if zhi < slo + p {
                    assert!(
                        zhi <= shi && slo >= zlo,
                        "point before an end not kept before its start at {node:?} of {self:?}"
                    );
                }
            }
        }
    }
}

impl Case for DisjCase {
    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }

    /// The definition, pair by pair, as MiniZinc states it.
    fn holds(&self, a: &[i32]) -> bool {
        let s = values(&self.starts, a);
        let d = &self.durations;
        (0..s.len()).all(|i| {
            (i + 1..s.len()).all(|j| {
                (!self.strict && (d[i] == 0 || d[j] == 0))
                    || s[i] + d[i] <= s[j]
                    || s[j] + d[j] <= s[i]
            })
        })
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let starts = views(&self.starts, &vars);
        // The oracle computes in `i64`; the durations are small.
        let durations: Vec<i32> = self.durations.iter().map(|&d| d as i32).collect();
        if self.strict {
            m.disjunctive_strict(&starts, &durations).unwrap();
        } else {
            m.disjunctive(&starts, &durations).unwrap();
        }
        (m, vars)
    }

    /// Every rule the propagator claims, on the node's bounds, in both directions of time.
    fn judge(&self, node: &Node) {
        let tasks = self.tasks(node);
        let mirrored: Vec<(i64, i64, i64)> = tasks.iter().map(|&(e, l, p)| (-l, -e, p)).collect();
        for (side, t) in [("forward", &tasks), ("backward", &mirrored)] {
            if let Err(rule) = unary_rules_hold(t) {
                panic!("{rule} ({side}) not applied at node {node:?} of {self:?}");
            }
        }
        if self.strict {
            self.judge_points(node);
        }
    }
}

/// ECT of a set of tasks (given by their positions in `t`, as a bit set): the latest of
/// `est(Ω') + p(Ω')` over its nonempty subsets Ω', by enumerating them.
fn ect(t: &[(i64, i64, i64)], set: u32) -> i64 {
    let mut best = i64::MIN;
    let mut sub = set;
    while sub != 0 {
        let members = (0..t.len()).filter(|&k| sub >> k & 1 == 1);
        let est = members.clone().map(|k| t[k].0).min().unwrap();
        let p: i64 = members.map(|k| t[k].2).sum();
        best = best.max(est + p);
        sub = (sub - 1) & set;
    }
    best
}

/// The rules of the unary resource on tasks (est, lct, p), checked by brute force over sets;
/// the name of the first one that does not hold.
fn unary_rules_hold(t: &[(i64, i64, i64)]) -> Result<(), &'static str> {
    let n = t.len();
    let lst = |k: usize| t[k].1 - t[k].2;
    let ect_of = |k: usize| t[k].0 + t[k].2;
    let all = (1u32 << n) - 1;
    let members = |set: u32| (0..n).filter(move |&k| set >> k & 1 == 1);
    for set in 1..=all {
        let lct = members(set).map(|k| t[k].1).max().unwrap();
        if ect(t, set) > lct {
            return Err("overload checking");
        }
    }
    for i in 0..n {
        // Detectable precedences: every j with lst(j) < ect(i) precedes i.
        let before = (0..n)
            .filter(|&j| j != i && lst(j) < ect_of(i))
            .fold(0u32, |s, j| s | 1 << j);
        if before != 0 && t[i].0 < ect(t, before) {
            return Err("detectable precedences");
        }
        let others = all & !(1 << i);
        let mut set = others;
        while set != 0 {
            // Not-last: i cannot follow every task of the set.
            let max_lst = members(set).map(lst).max().unwrap();
            if ect(t, set) > lst(i) && t[i].1 > max_lst {
                return Err("not-last");
            }
            // Edge finding: i must follow every task of the set.
            let lct = members(set).map(|k| t[k].1).max().unwrap();
            if ect(t, set | 1 << i) > lct && t[i].0 < ect(t, set) {
                return Err("edge finding");
            }
            set = (set - 1) & others;
        }
    }
    Ok(())
}

#[test]
fn disjunctive_matches_brute_force_and_applies_its_rules_at_every_node() {
    check_random_cases(0x5eed_d15c, 500, 2, |rng, round| {
        DisjCase::random(rng, round % 3 == 0, 5)
    });
}

#[test]
fn disjunctive_with_six_tasks_matches_brute_force_and_applies_its_rules() {
    // Deeper Θ-Λ-trees (eight leaves) than the instances above.
    check_random_cases(0x0006_7a5c, 60, 2, |rng, round| {
        loop {
            let case = DisjCase::random(rng, round % 3 == 0, 6);
            if case.starts.len() == 6 {
                break case;
            }
        }
    });
}

#[test]
fn disjunctive_zero_duration_tasks_are_free_unless_strict() {
    // A point at 1 inside a task over [0, 3): allowed only by the non-strict version.
    for strict in [false, true] {
        let mut m = Model::new();
        let s = [m.int_var(0..=0).unwrap(), m.int_var(1..=1).unwrap()];
        if strict {
            m.disjunctive_strict(&s, &[3, 0]).unwrap();
        } else {
            m.disjunctive(&s, &[3, 0]).unwrap();
        }
        assert_eq!(
            Solver::new(m).count(),
            u64::from(!strict),
            "strict: {strict}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The cumulative resource.
// ---------------------------------------------------------------------------------------

/// A cumulative task at a node: earliest start, latest start, least duration, least height.
pub(crate) type TaskBounds = (i64, i64, i64, i64);

/// A duration or a height: a constant, or the variable at this position.
#[derive(Debug, Clone, Copy)]
enum Amount {
    Fixed(i64),
    Var(usize),
}

#[derive(Debug, Clone)]
struct CumCase {
    domains: Vec<Vec<i32>>,
    starts: Vec<ViewSpec>,
    durations: Vec<Amount>,
    heights: Vec<Amount>,
    /// The variable of the capacity.
    capacity: usize,
}

impl CumCase {
    /// Constant durations and heights when `fixed`, variables otherwise.
    fn random(rng: &mut Rng, fixed: bool) -> CumCase {
        let tasks = if fixed {
            rng.range(1, 5)
        } else {
            rng.range(1, 3)
        } as usize;
        let width = if fixed { rng.range(3, 6) } else { 3 } as i32;
        let mut domains: Vec<Vec<i32>> = (0..tasks)
            .map(|_| {
                if rng.chance(40) {
                    (0..=width).collect()
                } else {
                    domain(rng, 0, width)
                }
            })
            .collect();
        let starts = (0..tasks)
            .map(|i| {
                if rng.chance(85) {
                    ViewSpec::var(i)
                } else {
                    ViewSpec::random(rng, tasks)
                }
            })
            .collect();
        let amount = |rng: &mut Rng, domains: &mut Vec<Vec<i32>>, hi: i64| {
            if fixed {
                Amount::Fixed(if rng.chance(10) { 0 } else { rng.range(1, hi) })
            } else {
                domains.push(domain(rng, 0, 2));
                Amount::Var(domains.len() - 1)
            }
        };
        let durations = (0..tasks).map(|_| amount(rng, &mut domains, 3)).collect();
        let heights = (0..tasks).map(|_| amount(rng, &mut domains, 3)).collect();
        domains.push(domain(rng, -1, 4));
        CumCase {
            capacity: domains.len() - 1,
            domains,
            starts,
            durations,
            heights,
        }
    }

    fn amount(a: Amount, values: &[i32]) -> i64 {
        match a {
            Amount::Fixed(v) => v,
            Amount::Var(x) => i64::from(values[x]),
        }
    }

    /// The least value of an amount at a node.
    fn least(a: Amount, node: &Node) -> i64 {
        match a {
            Amount::Fixed(v) => v,
            Amount::Var(x) => i64::from(node[x][0]),
        }
    }

    /// The tasks at a node as (est, lst, least duration, least height), and the capacity's
    /// bounds.
    fn tasks(&self, node: &Node) -> (Vec<TaskBounds>, i64, i64) {
        let tasks = (0..self.starts.len())
            .map(|i| {
                let (est, lst) = view_bounds(self.starts[i], node);
                let d = Self::least(self.durations[i], node).max(0);
                let r = Self::least(self.heights[i], node).max(0);
                (est, lst, d, r)
            })
            .collect();
        let cap = &node[self.capacity];
        (tasks, i64::from(cap[0]), i64::from(cap[cap.len() - 1]))
    }
}

impl Case for CumCase {
    fn domains(&self) -> &[Vec<i32>] {
        &self.domains
    }

    /// The definition: at every time the heights of the running tasks sum to at most the
    /// capacity, which is not negative; durations and heights are not negative.
    fn holds(&self, a: &[i32]) -> bool {
        let s = values(&self.starts, a);
        let d: Vec<i64> = self.durations.iter().map(|&x| Self::amount(x, a)).collect();
        let r: Vec<i64> = self.heights.iter().map(|&x| Self::amount(x, a)).collect();
        let b = i64::from(a[self.capacity]);
        if b < 0 || d.iter().chain(&r).any(|&v| v < 0) {
            return false;
        }
        let (lo, hi) = (s.iter().min().unwrap() - 1, s.iter().max().unwrap() + 4);
        (lo..=hi).all(|t| {
            let load: i64 = (0..s.len())
                .filter(|&i| s[i] <= t && t < s[i] + d[i])
                .map(|i| r[i])
                .sum();
            load <= b
        })
    }

    fn model(&self) -> (Model, Vec<VarId>) {
        let (mut m, vars) = model(&self.domains);
        let starts = views(&self.starts, &vars);
        let capacity = vars[self.capacity];
        let constants = |a: &[Amount]| -> Option<Vec<i32>> {
            a.iter()
                .map(|&x| match x {
                    Amount::Fixed(v) => Some(v as i32),
                    Amount::Var(_) => None,
                })
                .collect()
        };
        match (constants(&self.durations), constants(&self.heights)) {
            (Some(d), Some(r)) => m.cumulative(&starts, &d, &r, capacity).unwrap(),
            _ => {
                let var = |a: &Amount| match *a {
                    Amount::Var(x) => vars[x],
                    Amount::Fixed(_) => unreachable!("variable amounts only"),
                };
                let d: Vec<VarId> = self.durations.iter().map(var).collect();
                let r: Vec<VarId> = self.heights.iter().map(var).collect();
                m.cumulative_vars(&starts, &d, &r, capacity).unwrap();
            }
        }
        (m, vars)
    }

    fn judge(&self, node: &Node) {
        let (tasks, cap_min, cap_max) = self.tasks(node);
        assert!(
            cap_min >= 0,
            "negative capacity left at {node:?} of {self:?}"
        );
        let mirrored: Vec<TaskBounds> = tasks
            .iter()
            .map(|&(est, lst, d, r)| (-(lst + d), -(est + d), d, r))
            .collect();
        for (side, t) in [("forward", &tasks), ("backward", &mirrored)] {
            if let Err(rule) = time_table_holds(t, cap_min, cap_max) {
                panic!("{rule} ({side}) not applied at node {node:?} of {self:?}");
            }
            if let Err(rule) = energetic_holds(t, cap_min, cap_max) {
                panic!("{rule} ({side}) not applied at node {node:?} of {self:?}");
            }
        }
    }
}

/// The time-table rule on tasks (est, lst, d, r), time by time: the compulsory parts
/// `[lst, est + d)` never stack above the least capacity, and no task, started at its
/// earliest start, would run over a time where the others' compulsory parts and its own
/// height exceed the greatest capacity.
pub(crate) fn time_table_holds(
    t: &[TaskBounds],
    cap_min: i64,
    cap_max: i64,
) -> Result<(), &'static str> {
    let busy = |k: usize| t[k].2 > 0 && t[k].3 > 0;
    let load_without = |time: i64, skip: Option<usize>| -> i64 {
        (0..t.len())
            .filter(|&k| Some(k) != skip && busy(k) && t[k].1 <= time && time < t[k].0 + t[k].2)
            .map(|k| t[k].3)
            .sum()
    };
    for &(est, lst, d, _) in t {
        for time in lst..est + d {
            if load_without(time, None) > cap_min {
                return Err("the capacity's least value below the profile");
            }
        }
    }
    for i in (0..t.len()).filter(|&i| busy(i)) {
        let (est, _, d, r) = t[i];
        if (est..est + d).any(|time| load_without(time, Some(i)) + r > cap_max) {
            return Err("time-tabling");
        }
    }
    Ok(())
}

/// The overlap of `[s, s + d)` with `[a, b)`.
fn overlap(s: i64, d: i64, a: i64, b: i64) -> i64 {
    ((s + d).min(b) - s.max(a)).max(0)
}

/// Energetic reasoning over the windows `[a, b)` from an earliest start to a latest
/// completion of tasks (est, lst, d, r): the least energy the tasks must spend in the window
/// (each task's least overlap over every start in `[est, lst]`, found by trying them all)
/// fits in the least capacity, and no task started at its earliest start overlaps the window
/// by more than the room the others leave under the greatest capacity.
pub(crate) fn energetic_holds(
    t: &[TaskBounds],
    cap_min: i64,
    cap_max: i64,
) -> Result<(), &'static str> {
    let busy: Vec<usize> = (0..t.len()).filter(|&k| t[k].2 > 0 && t[k].3 > 0).collect();
    let least_energy = |k: usize, a: i64, b: i64| -> i64 {
        let (est, lst, d, r) = t[k];
        r * (est..=lst).map(|s| overlap(s, d, a, b)).min().unwrap()
    };
    for &i in &busy {
        for &j in &busy {
            let (a, b) = (t[i].0, t[j].1 + t[j].2);
            if a >= b {
                continue;
            }
            let total: i64 = busy.iter().map(|&k| least_energy(k, a, b)).sum();
            if total > cap_min * (b - a) {
                return Err("energetic overload (least capacity)");
            }
            for &k in &busy {
                let room = cap_max * (b - a) - (total - least_energy(k, a, b));
                let (est, _, d, r) = t[k];
                if r * overlap(est, d, a, b) > room {
                    return Err("energetic adjustment");
                }
            }
        }
    }
    Ok(())
}

#[test]
fn cumulative_matches_brute_force_and_applies_its_rules_at_every_node() {
    check_random_cases(0xc0_ffee, 400, 2, |rng, _| CumCase::random(rng, true));
}

#[test]
fn cumulative_with_variable_durations_and_heights_matches_brute_force() {
    check_random_cases(0xd00d, 200, 1, |rng, _| CumCase::random(rng, false));
}

#[test]
fn cumulative_without_tasks_that_use_the_resource_only_keeps_the_capacity_nonnegative() {
    let mut m = Model::new();
    let s = m.int_vars(2, 0..=1).unwrap();
    let b = m.int_var(-2..=1).unwrap();
    m.cumulative(&s, &[0, 2], &[3, 0], b).unwrap();
    // 4 start pairs, capacity 0 or 1.
    assert_eq!(Solver::new(m).count(), 8);
    // No tasks at all: nothing is constrained (MiniZinc: true).
    let mut m = Model::new();
    let b = m.int_var(-2..=1).unwrap();
    let none: [VarId; 0] = [];
    m.cumulative(&none, &[], &[], b).unwrap();
    assert_eq!(Solver::new(m).count(), 4);
}

#[test]
fn bad_scheduling_arguments_are_model_errors() {
    let mut m = Model::new();
    let s = m.int_vars(2, 0..=3).unwrap();
    let b = m.int_var(0..=3).unwrap();
    let e = m.cumulative(&s, &[1, -1], &[1, 1], b).unwrap_err();
    assert!(e.to_string().contains("negative"), "{e}");
    assert!(e.to_string().contains("duration of task 1"), "{e}");
    let e = m.cumulative(&s, &[1, 1], &[1], b).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    assert!(
        e.to_string().contains("cumulative: starts and heights"),
        "{e}"
    );
    let e = m.disjunctive(&s, &[1]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    assert!(
        e.to_string().contains("disjunctive: starts and durations"),
        "{e}"
    );
    let e = m.disjunctive_strict(&s, &[-2, 1]).unwrap_err();
    assert!(e.to_string().contains("negative"), "{e}");
    let d = m.int_vars(1, 0..=3).unwrap();
    let e = m.cumulative_vars(&s, &d, &d, b).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
}

// ---------------------------------------------------------------------------------------
// A job shop.
// ---------------------------------------------------------------------------------------

/// A job table as the builder takes it.
fn jobs_of<const STEPS: usize>(table: &[[(usize, i32); STEPS]]) -> Vec<Vec<(usize, i32)>> {
    table.iter().map(|job| job.to_vec()).collect()
}

/// How the machines are stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Machines {
    Disjunctive,
    /// `b ↔ s_i + d_i <= s_j` and `¬b ↔ s_j + d_j <= s_i` for every pair on a machine.
    ReifiedPairs,
}

/// The job shop as a model: the starts (job by job), the makespan.
fn job_shop(jobs: &[Vec<(usize, i32)>], machines: Machines) -> (Model, Vec<VarId>, VarId) {
    let horizon: i32 = jobs.iter().flatten().map(|&(_, d)| d).sum();
    let mut m = Model::new();
    let mut starts = Vec::new();
    let mut on_machine: Vec<Vec<(VarId, i32)>> = Vec::new();
    let makespan = m.named_var("makespan", 0..=horizon).unwrap();
    for (j, job) in jobs.iter().enumerate() {
        let mut previous: Option<(VarId, i32)> = None;
        for (k, &(machine, d)) in job.iter().enumerate() {
            let s = m.named_var(format!("s{j}_{k}"), 0..=horizon - d).unwrap();
            if let Some((p, pd)) = previous {
                m.less_eq(p.offset(pd), s).unwrap();
            }
            previous = Some((s, d));
            if on_machine.len() <= machine {
                on_machine.resize(machine + 1, Vec::new());
            }
            on_machine[machine].push((s, d));
            starts.push(s);
        }
        let (last, d) = previous.unwrap();
        m.less_eq(last.offset(d), makespan).unwrap();
    }
    for tasks in &on_machine {
        match machines {
            Machines::Disjunctive => {
                let s: Vec<VarId> = tasks.iter().map(|t| t.0).collect();
                let d: Vec<i32> = tasks.iter().map(|t| t.1).collect();
                m.disjunctive(&s, &d).unwrap();
            }
            Machines::ReifiedPairs => {
                for (i, &(si, di)) in tasks.iter().enumerate() {
                    for &(sj, dj) in &tasks[i + 1..] {
                        let b = m.named_bool("order").unwrap();
                        m.less_eq_reif(si.offset(di), sj, b, Reif::Equiv).unwrap();
                        m.less_eq_reif(sj.offset(dj), si, b.not(), Reif::Equiv)
                            .unwrap();
                    }
                }
            }
        }
    }
    (m, starts, makespan)
}

/// Whether the starts are a schedule of the job shop: steps in order within each job, no
/// two steps overlapping on a machine. Written from the problem's definition.
fn is_schedule(jobs: &[Vec<(usize, i32)>], starts: &[i32]) -> bool {
    let mut steps = Vec::new();
    let mut k = 0;
    for job in jobs {
        for (step, &(machine, d)) in job.iter().enumerate() {
            if step > 0 && starts[k - 1] + job[step - 1].1 > starts[k] {
                return false;
            }
            steps.push((machine, starts[k], d));
            k += 1;
        }
    }
    steps.iter().enumerate().all(|(i, &(mi, si, di))| {
        steps[i + 1..]
            .iter()
            .all(|&(mj, sj, dj)| mi != mj || si + di <= sj || sj + dj <= si)
    })
}

/// Lawrence's 10 × 5 instance la02 (from the MiniZinc benchmarks' `jobshop_la02.dzn`): each
/// job's steps as (machine, duration), in order. Its optimal makespan, 655, is published.
const LA02: [[(usize, i32); 5]; 10] = [
    [(0, 20), (3, 87), (1, 31), (4, 76), (2, 17)],
    [(4, 25), (2, 32), (0, 24), (1, 18), (3, 81)],
    [(1, 72), (2, 23), (4, 28), (0, 58), (3, 99)],
    [(2, 86), (1, 76), (4, 97), (0, 45), (3, 90)],
    [(4, 27), (0, 42), (3, 48), (2, 17), (1, 46)],
    [(1, 67), (0, 98), (4, 48), (3, 27), (2, 62)],
    [(4, 28), (1, 12), (3, 19), (0, 80), (2, 50)],
    [(1, 63), (0, 94), (2, 98), (3, 50), (4, 80)],
    [(4, 14), (0, 75), (2, 50), (1, 41), (3, 55)],
    [(4, 72), (2, 18), (1, 37), (3, 79), (0, 61)],
];

/// Schedules the open task that can start first at its earliest start (MiniZinc's
/// `smallest, indomain_min`); the other branch moves it later.
#[derive(Debug)]
struct EarliestStart(Vec<VarId>);

impl Brancher for EarliestStart {
    fn decide(&mut self, d: &Domains<'_>) -> Option<Decision> {
        let x = self
            .0
            .iter()
            .copied()
            .filter(|&x| !d.is_fixed(x))
            .min_by_key(|&x| (d.min(x), d.max(x)))?;
        Some(Decision::Assign(x, d.min(x)))
    }
}

/// How a job shop is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JobShopSearch {
    /// Smallest domain first, least value first, over the starts.
    SmallestDomain,
    /// [`EarliestStart`].
    EarliestStart,
}

/// Branch and bound on a job shop within `limit`; returns the best makespan, whether it is
/// proven optimal, and the statistics.
fn solve_job_shop(
    jobs: &[Vec<(usize, i32)>],
    machines: Machines,
    search: JobShopSearch,
    limit: Option<std::time::Duration>,
) -> (Option<i32>, bool, Statistics) {
    let (m, starts, makespan) = job_shop(jobs, machines);
    let config = SearchConfig {
        var_order: VarOrder::SmallestDomain,
        value_order: ValueOrder::Min,
        limits: Limits {
            time: limit,
            ..Limits::default()
        },
        ..SearchConfig::default()
    };
    let solver = Solver::with_config(m, config).branch_on(&starts).unwrap();
    let mut solver = match search {
        JobShopSearch::SmallestDomain => solver,
        JobShopSearch::EarliestStart => solver.brancher(EarliestStart(starts.clone())),
    };
    let best = solver.minimize(makespan).unwrap().finish();
    if let Some(solution) = &best.solution {
        let values: Vec<i32> = solution.values_of(&starts);
        assert!(is_schedule(jobs, &values), "{machines:?}: not a schedule");
        let end = jobs
            .iter()
            .scan(0, |k, job| {
                *k += job.len();
                Some(values[*k - 1] + job.last().unwrap().1)
            })
            .max()
            .unwrap();
        assert_eq!(
            Some(end),
            best.value,
            "{machines:?}: makespan is the last end"
        );
    }
    (best.value, best.optimal, best.stats)
}

#[test]
fn job_shop_ft06_optimum_55_is_proven_with_one_disjunctive_per_machine() {
    let jobs = jobs_of(&FT06);
    for search in [JobShopSearch::SmallestDomain, JobShopSearch::EarliestStart] {
        let (best, optimal, stats) = solve_job_shop(&jobs, Machines::Disjunctive, search, None);
        eprintln!("ft06, disjunctive, {search:?}: {stats}");
        assert_eq!((best, optimal), (Some(55), true), "{search:?}");
    }
}

/// The measurements of the report: each instance with one `disjunctive` per machine and with
/// reified pairs, under two searches, half a minute each at most. Run with `--ignored --nocapture`.
#[test]
#[ignore = "a measurement of a few minutes, not a check"]
fn job_shops_with_disjunctive_against_reified_pairs() {
    let limit = Some(std::time::Duration::from_secs(30));
    for (name, jobs, optimum) in [("ft06", jobs_of(&FT06), 55), ("la02", jobs_of(&LA02), 655)] {
        for search in [JobShopSearch::SmallestDomain, JobShopSearch::EarliestStart] {
            for machines in [Machines::Disjunctive, Machines::ReifiedPairs] {
                let (best, optimal, stats) = solve_job_shop(&jobs, machines, search, limit);
                let case = format!("{name}, {machines:?}, {search:?}");
                eprintln!("{case}: best {best:?}, proven {optimal}; {stats}");
                if optimal {
                    assert_eq!(best, Some(optimum), "{case}");
                } else if let Some(b) = best {
                    assert!(b >= optimum, "{case}: below the published optimum");
                }
            }
        }
    }
}
