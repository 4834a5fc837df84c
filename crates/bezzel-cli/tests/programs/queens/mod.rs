//! The `queens` program end to end, run as a user runs it: its commands, outputs, formats,
//! exit statuses and messages; placements read and written at the edges (huge boards, bad
//! input, closed pipes); and Ctrl-C.

mod commands;
mod interrupt;
mod placements_io;
