//! The page's languages: which there are, their codes, and the one a browser prefers.
//! Every other file of `i18n/` builds on this one.

/// A language of the page. Uzbek is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Uz,
    En,
    Ru,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 3] = [Lang::Uz, Lang::En, Lang::Ru];

    /// The language's position in [`Lang::ALL`] (its table's slot).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The BCP 47 code, as used in `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Uz => "uz",
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The inverse of [`Lang::code`].
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// The first of the browser's language tags (`navigator.languages`, most preferred
    /// first) that is a language of the page, by its primary subtag: `uz-Latn-UZ` is
    /// Uzbek, `EN_us` English.
    pub fn from_browser(tags: &[String]) -> Option<Lang> {
        tags.iter().find_map(|tag| {
            let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
            Lang::from_code(&primary)
        })
    }
}
