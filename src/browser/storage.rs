//! The saved run, lesson progress and settings in localStorage, under versioned keys.
//! Storage can be missing, full or blocked (private windows): saving reports whether it
//! worked, so the page can say so once (the run is still in its share link).
//!
//! Nothing saved is ever deleted because it could not be read: it moves to its key's
//! [`corrupt_key`], so a bug or a newer version of the page loses no one's work. A run is
//! taken out of its key ([`pending_key`]) while it is replayed and put back on success:
//! a saved run that panics the page is found there on the next load, instead of
//! panicking every reload.

use crate::i18n::{Key, Reason};

/// Bump the version when [`crate::run::sim::Run`] changes incompatibly.
pub const KEY: &str = "outbox-playground/v1/run";
/// Every key of the page starts with this ("reset saved state" clears them all).
pub const PREFIX: &str = "outbox-playground/";

/// Where unreadable state of `key` is kept (`…/run/corrupt`).
pub fn corrupt_key(key: &str) -> String {
    format!("{key}/corrupt")
}

/// Where a saved run waits while it is replayed (`…/run/pending`).
pub fn pending_key(key: &str) -> String {
    format!("{key}/pending")
}

/// Where the user's saved run is kept when a link replaced it (`…/run/before-link`).
pub fn before_link_key(key: &str) -> String {
    format!("{key}/before-link")
}

/// The page's localStorage, when the browser allows it.
pub fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The text under `key`, if any.
pub fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Writes `value` under `key`; Err with the reason (a full quota, a blocked or missing
/// storage).
pub fn set(key: &str, value: &str) -> Result<(), Reason> {
    let s = storage().ok_or_else(|| Reason::new(Key::ReasonStorageMissing))?;
    s.set_item(key, value).map_err(|e| refusal(&e))
}

/// Why the browser refused a write: a full quota in words, anything else by its
/// DOMException's name (the browser's message is in the browser's language, not the
/// page's).
fn refusal(e: &wasm_bindgen::JsValue) -> Reason {
    use wasm_bindgen::JsCast;
    let name = e
        .dyn_ref::<web_sys::DomException>()
        .map(|d| d.name())
        .unwrap_or_default();
    if name == "QuotaExceededError" {
        Reason::new(Key::ReasonStorageFull)
    } else {
        Reason::new(Key::ReasonStorageRefused).arg("data", name)
    }
}

pub fn remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// Moves the text under `from` to `to` (removing `from` first, so the move itself never
/// needs more room than there was). Returns the text moved.
pub fn take_to(from: &str, to: &str) -> Option<String> {
    let text = get(from)?;
    remove(from);
    let _ = set(to, &text);
    Some(text)
}

/// How many unreadable copies of one key are kept: the newest under [`corrupt_key`], the
/// older ones under `…/corrupt/2`, `…/corrupt/3`, … (#40: each new one overwrote the last,
/// so a second bad link or reload lost the first copy).
pub const CORRUPT_COPIES: usize = 5;

/// Where the `n`th newest unreadable copy of `key` is kept (1: [`corrupt_key`]).
pub fn corrupt_copy_key(key: &str, n: usize) -> String {
    match n {
        0 | 1 => corrupt_key(key),
        _ => format!("{}/{n}", corrupt_key(key)),
    }
}

/// Keeps unreadable `text` of `key` as its newest corrupt copy, moving the older ones one
/// place down (the oldest past [`CORRUPT_COPIES`] goes). The same text twice is kept once.
pub fn keep_corrupt(key: &str, text: &str) {
    if get(&corrupt_key(key)).as_deref() == Some(text) {
        return;
    }
    for n in (1..CORRUPT_COPIES).rev() {
        if let Some(older) = get(&corrupt_copy_key(key, n)) {
            let _ = set(&corrupt_copy_key(key, n + 1), &older);
        }
    }
    let _ = set(&corrupt_key(key), text);
}

/// Keeps unreadable `text` of `key` under its [`corrupt_key`] (the older copies kept, see
/// [`keep_corrupt`]) and clears `key`.
pub fn quarantine(key: &str, text: &str) {
    remove(key);
    keep_corrupt(key, text);
}

/// The saved run's JSON, if any (or the one being replayed, for the panic report).
pub fn load() -> Option<String> {
    get(KEY).or_else(|| get(&pending_key(KEY)))
}

pub fn save(json: &str) -> Result<(), Reason> {
    set(KEY, json)
}

/// Removes every key of the page (the panic panel's "reset saved state").
pub fn clear_all() {
    let Some(s) = storage() else { return };
    let n = s.length().unwrap_or(0);
    let keys: Vec<String> = (0..n)
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| k.starts_with(PREFIX))
        .collect();
    for k in keys {
        let _ = s.remove_item(&k);
    }
}

/// The user's settings beside the run: language and speed.
pub const SETTINGS_KEY: &str = "outbox-playground/v1/settings";

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub lang: String,
    pub speed: usize,
}

/// The saved settings: None when there are none, Err with the reason when they are
/// corrupt (then kept under the corrupt key, not half-read).
pub fn load_settings() -> Option<Result<Settings, Reason>> {
    let text = get(SETTINGS_KEY)?;
    let parsed: Result<Settings, Reason> =
        serde_json::from_str(&text).map_err(|e| Reason::json(&e));
    if parsed.is_err() {
        quarantine(SETTINGS_KEY, &text);
    }
    Some(parsed)
}

pub fn save_settings(s: &Settings) -> Result<(), Reason> {
    let json = serde_json::to_string(s).map_err(|e| Reason::json(&e))?;
    set(SETTINGS_KEY, &json)
}

/// Forgets the saved run (and a run left pending).
pub fn clear() {
    remove(KEY);
    remove(&pending_key(KEY));
}

pub fn clear_settings() {
    remove(SETTINGS_KEY);
}
