//! The page's wasm cut in two (#23): the challenge code (src/app/lazy.rs's split
//! points) goes into its own file, fetched the first time it is used, so the first load
//! stays under the 480 KB cap (#18).
//!
//! Trunk 0.21 has no hook between cargo and wasm-bindgen, so this post-build step redoes
//! Trunk's last two steps from cargo's own output: `wasm_split_cli_support` splits the
//! linked wasm (built with `--emit-relocs`, build.rs), wasm-bindgen writes the glue for
//! the main part (`--keep-lld-exports`: the chunks call into it by those names), wasm-opt
//! shrinks each part as Trunk would have; the results replace Trunk's glue and wasm under
//! the same names, so Trunk's loader in index.html needs no change but the wasm's size it
//! passes to the progress bar. The chunks get content-hashed names (a static host may
//! cache them for long); the service worker lists them with the rest of the build. The
//! chunks' loaders (wasm-split's "link module") are written into the glue: no request.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The page's binary, as cargo and Trunk name it.
const BIN: &str = "outbox-playground";

/// Splits the page's wasm in `dir` (Trunk's staging folder) if cargo's output has split
/// points; a build without them (no `split` feature) is left as Trunk wrote it.
pub fn split(dir: &Path, release: bool) -> Result<(), String> {
    let artifact = artifact(release);
    let input = std::fs::read(&artifact)
        .map_err(|e| format!("read {} (cargo's output): {e}", artifact.display()))?;
    if !contains(&input, b"__wasm_split_placeholder__") {
        return Ok(());
    }
    let stem = trunk_stem(dir)?;
    let work = artifact.with_file_name("split");
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| format!("clear {}: {e}", work.display()))?;
    }
    let main = work.join("main.wasm");
    let link_name = format!("./{stem}-split.js");
    let main_module = format!("./{stem}.js");
    let chunks = {
        let mut opts = wasm_split_cli_support::Options::new(&input);
        opts.output_dir = &work;
        opts.main_out_path = &main;
        opts.link_name = &link_name;
        opts.main_module = &main_module;
        wasm_split_cli_support::transform(opts)
            .map_err(|e| format!("wasm-split {}: {e:#}", artifact.display()))?
            .split_modules
    };
    bindgen(&main, &work, &stem)?;
    let wasm = dir.join(format!("{stem}_bg.wasm"));
    optimize(&work.join(format!("{stem}_bg.wasm")), &wasm, release)?;
    let size = std::fs::metadata(&wasm)
        .map_err(|e| format!("{}: {e}", wasm.display()))?
        .len();
    fix_size(&dir.join("index.html"), &stem, size)?;
    let mut link = read_text(&work.join(&link_name[2..]))?;
    for chunk in chunks {
        let name = file_name(&chunk)?;
        let out = dir.join(&name);
        optimize(&chunk, &out, release)?;
        let hashed = hashed_name(&out)?;
        std::fs::rename(&out, dir.join(&hashed)).map_err(|e| format!("rename {name}: {e}"))?;
        let quoted = format!("\"./{name}\"");
        if !link.contains(&quoted) {
            return Err(format!("the split's link module does not load {name}"));
        }
        link = link.replace(&quoted, &format!("\"./{hashed}\""));
    }
    let glue = read_text(&work.join(format!("{stem}.js")))?;
    let glue = inline_link(&glue, &link, &link_name, &main_module)?;
    write_text(&glue, &dir.join(format!("{stem}.js")))
}

/// The glue with wasm-split's link module (the chunks' loaders) written into it, so the
/// first load makes no request for it (#18's budget: 8). The glue imported the link
/// module, which imported the glue's `initSync`: inlined, both are in one scope. Its
/// `export const`s become the properties of the object the wasm imports them from.
fn inline_link(
    glue: &str,
    link: &str,
    link_name: &str,
    main_module: &str,
) -> Result<String, String> {
    let mut kept = String::with_capacity(glue.len() + link.len());
    let mut aliases = Vec::new();
    for line in glue.lines() {
        let import = line
            .strip_prefix("import * as ")
            .and_then(|rest| rest.split_once(" from "))
            .filter(|(_, from)| from.trim_end_matches(';').trim_matches('"') == link_name);
        match import {
            Some((alias, _)) => aliases.push(alias.to_string()),
            None => {
                kept.push_str(line);
                kept.push('\n');
            }
        }
    }
    let mut names = Vec::new();
    let mut body = String::with_capacity(link.len());
    let mut dropped = 0;
    for line in link.lines() {
        if line.starts_with("import ") && line.contains(&format!("\"{main_module}\"")) {
            dropped += 1;
            continue;
        }
        match line.strip_prefix("export const ") {
            Some(rest) => {
                let name = rest.split([' ', '=']).next().unwrap_or_default();
                names.push(name.to_string());
                body.push_str("const ");
                body.push_str(rest);
            }
            None => body.push_str(line),
        }
        body.push('\n');
    }
    if aliases.is_empty() || names.is_empty() || dropped != 1 {
        return Err(format!(
            "wasm-split's link module no longer has the shape split.rs inlines: \
             {} imports of it in the glue, {} exports, {dropped} imports of the glue",
            aliases.len(),
            names.len()
        ));
    }
    kept.push_str("// wasm-split's loaders for the page's chunks (xtask/src/split.rs)\n");
    kept.push_str(&body);
    kept.push_str(&format!(
        "const __wasm_split_link = {{ {} }};\n",
        names.join(", ")
    ));
    for alias in aliases {
        kept.push_str(&format!("const {alias} = __wasm_split_link;\n"));
    }
    Ok(kept)
}

