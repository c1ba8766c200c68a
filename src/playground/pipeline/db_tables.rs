//! PostgreSQL's three tables: row counts and the rows worth looking at. Uncommitted rows,
//! locked rows (and by whom), published rows and `urinishlar` are marked in words as well
//! as in colour.

use leptos::prelude::*;

use crate::i18n::words::proc_name;
use crate::i18n::{tr, use_i18n, Key};
use crate::playground::ctl::use_ctl;

/// A two-value row (tasks, inbox), marked when its transaction has not committed.
fn row(committed: bool, a: String, b: String, uncommitted: &'static str) -> impl IntoView {
    let class = if committed {
        "row"
    } else {
        "row row--uncommitted"
    };
    view! {
        <tr class=class>
            <td>{a}</td>
            <td>{b}</td>
            <td>{(!committed).then_some(uncommitted)}</td>
        </tr>
    }
}

#[component]
pub fn DbTables() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let t = ctl.tables;
    let count = move |n: u64| i18n.t(Key::Rows).replace("{n}", &n.to_string());

    let tasks = move || {
        t.with(|v| {
            v.tasks
                .iter()
                .map(|r| {
                    row(
                        r.committed,
                        r.id.to_string(),
                        format!("i={}", r.intent),
                        i18n.t(Key::Uncommitted),
                    )
                })
                .collect_view()
        })
    };
    let outbox = move || {
        t.with(|v| {
            v.outbox
                .iter()
                .map(|r| {
                    let mut class = String::from("row");
                    if !r.committed {
                        class.push_str(" row--uncommitted");
                    }
                    if r.locked_by.is_some() {
                        class.push_str(" row--locked");
                    }
                    if r.tarqatilgan_vaqt.is_some() {
                        class.push_str(" row--published");
                    }
                    let published = match r.tarqatilgan_vaqt {
                        Some(at) => format!("✓ {} t{at}", i18n.t(Key::PublishedAt)),
                        None => format!("… {}", i18n.t(Key::NotPublished)),
                    };
                    let mut state = Vec::new();
                    if !r.committed {
                        state.push(i18n.t(Key::Uncommitted).to_string());
                    }
                    if let Some(who) = &r.locked_by {
                        state.push(
                            i18n.t(Key::LockedBy)
                                .replace("{who}", &proc_name(i18n.lang(), who)),
                        );
                    }
                    view! {
                        <tr class=class data-testid="outbox-row">
                            <td>{r.id}</td>
                            <td>{r.hodisa.to_string()}</td>
                            <td>{published}</td>
                            <td class="num">{r.urinishlar}</td>
                            <td>{state.join(" · ")}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let inbox = move || {
        t.with(|v| {
            v.inbox
                .iter()
                .map(|r| {
                    row(
                        r.committed,
                        r.hodisa.to_string(),
                        format!("t{}", r.ishlangan_vaqt),
                        i18n.t(Key::Uncommitted),
                    )
                })
                .collect_view()
        })
    };

    view! {
        <div class="db" data-testid="db">
            <section class="db__table" tabindex="0">
                <h4 class="db__name">
                    {tr(Key::TableTasks)}
                    <span class="db__count" data-testid="db-tasks-count">{move || count(t.with(|v| v.tasks_count))}</span>
                </h4>
                <table>
                    <thead><tr><th scope="col">"id"</th><th scope="col">"i"</th><th scope="col"></th></tr></thead>
                    <tbody>{tasks}</tbody>
                </table>
            </section>
            <section class="db__table" tabindex="0">
                <h4 class="db__name">
                    {tr(Key::TableOutbox)}
                    <span class="db__count" data-testid="db-outbox-count">{move || count(t.with(|v| v.outbox_count))}</span>
                    <span class="db__count">
                        {move || i18n.t(Key::UnpublishedRows).replace("{n}", &t.with(|v| v.outbox_unpublished).to_string())}
                    </span>
                </h4>
                <table>
                    <thead>
                        <tr>
                            <th scope="col">"id"</th>
                            <th scope="col">"hodisa_id"</th>
                            <th scope="col">"tarqatilgan_vaqt"</th>
                            <th scope="col">{tr(Key::Urinishlar)}</th>
                            <th scope="col"></th>
                        </tr>
                    </thead>
                    <tbody>{outbox}</tbody>
                </table>
            </section>
            <section class="db__table" tabindex="0">
                <h4 class="db__name">
                    {tr(Key::TableInbox)}
                    <span class="db__count" data-testid="db-inbox-count">{move || count(t.with(|v| v.inbox_count))}</span>
                </h4>
                <table>
                    <thead><tr><th scope="col">"hodisa_id"</th><th scope="col">"ishlangan_vaqt"</th><th scope="col"></th></tr></thead>
                    <tbody>{inbox}</tbody>
                </table>
            </section>
        </div>
    }
}
