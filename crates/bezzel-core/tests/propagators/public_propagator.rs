//! A propagator written outside the crate can be as fast as a built-in one.
//!
//! `PublicAllDifferent` below is value-consistent all-different written against the public
//! `Context`/`Setup` API only, with the same algorithm and the same tricks as the built-in
//! `AllDifferentValue`: on the one-word path, word views over one window of 64 values, a
//! trailed bitmask of live views, advised subscriptions that name the views fixed since the
//! last run, and the value pass in rounds of bitmask removals; elsewhere, the value pass over
//! views with `remove_event` and a trailed live prefix. The tests check that it matches the
//! built-in node for node: the same solutions, nodes, failures and propagations on N-Queens,
//! Latin squares, Sudoku and random models (negated, shared and wide views included, which
//! take the general path).

use bezzel_core::prelude::*;
use bezzel_core::propagators::AllDifferentValue;
use proptest::prelude::*;

/// Iterates the set bits of a word, lowest first.
#[inline(always)]
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if word == 0 {
            None
        } else {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            Some(b)
        }
    })
}

/// Fixed views found in a round, as bits of their positions, their values as bits of the
/// window, and the values fixed twice.
#[derive(Debug, Clone, Copy, Default)]
struct Fixed {
    views: u64,
    values: u64,
    clash: u64,
}

impl Fixed {
    /// The mask of view `i`, fixed or not, without a branch.
    #[inline(always)]
    fn scan(&mut self, i: usize, mask: u64) {
        let single = u64::from(mask & mask.wrapping_sub(1) == 0);
        let select = single.wrapping_neg();
        self.clash |= self.values & mask & select;
        self.values |= mask & select;
        self.views |= single << i;
    }

    /// The mask of view `i`, known to be fixed.
    #[inline(always)]
    fn note(&mut self, i: usize, mask: u64) {
        self.clash |= self.values & mask;
        self.values |= mask;
        self.views |= 1 << i;
    }
}

/// `views` take pairwise distinct values, by the value pass alone.
#[derive(Debug, Clone)]
struct PublicAllDifferent {
    views: Vec<IntView>,
    /// The views over one window, when they all fit one (and share no variable).
    words: Vec<WordView>,
    /// The live views: a bitmask on the one-word path, else the length of a prefix of `views`.
    live: Option<TrailedInt>,
    aliased: bool,
}

impl PublicAllDifferent {
    fn new(views: Vec<IntView>) -> PublicAllDifferent {
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        vars.dedup();
        let aliased = vars.len() < views.len();
        PublicAllDifferent {
            views,
            words: Vec::new(),
            live: None,
            aliased,
        }
    }

    /// The one-word path, in rounds: retire the views fixed in the last round and remove all
    /// their values from the live views at once.
    fn run_words(&self, ctx: &mut Context<'_>, mut live: u64) -> Result<u64, Conflict> {
        let words = &self.words[..];
        let mut found = Fixed::default();
        if ctx.advice() == u64::MAX {
            for i in bits(live) {
                found.scan(i, ctx.word(words[i]));
            }
        } else {
            for i in bits(ctx.advice() & live) {
                found.note(i, ctx.word(words[i]));
            }
        }
        while found.views != 0 {
            if found.clash != 0 {
                return Err(Conflict);
            }
            live &= !found.views;
            let values = found.values;
            let mut hits = 0u64;
            for j in bits(live) {
                hits |= u64::from(ctx.word(words[j]) & values != 0) << j;
            }
            let mut fixed = 0u64;
            for j in bits(hits) {
                let event = ctx.keep_word(words[j], !values)?;
                fixed |= u64::from(event == Some(Event::Fixed)) << j;
            }
            found = Fixed::default();
            for j in bits(fixed) {
                found.note(j, ctx.word(words[j]));
            }
        }
        Ok(live)
    }

    /// The general path: the value pass over the live prefix of `views`. A fixed view's
    /// value leaves every other live view (so two views fixed to one value fail); when that
    /// fixes a view, the scan starts again, as it may have fixed views already scanned (of
    /// the same variable).
    fn run(&mut self, ctx: &mut Context<'_>, mut live: usize) -> Result<usize, Conflict> {
        let mut i = 0;
        while i < live {
            let v = self.views[i];
            if !ctx.is_fixed(v) {
                i += 1;
                continue;
            }
            let value = ctx.min(v);
            live -= 1;
            self.views.swap(i, live);
            let mut fixed_some = false;
            for &w in &self.views[..live] {
                fixed_some |= ctx.remove_event(w, value)? == Some(Event::Fixed);
            }
            if fixed_some {
                i = 0;
            }
        }
        Ok(live)
    }
}

