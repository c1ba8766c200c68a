//! The reset of saved state the panic panel offers (#40). A saved run or progress that
//! panics would panic every reload, so the panel's button asks the next load to set the
//! page's keys aside, but only with a one-time token the panel itself armed: a link that
//! carries the parameter resets nothing. Nothing is deleted: every key moves under a new
//! `outbox-playground-reset/<n>/`, and the page says what moved and where.
//!
//! On the browser floor (storage, the address), below the controller that shows the notice
//! and the panel that arms the token.

use wasm_bindgen::JsValue;

use crate::i18n::Key;

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
pub fn arm_reset() -> Option<String> {
    let session = web_sys::window()?.session_storage().ok().flatten()?;
    let random = || (web_sys::js_sys::Math::random() * 4_294_967_296.0) as u64;
    let token = format!("{:08x}{:08x}", random(), random());
    session.set_item(RESET_TOKEN_KEY, &token).ok()?;
    Some(token)
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
