//! Set-up: each stage checks first and installs only what is missing or of the wrong
//! version, printing one line with its time. A second run takes seconds.
//!
//! It leaves a developer's own tools alone (#44): trunk and wasm-bindgen-cli are built
//! with `cargo install --locked --root` into a cache keyed by tool and version
//! ([`tool_cache`], shared by every clone of the project, so a second clone builds
//! nothing), never over `~/.cargo/bin`; xtask puts those folders first on its own PATH
//! (`proc::prepare_path`), so its commands and the ones they start (trunk, cargo's wasm
//! test runner) find them. The npm tools come from the committed lockfile
//! `xtask/npm/package-lock.json`, installed into `.tools/` with `npm ci`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::proc::{self, output, run_logged, which, Result};
use crate::Ctx;
use crate::{pg, redis};

pub const TRUNK_VERSION: &str = "0.21.14";
pub const BINARYEN_NPM: &str = "binaryen@132.0.0";
pub const WASM_OPT_VERSION: &str = "132";
/// The accessibility checker the end-to-end layer injects into the page.
pub const AXE_NPM: &str = "axe-core@4.14.1";
/// The page's user-facing budgets (#18): Lighthouse, run by benches/lighthouse.rs.
pub const LIGHTHOUSE_NPM: &str = "lighthouse@12.2.3";
/// Minifies the release build's JavaScript (`cargo xtask post-build`).
pub const TERSER_NPM: &str = "terser@5.51.4";
/// A SCORM run-time (a learning platform's side): tests/lms.rs's harness page loads it.
pub const SCORM_AGAIN_NPM: &str = "scorm-again@3.4.3";
/// The queue truth suite's BullMQ and its Redis client. The lesson used bullmq 6.3.19,
/// which npm no longer serves; 6.3.16 is the nearest in that line. ioredis 5.11.1 is the
/// one bullmq 6.3.16 was built and tested with (its devDependency; a peer dependency).
pub const BULLMQ_NPM: [&str; 2] = ["bullmq@6.3.16", "ioredis@5.11.1"];
/// node-postgres (its `Pool` is pg-pool 3.14.0): the PostgreSQL layer's pool truth
/// (tests/truth/pool.rs) runs BEGIN / INSERT / INSERT / COMMIT through `pool.query` (#43).
pub const PG_NPM: &str = "pg@8.23.1";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// What a command needs: building the page, or also testing it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Rust's wasm32 target, trunk, wasm-bindgen-cli, wasm-opt.
    Build,
    /// The above, plus Chromium + ChromeDriver, PostgreSQL, redis-server and BullMQ.
    Test,
}

