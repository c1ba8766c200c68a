//! The postMessage API between the embedded page and its host, version 1 (README,
//! "Embedding"). Pure: the host's messages are read here (bounded, shape checked,
//! anything unknown ignored), the page's are built here; `host_api.rs` moves them.
//!
//! Every message, both ways, is a JSON object with `"protocol": "outbox-playground"`,
//! `"version": 1` and a `"type"`. A host's request may carry an `"id"` (a number, or a
//! string of at most 64 characters); the answer repeats it.
//!
//! | host → page | page → host |
//! |---|---|
//! | `get-progress` | `progress` `{progress}` (the course's progress, as its export) |
//! | `open-step` `{step: "<id>"}` | `goal-reached` `{step, index, done, total}` |
//! | `open-workshop` `{link: "#workshop=…"}` | `exercises` `{right, total}` (exercise 1's blanks) |
//! | | `quiz` `{answered, right, total, score}` (first answers; score in %) |
//! | | `completed` `{done, total}` (every step's goal reached) |
//! | | `ready` `{steps: [ids]}`, `refused` `{request, reason}` |

use outbox_model::lesson::STEPS;
use serde_json::{json, Map, Value};

/// The `protocol` field of every message.
pub const PROTOCOL: &str = "outbox-playground";
/// The protocol's version: a change a host could notice raises it.
pub const VERSION: u64 = 1;
/// The longest message read, in characters: a workshop link fits, a flood does not.
pub const MAX_CHARS: usize = 64 * 1024;
/// The longest `id` a host may send (a string id longer is dropped from the answer).
const MAX_ID_CHARS: usize = 64;

/// What a host may ask for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    GetProgress,
    /// Open the guided step with this index.
    OpenStep(usize),
    /// Open a `#workshop=` or `#challenge=` link.
    OpenWorkshop(String),
}

/// A host's message that is ours: the request, or why it is refused, and its id.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub id: Option<Value>,
    pub request: Result<Request, Refusal>,
}

/// A request of a known type with a bad field: answered with `refused`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub request: &'static str,
    pub reason: &'static str,
}

/// Reads a host's message (its JSON text). None when it is not ours (not JSON, too long,
/// another protocol or version, an unknown type): ignored without an answer.
pub fn read(text: &str) -> Option<Asked> {
    if text.len() > MAX_CHARS {
        return None;
    }
    let Value::Object(m) = serde_json::from_str::<Value>(text).ok()? else {
        return None;
    };
    if m.get("protocol")?.as_str()? != PROTOCOL || m.get("version")?.as_u64()? != VERSION {
        return None;
    }
    let id = m.get("id").filter(|id| match id {
        Value::Number(_) => true,
        Value::String(s) => s.chars().count() <= MAX_ID_CHARS,
        _ => false,
    });
    let refuse = |request, reason| Err(Refusal { request, reason });
    let request = match m.get("type")?.as_str()? {
        "get-progress" => Ok(Request::GetProgress),
        "open-step" => match m.get("step").and_then(Value::as_str) {
            None => refuse("open-step", "step-missing"),
            Some(id) => STEPS
                .iter()
                .position(|s| s.id == id)
                .map(Request::OpenStep)
                .map_or_else(|| refuse("open-step", "unknown-step"), Ok),
        },
        "open-workshop" => match m.get("link").and_then(Value::as_str) {
            Some(l) if l.starts_with("#workshop=") || l.starts_with("#challenge=") => {
                Ok(Request::OpenWorkshop(l.to_string()))
            }
            _ => refuse("open-workshop", "not-a-workshop-link"),
        },
        _ => return None,
    };
    Some(Asked {
        id: id.cloned(),
        request,
    })
}

/// A page's message of type `kind` with `fields` (and the request's `id`, if any).
pub fn message(kind: &str, fields: Value, id: Option<&Value>) -> Value {
    let mut m = Map::new();
    m.insert("protocol".into(), PROTOCOL.into());
    m.insert("version".into(), VERSION.into());
    m.insert("type".into(), kind.into());
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    if let Some(id) = id {
        m.insert("id".into(), id.clone());
    }
    Value::Object(m)
}

/// `ready`: the page is up and listens; the course's step ids, in order.
pub fn ready() -> Value {
    let steps: Vec<&str> = STEPS.iter().map(|s| s.id).collect();
    message("ready", json!({ "steps": steps }), None)
}

/// `refused`: a request of a known type with a bad field.
pub fn refused(r: &Refusal, id: Option<&Value>) -> Value {
    message(
        "refused",
        json!({ "request": r.request, "reason": r.reason }),
        id,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_and_junk_is_ignored() {
        let get = json!({"protocol": PROTOCOL, "version": 1, "type": "get-progress", "id": 7});
        let asked = read(&get.to_string()).unwrap();
        assert_eq!(asked.request, Ok(Request::GetProgress));
        assert_eq!(asked.id, Some(json!(7)));
        let step =
            json!({"protocol": PROTOCOL, "version": 1, "type": "open-step", "step": STEPS[2].id});
        assert_eq!(
            read(&step.to_string()).unwrap().request,
            Ok(Request::OpenStep(2))
        );
        for junk in [
            String::new(),
            "hello".into(),
            "[1,2]".into(),
            json!({"protocol": "other", "version": 1, "type": "get-progress"}).to_string(),
            json!({"protocol": PROTOCOL, "version": 2, "type": "get-progress"}).to_string(),
            json!({"protocol": PROTOCOL, "version": "1", "type": "get-progress"}).to_string(),
            json!({"protocol": PROTOCOL, "version": 1, "type": "delete-everything"}).to_string(),
            json!({"protocol": PROTOCOL, "version": 1}).to_string(),
            format!(
                r#"{{"protocol":"{PROTOCOL}","version":1,"type":"get-progress","pad":"{}"}}"#,
                "x".repeat(MAX_CHARS)
            ),
        ] {
            assert_eq!(read(&junk), None, "{junk:.80}");
        }
    }

    #[test]
    fn bad_fields_are_refused_with_a_reason() {
        let unknown = json!({"protocol": PROTOCOL, "version": 1, "type": "open-step", "step": "nope", "id": "a"});
        let asked = read(&unknown.to_string()).unwrap();
        let refusal = asked.request.clone().unwrap_err();
        assert_eq!(refusal.reason, "unknown-step");
        let answer = refused(&refusal, asked.id.as_ref());
        assert_eq!(answer["type"], "refused");
        assert_eq!(answer["id"], "a");
        let link = json!({"protocol": PROTOCOL, "version": 1, "type": "open-workshop", "link": "javascript:alert(1)"});
        assert_eq!(
            read(&link.to_string()).unwrap().request.unwrap_err().reason,
            "not-a-workshop-link"
        );
        let long_id = json!({"protocol": PROTOCOL, "version": 1, "type": "get-progress", "id": "i".repeat(65)});
        assert_eq!(
            read(&long_id.to_string()).unwrap().id,
            None,
            "a long id is dropped"
        );
    }
}
