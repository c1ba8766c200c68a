//! `outbox-sim`: runs a scenario natively and prints its final counters as one JSON object.
//!
//!   outbox-sim list                                      the presets, one line each
//!   outbox-sim run <preset|file.json> [--max-ticks N]    run one; exit 2 on a bad scenario
//!
//! A scenario may ask for up to u64::MAX ticks, and a world that never settles (a poison
//! event the relay retries forever) would then run for ever: the run stops at
//! `--max-ticks` (default [`DEFAULT_MAX_TICKS`]) and says so on stderr.

use outbox_model::{presets, Scenario, World};
use std::process::ExitCode;

/// Ticks a run may take unless `--max-ticks` says otherwise: seconds of work natively,
/// and far past the end of every preset.
const DEFAULT_MAX_TICKS: u64 = 10_000_000;

fn usage() -> ExitCode {
    eprintln!("usage: outbox-sim list | outbox-sim run <preset-or-file.json> [--max-ticks N]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") if args.len() == 1 => {
            for s in presets() {
                println!("{:<34} {}", s.name, s.summary);
            }
            ExitCode::SUCCESS
        }
        Some("run") => match run_args(&args[1..]) {
            Some((what, bound_ticks)) => run(what, bound_ticks),
            None => usage(),
        },
        _ => usage(),
    }
}

/// `<what> [--max-ticks N]`, in either order.
fn run_args(args: &[String]) -> Option<(&str, u64)> {
    let mut what = None;
    let mut bound_ticks = DEFAULT_MAX_TICKS;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        if a == "--max-ticks" {
            bound_ticks = rest.next()?.parse().ok()?;
        } else if what.is_none() {
            what = Some(a.as_str());
        } else {
            return None;
        }
    }
    Some((what?, bound_ticks))
}

/// A preset by name, or else a scenario file; the error is the message to print.
fn load(what: &str) -> Result<Scenario, String> {
    if let Some(s) = outbox_model::preset(what) {
        return Ok(s);
    }
    let text = std::fs::read_to_string(what)
        .map_err(|e| format!("{what:?} is neither a preset nor a readable file: {e}"))?;
    Scenario::from_json(&text)
        .map_err(|e| format!("bad scenario in {what}: field `{}`: {}", e.field, e.message))
}

fn run(what: &str, bound_ticks: u64) -> ExitCode {
    let scenario = match load(what) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("outbox-sim: {message}");
            return ExitCode::from(2);
        }
    };
    let mut w = World::new(&scenario);
    w.run(scenario.max_ticks.min(bound_ticks));
    if scenario.max_ticks > bound_ticks && !w.settled() {
        eprintln!(
            "outbox-sim: stopped at tick {} (--max-ticks {bound_ticks}); the scenario asks \
             for {} and had not settled",
            w.tick(),
            scenario.max_ticks
        );
    }
    let c = w.counters();
    println!("{}", serde_json::to_string(&c).expect("counters serialise"));
    if !w.violations().is_empty() {
        for v in w.violations() {
            eprintln!("invariant broken: {v}");
        }
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
