//! `cargo xtask dist-zip`: the release page as one download for a teacher without Rust,
//! `target/outbox-playground-<version>-dist.zip` (the release workflow attaches it):
//!
//! ```text
//! outbox-playground-<version>/dist/…      the built page with its .br/.gz copies
//! outbox-playground-<version>/nginx.conf  a server block that sends those copies
//! outbox-playground-<version>/Caddyfile   the same for Caddy
//! ```
//!
//! The zip is written here by hand (the format's stored and deflated entries are ~80
//! lines) with the crates xtask already has, flate2 and crc32fast, instead of the `zip`
//! crate and its dependencies: the `.br`/`.gz` copies and PNGs are stored as they are
//! (deflate gains nothing on them), the rest deflated. Every entry carries the same
//! timestamp, so one build gives the same zip byte for byte.
//!
//! The command refuses a zip that lacks a file the service worker precaches (its list is
//! read back from dist/sw.js): a teacher's copy must work offline like the built page.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{setup, Ctx};

pub const NGINX_CONF: &str = include_str!("dist_zip/nginx.conf");
pub const CADDYFILE: &str = include_str!("dist_zip/Caddyfile");

/// Writes the zip from dist/ (built by `cargo xtask build-release`); its path.
pub fn run(ctx: &Ctx) -> Result<PathBuf, String> {
    let cargo_toml = std::fs::read_to_string(ctx.root.join("Cargo.toml"))
        .map_err(|e| format!("read Cargo.toml: {e}"))?;
    let version = setup::toml_string(&cargo_toml, "version").ok_or("Cargo.toml has no version")?;
    let dist = ctx.root.join("dist");
    let bytes = zip_dist(&dist, &version)?;
    let out = ctx
        .root
        .join("target")
        .join(format!("outbox-playground-{version}-dist.zip"));
    std::fs::create_dir_all(ctx.root.join("target")).map_err(|e| format!("create target/: {e}"))?;
    std::fs::write(&out, &bytes).map_err(|e| format!("write {}: {e}", out.display()))?;
    println!(
        "dist-zip: {} ({:.1} KB)",
        out.display(),
        bytes.len() as f64 / 1024.0
    );
    Ok(out)
}

/// The zip's bytes: `dist`'s files and the two snippets under `outbox-playground-VERSION/`.
pub fn zip_dist(dist: &Path, version: &str) -> Result<Vec<u8>, String> {
    let worker = std::fs::read_to_string(dist.join("sw.js")).map_err(|e| {
        format!(
            "read {}/sw.js: {e} (`cargo xtask build-release` builds dist/)",
            dist.display()
        )
    })?;
    let precached = precache_list(&worker)
        .ok_or("dist/sw.js has no precache list: a debug build? run `cargo xtask build-release`")?;
    let top = format!("outbox-playground-{version}");
    let files = crate::dist_files::list(dist)?;
    let mut zip = ZipWriter::default();
    zip.add(&format!("{top}/nginx.conf"), NGINX_CONF.as_bytes())?;
    zip.add(&format!("{top}/Caddyfile"), CADDYFILE.as_bytes())?;
    for name in &files {
        let bytes = std::fs::read(dist.join(name)).map_err(|e| format!("read {name}: {e}"))?;
        zip.add(&format!("{top}/dist/{name}"), &bytes)?;
    }
    let missing: Vec<&String> = precached.iter().filter(|n| !files.contains(n)).collect();
    if !missing.is_empty() {
        return Err(format!(
            "the service worker precaches files dist/ lacks: {missing:?}"
        ));
    }
    Ok(zip.finish())
}

/// The file names in sw.js's `const ASSETS = [...]` (xtask/src/sw.rs writes it; `"./"`
/// is index.html). None when the script has no such list (a debug build's worker).
pub fn precache_list(worker: &str) -> Option<Vec<String>> {
    let start = worker.find("const ASSETS = [")? + "const ASSETS = [".len();
    let list = &worker[start..start + worker[start..].find(']')?];
    let names = list
        .split(',')
        .map(|item| item.trim().trim_matches('"'))
        .filter(|item| !item.is_empty())
        .map(|item| if item == "./" { "index.html" } else { item }.to_string())
        .collect();
    Some(names)
}

