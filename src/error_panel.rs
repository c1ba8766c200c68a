//! The panic panel. A panic stops the app, so this is plain DOM, not a component: the hook
//! logs the panic to the console, then draws a visible panel with a report to copy (the
//! message, where, the browser, and the saved run that reproduces it). Never a blank page.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::saved_reset::{arm_reset, RESET_PARAM};
use crate::i18n::{t, Key, Lang};

/// Installs the panic hook (from `main`).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

fn page_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_default()
}

/// The report a user copies.
pub fn report(message: &str) -> String {
    let agent = web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .unwrap_or_default();
    let saved = crate::browser::storage::load().unwrap_or_default();
    format!(
        "Outbox Playground {}\npanic: {message}\nbrowser: {agent}\nrun: {saved}\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// "Reset saved state": a saved run or progress that panics would panic every reload.
/// The button submits a plain form to `?reset-saved-state=<token>` (no fragment, so a
/// link that panicked is not opened again): it works with no code of the dead app running
/// after the panic, and needs no inline script (CSP). The next load sets the state aside
/// first, in [`reset_if_asked`], only when the token is the one this panel armed: a link
/// carrying the parameter (#40) resets nothing.
fn reset_form(doc: &web_sys::Document, lang: Lang) -> Option<web_sys::Element> {
    let token = arm_reset()?;
    let form = doc.create_element("form").ok()?;
    let _ = form.set_attribute("method", "get");
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    let _ = form.set_attribute("action", &path);
    let hidden = doc.create_element("input").ok()?;
    let _ = hidden.set_attribute("type", "hidden");
    let _ = hidden.set_attribute("name", RESET_PARAM);
    let _ = hidden.set_attribute("value", &token);
    form.append_child(&hidden).ok()?;
    let button = doc.create_element("button").ok()?;
    let _ = button.set_attribute("type", "submit");
    let _ = button.set_attribute("data-testid", "panic-reset");
    button.set_text_content(Some(t(lang, Key::ErrorReset)));
    form.append_child(&button).ok()?;
    Some(form)
}

/// Draws the panel (once) at the top of `<body>`.
pub fn show(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id("panic-panel").is_some() {
        return;
    }
    let lang = page_lang();
    let Ok(panel) = doc.create_element("section") else {
        return;
    };
    panel.set_id("panic-panel");
    let _ = panel.set_attribute("class", "panic");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("data-testid", "panic-panel");
    let add = |tag: &str, text: &str| -> Option<web_sys::Element> {
        let el = doc.create_element(tag).ok()?;
        el.set_text_content(Some(text));
        panel.append_child(&el).ok()?;
        Some(el)
    };
    add("h2", t(lang, Key::ErrorHeading));
    add("p", t(lang, Key::ErrorBody));
    let area = add("textarea", &report(message));
    if let Some(a) = &area {
        let _ = a.set_attribute("readonly", "");
        let _ = a.set_attribute("rows", "8");
        let _ = a.set_attribute("aria-label", t(lang, Key::ErrorHeading));
    }
    if let Some(button) = add("button", t(lang, Key::ErrorCopy)) {
        let _ = button.set_attribute("type", "button");
        let area = area.clone();
        let copy = Closure::<dyn FnMut()>::new(move || {
            if let Some(a) = area
                .as_ref()
                .and_then(|a| a.dyn_ref::<web_sys::HtmlTextAreaElement>())
            {
                a.select();
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&a.value());
                }
            }
        });
        let _ = button.add_event_listener_with_callback("click", copy.as_ref().unchecked_ref());
        copy.forget();
    }
    if let Some(form) = reset_form(&doc, lang) {
        let _ = panel.append_child(&form);
    }
    if let Some(body) = doc.body() {
        let _ = body.prepend_with_node_1(&panel);
    }
}