pub fn run(ctx: &Ctx, scope: Scope) -> Result<()> {
    let started = Instant::now();
    stage("wasm32-unknown-unknown target", || wasm_target(ctx))?;
    if scope == Scope::Test {
        stage("clippy + rustfmt (rustup components)", || lint_tools(ctx))?;
    }
    stage(&format!("trunk {TRUNK_VERSION}"), || trunk(ctx))?;
    stage("wasm-bindgen-cli (= Cargo.lock)", || wasm_bindgen(ctx))?;
    stage("npm tools (xtask/npm/package-lock.json)", || npm_tools(ctx))?;
    stage(&format!("wasm-opt (npm {BINARYEN_NPM})"), || wasm_opt(ctx))?;
    stage(&format!("terser (npm {TERSER_NPM})"), || terser(ctx))?;
    if scope == Scope::Test {
        stage("chromium + chromedriver", || chromium(ctx))?;
        stage(&format!("axe-core (npm {AXE_NPM})"), || axe_core(ctx))?;
        stage(&format!("lighthouse (npm {LIGHTHOUSE_NPM})"), || {
            lighthouse(ctx)
        })?;
        stage("postgresql server", || postgresql(ctx))?;
        stage("redis-server", || redis_server(ctx))?;
        stage("bullmq + ioredis (npm)", || bullmq(ctx))?;
        stage(&format!("node-postgres (npm {PG_NPM})"), || {
            node_postgres(ctx)
        })?;
        stage(&format!("scorm-again (npm {SCORM_AGAIN_NPM})"), || {
            scorm_again(ctx)
        })?;
    }
    println!("setup: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Prints `setup: NAME … RESULT (TIME)` as one line, whatever the stage does.
fn stage(name: &str, f: impl FnOnce() -> Result<String>) -> Result<()> {
    print!("setup: {name:<40} ");
    let _ = std::io::stdout().flush();
    let started = Instant::now();
    match f() {
        Ok(note) => {
            println!("{note} ({:.1} s)", started.elapsed().as_secs_f64());
            Ok(())
        }
        Err(err) => {
            println!("FAILED ({:.1} s)", started.elapsed().as_secs_f64());
            Err(format!("{name}: {err}"))
        }
    }
}

fn log(ctx: &Ctx, name: &str) -> PathBuf {
    ctx.logs().join(format!("setup-{name}.log"))
}

/// How a stage words its line: what it found before installing, what after.
struct Words {
    found: &'static str,
    installed: &'static str,
}

const INSTALLED: Words = Words {
    found: "already installed",
    installed: "installed",
};

/// The one shape of every stage: `check` says what is there (None: missing or of the
/// wrong version); only then `install` runs, and `check` must pass after it, or the
/// stage fails with `still_missing`'s account. The line reads "WORD DETAIL", the detail
/// being what `check` found (empty for a yes/no check).
fn ensure(
    words: &Words,
    check: impl Fn() -> Option<String>,
    install: impl FnOnce() -> Result<()>,
    still_missing: impl FnOnce() -> String,
) -> Result<String> {
    let say = |word: &str, detail: String| {
        if detail.is_empty() {
            word.to_string()
        } else {
            format!("{word} {detail}")
        }
    };
    if let Some(found) = check() {
        return Ok(say(words.found, found));
    }
    install()?;
    match check() {
        Some(found) => Ok(say(words.installed, found)),
        None => Err(still_missing()),
    }
}

/// A yes/no check as `ensure` wants it.
fn yes(present: bool) -> Option<String> {
    present.then(String::new)
}

fn wasm_target(ctx: &Ctx) -> Result<String> {
    const TARGET: &str = "wasm32-unknown-unknown";
    let present = || {
        output(Command::new("rustc").arg("--print").arg("sysroot")).is_some_and(|sysroot| {
            Path::new(&sysroot)
                .join("lib/rustlib")
                .join(TARGET)
                .is_dir()
        })
    };
    ensure(
        &INSTALLED,
        || yes(present()),
        || {
            run_logged(
                Command::new("rustup").args(["target", "add", TARGET]),
                &log(ctx, "wasm32-target"),
            )
        },
        || format!("rustc's sysroot still lacks {TARGET} after rustup target add"),
    )
}

/// The lint layer's tools. A rustup toolchain usually ships them; a minimal profile
/// does not, and the lint layer must not fail for a missing install step.
fn lint_tools(ctx: &Ctx) -> Result<String> {
    let present = || {
        output(Command::new("cargo").args(["clippy", "--version"])).is_some()
            && output(Command::new("cargo").args(["fmt", "--version"])).is_some()
    };
    ensure(
        &INSTALLED,
        || yes(present()),
        || {
            run_logged(
                Command::new("rustup").args(["component", "add", "clippy", "rustfmt"]),
                &log(ctx, "lint-tools"),
            )
        },
        || "`cargo clippy` or `cargo fmt` still missing after rustup component add".into(),
    )
}

/// The version a `tool --version` prints, as its second word ("trunk 0.21.14").
fn tool_version(tool: &str) -> Option<String> {
    let line = output(Command::new(tool).arg("--version"))?;
    line.split_whitespace().nth(1).map(str::to_string)
}

/// Where trunk and wasm-bindgen-cli are installed, a folder per tool and version:
/// `${XDG_CACHE_HOME:-~/.cache}/outbox-playground/tools/` (`%LOCALAPPDATA%` where there is
/// no home), shared by every clone of the project.
pub fn tool_cache() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .or_else(|| var("LOCALAPPDATA").map(PathBuf::from))
        .unwrap_or_else(std::env::temp_dir);
    base.join("outbox-playground").join("tools")
}

/// `cargo install`'s `--root` for one version of one crate.
fn tool_root(krate: &str, version: &str) -> PathBuf {
    tool_cache().join(format!("{krate}-{version}"))
}

/// The cached tools' `bin` folders, for the front of xtask's PATH: trunk's, and
/// wasm-bindgen-cli's at Cargo.lock's version (none before Cargo.lock exists).
pub fn tool_bin_dirs(ctx: &Ctx) -> Vec<PathBuf> {
    let mut dirs = vec![tool_root("trunk", TRUNK_VERSION).join("bin")];
    let lock = std::fs::read_to_string(ctx.root.join("Cargo.lock")).unwrap_or_default();
    if let Some(version) = locked_version(&lock, "wasm-bindgen") {
        dirs.push(tool_root("wasm-bindgen-cli", &version).join("bin"));
    }
    dirs
}

/// `cargo install --locked --force CRATE --version VERSION --root <cache>/CRATE-VERSION`.
/// --locked: the dependency versions the crate was released with. --force: reached only
/// when that folder's binary is missing or wrong, and cargo would otherwise skip a crate
/// the folder's records list as installed (say, after the binary was deleted).
fn cargo_install(ctx: &Ctx, krate: &str, version: &str, locked: bool) -> Result<()> {
    let mut cmd = ctx.cargo();
    cmd.args(["install", "--force", krate, "--version", version]);
    if locked {
        cmd.arg("--locked");
    }
    run_logged(
        cmd.arg("--root").arg(tool_root(krate, version)),
        &log(ctx, krate),
    )
}
/// Where `tool` is found on xtask's PATH, for the stage's line.
fn found_at(tool: &str) -> String {
    which(tool).map_or_else(String::new, |p| format!("at {}", p.display()))
}

fn trunk(ctx: &Ctx) -> Result<String> {
    ensure(
        &INSTALLED,
        || (tool_version("trunk").as_deref() == Some(TRUNK_VERSION)).then(|| found_at("trunk")),
        || cargo_install(ctx, "trunk", TRUNK_VERSION, true),
        || {
            format!(
                "after install, `trunk --version` says {:?}",
                tool_version("trunk")
            )
        },
    )
}

/// The version of `name` in Cargo.lock's text.
pub fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim();
            return version
                .strip_prefix("version = \"")?
                .strip_suffix('"')
                .map(str::to_string);
        }
    }
    None
}

