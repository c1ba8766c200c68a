//! Which key presses are the page's: shared by the playground's keys and the lesson's
//! clicker keys, so both ignore the same things (modifiers, typing into a field). A
//! focused button, select, radio or checkbox does not keep the page's shortcuts from
//! working (#42: after clicking "Next", Space must play, not press "Next" again): the
//! handlers cancel the key's default, so the focused control is not pressed.

use wasm_bindgen::JsCast;

/// Where a key press went, for the page's shortcuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyTarget {
    /// The page, or a button or link: every shortcut is the page's.
    Page,
    /// A control that uses the arrow keys itself (a select, a radio, a checkbox, a
    /// slider): the shortcuts are the page's, the arrows stay the control's.
    Control,
}

/// Where a key went, when the key is one for the page: no modifier, and not typed into a
/// text field. None otherwise.
pub fn page_key_target(e: &web_sys::KeyboardEvent) -> Option<KeyTarget> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let el = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let Some(el) = el else {
        return Some(KeyTarget::Page);
    };
    if el
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable())
    {
        return None;
    }
    match el.tag_name().as_str() {
        "TEXTAREA" => None,
        "SELECT" => Some(KeyTarget::Control),
        "INPUT" => {
            let kind = el
                .get_attribute("type")
                .unwrap_or_default()
                .to_ascii_lowercase();
            matches!(
                kind.as_str(),
                "radio" | "checkbox" | "range" | "button" | "submit" | "reset" | "color"
            )
            .then_some(KeyTarget::Control)
        }
        _ => Some(KeyTarget::Page),
    }
}

/// Keeps Space from pressing the focused button when the key comes up (a browser presses
/// a button on Space's keyup, a checkbox or radio too): Space is the page's play key.
pub fn space_never_presses() -> impl Fn(web_sys::KeyboardEvent) {
    move |e: web_sys::KeyboardEvent| {
        if e.key() == " " && page_key_target(&e).is_some() {
            e.prevent_default();
        }
    }
}
