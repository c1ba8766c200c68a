//! The message line above the stage: a bad link, a corrupt saved state, a refused action,
//! a copied link. Errors are alerts; the rest is a polite status.

use leptos::prelude::*;

use crate::i18n::{use_i18n, Key};
use crate::playground::ctl::use_ctl;

#[component]
pub fn NoticeBar() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    view! {
        {move || {
            ctl.notice.get().map(|n| {
                let text = i18n.t(n.key).replace("{why}", &n.why);
                view! {
                    <div
                        class=if n.error { "notice notice--error" } else { "notice" }
                        role=if n.error { "alert" } else { "status" }
                        data-testid="notice"
                    >
                        <p class="notice__text">{text}</p>
                        <button type="button" data-testid="notice-dismiss" on:click=move |_| ctl.notice.set(None)>
                            {i18n.t(Key::Dismiss)}
                        </button>
                    </div>
                }
            })
        }}
    }
}
