//! The last share link made (`crate::ctl::share`), in a field to copy by hand.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{use_i18n, Key};

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
