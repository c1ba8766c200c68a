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

#[test]
fn reductions_keep_every_outcome_one_relay() {
    let b = Bounds {
        tasks: 2,
        relays: 1,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    };
    for d in Design::all() {
        let (r, u) = compare(d, &b);
        println!("{}: reduced {r} states, unreduced {u}", d.name());
    }
}

#[test]
fn reductions_keep_every_outcome_two_relays_two_kills() {
    let b = Bounds {
        tasks: 1,
        relays: 2,
        workers: 1,
        max_kills: 2,
        max_depth: 200,
    };
    for d in Design::all() {
        let (r, u) = compare(d, &b);
        println!("{}: reduced {r} states, unreduced {u}", d.name());
    }
}

#[test]
fn reductions_keep_every_outcome_two_tasks_two_relays() {
    let b = Bounds {
        tasks: 2,
        relays: 2,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    };
    for d in Design::all() {
        let (r, u) = compare(d, &b);
        println!("{}: reduced {r} states, unreduced {u}", d.name());
    }
}
