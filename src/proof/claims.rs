//! The two bounded claims: dual write breaks (its shortest losing schedule, one click
//! from the playground), outbox + inbox holds over the whole bounded space.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{Bounds, Design, Explorer, Property, Report, Verdict};

use crate::browser::frames::{now_ms, owner_alive, run_in_tasks};
use crate::i18n::{group_digits, t, tr, use_i18n, Key, Lang, Reason};
use crate::playground::ctl::use_ctl;
use crate::proof::design::{design_key, load_trace};
use crate::proof::CHUNK;

fn verdict_text(lang: Lang, v: &Verdict) -> String {
    let n = |x: u128| group_digits(lang, x);
    match v {
        Verdict::Holds { states, schedules } => t(lang, Key::ProofHolds)
            .replace("{states}", &n(u128::from(*states)))
            .replace("{schedules}", &schedules.map_or_else(|| "∞".to_string(), n)),
        Verdict::Counterexample { trace, choices } => t(lang, Key::ProofBroken)
            .replace("{n}", &trace.actions.len().to_string())
            .replace("{choices}", &n(*choices as u128)),
    }
}

/// A property's column heading, in the counters' words where it is one of them.
fn property_key(p: Property) -> Key {
    match p {
        Property::Lost => Key::CLost,
        Property::DuplicateEffects => Key::CDupEffects,
        Property::Phantoms => Key::CPhantoms,
        Property::Conservation => Key::PropConservation,
        Property::Invariants => Key::PropInvariants,
    }
}

/// The two bounded searches the lesson's claim rests on.
const CLAIMS: [Design; 2] = [Design::DualWriteDbFirst, Design::OutboxInbox];

#[component]
pub fn Claims() -> impl IntoView {
    let i18n = use_i18n();
    let owner = owner_alive();
    let reports = RwSignal::new(vec![None::<Report>; CLAIMS.len()]);
    let progress = RwSignal::new(None::<(u64, f64)>);
    let running = RwSignal::new(false);
    let start = move |_| run_claims(owner.clone(), reports, progress, running);
    let rows = CLAIMS
        .iter()
        .enumerate()
        .map(|(i, d)| claim_row(i, *d, reports))
        .collect_view();
    let rate = move || progress.get().map(|p| progress_text(i18n.lang(), p));
    let bounds = move || bounds_text(i18n.lang(), &Bounds::default());
    view! {
        <div class="proof__claims">
            <p>{bounds}</p>
            <p class="proof__explain">{tr(Key::ProofExplain)}</p>
            <button type="button" data-testid="proof-run" disabled=move || running.get() on:click=start>{tr(Key::ProofRun)}</button>
            <p data-testid="proof-progress" aria-live="polite">{rate}</p>
            <div class="proof__scroll" tabindex="0" role="region" aria-label=tr(Key::MatrixHeading)>
                <table class="proof__table">
                    <thead><tr><th></th>{Property::all().into_iter().map(|p| view! { <th scope="col" title=p.name()>{tr(property_key(p))}</th> }).collect_view()}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
}

/// Runs both searches one after the other, in tasks, reporting as each ends.
fn run_claims(
    owner: Rc<Cell<bool>>,
    reports: RwSignal<Vec<Option<Report>>>,
    progress: RwSignal<Option<(u64, f64)>>,
    running: RwSignal<bool>,
) {
    if running.get_untracked() {
        return;
    }
    running.set(true);
    reports.set(vec![None; CLAIMS.len()]);
    let b = Bounds::default();
    let mut explorers: Vec<Explorer> = CLAIMS
        .iter()
        .map(|d| Explorer::new(&d.scenario(&b), &b))
        .collect();
    let mut at = 0usize;
    let t0 = now_ms();
    run_in_tasks(owner, move |deadline| {
        while at < explorers.len() && now_ms() < deadline {
            let done = explorers[at].run_slice(CHUNK);
            if done {
                let r = explorers[at].report();
                reports.update(|v| v[at] = Some(r));
                at += 1;
            }
        }
        let states: u64 = explorers.iter().map(|j| j.states()).sum();
        progress.set(Some((states, now_ms() - t0)));
        let more = at < explorers.len();
        if !more {
            running.set(false);
        }
        more
    });
}

/// One design's row: a cell per property, its verdict (a broken one loads its trace).
fn claim_row(i: usize, d: Design, reports: RwSignal<Vec<Option<Report>>>) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let report = move || reports.with(|v| v[i].clone());
    view! {
        <tr data-testid=format!("claim-{}", d.name())>
            <th scope="row">{move || i18n.t(design_key(d))}</th>
            {Property::all().into_iter().map(|p| view! {
                <td data-testid=format!("claim-{}-{}", d.name(), p.name())
                    data-holds=move || report().map(|r| r.holds(p).to_string()).unwrap_or_default()>
                    {move || report().map(|r| {
                        let v = r.verdict(p).clone();
                        let text = verdict_text(i18n.lang(), &v);
                        match v {
                            Verdict::Counterexample { trace, .. } => view! {
                                <button type="button" class="proof__load" data-testid=format!("claim-load-{}-{}", d.name(), p.name())
                                    on:click={
                                        let what = Reason::new(Key::TraceLoadedClaim)
                                            .arg("design", d.name())
                                            .arg("property", p.name());
                                        move |_| load_trace(ctl, &trace, what.clone())
                                    }>{text}</button>
                            }.into_any(),
                            Verdict::Holds { .. } => view! { <span class="proof__holds">{text}</span> }.into_any(),
                        }
                    })}
                </td>
            }).collect_view()}
        </tr>
    }
}

/// "{states} states in {ms} ms ({rate}/s)".
fn progress_text(lang: Lang, (states, ms): (u64, f64)) -> String {
    let per_s = if ms > 0.0 {
        (states as f64 * 1000.0 / ms) as u64
    } else {
        0
    };
    // The milliseconds stay ungrouped: benches/page.rs reads them back.
    t(lang, Key::ProofProgress)
        .replace("{states}", &group_digits(lang, u128::from(states)))
        .replace("{ms}", &(ms.round() as u64).to_string())
        .replace("{rate}", &group_digits(lang, u128::from(per_s)))
}

fn bounds_text(lang: Lang, b: &Bounds) -> String {
    t(lang, Key::ProofBounds)
        .replace("{tasks}", &b.tasks.to_string())
        .replace("{relays}", &b.relays.to_string())
        .replace("{workers}", &b.workers.to_string())
        .replace("{kills}", &b.max_kills.to_string())
}
