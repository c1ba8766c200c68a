//! `outbox-sim swarm`: the swarm's command line. The model library runs and judges seeds;
//! this file owns what the library must not: threads, the clock, files.
//!
//!   outbox-sim swarm --seeds A..B | --count N | --seconds S | --hours H
//!                    [--from SEED] [--threads T] [--keep DIR]
//!   outbox-sim swarm --ci                    the CI slice: `swarm::CI_SEEDS` on two threads
//!   outbox-sim swarm --replay FILE
//!
//! Threads take chunks of consecutive seeds from one counter, so a seed range gives the
//! same summary on any number of threads. Every failure is printed shrunk, as a scenario
//! file (written to `--keep DIR` when given) with the command that replays it. The output
//! ends with one line: `swarm: N schedules, K configurations, V violations, R schedules/s`.

use outbox_model::swarm::{self, Summary};
use outbox_model::Scenario;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Seeds a thread takes at a time: small enough that a timed run stops promptly.
const CHUNK: u64 = 64;
/// How often a long run reports its progress on stderr.
const PROGRESS: Duration = Duration::from_secs(30);

/// When the run stops.
enum Stop {
    /// After the last seed of the range.
    Seeds(std::ops::Range<u64>),
    /// After this long, from a first seed on.
    Time(Duration, u64),
}

struct Args {
    stop: Stop,
    threads: usize,
    keep: Option<String>,
}

pub fn main(args: &[String]) -> ExitCode {
    match args {
        [flag, file] if flag == "--replay" => return replay(file),
        [flag] if flag == "--ci" => {
            return run(&Args {
                stop: Stop::Seeds(swarm::CI_SEEDS),
                threads: 2,
                keep: None,
            })
        }
        _ => {}
    }
    match parse(args) {
        Some(a) => run(&a),
        None => {
            eprintln!(
                "usage: outbox-sim swarm --seeds A..B | --count N | --seconds S | --hours H \
                 [--from SEED] [--threads T] [--keep DIR]\n       \
                 outbox-sim swarm --ci | --replay FILE"
            );
            ExitCode::from(2)
        }
    }
}

fn parse(args: &[String]) -> Option<Args> {
    let mut from = 0u64;
    let (mut count, mut seeds, mut time) = (None, None, None);
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut keep = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next()?;
        match flag.as_str() {
            "--seeds" => {
                let (a, b) = value.split_once("..")?;
                seeds = Some(a.parse().ok()?..b.parse().ok()?);
            }
            "--count" => count = Some(value.parse::<u64>().ok()?),
            "--from" => from = value.parse().ok()?,
            "--seconds" => time = Some(Duration::from_secs_f64(value.parse().ok()?)),
            "--hours" => time = Some(Duration::from_secs_f64(value.parse::<f64>().ok()? * 3600.0)),
            "--threads" => threads = value.parse().ok().filter(|&t| t > 0)?,
            "--keep" => keep = Some(value.clone()),
            _ => return None,
        }
    }
    let stop = match (seeds, count, time) {
        (Some(r), None, None) => Stop::Seeds(r),
        (None, Some(n), None) => Stop::Seeds(from..from.checked_add(n)?),
        (None, None, Some(t)) => Stop::Time(t, from),
        _ => return None,
    };
    Some(Args {
        stop,
        threads,
        keep,
    })
}

