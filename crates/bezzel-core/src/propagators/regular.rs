//! `regular`: the sequence of views spells a word that a deterministic finite automaton
//! accepts, filtered on the layered graph of Pesant (CP 2004).
//!
//! Layer `i` holds the automaton's states; an arc from state `q` in layer `i` to `q'` in layer
//! `i + 1` is a transition `q --v--> q'` whose symbol `v` is still in the domain of view `i`.
//! A forward pass marks the states reachable from the start, a backward pass those from which
//! a final state is reachable at the last layer; a value of view `i` is supported exactly
//! when it labels an arc between two marked states, and every other value is removed. That
//! is domain consistency, recomputed from scratch on each run: `O(n · |δ|)` for `n` views and
//! `|δ|` transitions. When every symbol lies in one window of 64 values and every domain fits
//! a word, the passes run on words: each domain is read once as a bitmask, the marked states
//! of a layer are bitsets, and each view is narrowed in one write.

use crate::error::ModelError;
use crate::event::Event;
use crate::propagator::{Assignment, Context, PropResult, PropStatus, Propagator, Setup};
use crate::queue::Priority;
use crate::store::Conflict;
use crate::var::IntView;

/// A deterministic finite automaton over integer symbols: states `0..states`, a start
/// state, final (accepting) states and transitions `(from, symbol, to)`.
///
/// Made by [`Dfa::new`], which checks it, or by [`Dfa::nonogram_row`].
///
/// ```
/// use bezzel_core::constraints::Dfa;
/// // Words over {0, 1} with no two 1s in a row: state 1 means "just read a 1".
/// let dfa = Dfa::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])?;
/// assert!(dfa.accepts(&[1, 0, 1]));
/// assert!(!dfa.accepts(&[0, 1, 1]));
/// # Ok::<(), bezzel_core::ModelError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dfa {
    states: usize,
    start: usize,
    finals: Vec<bool>,
    /// Per state, its transitions `(symbol, to)` sorted by symbol.
    out: Vec<Vec<(i64, usize)>>,
}

impl Dfa {
    /// The automaton with states `0..states`, checked: `start`, every final state and both
    /// ends of every transition must be states, symbols must lie in
    /// [`MIN_VALUE`](crate::MIN_VALUE)`..=`[`MAX_VALUE`](crate::MAX_VALUE), and no state may
    /// have two transitions on one symbol to different states (it would not be
    /// deterministic). A transition listed twice counts once. Anything else is a
    /// [`ModelError::InvalidArgument`] naming the fault.
    ///
    /// ```
    /// use bezzel_core::constraints::Dfa;
    /// // Words over {0, 1} with an even number of 1s: state 1 means "odd so far".
    /// let even = Dfa::new(2, 0, &[0], &[(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)])?;
    /// assert!(even.accepts(&[1, 0, 1]));
    /// assert!(!even.accepts(&[1, 1, 1]));
    /// // Two transitions from state 0 on the symbol 1: not deterministic.
    /// assert!(Dfa::new(2, 0, &[1], &[(0, 1, 0), (0, 1, 1)]).is_err());
    /// // A final state that does not exist.
    /// assert!(Dfa::new(2, 0, &[2], &[]).is_err());
    /// # Ok::<(), bezzel_core::ModelError>(())
    /// ```
    pub fn new(
        states: usize,
        start: usize,
        finals: &[usize],
        transitions: &[(usize, i32, usize)],
    ) -> Result<Dfa, ModelError> {
        let bad = |reason: String| Err(ModelError::InvalidArgument { reason });
        if states == 0 {
            return bad("dfa: no states".into());
        }
        if start >= states {
            return bad(format!(
                "dfa: the start state {start} does not exist (states are 0..{states})"
            ));
        }
        let mut is_final = vec![false; states];
        for &f in finals {
            if f >= states {
                return bad(format!(
                    "dfa: the final state {f} does not exist (states are 0..{states})"
                ));
            }
            is_final[f] = true;
        }
        let range = crate::MIN_VALUE..=crate::MAX_VALUE;
        let mut out: Vec<Vec<(i64, usize)>> = vec![Vec::new(); states];
        for &(from, symbol, to) in transitions {
            if from >= states || to >= states {
                return bad(format!(
                    "dfa: the transition {from} --{symbol}--> {to} names a state that does not \
                     exist (states are 0..{states})"
                ));
            }
            if !range.contains(&symbol) {
                return bad(format!(
                    "dfa: the symbol {symbol} is outside the supported range {}..={}",
                    crate::MIN_VALUE,
                    crate::MAX_VALUE
                ));
            }
            out[from].push((i64::from(symbol), to));
        }
        for (q, arcs) in out.iter_mut().enumerate() {
            arcs.sort_unstable();
            arcs.dedup();
            if let Some(w) = arcs.windows(2).find(|w| w[0].0 == w[1].0) {
                return bad(format!(
                    "dfa: state {q} has two transitions on {} (to {} and to {}): not deterministic",
                    w[0].0, w[0].1, w[1].1
                ));
            }
        }
        Ok(Dfa {
            states,
            start,
            finals: is_final,
            out,
        })
    }

