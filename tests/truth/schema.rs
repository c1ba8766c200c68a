//! The schema panel's facts (§3.1, §3.2): the outbox's columns as `information_schema`
//! reports them, the partial index by the lesson's name, and the app role's rights column
//! by column — before and after the `RETURNING` grant, and under the lesson's own grants.
//! The page prints these answers from `outbox_model::sql`; here a real server gives them.

use crate::harness::Pg;
use outbox_model::sql;

/// Rows of a query whose columns are all text (NULL read as "").
fn text_rows(pg: &mut Pg, query: &str) -> Vec<Vec<String>> {
    let rows = pg.observer.query(query, &[]).expect(query);
    rows.iter()
        .map(|r| {
            (0..r.len())
                .map(|i| r.get::<_, Option<String>>(i).unwrap_or_default())
                .collect()
        })
        .collect()
}

fn privileges(pg: &mut Pg) -> Vec<(String, String)> {
    text_rows(pg, sql::APP_COLUMN_PRIVILEGES_QUERY)
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

fn expected(returning_grant: bool) -> Vec<(String, String)> {
    sql::app_column_privileges(returning_grant)
        .into_iter()
        .map(|(c, p)| (c.to_owned(), p.to_owned()))
        .collect()
}

#[test]
fn outbox_columns_as_information_schema_reports_them() {
    let mut pg = Pg::new("schema-columns");
    let got = text_rows(&mut pg, sql::OUTBOX_COLUMNS_QUERY);
    let want: Vec<Vec<String>> = sql::OUTBOX_COLUMNS
        .iter()
        .map(|(n, t, d)| vec![n.to_string(), t.to_string(), d.to_string()])
        .collect();
    // The lesson's §3.2 prints the same eight rows.
    assert_eq!(got.len(), 8);
    assert_eq!(got, want);
}

#[test]
fn the_partial_index_has_the_lessons_name_and_predicate() {
    let mut pg = Pg::new("schema-index");
    let rows = text_rows(
        &mut pg,
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'outbox' \
         AND indexdef LIKE '%WHERE%'",
    );
    assert_eq!(rows.len(), 1, "one partial index: {rows:?}");
    assert_eq!(rows[0][0], "outbox_navbat_idx");
    assert!(
        rows[0][1].contains("WHERE (tarqatilgan_vaqt IS NULL)"),
        "{}",
        rows[0][1]
    );
    assert!(sql::SCHEMA.contains("CREATE INDEX outbox_navbat_idx"));
}

#[test]
fn the_app_roles_rights_column_by_column() {
    let mut pg = Pg::new("schema-privileges");
    assert_eq!(privileges(&mut pg), expected(false), "after sql::GRANTS");
    pg.observer.batch_execute(sql::GRANT_RETURNING).unwrap();
    assert_eq!(privileges(&mut pg), expected(true), "after GRANT_RETURNING");
    // The lesson's grants (with its REVOKE) take the column SELECT back: insert only.
    pg.observer.batch_execute(sql::LESSON_ROLE_SQL).unwrap();
    assert_eq!(
        privileges(&mut pg),
        expected(false),
        "after the lesson's grants"
    );
}
