//! The page header: title, tagline and the language switch.

use leptos::prelude::*;

use crate::i18n::{use_i18n, Key};
use crate::lang_switch::LangSwitch;

#[component]
pub fn Header() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <header class="header">
            <div class="header__text">
                <h1 class="header__title" data-testid="title">{move || i18n.t(Key::Title)}</h1>
                <p class="header__tagline" data-testid="tagline">{move || i18n.t(Key::Tagline)}</p>
            </div>
            <LangSwitch/>
        </header>
    }
}
