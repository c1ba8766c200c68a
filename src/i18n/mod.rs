//! The i18n layer: every string the page shows comes from here.
//!
//! This module holds the language state ([`I18n`], in context). The texts are data, one
//! file per language (`i18n/uz.json`, `en.json`, `ru.json`; build.rs generates [`Key`]
//! from the Uzbek one and fails the build when another drifts); [`table`] holds them at
//! run time, [`plural`] picks a count's form; [`words`] and [`lesson_words`] turn model
//! values and lesson steps into keys.

pub mod cyrillic;
#[cfg(test)]
mod cyrillic_audit;
pub mod lang;
pub mod lang_file;
pub mod lesson_words;
pub mod pairs;
pub mod plural;
pub mod reason;
#[cfg(test)]
mod statements;
pub mod table;
pub mod words;

pub use lang::Lang;
pub use plural::tn;
pub use reason::Reason;
pub use table::{t, Key};

use leptos::prelude::*;

/// The language state, shared through context. `Copy`, so closures take it by value.
#[derive(Clone, Copy, Debug)]
pub struct I18n {
    lang: RwSignal<Lang>,
    /// The language last asked for: a file that arrives after the user has chosen
    /// another language does not switch the page.
    wanted: RwSignal<Lang>,
    /// A language whose file could not be fetched (the switch says so).
    failed: RwSignal<Option<Lang>>,
}

impl I18n {
    /// The current language (tracked: a closure that calls it re-runs on a switch).
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// The current language, without tracking.
    pub fn lang_untracked(&self) -> Lang {
        self.lang.get_untracked()
    }

    /// The language whose file could not be fetched, if the last switch failed (tracked).
    pub fn failed(&self) -> Option<Lang> {
        self.failed.get()
    }

    /// Switches the page to `lang`: at once when its texts are here, otherwise once its
    /// file is fetched; if that fails, the page stays in its language and [`I18n::failed`]
    /// says which one could not be loaded.
    pub fn set_lang(&self, lang: Lang) {
        self.wanted.set(lang);
        if table::is_loaded(lang) {
            self.failed.set(None);
            self.lang.set(lang);
            return;
        }
        let this = *self;
        leptos::task::spawn_local(async move {
            let loaded = crate::i18n::lang_file::load(lang).await;
            if this.wanted.get_untracked() != lang {
                return;
            }
            match loaded {
                Ok(()) => {
                    this.failed.set(None);
                    this.lang.set(lang);
                }
                Err(why) => {
                    leptos::logging::warn!("language file {}: {why}", lang.code());
                    this.failed.set(Some(lang));
                }
            }
        });
    }

    /// The text of `key` in the current language (tracked).
    pub fn t(&self, key: Key) -> &'static str {
        t(self.lang.get(), key)
    }

    /// The text of `key` for the count `n` in the current language (tracked).
    pub fn tn(&self, key: Key, n: u64) -> String {
        tn(self.lang.get(), key, n)
    }
}

