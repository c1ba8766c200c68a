//! The project's two commands (run from anywhere in the repo):
//!
//! - `cargo xtask serve [TRUNK_ARGS…]`: set up the build tools, then `trunk serve` the
//!   playground on http://127.0.0.1:8080 (extra arguments, e.g. `--release`, go to trunk).
//! - `cargo xtask test`: set up everything, run every test layer, print a size report, and
//!   close with `N passed, N failed` (counting layers).
//! - `cargo xtask test-layer KEY`: set up everything, then one layer (`redis`, say).
//! - `cargo xtask serve-release [--port N] [--prefix /outbox/] [--no-build]`: the release build, served
//!   with its precompressed files on every interface, for a classroom's local network.
//! - `cargo xtask build-release`: the same build, nothing served (GitHub Pages' workflow).
//! - `cargo xtask dist-zip`: that build as `target/outbox-playground-<version>-dist.zip`.
//! - `cargo xtask scorm`: that build as SCORM 1.2 and 2004 packages (`scorm.rs`, #45).
//! - `cargo xtask css` / `cargo xtask post-build`: Trunk's pre_build / post_build hooks.
//! - `cargo xtask floors`: the page's import map between folders and what breaks its
//!   floors (`floors.rs`; a unit test keeps them in the native layer).
//!
//! Std only, except pure-Rust compressors and sha256 (the size report, the post-build step).

mod csp;
mod css;
mod dist_files;
mod dist_zip;
mod floors;
mod icons;
mod lang_files;
mod layers;
mod pg;
mod post_build;
mod proc;
mod redis;
mod scorm;
mod serve_release;
mod setup;
mod size;
mod split;
mod sw;
mod tee;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where everything lives.
pub struct Ctx {
    /// The repository root (the workspace).
    pub root: PathBuf,
    /// `.tools/`: the project's git-ignored tool folder (npm's wasm-opt, logs).
    pub tools: PathBuf,
    /// The cargo that runs us (`$CARGO`), so children use the same toolchain.
    pub cargo: PathBuf,
}

impl Ctx {
    fn new() -> Ctx {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives in the repo root")
            .to_path_buf();
        let tools = root.join(".tools");
        let cargo = std::env::var_os("CARGO").map_or_else(|| "cargo".into(), PathBuf::from);
        Ctx { root, tools, cargo }
    }

    pub fn logs(&self) -> PathBuf {
        self.tools.join("logs")
    }

    pub fn cargo(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.cargo);
        cmd.current_dir(&self.root);
        cmd
    }
}

const USAGE: &str = "usage:
  cargo xtask serve [TRUNK_ARGS...]   set up, then serve the playground on http://127.0.0.1:8080
  cargo xtask test                    set up, then run every test layer and report sizes
  cargo xtask setup                   only the set-up (what `test` does first)
  cargo xtask serve-release [--port N] [--prefix /outbox/] [--no-build]
                                      build the release page and serve it (brotli/gzip) on
                                      every interface, printing the addresses for students
  cargo xtask build-release           set up the build tools, then only build the release page
                                      into dist/ (what the GitHub Pages workflow publishes)
  cargo xtask dist-zip                zip dist/ with nginx and Caddy snippets into
                                      target/outbox-playground-<version>-dist.zip
  cargo xtask scorm                   package dist/ for a learning platform: target/
                                      outbox-playground-scorm12.zip and -scorm2004.zip
  cargo xtask css                     join style/ into generated/app.css (Trunk's pre_build hook)
  cargo xtask post-build              finish Trunk's staging folder: icons, manifest, CSP,
                                      service worker, .br/.gz (Trunk's post_build hook)
  cargo xtask floors [SRC_DIR]        the page's import map between folders; fails if src/ (or
                                      SRC_DIR) breaks its floors, or (without SRC_DIR) another
                                      crate has a cycle
  cargo xtask test-layer KEY          set up, then one layer (lint, native, swarm, components,
                                      e2e, postgres, redis, size)";

fn main() -> ExitCode {
    let ctx = Ctx::new();
    let mut args = std::env::args().skip(1);
    let command = args.next();
    let rest: Vec<String> = args.collect();
    proc::prepare_path(&ctx, setup::tool_bin_dirs(&ctx));
    match command.as_deref() {
        Some("serve") => serve(&ctx, &rest),
        Some("test") if rest.is_empty() => layers::run_all(&ctx),
        Some("test-layer") if rest.len() == 1 => layers::run_one(&ctx, &rest[0]),
        Some("setup") if rest.is_empty() => match setup::run(&ctx, setup::Scope::Test) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("set-up failed: {err}");
                ExitCode::FAILURE
            }
        },
        Some("css") if rest.is_empty() => match css::run(&ctx) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("css: {err}");
                ExitCode::FAILURE
            }
        },
        Some("post-build") if rest.is_empty() => match post_build::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("post-build: {err}");
                ExitCode::FAILURE
            }
        },
        Some("floors") if rest.len() <= 1 => match rest.first() {
            Some(src) => floors::run(&PathBuf::from(src), None),
            None => floors::run(&ctx.root.join("src"), Some(&ctx.root)),
        },
        Some("serve-release") => serve_release::run(&ctx, &rest),
        Some("build-release") if rest.is_empty() => {
            if serve_release::build_release(&ctx) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some("dist-zip") if rest.is_empty() => match dist_zip::run(&ctx) {
            Ok(_) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("dist-zip: {err}");
                ExitCode::FAILURE
            }
        },
        Some("scorm") if rest.is_empty() => match scorm::run(&ctx) {
            Ok(_) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("scorm: {err}");
                ExitCode::FAILURE
            }
        },
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn serve(ctx: &Ctx, trunk_args: &[String]) -> ExitCode {
    if let Err(err) = setup::run(ctx, setup::Scope::Build) {
        eprintln!("set-up failed: {err}");
        return ExitCode::FAILURE;
    }
    println!("serving on http://127.0.0.1:8080 (Ctrl-C stops)");
    let status = std::process::Command::new("trunk")
        .current_dir(&ctx.root)
        .args([
            "serve",
            "--offline",
            "--address",
            "127.0.0.1",
            "--port",
            "8080",
        ])
        .args(trunk_args)
        .status();
    match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => {
            eprintln!("trunk serve ended: {status}");
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("cannot start trunk: {err}");
            ExitCode::FAILURE
        }
    }
}
