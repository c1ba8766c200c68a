//! The message line above the stage: a bad link, a corrupt saved state, a refused action,
//! a copied link. Errors are alerts; the rest is a polite status. A notice may carry a
//! link to copy by hand and the button that restores the run a link replaced.

use leptos::prelude::*;

use crate::ctl::startup::restore_before_link;
use crate::ctl::use_ctl;
use crate::i18n::{use_i18n, Key};
use crate::run::link::LONG_LINK;

/// Selects a focused field's text, ready to copy.
fn select_all(e: web_sys::FocusEvent) {
    event_target::<web_sys::HtmlInputElement>(&e).select();
}

#[component]
pub fn NoticeBar() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    view! {
        {move || {
            ctl.notice.get().map(|n| {
                let mut text = i18n.t(n.key).replace("{why}", &n.why.text(i18n.lang()));
                if let Some(also) = n.also {
                    text.push(' ');
                    text.push_str(&i18n.t(also).replace("{n}", &LONG_LINK.to_string()));
                }
                // A link the clipboard refused, to select and copy by hand.
                let link = n.link.map(|url| view! {
                    <input class="notice__link" type="text" readonly=true data-testid="notice-link"
                        aria-label=i18n.t(Key::Share) prop:value=url
                        on:focus=select_all
                    />
                });
                let restore = n.restore.then(|| view! {
                    <button type="button" data-testid="notice-restore" on:click=move |_| restore_before_link(ctl)>
                        {i18n.t(Key::RestoreRun)}
                    </button>
                });
                view! {
                    <div
                        class=if n.error { "notice notice--error" } else { "notice" }
                        role=if n.error { "alert" } else { "status" }
                        data-testid="notice"
                    >
                        <p class="notice__text">{text}</p>
                        {link}
                        {restore}
                        <button type="button" data-testid="notice-dismiss" on:click=move |_| ctl.notice.set(None)>
                            {i18n.t(Key::Dismiss)}
                        </button>
                    </div>
                }
            })
        }}
    }
}
