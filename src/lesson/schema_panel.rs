//! The lesson's §3.1 as a panel: the three tables' `CREATE TABLE`, the partial index with
//! the live row counts that show why it matters, the lesson's GRANT/REVOKE, and the two
//! `information_schema` answers. Every SQL text and answer comes from `outbox_model::sql`,
//! which the PostgreSQL truth suite runs against a real server.

use leptos::prelude::*;
use outbox_model::sql;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};

/// The statements of the schema the lesson teaches (the model's other tables serve the
/// playground's extra scenarios and stay out of this panel).
const LESSON_TABLES: [&str; 4] = [
    "CREATE TABLE vazifalar",
    "CREATE TABLE outbox ",
    "CREATE INDEX outbox_navbat_idx",
    "CREATE TABLE inbox",
];

fn lesson_schema_sql() -> String {
    sql::schema_statements()
        .filter(|s| LESSON_TABLES.iter().any(|p| s.starts_with(p)))
        .map(|s| format!("{s};"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[component]
pub fn SchemaPanel() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let counts = move || {
        let (t, i) = ctl.tables.with(|v| (v.outbox_count, v.outbox_unpublished));
        i18n.t(Key::SchemaIndexCount)
            .replace("{t}", &t.to_string())
            .replace("{i}", &i.to_string())
    };
    view! {
        <div class="schema" data-testid="schema-panel">
            <p>{tr(Key::SchemaIntro)}</p>
            <pre class="schema__sql" data-testid="schema-create">{lesson_schema_sql()}</pre>
            <h3 class="schema__heading">{tr(Key::SchemaIndexHeading)}</h3>
            <p>{tr(Key::SchemaIndexWhy)}</p>
            <p class="schema__count" data-testid="schema-index-count" aria-live="polite">{counts}</p>
            <h3 class="schema__heading">{tr(Key::SchemaRoleHeading)}</h3>
            <p>{tr(Key::SchemaRoleWhy)}</p>
            <pre class="schema__sql" data-testid="schema-grants">{sql::LESSON_ROLE_SQL}</pre>
            <h3 class="schema__heading">{tr(Key::SchemaColumnsHeading)}</h3>
            <p>{tr(Key::SchemaColumnsWhy)}</p>
            <Answer query=sql::OUTBOX_COLUMNS_QUERY rows=columns_rows() testid="schema-columns"/>
            <Answer
                query=sql::APP_COLUMN_PRIVILEGES_QUERY
                rows=privilege_rows()
                testid="schema-privileges"
            />
        </div>
    }
}

fn columns_rows() -> Vec<Vec<&'static str>> {
    sql::OUTBOX_COLUMNS
        .iter()
        .map(|(n, t, d)| vec![*n, *t, *d])
        .collect()
}

/// The rights before the `RETURNING` grant: what the lesson's role has.
fn privilege_rows() -> Vec<Vec<&'static str>> {
    sql::app_column_privileges(false)
        .into_iter()
        .map(|(c, p)| vec![c, p])
        .collect()
}

/// A query and its answer, printed the way psql would show the rows.
#[component]
fn Answer(
    query: &'static str,
    rows: Vec<Vec<&'static str>>,
    testid: &'static str,
) -> impl IntoView {
    let body = rows
        .into_iter()
        .map(|r| {
            let cells = r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <figure class="schema__answer" data-testid=testid>
            <pre class="schema__sql">{query}</pre>
            <table class="schema__table"><tbody>{body}</tbody></table>
        </figure>
    }
}
