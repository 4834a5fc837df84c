//! Events: what kind of change happened to a variable.
//!
//! Every domain change is classified by the strongest thing that happened: the variable became
//! fixed, one of its bounds moved, or only an inner value went. A propagator subscribes to the
//! weakest event it cares about; a subscription to [`Event::Bounds`] also fires when the variable
//! becomes fixed, and one to [`Event::Domain`] fires on every change.

use serde::{Deserialize, Serialize};

/// A kind of domain change, ordered from weakest to strongest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Event {
    /// Some value was removed (every change is at least this).
    Domain = 0,
    /// The minimum or the maximum changed.
    Bounds = 1,
    /// The domain shrank to a single value.
    Fixed = 2,
}

impl Event {
    /// Whether a change of kind `self` wakes a subscription to `wanted`.
    #[inline]
    pub fn wakes(self, wanted: Event) -> bool {
        self >= wanted
    }
}

#[cfg(test)]
mod tests {
    use super::Event::*;

    #[test]
    fn stronger_events_wake_weaker_subscriptions() {
        assert!(Fixed.wakes(Domain) && Fixed.wakes(Bounds) && Fixed.wakes(Fixed));
        assert!(Bounds.wakes(Domain) && Bounds.wakes(Bounds) && !Bounds.wakes(Fixed));
        assert!(Domain.wakes(Domain) && !Domain.wakes(Bounds));
    }
}