/// The value of `key = "…"` in a TOML text (first occurrence; enough for Trunk.toml's pins).
pub fn toml_string(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        if k.trim() != key {
            return None;
        }
        let v = v.split('#').next()?.trim();
        v.strip_prefix('"')?.strip_suffix('"').map(str::to_string)
    })
}

/// wasm-bindgen's version from Cargo.lock (creating the lock file if a checkout lacks it),
/// checked against Trunk.toml's pin.
pub fn wasm_bindgen_version(ctx: &Ctx) -> Result<String> {
    let lock_path = ctx.root.join("Cargo.lock");
    if !lock_path.exists() {
        run_logged(ctx.cargo().arg("generate-lockfile"), &log(ctx, "lockfile"))?;
    }
    let lock = std::fs::read_to_string(&lock_path).map_err(proc::io_ctx("read Cargo.lock"))?;
    let version =
        locked_version(&lock, "wasm-bindgen").ok_or("Cargo.lock has no wasm-bindgen entry")?;
    let trunk_toml = std::fs::read_to_string(ctx.root.join("Trunk.toml"))
        .map_err(proc::io_ctx("read Trunk.toml"))?;
    match toml_string(&trunk_toml, "wasm_bindgen") {
        Some(pin) if pin == version => Ok(version),
        pin => Err(format!(
            "Trunk.toml pins wasm_bindgen = {pin:?} but Cargo.lock has {version}: make them equal"
        )),
    }
}