/// Judges one scenario file as the swarm does; exit 1 on a breach.
fn replay(file: &str) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("outbox-sim: cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let s = match Scenario::from_json(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "outbox-sim: bad scenario in {file}: field `{}`: {}",
                e.field, e.message
            );
            return ExitCode::from(2);
        }
    };
    let j = swarm::check(&s);
    for o in &j.allowed {
        println!("allowed by the design: {}", o.name());
    }
    for b in &j.breaches {
        println!("BREACH {}: {}", b.outcome.name(), b.detail);
    }
    if j.breaches.is_empty() {
        println!("clean: the design's expected class holds");
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn run(a: &Args) -> ExitCode {
    let start = Instant::now();
    let first = match &a.stop {
        Stop::Seeds(r) => r.start,
        Stop::Time(_, from) => *from,
    };
    let shared = Shared {
        next: AtomicU64::new(first),
        done: AtomicU64::new(0),
        start,
        args: a,
    };
    let sums: Vec<Summary> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..a.threads)
            .map(|t| {
                let shared = &shared;
                scope.spawn(move || worker(t, shared))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a swarm thread"))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let mut sum = Summary::default();
    for s in sums {
        sum.merge(s);
    }
    if !sum.failures.is_empty() {
        let seeds: Vec<String> = sum.failures.iter().map(|f| f.seed.to_string()).collect();
        println!("failing seeds (each printed above): {}", seeds.join(", "));
    }
    print!("{}", sum.coverage_table());
    println!("outcomes the designs allow, seen:");
    for (o, n) in &sum.allowed {
        println!("  {:<16} {n}", o.name());
    }
    let per_second = sum.schedules as f64 / elapsed.max(1e-9);
    println!(
        "cost: {:.0} µs and {} steps per schedule on {} thread(s), {:.1} s",
        1e6 * elapsed * a.threads as f64 / sum.schedules.max(1) as f64,
        sum.steps / sum.schedules.max(1),
        a.threads,
        elapsed
    );
    println!("{}", sum.line(per_second));
    if sum.violations() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// One thread: chunks of seeds until the range or the time runs out.
/// What the threads share: the next seed, the schedules done, when the run started.
struct Shared<'a> {
    next: AtomicU64,
    done: AtomicU64,
    start: Instant,
    args: &'a Args,
}

/// One thread: chunks of seeds until the range or the time runs out. A failure is printed
/// (and kept) as soon as it is shrunk, so a long run loses none if it is stopped.
fn worker(t: usize, sh: &Shared) -> Summary {
    let (next, done, stop, start) = (&sh.next, &sh.done, &sh.args.stop, sh.start);
    let mut sum = Summary::default();
    let mut reported = Instant::now();
    loop {
        let from = next.fetch_add(CHUNK, Ordering::Relaxed);
        let to = match stop {
            Stop::Seeds(r) if from >= r.end => break,
            Stop::Seeds(r) => (from + CHUNK).min(r.end),
            Stop::Time(limit, _) if start.elapsed() >= *limit => break,
            Stop::Time(..) => from + CHUNK,
        };
        for seed in from..to {
            swarm::run_seed(seed, &mut sum);
            if sum.failures.last().is_some_and(|f| f.seed == seed) {
                print_failure(
                    &sum.failures[sum.failures.len() - 1],
                    sh.args.keep.as_deref(),
                );
            }
        }
        let total = done.fetch_add(to - from, Ordering::Relaxed) + (to - from);
        if t == 0 && reported.elapsed() >= PROGRESS {
            reported = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "swarm: {total} schedules in {secs:.0} s ({:.0}/s), {} violations here so far",
                total as f64 / secs,
                sum.violations()
            );
        }
    }
    sum
}

/// A failure: its seed, what broke, the shrunk scenario and the command replaying it.
/// One `println!` per failure, so threads' reports do not interleave.
fn print_failure(f: &swarm::Failure, keep: Option<&str>) {
    let json = serde_json::to_string_pretty(&f.shrunk).expect("scenario serialises");
    let head = format!(
        "VIOLATION seed {}: {} ({}); shrunk to size {}",
        f.seed,
        f.breach.outcome.name(),
        f.breach.detail,
        swarm::shrink::size(&f.shrunk)
    );
    match keep {
        Some(dir) => {
            let p = format!("{dir}/swarm-{}-{}.json", f.seed, f.breach.outcome.name());
            let written = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&p, &json));
            if let Err(e) = written {
                eprintln!("outbox-sim: cannot write {p}: {e}");
            }
            println!("{head}\n  replay: outbox-sim swarm --replay {p}");
        }
        None => println!(
            "{head}\n{json}\n  replay: save it as FILE, then outbox-sim swarm --replay FILE"
        ),
    }
}