/// A zip archive in memory: local headers and data, then the central directory.
#[derive(Default)]
pub struct ZipWriter {
    out: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
}

/// 1980-01-01 00:00 in MS-DOS form (the format's earliest date): the same for every
/// entry and every build.
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = (1 << 5) | 1;
/// Bit 11: the names are UTF-8.
const FLAGS_UTF8: u16 = 1 << 11;
const STORED: u16 = 0;
const DEFLATED: u16 = 8;

impl ZipWriter {
    /// Adds a file: deflated when that makes it smaller, else stored.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let too_big = || format!("{name}: the zip writer has no zip64 (4 GB, 65535 files)");
        let offset = u32::try_from(self.out.len()).map_err(|_| too_big())?;
        let size = u32::try_from(bytes.len()).map_err(|_| too_big())?;
        self.entries = self.entries.checked_add(1).ok_or_else(too_big)?;
        let deflated = deflate(bytes)?;
        let (method, data) = if deflated.len() < bytes.len() {
            (DEFLATED, deflated.as_slice())
        } else {
            (STORED, bytes)
        };
        let packed = u32::try_from(data.len()).map_err(|_| too_big())?;
        let name_len = u16::try_from(name.len()).map_err(|_| too_big())?;
        // The fields a local header and a central record share, in the format's order.
        let mut common = Vec::with_capacity(26);
        for half in [20, FLAGS_UTF8, method, DOS_TIME, DOS_DATE] {
            common.extend_from_slice(&half.to_le_bytes());
        }
        for word in [crc32fast::hash(bytes), packed, size] {
            common.extend_from_slice(&word.to_le_bytes());
        }
        common.extend_from_slice(&name_len.to_le_bytes());
        common.extend_from_slice(&0u16.to_le_bytes()); // no extra field
        self.out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        self.out.extend_from_slice(&common);
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(data);
        // Central record: "made by" Unix (3) so the mode below (rw-r--r--) is read.
        self.central
            .extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        self.central
            .extend_from_slice(&(3u16 << 8 | 20).to_le_bytes());
        self.central.extend_from_slice(&common);
        for half in [0u16, 0, 0] {
            // comment length, disk number, internal attributes
            self.central.extend_from_slice(&half.to_le_bytes());
        }
        self.central
            .extend_from_slice(&(0o100_644u32 << 16).to_le_bytes());
        self.central.extend_from_slice(&offset.to_le_bytes());
        self.central.extend_from_slice(name.as_bytes());
        Ok(())
    }

    /// The archive: entries, central directory, end record.
    pub fn finish(mut self) -> Vec<u8> {
        let central_offset = self.out.len() as u32;
        let central_size = self.central.len() as u32;
        self.out.extend_from_slice(&self.central);
        self.out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        for half in [0u16, 0, self.entries, self.entries] {
            self.out.extend_from_slice(&half.to_le_bytes());
        }
        self.out.extend_from_slice(&central_size.to_le_bytes());
        self.out.extend_from_slice(&central_offset.to_le_bytes());
        self.out.extend_from_slice(&0u16.to_le_bytes()); // no comment
        self.out
    }
}

/// Raw deflate (no zlib or gzip wrapper), as a zip entry holds it.
fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).map_err(|e| e.to_string())?;
    enc.finish().map_err(|e| e.to_string())
}

