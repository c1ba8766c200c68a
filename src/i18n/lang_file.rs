//! Fetches a language file (`i18n/<code>.json` in the built `dist/`) and installs its
//! texts. The URL is relative, so a page served under a subpath finds its own files.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::i18n::lang::Lang;
use crate::i18n::table;

/// The longest language file accepted (the largest is ~60 KB): a misconfigured server
/// answering with something huge is refused before it is parsed.
const MAX_FILE_BYTES: usize = 512 * 1024;

/// Brings `lang`'s texts in: fetched, checked, installed. The error is the reason, for
/// the console (the page shows its own translated notice).
pub async fn load(lang: Lang) -> Result<(), String> {
    if table::is_loaded(lang) {
        return Ok(());
    }
    let text = fetch_text(&url(lang)).await?;
    if text.len() > MAX_FILE_BYTES {
        return Err(format!("{} bytes, over {MAX_FILE_BYTES}", text.len()));
    }
    table::install(lang, &text)
}

/// Where `lang`'s file is, relative to the page.
pub fn url(lang: Lang) -> String {
    format!("i18n/{}.json", lang.code())
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let js_err = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(js_err)?;
    let response: web_sys::Response = response.dyn_into().map_err(js_err)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(js_err)?)
        .await
        .map_err(js_err)?;
    text.as_string().ok_or_else(|| "not text".to_string())
}
