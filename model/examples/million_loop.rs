//! Runs the bench's million scenario with N tasks (default 1 000 000) and prints the time.
use outbox_model::{Scenario, World};
fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let mut s = Scenario {
        name: "million".into(),
        seed: 7,
        ..Scenario::default()
    };
    s.workload.tasks = n;
    s.config.queue.remove_on_complete = true;
    s.config.log_cap = 0;
    s.max_ticks = u64::MAX;
    let t = std::time::Instant::now();
    let mut w = World::new(&s);
    w.run(s.max_ticks);
    println!(
        "{n} tasks: {:?}, effects {}, trace {:x}",
        t.elapsed(),
        w.counters().effects,
        w.trace_hash()
    );
}
