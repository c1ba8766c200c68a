//! The language switch: one real button per language; the current one is pressed. A
//! language whose texts could not be fetched is said so under the buttons.

use leptos::prelude::*;

use crate::i18n::{tr, use_i18n, Key, Lang};

/// The short label and the full name of a language's button.
const fn labels(lang: Lang) -> (Key, Key) {
    match lang {
        Lang::Uz => (Key::LangUzShort, Key::LangUzName),
        Lang::UzCyrl => (Key::LangUzCyrlShort, Key::LangUzCyrlName),
        Lang::En => (Key::LangEnShort, Key::LangEnName),
        Lang::Ru => (Key::LangRuShort, Key::LangRuName),
    }
}

#[component]
pub fn LangSwitch() -> impl IntoView {
    let i18n = use_i18n();
    let buttons = Lang::ALL
        .into_iter()
        .map(|lang| {
            let (short, name) = labels(lang);
            view! {
                <button
                    type="button"
                    class="lang-switch__button"
                    data-testid=format!("lang-{}", lang.code())
                    lang=lang.code()
                    title=move || i18n.t(name)
                    aria-label=move || format!("{} ({})", i18n.t(short), i18n.t(name))
                    aria-pressed=move || if i18n.lang() == lang { "true" } else { "false" }
                    on:click=move |_| i18n.set_lang(lang)
                >
                    {move || i18n.t(short)}
                </button>
            }
        })
        .collect_view();

    // In the current language, naming the one that failed by its own name.
    let failed = move || {
        i18n.failed().map(|lang| {
            let text = i18n.t(Key::NoticeLangLoadFailed).replace("{lang}", i18n.t(labels(lang).1));
            view! { <p class="lang-switch__failed" role="alert" data-testid="lang-load-failed">{text}</p> }
        })
    };
    view! {
        <div
            class="lang-switch"
            role="group"
            data-testid="lang-switch"
            aria-label=tr(Key::LangSwitchLabel)
        >
            {buttons}
        </div>
        {failed}
    }
}
