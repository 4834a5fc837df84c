//! The `sudoku` program end to end, run as a user runs it: answers, formats, inputs, exit
//! statuses and messages; and runs stopped by Ctrl-C or a time limit.

mod commands;
mod generate;
mod interrupt;
mod logic;
mod streaming;
