//! Where the page runs: embedded (`?embed`, or framed by another page) and under a SCORM
//! run-time (an `API` object on a parent or the opener, found as SCORM's API discovery
//! algorithm looks for it). `embedded` is in the first load (it decides whether the embed
//! code is fetched at all); the search for a run-time runs in the embed chunk.

use wasm_bindgen::JsValue;
use web_sys::js_sys::{Object, Reflect};

/// The SCORM version of a run-time: its API object's name and its data model differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scorm {
    /// SCORM 1.2: `window.API`, `LMSInitialize`, `cmi.core.*`.
    V12,
    /// SCORM 2004: `window.API_1484_11`, `Initialize`, `cmi.completion_status`, …
    V2004,
}

impl Scorm {
    /// The name the run-time's object has on its window.
    pub fn api_name(self) -> &'static str {
        match self {
            Scorm::V12 => "API",
            Scorm::V2004 => "API_1484_11",
        }
    }
}

/// What the embed chunk is asked to do (`src/app/lazy.rs`'s `embed` door). Made once per
/// page, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum Embedded {
    /// The speaker-notes window of an embedded page: its side of the bridge.
    Notes,
    /// The embedded page: the host API and the page's side of the notes bridge.
    Page {
        lesson: crate::lesson::ctl::LessonCtl,
        i18n: crate::i18n::I18n,
        /// Opens a `#workshop=`/`#challenge=` link (the challenge code is `app/`'s to call).
        open_workshop: leptos::prelude::Callback<String>,
        owner: leptos::prelude::Owner,
    },
}

/// Whether another window opened this one (and did not give it up with `noopener`).
pub fn has_opener() -> bool {
    web_sys::window()
        .and_then(|w| w.opener().ok())
        .is_some_and(|o| !o.is_null() && !o.is_undefined())
}

/// Whether the page runs embedded: `?embed` (a host can ask for it) or in a frame.
pub fn embedded() -> bool {
    crate::browser::url::url_param("embed").is_some() || framed()
}

/// The origin named by `?embed=<origin>`: then the page talks only to that host.
pub fn host_origin() -> Option<String> {
    crate::browser::url::url_param("embed").filter(|o| !o.is_empty())
}

/// Whether another page frames this one (`window.top` is not this window).
pub fn framed() -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    match w.top() {
        Ok(Some(top)) => !Object::is(&top, &w),
        // Reading `top` refused: only a frame is refused that.
        _ => true,
    }
}

/// How many parents SCORM's discovery climbs before giving up (its published algorithm
/// stops at 7: a loop of frames must not hang the page).
const MAX_PARENTS: usize = 7;

/// The SCORM run-time's API object: on this window's parents, then on the opener's
/// (a platform that launches the package in a new window). `?scorm=2004` (the SCORM 2004
/// package's launch address) looks for `API_1484_11`, else SCORM 1.2's `API`. A window
/// of another origin refuses the look: that is skipped, never a panic.
pub fn find_scorm() -> Option<(JsValue, Scorm)> {
    let version = match crate::browser::url::url_param("scorm").as_deref() {
        Some("2004") => Scorm::V2004,
        _ => Scorm::V12,
    };
    let w = web_sys::window()?;
    let here: JsValue = w.clone().into();
    let found = climb(&here, version.api_name()).or_else(|| {
        let opener = w
            .opener()
            .ok()
            .filter(|o| !o.is_null() && !o.is_undefined())?;
        climb(&opener, version.api_name())
    })?;
    Some((found, version))
}

/// The object `name` on `win` or one of its parents.
fn climb(win: &JsValue, name: &str) -> Option<JsValue> {
    let key = JsValue::from_str(name);
    let mut win = win.clone();
    for _ in 0..=MAX_PARENTS {
        if let Ok(api) = Reflect::get(&win, &key) {
            if api.is_object() {
                return Some(api);
            }
        }
        let parent = Reflect::get(&win, &JsValue::from_str("parent")).ok()?;
        if parent.is_null() || parent.is_undefined() || Object::is(&parent, &win) {
            return None;
        }
        win = parent;
    }
    None
}
