//! The i18n layer: every string the page shows comes from here.
//!
//! Each key is declared once with its Uzbek and its English text. The macro accepts a key
//! only with both, in the order `uz`, `en`, so a missing translation does not compile.

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

macro_rules! translations {
    ($( $(#[doc = $doc:literal])* $key:ident { uz: $uz:literal, en: $en:literal $(,)? } )+) => {
        /// A string the page shows, in every language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $( $(#[doc = $doc])* $key, )+
        }

        impl Key {
            /// Every key, in declaration order.
            pub const ALL: &'static [Key] = &[$(Key::$key),+];
        }

        /// The text of `key` in `lang`.
        pub const fn t(lang: Lang, key: Key) -> &'static str {
            match key {
                $( Key::$key => match lang {
                    Lang::Uz => $uz,
                    Lang::En => $en,
                }, )+
            }
        }
    };
}

translations! {
    /// The page title (a name: the same in both languages).
    Title {
        uz: "Outbox Playground",
        en: "Outbox Playground",
    }
    /// The one-line promise under the title.
    Tagline {
        uz: "Transactional outbox: bazaga yozish va hodisani navbatga yuborishni buzib o'rganing",
        en: "Transactional outbox: learn to write to the database and queue the event by breaking it",
    }
    /// The accessible name of the language switch.
    LangSwitchLabel {
        uz: "Til",
        en: "Language",
    }
    /// The short label of the Uzbek button.
    LangUzShort {
        uz: "UZ",
        en: "UZ",
    }
    /// The full name of Uzbek, in Uzbek (an endonym reads the same in every language).
    LangUzName {
        uz: "O'zbekcha",
        en: "O'zbekcha",
    }
    /// The short label of the English button.
    LangEnShort {
        uz: "EN",
        en: "EN",
    }
    /// The full name of English, in English.
    LangEnName {
        uz: "English",
        en: "English",
    }
    /// The heading of the canon comparison on the stage.
    CanonHeading {
        uz: "Kanon o'lchovi: 100 vazifa, har i % 10 == 3 da jarayon o'ladi",
        en: "The canon run: 100 tasks, the process dies at every i % 10 == 3",
    }
    /// What the canon comparison shows, in one line.
    CanonIntro {
        uz: "Ikkala qator ham shu sahifadagi model tomonidan hozir hisoblandi: jarayon COMMIT'dan keyin o'ladi.",
        en: "Both rows were just computed by the model running in this page: the process dies right after COMMIT.",
    }
    /// Row: dual write, DB first.
    CanonDualWrite {
        uz: "Dual write (avval baza, keyin navbat)",
        en: "Dual write (database first, then queue)",
    }
    /// Row: the outbox.
    CanonOutbox {
        uz: "Outbox (hodisa vazifa bilan bitta tranzaksiyada)",
        en: "Outbox (event in the task's transaction)",
    }
    /// Column: design.
    ColDesign {
        uz: "Usul",
        en: "Design",
    }
    /// Column: tasks in the database.
    ColInDb {
        uz: "Bazada",
        en: "In the database",
    }
    /// Column: jobs in the queue.
    ColInQueue {
        uz: "Navbatda",
        en: "In the queue",
    }
    /// Column: lost events.
    ColLost {
        uz: "Yo'qoldi",
        en: "Lost",
    }
    /// The lesson's canon line; {db} and {q} are filled in.
    CanonLine {
        uz: "bazada {db}, navbatda {q}",
        en: "{db} in the database, {q} in the queue",
    }
}

/// The language state, shared through context. `Copy`, so closures take it by value.
#[derive(Clone, Copy, Debug)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked: a closure that calls it re-runs on a switch).
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
