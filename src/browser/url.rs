//! The page's address: its query parameters (`?present`, `?notes`, `?lang=en`), its
//! fragment (a share link), and `data:` URLs for downloads made in the page.

use wasm_bindgen::JsValue;

/// Whether the page address asks for something (`?present`, `?notes`, `?lang=en`).
pub fn url_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// Drops the `#…` fragment from the address bar without reloading or adding a history
/// entry (a share link, once opened).
pub fn clear_fragment() {
    let Some(w) = web_sys::window() else { return };
    if let (Ok(h), Ok(path)) = (w.history(), w.location().pathname()) {
        let search = w.location().search().unwrap_or_default();
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{search}")));
    }
}

/// `text` as a `data:` URL (the progress export's link).
pub fn data_url(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(40 + text.len() * 2);
    out.push_str("data:application/json;charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
    out
}

/// Sets (`Some`) or removes (`None`) one query parameter in the address bar, keeping the
/// others and the fragment. `push` adds a history entry (a chosen details tab: Back
/// returns to the previous one); otherwise the entry is replaced (presenter mode: a
/// reload keeps it, Back does not toggle it).
pub fn set_url_param(name: &str, value: Option<&str>, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let search = loc.search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    if params.get(name).as_deref() == value {
        return;
    }
    match value {
        Some(v) => params.set(name, v),
        None => params.delete(name),
    }
    // URLSearchParams writes a bare flag as `present=`; the page reads both forms.
    let query = String::from(params.to_string());
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    let url = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
    };
    let Ok(h) = w.history() else { return };
    let _ = if push {
        h.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        h.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}
