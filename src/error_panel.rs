//! The panic panel. A panic stops the app, so this is plain DOM, not a component: the hook
//! logs the panic to the console, then draws a visible panel with a report to copy (the
//! message, where, the browser, and the saved run that reproduces it). Never a blank page.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

/// The address parameter that asks the next load to set the page's saved state aside.
pub const RESET_PARAM: &str = "reset-saved-state";

/// Where the panel keeps the one-time token its reset button carries. sessionStorage:
/// the form reloads this tab, which keeps it; a link opened anywhere else has none, and a
/// reset never moves it.
pub const RESET_TOKEN_KEY: &str = "outbox-playground/reset-token";

/// Where a reset moves the page's keys: `outbox-playground-reset/<n>/<rest of the key>`,
/// a new `n` each time (outside [`crate::browser::storage::PREFIX`], so a later reset
/// leaves an earlier one alone).
pub const RESET_KEPT_PREFIX: &str = "outbox-playground-reset/";

/// A fresh token for the reset button, saved for [`reset_if_asked`]; None when this tab
/// has no sessionStorage (then there is no button: a reset could not be told from a
/// link's).
fn arm_reset() -> Option<String> {
    let session = web_sys::window()?.session_storage().ok().flatten()?;
    let random = || (web_sys::js_sys::Math::random() * 4_294_967_296.0) as u64;
    let token = format!("{:08x}{:08x}", random(), random());
    session.set_item(RESET_TOKEN_KEY, &token).ok()?;
    Some(token)
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

thread_local! {
    /// What the last [`reset_if_asked`] set aside: (items, their new prefix).
    static RESET_DONE: std::cell::RefCell<Option<(usize, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// At start (from `main`, before the app reads anything saved): when the address carries
/// the token the panic panel armed, moves every key of the page under a new
/// [`RESET_KEPT_PREFIX`] (never deleting one) and remembers it for the notice
/// ([`take_reset_notice`]). The parameter is dropped from the address either way.
pub fn reset_if_asked() {
    let Some(asked) = crate::browser::url::url_param(RESET_PARAM) else {
        return;
    };
    if let Some(w) = web_sys::window() {
        if let (Ok(h), Ok(path)) = (w.history(), w.location().pathname()) {
            let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&path));
        }
    }
    let session = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    let Some(session) = session else { return };
    let armed = session.get_item(RESET_TOKEN_KEY).ok().flatten();
    if armed.is_none_or(|armed| armed.is_empty() || armed != asked) {
        leptos::logging::warn!("{RESET_PARAM} ignored: the panic panel did not ask for it");
        return;
    }
    let _ = session.remove_item(RESET_TOKEN_KEY);
    if let Some(done) = set_aside_all() {
        RESET_DONE.with(|d| *d.borrow_mut() = Some(done));
    }
}

/// Moves every key of the page to `outbox-playground-reset/<n>/…` (a fresh `n`). A key
/// whose copy cannot be written (a full quota) stays where it was. Returns how many moved
/// and their prefix; None when there was nothing to move.
fn set_aside_all() -> Option<(usize, String)> {
    use crate::browser::storage::PREFIX;
    let s = crate::browser::storage::storage()?;
    let keys: Vec<String> = (0..s.length().unwrap_or(0))
        .filter_map(|i| s.key(i).ok().flatten())
        .collect();
    let generation = keys
        .iter()
        .filter_map(|k| {
            k.strip_prefix(RESET_KEPT_PREFIX)?
                .split('/')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(0)
        + 1;
    let kept = format!("{RESET_KEPT_PREFIX}{generation}/");
    let mut moved = 0;
    for key in keys.iter().filter(|k| k.starts_with(PREFIX)) {
        let Some(text) = s.get_item(key).ok().flatten() else {
            continue;
        };
        let to = format!("{kept}{}", &key[PREFIX.len()..]);
        // Written before the original goes; with no room for both, the original goes
        // first and comes back if its copy still cannot be written.
        let copied = s.set_item(&to, &text).is_ok() || {
            let _ = s.remove_item(key);
            let ok = s.set_item(&to, &text).is_ok();
            if !ok {
                let _ = s.set_item(key, &text);
            }
            ok
        };
        if copied {
            let _ = s.remove_item(key);
            moved += 1;
        }
    }
    (moved > 0).then_some((moved, kept))
}

/// The notice's reason after a reset this load (once): how many items were set aside and
/// under which keys they are kept.
pub fn take_reset_notice() -> Option<crate::i18n::Reason> {
    let (n, kept) = RESET_DONE.with(|d| d.borrow_mut().take())?;
    Some(
        crate::i18n::Reason::new(Key::ReasonResetKept)
            .arg("n", n)
            .arg("kept", kept)
            .arg("prefix", crate::browser::storage::PREFIX),
    )
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
