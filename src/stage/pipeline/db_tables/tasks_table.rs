//! The `tasks` table: its row count and its first and newest rows.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};
use crate::stage::pipeline::db_tables::cells::{count, row};

#[component]
pub fn TasksTable() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let t = ctl.tables;
    let count = move |n: u64| count(i18n.lang(), n);
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
    view! {
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
    }
}
