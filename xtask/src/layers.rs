//! `cargo xtask test`: set-up, then every test layer in order, then a summary closing with
//! `N passed, N failed` (counting layers). A failing layer doesn't stop the later ones.

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use static_server::StaticServer;

use crate::pg::TempPostgres;
use crate::proc::{self, ChildGuard, Result};
use crate::redis::TempRedis;
use crate::setup::{self, Scope, CHROMEDRIVER, CHROMIUM};
use crate::tee::{self, run_visible_noting};
use crate::{size, Ctx};

#[derive(Default)]
struct State {
    /// `trunk build --release` succeeded in this run: dist/ is fresh.
    release_built: bool,
    /// One layer run alone (`test-layer`): the size layer then builds its own release.
    alone: bool,
}

type LayerFn = fn(&Ctx, &mut State) -> Result<bool>;

/// Each layer: a short key (`cargo xtask test-layer KEY`), what it is, and its function.
const LAYERS: [(&str, &str, LayerFn); 8] = [
    (
        "lint",
        "lint (cargo fmt --check, clippy -D warnings: native and wasm32)",
        lint,
    ),
    ("native", "native tests (cargo test --workspace)", native),
    (
        "swarm",
        "the swarm's CI slice (outbox-sim swarm --ci: random schedules, judged)",
        swarm,
    ),
    (
        "components",
        "component tests in headless Chromium (wasm-bindgen-test)",
        components,
    ),
    (
        "e2e",
        "end-to-end (trunk build --release, chromedriver)",
        end_to_end,
    ),
    ("postgres", "real PostgreSQL", postgres),
    ("redis", "real Redis + BullMQ (queue truth)", redis_bullmq),
    ("size", "size report of the release build", size_report),
];

