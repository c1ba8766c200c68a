//! Measures what bounds the page's replay: the cost of the worst log a link may carry
//! (`MAX_ATOMS` ticks of a world that never settles) and the log length of the page's
//! biggest legitimate run. Run by hand, in release:
//! `cargo run --release --example replay_cost`
//! (measured 2026-12-03: 4 M atoms in 0.38–0.47 s; 200 000 tasks stop at their tick limit
//! after ~1.0 M atoms).

use outbox_model::{preset, Action};
use outbox_playground::run::sim::{Input, Sim, MAX_ATOMS, MAX_PAGE_TASKS};

fn main() {
    let mut s = preset("poison-stall").expect("the poison preset exists");
    s.max_ticks = u64::MAX;
    let mut run = Sim::new(s).to_run();
    run.inputs = vec![Input::Ticks(MAX_ATOMS)];
    let t = std::time::Instant::now();
    let mut sim = Sim::from_run(&run).expect("a poison world never settles");
    println!("worst replay: {} atoms in {:?}", sim.pos(), t.elapsed());
    // The page records no more than a link may carry.
    assert!(sim.finished() && !sim.tick());
    assert!(sim.act(Action::QueueUp).is_err());
    let mut s = preset("canon-outbox").expect("the canon preset exists");
    s.workload.tasks = MAX_PAGE_TASKS;
    let mut sim = Sim::new(s);
    let t = std::time::Instant::now();
    sim.ticks(u64::MAX);
    println!(
        "{MAX_PAGE_TASKS} tasks: log {} atoms (settled: {}), run in {:?}",
        sim.pos(),
        sim.world().settled(),
        t.elapsed()
    );
}
