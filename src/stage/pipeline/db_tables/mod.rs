//! PostgreSQL's three tables: row counts and the rows worth looking at. Uncommitted rows,
//! locked rows (and by whom), published rows and `urinishlar` are marked in words as well
//! as in colour.

pub mod cells;
pub mod inbox_table;
pub mod outbox_table;
pub mod tasks_table;

use leptos::prelude::*;

use crate::stage::pipeline::db_tables::inbox_table::InboxTable;
use crate::stage::pipeline::db_tables::outbox_table::OutboxTable;
use crate::stage::pipeline::db_tables::tasks_table::TasksTable;

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
