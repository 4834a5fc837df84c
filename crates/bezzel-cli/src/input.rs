//! Input files named on the command line: checked before any work, opened one at a time.

pub use crate::failure::io_reason;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::{Path, PathBuf};

/// One input, opened only when its turn comes, so that any number of files can be read with
/// few descriptors and a named pipe is opened once, in its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (no files named, or `-`).
    Stdin,
    /// A file, checked by [`check_inputs`] but not yet opened.
    File(PathBuf),
}

impl Input {
    /// The name in messages: the path, or `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::File(path) => path.display().to_string(),
        }
    }

    /// Opens the input for reading, and says whether it is a terminal (someone typing). The
    /// message names the file and says why it cannot be read. The reader can move to another
    /// thread, so that a program can wait for input and for Ctrl-C at the same time.
    pub fn open(&self) -> Result<(Box<dyn BufRead + Send>, bool), String> {
        match self {
            Input::Stdin => Ok((
                Box::new(BufReader::new(io::stdin())),
                io::stdin().is_terminal(),
            )),
            Input::File(path) => Ok((
                Box::new(BufReader::with_capacity(1 << 16, open(path)?)),
                false,
            )),
        }
    }
}

/// The inputs named on the command line (stdin for none, and for `-`), each checked before
/// any work so that a mistyped name costs nothing: that it exists and is no folder, and for a
/// regular file that it opens. The message names the first bad one.
pub fn check_inputs(files: &[PathBuf]) -> Result<Vec<Input>, String> {
    if files.is_empty() {
        return Ok(vec![Input::Stdin]);
    }
    let mut inputs = Vec::with_capacity(files.len());
    for path in files {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
        let meta = std::fs::metadata(path).map_err(|e| cannot(io_reason(&e)))?;
        if meta.is_dir() {
            return Err(cannot("Is a directory".to_string()));
        }
        // A regular file is opened and closed again to check that it may be read. A pipe
        // is not: opening one for a moment would let its writer go on, and closing it would
        // make that writer fail; it is opened in its turn only.
        if meta.is_file() {
            open(path)?;
        }
        inputs.push(Input::File(path.clone()));
    }
    Ok(inputs)
}

/// Opens a file for reading; the message names it and says why not.
pub fn open(path: &Path) -> Result<File, String> {
    let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
    let file = File::open(path).map_err(|e| cannot(io_reason(&e)))?;
    // Opening a directory succeeds; reading it would fail only later.
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(cannot("Is a directory".to_string()));
    }
    Ok(file)
}
