//! Text written into XML and HTML (the SVG pictures of boards and grids, the search-tree page):
//! one escape for both, so that a name or a label from the user can never break the document.

/// `text` with the five characters XML gives a meaning escaped (which also makes it safe in
/// HTML text and quoted attributes), and the characters XML 1.0 forbids (control characters
/// other than tab and line ends, U+FFFE and U+FFFF) dropped.
///
/// ```
/// use bezzel_core::markup::escape;
/// assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
/// ```
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => s.push(c),
        }
    }
    s
}