/// `cargo xtask test-layer KEY`: set-up, then that one layer (the size report needs
/// the end-to-end layer's build, so it runs alone only after one). Closes with the same
/// `N passed, N failed` line, counting the one layer.
pub fn run_one(ctx: &Ctx, key: &str) -> ExitCode {
    let Some((_, name, layer)) = LAYERS.iter().find(|(k, _, _)| *k == key) else {
        let keys: Vec<&str> = LAYERS.iter().map(|(k, _, _)| *k).collect();
        eprintln!("no layer {key:?}; the layers: {}", keys.join(", "));
        return ExitCode::from(2);
    };
    if let Err(err) = setup::run(ctx, Scope::Test) {
        eprintln!("set-up failed: {err}");
        println!("0 passed, 1 failed");
        return ExitCode::FAILURE;
    }
    println!("\n== layer {key}: {name} ==");
    let t = Instant::now();
    let mut state = State {
        alone: true,
        ..State::default()
    };
    let (ok, notes) = run_layer(ctx, *layer, &mut state);
    println!("layer {key}: {:.1} s", t.elapsed().as_secs_f64());
    print_notes(ok, &notes);
    println!("{} passed, {} failed", ok as u8, !ok as u8);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

pub fn run_all(ctx: &Ctx) -> ExitCode {
    let started = Instant::now();
    if let Err(err) = setup::run(ctx, Scope::Test) {
        eprintln!("set-up failed: {err}");
        println!("0 passed, {} failed", LAYERS.len());
        return ExitCode::FAILURE;
    }
    let mut state = State::default();
    let mut results = Vec::new();
    for (i, (_, name, layer)) in LAYERS.iter().enumerate() {
        println!("\n== layer {}/{}: {name} ==", i + 1, LAYERS.len());
        let t = Instant::now();
        let (ok, notes) = run_layer(ctx, *layer, &mut state);
        results.push((*name, ok, t.elapsed(), notes));
    }
    println!(
        "\n== summary ({:.0} s in all) ==",
        started.elapsed().as_secs_f64()
    );
    for (i, (name, ok, took, notes)) in results.iter().enumerate() {
        let mark = if *ok { "ok  " } else { "FAIL" };
        println!("  {mark} {} {name} ({:.1} s)", i + 1, took.as_secs_f64());
        print_notes(*ok, notes);
    }
    let passed = results.iter().filter(|r| r.1).count();
    let failed = results.len() - passed;
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs one layer; whether it passed, and what its commands said of their failures.
fn run_layer(ctx: &Ctx, layer: LayerFn, state: &mut State) -> (bool, Vec<String>) {
    tee::take_notes();
    let ok = layer(ctx, state).unwrap_or_else(|err| {
        eprintln!("error: {err}");
        tee::note(&format!("error: {err}"));
        false
    });
    (ok, tee::take_notes())
}

/// Under a failed layer's line: why, in the lines its output said it (CI shows only the
/// end of a run's output).
fn print_notes(ok: bool, notes: &[String]) {
    if ok {
        return;
    }
    if notes.is_empty() {
        println!("         (no failed test or broken budget was named; see above)");
    }
    for line in notes {
        println!("         | {line}");
    }
}

/// Layer 1: formatting and clippy over every target of every crate, native and wasm32,
/// with warnings as errors, so neither can drift between sessions. `--all-features`
/// brings in the targets behind `integration` (the browser and PostgreSQL suites) and
/// the model's `wasm-bench` export; they are checked here though they run later.
fn lint(ctx: &Ctx, _: &mut State) -> Result<bool> {
    let fmt = run_visible_noting(ctx.cargo().args(["fmt", "--all", "--", "--check"]))?;
    let native = run_visible_noting(ctx.cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--all-features",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The page as the browser gets it: the app with its component tests, and the model's
    // library (its dev-dependencies, proptest and criterion, do not build for wasm32).
    let wasm = |package: &str, targets: &[&str]| {
        run_visible_noting(
            ctx.cargo()
                .args([
                    "clippy",
                    "-p",
                    package,
                    "--target",
                    "wasm32-unknown-unknown",
                ])
                .args(targets)
                .args(["--", "-D", "warnings"]),
        )
    };
    let page = wasm("outbox-playground", &["--all-targets"])?;
    // The page as index.html builds it: its challenge code behind wasm-split's doors.
    let split = wasm("outbox-playground", &["--bins", "--features", "split"])?;
    let model = wasm("outbox-model", &["--lib"])?;
    Ok(fmt && native && page && split && model)
}

/// Layer 2: every crate's native tests (the env-dependent targets need the `integration`
/// feature, so they are left out here).
fn native(ctx: &Ctx, _: &mut State) -> Result<bool> {
    run_visible_noting(ctx.cargo().args(["test", "--workspace"]))
}

/// The swarm's CI slice (model/README.md, "The swarm"): a fixed seed range of random
/// configurations and fault schedules on two threads, in release (debug is ~20× slower);
/// fails on any violation, each printed shrunk with the command that replays it.
fn swarm(ctx: &Ctx, _: &mut State) -> Result<bool> {
    run_visible_noting(ctx.cargo().args([
        "run",
        "--release",
        "-p",
        "outbox-model",
        "--bin",
        "outbox-sim",
        "--",
        "swarm",
        "--ci",
    ]))
}

/// Layer 3: wasm-bindgen-test in headless Chromium (runner set in .cargo/config.toml,
/// browser flags in webdriver.json). `embed-langs` compiles English and Russian into the
/// test wasm: the page fetches them from `dist/`, which a component test has not got.
fn components(ctx: &Ctx, _: &mut State) -> Result<bool> {
    run_visible_noting(
        ctx.cargo()
            .args([
                "test",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                "outbox-playground",
                "--features",
                "embed-langs",
            ])
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env_remove("GECKODRIVER")
            .env_remove("SAFARIDRIVER"),
    )
}

/// Layer 4: the release build served on 127.0.0.1, driven through chromedriver; then a
/// part of it again with dist/ served under `/outbox/` (as on GitHub Pages).
fn end_to_end(ctx: &Ctx, state: &mut State) -> Result<bool> {
    if !run_visible_noting(Command::new("trunk").current_dir(&ctx.root).args([
        "build",
        "--release",
        "--offline",
    ]))? {
        return Ok(false);
    }
    state.release_built = true;
    let dist = ctx.root.join("dist");
    let classroom = build_classroom(ctx)?;
    // The offline test's "new deployment": this build with one change (tests/ship.rs).
    let next = ctx.tools.join("dist-next");
    crate::post_build::next_build_for_tests(&dist, &next)?;
    // #45: the SCORM packages, unpacked as a learning platform does (tests/lms.rs).
    let title = crate::scorm::course_title(&ctx.root)?;
    for (v, name) in [
        (crate::scorm::Version::V12, "scorm12"),
        (crate::scorm::Version::V2004, "scorm2004"),
    ] {
        let entries = crate::scorm::package(&dist, "test", &title, v)?;
        crate::scorm::unpack(&entries, &ctx.tools.join(name))?;
    }

    // Guards: dropped in reverse order (driver, then server) on every path out.
    let server = StaticServer::start(dist.clone()).map_err(proc::io_ctx("static server"))?;
    println!("serving dist/ on {}", server.url());
    let port = proc::free_port()?;
    let mut driver = ChildGuard::spawn(
        "chromedriver",
        Command::new(CHROMEDRIVER).arg(format!("--port={port}")),
        &ctx.logs().join("chromedriver.log"),
    )?;
    proc::wait_for_port(port, Duration::from_secs(30), Some(driver.child()))?;
    println!("chromedriver on 127.0.0.1:{port}");
    let webdriver = format!("http://127.0.0.1:{port}");
    let cargo_test = |page: &str, targets: &[String]| {
        run_visible_noting(
            ctx.cargo()
                .args([
                    "test",
                    "-p",
                    "outbox-playground",
                    "--features",
                    "integration",
                    "--no-fail-fast",
                ])
                .args(targets)
                .env("OUTBOX_E2E_URL", page)
                .env("OUTBOX_WEBDRIVER_URL", &webdriver)
                .env("OUTBOX_CHROMIUM", CHROMIUM)
                .env("OUTBOX_AXE_JS", setup::axe_js(ctx))
                .env("OUTBOX_DIST", &dist)
                .env("OUTBOX_DIST_NEXT", &next)
                .env("OUTBOX_CLASSROOM", &classroom)
                .env("OUTBOX_SCORM12", ctx.tools.join("scorm12"))
                .env("OUTBOX_SCORM2004", ctx.tools.join("scorm2004"))
                .env("OUTBOX_SCORM_AGAIN", setup::scorm_again_js(ctx))
                .env("OUTBOX_LIGHTHOUSE", setup::lighthouse_cli(ctx)),
        )
    };
    // The end-to-end tests, then the page benchmarks (frame time, DOM size, first paint;
    // Lighthouse's budgets) against the same build, server and driver.
    let ok = cargo_test(&server.url(), &e2e_targets())?;
    let shot = ctx.root.join("tests/screenshots/e2e-en.png");
    if ok && shot.exists() {
        println!("screenshot: {}", shot.display());
    }
    let sub = StaticServer::start_with(dist.clone(), subpath_options())
        .map_err(proc::io_ctx("static server"))?;
    println!("\nthe same build under a path: {}", sub.url());
    let sub_ok = cargo_test(&sub.url(), &subpath_targets())?;
    Ok(ok && sub_ok)
}

/// The classroom server (`outbox-classroom`) with the page just built inside it, as a
/// release ships it (tests/classroom.rs starts it); the binary's path. A debug build: it
/// embeds the same files and takes seconds instead of a release build's minute.
fn build_classroom(ctx: &Ctx) -> Result<std::path::PathBuf> {
    let built = run_visible_noting(
        ctx.cargo()
            .args(["build", "-p", "outbox-classroom"])
            .env("OUTBOX_DIST", ctx.root.join("dist")),
    )?;
    if !built {
        return Err("`cargo build -p outbox-classroom` failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| ctx.root.join("target"), std::path::PathBuf::from);
    Ok(target
        .join("debug")
        .join(format!("outbox-classroom{}", std::env::consts::EXE_SUFFIX)))
}

/// dist/ under `/outbox/`, with its precompressed files, like a school's static host.
fn subpath_options() -> static_server::Options {
    static_server::Options {
        prefix: "/outbox/".into(),
        precompressed: true,
        ..Default::default()
    }
}

/// Under a path: the page loads, plays the canon, opens a shared link, switches language,
/// and its head, manifest and speaker-notes window resolve (#18's subpath test).
fn subpath_targets() -> Vec<String> {
    let filters = ["language_switch", "canon_runs", "a_shared_link", "any_path"];
    ["--test", "e2e", "--test", "ship", "--"]
        .into_iter()
        .chain(filters)
        .map(str::to_owned)
        .collect()
}

/// The end-to-end targets: all of them, or, while working on one part of the page, the
/// cargo arguments in `OUTBOX_E2E_ARGS` (e.g. `--test lesson -- step_5`), so a developer
/// gets the same build, server and driver without the ten-minute whole layer.
fn e2e_targets() -> Vec<String> {
    if let Ok(only) = std::env::var("OUTBOX_E2E_ARGS") {
        return only.split_whitespace().map(str::to_owned).collect();
    }
    [
        "e2e",
        "lesson",
        "challenge",
        "proof",
        "hostile",
        "stage",
        "ship",
        "classroom",
        "lms",
    ]
    .iter()
    .flat_map(|t| ["--test", t])
    .chain(["--bench", "page", "--bench", "lighthouse"])
    .map(str::to_owned)
    .collect()
}

/// The test targets that need `OUTBOX_PG_URL` (each `required-features = ["integration"]`
/// in Cargo.toml, so layer 2 leaves them out).
const PG_TESTS: [&str; 2] = ["pg", "truth"];

/// Layer 5: a throwaway PostgreSQL server for the tests that talk to a real one.
fn postgres(ctx: &Ctx, _: &mut State) -> Result<bool> {
    let pg = TempPostgres::start()?;
    println!("postgresql on 127.0.0.1:{}", pg.port);
    let mut cmd = ctx.cargo();
    cmd.args([
        "test",
        "-p",
        "outbox-playground",
        "--features",
        "integration",
    ]);
    for test in PG_TESTS {
        cmd.args(["--test", test]);
    }
    // The truth suite prints each step's answer from PostgreSQL and from the model.
    cmd.args(["--", "--nocapture"]);
    // The pool truth (tests/truth/pool.rs) runs real node-postgres from `.tools/`.
    cmd.env("OUTBOX_NODE_MODULES", setup::node_modules(ctx));
    run_visible_noting(cmd.env("OUTBOX_PG_URL", pg.url()))
}

/// Layer 6: a throwaway redis-server (no persistence) and real BullMQ from `.tools/`
/// for the queue truth suite, which prints BullMQ's answer and the model's for every
/// step. The scenarios that stop or restart Redis start their own from the same binary.
fn redis_bullmq(ctx: &Ctx, _: &mut State) -> Result<bool> {
    let redis = TempRedis::start()?;
    println!("redis-server on 127.0.0.1:{}", redis.port);
    let ok = run_visible_noting(
        ctx.cargo()
            .args([
                "test",
                "-p",
                "outbox-playground",
                "--features",
                "integration",
                "--test",
                "queue_truth",
                "--",
                "--nocapture",
            ])
            .env("OUTBOX_REDIS_URL", redis.url())
            .env("OUTBOX_REDIS_SERVER", &redis.server)
            .env("OUTBOX_BULLMQ_MODULES", setup::node_modules(ctx)),
    )?;
    Ok(ok)
}

/// Layer 7: sizes of what layer 4 built. Run alone (`cargo xtask test-layer size`, what a
/// change's before and after are measured with) it makes the release build itself.
fn size_report(ctx: &Ctx, state: &mut State) -> Result<bool> {
    if !state.release_built && state.alone {
        state.release_built =
            run_visible_noting(Command::new("trunk").current_dir(&ctx.root).args([
                "build",
                "--release",
                "--offline",
            ]))?;
    }
    if !state.release_built {
        return Err("no release build: `trunk build --release` failed in layer 4".into());
    }
    // The 480 KB gzip cap is a hard check: a page that grows past it fails this layer.
    size::report(&ctx.root.join("dist"))
}
