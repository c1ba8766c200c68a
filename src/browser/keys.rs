//! Which key presses are the page's: shared by the playground's keys and the lesson's
//! clicker keys, so both ignore the same things (modifiers, typing into a field).

use wasm_bindgen::JsCast;

/// The tag of the element a key went to, when the key is one for the page: no modifier,
/// and not typed into a field. None otherwise.
pub fn page_key_target(e: &web_sys::KeyboardEvent) -> Option<String> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name())
        .unwrap_or_default();
    (!matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA")).then_some(tag)
}
