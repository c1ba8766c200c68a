//! The Cyrillic audit over the page's own texts (kept apart from `cyrillic.rs`, which
//! xtask also compiles to write `dist/i18n/uz-Cyrl.json`, and which knows no `Key`).

use super::cyrillic::{exceptions, to_cyrillic as c};

/// The words of `text` written in Latin letters as a word is (a letter, then small
/// letters and apostrophes), longer than one letter, outside `{placeholders}` and function calls (`count(*)`).
fn plain_latin_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let in_word = |ch: char| ch.is_alphanumeric() || "'_.-".contains(ch);
    let (mut found, mut i, mut inside) = (Vec::new(), 0, false);
    while i < chars.len() {
        let ch = chars[i];
        if ch == '{' || ch == '}' || !in_word(ch) || inside {
            inside = (inside || ch == '{') && ch != '}';
            i += 1;
            continue;
        }
        let end = (i..chars.len())
            .find(|&j| !in_word(chars[j]))
            .unwrap_or(chars.len());
        let word: String = chars[i..end].iter().collect();
        let call = chars.get(end) == Some(&'(');
        // A word, not an abbreviation or an identifier: a letter, then small letters.
        let mut letters = word.chars();
        let plain = letters.next().is_some_and(|ch| ch.is_ascii_alphabetic())
            && letters.all(|ch| ch.is_ascii_lowercase() || ch == '\'');
        if plain && !call && word.chars().count() > 1 {
            found.push(word);
        }
        i = end;
    }
    found
}

/// Every text of the page comes out without a Latin letter outside code, terms and
/// placeholders: each word left in Latin is one the rules or the file keep on purpose.
#[test]
fn no_uzbek_word_is_left_in_latin() {
    let ex = exceptions();
    for &key in crate::i18n::Key::ALL {
        let cyrillic = c(crate::i18n::t(crate::i18n::Lang::Uz, key));
        for word in plain_latin_words(&cyrillic) {
            let word = word.to_lowercase();
            let kept =
                ex.kept.iter().any(|k| word.starts_with(k.as_str())) || ex.tables.contains(&word);
            assert!(kept, "{key:?}: «{word}» left in Latin in «{cyrillic}»");
        }
    }
    assert_eq!(
        plain_latin_words("{why} Ish count(*) SQL jobId ok"),
        ["Ish", "ok"]
    );
}
