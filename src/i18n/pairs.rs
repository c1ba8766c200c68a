//! Reads a language file (`i18n/<code>.json`: one JSON object, key name → text) into its
//! pairs *in file order*, refusing a repeated key, and checks one language against the
//! reference. Shared by `build.rs` (which needs the order of `uz.json` for the `Key` enum
//! and refuses to build a drifted translation) and the page (which reads the files at
//! start or after fetching them). serde_json's own map would sort the keys and silently
//! keep the last of two equal ones.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};

/// The pairs of one language file, in file order.
pub struct Pairs(pub Vec<(String, String)>);

struct PairsVisitor;

impl<'de> Visitor<'de> for PairsVisitor {
    type Value = Pairs;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of key names and their texts")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        while let Some((key, text)) = map.next_entry::<String, String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("key {key} appears twice")));
            }
            pairs.push((key, text));
        }
        Ok(Pairs(pairs))
    }
}

/// Parses a language file; the error says where it is broken.
pub fn parse(json: &str) -> Result<Pairs, String> {
    let mut de = serde_json::Deserializer::from_str(json);
    let pairs = de
        .deserialize_map(PairsVisitor)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(pairs)
}

/// The `{name}` placeholders of a text, sorted and without repeats (a text may use one
/// twice). JSON written into a text (`{ "a": 1 }`, `{}`) is not a placeholder.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut found: Vec<&str> = text
        .match_indices('{')
        .filter_map(|(at, _)| {
            let end = text[at..].find('}')?;
            let name = &text[at + 1..at + end];
            let is_name =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            is_name.then_some(name)
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Checks one language file against the reference (Uzbek): the same keys, no empty text,
/// the same `{placeholders}`, and plural form lists (`a|b|c`) of a count the language has
/// (`forms`; 1 = one text for every number). The error names the file and the key.
pub fn check(
    code: &str,
    forms: &[usize],
    file: &[(String, String)],
    reference: &[(String, String)],
) -> Result<(), String> {
    let name = format!("i18n/{code}.json");
    for (key, text) in file {
        let Some((_, theirs)) = reference.iter().find(|(k, _)| k == key) else {
            return Err(format!(
                "{name}: key {key} is not in i18n/uz.json (remove it, or add it there)"
            ));
        };
        if text.split('|').any(|form| form.trim().is_empty()) {
            return Err(format!("{name}: key {key} has an empty text"));
        }
        let count = text.split('|').count();
        if !forms.contains(&count) {
            return Err(format!(
                "{name}: key {key} has {count} plural forms; {code} has {forms:?}"
            ));
        }
        let (mine, theirs) = (placeholders(text), placeholders(theirs));
        if mine != theirs {
            return Err(format!(
                "{name}: key {key} has placeholders {mine:?}, i18n/uz.json has {theirs:?}"
            ));
        }
    }
    match reference
        .iter()
        .find(|(k, _)| !file.iter().any(|(f, _)| f == k))
    {
        Some((key, _)) => Err(format!(
            "{name}: key {key} is missing (every language has every key)"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, t)| (k.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn pairs_keep_the_files_order_and_refuse_a_repeated_key() {
        let p = parse(r#"{"B": "b", "A": "a"}"#).unwrap().0;
        assert_eq!(p, file(&[("B", "b"), ("A", "a")]));
        let twice = parse(r#"{"A": "a", "A": "b"}"#).err().unwrap();
        assert!(twice.contains("A appears twice"), "{twice}");
        assert!(parse(r#"{"A": 1}"#).is_err());
        assert!(parse(r#"{"A": "a"} trailing"#).is_err());
    }

    /// What the build refuses, each named by file and key.
    #[test]
    fn a_drifted_translation_is_refused_naming_file_and_key() {
        let uz = file(&[("Rows", "{n} qator"), ("Hi", "Salom")]);
        let ok = file(&[
            ("Rows", "{n} строка|{n} строки|{n} строк"),
            ("Hi", "Привет"),
        ]);
        assert_eq!(check("ru", &[1, 3], &ok, &uz), Ok(()));
        let cases = [
            (file(&[("Rows", "{n} строк")]), "key Hi is missing"),
            (
                file(&[("Rows", "{n} строк"), ("Hi", "x"), ("Extra", "y")]),
                "key Extra is not in",
            ),
            (
                file(&[("Rows", "{n} строк"), ("Hi", " ")]),
                "key Hi has an empty text",
            ),
            (
                file(&[("Rows", "{count} строк"), ("Hi", "x")]),
                "key Rows has placeholders",
            ),
            (
                file(&[("Rows", "{n} строка|{n} строк"), ("Hi", "x")]),
                "key Rows has 2 plural forms",
            ),
            (
                file(&[("Rows", "{n} строка||{n} строк"), ("Hi", "x")]),
                "key Rows has an empty text",
            ),
        ];
        for (bad, says) in cases {
            let err = check("ru", &[1, 3], &bad, &uz).unwrap_err();
            assert!(
                err.starts_with("i18n/ru.json: ") && err.contains(says),
                "{err}"
            );
        }
    }
}
