//! The explorer's reductions (forced steps, relay symmetry, idle kills left out, a kill's
//! restart right after it, idle polls held back) reach exactly the outcomes of the plain
//! search over single actions, and give the same verdicts.

use outbox_model::explore::{Bounds, Design, Explorer, Property};

fn compare(d: Design, b: &Bounds) -> (u64, u64) {
    let s = d.scenario(b);
    let mut r = Explorer::new(&s, b);
    r.collect_outcomes();
    r.run();
    let mut u = Explorer::unreduced(&s, b);
    u.collect_outcomes();
    u.run();
    let (rr, ur) = (r.report(), u.report());
    assert_eq!(rr.cut, 0, "{}", rr);
    assert_eq!(ur.cut, 0, "{}", ur);
    assert_eq!(
        r.outcomes().unwrap(),
        u.outcomes().unwrap(),
        "{}: terminal outcomes differ",
        d.name()
    );
    for p in Property::all() {
        assert_eq!(rr.holds(p), ur.holds(p), "{}: {}", d.name(), p.name());
    }
    assert!(
        rr.states < ur.states,
        "{}: reduced {} vs unreduced {}",
        d.name(),
        rr.states,
        ur.states
    );
    (rr.states, ur.states)
}

/// Every design at these bounds (one worker), reduced against unreduced.
fn compare_all(tasks: u32, relays: u8, max_kills: u32) {
    let b = Bounds {
        tasks,
        relays,
        workers: 1,
        max_kills,
        max_depth: 200,
    };
    for d in Design::all() {
        let (r, u) = compare(d, &b);
        println!("{}: reduced {r} states, unreduced {u}", d.name());
    }
}

#[test]
fn reductions_keep_every_outcome_one_relay() {
    compare_all(2, 1, 1);
}

#[test]
fn reductions_keep_every_outcome_two_relays_two_kills() {
    compare_all(1, 2, 2);
}

#[test]
fn reductions_keep_every_outcome_two_tasks_two_relays() {
    compare_all(2, 2, 1);
}