fn wasm_bindgen(ctx: &Ctx) -> Result<String> {
    let version = wasm_bindgen_version(ctx)?;
    let ok = || {
        tool_version("wasm-bindgen").as_deref() == Some(version.as_str())
            && tool_version("wasm-bindgen-test-runner").as_deref() == Some(version.as_str())
    };
    ensure(
        &INSTALLED,
        || ok().then(|| format!("{version} {}", found_at("wasm-bindgen"))),
        // --locked first. wasm-bindgen-cli 0.2.130's lockfile names webpki-roots 1.0.11,
        // which the crates.io index this was written against lacks (measured 2026-12-07:
        // "failed to select a version … locked to 1.0.11"); then unlocked, so the build
        // does not stop on an index that has not got one dependency's release.
        || {
            cargo_install(ctx, "wasm-bindgen-cli", &version, true)
                .or_else(|_| cargo_install(ctx, "wasm-bindgen-cli", &version, false))
        },
        || {
            format!(
                "after install, wasm-bindgen says {:?}, wasm-bindgen-test-runner says {:?}",
                tool_version("wasm-bindgen"),
                tool_version("wasm-bindgen-test-runner")
            )
        },
    )
}

/// The version an npm package in `.tools/` says it is (its package.json's "version").
fn npm_version(ctx: &Ctx, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(node_modules(ctx).join(name).join("package.json")).ok()?;
    let package: serde_json::Value = serde_json::from_str(&text).ok()?;
    package.get("version")?.as_str().map(str::to_string)
}

/// npm packages in `.tools/` at exactly the versions `specs` name ("name@version"), and
/// whatever else `also` checks of them; `npm install` runs only when one is missing or
/// of another version.
fn npm_packages(
    ctx: &Ctx,
    specs: &[&str],
    log_name: &str,
    also: impl Fn() -> bool,
) -> Result<String> {
    let names_versions: Vec<(&str, &str)> = specs
        .iter()
        .map(|spec| spec.rsplit_once('@').expect("name@version"))
        .collect();
    let versions_ok = || {
        names_versions
            .iter()
            .all(|(name, version)| npm_version(ctx, name).as_deref() == Some(*version))
    };
    ensure(
        &INSTALLED,
        || yes(versions_ok() && also()),
        || npm_ci(ctx, log_name),
        || {
            let found: Vec<String> = names_versions
                .iter()
                .map(|(name, _)| format!("{name} {:?}", npm_version(ctx, name)))
                .collect();
            format!("after npm install: {}", found.join(", "))
        },
    )
}

/// npm's binaryen ships wasm-opt as a node script; Debian's binaryen (108) builds pages
/// that die at load, so it is never used: the one on PATH must be ours.
fn wasm_opt(ctx: &Ctx) -> Result<String> {
    let wasm_opt = ctx.tools.join("node_modules/.bin/wasm-opt");
    npm_packages(ctx, &[BINARYEN_NPM], "wasm-opt", || {
        proc::is_executable(&wasm_opt)
            && output(Command::new(&wasm_opt).arg("--version"))
                .is_some_and(|v| v.contains(&format!("version_{WASM_OPT_VERSION}")))
            && which("wasm-opt").as_deref() == Some(wasm_opt.as_path())
    })
}

/// The path of axe-core's browser bundle (what the end-to-end layer injects).
pub fn axe_js(ctx: &Ctx) -> PathBuf {
    ctx.tools.join("node_modules/axe-core/axe.min.js")
}

fn axe_core(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &[AXE_NPM], "axe-core", || axe_js(ctx).exists())
}

/// Lighthouse's command-line entry (what benches/lighthouse.rs runs with node).
pub fn lighthouse_cli(ctx: &Ctx) -> PathBuf {
    ctx.tools.join("node_modules/lighthouse/cli/index.js")
}

fn lighthouse(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &[LIGHTHOUSE_NPM], "lighthouse", || {
        lighthouse_cli(ctx).exists()
    })
}

/// The node_modules folder with bullmq and ioredis (what the queue truth suite's
/// harness.js loads).
pub fn node_modules(ctx: &Ctx) -> PathBuf {
    ctx.tools.join("node_modules")
}

/// scorm-again's SCORM 1.2 run-time for a browser (`window.Scorm12API`).
pub fn scorm_again_js(ctx: &Ctx) -> PathBuf {
    ctx.tools.join("node_modules/scorm-again/dist/scorm12.js")
}

fn scorm_again(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &[SCORM_AGAIN_NPM], "scorm-again", || {
        scorm_again_js(ctx).exists()
    })
}

fn terser(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &[TERSER_NPM], "terser", || true)
}

fn node_postgres(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &[PG_NPM], "pg", || {
        node_modules(ctx).join("pg-pool/package.json").exists()
    })
}

