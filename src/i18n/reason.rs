//! Why something from outside was refused (a link, a saved state, a file, a storage
//! write), as a key of the page and the values it names, so a notice reads in the reader's
//! language instead of embedding an English `String`. Values that are data (a number, a
//! field's JSON path, a storage key, the browser's exception name) are filled in as they
//! are.

use crate::i18n::lang::Lang;
use crate::i18n::table::{t, Key};

/// A reason, rendered in any language by [`Reason::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub key: Key,
    args: Vec<(&'static str, String)>,
}

impl Reason {
    /// The reason `key`, with no values yet.
    pub fn new(key: Key) -> Reason {
        Reason {
            key,
            args: Vec::new(),
        }
    }

    /// Fills the key's `{name}` with `value`.
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Reason {
        self.args.push((name, value.to_string()));
        self
    }

    /// Data shown as it is in every language (a storage key, an exception's name);
    /// an empty one is no reason at all.
    pub fn data(text: impl Into<String>) -> Reason {
        Reason::new(Key::ReasonData).arg("data", text.into())
    }

    /// Why a JSON text was not what was expected: not JSON at all, or JSON of the wrong
    /// shape; where, by line and column (serde's own message is English).
    pub fn json(e: &serde_json::Error) -> Reason {
        let key = match e.classify() {
            serde_json::error::Category::Data => Key::ReasonJsonShape,
            _ => Key::ReasonJsonSyntax,
        };
        Reason::new(key)
            .arg("line", e.line())
            .arg("col", e.column())
    }

    /// The model refused a scenario: its field (a JSON path), which reads the same in
    /// every language; the model's rule is English, so it goes to the console only.
    pub fn scenario(e: &outbox_model::scenario::ScenarioError) -> Reason {
        leptos::logging::warn!("scenario refused: {e}");
        match e.limit {
            Some(max) => Reason::new(Key::ReasonScenarioTooMany)
                .arg("field", &e.field)
                .arg("max", max),
            None => Reason::new(Key::ReasonScenarioField).arg("field", &e.field),
        }
    }

    /// The world refused an action: by the model's code, with the process it names (a
    /// process's name reads the same in every language, as the log shows it).
    pub fn refusal(r: &outbox_model::world::Refusal) -> Reason {
        use outbox_model::world::Refusal;
        match r {
            Refusal::NoSuchProcess { name } => {
                Reason::new(Key::ReasonNoSuchProcess).arg("name", name)
            }
            Refusal::CannotStep { process } => {
                Reason::new(Key::ReasonCannotStep).arg("process", process)
            }
            Refusal::NoJobToRetry { event } => {
                Reason::new(Key::ReasonNoJobToRetry).arg("event", event)
            }
            Refusal::JobNotFailed { event } => {
                Reason::new(Key::ReasonJobNotFailed).arg("event", event)
            }
            Refusal::RetryWhileRedisDown { event } => {
                Reason::new(Key::ReasonRetryRedisDown).arg("event", event)
            }
        }
    }

    /// The text in `lang`, every value filled in.
    pub fn text(&self, lang: Lang) -> String {
        let mut text = t(lang, self.key).to_string();
        for (name, value) in &self.args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// Whether this says nothing (an empty data reason: a notice without a `{why}`).
    pub fn is_empty(&self) -> bool {
        self.key == Key::ReasonData && self.args.iter().all(|(_, v)| v.is_empty())
    }
}

impl From<&str> for Reason {
    fn from(text: &str) -> Reason {
        Reason::data(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_reads_in_every_language_with_its_values() {
        let why = Reason::new(Key::ReasonVersion)
            .arg("v", 99)
            .arg("expected", 1);
        for lang in Lang::ALL {
            let text = why.text(lang);
            assert!(
                text.contains("99") && !text.contains('{'),
                "{}: {text}",
                lang.code()
            );
        }
        assert_ne!(why.text(Lang::Uz), why.text(Lang::En));
        assert_ne!(why.text(Lang::Ru), why.text(Lang::En));
    }

    #[test]
    fn json_errors_say_where_in_the_readers_language() {
        let syntax = serde_json::from_str::<serde_json::Value>("{\n  oops").unwrap_err();
        let why = Reason::json(&syntax);
        assert_eq!(why.key, Key::ReasonJsonSyntax);
        assert!(why.text(Lang::Ru).contains('2'), "{}", why.text(Lang::Ru));
        let shape = serde_json::from_str::<u32>("\"text\"").unwrap_err();
        assert_eq!(Reason::json(&shape).key, Key::ReasonJsonShape);
    }

    #[test]
    fn data_is_shown_as_it_is() {
        let key = "outbox-playground/v1/run/corrupt";
        for lang in Lang::ALL {
            assert_eq!(Reason::data(key).text(lang), key);
        }
        assert!(Reason::data("").is_empty());
        assert!(!Reason::data("x").is_empty());
    }
}
