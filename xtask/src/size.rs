//! The size report of the release build in `dist/`: each file raw, gzip (level 9) and
//! brotli (quality 11), and the total a browser transfers (gzip of html, js, wasm, css).

use std::io::Write;
use std::path::Path;

use crate::proc::{io_ctx, Result};

pub struct Sizes {
    pub name: String,
    pub raw: usize,
    pub gzip: usize,
    pub brotli: usize,
}

pub fn gzip_len(bytes: &[u8]) -> usize {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).expect("gzip into memory");
    enc.finish().expect("gzip into memory").len()
}

pub fn brotli_len(bytes: &[u8]) -> usize {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        enc.write_all(bytes).expect("brotli into memory");
    }
    out.len()
}

fn kb(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

/// Measures the page's files; fails when there is no .wasm.
pub fn measure(dist: &Path) -> Result<Vec<Sizes>> {
    let mut files: Vec<Sizes> = Vec::new();
    for entry in std::fs::read_dir(dist).map_err(io_ctx(format!("read {}", dist.display())))? {
        let path = entry.map_err(io_ctx("read dist/"))?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "html" | "js" | "wasm" | "css") || !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(io_ctx(format!("read {}", path.display())))?;
        files.push(Sizes {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            raw: bytes.len(),
            gzip: gzip_len(&bytes),
            brotli: brotli_len(&bytes),
        });
    }
    if !files.iter().any(|f| f.name.ends_with(".wasm")) {
        return Err(format!("no .wasm in {}", dist.display()));
    }
    // The wasm first, then the biggest.
    files.sort_by_key(|f| (!f.name.ends_with(".wasm"), std::cmp::Reverse(f.raw)));
    Ok(files)
}

/// The files a first visit does not fetch: the "Prove it" Web Worker's (issue #22), loaded
/// when that tab is opened: its entry (web/prove-loader.js) and Trunk's files for a worker,
/// named after its binary (`prove-worker`), unhashed; and the page's wasm chunks
/// (`split_<name>-<hash>.wasm`, and `chunk_<n>-<hash>.wasm` for code two of them share;
/// xtask/src/split.rs), fetched when their code is first used.
fn loaded_later(name: &str) -> bool {
    ["prove-", "split_", "chunk_"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The cap on everything a first visit transfers (gzip of html, js, wasm, css): 480 KB,
/// decided in the ship-it issue (#18) when the first round's 300 KB budget was withdrawn.
pub const TRANSFER_BUDGET: usize = 480_000;

/// Prints the sizes and whether the total transfer is within [`TRANSFER_BUDGET`]; returns that.
pub fn report(dist: &Path) -> Result<bool> {
    let (later, files): (Vec<Sizes>, Vec<Sizes>) = measure(dist)?
        .into_iter()
        .partition(|f| loaded_later(&f.name));
    let width = files.iter().map(|f| f.name.len()).max().unwrap_or(4).max(5);
    println!("size of the release build ({}):", dist.display());
    println!(
        "  {:<width$} {:>10} {:>10} {:>10}",
        "file", "raw", "gzip", "brotli"
    );
    for f in &files {
        println!(
            "  {:<width$} {:>10} {:>10} {:>10}",
            f.name,
            kb(f.raw),
            kb(f.gzip),
            kb(f.brotli)
        );
    }
    let sum = |get: fn(&Sizes) -> usize| files.iter().map(get).sum::<usize>();
    println!(
        "  {:<width$} {:>10} {:>10} {:>10}",
        "total",
        kb(sum(|f| f.raw)),
        kb(sum(|f| f.gzip)),
        kb(sum(|f| f.brotli))
    );
    let wasm = &files[0];
    println!(
        "wasm: {} raw, {} gzip, {} brotli; total transfer of dist/ (gzip of html/js/wasm/css): {}",
        kb(wasm.raw),
        kb(wasm.gzip),
        kb(wasm.brotli),
        kb(sum(|f| f.gzip))
    );
    let total = sum(|f| f.gzip);
    for f in &later {
        println!(
            "not in the first load (fetched when first used: the \"Prove it\" worker, the page's split chunks): {} {} raw, {} gzip, {} brotli",
            f.name,
            kb(f.raw),
            kb(f.gzip),
            kb(f.brotli)
        );
    }
    let ok = total <= TRANSFER_BUDGET;
    println!(
        "budget: total transfer {} of {} gzip: {}",
        kb(total),
        kb(TRANSFER_BUDGET),
        if ok { "within" } else { "OVER" }
    );
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressors_shrink_repetitive_input() {
        let text = "outbox ".repeat(1000);
        assert!(gzip_len(text.as_bytes()) < 200);
        assert!(brotli_len(text.as_bytes()) < 200);
    }
}
