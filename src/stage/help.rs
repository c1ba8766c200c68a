//! The keyboard map, as a dialog (`?` opens it, Escape closes it).

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};

const KEYS: [Key; 13] = [
    Key::HelpSpace,
    Key::HelpDot,
    Key::HelpComma,
    Key::HelpChoose,
    Key::HelpK,
    Key::HelpSpeed,
    Key::HelpPresenter,
    Key::HelpQuestion,
    Key::HelpEscape,
    Key::HelpPgKeys,
    Key::HelpReveal,
    Key::HelpAnswers,
    Key::HelpFocus,
];

#[component]
pub fn Help() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let close = NodeRef::<leptos::html::Button>::new();
    // Move the focus into the dialog when it opens.
    Effect::new(move |_| {
        if ctl.help_open.get() {
            if let Some(b) = close.get() {
                let _ = b.focus();
            }
        }
    });
    view! {
        <Show when=move || ctl.help_open.get()>
            <div class="help__backdrop" on:click=move |_| ctl.help_open.set(false)></div>
            <div class="help" role="dialog" aria-modal="true" aria-labelledby="help-heading" data-testid="help">
                <h2 id="help-heading" class="panel__heading">{tr(Key::HelpHeading)}</h2>
                <ul class="help__keys">
                    {KEYS.iter().map(|k| view! { <li>{move || i18n.t(*k)}</li> }).collect_view()}
                </ul>
                <button type="button" node_ref=close data-testid="help-close" on:click=move |_| ctl.help_open.set(false)>
                    {tr(Key::Close)}
                </button>
            </div>
        </Show>
    }
}