    /// The automaton of a nonogram row (or column) with the given clue: over the symbols
    /// `0` (blank) and `1` (filled), the words made of blocks of 1s of the given lengths, in
    /// order, separated by at least one 0, with any number of 0s before and after. Blocks
    /// of length 0 are ignored, so that both `&[]` and `&[0]` describe an empty row. It has
    /// `Σ blocks + number of blocks + 1` states. The lengths are `usize`, as sizes are
    /// everywhere in the API: they count cells, and are no values of variables (those are
    /// `i32`).
    ///
    /// ```
    /// use bezzel_core::constraints::Dfa;
    /// let dfa = Dfa::nonogram_row(&[3, 1]);
    /// assert!(dfa.accepts(&[0, 1, 1, 1, 0, 0, 1]));
    /// assert!(!dfa.accepts(&[1, 1, 1, 1]));
    /// assert!(!dfa.accepts(&[1, 1, 1, 0, 1, 0, 1]));
    /// ```
    pub fn nonogram_row(blocks: &[usize]) -> Dfa {
        let blocks: Vec<usize> = blocks.iter().copied().filter(|&b| b > 0).collect();
        let mut transitions = vec![(0, 0, 0)];
        let mut states = 1;
        let mut prev = 0;
        let mut finals = vec![0];
        for (j, &len) in blocks.iter().enumerate() {
            for _ in 0..len {
                transitions.push((prev, 1, states));
                prev = states;
                states += 1;
            }
            // After a block: at least one 0, then (if another block follows) its first 1.
            let gap = states;
            states += 1;
            transitions.push((prev, 0, gap));
            transitions.push((gap, 0, gap));
            if j + 1 == blocks.len() {
                finals = vec![prev, gap];
            }
            prev = gap;
        }
        Dfa::new(states, 0, &finals, &transitions).expect("a well-formed automaton")
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.states
    }

    /// The start state.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Whether `state` is final.
    pub fn is_final(&self, state: usize) -> bool {
        self.finals.get(state).copied().unwrap_or(false)
    }

    /// The state reached from `state` on `symbol`, if there is a transition.
    ///
    /// ```
    /// use bezzel_core::constraints::Dfa;
    /// let dfa = Dfa::nonogram_row(&[1]); // 0* 1 0*
    /// let filled = dfa.next(dfa.start(), 1).unwrap();
    /// assert!(dfa.is_final(filled));
    /// assert_eq!(dfa.next(filled, 1), None); // a second 1 would need another block
    /// ```
    pub fn next(&self, state: usize, symbol: i32) -> Option<usize> {
        let arcs = self.out.get(state)?;
        let at = arcs
            .binary_search_by_key(&i64::from(symbol), |a| a.0)
            .ok()?;
        Some(arcs[at].1)
    }

