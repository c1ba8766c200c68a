//! Lockstep's table: the compared counters, a column per design; a value that differs
//! from the first design's is marked, and so is any loss or duplicate.

use leptos::prelude::*;
use outbox_model::explore::Design;
use outbox_model::Counters;

use crate::i18n::{use_i18n, Key};
use crate::proof::design::design_key;

/// A compared counter: its JSON name, its label, how to read it.
pub type Row = (&'static str, Key, fn(&Counters) -> u64);

/// The counters compared.
pub const ROWS: [Row; 6] = [
    ("tasks_in_db", Key::LsTasks, |c| c.tasks_in_db),
    ("queue_jobs", Key::LsJobs, |c| c.queue_jobs),
    ("effects", Key::LsEffects, |c| c.effects),
    ("lost", Key::LsLost, |c| c.lost),
    ("duplicate_effects", Key::LsDupEffects, |c| {
        c.duplicate_effects
    }),
    ("phantoms", Key::LsPhantoms, |c| c.phantoms),
];

#[component]
pub fn LockstepTable(counters: RwSignal<Vec<(Design, Counters, bool)>>) -> impl IntoView {
    let i18n = use_i18n();
    move || {
        let cs = counters.get();
        (!cs.is_empty()).then(|| {
                let head = cs.iter().map(|(d, _, settled)| {
                    let (d, settled) = (*d, *settled);
                    view! { <th scope="col">{move || i18n.t(design_key(d))}{if settled { " ✓" } else { "" }}</th> }
                }).collect_view();
                let body = ROWS.iter().map(|(name, key, get)| {
                    let first = get(&cs[0].1);
                    let cells = cs.iter().map(|(d, c, _)| {
                        let v = get(c);
                        let differs = v != first;
                        let bad = v > 0 && matches!(*name, "lost" | "duplicate_effects" | "phantoms");
                        view! {
                            <td class:lockstep__differs=differs class:lockstep__bad=bad data-testid=format!("ls-{}-{}", d.name(), name)>{v}</td>
                        }
                    }).collect_view();
                    let key = *key;
                    view! { <tr><th scope="row">{move || i18n.t(key)}</th>{cells}</tr> }
                }).collect_view();
                view! {
                    <table class="lockstep__table" data-testid="lockstep-table">
                        <thead><tr><th></th>{head}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                }
            })
    }
}
