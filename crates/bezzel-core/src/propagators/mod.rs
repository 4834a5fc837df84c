//! Built-in filtering algorithms, one idea per file, each written once against [`IntView`]s.
//!
//! These are the algorithms; the modelling functions that pick and post them live in
//! [`constraints`](crate::constraints). A user normally never names these types, but they are
//! public so that they can be composed or posted directly.
//!
//! [`IntView`]: crate::IntView

mod all_different;
mod all_different_bounds;
mod all_different_domain;
mod binary;
mod check;
mod linear;

pub use all_different::AllDifferentValue;
pub use all_different_bounds::AllDifferentBounds;
pub use all_different_domain::AllDifferentDomain;
pub use binary::{Equal, LessEq, NotEqual};
pub use check::Check;
pub use linear::{Linear, Relation};
