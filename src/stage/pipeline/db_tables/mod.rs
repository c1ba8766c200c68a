//! PostgreSQL's three tables: row counts and the rows worth looking at. Uncommitted rows,
//! locked rows (and by whom), published rows and `urinishlar` are marked in words as well
//! as in colour.

pub mod inbox_table;
pub mod outbox_table;
pub mod tasks_table;

use leptos::prelude::*;

use crate::i18n::{tn, Key, Lang};
use crate::playground::pipeline::db_tables::inbox_table::InboxTable;
use crate::playground::pipeline::db_tables::outbox_table::OutboxTable;
use crate::playground::pipeline::db_tables::tasks_table::TasksTable;

/// A two-value row (tasks, inbox), marked when its transaction has not committed.
pub fn row(committed: bool, a: String, b: String, uncommitted: &'static str) -> impl IntoView {
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

/// "{n} rows", in the plural form `n` takes.
pub fn count(lang: Lang, n: u64) -> String {
    tn(lang, Key::Rows, n)
}

#[component]
pub fn DbTables() -> impl IntoView {
    view! {
        <div class="db" data-testid="db">
            <TasksTable/>
            <OutboxTable/>
            <InboxTable/>
        </div>
    }
}
