//! The page's floors (#39), kept by a test rather than by habit: every `src/**/*.rs` is
//! read for the modules it names (`use crate::…`, `super::…`, a child module, or a
//! `crate::…` path in code), each file is put on its folder's floor ([`FLOORS`]), and
//! an import that points up, or sideways between two folders of one floor, fails the
//! native layer (`cargo test --workspace`) naming the file and the import. So does a pair
//! of files that import each other. `cargo xtask floors` prints the import map (the edges
//! between folders) the rule is checked on.
//!
//! A reader of text, not of Rust's syntax tree: comments and string literals are
//! skipped, `mod name { … }` blocks are followed (for `super::` in a test module), and a
//! path is resolved to the longest module with a file of its own. Macros that build paths
//! are not seen; the page has none that cross floors.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level folder (or file) of `src/` and its floor: a file may import only
/// floors below its own, and files of its own folder. Higher is nearer the page's root.
pub const FLOORS: [(&str, u8); 14] = [
    // The crate root: `main.rs` mounts, `lib.rs` holds `<App/>`.
    ("main", 7),
    ("lib", 7),
    // The composition root, and the page's frame that only it uses.
    ("app", 6),
    ("error_panel", 6),
    ("update_offer", 6),
    // Features built on the stage and the lesson.
    ("challenge", 5),
    ("proof", 5),
    // #45: embedded in a learning platform (the host API, SCORM).
    ("lms", 5),
    // The stage and the course.
    ("stage", 4),
    ("lesson", 4),
    // The controller floor: Ctl, start-up, the play loop, share URLs.
    ("ctl", 3),
    // The run (Sim, links) and the browser's plumbing.
    ("run", 2),
    ("browser", 2),
    // Words.
    ("i18n", 1),
];

/// One import: the file, the path as written, the file it resolves to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    pub from: String,
    pub path: String,
    pub to: String,
}

/// A tree of source files: the path relative to `src/` (`stage/counters.rs`) and its text.
pub type Tree = Vec<(String, String)>;

/// Reads every `.rs` file under `dir`, sorted by path.
pub fn read_tree(dir: &Path) -> std::io::Result<Tree> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(dir).expect("under dir");
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p)?));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The module a file is (`stage/pipeline/mod.rs` → `stage::pipeline`; `lib.rs` → the root,
/// kept as `lib` so that `main.rs` and `lib.rs` stay apart).
fn module_of(file: &str) -> String {
    let stem = file.trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    stem.replace('/', "::")
}

/// The top-level folder or file a module belongs to.
fn unit_of(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

fn floor_of(unit: &str) -> Option<u8> {
    FLOORS.iter().find(|(u, _)| *u == unit).map(|(_, f)| *f)
}

/// Every import of every file, resolved to the file it names (imports of a file's own
/// module, of other crates, and of the crate root's items are left out).
pub fn imports(tree: &Tree) -> Vec<Import> {
    let modules: BTreeMap<String, &str> = tree
        .iter()
        .map(|(f, _)| (module_of(f), f.as_str()))
        .collect();
    let mut out = BTreeSet::new();
    for (file, text) in tree {
        let me = module_of(file);
        for (inline, path) in paths_in(&strip(text)) {
            let Some(to) = resolve(&me, &inline, &path, &modules) else {
                continue;
            };
            if to != file.as_str() {
                out.insert(Import {
                    from: file.clone(),
                    path,
                    to: to.to_string(),
                });
            }
        }
    }
    out.into_iter().collect()
}

/// The file a path names, seen from module `me` inside its inline modules `inline`.
fn resolve<'a>(
    me: &str,
    inline: &[String],
    path: &str,
    modules: &BTreeMap<String, &'a str>,
) -> Option<&'a str> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = if me == "lib" || me == "main" {
        Vec::new()
    } else {
        me.split("::").map(String::from).collect()
    };
    base.extend(inline.iter().cloned());
    let mut rest = &segs[..];
    let mut abs: Vec<String> = match rest.first() {
        Some(&"crate") => {
            rest = &rest[1..];
            Vec::new()
        }
        Some(&"super") | Some(&"self") => {
            while let Some(s) = rest.first() {
                match *s {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
            base
        }
        // A path from a child module (`use timeline::Timeline;` in `controls/mod.rs`).
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child.join("::")) {
                return None;
            }
            base
        }
        None => return None,
    };
    abs.extend(rest.iter().map(|s| s.to_string()));
    // Nothing but the root's own items (`crate::start_lang`): that is `lib.rs`.
    (1..=abs.len())
        .rev()
        .find_map(|n| modules.get(&abs[..n].join("::")).copied())
        .or_else(|| modules.get("lib").copied())
}

