//! The challenge and workshop file format (issue #23): what an instructor shares as a
//! link or a JSON file. A challenge is a starting scenario, a goal in the goal language,
//! texts in the page's languages (or the lesson step it stands for), an optional guess to
//! predict and an optional solution; a workshop is challenges in order under a title.
//!
//! Writing is serde's; reading goes through [`Challenge::from_json`] and
//! [`Workshop::from_json`] (module `read`), which hold a file to the limits below and
//! name the field of every refusal, because these files come from strangers' links.
//! [`Challenge::to_compact_json`] leaves out every scenario field the model fills in by
//! itself, so a link stays short.

use super::goal::Goal;
use super::outcome::Outcome;
use crate::{Action, Scenario};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;

/// The format version this model writes and reads. A file with a larger `v` was written
/// by a newer page; one without `v` (or with 0) is not a challenge file.
pub const FORMAT_VERSION: u32 = 1;
/// The longest JSON text read, challenge or workshop.
pub const MAX_JSON_BYTES: usize = 64 * 1024;
/// Challenges in one workshop: the built-in lesson (21 steps since #43) exported as a
/// workshop fits, with room for an instructor's own steps.
pub const MAX_CHALLENGES: usize = 32;
/// Characters (not bytes) of a title, a body and a hint.
pub const MAX_TITLE_CHARS: usize = 120;
pub const MAX_BODY_CHARS: usize = 2_000;
pub const MAX_HINT_CHARS: usize = 500;
/// Actions in a solution.
pub const MAX_SOLUTION_ACTIONS: usize = 200;
/// Characters of an id (a slug of `a-z`, `0-9` and `-`).
pub const MAX_ID_CHARS: usize = 40;
/// The page's languages, the only keys of `texts` and of a workshop's `title`.
pub const LANGUAGES: [&str; 3] = ["uz", "en", "ru"];

/// A challenge's words in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Texts {
    pub title: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One challenge. Read it with [`Challenge::from_json`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Challenge {
    /// The format version ([`FORMAT_VERSION`]).
    pub v: u32,
    /// A slug: progress is saved under it, a workshop's challenges differ by it.
    pub id: String,
    /// The built-in lesson step this challenge is (its id): the page takes the texts
    /// from its own i18n, so `texts` may be empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lesson: Option<String>,
    /// Texts by language (`uz`, `en`, `ru`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub texts: BTreeMap<String, Texts>,
    /// The outcome the room is asked to guess before the run.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "write_outcome"
    )]
    pub predict: Option<Outcome>,
    /// Written as its canonical text.
    #[serde(serialize_with = "write_goal")]
    pub goal: Goal,
    pub scenario: Scenario,
    /// The actions that reach the goal from the start, before playing on. `None`: no
    /// solution given; `Some([])`: pressing play is enough.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<Action>>,
}

/// Challenges in order, under a title. Read it with [`Workshop::from_json`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Workshop {
    pub v: u32,
    pub id: String,
    /// The workshop's title by language.
    pub title: BTreeMap<String, String>,
    pub challenges: Vec<Challenge>,
}

fn write_goal<S: Serializer>(goal: &Goal, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(goal)
}

fn write_outcome<S: Serializer>(o: &Option<Outcome>, s: S) -> Result<S::Ok, S::Error> {
    match o {
        Some(o) => s.serialize_str(outcome_name(*o)),
        None => s.serialize_none(),
    }
}

/// An outcome's name in the file.
pub fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Lost => "lost",
        Outcome::Duplicate => "duplicate",
        Outcome::Fine => "fine",
    }
}

/// The outcome of that name.
pub fn outcome_of_name(name: &str) -> Option<Outcome> {
    Outcome::ALL.into_iter().find(|o| outcome_name(*o) == name)
}

impl Challenge {
    /// The whole challenge, every scenario field written out (a file to read and edit).
    pub fn to_json(&self) -> String {
        // Only maps with string keys and plain values: serialising cannot fail.
        serde_json::to_string_pretty(self).expect("a challenge serialises")
    }

    /// The challenge for a link: no white space, and the scenario without the fields
    /// equal to `Scenario::default()`'s (reading fills them in again).
    pub fn to_compact_json(&self) -> String {
        compact_value(self).to_string()
    }
}

impl Workshop {
    /// The whole workshop, every scenario field written out.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a workshop serialises")
    }

    /// The workshop with each challenge's scenario as [`Challenge::to_compact_json`]
    /// writes it.
    pub fn to_compact_json(&self) -> String {
        let mut v = value_of(self);
        if let Some(Value::Array(cs)) = v.get_mut("challenges") {
            for (c, challenge) in cs.iter_mut().zip(&self.challenges) {
                *c = compact_value(challenge);
            }
        }
        v.to_string()
    }
}

/// `x` as a JSON value, through its JSON text: not `serde_json::to_value`, whose writers
/// for `Value` would be a second set beside the text writers the page already holds (tens
/// of kilobytes of the page's 480 KB cap, #18). Maps with string keys and plain values
/// only: writing cannot fail, and the text is JSON.
fn value_of<T: Serialize>(x: &T) -> Value {
    let text = serde_json::to_string(x).expect("a challenge serialises");
    serde_json::from_str(&text).expect("serde_json reads its own text")
}

/// A challenge as JSON, its scenario pruned of default values.
fn compact_value(c: &Challenge) -> Value {
    let mut v = value_of(c);
    let defaults = value_of(&Scenario::default());
    if let Some(Value::Object(s)) = v.get_mut("scenario") {
        // `name` has no serde default: it stays, whatever it says.
        let name = s.remove("name");
        let mut scenario = Value::Object(std::mem::take(s));
        prune(&mut scenario, &defaults);
        if let Value::Object(pruned) = scenario {
            *s = pruned;
        }
        if let Some(name) = name {
            s.insert("name".into(), name);
        }
    }
    v
}

/// Drops, recursively, every key of `v` whose value equals the one at the same place in
/// `defaults`. Every object of a scenario with defaults has `#[serde(default)]` on its
/// type (filled from the same `Default` impls `Scenario::default()` uses), so reading
/// restores what is dropped.
fn prune(v: &mut Value, defaults: &Value) {
    if let (Value::Object(m), Value::Object(d)) = (v, defaults) {
        m.retain(|k, x| match d.get(k) {
            Some(dx) if dx == x => false,
            Some(dx) => {
                prune(x, dx);
                true
            }
            None => true,
        });
    }
}
