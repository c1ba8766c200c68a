//! `cargo xtask post-build`: Trunk's post_build hook (Trunk.toml). It runs on Trunk's
//! staging folder (`TRUNK_STAGING_DIR`) after every pipeline has written its files and
//! before the folder becomes dist/, and finishes the page for any static host:
//!
//! 1. the icons (drawn, [`crate::icons`]) and the web app manifest;
//! 2. the Content-Security-Policy with the hashes of the inline script Trunk wrote;
//! 3. the service worker, listing this build's files ([`crate::sw`]);
//! 4. in a release build, `.br` and `.gz` beside each file, for servers that send
//!    precompressed files (`cargo xtask serve-release`, nginx `gzip_static`, …);
//! 0. before all that, the page's wasm split in two ([`crate::split`]: the challenge code
//!    loads when it is used), then in a release build the JavaScript minified ([`minify_js`]).
//!
//! The order matters: the worker's list and version cover the final index.html and icons.

use std::io::Write;
use std::path::{Path, PathBuf};

use static_server::with_suffix;

use crate::{csp, dist_files, icons, split, sw};

pub fn run() -> Result<(), String> {
    let dir = std::env::var_os("TRUNK_STAGING_DIR")
        .map(PathBuf::from)
        .ok_or("TRUNK_STAGING_DIR is not set: this runs as Trunk's post_build hook")?;
    let release = std::env::var("TRUNK_PROFILE").as_deref() == Ok("release");
    split::split(&dir, release)?;
    finish(&dir, release)
}

/// Steps 1–4 on the built page in `dir`.
pub fn finish(dir: &Path, release: bool) -> Result<(), String> {
    if release {
        minify_js(dir)?;
    }
    let index = dir.join("index.html");
    let mut html = read(&index)?;
    if release {
        // index.html explains itself at length for its readers; a phone need not load that.
        html = without_html_comments(&html);
    }
    icons::write_all(dir)?;
    let (uz, en) = descriptions(&html)?;
    write(
        &dir.join("manifest.webmanifest"),
        sw::manifest(&uz, &en).as_bytes(),
    )?;
    write(&index, csp::apply(&html)?.as_bytes())?;
    write_worker(dir, release)?;
    if release {
        precompress(dir)?;
    }
    Ok(())
}