/// The text without comments, string and char literals (replaced by spaces, so the
/// structure stays).
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == '/' && at(&b, i + 1) == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if b[i] == '/' && at(&b, i + 1) == Some('*') {
            i = block_comment_end(&b, i);
            out.push(' ');
        } else if let Some(end) = raw_string_end(&b, i) {
            out.push_str("\"\"");
            i = end;
        } else if b[i] == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == '\'' && at(&b, i + 2) == Some('\'') {
            out.push_str("' '");
            i += 3;
        } else if b[i] == '\'' && at(&b, i + 1) == Some('\\') {
            while i + 1 < b.len() && !(b[i + 1] == '\'' && b[i] != '\\') {
                i += 1;
            }
            i += 2;
            out.push_str("' '");
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Where the block comment starting at `i` ends (after its `*/`; nested ones count).
fn block_comment_end(b: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i] == '/' && at(b, i + 1) == Some('*') {
            depth += 1;
            i += 2;
        } else if b[i] == '*' && at(b, i + 1) == Some('/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Where the raw string starting at `i` (`r"…"`, `r#"…"#`) ends, if one starts there.
fn raw_string_end(b: &[char], i: usize) -> Option<usize> {
    if b[i] != 'r' || ident_before(b, i) {
        return None;
    }
    let mut hashes = 0;
    let mut j = i + 1;
    while at(b, j) == Some('#') {
        hashes += 1;
        j += 1;
    }
    if at(b, j) != Some('"') {
        return None;
    }
    j += 1;
    while j < b.len() {
        if b[j] == '"' && (0..hashes).all(|h| at(b, j + 1 + h) == Some('#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

/// The character at `i`, if any.
fn at(b: &[char], i: usize) -> Option<char> {
    b.get(i).copied()
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == ':'
}

/// Every module path the (stripped) text names, with the inline modules it is inside:
/// `use` trees expanded, and `crate::…` / `super::…` paths in code.
fn paths_in(text: &str) -> Vec<(Vec<String>, String)> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let word_at = |i: usize, w: &str| {
        !ident_before(&b, i)
            && w.chars().enumerate().all(|(k, c)| b.get(i + k) == Some(&c))
            && !b
                .get(i + w.len())
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    };
    let names = |inline: &[(String, usize)]| inline.iter().map(|(n, _)| n.clone()).collect();
    while i < b.len() {
        match b[i] {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        if word_at(i, "mod") {
            let mut j = i + 3;
            let name: String = b[j..]
                .iter()
                .skip_while(|c| c.is_whitespace())
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            while j < b.len() && b[j] != '{' && b[j] != ';' {
                j += 1;
            }
            if b.get(j) == Some(&'{') {
                inline.push((name, depth));
                depth += 1;
                i = j + 1;
                continue;
            }
        } else if word_at(i, "use") {
            let end = b[i..]
                .iter()
                .position(|c| *c == ';')
                .map_or(b.len(), |p| i + p);
            let tree = tidy(&b[i + 3..end].iter().collect::<String>());
            for path in expand(&tree) {
                out.push((names(&inline), path));
            }
            i = end;
            continue;
        } else if (word_at(i, "crate") || word_at(i, "super"))
            && b.get(i + 5) == Some(&':')
            && !(i >= 2 && b[i - 1] == ':' && b[i - 2] == ':')
        {
            let end = b[i..]
                .iter()
                .position(|c| !is_path_char(*c))
                .map_or(b.len(), |p| i + p);
            let path: String = b[i..end].iter().collect();
            out.push((names(&inline), path.trim_end_matches(':').to_string()));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// A `use` tree with its white space collapsed: none around `::`, `{`, `}`, `,`; one space
/// around `as`.
fn tidy(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        let glue = out.ends_with([':', '{', ',']) || w.starts_with([':', '{', '}', ',']);
        if !out.is_empty() && !glue {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// A `use` tree's paths: `a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim_start_matches("::");
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree);
        return vec![path
            .trim_end_matches("::*")
            .trim_end_matches("::self")
            .to_string()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut level, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => level += 1,
            '}' => level -= 1,
            ',' if level == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(expand)
        .map(|p| match p.as_str() {
            "self" | "*" => prefix.to_string(),
            _ if prefix.is_empty() => p,
            _ => format!("{prefix}::{p}"),
        })
        .collect()
}

/// What breaks the floors: an import up or sideways, a file with no floor, and two files
/// that import each other. One line each, naming the files and the import.
pub fn violations(tree: &Tree) -> Vec<String> {
    let imports = imports(tree);
    let mut out = Vec::new();
    for (file, _) in tree {
        let unit = unit_of(&module_of(file)).to_string();
        if floor_of(&unit).is_none() {
            out.push(format!(
                "src/{file}: `{unit}` has no floor; add it to FLOORS in xtask/src/floors.rs"
            ));
        }
    }
    for imp in &imports {
        let (from, to) = (module_of(&imp.from), module_of(&imp.to));
        let (a, b) = (unit_of(&from), unit_of(&to));
        if a == b {
            continue;
        }
        let (Some(fa), Some(fb)) = (floor_of(a), floor_of(b)) else {
            continue;
        };
        if fb >= fa {
            let how = if fb > fa { "up" } else { "sideways" };
            out.push(format!(
                "src/{} imports {} (src/{}): `{a}` (floor {fa}) may not reach {how} to `{b}` (floor {fb})",
                imp.from, imp.path, imp.to
            ));
        }
    }
    out.extend(mutual_imports(&imports, "src/"));
    out
}

/// Pairs of files that import each other, their paths prefixed with `root`.
fn mutual_imports(imports: &[Import], root: &str) -> Vec<String> {
    let edges: BTreeMap<(&str, &str), &str> = imports
        .iter()
        .map(|i| ((i.from.as_str(), i.to.as_str()), i.path.as_str()))
        .collect();
    let mut out = Vec::new();
    for ((a, b), path) in &edges {
        if a < b {
            if let Some(back) = edges.get(&(*b, *a)) {
                out.push(format!(
                    "{root}{a} and {root}{b} import each other ({path}; {back}): move what both need into a file of its own"
                ));
            }
        }
    }
    out
}

/// The cycles between a crate's top-level modules: groups of folders (or files) each of
/// which reaches every other through imports. A crate without declared floors (the
/// model, the prover, the tools) still has an order as long as this is empty: its
/// folders can be listed so that every import points to one listed earlier.
pub fn unit_cycles(tree: &Tree, root: &str) -> Vec<String> {
    let mut reach: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for imp in imports(tree) {
        let a = unit_of(&module_of(&imp.from)).to_string();
        let b = unit_of(&module_of(&imp.to)).to_string();
        if a != b && a != "lib" && a != "main" && b != "lib" && b != "main" {
            reach.entry(a).or_default().insert(b);
        }
    }
    // Transitive closure; the crates have a few dozen units, so this is small.
    loop {
        let mut grew = false;
        let snapshot = reach.clone();
        for targets in reach.values_mut() {
            let via: BTreeSet<String> = targets
                .iter()
                .filter_map(|t| snapshot.get(t))
                .flatten()
                .cloned()
                .collect();
            let before = targets.len();
            targets.extend(via);
            grew |= targets.len() > before;
        }
        if !grew {
            break;
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (a, targets) in &reach {
        if seen.contains(a) || !targets.contains(a) {
            continue;
        }
        let group: Vec<&str> = targets
            .iter()
            .filter(|b| reach.get(*b).is_some_and(|t| t.contains(a)))
            .map(String::as_str)
            .collect();
        seen.extend(group.iter().map(|s| s.to_string()));
        out.push(format!(
            "{root}: {} reach each other through their imports: move what they share into a module below them",
            group.join(", ")
        ));
    }
    out
}

/// The workspace's other crates, checked for cycles ([`cycles`]) rather than floors.
pub const OTHER_CRATES: [&str; 5] = ["model", "prove", "xtask", "static-server", "classroom"];

/// The cycles of every crate in [`OTHER_CRATES`] under the workspace `root`. A binary's own
/// folder (`bin/`) is a crate of its own and is left out.
pub fn other_crate_cycles(root: &Path) -> std::io::Result<(usize, Vec<String>)> {
    let (mut files, mut bad) = (0, Vec::new());
    for krate in OTHER_CRATES {
        let tree: Tree = read_tree(&root.join(krate).join("src"))?
            .into_iter()
            .filter(|(f, _)| !f.starts_with("bin/"))
            .collect();
        files += tree.len();
        bad.extend(cycles(&tree, &format!("{krate}/src/")));
    }
    Ok((files, bad))
}

/// What keeps a crate without floors in order: no two files import each other and no
/// cycle between its top-level modules.
pub fn cycles(tree: &Tree, root: &str) -> Vec<String> {
    let mut out = mutual_imports(&imports(tree), root);
    out.extend(unit_cycles(tree, root));
    out
}

/// Imports between top-level folders, counted by importing file: `(from, to) → files`.
pub fn folder_map(tree: &Tree) -> BTreeMap<(String, String), usize> {
    let pairs: BTreeSet<(String, String)> =
        imports(tree).into_iter().map(|i| (i.from, i.to)).collect();
    let mut map = BTreeMap::new();
    for (from, to) in pairs {
        let (a, b) = (module_of(&from), module_of(&to));
        let (a, b) = (unit_of(&a).to_string(), unit_of(&b).to_string());
        if a != b {
            *map.entry((a, b)).or_insert(0) += 1;
        }
    }
    map
}

/// `cargo xtask floors [SRC_DIR]`: the import map between folders, then what breaks the
/// floors; without SRC_DIR (`others` is the workspace root) also the other crates' cycles.
pub fn run(src: &Path, others: Option<&Path>) -> std::process::ExitCode {
    let tree = match read_tree(src) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("reading {}: {e}", src.display());
            return std::process::ExitCode::FAILURE;
        }
    };
    for ((a, b), n) in folder_map(&tree) {
        println!("{a:>14} → {b:<14} {n} file pairs");
    }
    let mut bad = violations(&tree);
    if let Some(root) = others {
        match other_crate_cycles(root) {
            Ok((files, cycles)) => {
                println!("the other crates: {files} files, {} cycles", cycles.len());
                bad.extend(cycles);
            }
            Err(e) => {
                eprintln!("reading the other crates: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    for line in &bad {
        println!("{line}");
    }
    println!("{} files, {} violations", tree.len(), bad.len());
    if bad.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    /// The page itself keeps its floors.
    #[test]
    fn the_page_keeps_its_floors() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
        let tree = read_tree(&src).expect("src/ reads");
        assert!(tree.len() > 100, "only {} files under src/", tree.len());
        let bad = violations(&tree);
        assert!(bad.is_empty(), "the floors are broken:\n{}", bad.join("\n"));
    }

    /// Every other crate of the workspace: no two files import each other, no cycle
    /// between top-level modules. A binary's own folder (`bin/`) is a crate of its own.
    /// (#39 ended the last pairs: world/, explore/ and scenario/presets.)
    #[test]
    fn the_other_crates_have_no_cycles() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let (files, bad) = other_crate_cycles(&root).expect("the crates' src/ read");
        assert!(files > 100, "only {files} files in the other crates");
        assert!(bad.is_empty(), "cycles:\n{bad:#?}");
    }

    #[test]
    fn a_cycle_between_folders_is_named() {
        let t = tree(&[
            ("lib.rs", "pub mod db; pub mod world; pub mod queue;"),
            ("db/mod.rs", "use crate::world::MAX;"),
            (
                "world/mod.rs",
                "use crate::queue::Job;\npub const MAX: u8 = 1;",
            ),
            ("queue/mod.rs", "use crate::db::Row;\npub struct Job;"),
        ]);
        assert_eq!(
            cycles(&t, "model/src/"),
            ["model/src/: db, queue, world reach each other through their imports: move what they share into a module below them"]
        );
    }

    #[test]
    fn a_planted_upward_import_is_named() {
        let t = tree(&[
            ("lib.rs", "pub mod ctl; pub mod stage;"),
            (
                "ctl/mod.rs",
                "use crate::stage::counters::CountersPanel;\npub struct Ctl;",
            ),
            ("stage/mod.rs", "pub mod counters;"),
            (
                "stage/counters.rs",
                "use crate::i18n::Key;\npub fn CountersPanel() {}",
            ),
            ("i18n/mod.rs", "pub enum Key {}"),
        ]);
        let bad = violations(&t);
        assert_eq!(bad.len(), 1, "{bad:#?}");
        assert!(
            bad[0].starts_with("src/ctl/mod.rs imports crate::stage::counters::CountersPanel (src/stage/counters.rs)")
                && bad[0].contains("reach up"),
            "{}",
            bad[0]
        );
    }

    #[test]
    fn a_sideways_import_between_features_is_named() {
        let t = tree(&[
            (
                "stage/counters.rs",
                "fn f() { crate::lesson::ctl::use_lesson(); }",
            ),
            ("lesson/ctl.rs", "pub fn use_lesson() {}"),
        ]);
        let bad = violations(&t);
        assert_eq!(bad.len(), 1, "{bad:#?}");
        assert!(bad[0].contains("reach sideways to `lesson`"), "{}", bad[0]);
    }

    #[test]
    fn two_files_that_import_each_other_are_named() {
        let t = tree(&[
            (
                "stage/controls/mod.rs",
                "mod timeline;\nuse timeline::Timeline;\npub fn pos() {}",
            ),
            (
                "stage/controls/timeline.rs",
                "use super::pos;\npub fn Timeline() {}",
            ),
        ]);
        let bad = violations(&t);
        assert_eq!(
            bad,
            ["src/stage/controls/mod.rs and src/stage/controls/timeline.rs import each other (timeline::Timeline; super::pos): move what both need into a file of its own"]
        );
    }

    #[test]
    fn test_modules_comments_and_strings_name_nothing() {
        let t = tree(&[
            (
                "i18n/plural.rs",
                "use crate::i18n::table::t;\n// use crate::stage::x;\nconst S: &str = \"crate::stage::x\";\nconst R: &str = r#\"crate::stage::x\"#;\n/* crate::stage::x */\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            ),
            ("i18n/table.rs", "pub fn t() {}"),
            ("i18n/mod.rs", "pub mod plural; pub mod table;"),
            ("stage/x.rs", ""),
        ]);
        let imports = imports(&t);
        let to: Vec<&str> = imports.iter().map(|i| i.to.as_str()).collect();
        assert_eq!(to, ["i18n/table.rs"]);
        assert!(violations(&t).is_empty());
    }

    #[test]
    fn a_file_outside_every_floor_is_named() {
        let t = tree(&[("widgets/x.rs", "")]);
        assert_eq!(
            violations(&t),
            ["src/widgets/x.rs: `widgets` has no floor; add it to FLOORS in xtask/src/floors.rs"]
        );
    }

    #[test]
    fn use_trees_expand_to_every_path() {
        assert_eq!(
            expand(&tidy("crate::a::{b, c::{d, e as f},\n    self}")),
            [
                "crate::a::b",
                "crate::a::c::d",
                "crate::a::c::e",
                "crate::a"
            ]
        );
    }
}
