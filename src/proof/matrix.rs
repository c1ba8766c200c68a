//! The crash-point matrix: every labelled step × the five designs, each cell the outcome
//! of a crash there; a cell with a trace loads it into the playground. The cells are
//! searched in the pool's Web Workers (`proof::pool`), as many at once as it has workers.

use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{matrix_rows, matrix_searches, Cell as MatrixCell, Design};
use outbox_model::world::ProcKind;
use outbox_model::Step;

use crate::browser::slices::now_ms;
use crate::ctl::use_ctl;
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{tr, use_i18n, Key, Reason};
use crate::proof::design::{cell_key, design_key, load_trace, worker_key};
use crate::proof::pool::{Group, Pool};
use crate::proof::reply::{Found, Reply};

#[component]
pub fn Matrix() -> impl IntoView {
    let i18n = use_i18n();
    let pool = use_context::<Pool>().expect("Matrix is inside Proof, which provides the pool");
    let rows: Vec<(ProcKind, Step)> = matrix_rows();
    let designs = Design::all();
    let n = rows.len() * designs.len();
    // A signal per cell: an answer redraws its own cell, not the table (115 answers
    // arrive one message each; redrawing every cell for each cost ~5 ms a message).
    let cells: Vec<RwSignal<Option<MatrixCell>>> = (0..n).map(|_| RwSignal::new(None)).collect();
    let done = RwSignal::new(0usize);
    let running = RwSignal::new(false);
    let started = RwSignal::new(false);
    let took_ms = RwSignal::new(None::<u64>);
    let cells2 = cells.clone();
    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        started.set(true);
        took_ms.set(None);
        done.set(0);
        for c in &cells2 {
            c.set(None);
        }
        run_matrix(pool, cells2.clone(), done, running, took_ms);
    };
    let stop = move |_| {
        pool.cancel(GROUP);
        running.set(false);
    };
    let body = rows
        .iter()
        .enumerate()
        .map(|(r, (kind, step))| matrix_row(r, *kind, *step, &cells))
        .collect_view();
    view! {
        <div class="matrix">
            <h3 class="proof__subheading">{tr(Key::MatrixHeading)}</h3>
            <p>{tr(Key::MatrixIntro)}</p>
            <p class="proof__explain" data-testid="matrix-legend">{tr(Key::MatrixLegend)}</p>
            <button type="button" data-testid="matrix-run" disabled=move || running.get() on:click=start>{tr(Key::MatrixRun)}</button>
            <button type="button" data-testid="matrix-stop" hidden=move || !running.get() on:click=stop>{tr(Key::ProofStop)}</button>
            <p data-testid="matrix-progress" aria-live="polite" data-ms=move || took_ms.get().map(|ms| ms.to_string())>
                {move || started.get().then(|| i18n.t(Key::MatrixProgress).replace("{n}", &done.get().to_string()).replace("{m}", &n.to_string()))}
            </p>
            <div class="proof__scroll" tabindex="0" role="region" aria-label=tr(Key::MatrixHeading)>
                <table class="matrix__table" data-testid="matrix">
                    <thead>
                        <tr>
                            <th></th>
                            {designs.iter().map(|d| { let d = *d; view! { <th scope="col">{move || i18n.t(design_key(d))} <small class="proof__worker">{move || i18n.t(worker_key(d))}</small></th> } }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </div>
    }
}

/// The matrix's searches in the pool.
const GROUP: Group = "matrix";

/// Sends every cell to the pool (row by row, the table's order); each cell fills in as
/// its answer comes. `took_ms`: from the click to the last cell (the page bench reads it).
fn run_matrix(
    pool: Pool,
    cells: Vec<RwSignal<Option<MatrixCell>>>,
    done: RwSignal<usize>,
    running: RwSignal<bool>,
    took_ms: RwSignal<Option<u64>>,
) {
    let t0 = now_ms();
    let on_reply = move |i: usize, reply: Reply| match reply {
        Reply::Done {
            answer: Found::Cell(c),
            ..
        } => {
            cells[i].set(Some(*c));
            done.update(|d| *d += 1);
            if done.get_untracked() == cells.len() {
                took_ms.set(Some((now_ms() - t0).max(0.0) as u64));
                running.set(false);
            }
        }
        Reply::Failed { .. } => running.set(false),
        _ => {}
    };
    pool.submit(GROUP, matrix_searches(), Rc::new(on_reply));
}

/// One labelled step's row: its name, then a cell per design.
fn matrix_row(
    r: usize,
    kind: ProcKind,
    step: Step,
    cells: &[RwSignal<Option<MatrixCell>>],
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let designs = Design::all();
    let proc = outbox_model::explore::row_process(kind);
    view! {
        <tr>
            <th scope="row">
                {move || proc_name(i18n.lang(), proc)} " · " {move || step_name(i18n.lang(), step)}
            </th>
            {designs.iter().enumerate().map(|(d, design)| {
                let idx = r * designs.len() + d;
                let id = format!("cell-{}-{}-{}", proc, crate::stage::pipeline::process_card::step_id::step_id(step), design.name());
                let cell = cells[idx];
                let design = *design;
                view! {
                    <td>
                        {move || match cell.get() {
                            None => view! { <span class="matrix__pending">"…"</span> }.into_any(),
                            Some(c) => {
                                let class = format!("matrix__cell matrix__cell--{}", c.outcome.name());
                                let label = i18n.t(cell_key(c.outcome));
                                match c.trace {
                                    Some(trace) => view! {
                                        <button type="button" class=class data-testid=id.clone() data-outcome=c.outcome.name()
                                            title=format!("{} · {}", label, c.states)
                                            on:click={
                                                // Named as the page names designs and steps.
                                                move |_| {
                                                    let lang = i18n.lang();
                                                    let what = Reason::new(Key::TraceLoadedCell)
                                                        .arg("design", i18n.t(design_key(design)))
                                                        .arg("point", format!("{} · {}", proc_name(lang, proc), step_name(lang, step)));
                                                    load_trace(ctl, &trace, what)
                                                }
                                            }>{label}</button>
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
}
