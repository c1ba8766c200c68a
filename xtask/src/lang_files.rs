//! The language files the page fetches (English, Russian, and Uzbek in Cyrillic made from
//! uz.json by the page's converter): `generated/i18n/<code>.json`,
//! written by the pre_build hook (`cargo xtask css`) and copied into `dist/i18n/` by
//! index.html. Each is a JSON array of its texts in the order of i18n/uz.json, the order of
//! the page's `Key` enum (build.rs): the wasm then carries no key names (~2.9 KB gzip of the
//! 480 KB cap, #18), and Uzbek is compiled in as a table.
//!
//! build.rs has already refused a file that drifts from uz.json; here a file is only
//! reordered. Written only when it changed, like the stylesheet.

use std::path::Path;

#[path = "../../src/i18n/pairs.rs"]
#[allow(dead_code)]
mod pairs;

// The page's own Latin → Cyrillic converter: the page fetches Uzbek in Cyrillic made
// here, so the converter is not in its first load.
#[path = "../../src/i18n/cyrillic.rs"]
#[allow(dead_code)]
mod cyrillic;

/// The fetched languages (Uzbek, the reference, is compiled in).
const FETCHED: [&str; 2] = ["en", "ru"];

pub fn write(root: &Path) -> Result<(), String> {
    write_into(root, &root.join("generated/i18n"))
}

fn write_into(root: &Path, dir: &Path) -> Result<(), String> {
    let read = |code: &str| -> Result<Vec<(String, String)>, String> {
        let path = root.join(format!("i18n/{code}.json"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("read {}: {e}", path.display()))?;
        Ok(pairs::parse(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .0)
    };
    let order = read("uz")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    for code in FETCHED {
        let texts = in_order(&order, read(code)?)
            .map_err(|key| format!("i18n/{code}.json lacks {key} (build.rs says more)"))?;
        let json = serde_json::to_string(&texts).map_err(|e| e.to_string())? + "\n";
        let out = dir.join(format!("{code}.json"));
        write_if_changed(&out, &json)?;
    }
    // Uzbek in Cyrillic: every Uzbek text through the converter, in the same order.
    let cyrillic: Vec<String> = order
        .iter()
        .map(|(_, uz)| cyrillic::to_cyrillic(uz))
        .collect();
    let json = serde_json::to_string(&cyrillic).map_err(|e| e.to_string())? + "\n";
    write_if_changed(&dir.join("uz-Cyrl.json"), &json)
}

/// Writes `text` to `out` unless it already holds it (an unchanged file keeps its time).
fn write_if_changed(out: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(out).ok().as_deref() != Some(text) {
        std::fs::write(out, text).map_err(|e| format!("write {}: {e}", out.display()))?;
    }
    Ok(())
}

/// `file`'s texts in the order of `reference`'s keys; the error is a missing key.
fn in_order(
    reference: &[(String, String)],
    file: Vec<(String, String)>,
) -> Result<Vec<String>, String> {
    let mut by_key: std::collections::BTreeMap<String, String> = file.into_iter().collect();
    reference
        .iter()
        .map(|(key, _)| by_key.remove(key).ok_or_else(|| key.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    /// The project's own files: one text per key of uz.json, in its order.
    #[test]
    fn the_fetched_files_follow_uz_json() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let dir = std::env::temp_dir().join(format!("outbox-lang-{}", std::process::id()));
        super::write_into(root, &dir).unwrap();
        let read = |code: &str| {
            let text = std::fs::read_to_string(root.join(format!("i18n/{code}.json"))).unwrap();
            super::pairs::parse(&text).unwrap().0
        };
        let uz = read("uz");
        // Uzbek in Cyrillic (#43): the converter's output of each Uzbek text, in order.
        let cyrl: Vec<String> =
            serde_json::from_str(&std::fs::read_to_string(dir.join("uz-Cyrl.json")).unwrap())
                .unwrap();
        assert_eq!(cyrl.len(), uz.len());
        assert_eq!(cyrl[0], super::cyrillic::to_cyrillic(&uz[0].1));
        assert!(cyrl.iter().any(|t| t.contains('ў')), "no Cyrillic made");
        for code in super::FETCHED {
            let file: Vec<String> = serde_json::from_str(
                &std::fs::read_to_string(dir.join(format!("{code}.json"))).unwrap(),
            )
            .unwrap();
            assert_eq!(file.len(), uz.len(), "{code}");
            let own = read(code);
            for (i, (key, _)) in uz.iter().enumerate() {
                let text = &own.iter().find(|(k, _)| k == key).unwrap().1;
                assert_eq!(&file[i], text, "{code}: {key}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    use std::path::Path;

    #[test]
    fn texts_follow_the_reference_order() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let reference = [pair("A", "a"), pair("B", "b")];
        let file = vec![pair("B", "bee"), pair("A", "ay")];
        assert_eq!(
            super::in_order(&reference, file),
            Ok(vec!["ay".into(), "bee".into()])
        );
        assert_eq!(
            super::in_order(&reference, vec![pair("A", "ay")]),
            Err("B".into())
        );
    }
}
