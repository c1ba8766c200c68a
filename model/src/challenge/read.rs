//! Reading challenge and workshop files: size first, then JSON, then the format version
//! (so a file from a newer page says "newer version", not "unknown field"), then the
//! shape field by field, so every refusal carries the JSON path of its field, then the
//! limits. Nothing here panics on any input: the tamper tests feed it mangled files.

use super::error::{child, index, FormatError, FormatErrorKind as Kind};
use super::format::*;
use super::goal::Goal;
use super::outcome::Outcome;
use crate::ids::LESSON_STEP_IDS;
use crate::scenario::{proc_index, CleanerConfig, Config, RelayConfig, Workload};
use crate::{Action, Scenario};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

const CHALLENGE_KEYS: [&str; 8] = [
    "v", "id", "lesson", "texts", "predict", "goal", "scenario", "solution",
];
const WORKSHOP_KEYS: [&str; 4] = ["v", "id", "title", "challenges"];
const TEXT_KEYS: [&str; 3] = ["title", "body", "hint"];

impl Challenge {
    /// Reads a challenge file or link, holding it to the format's limits.
    pub fn from_json(text: &str) -> Result<Challenge, FormatError> {
        read_challenge(&document(text)?, "")
    }
}

impl Workshop {
    /// Reads a workshop file, holding it and each of its challenges to the limits.
    pub fn from_json(text: &str) -> Result<Workshop, FormatError> {
        read_workshop(&document(text)?)
    }
}

/// A file that holds a challenge or a workshop.
#[derive(Clone, Debug, PartialEq)]
pub enum ChallengeFile {
    /// Boxed: a challenge holds its scenario inline, a workshop only a list.
    Challenge(Box<Challenge>),
    Workshop(Workshop),
}

impl ChallengeFile {
    /// Reads either, parsing the text once: a top-level `challenges` key makes it a
    /// workshop (#40: the page looked for the text `"challenges"` anywhere, so a
    /// challenge whose body quoted the word was read, and refused, as a workshop).
    pub fn from_json(text: &str) -> Result<ChallengeFile, FormatError> {
        let doc = document(text)?;
        if doc.get("challenges").is_some() {
            read_workshop(&doc).map(ChallengeFile::Workshop)
        } else {
            read_challenge(&doc, "").map(|c| ChallengeFile::Challenge(Box::new(c)))
        }
    }
}

/// The text as JSON, once it is known to be small enough.
fn document(text: &str) -> Result<Value, FormatError> {
    if text.len() > MAX_JSON_BYTES {
        let max_bytes = MAX_JSON_BYTES;
        return Err(FormatError::new("", Kind::TooLarge { max_bytes }));
    }
    serde_json::from_str(text).map_err(|e| {
        let (line, col) = (e.line(), e.column());
        FormatError::new("", Kind::NotJson { line, col })
    })
}

fn shape(field: impl Into<String>, message: impl Into<String>) -> FormatError {
    let message = message.into();
    FormatError::new(field, Kind::Shape { message })
}

/// A value of type `T`, or a shape error at `path`.
fn de<T: DeserializeOwned>(v: &Value, path: &str) -> Result<T, FormatError> {
    typed(v).map_err(|e| shape(path, e.to_string()))
}

/// `v` as a `T`, read from its JSON text. Not `T::deserialize(v)`: the page already
/// holds every scenario type's reader for JSON text (runs and links are read from text),
/// and a second set of readers for `Value` cost the page's wasm tens of kilobytes (its
/// 480 KB cap, #18). These files are small; printing a part again costs microseconds.
fn typed<T: DeserializeOwned>(v: &Value) -> Result<T, serde_json::Error> {
    serde_json::from_str(&v.to_string())
}

/// An object's fields, with the path that names them.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: &'a str,
}

impl<'a> Fields<'a> {
    fn of(v: &'a Value, path: &'a str) -> Result<Fields<'a>, FormatError> {
        match v {
            Value::Object(map) => Ok(Fields { map, path }),
            _ => Err(shape(path, "expected an object")),
        }
    }

    /// Refuses a key outside `known` (the first such key in the map's order).
    fn only(&self, known: &[&str]) -> Result<(), FormatError> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(shape(child(self.path, k), format!("unknown field `{k}`"))),
            None => Ok(()),
        }
    }

    fn at(&self, key: &str) -> String {
        child(self.path, key)
    }

    fn required<T: DeserializeOwned>(&self, key: &str) -> Result<T, FormatError> {
        match self.map.get(key) {
            Some(v) => de(v, &self.at(key)),
            None => Err(shape(self.at(key), format!("missing field `{key}`"))),
        }
    }

    /// A field that may be left out or `null`.
    fn optional<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, FormatError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => de(v, &self.at(key)).map(Some),
        }
    }

    /// `v`: present, a whole number from 1 to [`FORMAT_VERSION`].
    fn version(&self) -> Result<u32, FormatError> {
        match self.map.get("v").and_then(Value::as_u64) {
            None | Some(0) => Err(FormatError::new(self.at("v"), Kind::BadVersion)),
            Some(found) if found > u64::from(FORMAT_VERSION) => {
                let supported = FORMAT_VERSION;
                let kind = Kind::FutureVersion { found, supported };
                Err(FormatError::new(self.at("v"), kind))
            }
            Some(_) => Ok(FORMAT_VERSION),
        }
    }

    fn id(&self) -> Result<String, FormatError> {
        let id: String = self.required("id")?;
        let slug = id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if id.is_empty() || id.len() > MAX_ID_CHARS || !slug {
            return Err(FormatError::new(self.at("id"), Kind::BadId));
        }
        Ok(id)
    }
}

