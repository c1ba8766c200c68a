//! Share: the run's link in the address bar and on the clipboard, and shown to copy by
//! hand.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::{use_i18n, Key};
use crate::playground::ctl::{use_ctl, Ctl, Notice};

/// Puts the run's link in the address bar and on the clipboard.
pub fn share(ctl: Ctl) {
    let frag = ctl.link_fragment();
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = format!("{base}#{frag}");
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
    ctl.share_link.set(Some(url.clone()));
    let clipboard = w.navigator().clipboard();
    let copied = !clipboard.is_undefined();
    if copied {
        let _ = clipboard.write_text(&url);
    }
    ctl.notice.set(Some(Notice {
        key: if copied {
            Key::NoticeLinkCopied
        } else {
            Key::NoticeLinkInAddress
        },
        why: String::new(),
        error: false,
    }));
}

/// The last share link made, in a field (shown so it can be copied by hand).
#[component]
pub fn ShareLink() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    view! {
        {move || {
            ctl.share_link
                .get()
                .map(|url| {
                    view! {
                        <label class="controls__field controls__link">
                            <span>{i18n.t(Key::Share)}</span>
                            <input type="text" readonly=true data-testid="share-url" prop:value=url/>
                        </label>
                    }
                })
        }}
    }
}
