//! The page header: title, tagline and the language switch.

use leptos::prelude::*;

use crate::app::lang_switch::LangSwitch;
use crate::i18n::{tr, Key};

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
