//! SKIP LOCKED's reason on screen (#43): in a run with two relays or more, each relay's
//! ticks waited on a row lock and the events published per 100 ticks, as tiles among the
//! small counters. With plain FOR UPDATE the end counts equal SKIP LOCKED's (the model
//! steps one process a tick), so these are what differs.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{use_i18n, Key};

/// One relay's name and its lock waits.
fn waits(w: &outbox_model::World) -> Vec<(String, u64)> {
    let t = w.tally();
    w.procs()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == outbox_model::world::ProcKind::Relay)
        .map(|(i, p)| {
            let ticks = t.relay(i as u8).map_or(0, |r| r.lock_wait_ticks);
            (p.name.clone(), ticks)
        })
        .collect()
}

#[component]
pub fn RelayLocks() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let shown = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.config.relays >= 2)
    };
    // The counters' memo follows every frame: read the tally with it.
    let numbers = move || {
        let tick = ctl.counters.with(|c| c.tick);
        ctl.with_world(|w| (waits(w), w.tally().published_per_100_ticks(tick)))
    };
    let tiles = move || {
        let (relays, rate) = numbers();
        let mut v: Vec<_> = relays
            .into_iter()
            .map(|(name, ticks)| {
                let label = i18n.t(Key::CRelayLockWait).replace("{relay}", &name);
                (format!("lock-wait-{name}"), ticks, label)
            })
            .collect();
        v.push(("throughput".into(), rate, i18n.t(Key::CThroughput).into()));
        v.into_iter()
            .map(|(id, value, label)| {
                view! {
                    <div class="counter counter--small counter--neutral">
                        <span class="counter__value" data-testid=id>{value.to_string()}</span>
                        <span class="counter__label">{label}</span>
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=shown>
            // Tiles of the small counters' row (the wrapper draws no box of its own): the
            // row keeps its place in every layout, and a phone shows it under "more".
            <div class="counters__relays" data-testid="relay-locks">
                {tiles}
            </div>
        </Show>
    }
}
