//! Share: the run's link (or a challenge's, `src/challenge/`) in the address bar and on
//! the clipboard; the field that shows it to copy by hand is the stage's
//! (`stage/controls/share_link.rs`).

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::ctl::{Ctl, Notice};
use crate::i18n::{Key, Reason};
use crate::run::link::LONG_LINK;

/// Puts the run's link in the address bar and on the clipboard. "Copied" is said only
/// once the clipboard took it (the promise resolved); a refusal shows the link in a field
/// to copy by hand, and a link long enough to be cut by chat apps is warned about.
pub fn share(ctl: Ctl) {
    share_fragment(ctl, &ctl.link_fragment(), false);
}

/// The page's address with `frag` (without `#`) as its fragment; with all of its query
/// (`?lang=`, `?present`, …), or with none (`for_room`: a link handed to a room opens the
/// learner's page, not the presenter's, in each learner's own language: #42, a fixed
/// `?lang=en` made every student's page English).
pub fn page_url(frag: &str, for_room: bool) -> String {
    let Some(w) = web_sys::window() else {
        return String::new();
    };
    let loc = w.location();
    let search = if for_room {
        String::new()
    } else {
        loc.search().unwrap_or_default()
    };
    format!(
        "{}{}{search}#{frag}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
    )
}

/// [`share`] for any fragment (without `#`); `for_room` as in [`page_url`].
pub fn share_fragment(ctl: Ctl, frag: &str, for_room: bool) {
    let Some(w) = web_sys::window() else { return };
    let url = page_url(frag, for_room);
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
    ctl.share_link.set(Some(url.clone()));
    let also = (url.chars().count() > LONG_LINK).then_some(Key::NoticeLinkLong);
    let clipboard = w.navigator().clipboard();
    if clipboard.is_undefined() {
        ctl.notice.set(Some(Notice {
            link: Some(url),
            also,
            ..Notice::info(Key::NoticeLinkInAddress, "")
        }));
        return;
    }
    let promise = clipboard.write_text(&url);
    wasm_bindgen_futures::spawn_local(async move {
        let notice = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => Notice {
                also,
                ..Notice::info(Key::NoticeLinkCopied, "")
            },
            Err(e) => Notice {
                link: Some(url),
                also,
                ..Notice::error(Key::NoticeCopyFailed, js_reason(&e))
            },
        };
        // The page may have moved on (the signal gone): nothing to tell then.
        let _ = ctl.notice.try_set(Some(notice));
    });
}

/// What the browser said when it refused (its own words are data, shown as they are).
fn js_reason(e: &JsValue) -> Reason {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<web_sys::DomException>()
        .map(|d| format!("{}: {}", d.name(), d.message()))
        .or_else(|| e.as_string())
        .map_or_else(|| Reason::new(Key::ReasonClipboardRefused), Reason::data)
}
