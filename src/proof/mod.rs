//! "Prove it": the explorer in the page. Every interleaving and crash point of a small
//! world is searched (in slices, so the page keeps drawing): dual write yields its
//! shortest losing schedule, outbox + inbox holds over the whole space. Below, the
//! crash-point matrix — every labelled step × the five designs — where a cell loads its
//! shortest trace into the playground.

pub mod lockstep;
pub mod trace_io;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{
    crash_explorer, matrix_rows, Bounds, Cell as MatrixCell, CellOutcome, Design, Explorer,
    Property, Report, Trace, Verdict,
};
use outbox_model::world::ProcKind;
use outbox_model::Step;

use crate::browser::frames::{now_ms, owner_alive, run_in_tasks};
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{t, tr, use_i18n, Key, Lang};
use crate::playground::ctl::{use_ctl, Ctl, Notice};
use crate::run::sim::Sim;

/// States explored between two looks at the clock.
const CHUNK: usize = 64;

pub fn design_key(d: Design) -> Key {
    match d {
        Design::DualWriteDbFirst => Key::DesignDualDbFirst,
        Design::DualWriteQueueFirst => Key::DesignDualQueueFirst,
        Design::OutboxAtMostOnce => Key::DesignAtMostOnce,
        Design::Outbox => Key::DesignOutbox,
        Design::OutboxInbox => Key::DesignOutboxInbox,
    }
}

fn outcome_key(o: CellOutcome) -> Key {
    match o {
        CellOutcome::Lost => Key::CellLost,
        CellOutcome::DuplicateEffect => Key::CellDupEffect,
        CellOutcome::Phantom => Key::CellPhantom,
        CellOutcome::DuplicateDelivery => Key::CellDupDelivery,
        CellOutcome::Fine => Key::CellFine,
        CellOutcome::NotApplicable => Key::CellNa,
    }
}

/// Puts a trace into the playground, at its end, ready to step back through.
pub fn load_trace(ctl: Ctl, trace: &Trace) {
    let mut s = trace.scenario.clone();
    // The explorer keeps no log (it is history, not state); the page shows one.
    s.config.log_cap = s.config.log_cap.max(200);
    let built = Sim::check(&s).map_err(|e| e.to_string()).and_then(|_| {
        let mut sim = Sim::new(s);
        for a in &trace.actions {
            sim.act(a.clone())?;
        }
        Ok(sim)
    });
    match built {
        Ok(sim) => {
            ctl.replace(sim);
            if let Some(el) = document()
                .query_selector("[data-testid=counters]")
                .ok()
                .flatten()
            {
                el.scroll_into_view();
            }
        }
        Err(why) => ctl.notice.set(Some(Notice {
            key: Key::NoticeBadTrace,
            why,
            error: true,
        })),
    }
}

fn verdict_text(lang: Lang, v: &Verdict) -> String {
    match v {
        Verdict::Holds { states, schedules } => t(lang, Key::ProofHolds)
            .replace("{states}", &states.to_string())
            .replace(
                "{schedules}",
                &schedules.map_or_else(|| "∞".to_string(), |s| s.to_string()),
            ),
        Verdict::Counterexample { trace, choices } => t(lang, Key::ProofBroken)
            .replace("{n}", &trace.actions.len().to_string())
            .replace("{choices}", &choices.to_string()),
    }
}

/// The two bounded searches the lesson's claim rests on.
const CLAIMS: [Design; 2] = [Design::DualWriteDbFirst, Design::OutboxInbox];

#[component]
fn Claims() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let owner = owner_alive();
    let reports = RwSignal::new(vec![None::<Report>; CLAIMS.len()]);
    let progress = RwSignal::new(None::<(u64, f64)>);
    let running = RwSignal::new(false);
    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        reports.set(vec![None; CLAIMS.len()]);
        let b = Bounds::default();
        let mut jobs: Vec<Explorer> = CLAIMS
            .iter()
            .map(|d| Explorer::new(&d.scenario(&b), &b))
            .collect();
        let mut at = 0usize;
        let t0 = now_ms();
        run_in_tasks(owner.clone(), move |deadline| {
            while at < jobs.len() && now_ms() < deadline {
                let done = jobs[at].run_slice(CHUNK);
                if done {
                    let r = jobs[at].report();
                    reports.update(|v| v[at] = Some(r));
                    at += 1;
                }
            }
            let states: u64 = jobs.iter().map(|j| j.states()).sum();
            progress.set(Some((states, now_ms() - t0)));
            let more = at < jobs.len();
            if !more {
                running.set(false);
            }
            more
        });
    };
    let rows = CLAIMS
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let d = *d;
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
                                            on:click=move |_| load_trace(ctl, &trace)>{text}</button>
                                    }.into_any(),
                                    Verdict::Holds { .. } => view! { <span class="proof__holds">{text}</span> }.into_any(),
                                }
                            })}
                        </td>
                    }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    let rate = move || {
        progress.get().map(|(states, ms)| {
            let per_s = if ms > 0.0 {
                (states as f64 * 1000.0 / ms) as u64
            } else {
                0
            };
            i18n.t(Key::ProofProgress)
                .replace("{states}", &states.to_string())
                .replace("{ms}", &format!("{ms:.0}"))
                .replace("{rate}", &per_s.to_string())
        })
    };
    let b = Bounds::default();
    let bounds = move || {
        i18n.t(Key::ProofBounds)
            .replace("{tasks}", &b.tasks.to_string())
            .replace("{relays}", &b.relays.to_string())
            .replace("{workers}", &b.workers.to_string())
            .replace("{kills}", &b.max_kills.to_string())
    };
    view! {
        <div class="proof__claims">
            <p>{bounds}</p>
            <button type="button" data-testid="proof-run" disabled=move || running.get() on:click=start>{tr(Key::ProofRun)}</button>
            <p data-testid="proof-progress" aria-live="polite">{rate}</p>
            <div class="proof__scroll" tabindex="0" role="region" aria-label=tr(Key::MatrixHeading)>
                <table class="proof__table">
                    <thead><tr><th></th>{Property::all().into_iter().map(|p| view! { <th scope="col"><code>{p.name()}</code></th> }).collect_view()}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
}