impl Propagator for PublicAllDifferent {
    fn setup(&mut self, s: &mut Setup<'_>) {
        if !self.aliased && self.views.len() <= 64 {
            let lo = self.views.iter().map(|&v| s.declared_min(v)).min();
            let lo = lo.unwrap_or(0);
            let words: Option<Vec<WordView>> =
                self.views.iter().map(|&v| s.word_view(v, lo)).collect();
            self.words = words.unwrap_or_default();
        }
        if self.words.is_empty() {
            for &v in &self.views {
                s.subscribe(v, Event::Fixed);
            }
            self.live = Some(s.trailed_int(self.views.len() as i64));
        } else {
            for (i, &v) in self.views.iter().enumerate() {
                s.subscribe_advised(v, Event::Fixed, 1 << i);
            }
            let all = u64::MAX >> (64 - self.views.len());
            self.live = Some(s.trailed_int(all as i64));
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let Some(slot) = self.live else {
            return Ok(PropStatus::Fixpoint);
        };
        let live = if self.words.is_empty() {
            let live = self.run(ctx, ctx.int(slot) as usize)?;
            ctx.set_int(slot, live as i64);
            live
        } else {
            let live = self.run_words(ctx, ctx.int(slot) as u64)?;
            ctx.set_int(slot, live as i64);
            live.count_ones() as usize
        };
        Ok(PropStatus::subsumed_if(live <= 1))
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        let values = a.values_of(&self.views);
        (0..values.len()).all(|i| !values[i + 1..].contains(&values[i]))
    }
}

/// Which all-different to post.
#[derive(Debug, Clone, Copy)]
enum Which {
    BuiltIn,
    Public,
}

fn all_different(m: &mut Model, which: Which, views: Vec<IntView>) {
    match which {
        Which::BuiltIn => m.post(AllDifferentValue::new(views)),
        Which::Public => m.post(PublicAllDifferent::new(views)),
    }
    .unwrap();
}

/// What a full search reports that must match: solutions, nodes, failures, propagations and
/// depth.
fn search(m: Model, config: SearchConfig) -> [u64; 5] {
    let mut solver = Solver::with_config(m, config);
    let count = solver.count();
    let s = solver.stats();
    [count, s.nodes, s.failures, s.propagations, s.max_depth]
}

/// Builds the model with each all-different and checks that both searches match.
fn same_search(build: impl Fn(&mut Model, Which), config: SearchConfig) -> [u64; 5] {
    let run = |which| {
        let mut m = Model::new();
        build(&mut m, which);
        search(m, config)
    };
    let built_in = run(Which::BuiltIn);
    assert_eq!(run(Which::Public), built_in, "public vs built-in");
    built_in
}

fn queens(m: &mut Model, which: Which, n: usize) {
    let q = m.int_vars(n, 0..n as i32).unwrap();
    for sign in [0, 1, -1] {
        let views = q
            .iter()
            .enumerate()
            .map(|(i, x)| x.offset(sign * i as i32))
            .collect();
        all_different(m, which, views);
    }
}

#[test]
fn queens_match_node_for_node() {
    // OEIS A000170.
    let counts = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for n in 1..=10 {
        for var_order in [VarOrder::InputOrder, VarOrder::SmallestDomain] {
            let config = SearchConfig {
                var_order,
                ..SearchConfig::default()
            };
            let stats = same_search(|m, which| queens(m, which, n), config);
            assert_eq!(stats[0], counts[n - 1], "queens {n}");
        }
    }
}

/// An n × n Latin square with its first row `0, 1, ..., n - 1`; `negate` states the columns
/// over `-x` (the general path, as word views are never negated).
fn latin(m: &mut Model, which: Which, n: usize, negate: bool) {
    let cells: Vec<Vec<VarId>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let c = c as i32;
                    if r == 0 {
                        m.int_var(c..=c)
                    } else {
                        m.int_var(0..n as i32)
                    }
                    .unwrap()
                })
                .collect()
        })
        .collect();
    for row in &cells {
        all_different(m, which, row.iter().map(|&x| x.into()).collect());
    }
    for c in 0..n {
        let column = cells.iter().map(|row| row[c]);
        let views = if negate {
            column.map(|x| x.minus()).collect()
        } else {
            column.map(IntView::from).collect()
        };
        all_different(m, which, views);
    }
}

