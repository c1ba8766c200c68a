//! The i18n layer: every string the page shows comes from here.
//!
//! This module holds the language state ([`I18n`], in context); the texts themselves are
//! the table in [`texts`]; [`words`] and [`lesson_words`] turn model values and lesson
//! steps into keys.

pub mod lesson_words;
pub mod texts;
pub mod words;

pub use texts::{t, Key};

use leptos::prelude::*;

/// A language of the page. Uzbek is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Uz,
    En,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 2] = [Lang::Uz, Lang::En];

    /// The BCP 47 code, as used in `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Uz => "uz",
            Lang::En => "en",
        }
    }

    /// The inverse of [`Lang::code`].
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }
}

/// The language state, shared through context. `Copy`, so closures take it by value.
#[derive(Clone, Copy, Debug)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked: a closure that calls it re-runs on a switch).
    /// The current language, without tracking.
    pub fn lang_untracked(&self) -> Lang {
        self.lang.get_untracked()
    }

    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// Switches the page to `lang`.
    pub fn set_lang(&self, lang: Lang) {
        self.lang.set(lang);
    }

    /// The text of `key` in the current language (tracked).
    pub fn t(&self, key: Key) -> &'static str {
        t(self.lang.get(), key)
    }
}

/// Creates the language signal and provides it to every component below the caller.
pub fn provide_i18n(initial: Lang) -> I18n {
    let i18n = I18n {
        lang: RwSignal::new(initial),
    };
    provide_context(i18n);
    i18n
}

/// The text of `key` in the current language, tracked: usable as a view or an attribute.
/// Every key shares this one closure type, which keeps the page's code small (a closure
/// written out at each use is a new type, and each type is compiled again).
pub fn tr(key: Key) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || i18n.t(key)
}

/// The [`I18n`] provided by an ancestor (`App` provides it).
pub fn use_i18n() -> I18n {
    expect_context::<I18n>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_non_empty_in_every_language() {
        for &key in Key::ALL {
            for lang in Lang::ALL {
                assert!(
                    !t(lang, key).trim().is_empty(),
                    "{key:?} is empty in {}",
                    lang.code()
                );
            }
        }
    }

    #[test]
    fn uzbek_is_the_default_and_codes_round_trip() {
        assert_eq!(Lang::default(), Lang::Uz);
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("ru"), None);
    }

    #[test]
    fn the_tagline_differs_between_languages() {
        assert_ne!(t(Lang::Uz, Key::Tagline), t(Lang::En, Key::Tagline));
    }
}
