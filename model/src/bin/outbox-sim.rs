//! `outbox-sim`: runs a scenario natively and prints its final counters as one JSON object.
//!
//!   outbox-sim list                      the presets, one line each
//!   outbox-sim run <preset|file.json>    run one; exit 2 on a bad scenario

use outbox_model::{presets, Scenario, World};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: outbox-sim list | outbox-sim run <preset-or-file.json>");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => {
            for s in presets() {
                println!("{:<34} {}", s.name, s.summary);
            }
            ExitCode::SUCCESS
        }
        Some("run") => {
            let Some(what) = args.get(1) else {
                return usage();
            };
            let scenario = match outbox_model::preset(what) {
                Some(s) => s,
                None => {
                    let text = match std::fs::read_to_string(what) {
                        Ok(t) => t,
                        Err(e) => {
                            eprintln!(
                                "outbox-sim: {what:?} is neither a preset nor a readable file: {e}"
                            );
                            return ExitCode::from(2);
                        }
                    };
                    match Scenario::from_json(&text) {
                        Ok(s) => s,
                        Err(e) => {
                            eprintln!(
                                "outbox-sim: bad scenario in {what}: field `{}`: {}",
                                e.field, e.message
                            );
                            return ExitCode::from(2);
                        }
                    }
                }
            };
            let mut w = World::new(&scenario);
            w.run(scenario.max_ticks);
            let c = w.counters();
            println!("{}", serde_json::to_string(&c).expect("counters serialise"));
            if !w.violations.is_empty() {
                for v in &w.violations {
                    eprintln!("invariant broken: {v}");
                }
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        _ => usage(),
    }
}