fn bullmq(ctx: &Ctx) -> Result<String> {
    npm_packages(ctx, &BULLMQ_NPM, "bullmq", || true)
}

/// Debian's redis-server (7.0.15 on bookworm), from apt only when missing.
fn redis_server(ctx: &Ctx) -> Result<String> {
    let words = Words {
        found: "found",
        installed: "installed",
    };
    let found = || {
        let server = redis::find_server()?;
        let version = redis::version(&server).unwrap_or_else(|| "?".into());
        Some(format!("{} {version}", server.display()))
    };
    ensure(
        &words,
        found,
        || apt_install(ctx, &["redis-server"]),
        || "redis-server still not found".into(),
    )
}

/// The committed npm manifest and lockfile (every npm tool and its dependencies, exact).
fn npm_lock_dir(ctx: &Ctx) -> PathBuf {
    ctx.root.join("xtask/npm")
}

/// `.tools/` holds exactly what xtask/npm/package-lock.json says: the lock `npm ci` last
/// installed there is the committed one. The tools' own stages then check each tool.
fn npm_tools(ctx: &Ctx) -> Result<String> {
    let lock_path = npm_lock_dir(ctx).join("package-lock.json");
    let lock = std::fs::read_to_string(&lock_path)
        .map_err(proc::io_ctx("read xtask/npm/package-lock.json"))?;
    let installed = || {
        std::fs::read_to_string(ctx.tools.join("package-lock.json")).is_ok_and(|l| l == lock)
            && node_modules(ctx).join(".package-lock.json").exists()
    };
    ensure(
        &INSTALLED,
        || yes(installed()),
        || npm_ci(ctx, "npm"),
        || "`npm ci` ran but .tools/ does not hold xtask/npm/package-lock.json's packages".into(),
    )
}

/// `npm ci` in `.tools/` from the committed manifest and lockfile (npm itself from apt
/// when missing): exactly the locked versions, node_modules replaced as a whole.
fn npm_ci(ctx: &Ctx, log_name: &str) -> Result<()> {
    if which("npm").is_none() {
        apt_install(ctx, &["nodejs", "npm"])?;
    }
    std::fs::create_dir_all(&ctx.tools).map_err(proc::io_ctx("create .tools"))?;
    for name in ["package.json", "package-lock.json"] {
        std::fs::copy(npm_lock_dir(ctx).join(name), ctx.tools.join(name))
            .map_err(proc::io_ctx(&format!("copy xtask/npm/{name} to .tools/")))?;
    }
    run_logged(
        Command::new("npm")
            .arg("ci")
            .arg("--prefix")
            .arg(&ctx.tools)
            .args(["--no-audit", "--no-fund", "--loglevel=error"]),
        &log(ctx, log_name),
    )
}

fn chromium(ctx: &Ctx) -> Result<String> {
    ensure(
        &INSTALLED,
        || yes(Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()),
        || apt_install(ctx, &["chromium", "chromium-driver"]),
        || format!("{CHROMIUM} or {CHROMEDRIVER} is still missing"),
    )
}

fn postgresql(ctx: &Ctx) -> Result<String> {
    let words = Words {
        found: "found in",
        installed: "installed in",
    };
    ensure(
        &words,
        || pg::find_bin_dir().map(|bin| bin.display().to_string()),
        || apt_install(ctx, &["postgresql"]),
        || "initdb/pg_ctl/postgres still not found".into(),
    )
}