/// The names and contents a zip holds, read through its central directory (the tests'
/// reader: it knows only what [`ZipWriter`] writes).
#[cfg(test)]
pub fn read_zip(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    use std::io::Read;
    let u16_at = |at: usize| u16::from_le_bytes([zip[at], zip[at + 1]]) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap()) as usize;
    let end = zip.len() - 22;
    assert_eq!(u32_at(end), 0x0605_4b50, "end record");
    let (count, mut at) = (u16_at(end + 10), u32_at(end + 16));
    let mut out = Vec::new();
    for _ in 0..count {
        assert_eq!(u32_at(at), 0x0201_4b50, "central record");
        let (method, crc) = (u16_at(at + 10), u32_at(at + 16));
        let (packed, name_len) = (u32_at(at + 20), u16_at(at + 28));
        let local = u32_at(at + 42);
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        let data = &zip[local + 30 + name_len..local + 30 + name_len + packed];
        let bytes = if method == DEFLATED as usize {
            let mut plain = Vec::new();
            flate2::read::DeflateDecoder::new(data)
                .read_to_end(&mut plain)
                .unwrap();
            plain
        } else {
            data.to_vec()
        };
        assert_eq!(crc32fast::hash(&bytes) as usize, crc, "{name}'s checksum");
        out.push((name, bytes));
        at += 46 + name_len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A release build's files in a temporary folder, with the worker post-build writes.
    fn built_page(dir: &Path) {
        std::fs::create_dir_all(dir.join("i18n")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>".repeat(50)).unwrap();
        std::fs::write(dir.join("index.html.br"), [1u8, 2, 3]).unwrap();
        std::fs::write(dir.join("app-1_bg.wasm"), [0u8, 97, 115, 109]).unwrap();
        std::fs::write(dir.join("i18n/en-2.json"), "[\"a\"]").unwrap();
        std::fs::write(dir.join("robots.txt"), "User-agent: *").unwrap();
        crate::post_build::write_worker(dir, true).unwrap();
    }

    #[test]
    fn the_zip_holds_every_precached_file_and_the_snippets() {
        let dir = std::env::temp_dir().join(format!("xtask-zip-{}", std::process::id()));
        built_page(&dir);
        let zip = zip_dist(&dir, "9.8.7").unwrap();
        let entries = read_zip(&zip);
        let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
        let worker = std::fs::read_to_string(dir.join("sw.js")).unwrap();
        let precached = precache_list(&worker).unwrap();
        assert_eq!(precached, ["app-1_bg.wasm", "i18n/en-2.json", "index.html"]);
        for name in &precached {
            let want = format!("outbox-playground-9.8.7/dist/{name}");
            assert!(names.contains(&want.as_str()), "{want} in {names:?}");
        }
        for extra in [
            "dist/sw.js",
            "dist/index.html.br",
            "nginx.conf",
            "Caddyfile",
        ] {
            let want = format!("outbox-playground-9.8.7/{extra}");
            assert!(names.contains(&want.as_str()), "{want} in {names:?}");
        }
        let index = entries.iter().find(|(n, _)| n.ends_with("dist/index.html"));
        assert_eq!(index.unwrap().1, "<p>hi</p>".repeat(50).as_bytes());
        assert_eq!(
            zip,
            zip_dist(&dir, "9.8.7").unwrap(),
            "the same bytes again"
        );
        // A precached file gone from dist/: no zip.
        std::fs::remove_file(dir.join("i18n/en-2.json")).unwrap();
        let err = zip_dist(&dir, "9.8.7").unwrap_err();
        assert!(err.contains("i18n/en-2.json"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_debug_build_is_refused() {
        let dir = std::env::temp_dir().join(format!("xtask-zip-dev-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>").unwrap();
        crate::post_build::write_worker(&dir, false).unwrap();
        assert!(zip_dist(&dir, "1.0.0").unwrap_err().contains("debug build"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_snippets_send_the_precompressed_copies() {
        assert!(NGINX_CONF.contains("gzip_static on;"));
        assert!(
            NGINX_CONF.contains("# brotli_static on;"),
            "commented: a module"
        );
        assert!(CADDYFILE.contains("precompressed br gzip"));
    }
}
