//! `outbox-model`: a pure, deterministic model of the transactional outbox.
//!
//! The world holds PostgreSQL (tasks, outbox, inbox), a BullMQ-like queue, and processes —
//! client, API, relays, workers — written as programs of labelled steps. Every label is a
//! kill point. Faults are actions. One seeded PRNG decides the interleaving, so a scenario
//! and its seed replay exactly. An auditor, kept apart from the process code, keeps each
//! event's life and the counters the page shows: lost, duplicated, phantom.

/// `Clone` for a struct, field by field, with a `clone_from` that hands each field its
/// own `clone_from`: a `Vec` refills its buffer instead of allocating a new one. The
/// explorer recycles the worlds of merged states with it (most of its time went to malloc
/// and free). The struct literal in `clone` lists every field, so a field added to the
/// struct but not here is a compile error, not a field silently left stale.
/// `refill { fields }`: `Vec`, `VecDeque`, `BTreeMap` and `BTreeSet` fields (or arrays of
/// them), refilled by [`Refill`] rather than by their own `clone_from`.
/// `then method(fields)`: those fields are cloned as usual, but `clone_from` leaves them
/// to `self.method(source)`; `clone_fields_from` then refills every field but them.
macro_rules! clone_reusing {
    ($t:ident { $($f:ident),* $(,)? }
     $(refill { $($d:ident),* $(,)? })?
     $(then $m:ident($($g:ident),*))?) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t {
                    $($f: self.$f.clone(),)*
                    $($($d: self.$d.clone(),)*)?
                    $($($g: self.$g.clone(),)*)?
                }
            }
            fn clone_from(&mut self, source: &Self) {
                self.clone_fields_from(source);
                $(self.$m(source);)?
            }
        }

        impl $t {
            /// `clone_from` but for the fields its `then` method refills.
            #[inline(always)]
            pub(crate) fn clone_fields_from(&mut self, source: &Self) {
                $(self.$f.clone_from(&source.$f);)*
                $($(crate::Refill::refill(&mut self.$d, &source.$d);)*)?
            }
        }
    };
}

/// `clone_from` for the `refill` fields of `clone_reusing!`. std's `VecDeque::clone_from`
/// keeps the buffer too, but refills it through a generic `extend` of a cloning iterator,
/// ~70 instructions even for an empty deque (the explorer refilled ~560 000 deques in the
/// pinned search, nearly all empty); this one returns at once for an empty source and
/// hands the kept elements their own `clone_from` (a `WalRecord` keeps its list).
/// `Vec::clone_from` of `Copy` items calls `memcpy` whatever the length: most of a
/// world's ~60 lists are empty in the explorer (a transaction's seven, a relay's five),
/// and each was a call.
pub(crate) trait Refill {
    fn refill(&mut self, source: &Self);
}

/// A map's `clone_from` is a new clone and a drop of the old map, even when both are
/// empty, as the explorer's worlds' five maps nearly always are: then nothing is done.
impl<K: Clone + Ord, V: Clone> Refill for std::collections::BTreeMap<K, V> {
    #[inline]
    fn refill(&mut self, source: &Self) {
        if !(source.is_empty() && self.is_empty()) {
            self.clone_from(source);
        }
    }
}

impl<T: Clone + Ord> Refill for std::collections::BTreeSet<T> {
    #[inline]
    fn refill(&mut self, source: &Self) {
        if !(source.is_empty() && self.is_empty()) {
            self.clone_from(source);
        }
    }
}

impl<T: Clone> Refill for Vec<T> {
    #[inline]
    fn refill(&mut self, source: &Self) {
        if source.is_empty() {
            self.clear();
        } else {
            self.clone_from(source);
        }
    }
}

impl<T: Clone> Refill for std::collections::VecDeque<T> {
    #[inline]
    fn refill(&mut self, source: &Self) {
        if source.is_empty() {
            self.clear();
            return;
        }
        self.truncate(source.len());
        let kept = self.len();
        for (a, b) in self.iter_mut().zip(source) {
            a.clone_from(b);
        }
        self.extend(source.range(kept..).cloned());
    }
}

/// A list of lists (the relays' poll histories): each inner list refilled in place.
pub(crate) fn refill_nested<T: Clone>(a: &mut Vec<Vec<T>>, source: &[Vec<T>]) {
    a.truncate(source.len());
    let kept = a.len();
    for (x, y) in a.iter_mut().zip(source) {
        x.refill(y);
    }
    a.extend(source[kept..].iter().cloned());
}

impl<T: Refill, const N: usize> Refill for [T; N] {
    #[inline]
    fn refill(&mut self, source: &Self) {
        for (a, b) in self.iter_mut().zip(source) {
            a.refill(b);
        }
    }
}

pub mod action;
pub mod auditor;
pub mod challenge;
pub mod db;
pub mod explore;
pub mod happened;
pub mod ids;
pub mod json_edit;
pub mod lesson;
mod prefetch;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod sql;
pub mod swarm;
pub mod view;
pub mod world;

pub use auditor::Class;
pub use ids::{EventId, EventKind, ProcId};
pub use scenario::presets::{preset, presets};
pub use scenario::Scenario;
pub use world::{Action, CheckLevel, Counters, Step, World};

/// Runs a scenario to its end and returns the world.
pub fn run(s: &Scenario) -> World {
    let mut w = World::new(s);
    w.run(s.max_ticks);
    w
}

#[cfg(test)]
mod refill_tests {
    use super::Refill;
    use std::collections::{BTreeMap, BTreeSet, VecDeque};

    /// A refilled deque, list, map or set equals its source, whatever either held (a deque
    /// wrapped around too); a deque or list keeps its buffer when it is big enough.
    #[test]
    fn refill_equals_the_source_and_keeps_the_buffer() {
        for from in 0..6usize {
            for to in 0..6usize {
                let mut a: VecDeque<Vec<u32>> = VecDeque::with_capacity(8);
                a.extend((0..from as u32).map(|i| vec![i; 3]));
                let mut b: VecDeque<Vec<u32>> = VecDeque::new();
                b.extend((0..to as u32 + 2).map(|i| vec![i + 10; i as usize]));
                b.pop_front();
                b.pop_front();
                b.push_front(vec![7]);
                b.pop_front();
                let buffer = a.capacity();
                a.refill(&b);
                assert_eq!(a, b, "{from} -> {to}");
                assert_eq!(a.capacity(), buffer);
                let mut pair = [a.clone(), VecDeque::new()];
                pair.refill(&[VecDeque::new(), b.clone()]);
                assert_eq!(pair, [VecDeque::new(), b.clone()]);
                let mut list: Vec<Vec<u32>> = Vec::with_capacity(8);
                list.extend(a);
                let want: Vec<Vec<u32>> = b.into();
                list.refill(&want);
                assert_eq!(list, want);
                assert_eq!(list.capacity(), 8);
                let map = |n: usize| (0..n as u32).map(|i| (i, vec![i])).collect();
                let (mut m, source): (BTreeMap<u32, Vec<u32>>, _) = (map(from), map(to));
                m.refill(&source);
                assert_eq!(m, source);
                let mut lists: Vec<Vec<u32>> = vec![vec![1; from]; from];
                let source = vec![vec![2; to]; to];
                crate::refill_nested(&mut lists, &source);
                assert_eq!(lists, source);
                let set = |n: usize| (0..n as u32).collect();
                let (mut s, source): (BTreeSet<u32>, _) = (set(from), set(to));
                s.refill(&source);
                assert_eq!(s, source);
            }
        }
    }
}
