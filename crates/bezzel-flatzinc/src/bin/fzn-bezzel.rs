//! `fzn-bezzel`: Bezzel as a FlatZinc solver. Reads FlatZinc (a file, or standard input),
//! prints solutions as the FlatZinc specification asks; see the `bezzel_flatzinc` crate.
//!
//! The search checks its time limit between nodes, every so many of them; a node of a large
//! model can take long (or the root propagation), so a watchdog ends the process a second
//! after the limit, with `=====UNKNOWN=====` when no solution was printed yet.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Standard output, noting whether a solution (a `----------` line) went through.
struct Watched {
    printed: Arc<AtomicBool>,
}

impl Write for Watched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        // One call per solution: the lock keeps the watchdog's last line after it.
        let mut out = std::io::stdout().lock();
        out.write_all(buf)?;
        out.flush()?;
        if buf.windows(10).any(|w| w == b"----------") {
            self.printed.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()
    }
}

fn main() -> ExitCode {
    let options = match bezzel_flatzinc::Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("fzn-bezzel: {message}");
            return ExitCode::from(2);
        }
    };
    let printed = Arc::new(AtomicBool::new(false));
    if let Some(ms) = options.time_ms {
        let printed = Arc::clone(&printed);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms) + Duration::from_secs(1));
            let mut out = std::io::stdout().lock();
            if !printed.load(Ordering::SeqCst) {
                let _ = writeln!(out, "=====UNKNOWN=====");
            }
            let _ = out.flush();
            std::process::exit(0);
        });
    }
    let mut out = Watched { printed };
    match bezzel_flatzinc::run(&options, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // MiniZinc recognises the error line; the message goes to both streams so that it
            // is seen whether the solver runs alone or under `minizinc`.
            let _ = writeln!(out, "% Error: {e}\n=====ERROR=====");
            eprintln!("fzn-bezzel: {e}");
            ExitCode::FAILURE
        }
    }
}
