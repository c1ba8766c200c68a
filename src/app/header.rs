//! The page header: title, tagline and the language switch.

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::lang_switch::LangSwitch;

#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="header">
            <div class="header__text">
                <h1 class="header__title" data-testid="title">{tr(Key::Title)}</h1>
                <p class="header__tagline" data-testid="tagline">{tr(Key::Tagline)}</p>
            </div>
            <LangSwitch/>
        </header>
    }
}
