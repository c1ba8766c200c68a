//! Naming the field of a JSON error: serde_json says where it stopped (a line and a
//! column) and what it found, not which key it was reading; serde_path_to_error keeps the
//! path to the object, and the key is recovered from the text before that place. Kept apart from the format because it reads serde_json's
//! messages, which the format itself never depends on.

use super::error::ScenarioError;

/// Finds the key being parsed where serde stopped, to name the field in the message.
pub(crate) fn json_error_field(text: &str, e: &serde_json::Error) -> String {
    let msg = e.to_string();
    for marker in ["unknown field `", "missing field `"] {
        if let Some(rest) = msg.split(marker).nth(1) {
            return rest.split('`').next().unwrap_or("?").to_string();
        }
    }
    let head = &text[..error_offset(text, e)];
    // Serde reads an internally tagged object (a fault, an action) whole before it looks
    // at its fields, so its errors point at the object's end, after its last key. The
    // value serde names is the better guide: the key written right before that value.
    if let Some(key) = offending_value(&msg).and_then(|v| key_before_value(head, &v)) {
        return key;
    }
    last_key(head).unwrap_or_else(|| "(document)".into())
}

/// The byte offset of serde's line and column, on a character boundary.
fn error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line = e.line().saturating_sub(1);
    let offset: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut upto = (offset + e.column()).min(text.len());
    // The position can fall inside a multi-byte character (`{"name": é}`): slice at the
    // character's start, never through it.
    while !text.is_char_boundary(upto) {
        upto -= 1;
    }
    upto
}

/// The JSON text of the value an error names: `unknown variant `x``, `invalid type:
/// string "x"`, `invalid value: integer `-1``, …
fn offending_value(msg: &str) -> Option<String> {
    if let Some(rest) = msg.split("unknown variant `").nth(1) {
        return rest.split('`').next().map(|v| format!("\"{v}\""));
    }
    if let Some(rest) = msg.split("string \"").nth(1) {
        return rest.split('"').next().map(|v| format!("\"{v}\""));
    }
    for kind in ["integer `", "floating point `", "boolean `"] {
        if let Some(rest) = msg.split(kind).nth(1) {
            return rest.split('`').next().map(str::to_string);
        }
    }
    None
}

/// The key of the last `"key": value` in `head` whose value is `value`.
fn key_before_value(head: &str, value: &str) -> Option<String> {
    head.rmatch_indices(value).find_map(|(at, _)| {
        let before = head[..at].trim_end().strip_suffix(':')?.trim_end();
        let before = before.strip_suffix('"')?;
        let start = before.rfind('"')?;
        Some(before[start + 1..].to_string())
    })
}

/// The last key in `head`.
fn last_key(head: &str) -> Option<String> {
    let end = head.rfind("\":")?;
    let start = head[..end].rfind('"')?;
    Some(head[start + 1..end].to_string())
}

/// Parses `text`; an error names the whole path of the field serde stopped at
/// (`config.relay.lock`, `faults[0].step`), as `validate`'s refusals do. The path comes
/// from serde_path_to_error (#39: kept, the first load went 472.6 → 472.3 KB); it ends at
/// the object for an internally tagged one (read whole first) and before an unknown key,
/// so the key scraped from the text finishes it.
pub(crate) fn parse_naming_the_field<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<T, ScenarioError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let key = json_error_field(text, &inner);
        let field = if path == "." {
            key
        } else if path.ends_with(&key) {
            path
        } else {
            format!("{path}.{key}")
        };
        ScenarioError {
            field,
            message: inner.to_string(),
            limit: None,
        }
    })
}
