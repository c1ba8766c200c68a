//! Embeds the release page in the binary: every file of `OUTBOX_DIST` (else `../dist`),
//! its `.br`/`.gz` copies included, as an `include_bytes!` table in `$OUT_DIR/embedded.rs`.
//!
//! Only a release build is embedded (its dist/sw.js has the precache list): a debug build's
//! page is not what a classroom should get. Without one the table is empty and says why;
//! the binary then asks for `--dir` at run time instead of failing to build, so `cargo
//! build --workspace` works on a fresh checkout. A dist/ named by `OUTBOX_DIST` (the
//! release workflow) must be a release build, or the build fails.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=OUTBOX_DIST");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let named = std::env::var_os("OUTBOX_DIST").map(PathBuf::from);
    let dist = named.clone().unwrap_or_else(|| manifest.join("../dist"));
    // A folder: cargo looks at every file under it.
    println!("cargo:rerun-if-changed={}", dist.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let code = match release_page(&dist) {
        Ok((version, files)) => table(&dist, &version, &files),
        // Asked for by name (the release workflow): a binary without the page is a failure.
        Err(reason) if named.is_some() => panic!("OUTBOX_DIST: {reason}"),
        Err(reason) => {
            format!(
                "pub const VERSION: Option<&str> = None;\npub const MISSING: &str = {reason:?};\n\
                 pub static FILES: &[(&str, &[u8])] = &[];\n"
            )
        }
    };
    std::fs::write(out.join("embedded.rs"), code).expect("write embedded.rs");
}

/// The build version sw.js names (a hash of the page's files) and every file of `dist`.
fn release_page(dist: &Path) -> Result<(String, Vec<String>), String> {
    let worker = std::fs::read_to_string(dist.join("sw.js")).map_err(|_| {
        format!(
            "{} has no sw.js: build the page first (`cargo xtask build-release`)",
            dist.display()
        )
    })?;
    if !worker.contains("const ASSETS = [") {
        return Err(format!(
            "{} is a debug build: `cargo xtask build-release`",
            dist.display()
        ));
    }
    // The build's hash, as xtask/src/sw.rs writes it (`const VERSION = "<hash>";`; the
    // cache is named after the scope and this, #40).
    let version = worker
        .split("const VERSION = \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or("sw.js names no build version")?
        .to_string();
    let mut files = Vec::new();
    walk(dist, "", &mut files)?;
    files.sort();
    Ok((version, files))
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir.join(prefix)).map_err(|e| format!("read {prefix}: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        if kind.is_dir() {
            walk(dir, &format!("{name}/"), out)?;
        } else if kind.is_file() {
            out.push(name);
        }
    }
    Ok(())
}

fn table(dist: &Path, version: &str, files: &[String]) -> String {
    let mut code = format!(
        "pub const VERSION: Option<&str> = Some({version:?});\npub const MISSING: &str = \"\";\n\
         pub static FILES: &[(&str, &[u8])] = &[\n"
    );
    for name in files {
        let path = dist.join(name);
        let path = path.canonicalize().unwrap_or(path);
        writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .expect("write to a String");
    }
    code.push_str("];\n");
    code
}
