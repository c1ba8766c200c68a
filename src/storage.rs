//! The saved run in localStorage, under a versioned key. Storage can be missing, full or
//! blocked (private windows): saving is best effort and loading reports what it found.

/// Bump the version when [`crate::sim::Run`] changes incompatibly.
pub const KEY: &str = "outbox-playground/v1/run";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved JSON, if any.
pub fn load() -> Option<String> {
    storage()?.get_item(KEY).ok().flatten()
}

pub fn save(json: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, json);
    }
}

pub fn clear() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEY);
    }
}