    /// Whether the automaton accepts `word`.
    pub fn accepts(&self, word: &[i32]) -> bool {
        let mut q = self.start;
        for &s in word {
            match self.next(q, s) {
                Some(next) => q = next,
                None => return false,
            }
        }
        self.finals[q]
    }
}

/// The word spelt by `views` is accepted by a [`Dfa`]; domain consistent on distinct variables.
/// Each run is a forward and a backward pass over the layered graph, `O(n · |δ|)` for `n`
/// views and `|δ|` transitions; see [`Model::regular`](crate::Model::regular).
#[derive(Debug, Clone)]
pub struct Regular {
    views: Vec<IntView>,
    dfa: Dfa,
    /// Whether a variable is seen at two positions: then one pass is not a fixpoint.
    aliased: bool,
    /// Scratch, `(n + 1) × states`: the forward marks, then the states of both passes.
    marks: Vec<bool>,
    /// Scratch: the symbols supported at one layer.
    symbols: Vec<i64>,
    /// The word-level form, when every symbol lies in `base..base + 64`.
    words: Option<WordDfa>,
}

/// The automaton with symbols as bit indices over `base..base + 64` and states as bits of
/// `w`-word sets, for the word-level pass: domains are read and narrowed one word at a time.
#[derive(Debug, Clone)]
struct WordDfa {
    base: i64,
    /// Words per state set.
    w: usize,
    /// Per state, its transitions `(symbol bit, to)`.
    out: Vec<Vec<(u32, u32)>>,
    /// The final states, as a set.
    finals: Vec<u64>,
    /// With at most 64 states and few of them: the transitions grouped by symbol bit and
    /// shift `d` (from `q` to `q + d`), each group the set of its `q`s, so that a layer moves
    /// a whole state set per group (a nonogram row's automaton has three groups).
    groups: Option<Vec<(u32, i32, u64)>>,
    /// Scratch, `(n + 1) × w` words: the forward sets.
    fwd: Vec<u64>,
    /// Scratch, `2 × w` words: the backward sets of the layers `i + 1` and `i`.
    bwd: Vec<u64>,
    /// Scratch, `n`: the domains as bits.
    doms: Vec<u64>,
}

