//! The two bounded claims: dual write breaks (its shortest losing schedule, one click
//! from the playground), outbox + inbox holds over the whole bounded space. Both run in
//! the pool's Web Workers (`proof::pool`); a row's `data-search-ms` is the worker's own time.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{Bounds, Design, Property, Search, Verdict};

use crate::browser::slices::now_ms;
use crate::ctl::use_ctl;
use crate::i18n::{group_digits, t, tr, use_i18n, Key, Lang, Reason};
use crate::proof::design::{design_key, load_trace, worker_key};
use crate::proof::pool::{Group, Pool};
use crate::proof::reply::{Found, Reply};

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
        Property::RetriedOnce => Key::PropRetriedOnce,
    }
}

/// The two bounded searches the lesson's claim rests on.
const CLAIMS: [Design; 2] = [Design::DualWriteDbFirst, Design::OutboxInbox];

#[component]
pub fn Claims() -> impl IntoView {
    let i18n = use_i18n();
    let pool = use_context::<Pool>().expect("Claims is inside Proof, which provides the pool");
    let reports = RwSignal::new(vec![None::<Verdicts>; CLAIMS.len()]);
    let search_ms = RwSignal::new(vec![None::<u64>; CLAIMS.len()]);
    let progress = RwSignal::new(None::<(u64, f64)>);
    let running = RwSignal::new(false);
    let start = move |_| run_claims(pool, reports, search_ms, progress, running);
    let stop = move |_| {
        pool.cancel(GROUP);
        running.set(false);
    };
    let rows = CLAIMS
        .iter()
        .enumerate()
        .map(|(i, d)| claim_row(i, *d, reports, search_ms))
        .collect_view();
    let rate = move || progress.get().map(|p| progress_text(i18n.lang(), p));
    let bounds = move || bounds_text(i18n.lang(), &Bounds::default());
    view! {
        <div class="proof__claims">
            <p data-testid="proof-bounds">{bounds}</p>
            <p class="proof__explain">{tr(Key::ProofExplain)}</p>
            <p class="proof__explain" data-testid="proof-legend">{tr(Key::ProofLegend)}</p>
            <button type="button" data-testid="proof-run" disabled=move || running.get() on:click=start>{tr(Key::ProofRun)}</button>
            <button type="button" data-testid="proof-stop" hidden=move || !running.get() on:click=stop>{tr(Key::ProofStop)}</button>
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

/// A claim's answer: each property's verdict.
type Verdicts = Vec<(Property, Verdict)>;

fn verdict_of(r: &Verdicts, p: Property) -> Option<&Verdict> {
    r.iter().find(|(q, _)| *q == p).map(|(_, v)| v)
}

/// The claims' searches in the pool.
const GROUP: Group = "claims";

/// Sends both searches to the pool; each row fills in as its answer comes, the progress
/// line counts both searches' states from the click.
fn run_claims(
    pool: Pool,
    reports: RwSignal<Vec<Option<Verdicts>>>,
    search_ms: RwSignal<Vec<Option<u64>>>,
    progress: RwSignal<Option<(u64, f64)>>,
    running: RwSignal<bool>,
) {
    if running.get_untracked() {
        return;
    }
    running.set(true);
    reports.set(vec![None; CLAIMS.len()]);
    search_ms.set(vec![None; CLAIMS.len()]);
    let states = Rc::new(RefCell::new(vec![0u64; CLAIMS.len()]));
    let t0 = now_ms();
    let on_reply = move |i: usize, reply: Reply| {
        match reply {
            Reply::Progress { states: n } => states.borrow_mut()[i] = n,
            Reply::Done {
                states: n,
                search_ms: ms,
                answer,
            } => {
                states.borrow_mut()[i] = n;
                if let Found::Claim(r) = answer {
                    reports.update(|v| v[i] = Some(r));
                }
                search_ms.update(|v| v[i] = Some(ms));
            }
            Reply::Failed { .. } => running.set(false),
            Reply::Ready => {}
        }
        let total: u64 = states.borrow().iter().sum();
        progress.set(Some((total, now_ms() - t0)));
        if reports.with_untracked(|v| v.iter().all(Option::is_some)) {
            running.set(false);
        }
    };
    let searches = CLAIMS
        .iter()
        .map(|&design| Search::Claim { design })
        .collect();
    pool.submit(GROUP, searches, Rc::new(on_reply));
}

/// One design's row: a cell per property, its verdict (a broken one loads its trace).
fn claim_row(
    i: usize,
    d: Design,
    reports: RwSignal<Vec<Option<Verdicts>>>,
    search_ms: RwSignal<Vec<Option<u64>>>,
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let report = move || reports.with(|v| v[i].clone());
    view! {
        <tr data-testid=format!("claim-{}", d.name())
            data-search-ms=move || search_ms.with(|v| v[i].map(|ms| ms.to_string()))>
            <th scope="row">
                {move || i18n.t(design_key(d))}
                <small class="proof__worker" data-testid=format!("claim-worker-{}", d.name())>{move || i18n.t(worker_key(d))}</small>
            </th>
            {Property::all().into_iter().map(|p| view! {
                <td data-testid=format!("claim-{}-{}", d.name(), p.name())
                    data-holds=move || report().and_then(|r| verdict_of(&r, p).map(|v| matches!(v, Verdict::Holds { .. }).to_string())).unwrap_or_default()>
                    {move || report().and_then(|r| verdict_of(&r, p).cloned()).map(|v| {
                        let text = verdict_text(i18n.lang(), &v);
                        match v {
                            Verdict::Counterexample { trace, .. } => view! {
                                <button type="button" class="proof__load" data-testid=format!("claim-load-{}-{}", d.name(), p.name())
                                    on:click={
                                        // Named as the page names designs and properties.
                                        move |_| {
                                            let what = Reason::new(Key::TraceLoadedClaim)
                                                .arg("design", i18n.t(design_key(d)))
                                                .arg("property", i18n.t(property_key(p)));
                                            load_trace(ctl, &trace, what)
                                        }
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
    // The milliseconds stay ungrouped: benches/page/proof.rs reads them back.
    t(lang, Key::ProofProgress)
        .replace("{states}", &group_digits(lang, u128::from(states)))
        .replace("{ms}", &(ms.round() as u64).to_string())
        .replace("{rate}", &group_digits(lang, u128::from(per_s)))
}

/// The bounds, and every setting of the claims' worlds that is not a BullMQ or
/// PostgreSQL default (read from the model's designs, so the line cannot drift from them).
fn bounds_text(lang: Lang, b: &Bounds) -> String {
    let mut departures: Vec<_> = CLAIMS.iter().flat_map(|d| d.departures(b)).collect();
    departures.dedup();
    let list = departures
        .iter()
        .map(|d| format!("{} {} ({})", d.name, d.value, d.default))
        .collect::<Vec<_>>()
        .join(", ");
    let msc = Design::OutboxInbox
        .scenario(b)
        .config
        .queue
        .max_stalled_count;
    let bounds = t(lang, Key::ProofBounds)
        .replace("{tasks}", &b.tasks.to_string())
        .replace("{relays}", &b.relays.to_string())
        .replace("{workers}", &b.workers.to_string())
        .replace("{kills}", &b.max_kills.to_string());
    let rest = t(lang, Key::ProofDepartures)
        .replace("{list}", &list)
        .replace("{msc}", &msc.to_string());
    format!("{bounds} {rest}")
}
