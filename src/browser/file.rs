//! A file the user chose in an `<input type="file">`, read as text: refused by its size
//! before a byte is read (reading and parsing a huge file would freeze the tab), and the
//! input cleared, so choosing the same file again reads it again. Every importer of the
//! page (traces and runs, workshops and challenges, progress) reads files through this.

use wasm_bindgen::JsCast;

use crate::i18n::{Key, Reason};

/// Largest file read: the page's files (runs, traces, workshops, progress) are kilobytes.
pub const MAX_FILE_BYTES: u64 = 5_000_000;

/// `bytes` in megabytes with one decimal ("6.3"), in integers: formatting an f64 would
/// link core's float printing into the page (~11 KB before wasm-opt) for this one text.
fn tenths_of_mb(bytes: f64) -> String {
    let tenths = (bytes / 100_000.0).round() as u64;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Why a file of `size` bytes is refused unread, if it is.
pub fn too_big(size: f64) -> Option<Reason> {
    (size > MAX_FILE_BYTES as f64).then(|| {
        Reason::new(Key::ReasonFileTooBig)
            .arg("mb", tenths_of_mb(size))
            .arg("max", MAX_FILE_BYTES / 1_000_000)
    })
}

/// Reads the file chosen in the input that fired `ev` and hands its text to `then`, or
/// the reason it was not read. Nothing happens when no file was chosen.
pub fn read_chosen(ev: &leptos::ev::Event, then: impl FnOnce(Result<String, Reason>) + 'static) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    input.set_value("");
    if let Some(why) = too_big(file.size()) {
        then(Err(why));
        return;
    }
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        then(text.ok_or_else(|| Reason::new(Key::ReasonFileUnread)));
    });
}

/// Points the clicked download link at the file just made (a `data:` URL); the click then
/// downloads it. Files are made on click: building a big JSON on every change costs frames.
pub fn set_href(ev: &leptos::ev::MouseEvent, url: String) {
    if let Some(a) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    {
        let _ = a.set_attribute("href", &url);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_limit_is_refused_by_its_size_naming_both() {
        assert_eq!(too_big(MAX_FILE_BYTES as f64), None);
        let why = too_big(12_345_678.0).expect("refused");
        for lang in crate::i18n::Lang::ALL {
            let text = why.text(lang);
            assert!(text.contains("12.3 ") && text.contains(" 5 "), "{text}");
        }
    }
}
