//! `Context::bits64` and `Context::keep_bits64` with a window near the ends of `i64`: no value
//! of a variable lies there, so the word is empty and keeping it empties the variable (values
//! outside the window go). The window's start was computed with plain arithmetic, which
//! overflowed for such bases (a panic in debug builds); the store's own window saturates, and
//! so does the view's now. Checked on plain, offset and negated views, with the values found
//! by a propagator that only reads, then by one that keeps every bit of a far window.

use bezzel_core::prelude::*;

/// Reads `bits64` at the extreme bases and at the view's own minimum, into `seen`.
#[derive(Debug)]
struct Reader {
    view: IntView,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<u64>>>>,
}

impl Propagator for Reader {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.view, Event::Domain);
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        let own = ctx.min(self.view);
        let words = [i64::MIN, i64::MIN + 1, i64::MAX - 63, i64::MAX, own]
            .map(|base| ctx.bits64(self.view, base));
        self.seen.lock().unwrap().extend(words);
        Ok(PropStatus::Subsumed)
    }
    fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
        true
    }
}

/// Keeps every bit of the window at `base`: every value lies outside it.
#[derive(Debug)]
struct KeepFar {
    view: IntView,
    base: i64,
}

impl Propagator for KeepFar {
    fn setup(&mut self, s: &mut Setup<'_>) {
        s.subscribe(self.view, Event::Domain);
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropResult {
        ctx.keep_bits64(self.view, self.base, u64::MAX)
            .expect("a one-word domain")?;
        Ok(PropStatus::Subsumed)
    }
    fn is_satisfied(&self, _: &Assignment<'_>) -> bool {
        true
    }
}

fn views(m: &mut Model) -> Vec<IntView> {
    let x = m.int_var([3, 5, 6]).unwrap();
    vec![
        x.into(),
        x.offset(1_000_000),
        x.offset(-1_000_000),
        x.minus(),
        x.minus().offset(bezzel_core::var::MAX_VIEW_OFFSET - 10),
    ]
}

#[test]
fn a_window_at_either_end_of_i64_holds_no_value() {
    let count = views(&mut Model::new()).len();
    for i in 0..count {
        let mut m = Model::new();
        let view = views(&mut m)[i];
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        m.post(Reader {
            view,
            seen: seen.clone(),
        })
        .unwrap();
        m.propagate().unwrap();
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 5, "view {i}");
        assert_eq!(&seen[..4], &[Some(0); 4], "view {i}: far windows");
        // The view's own window holds its three values, lowest first.
        let own = seen[4].expect("one word");
        assert_eq!(own.count_ones(), 3, "view {i}: {own:b}");
        assert_eq!(own & 1, 1, "view {i}: the minimum is bit 0");
    }
}

#[test]
fn keeping_a_window_at_either_end_of_i64_empties_the_variable() {
    let count = views(&mut Model::new()).len();
    for i in 0..count {
        for base in [i64::MIN, i64::MIN + 1, i64::MAX - 63, i64::MAX] {
            let mut m = Model::new();
            let view = views(&mut m)[i];
            m.post(KeepFar { view, base }).unwrap();
            assert!(m.propagate().is_err(), "view {i}, base {base}");
        }
    }
}
