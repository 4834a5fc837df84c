//! `fzn-bezzel` as a program: its command line and exit statuses, and the conformance suite
//! through MiniZinc.

mod command_line;
mod minizinc;
