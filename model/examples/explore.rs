//! Runs the explorer over every design (or one: `explore DESIGN [tasks relays workers kills
//! [runs]]`) and prints each report, its counterexamples and the time taken.
//! `cargo run -p outbox-model --release --example explore -- outbox_inbox 3 2 1 2`
//! With `runs` > 1 the same search runs again in this process and each further run prints
//! `  again: time … s`: warm, like the worker's searches after its first (the page bench
//! compares the two this way).
use outbox_model::explore::{Bounds, Design, Explorer, Verdict};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let designs: Vec<Design> = match args.first() {
        Some(n) => vec![Design::from_name(n).expect("design name")],
        None => Design::all().to_vec(),
    };
    let mut b = Bounds::default();
    let num = |i: usize| args.get(i).map(|s| s.parse::<u32>().expect("number"));
    if let Some(v) = num(1) {
        b.tasks = v;
    }
    if let Some(v) = num(2) {
        b.relays = v as u8;
    }
    if let Some(v) = num(3) {
        b.workers = v as u8;
    }
    if let Some(v) = num(4) {
        b.max_kills = v;
    }
    let runs = num(5).unwrap_or(1).max(1);
    for d in designs {
        let s = d.scenario(&b);
        // One whole search: its explorer (for the report) and how long it took.
        let search = || {
            let t = Instant::now();
            let mut e = Explorer::new(&s, &b);
            e.run();
            (e, t.elapsed())
        };
        let (e, el) = search();
        let r = e.report();
        print!("{r}");
        println!(
            "  time {:.3} s, {:.0} states/s, lost_retracted {}",
            el.as_secs_f64(),
            r.states as f64 / el.as_secs_f64(),
            r.lost_retracted
        );
        for (p, v) in &r.properties {
            if let Verdict::Counterexample { trace: t, .. } = v {
                println!("--- {}:\n{}", p.name(), t);
            }
        }
        for _ in 1..runs {
            let (e, el) = search();
            assert_eq!(
                e.report().states,
                r.states,
                "the same search, the same states"
            );
            println!("  again: time {:.3} s", el.as_secs_f64());
        }
    }
}
