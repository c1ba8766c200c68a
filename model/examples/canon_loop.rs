//! Times a preset in a loop with each optional cost switched off in turn (a profiling aid).
use outbox_model::world::CheckLevel;
fn time(s: &outbox_model::Scenario, n: u32, check: CheckLevel, log: usize) -> std::time::Duration {
    let t = std::time::Instant::now();
    for _ in 0..n {
        let mut w = outbox_model::World::new(s);
        w.check = check;
        w.cfg.log_cap = log;
        w.run(s.max_ticks);
        std::hint::black_box(w.trace_hash);
    }
    t.elapsed() / n
}
fn main() {
    let s =
        outbox_model::preset(&std::env::args().nth(1).unwrap_or("canon-outbox".into())).unwrap();
    let n: u32 = std::env::args()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    println!("touched+log {:?}", time(&s, n, CheckLevel::Touched, 200));
    if std::env::args().nth(3).is_some() {
        return;
    }
    println!("touched     {:?}", time(&s, n, CheckLevel::Touched, 0));
    println!("off         {:?}", time(&s, n, CheckLevel::Off, 0));
    println!("full        {:?}", time(&s, n / 10, CheckLevel::Full, 0));
}
