//! `cargo xtask scorm`: the release page as SCORM packages a teacher uploads to Moodle,
//! Canvas or any learning platform (#45), from dist/ (built by `cargo xtask
//! build-release`):
//!
//! ```text
//! target/outbox-playground-scorm12.zip    SCORM 1.2: imsmanifest.xml + the page
//! target/outbox-playground-scorm2004.zip  SCORM 2004 3rd edition: the same page
//! ```
//!
//! One SCO each: the page, launched as `index.html?embed` (`&scorm=2004` for 2004, so it
//! looks for `API_1484_11`). The mastery score (the quiz's pass mark, 75 %: 3 of 4 first
//! answers right) is in the manifest, where a platform lets the teacher change it. The
//! `.br`/`.gz` copies stay out: a platform serves the files as they are, and they would
//! double the upload. Zipped with `dist_zip`'s writer (same bytes for the same build).

use std::path::{Path, PathBuf};

use crate::dist_zip::ZipWriter;
use crate::{setup, Ctx};

/// The two versions a package is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V12,
    V2004,
}

impl Version {
    pub fn file_name(self) -> &'static str {
        match self {
            Version::V12 => "outbox-playground-scorm12.zip",
            Version::V2004 => "outbox-playground-scorm2004.zip",
        }
    }
}

/// The quiz's pass mark in % (src/lms/report.rs' `DEFAULT_MASTERY` is the same number).
pub const MASTERY_PERCENT: u32 = 75;

/// Writes both packages from dist/; their paths.
pub fn run(ctx: &Ctx) -> Result<Vec<PathBuf>, String> {
    let cargo_toml = std::fs::read_to_string(ctx.root.join("Cargo.toml"))
        .map_err(|e| format!("read Cargo.toml: {e}"))?;
    let version = setup::toml_string(&cargo_toml, "version").ok_or("Cargo.toml has no version")?;
    let title = course_title(&ctx.root)?;
    let mut out = Vec::new();
    for v in [Version::V12, Version::V2004] {
        let entries = package(&ctx.root.join("dist"), &version, &title, v)?;
        let path = ctx.root.join("target").join(v.file_name());
        let bytes = zip(&entries)?;
        std::fs::create_dir_all(ctx.root.join("target")).map_err(|e| e.to_string())?;
        std::fs::write(&path, &bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
        println!(
            "scorm: {} ({:.1} KB)",
            path.display(),
            bytes.len() as f64 / 1024.0
        );
        out.push(path);
    }
    Ok(out)
}

/// The course's title as learners see it first (Uzbek, the reference language).
pub fn course_title(root: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(root.join("i18n/uz.json")).map_err(|e| e.to_string())?;
    let texts: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    texts["Title"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| "i18n/uz.json has no Title".into())
}

/// A package's files: the manifest, then the page's (no `.br`/`.gz`).
pub fn package(
    dist: &Path,
    version: &str,
    title: &str,
    v: Version,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let files: Vec<String> = crate::dist_files::list(dist)?
        .into_iter()
        .filter(|f| !f.ends_with(".br") && !f.ends_with(".gz"))
        .collect();
    if !files.iter().any(|f| f == "index.html") {
        return Err(format!(
            "{}/index.html is missing: run `cargo xtask build-release` first",
            dist.display()
        ));
    }
    let mut out = vec![(
        "imsmanifest.xml".to_string(),
        manifest(version, title, v, &files).into_bytes(),
    )];
    for name in files {
        let bytes = std::fs::read(dist.join(&name)).map_err(|e| format!("read {name}: {e}"))?;
        out.push((name, bytes));
    }
    Ok(out)
}

pub fn zip(entries: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut zip = ZipWriter::default();
    for (name, bytes) in entries {
        zip.add(name, bytes)?;
    }
    Ok(zip.finish())
}

/// The package unpacked into `dir`, as a platform does (what tests/lms.rs serves).
pub fn unpack(entries: &[(String, Vec<u8>)], dir: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    for (name, bytes) in entries {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `imsmanifest.xml` for version `v`: one organization, one item, one SCO listing
/// `files`.
pub fn manifest(version: &str, title: &str, v: Version, files: &[String]) -> String {
    let title = xml_escape(title);
    let list: String = files
        .iter()
        .map(|f| format!("      <file href=\"{}\"/>\n", xml_escape(f)))
        .collect();
    let id = format!("outbox-playground-{}", xml_escape(version));
    match v {
        Version::V12 => manifest_12(&id, &title, &list),
        Version::V2004 => manifest_2004(&id, &title, &list),
    }
}

/// SCORM 1.2's manifest: the mastery score on the item (`adlcp:masteryscore`).
fn manifest_12(id: &str, title: &str, list: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{id}" version="1.2"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="course">
    <organization identifier="course">
      <title>{title}</title>
      <item identifier="playground" identifierref="page" isvisible="true">
        <title>{title}</title>
        <adlcp:masteryscore>{MASTERY_PERCENT}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="page" type="webcontent" adlcp:scormtype="sco" href="index.html?embed">
{list}    </resource>
  </resources>
</manifest>
"#
    )
}

/// SCORM 2004's: the pass mark as the primary objective's normalized measure, which a
/// platform gives the SCO as `cmi.scaled_passing_score`.
fn manifest_2004(id: &str, title: &str, list: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="{id}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 3rd Edition</schemaversion>
  </metadata>
  <organizations default="course">
    <organization identifier="course">
      <title>{title}</title>
      <item identifier="playground" identifierref="page" isvisible="true">
        <title>{title}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="quiz" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>{scaled}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="page" type="webcontent" adlcp:scormType="sco" href="index.html?embed&amp;scorm=2004">
{list}    </resource>
  </resources>
</manifest>
"#,
        scaled = f64::from(MASTERY_PERCENT) / 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_holds_its_manifest_and_the_page_without_compressed_copies() {
        let dir = std::env::temp_dir().join(format!("xtask-scorm-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("i18n")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("index.html.br"), [1u8]).unwrap();
        std::fs::write(dir.join("app_bg.wasm.gz"), [1u8]).unwrap();
        std::fs::write(dir.join("i18n/en-2.json"), "[]").unwrap();
        for v in [Version::V12, Version::V2004] {
            let entries = package(&dir, "1.2.3", "Tranzaksion <outbox> & co", v).unwrap();
            let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["imsmanifest.xml", "i18n/en-2.json", "index.html"]);
            let m = String::from_utf8(entries[0].1.clone()).unwrap();
            assert!(m.contains(r#"<file href="i18n/en-2.json"/>"#), "{m}");
            assert!(m.contains("Tranzaksion &lt;outbox&gt; &amp; co"), "{m}");
            assert!(!m.contains(".br\"") && !m.contains(".gz\""), "{m}");
            match v {
                Version::V12 => {
                    assert!(m.contains(r#"adlcp:scormtype="sco" href="index.html?embed""#));
                    assert!(m.contains("<adlcp:masteryscore>75</adlcp:masteryscore>"));
                    assert!(m.contains("<schemaversion>1.2</schemaversion>"));
                }
                Version::V2004 => {
                    assert!(m.contains(r#"href="index.html?embed&amp;scorm=2004""#));
                    assert!(m.contains("<imsss:minNormalizedMeasure>0.75<"));
                }
            }
            let zip = zip(&entries).unwrap();
            let back = crate::dist_zip::read_zip(&zip);
            assert_eq!(back, entries, "the zip holds exactly the package");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
