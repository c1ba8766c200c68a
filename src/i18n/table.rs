//! The texts at run time: one table per language, by key ordinal, so [`t`] hands out
//! `&'static str`. Uzbek, the page's first paint, is compiled in as a table (build.rs
//! writes it from i18n/uz.json: nothing to parse at start). English and Russian are
//! fetched on demand from the built `dist/` (arrays in key order, `cargo xtask css`) and
//! [`install`]ed, but compiled in natively (unit tests) and with the `embed-langs` feature
//! (component tests), read by key name from i18n/<code>.json.

use std::sync::OnceLock;

use crate::i18n::lang::Lang;

include!(concat!(env!("OUT_DIR"), "/keys.rs"));

impl Key {
    /// The key's position in [`Key::ALL`] (and in every table).
    pub const fn ordinal(self) -> usize {
        self as usize
    }

    /// The key's name in the language files.
    #[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
    pub const fn name(self) -> &'static str {
        Key::NAMES[self as usize]
    }

    /// The key named `name`, if there is one.
    #[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
        return f.write_str(self.name());
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "embed-langs")))]
        return write!(f, "Key#{}", self.ordinal());
    }
}

/// A language's texts, by key ordinal.
type Table = Box<[&'static str]>;

static TABLES: [OnceLock<Table>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];

/// English and Russian compiled in (natively, for unit tests, and with `embed-langs`, for
/// the component tests), read by key name from the sources. build.rs has checked them
/// (every key, nothing empty): parsing cannot fail.
#[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
fn embedded(lang: Lang) -> Option<Table> {
    let json = match lang {
        Lang::Uz | Lang::UzCyrl => return None,
        Lang::En => include_str!("../../i18n/en.json"),
        Lang::Ru => include_str!("../../i18n/ru.json"),
    };
    Some(parse(json, None).expect("build.rs checked the compiled-in language files"))
}

/// The page fetches English, Russian and Uzbek in Cyrillic ([`install`]).
#[cfg(not(any(not(target_arch = "wasm32"), feature = "embed-langs")))]
fn embedded(_: Lang) -> Option<Table> {
    None
}

/// The page makes no table: it fetches them.
#[cfg(not(any(not(target_arch = "wasm32"), feature = "embed-langs")))]
fn made(_: Lang) -> Option<Table> {
    None
}

/// The table of `lang`: Uzbek is compiled in ([`UZ`]), Uzbek in Cyrillic made from it;
/// the others are compiled in or installed.
fn table(lang: Lang) -> Option<&'static [&'static str]> {
    if lang == Lang::Uz {
        return Some(&UZ);
    }
    let cell = &TABLES[lang.index()];
    if let Some(table) = cell.get() {
        return Some(table);
    }
    let table = made(lang).or_else(|| embedded(lang))?;
    Some(cell.get_or_init(|| table))
}

/// Uzbek in Cyrillic, made from the Uzbek table the first time it is asked for (natively
/// and in the component tests). The page fetches it like English and Russian:
/// `dist/i18n/uz-Cyrl.json` is written by `cargo xtask css` with the same converter
/// (`cyrillic.rs`), so the converter's code stays out of the first load (#43, #39's cap).
#[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
fn made(lang: Lang) -> Option<Table> {
    (lang == Lang::UzCyrl).then(|| {
        UZ.iter()
            .map(|uz| &*Box::leak(crate::i18n::cyrillic::to_cyrillic(uz).into_boxed_str()))
            .collect()
    })
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

/// Takes a fetched language file (`dist/i18n/<code>.json`: its texts as a JSON array in
/// key order, written by `cargo xtask css`). An empty text shows its Uzbek one; a file that
/// is not a language file, or one of another build (another number of texts: the order of
/// its texts is then unknown), is refused with the reason, and the page stays in Uzbek.
pub fn install(lang: Lang, json: &str) -> Result<(), String> {
    let parsed = from_array(json)?;
    let _ = TABLES[lang.index()].set(parsed);
    Ok(())
}

/// A fetched file's table (see [`install`]).
fn from_array(json: &str) -> Result<Table, String> {
    let texts: Vec<String> = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if texts.len() != Key::ALL.len() {
        return Err(format!(
            "{} texts, this build has {}: a file of another build",
            texts.len(),
            Key::ALL.len()
        ));
    }
    Ok(texts
        .into_iter()
        .zip(UZ)
        .map(|(text, uz)| -> &'static str {
            if text.trim().is_empty() {
                uz
            } else {
                Box::leak(text.into_boxed_str())
            }
        })
        .collect())
}

/// One table from a file: each key's text, leaked once for the page's lifetime (three
/// tables at most). Without `fallback`, a missing or empty text is an error.
#[cfg(any(not(target_arch = "wasm32"), feature = "embed-langs"))]
fn parse(json: &str, fallback: Option<&[&'static str]>) -> Result<Table, String> {
    let mut texts: std::collections::BTreeMap<String, String> =
        crate::i18n::pairs::parse(json)?.0.into_iter().collect();
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

// The tests read the source files by key name: natively (and with `embed-langs`).
#[cfg(all(test, any(not(target_arch = "wasm32"), feature = "embed-langs")))]
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

    /// A fetched file is an array in key order: an empty text shows its Uzbek one; a file
    /// of another build (another count) or an HTML error page is refused.
    #[test]
    fn a_fetched_file_is_taken_only_whole() {
        let mut texts: Vec<String> = Key::ALL.iter().map(|&k| t(Lang::Ru, k).into()).collect();
        texts[Key::Title.ordinal()] = String::new();
        let parsed = from_array(&serde_json::to_string(&texts).unwrap()).expect("a whole file");
        assert_eq!(parsed[Key::Tagline.ordinal()], t(Lang::Ru, Key::Tagline));
        assert_eq!(parsed[Key::Title.ordinal()], UZ[Key::Title.ordinal()]);
        texts.pop();
        let err = from_array(&serde_json::to_string(&texts).unwrap()).unwrap_err();
        assert!(err.contains("another build"), "{err}");
        assert!(
            from_array("<!doctype html>").is_err(),
            "an HTML error page is no language file"
        );
        // A file read by name (the sources, compiled in natively) still needs every key.
        let err = parse(r#"{"Tagline": "x"}"#, None).unwrap_err();
        assert!(err.contains("is missing"), "{err}");
    }

    /// The compiled-in Uzbek table is i18n/uz.json, key for key.
    #[test]
    fn the_uzbek_table_is_the_file() {
        let file = parse(include_str!("../../i18n/uz.json"), None).expect("uz.json parses");
        assert_eq!(&file[..], &UZ[..]);
    }

    #[test]
    fn every_language_is_here_natively() {
        for lang in Lang::ALL {
            assert!(is_loaded(lang), "{}", lang.code());
        }
        assert!(install(Lang::Ru, "not json").is_err());
    }
}
