//! The browser's preferred languages (`navigator.languages`), for a first visit that has
//! neither `?lang=` nor a saved choice.

use crate::i18n::Lang;

/// The page's language the browser prefers most, if it prefers any of them.
pub fn preferred() -> Option<Lang> {
    let tags: Vec<String> = web_sys::window()?
        .navigator()
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    Lang::from_browser(&tags)
}