impl WordDfa {
    fn new(dfa: &Dfa, n: usize) -> Option<WordDfa> {
        let symbols = dfa.out.iter().flatten().map(|a| a.0);
        let (lo, hi) = symbols.fold((i64::MAX, i64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
        let base = if lo > hi { 0 } else { lo };
        if lo <= hi && hi - lo >= 64 {
            return None;
        }
        let w = dfa.states.div_ceil(64);
        let out: Vec<Vec<(u32, u32)>> = dfa
            .out
            .iter()
            .map(|arcs| {
                arcs.iter()
                    .map(|&(s, to)| ((s - base) as u32, to as u32))
                    .collect()
            })
            .collect();
        let mut finals = vec![0u64; w];
        for (q, &f) in dfa.finals.iter().enumerate() {
            if f {
                finals[q / 64] |= 1 << (q % 64);
            }
        }
        let mut groups: Vec<(u32, i32, u64)> = Vec::new();
        if w == 1 {
            for (q, arcs) in out.iter().enumerate() {
                for &(b, to) in arcs.iter() {
                    let d = to as i32 - q as i32;
                    match groups.iter_mut().find(|g| g.0 == b && g.1 == d) {
                        Some(g) => g.2 |= 1 << q,
                        None => groups.push((b, d, 1 << q)),
                    }
                }
            }
        }
        let groups = (w == 1 && groups.len() <= 16).then_some(groups);
        Some(WordDfa {
            base,
            w,
            out,
            finals,
            groups,
            fwd: vec![0; (n + 1) * w],
            bwd: vec![0; 2 * w],
            doms: vec![0; n],
        })
    }
}

impl Regular {
    /// The propagator of `dfa` over `views`.
    pub fn new(views: Vec<IntView>, dfa: Dfa) -> Regular {
        let mut vars: Vec<_> = views.iter().map(|v| v.var()).collect();
        vars.sort_unstable();
        vars.dedup();
        Regular {
            aliased: vars.len() < views.len(),
            marks: vec![false; (views.len() + 1) * dfa.states],
            symbols: Vec::new(),
            words: WordDfa::new(&dfa, views.len()),
            views,
            dfa,
        }
    }

    /// The word-level pass on a single-word automaton, moving whole state sets per group.
    #[allow(clippy::too_many_arguments)]
    fn group_pass(
        ctx: &mut Context<'_>,
        views: &[IntView],
        base: i64,
        groups: &[(u32, i32, u64)],
        doms: &[u64],
        fwd: &mut [u64],
        start: usize,
        finals: u64,
    ) -> Result<bool, Conflict> {
        fn shift(x: u64, d: i32) -> u64 {
            if d >= 0 { x << d } else { x >> -d }
        }
        let n = views.len();
        fwd[0] = 1 << start;
        for i in 0..n {
            let (cur, dom) = (fwd[i], doms[i]);
            let mut next = 0;
            for &(b, d, m) in groups {
                if dom >> b & 1 != 0 {
                    next |= shift(cur & m, d);
                }
            }
            fwd[i + 1] = next;
        }
        let mut later = fwd[n] & finals;
        if later == 0 {
            return Err(Conflict);
        }
        let mut removed = false;
        for i in (0..n).rev() {
            let (cur, dom) = (fwd[i], doms[i]);
            let (mut alive, mut support) = (0u64, 0u64);
            for &(b, d, m) in groups {
                if dom >> b & 1 != 0 {
                    let pre = shift(later, -d) & m & cur;
                    if pre != 0 {
                        alive |= pre;
                        support |= 1 << b;
                    }
                }
            }
            // Values outside the window are in no arc: they go too.
            if support != dom || dom.count_ones() != ctx.size(views[i]) {
                removed |= ctx
                    .keep_bits64(views[i], base, support)
                    .expect("a one-word domain")?;
            }
            later = alive;
        }
        Ok(removed)
    }

    /// [`pass`](Regular::pass) a word at a time; `None` (having changed nothing) when a
    /// domain is wider than one word.
    fn word_pass(&mut self, ctx: &mut Context<'_>) -> Option<Result<bool, Conflict>> {
        let wd = self.words.as_mut()?;
        let n = self.views.len();
        let w = wd.w;
        for (d, &view) in wd.doms.iter_mut().zip(&self.views) {
            *d = ctx.bits64(view, wd.base)?;
        }
        if let Some(groups) = &wd.groups {
            return Some(Self::group_pass(
                ctx,
                &self.views,
                wd.base,
                groups,
                &wd.doms,
                &mut wd.fwd,
                self.dfa.start,
                wd.finals[0],
            ));
        }
        let fwd = &mut wd.fwd;
        fwd.fill(0);
        let start = self.dfa.start;
        fwd[start / 64] |= 1 << (start % 64);
        for i in 0..n {
            let dom = wd.doms[i];
            let (cur, next) = fwd[i * w..(i + 2) * w].split_at_mut(w);
            for (k, &word) in cur.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let q = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for &(b, to) in &wd.out[q] {
                        if dom >> b & 1 != 0 {
                            next[to as usize / 64] |= 1 << (to % 64);
                        }
                    }
                }
            }
        }
        // Backward: the last layer keeps its reached final states; layer i keeps the reached
        // states with an arc to a kept state of layer i + 1, whose symbols are the supports.
        let (later, now) = wd.bwd.split_at_mut(w);
        let mut any = false;
        for k in 0..w {
            later[k] = fwd[n * w + k] & wd.finals[k];
            any |= later[k] != 0;
        }
        if !any {
            return Some(Err(Conflict));
        }
        let mut removed = false;
        for i in (0..n).rev() {
            let dom = wd.doms[i];
            let mut support = 0u64;
            for k in 0..w {
                let mut bits = fwd[i * w + k];
                let mut alive = 0u64;
                while bits != 0 {
                    let tz = bits.trailing_zeros();
                    bits &= bits - 1;
                    let q = k * 64 + tz as usize;
                    for &(b, to) in &wd.out[q] {
                        if dom >> b & 1 != 0 && later[to as usize / 64] >> (to % 64) & 1 != 0 {
                            alive |= 1 << tz;
                            support |= 1 << b;
                        }
                    }
                }
                now[k] = alive;
            }
            // Values outside the window are in no arc: they go too.
            if support != dom || dom.count_ones() != ctx.size(self.views[i]) {
                match ctx.keep_bits64(self.views[i], wd.base, support)? {
                    Ok(changed) => removed |= changed,
                    Err(c) => return Some(Err(c)),
                }
            }
            later.copy_from_slice(now);
        }
        Some(Ok(removed))
    }

