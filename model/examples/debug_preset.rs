//! Prints a preset's log and violations: `cargo run -p outbox-model --example debug_preset -- NAME [FROM_TICK]`.
use outbox_model::world::CheckLevel;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut s = outbox_model::preset(&args[1]).expect("preset");
    s.config.log_cap = 10_000;
    let from: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut w = outbox_model::World::new(&s);
    w.set_check_level(CheckLevel::Full);
    w.run(s.max_ticks);
    for e in w.log_entries().iter().filter(|e| e.tick >= from) {
        let who = e
            .proc
            .map(|p| w.procs()[p.0 as usize].name.as_str())
            .unwrap_or("-");
        println!(
            "{:>6} {:<9} {:<14} {:?}",
            e.tick,
            who,
            e.step.map(|s| format!("{s:?}")).unwrap_or_default(),
            e.note
        );
    }
    println!("{:?}", w.violations());
}
