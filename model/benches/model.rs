//! Model throughput budgets (issue 3): the canon outbox scenario (100 tasks through the
//! whole pipeline) under 200 µs, and 1 000 000 tasks under 3 s. The million run also
//! prints its peak memory (VmHWM) so the 200 MB budget can be read off the output.

use criterion::{criterion_group, criterion_main, Criterion};
use outbox_model::{preset, Scenario, World};
use std::time::{Duration, Instant};

fn canon(c: &mut Criterion) {
    let s = preset("canon-outbox").expect("preset");
    c.bench_function("canon-outbox (100 tasks)", |b| {
        b.iter(|| {
            let mut w = World::new(&s);
            w.run(s.max_ticks);
            assert_eq!(w.counters().queue_jobs, 100);
            w.trace_hash()
        })
    });
}

fn million_scenario() -> Scenario {
    let mut s = Scenario {
        name: "million".into(),
        seed: 7,
        ..Scenario::default()
    };
    s.workload.tasks = 1_000_000;
    s.config.queue.remove_on_complete = true;
    s.config.log_cap = 0;
    s.max_ticks = u64::MAX;
    s
}

fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn million(c: &mut Criterion) {
    let s = million_scenario();
    let mut g = c.benchmark_group("million");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_millis(1));
    g.bench_function("outbox 1M tasks", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                let mut w = World::new(&s);
                w.run(s.max_ticks);
                total += t.elapsed();
                assert_eq!(w.counters().effects, 1_000_000);
            }
            total
        })
    });
    g.finish();
    if let Some(kb) = peak_rss_kb() {
        println!("million: peak resident memory {:.1} MB", kb as f64 / 1024.0);
    }
}

criterion_group!(benches, canon, million);
criterion_main!(benches);
