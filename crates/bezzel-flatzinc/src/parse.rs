//! The first pass: FlatZinc text to statements, each with its line.
//!
//! MiniZinc writes one statement a line, so the text is cut at lines that end with `;` and
//! each piece goes to the `flatzinc` crate's parser. Its error messages are about the piece
//! (line 1, and column 1 whenever no statement form matched at all), so what is checked here
//! first is reported better here: characters FlatZinc cannot contain (its names and keywords
//! are ASCII), and brackets nested deeper than the parser's recursion allows.

use crate::FznError;
use flatzinc::Stmt;
use std::str::FromStr;

/// The deepest nesting of brackets a statement may have (the parser recurses on them).
pub(crate) const MAX_NESTING: usize = 100;

/// A parsed statement and the line it starts on (counted from 1).
#[derive(Debug)]
pub(crate) struct Statement {
    pub(crate) line: usize,
    pub(crate) stmt: Stmt,
}

/// Reads every statement of `text`, skipping comments and predicate declarations.
pub(crate) fn statements(text: &str) -> Result<Vec<Statement>, FznError> {
    let mut statements = Vec::new();
    let mut pending = String::new();
    let mut first_line = 1;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        // Predicate declarations only name the globals used; the parser does not know the
        // two-dimensional array types some of them have, and they carry nothing to translate.
        if pending.is_empty()
            && (trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with("predicate "))
        {
            continue;
        }
        if let Some((column, c)) = foreign_character(line) {
            return Err(FznError::Parse {
                line: i + 1,
                column,
                message: format!(
                    "unexpected character `{c}` (U+{:04X}): FlatZinc names and keywords are ASCII",
                    u32::from(c)
                ),
            });
        }
        if pending.is_empty() {
            first_line = i + 1;
        }
        pending.push_str(line);
        pending.push('\n');
        // MiniZinc writes one statement a line; a statement may still span lines elsewhere.
        if trimmed.ends_with(';') {
            statements.push(Statement {
                line: first_line,
                stmt: statement(&pending, first_line)?,
            });
            pending.clear();
        }
    }
    if !pending.trim().is_empty() {
        let last = pending.trim_end().lines().count().max(1);
        return Err(FznError::Parse {
            line: first_line + last - 1,
            column: pending
                .trim_end()
                .lines()
                .last()
                .unwrap_or("")
                .chars()
                .count()
                + 1,
            message: "the statement does not end with `;`".into(),
        });
    }
    Ok(statements)
}

/// The first character outside ASCII that is not in a string literal or a comment, with its
/// column (in characters, from 1).
fn foreign_character(line: &str) -> Option<(usize, char)> {
    if line.is_ascii() {
        return None;
    }
    let mut in_string = false;
    for (column, c) in line.chars().enumerate() {
        match c {
            '"' => in_string = !in_string,
            '%' if !in_string => return None,
            c if !c.is_ascii() && !in_string => return Some((column + 1, c)),
            _ => {}
        }
    }
    None
}

/// One statement (`text`, starting on line `first_line`).
fn statement(text: &str, first_line: usize) -> Result<Stmt, FznError> {
    // The parser recurses on nested brackets (a `seq_search` of `seq_search`s...); MiniZinc
    // never nests deeply, so refuse rather than overflow the stack.
    let mut depth = 0usize;
    for (at, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let before = &text[..at];
                    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
                    return Err(FznError::Parse {
                        line: first_line + before.matches('\n').count(),
                        column: before[line_start..].chars().count() + 1,
                        message: format!("brackets nested more than {MAX_NESTING} deep"),
                    });
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Stmt::from_str(text).map_err(|message| {
        // The parser does not know every type; name what Bezzel lacks anyway.
        if text.contains("var set of") {
            FznError::Unsupported {
                line: first_line,
                feature: "set variables".into(),
            }
        } else if text.contains("float") {
            FznError::Unsupported {
                line: first_line,
                feature: "floats".into(),
            }
        } else {
            let (line, column) = error_position(&message).unwrap_or((1, 1));
            let near: String = text
                .lines()
                .nth(line - 1)
                .unwrap_or("")
                .chars()
                .skip(column - 1)
                .take(40)
                .collect();
            FznError::Parse {
                line: first_line + line - 1,
                column,
                message: format!("syntax error at `{}`", near.trim_end()),
            }
        }
    })
}

/// The line and column (within the statement) of the parser's message, which begins with
/// `parse error at line L, column C`.
fn error_position(message: &str) -> Option<(usize, usize)> {
    let rest = message.split("at line ").nth(1)?;
    let (line, rest) = rest.split_once(", column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, column.parse().ok()?)).filter(|&(l, c)| l >= 1 && c >= 1)
}
