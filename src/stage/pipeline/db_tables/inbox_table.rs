//! The `inbox` table: its row count and its rows (what the worker has handled).

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};
use crate::stage::pipeline::db_tables::cells::{count, row};

#[component]
pub fn InboxTable() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let t = ctl.tables;
    let count = move |n: u64| count(i18n.lang(), n);
    let inbox = move || {
        t.with(|v| {
            v.inbox
                .iter()
                .map(|r| {
                    row(
                        r.committed,
                        r.event.to_string(),
                        format!("t{}", r.ishlangan),
                        i18n.t(Key::Uncommitted),
                    )
                })
                .collect_view()
        })
    };
    view! {
        <section class="db__table" tabindex="0">
            <h4 class="db__name">
                {tr(Key::TableInbox)}
                <span class="db__count" data-testid="db-inbox-count">{move || count(t.with(|v| v.inbox_count))}</span>
            </h4>
            <table>
                <thead><tr><th scope="col">"hodisa_id"</th><th scope="col">"ishlangan"</th><th scope="col"></th></tr></thead>
                <tbody>{inbox}</tbody>
            </table>
        </section>
    }
}
