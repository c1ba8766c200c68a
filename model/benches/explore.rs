//! The explorer's budget (issue #8): 3 tasks × 2 relays × 1 worker with up to 2 kills,
//! the whole bounded space of the outbox + inbox design, under 1 s natively. Also the
//! whole crash-point matrix (five designs × every row). Prints states per second.

use criterion::{criterion_group, criterion_main, Criterion};
use outbox_model::explore::{crash_cell, matrix_rows, Bounds, Design, Explorer};
use std::time::{Duration, Instant};

fn perf_case(c: &mut Criterion) {
    let b = Bounds::default();
    let s = Design::OutboxInbox.scenario(&b);
    let t = Instant::now();
    let mut e = Explorer::new(&s, &b);
    e.run();
    let el = t.elapsed().as_secs_f64();
    let r = e.report();
    println!(
        "outbox+inbox 3×2×1, ≤2 kills: {} states, {} edges in {el:.3} s: {:.0} states/s, {:.0} edges/s",
        r.states,
        r.edges,
        r.states as f64 / el,
        r.edges as f64 / el
    );
    let mut g = c.benchmark_group("explore");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .warm_up_time(Duration::from_millis(1));
    g.bench_function(
        "outbox+inbox 3 tasks × 2 relays × 1 worker, ≤2 kills",
        |bch| {
            bch.iter(|| {
                let mut e = Explorer::new(&s, &b);
                e.run();
                assert_eq!(e.states(), 50_736);
                e.states()
            })
        },
    );
    g.bench_function("crash-point matrix (5 designs × every row)", |bch| {
        let rows = matrix_rows();
        bch.iter(|| {
            let mut n = 0;
            for d in Design::all() {
                for &row in &rows {
                    n += crash_cell(d, row).states;
                }
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, perf_case);
criterion_main!(benches);
