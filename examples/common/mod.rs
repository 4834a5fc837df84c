//! What both command-line programs need and the library has no business doing: facts about
//! the process they run in.

/// Whether stdout was closed when the program started (`queens >&-`, `sudoku >&-`). Rust's runtime then puts
/// /dev/null, opened for reading and writing, in its place, so every write would vanish
/// without an error; a shell's `> /dev/null` opens it for writing only, and is left alone.
#[cfg(target_os = "linux")]
pub(crate) fn stdout_was_closed() -> bool {
    if std::fs::read_link("/proc/self/fd/1")
        .map_or(true, |t| t != std::path::Path::new("/dev/null"))
    {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
    // O_ACCMODE is 0o3; O_RDWR is 0o2.
    flags.is_some_and(|f| f & 0o3 == 0o2)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn stdout_was_closed() -> bool {
    false
}
