//! `fzn-bezzel`: Bezzel as a FlatZinc solver. Reads FlatZinc (a file, or standard input),
//! prints solutions as the FlatZinc specification asks; see the `bezzel_flatzinc` crate.

use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match bezzel_flatzinc::Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("fzn-bezzel: {message}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match bezzel_flatzinc::run(&options, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // MiniZinc recognises the error line; the message goes to both streams so that it
            // is seen whether the solver runs alone or under `minizinc`.
            use std::io::Write;
            let _ = writeln!(out, "% Error: {e}\n=====ERROR=====");
            let _ = out.flush();
            eprintln!("fzn-bezzel: {e}");
            ExitCode::FAILURE
        }
    }
}