#[component]
fn Matrix() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let owner = owner_alive();
    let rows: Vec<(ProcKind, Step)> = matrix_rows();
    let designs = Design::all();
    let n = rows.len() * designs.len();
    let cells = RwSignal::new(vec![None::<MatrixCell>; n]);
    let running = RwSignal::new(false);
    let started = RwSignal::new(false);
    let rows2 = rows.clone();
    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        started.set(true);
        cells.set(vec![None; n]);
        let rows = rows2.clone();
        let current: Rc<RefCell<Option<(usize, Explorer)>>> = Rc::new(RefCell::new(None));
        let mut next = 0usize;
        run_in_tasks(owner.clone(), move |deadline| {
            while now_ms() < deadline {
                let mut cur = current.borrow_mut();
                if cur.is_none() {
                    if next >= n {
                        break;
                    }
                    let (r, d) = (next / designs.len(), next % designs.len());
                    match crash_explorer(designs[d], rows[r]) {
                        Some(e) => *cur = Some((next, e)),
                        None => {
                            let na = MatrixCell {
                                outcome: CellOutcome::NotApplicable,
                                trace: None,
                                states: 0,
                            };
                            cells.update(|c| c[next] = Some(na));
                        }
                    }
                    next += 1;
                    continue;
                }
                let (idx, e) = cur.as_mut().expect("a cell is running");
                if e.run_slice(CHUNK) {
                    let cell = e.cell();
                    let idx = *idx;
                    cells.update(|c| c[idx] = Some(cell));
                    *cur = None;
                }
            }
            let more = next < n || current.borrow().is_some();
            if !more {
                running.set(false);
            }
            more
        });
    };
    let done = move || cells.with(|c| c.iter().filter(|x| x.is_some()).count());
    let body = rows
        .iter()
        .enumerate()
        .map(|(r, (kind, step))| {
            let (kind, step) = (*kind, *step);
            let proc = outbox_model::explore::row_process(kind);
            view! {
                <tr>
                    <th scope="row">
                        {move || proc_name(i18n.lang(), proc)} " · " {move || step_name(i18n.lang(), step)}
                    </th>
                    {designs.iter().enumerate().map(|(d, design)| {
                        let idx = r * designs.len() + d;
                        let id = format!("cell-{}-{}-{}", proc, crate::playground::pipeline::process_card::step_id(step), design.name());
                        let cell = move || cells.with(|c| c[idx].clone());
                        view! {
                            <td>
                                {move || match cell() {
                                    None => view! { <span class="matrix__pending">"…"</span> }.into_any(),
                                    Some(c) => {
                                        let class = format!("matrix__cell matrix__cell--{}", c.outcome.name());
                                        let label = i18n.t(outcome_key(c.outcome));
                                        match c.trace {
                                            Some(trace) => view! {
                                                <button type="button" class=class data-testid=id.clone() data-outcome=c.outcome.name()
                                                    title=format!("{} · {}", label, c.states)
                                                    on:click=move |_| load_trace(ctl, &trace)>{label}</button>
                                            }.into_any(),
                                            None => view! { <span class=class data-testid=id.clone() data-outcome=c.outcome.name()>{label}</span> }.into_any(),
                                        }
                                    }
                                }}
                            </td>
                        }
                    }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="matrix">
            <h3 class="proof__subheading">{tr(Key::MatrixHeading)}</h3>
            <p>{tr(Key::MatrixIntro)}</p>
            <button type="button" data-testid="matrix-run" disabled=move || running.get() on:click=start>{tr(Key::MatrixRun)}</button>
            <p data-testid="matrix-progress" aria-live="polite">
                {move || started.get().then(|| i18n.t(Key::MatrixProgress).replace("{n}", &done().to_string()).replace("{m}", &n.to_string()))}
            </p>
            <div class="proof__scroll" tabindex="0" role="region" aria-label=tr(Key::MatrixHeading)>
                <table class="matrix__table" data-testid="matrix">
                    <thead>
                        <tr>
                            <th></th>
                            {designs.iter().map(|d| { let d = *d; view! { <th scope="col">{move || i18n.t(design_key(d))}</th> } }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </div>
    }
}

#[component]
pub fn Proof() -> impl IntoView {
    view! {
        <details class="proof" data-testid="proof">
            <summary class="proof__summary">{tr(Key::ProofHeading)}</summary>
            <p>{tr(Key::ProofIntro)}</p>
            <Claims/>
            <Matrix/>
            <crate::proof::lockstep::Lockstep/>
            <crate::proof::trace_io::TraceIo/>
        </details>
    }
}
