//! `outbox-sim`: runs a scenario natively and prints its final counters as one JSON object.
//!
//!   outbox-sim list                                      the presets, one line each
//!   outbox-sim show <preset>                             a preset as scenario JSON
//!   outbox-sim run <preset|file.json> [--max-ticks N]    run one; exit 2 on a bad scenario
//!   outbox-sim swarm …                                   random schedules (see outbox_sim/swarm.rs)
//!
//! `run` prints one JSON object: the counters the page shows, and under `report` what the
//! whole run did: jobs created, queue.add calls and deliveries per event (a histogram and
//! the maximum), SQL errors by SQLSTATE, inbox conflicts, and the relays' polls (totals
//! and each relay's newest polls as the lesson's `{ tarqatildi, xato }`).
//!
//! A scenario may ask for up to u64::MAX ticks, and a world that never settles (a poison
//! event the relay retries forever) would then run for ever: the run stops at
//! `--max-ticks` (default [`DEFAULT_MAX_TICKS`]) and says so on stderr.

#[path = "outbox_sim/swarm.rs"]
mod swarm;

use outbox_model::world::ProcKind;
use outbox_model::{presets, Scenario, World};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Ticks a run may take unless `--max-ticks` says otherwise: seconds of work natively,
/// and far past the end of every preset.
const DEFAULT_MAX_TICKS: u64 = 10_000_000;

fn usage() -> ExitCode {
    eprintln!(
        "usage: outbox-sim list | outbox-sim show <preset> | \
         outbox-sim run <preset-or-file.json> [--max-ticks N] | \
         outbox-sim swarm --help"
    );
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
        Some("show") if args.len() == 2 => show(&args[1]),
        Some("swarm") => swarm::main(&args[1..]),
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
    let text = read_scenario_file(what)?;
    Scenario::from_json(&text)
        .map_err(|e| format!("bad scenario in {what}: field `{}`: {}", e.field, e.message))
}

/// The largest scenario file read: the page's import limit (`browser::file`, 5 MB), so
/// the command and the page refuse the same files, and a huge one is refused before it is
/// read whole.
const MAX_FILE_BYTES: u64 = 5_000_000;

/// A scenario file's text: at most [`MAX_FILE_BYTES`] (checked on the bytes read, not
/// only the file's stated length: a pipe has none), a UTF-8 byte-order mark dropped (as
/// the browser's `Blob.text()` does for the page's import).
fn read_scenario_file(what: &str) -> Result<String, String> {
    use std::io::Read;
    let unreadable =
        |e: std::io::Error| format!("{what:?} is neither a preset nor a readable file: {e}");
    let file = std::fs::File::open(what).map_err(unreadable)?;
    let too_big =
        |n: u64| format!("{what} is {n} bytes: a scenario file is at most {MAX_FILE_BYTES} bytes");
    if let Ok(meta) = file.metadata() {
        if meta.is_file() && meta.len() > MAX_FILE_BYTES {
            return Err(too_big(meta.len()));
        }
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("{what} is not UTF-8 text: {e}"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
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
    let mut out = serde_json::to_value(w.counters()).expect("counters serialise");
    out["report"] = report(&w);
    println!("{out}");
    if !w.violations().is_empty() {
        for v in w.violations() {
            eprintln!("invariant broken: {v}");
        }
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// A preset as the scenario JSON a file would hold: the starting point for one's own.
fn show(name: &str) -> ExitCode {
    match outbox_model::preset(name) {
        Some(s) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&s).expect("scenario serialises")
            );
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("outbox-sim: no preset {name:?} (outbox-sim list names them)");
            ExitCode::from(2)
        }
    }
}

/// What the whole run did, beyond the counters (see the module's comment).
fn report(w: &World) -> Value {
    let lives: Vec<_> = w.auditor().events().map(|(_, l)| *l).collect();
    let jobs_created: u64 = lives.iter().map(|l| l.jobs_created as u64).sum();
    let t = w.tally();
    let sql_errors: Map<String, Value> = t
        .sql_errors_by_code()
        .into_iter()
        .map(|(code, n)| (code.to_string(), json!(n)))
        .collect();
    json!({
        "jobs_created": jobs_created,
        "queue_adds_per_event": histogram(lives.iter().map(|l| l.adds)),
        "deliveries_per_event": histogram(lives.iter().map(|l| l.deliveries)),
        "sql_errors": sql_errors,
        "inbox_conflicts": t.inbox_conflicts,
        "polls": {
            "count": t.polls,
            "tarqatildi": t.polls_published,
            "xato": t.polls_failed,
            "newest": newest_polls(w),
        },
        "relays": relay_locks(w),
        "published_per_100_ticks": t.published_per_100_ticks(w.tick()),
    })
}

/// Each relay's ticks waited on a row lock and rows published (#43: SKIP LOCKED never
/// waits; plain FOR UPDATE does).
fn relay_locks(w: &World) -> Value {
    let mut out = Map::new();
    for (i, p) in w.procs().iter().enumerate() {
        if p.kind == ProcKind::Relay {
            let r = w.tally().relay(i as u8).cloned().unwrap_or_default();
            out.insert(
                p.name.clone(),
                json!({"lock_wait_ticks": r.lock_wait_ticks, "tarqatildi": r.published}),
            );
        }
    }
    Value::Object(out)
}

/// `{"histogram": {"<n>": events with n}, "max": n}` over every event the run minted.
fn histogram(per_event: impl Iterator<Item = u16>) -> Value {
    let mut h: BTreeMap<u16, u64> = BTreeMap::new();
    for n in per_event {
        *h.entry(n).or_default() += 1;
    }
    let max = h.keys().next_back().copied().unwrap_or(0);
    let h: Map<String, Value> = h
        .into_iter()
        .map(|(n, k)| (n.to_string(), json!(k)))
        .collect();
    json!({ "histogram": h, "max": max })
}

/// Each relay's newest polls (the world keeps the last 64 of each), by process name.
fn newest_polls(w: &World) -> Value {
    let mut out = Map::new();
    for (i, p) in w.procs().iter().enumerate() {
        if p.kind == ProcKind::Relay {
            out.insert(p.name.clone(), json!(w.polls()[i]));
        }
    }
    Value::Object(out)
}
