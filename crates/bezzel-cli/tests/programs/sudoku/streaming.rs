//! Answers stream: a puzzle piped in is answered as soon as it is solved, while the program
//! that feeds the pipe keeps it open, not once a chunk of puzzles has filled.

use crate::common::{program, wait_at_most};
use bezzel_sudoku::check;
use bezzel_sudoku::grid::Grid;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const PUZZLES: [&str; 2] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "....3..2..4....3",
];

/// Long enough for a loaded machine to start the program and solve an easy puzzle; a
/// passing run waits only as long as that takes.
const PATIENCE: Duration = Duration::from_secs(5);

#[test]
fn an_answer_comes_before_the_next_line_of_a_slow_pipe() {
    let mut child = Command::new(program("sudoku"))
        .arg("--quiet")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sudoku starts");
    let mut feed = child.stdin.take().expect("stdin");
    let answers = BufReader::new(child.stdout.take().expect("stdout"));
    let (send, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in answers.lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(feed, "{}", PUZZLES[0]).unwrap();
    feed.flush().unwrap();
    let first = received.recv_timeout(PATIENCE);
    // The second line is written whatever happened, so that the program ends either way.
    writeln!(feed, "{}", PUZZLES[1]).unwrap();
    drop(feed);
    let first = first.unwrap_or_else(|_| {
        let _ = wait_at_most(&mut child, PATIENCE);
        panic!("no answer to the first line before the second was written")
    });
    let second = received
        .recv_timeout(PATIENCE * 2)
        .expect("the second answer");
    let status = wait_at_most(&mut child, PATIENCE).expect("sudoku ends with its input");
    assert!(status.success());
    for (puzzle, answer) in PUZZLES.iter().zip([first, second]) {
        let puzzle = Grid::parse_line(puzzle).unwrap();
        let solution = Grid::parse_line(&answer).unwrap_or_else(|e| panic!("`{answer}`: {e}"));
        assert_eq!(check::is_valid_solution(&puzzle, &solution), Ok(()));
    }
}
