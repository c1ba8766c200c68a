//! Runs random scenarios and reports slow ones (a development aid).
use outbox_model::rng::Rng;
use outbox_model::scenario::{Timed, When};
use outbox_model::world::CheckLevel;
use outbox_model::{Action, Scenario, Step, World};
fn main() {
    let mut r = Rng::new(1);
    for case in 0..200 {
        let mut s = Scenario {
            seed: r.next_u64(),
            ..Scenario::default()
        };
        s.workload.tasks = 1 + r.below(24) as u32;
        s.config.relays = 1 + r.below(2) as u8;
        s.config.workers = 1 + r.below(2) as u8;
        s.config.relay.partiya = 1 + r.below(7) as u32;
        s.config.relay.poll_interval_ticks = 1 + r.below(29);
        let names = outbox_model::world::proc_names(&s.config, false);
        for _ in 0..r.below(12) {
            let at = r.below(400);
            let p = names[r.below(names.len() as u64) as usize].clone();
            let a = match r.below(5) {
                0 | 1 => Action::Kill { process: p },
                2 => Action::ArmKill {
                    process: p,
                    step: Step::Commit,
                    when: When::Nth { n: 1 },
                    times: Some(1),
                },
                3 => Action::QueueDown {
                    hang: r.below(2) == 0,
                },
                _ => Action::QueueUp,
            };
            s.schedule.push(Timed {
                at_tick: at,
                action: a,
            });
        }
        eprintln!("case {case} {}", s.to_json());
        let t0 = std::time::Instant::now();
        let mut w = World::new(&s);
        w.check = CheckLevel::Full;
        w.run(450);
        let t1 = t0.elapsed();
        w.heal();
        w.run(w.tick + 20_000);
        let t2 = t0.elapsed();
        if t2.as_millis() > 200 || !w.settled() {
            println!(
                "case {case}: {:?} {:?} settled={} tick={} steps={} {:?}",
                t1,
                t2,
                w.settled(),
                w.tick,
                w.steps,
                w.counters()
            );
            println!("{}", s.to_json());
            break;
        }
    }
    println!("done");
}