/// terser (npm, in `.tools/`, installed by `cargo xtask setup`): trunk 0.21.14's own
/// minifier fails on wasm-bindgen 0.2.130's glue (Trunk.toml), which was then shipped as
/// written: 52.6 KB, 8.8 KB gzip. Minified as an ES module (its exports keep their names;
/// the wasm's imports are string keys): 23.6 KB, 6.6 KB gzip. The page's 480 KB cap (#18)
/// had no room for the lesson's new steps without it.
fn minify_js(dir: &Path) -> Result<(), String> {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/node_modules");
    let terser = tools.join("terser/bin/terser");
    if !terser.exists() {
        return Err(format!(
            "{} is missing: `cargo xtask setup` installs it",
            terser.display()
        ));
    }
    for name in dist_files::list(dir)? {
        // Trunk's glue and the boot initializer (hashed names); sw.js is written after.
        if !name.ends_with(".js") || name.contains('/') || name == "legacy.js" || name == "sw.js" {
            continue;
        }
        let path = dir.join(&name);
        // The worker's entry and glue (wasm-bindgen's no-modules target) are classic scripts:
        // the glue's top-level `wasm_bindgen` is its interface, so not minified as modules.
        let module: &[&str] = if name.starts_with("prove-") {
            &[]
        } else {
            &["--module"]
        };
        let out = std::process::Command::new("node")
            .arg(&terser)
            .arg(&path)
            .args(module)
            .args(["--compress", "--mangle", "--output"])
            .arg(&path)
            .output()
            .map_err(|e| format!("run terser: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "terser {name}: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(())
}

/// `html` without its `<!-- … -->` comments (index.html has none inside a script).
fn without_html_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("-->")
            .map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// sw.js for the files now in `dir`. A debug build (`trunk serve`) gets a worker that
/// removes itself and its scope's caches (and the older unscoped ones), so a developer
/// always sees the code just built.
pub fn write_worker(dir: &Path, release: bool) -> Result<(), String> {
    let script = if release {
        let (names, version) = sw::assets(dir)?;
        sw::script(&names, &version)
    } else {
        DEV_WORKER.to_string()
    };
    write(&dir.join("sw.js"), script.as_bytes())
}

const DEV_WORKER: &str = "// A debug build: no offline cache (see xtask/src/post_build.rs).\n\
self.addEventListener(\"install\", () => self.skipWaiting());\n\
self.addEventListener(\"activate\", (e) => e.waitUntil(caches.keys()\n\
  .then((ks) => Promise.all(ks.filter((k) => k.startsWith(\"outbox:\" + self.registration.scope + \":\")\n\
    || /^outbox-[0-9a-f]{16}$/.test(k)).map((k) => caches.delete(k))))\n\
  .then(() => self.registration.unregister())));\n";

/// The offline test's "new deployment" (tests/ship.rs): `dist`'s files (without the
/// precompressed copies) in `out`, with one change in index.html and the service worker
/// that change makes.
pub fn next_build_for_tests(dist: &Path, out: &Path) -> Result<(), String> {
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("clear {}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("create {}: {e}", out.display()))?;
    for name in dist_files::list(dist)? {
        if !name.ends_with(".br") && !name.ends_with(".gz") {
            let to = out.join(&name);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("create {}: {e}", parent.display()))?;
            }
            write(&to, &read_bytes(&dist.join(&name))?)?;
        }
    }
    let index = out.join("index.html");
    let html = read(&index)?.replacen(
        "</head>",
        "<meta name=\"outbox-build\" content=\"next\"></head>",
        1,
    );
    write(&index, html.as_bytes())?;
    write_worker(out, true)
}

/// The meta description's Uzbek `content` and English `data-en` in index.html.
fn descriptions(html: &str) -> Result<(String, String), String> {
    let start = html
        .find("<meta name=\"description\"")
        .ok_or("index.html has no meta description")?;
    let tag = &html[start..start + html[start..].find('>').unwrap_or(0)];
    let attr = |name: &str| {
        let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[from..from + tag[from..].find('"')?].to_string())
    };
    match (attr("content"), attr("data-en")) {
        (Some(uz), Some(en)) => Ok((uz, en)),
        _ => Err("the meta description needs content (uz) and data-en (en)".into()),
    }
}

/// Writes `NAME.br` (brotli 11) and `NAME.gz` (gzip 9) beside every text or wasm file.
pub fn precompress(dir: &Path) -> Result<(), String> {
    for name in dist_files::list(dir)? {
        let path = dir.join(name);
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(
            ext,
            "html" | "js" | "wasm" | "css" | "svg" | "webmanifest" | "txt" | "json"
        ) {
            continue;
        }
        let bytes = read_bytes(&path)?;
        let mut br = Vec::new();
        {
            let mut enc = brotli::CompressorWriter::new(&mut br, 4096, 11, 22);
            enc.write_all(&bytes).map_err(|e| e.to_string())?;
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&bytes).map_err(|e| e.to_string())?;
        let gz = gz.finish().map_err(|e| e.to_string())?;
        // Only where it saves bytes (robots.txt is smaller as it is).
        for (suffix, packed) in [("br", br), ("gz", gz)] {
            if packed.len() < bytes.len() {
                write(&with_suffix(&path, suffix), &packed)?;
            }
        }
    }
    Ok(())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("read {}: {e}", path.display()))
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("read {}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn html_comments_go_and_the_rest_stays() {
        let html = "<p>a</p><!-- one\n two --><p>b</p><!-- unclosed";
        assert_eq!(super::without_html_comments(html), "<p>a</p><p>b</p>");
    }

    use super::*;

    #[test]
    fn finishes_a_page_with_policy_manifest_worker_and_compressed_copies() {
        let dir = std::env::temp_dir().join(format!("xtask-post-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let html = "<meta http-equiv=\"Content-Security-Policy\" content=\"OUTBOX_CSP\">\
                    <meta name=\"description\" content=\"uz matn\" data-en=\"en text\">\
                    <script type=\"module\">go()</script>";
        std::fs::write(dir.join("index.html"), html).unwrap();
        std::fs::write(dir.join("app-9.wasm"), [0u8; 64]).unwrap();
        finish(&dir, true).unwrap();
        let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(page.contains(&csp::hash_source("go()")) && !page.contains("OUTBOX_CSP"));
        let manifest = std::fs::read_to_string(dir.join("manifest.webmanifest")).unwrap();
        assert!(manifest.contains("uz matn / en text") && manifest.contains("maskable"));
        let worker = std::fs::read_to_string(dir.join("sw.js")).unwrap();
        assert!(worker.contains("\"icon-maskable-512.png\"") && worker.contains("\"app-9.wasm\""));
        assert!(dir.join("app-9.wasm.br").exists() && dir.join("index.html.gz").exists());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
