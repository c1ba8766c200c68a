//! The saved run in localStorage, under a versioned key. Storage can be missing, full or
//! blocked (private windows): saving is best effort and loading reports what it found.

/// Bump the version when [`crate::run::sim::Run`] changes incompatibly.
pub const KEY: &str = "outbox-playground/v1/run";

/// The page's localStorage, when the browser allows it.
pub fn storage() -> Option<web_sys::Storage> {
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

/// The user's settings beside the run: language and speed.
pub const SETTINGS_KEY: &str = "outbox-playground/v1/settings";

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub lang: String,
    pub speed: usize,
}

/// The saved settings: None when there are none, Err with the reason when they are corrupt.
pub fn load_settings() -> Option<Result<Settings, String>> {
    let text = storage()?.get_item(SETTINGS_KEY).ok().flatten()?;
    Some(serde_json::from_str(&text).map_err(|e| e.to_string()))
}

pub fn save_settings(s: &Settings) {
    if let (Some(st), Ok(json)) = (storage(), serde_json::to_string(s)) {
        let _ = st.set_item(SETTINGS_KEY, &json);
    }
}

pub fn clear_settings() {
    if let Some(s) = storage() {
        let _ = s.remove_item(SETTINGS_KEY);
    }
}
