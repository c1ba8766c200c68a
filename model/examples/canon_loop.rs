//! Times a preset in a loop with each optional cost switched off in turn (a profiling aid).
//! `canon_loop PRESET N [MODE]`: MODE is one of `log` (Touched with the preset's log, what
//! the bench runs), `touched` (no log), `off`, `full`; without it all four are timed.
//! Any other third argument (the old `x`) means `log`.
use outbox_model::world::CheckLevel;
fn time(
    s: &outbox_model::Scenario,
    n: u32,
    check: CheckLevel,
    log: Option<usize>,
) -> std::time::Duration {
    let t = std::time::Instant::now();
    let mut s = s.clone();
    if let Some(l) = log {
        s.config.log_cap = l;
    }
    for _ in 0..n {
        let mut w = outbox_model::World::new(&s);
        w.set_check_level(check);
        w.run(s.max_ticks);
        std::hint::black_box(w.trace_hash());
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
    match std::env::args().nth(3).as_deref() {
        None => {}
        Some("touched") => {
            return println!(
                "touched     {:?}",
                time(&s, n, CheckLevel::Touched, Some(0))
            )
        }
        Some("off") => return println!("off         {:?}", time(&s, n, CheckLevel::Off, Some(0))),
        Some("full") => {
            return println!("full        {:?}", time(&s, n, CheckLevel::Full, Some(0)))
        }
        Some(_) => return println!("touched+log {:?}", time(&s, n, CheckLevel::Touched, None)),
    }
    println!("touched+log {:?}", time(&s, n, CheckLevel::Touched, None));
    println!(
        "touched     {:?}",
        time(&s, n, CheckLevel::Touched, Some(0))
    );
    println!("off         {:?}", time(&s, n, CheckLevel::Off, Some(0)));
    println!(
        "full        {:?}",
        time(&s, n / 10, CheckLevel::Full, Some(0))
    );
}
