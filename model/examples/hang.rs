use outbox_model::world::CheckLevel;
use outbox_model::{Scenario, World};
fn main() {
    let text = std::fs::read_to_string("/tmp/case22.json").unwrap();
    let s = Scenario::from_json(&text).unwrap();
    let mut w = World::new(&s);
    w.check = CheckLevel::Full;
    w.cfg.log_cap = 100000;
    w.run(450);
    w.heal();
    let start = w.tick;
    while w.tick < start + 3000 && !w.settled() {
        w.step();
    }
    for p in &w.procs {
        println!(
            "{} alive={} pc={:?} tx={:?} blocked={:?} sleep={} mem={:?}",
            p.name, p.alive, p.pc, p.tx, p.blocked, p.sleep_until, p.mem
        );
    }
    println!(
        "queue {:?} jobs: {:?}",
        w.queue.health,
        w.queue
            .jobs()
            .map(|j| (j.event.0, j.state, j.worker, j.lock_until))
            .collect::<Vec<_>>()
    );
    for e in w
        .log
        .iter()
        .rev()
        .take(25)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        println!("{:>6} {:?} {:?} {:?}", e.tick, e.proc, e.step, e.note);
    }
    println!("tick {} settled {}", w.tick, w.settled());
}
