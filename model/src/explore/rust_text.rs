//! Text that goes into generated Rust source ([`super::to_rust_test`]). A trace comes from a
//! file or a share link, so every string in it (the scenario's name and summary, process
//! names, the property) is someone else's text. It reaches the generated source only in
//! shapes that cannot end where they started: a raw string whose `#` fence is longer than
//! any run of `#` after a quote in the content, a comment with no line break, an identifier
//! made of `[a-z0-9_]`. Non-ASCII characters are escaped as well: a bidi override left in a
//! literal or a comment makes rustc refuse the file (and hides what it says from a reader).

use std::fmt::Write;

/// JSON text with every non-ASCII character written as a `\uXXXX` escape: the same JSON
/// value, in printable ASCII only. Outside strings JSON is ASCII already, so every
/// character replaced here is inside a string, where the escape means the same thing.
fn ascii_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() && !c.is_ascii_control() {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            write!(out, "\\u{unit:04x}").expect("writing to a String cannot fail");
        }
    }
    out
}

/// A raw string literal (`r#"…"#`) holding `json`, made ASCII first.
pub(super) fn raw_json_literal(json: &str) -> String {
    let text = ascii_json(json);
    // The fence must be longer than any `"` followed by `#`s in the text, or that quote
    // would close the literal early.
    let mut longest = 0usize;
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|&b| b == b'#').count();
        longest = longest.max(run);
    }
    let fence = "#".repeat(longest + 1);
    format!("r{fence}\"{text}\"{fence}")
}

/// A string literal (`"…"`) that evaluates to `s`: printable ASCII as it is, quotes and
/// backslashes escaped, every other character as `\u{…}`.
pub(super) fn str_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => write!(out, "\\u{{{:x}}}", c as u32).expect("writing to a String cannot fail"),
        }
    }
    out.push('"');
    out
}

/// Longest piece of someone else's text put in a comment.
const COMMENT_MAX_CHARS: usize = 80;

/// Text for one `//` comment line: printable ASCII only (anything else becomes `?`, so
/// no line break can end the comment), at most [`COMMENT_MAX_CHARS`] characters.
pub(super) fn comment_text(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(COMMENT_MAX_CHARS)
        .map(|c| if matches!(c, ' '..='~') { c } else { '?' })
        .collect();
    if s.chars().count() > COMMENT_MAX_CHARS {
        out.push('…');
    }
    out
}

/// A function name: lower-case ASCII letters, digits and `_`; anything else becomes `_`,
/// and a name that would start with a digit (or be empty) gets a `t_` in front.
pub(super) fn identifier(s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    if body.is_empty() || body.starts_with(|c: char| c.is_ascii_digit()) {
        format!("t_{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_literal_fence_outlasts_every_quote_hash_run() {
        assert_eq!(raw_json_literal(r#"{"a":1}"#), r##"r#"{"a":1}"#"##);
        let text = raw_json_literal(r###"{"a":"x\"##y"}"###);
        assert!(text.starts_with("r###\""), "{text}");
        assert!(text.ends_with("\"###"), "{text}");
    }

    #[test]
    fn non_ascii_becomes_json_escapes() {
        assert_eq!(
            ascii_json("\"o‘zbek\u{202e}😀\""),
            "\"o\\u2018zbek\\u202e\\ud83d\\ude00\""
        );
        let back: String = serde_json::from_str(&ascii_json("\"o‘zbek\u{202e}😀\"")).unwrap();
        assert_eq!(back, "o‘zbek\u{202e}😀");
    }

    #[test]
    fn comments_and_identifiers_hold_no_line_break() {
        assert_eq!(comment_text("a\nb\r\u{2028}c\u{202e}"), "a?b??c?");
        assert_eq!(identifier("Replays the run!"), "replays_the_run_");
        assert_eq!(identifier("1x"), "t_1x");
        assert_eq!(identifier(""), "t_");
        assert_eq!(
            str_literal("a\"b\\c\nd\u{202e}"),
            r#""a\"b\\c\u{a}d\u{202e}""#
        );
    }
}