    /// One forward and one backward pass; returns whether a value went.
    fn pass(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let n = self.views.len();
        let q = self.dfa.states;
        let marks = &mut self.marks;
        marks.fill(false);
        marks[self.dfa.start] = true;
        for (i, &view) in self.views.iter().enumerate() {
            for s in 0..q {
                if marks[i * q + s] {
                    for &(symbol, to) in &self.dfa.out[s] {
                        if ctx.contains(view, symbol) {
                            marks[(i + 1) * q + to] = true;
                        }
                    }
                }
            }
        }
        // Backward: the last layer keeps its final states; layer i keeps the reached states
        // with an arc to a kept state of layer i + 1, whose symbols are the supports.
        let mut any = false;
        for s in 0..q {
            marks[n * q + s] &= self.dfa.finals[s];
            any |= marks[n * q + s];
        }
        if !any {
            return Err(Conflict);
        }
        let mut removed = false;
        for i in (0..n).rev() {
            let view = self.views[i];
            self.symbols.clear();
            for s in 0..q {
                if !marks[i * q + s] {
                    continue;
                }
                let mut alive = false;
                for &(symbol, to) in &self.dfa.out[s] {
                    if marks[(i + 1) * q + to] && ctx.contains(view, symbol) {
                        alive = true;
                        self.symbols.push(symbol);
                    }
                }
                marks[i * q + s] = alive;
            }
            self.symbols.sort_unstable();
            self.symbols.dedup();
            if (ctx.size(view) as usize) > self.symbols.len() {
                for v in ctx.values(view) {
                    if self.symbols.binary_search(&v).is_err() {
                        ctx.remove(view, v)?;
                        removed = true;
                    }
                }
            }
        }
        Ok(removed)
    }
}

impl Propagator for Regular {
    fn setup(&mut self, s: &mut Setup<'_>) {
        for &v in &self.views {
            s.subscribe(v, Event::Domain);
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        // On distinct variables one pass reaches the fixpoint; a variable seen twice may lose
        // at one position a value that another position's support relied on.
        loop {
            let removed = match self.word_pass(ctx) {
                Some(r) => r?,
                None => self.pass(ctx)?,
            };
            if !(removed && self.aliased) {
                break;
            }
        }
        if self.views.iter().all(|&v| ctx.is_fixed(v)) {
            return Ok(PropStatus::Subsumed);
        }
        Ok(PropStatus::Fixpoint)
    }

    fn is_satisfied(&self, a: &Assignment<'_>) -> bool {
        // The definition: run the automaton on the word.
        let mut q = self.dfa.start;
        for &v in &self.views {
            // A value beyond `i32` is no symbol of any automaton.
            match i32::try_from(a.value(v))
                .ok()
                .and_then(|symbol| self.dfa.next(q, symbol))
            {
                Some(next) => q = next,
                None => return false,
            }
        }
        self.dfa.is_final(q)
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &'static str {
        "regular"
    }
}
