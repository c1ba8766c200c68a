//! Plural forms. A text that depends on a count holds its forms separated by `|`, in the
//! order of its language's categories (build.rs checks the count): Uzbek one form (no
//! inflection after a numeral: «5 ta hodisa»), English one|other, Russian one|few|many
//! («1 событие|2 события|5 событий»). A text with one form serves every number.

use crate::i18n::lang::Lang;
use crate::i18n::table::{t, Key};

/// The index of the form `n` takes in `lang`'s list (CLDR's cardinal rules for integers).
pub fn category(lang: Lang, n: u64) -> usize {
    match lang {
        Lang::Uz | Lang::UzCyrl => 0,
        Lang::En => usize::from(n != 1),
        Lang::Ru => {
            let (last, last_two) = (n % 10, n % 100);
            if last == 1 && last_two != 11 {
                0
            } else if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
                1
            } else {
                2
            }
        }
    }
}

/// The form of `forms` (`|`-separated) for `n` in `lang`: one form serves every number,
/// and a list shorter than the language's categories gives its last form.
pub fn plural(lang: Lang, n: u64, forms: &str) -> &str {
    let wanted = category(lang, n);
    let mut last = forms;
    for (i, form) in forms.split('|').enumerate() {
        last = form;
        if i == wanted {
            break;
        }
    }
    last
}

/// The text of `key` for the count `n`, with `{n}` filled in.
pub fn tn(lang: Lang, key: Key, n: u64) -> String {
    plural(lang, n, t(lang, key)).replace("{n}", &n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: [u64; 9] = [0, 1, 2, 5, 11, 21, 22, 25, 101];

    #[test]
    fn russian_has_one_few_and_many() {
        let forms = "{n} событие|{n} события|{n} событий";
        let got: Vec<String> = NS
            .iter()
            .map(|&n| plural(Lang::Ru, n, forms).replace("{n}", &n.to_string()))
            .collect();
        assert_eq!(
            got,
            [
                "0 событий",
                "1 событие",
                "2 события",
                "5 событий",
                "11 событий",
                "21 событие",
                "22 события",
                "25 событий",
                "101 событие"
            ]
        );
        // The teens are "many" whatever their last digit.
        for n in [12, 13, 14, 111, 112] {
            assert_eq!(category(Lang::Ru, n), 2, "{n}");
        }
    }

    #[test]
    fn english_has_one_and_other() {
        let got: Vec<&str> = NS
            .iter()
            .map(|&n| plural(Lang::En, n, "event|events"))
            .collect();
        let expected = [
            "events", "event", "events", "events", "events", "events", "events", "events", "events",
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn uzbek_has_one_form_for_every_number() {
        for n in NS {
            assert_eq!(category(Lang::Uz, n), 0);
            assert_eq!(plural(Lang::Uz, n, "{n} ta hodisa"), "{n} ta hodisa");
        }
    }

    #[test]
    fn a_single_form_serves_every_number_in_every_language() {
        for lang in Lang::ALL {
            for n in NS {
                assert_eq!(plural(lang, n, "{n} × jobId"), "{n} × jobId");
            }
        }
    }

    /// Every plural text of the page picks a form with its number filled in, in every
    /// language, for every count the tests name.
    #[test]
    fn every_plural_key_fills_in_its_count() {
        let plural_keys: Vec<Key> = Key::ALL
            .iter()
            .copied()
            .filter(|&k| Lang::ALL.iter().any(|&l| t(l, k).contains('|')))
            .collect();
        assert!(!plural_keys.is_empty(), "no text uses plural forms");
        for key in plural_keys {
            for lang in Lang::ALL {
                for n in NS {
                    let text = tn(lang, key, n);
                    assert!(
                        !text.contains('|') && !text.contains("{n}"),
                        "{key:?} {n}: {text}"
                    );
                }
            }
        }
    }
}