/// Trunk's loader in index.html passes the wasm's size to the boot shell's progress bar
/// (web/boot.js), as it was before wasm-opt: the bar stopped at a third. This writes the
/// size of the file the page now fetches (the stream counts decompressed bytes).
fn fix_size(index: &Path, stem: &str, size: u64) -> Result<(), String> {
    let html = read_text(index)?;
    let at = format!("'./{stem}_bg.wasm', ");
    let start = html
        .find(&at)
        .map(|i| i + at.len())
        .ok_or_else(|| format!("index.html: Trunk's loader does not fetch {stem}_bg.wasm"))?;
    let digits = html[start..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err("index.html: Trunk's loader passes no wasm size".into());
    }
    let fixed = format!("{}{size}{}", &html[..start], &html[start + digits..]);
    write_text(&fixed, index)
}

/// Cargo's linked wasm for this build (Trunk's release builds use the `wasm-release`
/// profile: index.html).
fn artifact(release: bool) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let profile = if release { "wasm-release" } else { "debug" };
    target
        .join("wasm32-unknown-unknown")
        .join(profile)
        .join(format!("{BIN}.wasm"))
}

/// Trunk's name for the page's glue and wasm: `outbox-playground-<hash>` (`.js`, `_bg.wasm`).
fn trunk_stem(dir: &Path) -> Result<String, String> {
    let prefix = format!("{BIN}-");
    let entries = std::fs::read_dir(dir).map_err(|e| format!("list {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix("_bg.wasm") {
            if stem.starts_with(&prefix) {
                return Ok(stem.to_string());
            }
        }
    }
    Err(format!("no {prefix}*_bg.wasm in {}", dir.display()))
}

fn bindgen(main: &Path, out: &Path, stem: &str) -> Result<(), String> {
    run(Command::new("wasm-bindgen")
        .arg(main)
        .args(["--target=web", "--keep-lld-exports", "--no-typescript"])
        .arg(format!("--out-name={stem}"))
        .arg(format!("--out-dir={}", out.display())))
}

/// wasm-opt as Trunk runs it for the page (index.html's `data-wasm-opt="z"`); a debug
/// build is copied as it is.
fn optimize(from: &Path, to: &Path, release: bool) -> Result<(), String> {
    if !release {
        return copy(from, to);
    }
    run(Command::new("wasm-opt")
        .arg(format!("--output={}", to.display()))
        .arg("-Oz")
        .arg(from))
}

/// `<stem>-<16 hex of its sha256>.wasm`.
fn hashed_name(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("read {}: {e}", path.display()))?;
    let hex: String = Sha256::digest(&bytes)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let name = file_name(path)?;
    let stem = name.strip_suffix(".wasm").unwrap_or(&name);
    Ok(format!("{stem}-{hex}.wasm"))
}

fn file_name(path: &Path) -> Result<String, String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{} has no file name", path.display()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copy {} to {}: {e}", from.display(), to.display()))
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("read {}: {e}", path.display()))
}

fn write_text(text: &str, to: &Path) -> Result<(), String> {
    std::fs::write(to, text).map_err(|e| format!("write {}: {e}", to.display()))
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("run {:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{:?} failed: {}",
            cmd.get_program(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The shapes below are wasm-bindgen 0.2.130's and wasm_split_cli_support 0.2.4's, cut
    // down (the page's own build checks the real ones: `inline_link` refuses others).
    const GLUE: &str = "import * as import1 from \"./app-1-split.js\"\n\
        import * as import2 from \"./app-1-split.js\"\n\
        function initSync(m) { return 1; }\n\
        function imports() { return { \"./app-1-split.js\": import1, \"./app-1-split.js\": import2 }; }\n";
    const LINK: &str = "import { initSync } from \"./app-1.js\";\n\
        function shared() { return initSync(undefined, undefined); }\n\
        export const __wasm_split_load_proof = () => new URL(\"./split_proof.wasm\", import.meta.url);\n";

    #[test]
    fn the_link_module_is_written_into_the_glue_in_its_scope() {
        let out = inline_link(GLUE, LINK, "./app-1-split.js", "./app-1.js").unwrap();
        assert!(!out.contains("import * as"), "{out}");
        assert!(!out.contains("from \"./app-1.js\""), "{out}");
        assert!(
            out.contains("const __wasm_split_load_proof = () =>"),
            "{out}"
        );
        assert!(
            out.contains("const __wasm_split_link = { __wasm_split_load_proof };"),
            "{out}"
        );
        assert!(out.contains("const import1 = __wasm_split_link;"), "{out}");
        assert!(out.contains("const import2 = __wasm_split_link;"), "{out}");
        // The glue's own code stays, before the loaders.
        assert!(out.find("function initSync").unwrap() < out.find("function shared").unwrap());
    }

    #[test]
    fn another_shape_of_link_module_is_refused() {
        let no_import = GLUE.replace("./app-1-split.js\"\n", "./other.js\"\n");
        assert!(inline_link(&no_import, LINK, "./app-1-split.js", "./app-1.js").is_err());
        let no_export = LINK.replace("export const", "const");
        assert!(inline_link(GLUE, &no_export, "./app-1-split.js", "./app-1.js").is_err());
        assert!(inline_link(GLUE, LINK, "./app-1-split.js", "./elsewhere.js").is_err());
    }

    #[test]
    fn the_loader_is_given_the_size_of_the_wasm_it_fetches() {
        let dir = std::env::temp_dir().join(format!("xtask-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let index = dir.join("index.html");
        let html =
            "await __trunkInitializer(init, './app-1_bg.wasm', 4092333, initializer(), true);";
        std::fs::write(&index, html).unwrap();
        fix_size(&index, "app-1", 1_226_143).unwrap();
        assert_eq!(
            std::fs::read_to_string(&index).unwrap(),
            html.replace("4092333", "1226143")
        );
        assert!(fix_size(&index, "app-2", 1).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