/// A text held to a length in characters; `required` texts must not be blank.
fn text_within(s: &str, max_chars: usize, required: bool, path: &str) -> Result<(), FormatError> {
    if required && s.trim().is_empty() {
        return Err(FormatError::new(path, Kind::EmptyText));
    }
    if s.chars().count() > max_chars {
        return Err(FormatError::new(path, Kind::TextTooLong { max_chars }));
    }
    Ok(())
}

fn language(lang: &str, path: &str) -> Result<(), FormatError> {
    if LANGUAGES.contains(&lang) {
        return Ok(());
    }
    let lang = lang.chars().take(MAX_ID_CHARS).collect();
    Err(FormatError::new(path, Kind::BadLanguage { lang }))
}

fn read_challenge(v: &Value, path: &str) -> Result<Challenge, FormatError> {
    let f = Fields::of(v, path)?;
    let v = f.version()?;
    f.only(&CHALLENGE_KEYS)?;
    let id = f.id()?;
    let lesson: Option<String> = f.optional("lesson")?;
    if let Some(id) = &lesson {
        if !LESSON_STEP_IDS.contains(&id.as_str()) {
            let id = id.chars().take(MAX_ID_CHARS).collect();
            return Err(FormatError::new(f.at("lesson"), Kind::UnknownLesson { id }));
        }
    }
    let texts = read_texts(&f)?;
    if texts.is_empty() && lesson.is_none() {
        return Err(FormatError::new(f.at("texts"), Kind::NoTexts));
    }
    let predict = read_predict(&f)?;
    let goal_text: String = f.required("goal")?;
    let goal =
        Goal::parse(&goal_text).map_err(|e| FormatError::new(f.at("goal"), Kind::Goal(e)))?;
    let scenario_path = f.at("scenario");
    let scenario = match f.map.get("scenario") {
        Some(s) => read_scenario(s, &scenario_path)?,
        None => return Err(shape(scenario_path, "missing field `scenario`")),
    };
    let solution = read_solution(&f, &scenario)?;
    Ok(Challenge {
        v,
        id,
        lesson,
        texts,
        predict,
        goal,
        scenario,
        solution,
    })
}

fn read_predict(f: &Fields) -> Result<Option<Outcome>, FormatError> {
    let Some(name) = f.optional::<String>("predict")? else {
        return Ok(None);
    };
    match outcome_of_name(&name) {
        Some(o) => Ok(Some(o)),
        None => Err(shape(
            f.at("predict"),
            format!("unknown outcome {name:?}: lost, duplicate or fine"),
        )),
    }
}

fn read_texts(f: &Fields) -> Result<BTreeMap<String, Texts>, FormatError> {
    let path = f.at("texts");
    let Some(v) = f.map.get("texts") else {
        return Ok(BTreeMap::new());
    };
    let langs = Fields::of(v, &path)?;
    let mut texts = BTreeMap::new();
    for (lang, t) in langs.map {
        language(lang, &path)?;
        let at = child(&path, lang);
        let tf = Fields::of(t, &at)?;
        tf.only(&TEXT_KEYS)?;
        let title: String = tf.required("title")?;
        let body: String = tf.optional("body")?.unwrap_or_default();
        let hint: Option<String> = tf.optional("hint")?;
        text_within(&title, MAX_TITLE_CHARS, true, &tf.at("title"))?;
        text_within(&body, MAX_BODY_CHARS, false, &tf.at("body"))?;
        if let Some(h) = &hint {
            text_within(h, MAX_HINT_CHARS, false, &tf.at("hint"))?;
        }
        texts.insert(lang.clone(), Texts { title, body, hint });
    }
    Ok(texts)
}

/// The scenario, within the model's own limits (`Scenario::validate`).
fn read_scenario(v: &Value, path: &str) -> Result<Scenario, FormatError> {
    let s: Scenario = typed(v).map_err(|e| shape(locate(v, path, &e), e.to_string()))?;
    s.validate().map_err(|e| {
        let message = e.message;
        FormatError::new(format!("{path}.{}", e.field), Kind::Scenario { message })
    })?;
    Ok(s)
}

fn read_solution(f: &Fields, s: &Scenario) -> Result<Option<Vec<Action>>, FormatError> {
    let path = f.at("solution");
    let items = match f.map.get("solution") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(shape(path, "expected an array of actions")),
    };
    if items.len() > MAX_SOLUTION_ACTIONS {
        let max = MAX_SOLUTION_ACTIONS;
        return Err(FormatError::new(
            path,
            Kind::TooMany {
                what: "solution",
                max,
            },
        ));
    }
    let session = !s.script.is_empty();
    let mut actions = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = index(&path, i);
        let a: Action = de(item, &at)?;
        if let Some(p) = a.process() {
            if proc_index(&s.config, p, session).is_none() {
                let process = p.chars().take(MAX_ID_CHARS).collect();
                let kind = Kind::ActionProcess { index: i, process };
                return Err(FormatError::new(child(&at, "process"), kind));
            }
        }
        actions.push(a);
    }
    Ok(Some(actions))
}

