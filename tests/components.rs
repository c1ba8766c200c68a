//! Component tests in headless Chromium: `cargo test --target wasm32-unknown-unknown -p outbox-playground`
//! (run by `cargo xtask test`). Every test in this binary shares one page, so each mounts
//! into its own host element and looks only inside it.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use outbox_playground::i18n::{t, Key, Lang};
use outbox_playground::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element appended to `<body>`, with `App` mounted into it.
fn mount_app() -> HtmlElement {
    let doc = document();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), App).forget();
    host
}

fn by_testid(host: &HtmlElement, testid: &str) -> HtmlElement {
    host.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid=\"{testid}\""))
        .unchecked_into()
}

fn text(host: &HtmlElement, testid: &str) -> String {
    by_testid(host, testid).text_content().unwrap_or_default()
}

/// Leptos 0.8 applies DOM updates asynchronously: let them land before reading.
async fn settle() {
    TimeoutFuture::new(0).await;
}

#[wasm_bindgen_test]
async fn app_renders_title_and_uzbek_tagline() {
    let host = mount_app();
    settle().await;
    assert_eq!(text(&host, "title"), t(Lang::Uz, Key::Title));
    assert_eq!(text(&host, "tagline"), t(Lang::Uz, Key::Tagline));
    assert_eq!(
        by_testid(&host, "lang-uz")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert_eq!(by_testid(&host, "lang-en").tag_name(), "BUTTON");
}

#[wasm_bindgen_test]
async fn language_switch_changes_the_text() {
    let host = mount_app();
    settle().await;
    let before = text(&host, "tagline");
    assert_eq!(before, t(Lang::Uz, Key::Tagline));

    by_testid(&host, "lang-en").click();
    settle().await;
    let after = text(&host, "tagline");
    assert_ne!(
        after, before,
        "the tagline did not change after clicking EN"
    );
    assert_eq!(after, t(Lang::En, Key::Tagline));
    assert_eq!(
        by_testid(&host, "lang-en")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        by_testid(&host, "lang-switch")
            .get_attribute("aria-label")
            .as_deref(),
        Some(t(Lang::En, Key::LangSwitchLabel))
    );

    by_testid(&host, "lang-uz").click();
    settle().await;
    assert_eq!(text(&host, "tagline"), t(Lang::Uz, Key::Tagline));
}

#[wasm_bindgen_test]
async fn canon_panel_renders_the_models_counters() {
    let host = mount_app();
    settle().await;
    // The figures come from the model run inside the page; the lesson's canon says
    // "bazada 100 vazifa, navbatda 90 hodisa — 10 tasi YO'QOLDI" and for the outbox 100/100/0.
    for (name, expected) in [
        ("canon-dual-write", ("100", "90", "10")),
        ("canon-outbox", ("100", "100", "0")),
    ] {
        let c = outbox_playground::canon::canon_counters(name).unwrap();
        let got = (
            text(&host, &format!("{name}-db")),
            text(&host, &format!("{name}-queue")),
            text(&host, &format!("{name}-lost")),
        );
        assert_eq!(
            got,
            (
                c.tasks_in_db.to_string(),
                c.queue_jobs.to_string(),
                c.lost.to_string()
            )
        );
        assert_eq!((got.0.as_str(), got.1.as_str(), got.2.as_str()), expected);
    }
    assert_eq!(text(&host, "canon-line"), "bazada 100, navbatda 90");
    by_testid(&host, "lang-en").click();
    settle().await;
    assert_eq!(
        text(&host, "canon-line"),
        "100 in the database, 90 in the queue"
    );
}
