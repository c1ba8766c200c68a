//! The release page built into the binary (`build.rs` writes the table from dist/), and
//! its unpacking into a folder the server serves.
//!
//! Why unpack instead of serving from memory: the project has one static server
//! (the `static-server` crate, shared with xtask and the tests that check what it sends), and it
//! serves a folder. The page is ~5 MB; writing it to the temporary folder takes a moment
//! once per start, and the folder is named after the page's content hash, so two versions
//! never mix.

use std::path::PathBuf;

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// Writes the embedded page into `<temp>/outbox-classroom/<version>/`; that folder. An
/// error says why when this binary was built without the page.
pub fn unpack() -> Result<PathBuf, String> {
    let Some(version) = VERSION else {
        return Err(format!(
            "this binary was built without the page ({MISSING}); \
             serve a built page with --dir PATH/TO/dist"
        ));
    };
    let root = std::env::temp_dir().join("outbox-classroom").join(version);
    for (name, bytes) in FILES {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("create {}: {e}", parent.display()))?;
        }
        // Always written: a file a previous run left half-written must not be served.
        std::fs::write(&path, bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
    }
    Ok(root)
}

/// How many files and bytes are embedded (the start-up line says it).
pub fn size() -> (usize, usize) {
    (FILES.len(), FILES.iter().map(|(_, b)| b.len()).sum())
}
