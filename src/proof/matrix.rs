//! The crash-point matrix: every labelled step × the five designs, each cell the outcome
//! of a crash there; a cell with a trace loads it into the playground.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{
    crash_explorer, matrix_rows, Cell as MatrixCell, CellOutcome, Design, Explorer,
};
use outbox_model::world::ProcKind;
use outbox_model::Step;

use crate::browser::frames::{now_ms, owner_alive, run_in_tasks};
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{tr, use_i18n, Key, Reason};
use crate::playground::ctl::use_ctl;
use crate::proof::design::{cell_key, design_key, load_trace};
use crate::proof::CHUNK;

#[component]
pub fn Matrix() -> impl IntoView {
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
        run_matrix(owner.clone(), rows2.clone(), cells, running);
    };
    let done = move || cells.with(|c| c.iter().filter(|x| x.is_some()).count());
    let body = rows
        .iter()
        .enumerate()
        .map(|(r, (kind, step))| matrix_row(r, *kind, *step, cells))
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

/// Explores every cell in turn, in tasks: a cell's explorer runs a slice at a time, a
/// cell without one (the step is not on that design's path) is marked not applicable.
fn run_matrix(
    owner: Rc<Cell<bool>>,
    rows: Vec<(ProcKind, Step)>,
    cells: RwSignal<Vec<Option<MatrixCell>>>,
    running: RwSignal<bool>,
) {
    let designs = Design::all();
    let n = rows.len() * designs.len();
    let current: Rc<RefCell<Option<(usize, Explorer)>>> = Rc::new(RefCell::new(None));
    let mut next = 0usize;
    run_in_tasks(owner, move |deadline| {
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
}

/// One labelled step's row: its name, then a cell per design.
fn matrix_row(
    r: usize,
    kind: ProcKind,
    step: Step,
    cells: RwSignal<Vec<Option<MatrixCell>>>,
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
                let id = format!("cell-{}-{}-{}", proc, crate::playground::pipeline::process_card::step_id(step), design.name());
                let cell = move || cells.with(|c| c[idx].clone());
                let design_name = design.name();
                view! {
                    <td>
                        {move || match cell() {
                            None => view! { <span class="matrix__pending">"…"</span> }.into_any(),
                            Some(c) => {
                                let class = format!("matrix__cell matrix__cell--{}", c.outcome.name());
                                let label = i18n.t(cell_key(c.outcome));
                                match c.trace {
                                    Some(trace) => view! {
                                        <button type="button" class=class data-testid=id.clone() data-outcome=c.outcome.name()
                                            title=format!("{} · {}", label, c.states)
                                            on:click={
                                                let what = Reason::new(Key::TraceLoadedCell)
                                                    .arg("design", design_name)
                                                    .arg("point", format!("{proc} · {}", crate::playground::pipeline::process_card::step_id(step)));
                                                move |_| load_trace(ctl, &trace, what.clone())
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
