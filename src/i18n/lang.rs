//! The page's languages: which there are, their codes, and the one a browser prefers.
//! Every other file of `i18n/` builds on this one.

/// A language of the page. Uzbek is the default; Uzbek in Cyrillic is made from it
/// ([`super::cyrillic`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Uz,
    UzCyrl,
    En,
    Ru,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 4] = [Lang::Uz, Lang::UzCyrl, Lang::En, Lang::Ru];

    /// The language's position in [`Lang::ALL`] (its table's slot).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The BCP 47 code, as used in `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Uz => "uz",
            Lang::UzCyrl => "uz-Cyrl",
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The inverse of [`Lang::code`].
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// The first of the browser's language tags (`navigator.languages`, most preferred
    /// first) that is a language of the page, by its primary subtag and, for Uzbek, its
    /// script: `uz-Latn-UZ` is Uzbek, `uz-Cyrl-UZ` Uzbek in Cyrillic, `EN_us` English.
    pub fn from_browser(tags: &[String]) -> Option<Lang> {
        tags.iter().find_map(|tag| {
            let mut subtags = tag.split(['-', '_']);
            let primary = subtags.next()?.to_ascii_lowercase();
            let cyrillic = subtags
                .next()
                .is_some_and(|s| s.eq_ignore_ascii_case("cyrl"));
            match primary.as_str() {
                "uz" if cyrillic => Some(Lang::UzCyrl),
                "uz" => Some(Lang::Uz),
                other => Lang::from_code(other).filter(|l| *l != Lang::UzCyrl),
            }
        })
    }
}