/// Creates the language signal and provides it to every component below the caller.
/// `initial` is used only if its texts are here (main.rs fetches them before mounting);
/// otherwise the page starts in Uzbek and says that the file could not be loaded.
pub fn provide_i18n(initial: Lang) -> I18n {
    let loaded = table::is_loaded(initial);
    let start = if loaded { initial } else { Lang::Uz };
    let i18n = I18n {
        lang: RwSignal::new(start),
        wanted: RwSignal::new(start),
        failed: RwSignal::new((!loaded).then_some(initial)),
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

/// `n` with its digits in groups of three, as the language writes numbers: "52,098" in
/// English, "52 098" (a no-break space) in Uzbek and Russian (#24: «86645770976018 jadval»
/// was unreadable).
pub fn group_digits(lang: Lang, n: u128) -> String {
    let digits = n.to_string();
    let sep = if lang == Lang::En { ',' } else { '\u{a0}' };
    let mut out = String::with_capacity(digits.len() * 2);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
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
        assert_eq!(Lang::from_code("ru"), Some(Lang::Ru));
        assert_eq!(Lang::from_code("de"), None);
        assert_eq!(
            Lang::from_code("RU"),
            None,
            "codes are lower case, as the page writes them"
        );
    }

    /// Every text the page shows (the presets' titles and summaries are keys too).
    fn every_text(lang: Lang) -> Vec<&'static str> {
        Key::ALL.iter().map(|&k| t(lang, k)).collect()
    }

    /// The seed's distinction (§5): delivery is at-least-once; only the *effect* is exactly
    /// once («aniq bir marta ta'sir»). A text may say "exactly once" only of the effect, or
    /// ask whether exactly-once delivery is possible.
    #[test]
    fn exactly_once_is_said_only_of_the_effect() {
        let allowed_en: &[&str] = &[
            "exactly-once effect",
            "exactly once effect",
            "exactly-once delivery possible?",
        ];
        let checks: [(Lang, &str, &[&str]); 4] = [
            (Lang::En, "exactly once", allowed_en),
            (Lang::En, "exactly-once", allowed_en),
            (Lang::Ru, "exactly", allowed_en),
            (Lang::Uz, "aniq bir marta", &["aniq bir marta ta'sir"]),
        ];
        for (lang, word, allowed) in checks {
            for text in every_text(lang) {
                let lower = text.to_lowercase();
                for (at, _) in lower.match_indices(word) {
                    let rest = &lower[at..];
                    assert!(
                        allowed.iter().any(|a| rest.starts_with(a)),
                        "{}: \"{text}\" says {word:?} of something other than the effect",
                        lang.code()
                    );
                }
            }
        }
        // Russian puts the qualifier first: «эффект ровно один раз», and the quiz's
        // question «возможна ли доставка ровно один раз?».
        for text in every_text(Lang::Ru) {
            let lower = text.to_lowercase();
            for (at, _) in lower.match_indices("ровно один раз") {
                let before = &lower[..at];
                let question =
                    before.ends_with("доставка ") && lower[at..].starts_with("ровно один раз?");
                assert!(
                    before.ends_with("эффект ") || question,
                    "ru: \"{text}\" says «ровно один раз» of something other than the effect"
                );
            }
        }
    }

    use super::pairs::placeholders;

    /// A translation that drops or renames a placeholder shows a raw `{n}` or loses a
    /// number: every language of a key has the same placeholders.
    #[test]
    fn every_language_has_the_same_placeholders() {
        for &key in Key::ALL {
            let first = placeholders(t(Lang::ALL[0], key));
            for lang in &Lang::ALL[1..] {
                assert_eq!(
                    placeholders(t(*lang, key)),
                    first,
                    "{key:?}: placeholders differ in {}",
                    lang.code()
                );
            }
        }
    }

    #[test]
    fn placeholders_are_found_and_json_braces_are_not() {
        assert_eq!(placeholders("{n} of {m}, again {n}"), vec!["m", "n"]);
        assert!(placeholders("{ \"a\": 1 } and {}").is_empty());
    }

    #[test]
    fn the_browsers_first_known_language_wins() {
        let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Lang::from_browser(&tags(&["de-DE", "en-GB", "uz"])),
            Some(Lang::En)
        );
        assert_eq!(
            Lang::from_browser(&tags(&["uz-Latn-UZ", "en"])),
            Some(Lang::Uz)
        );
        assert_eq!(Lang::from_browser(&tags(&["EN_us"])), Some(Lang::En));
        assert_eq!(Lang::from_browser(&tags(&["ru-RU", "en"])), Some(Lang::Ru));
        assert_eq!(
            Lang::from_browser(&tags(&["kk-KZ", "ru", "uz"])),
            Some(Lang::Ru)
        );
        assert_eq!(
            Lang::from_browser(&tags(&["uz-Cyrl-UZ", "uz"])),
            Some(Lang::UzCyrl)
        );
        assert_eq!(Lang::from_browser(&tags(&["UZ_cyrl"])), Some(Lang::UzCyrl));
        assert_eq!(Lang::from_code("uz-Cyrl"), Some(Lang::UzCyrl));
        assert_eq!(Lang::from_browser(&tags(&["de", "fr"])), None);
        assert_eq!(Lang::from_browser(&tags(&["", "-"])), None);
        assert_eq!(Lang::from_browser(&[]), None);
    }

    #[test]
    fn the_tagline_differs_between_languages() {
        assert_ne!(t(Lang::Uz, Key::Tagline), t(Lang::En, Key::Tagline));
    }

    /// #20, audit items 4 and 5: the app-role step says that the lesson's own hodisaYoz
    /// (INSERT … RETURNING) is refused with 42501; "never the same row" is said of two
    /// SKIP LOCKED relays only at the same time; the relay's publish is «tarqatish».
    #[test]
    fn the_audits_statements_stay_sharpened() {
        for lang in Lang::ALL {
            let role = t(lang, Key::LAppRoleBody);
            for word in ["hodisaYoz", "RETURNING", "42501"] {
                assert!(
                    role.contains(word),
                    "{}: LAppRoleBody lacks {word}",
                    lang.code()
                );
            }
            let same_time = match lang {
                Lang::Uz => "bir vaqtning o'zida",
                Lang::UzCyrl => "бир вақтнинг ўзида",
                Lang::En => "at the same time",
                Lang::Ru => "одновременно",
            };
            let blank = t(lang, Key::Ex1Blank4);
            assert!(blank.contains(same_time), "{}: {blank}", lang.code());
        }
        assert!(t(Lang::Ru, Key::LTwoRelaysBody).contains("в один и тот же момент"));
        assert!(t(Lang::Uz, Key::LTwoRelaysBody).contains("bir vaqtning o'zida"));
        assert!(t(Lang::En, Key::LTwoRelaysBody).contains("at the same time"));
        let ex2 = t(Lang::Uz, Key::Ex2Intro);
        assert!(
            ex2.contains("tarqatish") && !ex2.contains("yuborish"),
            "{ex2}"
        );
    }

    #[test]
    fn numbers_are_grouped_as_each_language_writes_them() {
        assert_eq!(
            group_digits(Lang::En, 86_645_770_976_018),
            "86,645,770,976,018"
        );
        assert_eq!(group_digits(Lang::Uz, 52_098), "52\u{a0}098");
        assert_eq!(group_digits(Lang::Ru, 865), "865");
        assert_eq!(group_digits(Lang::En, 0), "0");
    }
}
