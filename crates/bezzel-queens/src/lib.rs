//! N-Queens on Bezzel.
#![deny(missing_docs)]