#[test]
fn latin_squares_match_node_for_node() {
    // Reduced Latin squares times (n - 1)!: 1, 1, 4, 56 for n = 2..=5 with the first row fixed.
    for (n, count) in [(2, 1), (3, 2), (4, 24), (5, 1344)] {
        for negate in [false, true] {
            let stats = same_search(|m, w| latin(m, w, n, negate), SearchConfig::default());
            assert_eq!(stats[0], count, "latin {n}");
        }
    }
}

/// A 9 × 9 Sudoku: givens are one-value domains.
fn sudoku(m: &mut Model, which: Which, puzzle: &str) {
    let cells: Vec<VarId> = puzzle
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => {
                let v = i32::from(b - b'0');
                m.int_var(v..=v)
            }
            _ => m.int_var(1..=9),
        })
        .collect::<Result<_, _>>()
        .unwrap();
    let house = |f: &dyn Fn(usize) -> usize| -> Vec<IntView> {
        (0..9).map(|k| cells[f(k)].into()).collect()
    };
    for i in 0..9 {
        all_different(m, which, house(&|k| 9 * i + k));
        all_different(m, which, house(&|k| 9 * k + i));
        all_different(
            m,
            which,
            house(&|k| 27 * (i / 3) + 3 * (i % 3) + 9 * (k / 3) + k % 3),
        );
    }
}

#[test]
fn sudoku_matches_node_for_node() {
    let puzzles = [
        // The first puzzles of tests/data/top1465_sample.txt.
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
        // Too few givens: many solutions, counted up to a limit.
        "1........2........3..............................................................",
    ];
    for puzzle in puzzles {
        let config = SearchConfig {
            limits: Limits {
                solutions: Some(500),
                ..Limits::default()
            },
            ..SearchConfig::default()
        };
        let stats = same_search(|m, w| sudoku(m, w, puzzle), config);
        assert!(stats[0] >= 1, "{puzzle}");
    }
}

/// A random model: variables with random domains (some wider than one word), and one or two
/// all-differents over views of them (offsets, negations, shared variables).
#[derive(Debug, Clone)]
struct Case {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Vec<(usize, bool, i32)>>,
    order: (VarOrder, ValueOrder),
}

impl Case {
    fn build(&self, m: &mut Model, which: Which) {
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|d| m.int_var(d.as_slice()).unwrap())
            .collect();
        for c in &self.constraints {
            let views = c
                .iter()
                .map(|&(x, negated, offset)| {
                    let v = vars[x].offset(offset);
                    if negated { v.minus() } else { v }
                })
                .collect();
            all_different(m, which, views);
        }
    }
}

fn case() -> impl Strategy<Value = Case> {
    (2..=7usize)
        .prop_flat_map(|nvars| {
            let domain = prop_oneof![
                4 => prop::collection::btree_set(0..=8i32, 1..=7),
                1 => prop::collection::btree_set(-50..=150i32, 1..=7),
            ]
            .prop_map(|d| d.into_iter().collect::<Vec<_>>());
            let view = (
                0..nvars,
                prop::bool::weighted(0.15),
                prop_oneof![3 => Just(0), 1 => -3..=3i32],
            );
            let constraint = prop::collection::vec(view, 2..=6);
            let order = (
                prop_oneof![
                    Just(VarOrder::InputOrder),
                    Just(VarOrder::SmallestDomain),
                    Just(VarOrder::DomWDeg),
                ],
                prop_oneof![Just(ValueOrder::Min), Just(ValueOrder::Max)],
            );
            (
                prop::collection::vec(domain, nvars),
                prop::collection::vec(constraint, 1..=2),
                order,
            )
        })
        .prop_map(|(domains, constraints, order)| Case {
            domains,
            constraints,
            order,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 600,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_models_match_node_for_node(case in case()) {
        let config = SearchConfig {
            var_order: case.order.0,
            value_order: case.order.1,
            ..SearchConfig::default()
        };
        same_search(|m, w| case.build(m, w), config);
    }
}