fn read_workshop(doc: &Value) -> Result<Workshop, FormatError> {
    let f = Fields::of(doc, "")?;
    let v = f.version()?;
    f.only(&WORKSHOP_KEYS)?;
    let id = f.id()?;
    let title = read_title(&f)?;
    let path = f.at("challenges");
    let items: &Vec<Value> = match f.map.get("challenges") {
        Some(Value::Array(items)) => items,
        Some(_) => return Err(shape(path, "expected an array of challenges")),
        None => return Err(shape(path, "missing field `challenges`")),
    };
    if items.is_empty() {
        return Err(FormatError::new(path, Kind::NoChallenges));
    }
    if items.len() > MAX_CHALLENGES {
        let max = MAX_CHALLENGES;
        return Err(FormatError::new(
            path,
            Kind::TooMany {
                what: "challenges",
                max,
            },
        ));
    }
    let mut challenges: Vec<Challenge> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = index(&path, i);
        let c = read_challenge(item, &at)?;
        if challenges.iter().any(|other| other.id == c.id) {
            let kind = Kind::DuplicateId { id: c.id };
            return Err(FormatError::new(child(&at, "id"), kind));
        }
        challenges.push(c);
    }
    Ok(Workshop {
        v,
        id,
        title,
        challenges,
    })
}

fn read_title(f: &Fields) -> Result<BTreeMap<String, String>, FormatError> {
    let path = f.at("title");
    let Some(v) = f.map.get("title") else {
        return Err(FormatError::new(path, Kind::NoTexts));
    };
    let langs = Fields::of(v, &path)?;
    let mut title = BTreeMap::new();
    for (lang, t) in langs.map {
        language(lang, &path)?;
        let at = child(&path, lang);
        let t: String = de(t, &at)?;
        text_within(&t, MAX_TITLE_CHARS, true, &at)?;
        title.insert(lang.clone(), t);
    }
    if title.is_empty() {
        return Err(FormatError::new(path, Kind::NoTexts));
    }
    Ok(title)
}

// ---- where in a scenario serde stopped -------------------------------------------------

/// The path of the field of a scenario that serde refused: each key is tried alone (all
/// but `name` have serde defaults), then, for the objects and lists inside, each of their
/// keys or items.
fn locate(v: &Value, path: &str, e: &serde_json::Error) -> String {
    let Some(m) = v.as_object() else {
        return path.to_string();
    };
    for (k, x) in m {
        let mut probe = Map::new();
        probe.insert("name".into(), Value::String(String::new()));
        probe.insert(k.clone(), x.clone());
        if typed::<Scenario>(&Value::Object(probe)).is_ok() {
            continue;
        }
        let at = child(path, k);
        return match k.as_str() {
            "config" => locate_config(x, &at),
            "workload" => locate_keys::<Workload>(x, &at),
            "faults" => locate_item::<crate::scenario::Fault>(x, &at),
            "schedule" => locate_item::<crate::scenario::Timed>(x, &at),
            "script" => locate_item::<crate::scenario::ScriptStmt>(x, &at),
            _ => at,
        };
    }
    match e.to_string().split("missing field `").nth(1) {
        Some(rest) => child(path, rest.split('`').next().unwrap_or("")),
        None => path.to_string(),
    }
}

fn locate_config(v: &Value, path: &str) -> String {
    let at = locate_keys::<Config>(v, path);
    let inner = v.as_object().and_then(|m| {
        let key = at.strip_prefix(path)?.strip_prefix('.')?;
        Some((key, m.get(key)?))
    });
    match inner {
        Some(("relay", x)) => locate_keys::<RelayConfig>(x, &at),
        Some(("queue", x)) => locate_keys::<crate::queue::QueueOptions>(x, &at),
        Some(("cleaner", x)) if x.is_object() => locate_keys::<CleanerConfig>(x, &at),
        _ => at,
    }
}

/// The first key of an object of a `#[serde(default)]` type that is refused on its own.
fn locate_keys<T: DeserializeOwned>(v: &Value, path: &str) -> String {
    let Some(m) = v.as_object() else {
        return path.to_string();
    };
    for (k, x) in m {
        let probe = Value::Object(Map::from_iter([(k.clone(), x.clone())]));
        if typed::<T>(&probe).is_err() {
            return child(path, k);
        }
    }
    path.to_string()
}

/// The first item of a list that is refused.
fn locate_item<T: DeserializeOwned>(v: &Value, path: &str) -> String {
    let Some(items) = v.as_array() else {
        return path.to_string();
    };
    match items.iter().position(|x| typed::<T>(x).is_err()) {
        Some(i) => index(path, i),
        None => path.to_string(),
    }
}
