//! The page's Content-Security-Policy, written into the built index.html after Trunk.
//!
//! Why after the build: Trunk writes an inline `<script type="module">` (the wasm loader)
//! whose text we do not control, so its sha256 is known only once the page is built. The
//! policy goes in a `<meta http-equiv>` (not a header) so it holds on any static host.
//! No `unsafe-inline`, no `unsafe-eval`; `wasm-unsafe-eval` lets WebAssembly compile.

use base64::Engine;
use sha2::{Digest, Sha256};

/// What index.html holds where the policy goes.
pub const PLACEHOLDER: &str = "OUTBOX_CSP";

/// The text of every inline `<script>` (one without `src`) in `html`.
pub fn inline_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let tag = &after[..tag_end];
        let body_start = tag_end + 1;
        let Some(close) = after[body_start..].find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            out.push(&after[body_start..body_start + close]);
        }
        rest = &after[body_start + close..];
    }
    out
}

/// `'sha256-…'` of a script's text, as CSP wants it.
pub fn hash_source(script: &str) -> String {
    let digest = Sha256::digest(script.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The policy for a page whose inline scripts are `scripts`.
pub fn policy(scripts: &[&str]) -> String {
    let hashes: Vec<String> = scripts.iter().map(|s| hash_source(s)).collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {}; style-src 'self'; \
         img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'",
        hashes.join(" ")
    )
}

/// index.html with the placeholder replaced by the policy; Err if there is no placeholder.
pub fn apply(html: &str) -> Result<String, String> {
    if !html.contains(PLACEHOLDER) {
        return Err(format!("index.html has no {PLACEHOLDER} to replace"));
    }
    let scripts = inline_scripts(html);
    Ok(html.replace(PLACEHOLDER, &policy(&scripts)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_each_inline_script_and_skips_external_ones() {
        let html = "<meta content=\"OUTBOX_CSP\"><script nomodule src=\"a.js\"></script>\
                    <script type=\"module\">alert(1)</script>";
        assert_eq!(inline_scripts(html), vec!["alert(1)"]);
        let out = apply(html).unwrap();
        // sha256("alert(1)"), computed independently with `openssl dgst -sha256 -binary | base64`.
        assert!(
            out.contains("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"),
            "{out}"
        );
        assert!(!out.contains("unsafe-inline") && !out.contains("'unsafe-eval'"));
        assert!(apply("<p>no policy</p>").is_err());
    }
}
