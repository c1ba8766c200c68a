//! The texts at run time: one table per language (`i18n/<code>.json`, key name → text),
//! parsed once and leaked, so [`t`] hands out `&'static str` like the compiled-in table
//! it replaced. Uzbek, the page's first paint, is always compiled in. English and Russian
//! are fetched on demand from the built `dist/` in the browser (the wasm stays small),
//! but compiled in natively (unit tests) and with the `embed-langs` feature (component
//! tests); [`install`] takes a fetched file.

use std::sync::OnceLock;

use crate::i18n::pairs;
use crate::i18n::Lang;

include!(concat!(env!("OUT_DIR"), "/keys.rs"));

impl Key {
    /// The key's position in [`Key::ALL`] (and in every table).
    pub const fn ordinal(self) -> usize {
        self as usize
    }

    /// The key's name in the language files.
    pub const fn name(self) -> &'static str {
        Key::NAMES[self as usize]
    }

    /// The key named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A language's texts, by key ordinal.
type Table = Box<[&'static str]>;

static TABLES: [OnceLock<Table>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];

/// The language files compiled into this build.
fn embedded(lang: Lang) -> Option<&'static str> {
    match lang {
        Lang::Uz => Some(include_str!("../../i18n/uz.json")),
        #[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
        Lang::En => Some(include_str!("../../i18n/en.json")),
        #[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
        Lang::Ru => Some(include_str!("../../i18n/ru.json")),
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "embed-langs")))]
        _ => None,
    }
}

/// The table of `lang`, if it is compiled in or was installed.
fn table(lang: Lang) -> Option<&'static [&'static str]> {
    let cell = &TABLES[lang.index()];
    if let Some(table) = cell.get() {
        return Some(table);
    }
    let json = embedded(lang)?;
    // build.rs has checked the compiled-in files (every key, nothing empty): this cannot
    // fail, and a table missing at the first paint would be a broken build anyway.
    let table = parse(json, None).expect("build.rs checked the compiled-in language files");
    Some(cell.get_or_init(|| table))
}

/// Whether `lang`'s texts are here (compiled in, or fetched and installed).
pub fn is_loaded(lang: Lang) -> bool {
    table(lang).is_some()
}

/// The text of `key` in `lang`; Uzbek while `lang`'s file is not in (the page switches
/// only once it is, so this is only reached by a window that asks early).
pub fn t(lang: Lang, key: Key) -> &'static str {
    table(lang)
        .or_else(|| table(Lang::Uz))
        .map_or("", |table| table[key.ordinal()])
}

/// Takes a fetched language file. A key the file lacks (a stale copy from an older build)
/// shows its Uzbek text rather than nothing; a file that is not a language file is refused
/// with the reason.
pub fn install(lang: Lang, json: &str) -> Result<(), String> {
    let fallback = table(Lang::Uz);
    let parsed = parse(json, fallback)?;
    let _ = TABLES[lang.index()].set(parsed);
    Ok(())
}

/// One table from a file: each key's text, leaked once for the page's lifetime (three
/// tables at most). Without `fallback`, a missing or empty text is an error.
fn parse(json: &str, fallback: Option<&[&'static str]>) -> Result<Table, String> {
    let mut texts: std::collections::BTreeMap<String, String> =
        pairs::parse(json)?.0.into_iter().collect();
    Key::ALL
        .iter()
        .map(
            |&key| match texts.remove(key.name()).filter(|t| !t.trim().is_empty()) {
                Some(text) => Ok(&*Box::leak(text.into_boxed_str())),
                None => fallback
                    .map(|f| f[key.ordinal()])
                    .ok_or_else(|| format!("key {} is missing", key.name())),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_know_their_names_and_ordinals() {
        for (i, &key) in Key::ALL.iter().enumerate() {
            assert_eq!(key.ordinal(), i);
            assert_eq!(Key::from_name(key.name()), Some(key));
        }
        assert_eq!(Key::from_name("NoSuchKey"), None);
        assert_eq!(format!("{:?}", Key::Tagline), "Tagline");
    }

    /// A stale fetched file (an older build's, from a cache) lacks a key: that key shows
    /// its Uzbek text; without a fallback (a compiled-in file) it is an error.
    #[test]
    fn a_key_missing_from_a_fetched_file_falls_back_to_uzbek() {
        let uz = table(Lang::Uz).expect("Uzbek is compiled in");
        let partial = r#"{"Tagline": "Только слоган"}"#;
        let parsed = parse(partial, Some(uz)).expect("parsed with a fallback");
        assert_eq!(parsed[Key::Tagline.ordinal()], "Только слоган");
        assert_eq!(parsed[Key::Title.ordinal()], uz[Key::Title.ordinal()]);
        let err = parse(partial, None).unwrap_err();
        assert!(err.contains("is missing"), "{err}");
        assert!(
            parse("<!doctype html>", Some(uz)).is_err(),
            "an HTML error page is no language file"
        );
    }

    #[test]
    fn every_language_is_here_natively() {
        for lang in Lang::ALL {
            assert!(is_loaded(lang), "{}", lang.code());
        }
        assert!(install(Lang::Ru, "not json").is_err());
    }
}
