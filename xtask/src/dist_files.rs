//! The files of a built page (dist/), listed once for the post-build step, the service
//! worker's precache list and the release zip.

use std::path::Path;

/// Every file under `dir`, as a `/`-separated path relative to it, sorted (the language
/// files live in `i18n/`, so a flat listing would miss them).
pub fn list(dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut todo = vec![String::new()];
    while let Some(sub) = todo.pop() {
        let at = dir.join(&sub);
        let entries = std::fs::read_dir(&at).map_err(|e| format!("read {}: {e}", at.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("read {}: {e}", at.display()))?;
            let name = format!("{sub}{}", entry.file_name().to_string_lossy());
            let kind = entry.file_type().map_err(|e| e.to_string())?;
            if kind.is_dir() {
                todo.push(format!("{name}/"));
            } else if kind.is_file() {
                out.push(name);
            }
        }
    }
    out.sort();
    Ok(out)
}
