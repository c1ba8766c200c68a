//! Same scenario and seed → the same trace hash; a different seed → another interleaving.

use outbox_model::{preset, World};

fn hash(name: &str, seed: u64) -> (u64, u64) {
    let mut s = preset(name).unwrap();
    s.seed = seed;
    let mut w = World::new(&s);
    w.run(s.max_ticks);
    (w.trace_hash(), w.steps())
}

#[test]
fn same_seed_same_trace() {
    for name in [
        "canon-dual-write",
        "canon-outbox",
        "two-relays-skip-locked",
        "exercise-3",
    ] {
        assert_eq!(hash(name, 42), hash(name, 42), "{name}");
    }
}

#[test]
fn different_seed_different_interleaving() {
    assert_ne!(hash("canon-outbox", 1).0, hash("canon-outbox", 2).0);
}