/// `apt-get update` (once per run), then `apt-get install -y PACKAGES`.
fn apt_install(ctx: &Ctx, packages: &[&str]) -> Result<()> {
    static UPDATED: AtomicBool = AtomicBool::new(false);
    let apt = || {
        let mut cmd = if proc::is_root() {
            Command::new("apt-get")
        } else {
            let mut sudo = Command::new("sudo");
            sudo.args(["-n", "apt-get"]);
            sudo
        };
        cmd.env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    let log = log(ctx, "apt");
    if !UPDATED.swap(true, Ordering::SeqCst) {
        run_logged(apt().arg("update"), &log)?;
    }
    run_logged(apt().args(["install", "-y"]).args(packages), &log)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen-backend"
version = "0.2.999"
"#;

    #[test]
    fn ensure_installs_only_what_is_missing_and_checks_again() {
        let installs = std::cell::Cell::new(0);
        let install = || {
            installs.set(installs.get() + 1);
            Ok(())
        };
        let present = ensure(&INSTALLED, || yes(true), install, || "gone".into());
        assert_eq!(present.as_deref(), Ok("already installed"));
        assert_eq!(installs.get(), 0, "a present tool is not installed again");

        let there = std::cell::Cell::new(false);
        let found = ensure(
            &INSTALLED,
            || there.get().then(|| "1.2.3".to_string()),
            || {
                there.set(true);
                install()
            },
            || "gone".into(),
        );
        assert_eq!(found.as_deref(), Ok("installed 1.2.3"));
        assert_eq!(installs.get(), 1);

        let never = ensure(&INSTALLED, || yes(false), install, || "still gone".into());
        assert_eq!(never, Err("still gone".to_string()));
        assert_eq!(installs.get(), 2);

        let refused = ensure(
            &INSTALLED,
            || yes(false),
            || Err("apt said no".into()),
            || "still gone".into(),
        );
        assert_eq!(
            refused,
            Err("apt said no".to_string()),
            "the install's own error"
        );
    }

    #[test]
    fn reads_the_locked_version() {
        assert_eq!(
            locked_version(LOCK, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(
            locked_version(LOCK, "wasm-bindgen-backend").as_deref(),
            Some("0.2.999")
        );
        assert_eq!(locked_version(LOCK, "leptos"), None);
    }

    #[test]
    fn reads_trunk_pins() {
        let toml = "[tools]\nwasm_bindgen = \"0.2.130\"  # pinned\nwasm_opt = \"version_132\"\n";
        assert_eq!(
            toml_string(toml, "wasm_bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(
            toml_string(toml, "wasm_opt").as_deref(),
            Some("version_132")
        );
        assert_eq!(toml_string(toml, "wasm"), None);
    }

    #[test]
    fn the_npm_pins_are_the_committed_manifests() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let text = std::fs::read_to_string(root.join("xtask/npm/package.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        let deps = manifest["dependencies"].as_object().unwrap();
        let pins = [BINARYEN_NPM, TERSER_NPM, AXE_NPM, LIGHTHOUSE_NPM]
            .into_iter()
            .chain(BULLMQ_NPM);
        for spec in pins {
            let (name, version) = spec.rsplit_once('@').unwrap();
            assert_eq!(deps[name], version, "xtask/npm/package.json's {name}");
        }
        let lock = std::fs::read_to_string(root.join("xtask/npm/package-lock.json")).unwrap();
        let lock: serde_json::Value = serde_json::from_str(&lock).unwrap();
        assert_eq!(
            lock["packages"][""]["dependencies"], manifest["dependencies"],
            "package-lock.json is package.json's (`npm install --package-lock-only` in xtask/npm)"
        );
    }

    #[test]
    fn the_tool_cache_is_keyed_by_tool_and_version() {
        let root = tool_root("trunk", TRUNK_VERSION);
        let ctx = Ctx {
            root: Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .unwrap()
                .into(),
            tools: PathBuf::new(),
            cargo: PathBuf::new(),
        };
        let lock = std::fs::read_to_string(ctx.root.join("Cargo.lock")).unwrap();
        let bindgen = locked_version(&lock, "wasm-bindgen").unwrap();
        let dirs = tool_bin_dirs(&ctx);
        assert_eq!(
            dirs,
            [
                root.join("bin"),
                tool_root("wasm-bindgen-cli", &bindgen).join("bin")
            ]
        );
        assert!(
            dirs[0].ends_with("outbox-playground/tools/trunk-0.21.14/bin"),
            "{dirs:?}"
        );
    }

    #[test]
    fn the_repo_pins_agree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
        let trunk = std::fs::read_to_string(root.join("Trunk.toml")).unwrap();
        assert_eq!(
            locked_version(&lock, "wasm-bindgen"),
            toml_string(&trunk, "wasm_bindgen"),
            "Trunk.toml's wasm_bindgen pin must equal Cargo.lock"
        );
        assert_eq!(
            toml_string(&trunk, "wasm_opt").as_deref(),
            Some(format!("version_{WASM_OPT_VERSION}").as_str())
        );
    }
}
