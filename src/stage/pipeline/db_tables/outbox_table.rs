//! The `outbox` table: row counts, and each row marked uncommitted, locked (by whom)
//! or published, in words as well as in colour.

use leptos::prelude::*;
use outbox_model::view::OutboxView;

use crate::ctl::use_ctl;
use crate::i18n::words::proc_name;
use crate::i18n::{t, tr, use_i18n, Key, Lang};
use crate::stage::pipeline::db_tables::cells::count;

#[component]
pub fn OutboxTable() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let tables = ctl.tables;
    let count = move |n: u64| count(i18n.lang(), n);
    // A CDC relay alone never writes `tarqatilgan_vaqt`: "unpublished" is counted by its
    // offset, and the table says so (#42).
    let cdc = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.config.cdc && s.config.relays == 0)
    };
    let outbox = move || {
        let lang = i18n.lang();
        tables.with(|v| v.outbox.iter().map(|r| outbox_row(lang, r)).collect_view())
    };
    view! {
        <section class="db__table" tabindex="0">
            <h4 class="db__name">
                {tr(Key::TableOutbox)}
                <span class="db__count" data-testid="db-outbox-count">{move || count(tables.with(|v| v.outbox_count))}</span>
                <span class="db__count" data-testid="db-outbox-unpublished" title=move || cdc().then(|| i18n.t(Key::CdcUnpublishedNote))>
                    {move || i18n.tn(if cdc() { Key::UnpublishedCdc } else { Key::UnpublishedRows }, tables.with(|v| v.outbox_unpublished))}
                </span>
            </h4>
            {move || cdc().then(|| view! { <p class="db__note" data-testid="cdc-note">{i18n.t(Key::CdcUnpublishedNote)}</p> })}
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
    }
}

fn outbox_row(lang: Lang, r: &OutboxView) -> impl IntoView {
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
        Some(at) => format!("✓ {} t{at}", t(lang, Key::PublishedAt)),
        None => format!("… {}", t(lang, Key::NotPublished)),
    };
    let mut state = Vec::new();
    if !r.committed {
        state.push(t(lang, Key::Uncommitted).to_string());
    }
    if let Some(who) = &r.locked_by {
        state.push(t(lang, Key::LockedBy).replace("{who}", &proc_name(lang, who)));
    }
    view! {
        <tr class=class data-testid="outbox-row">
            <td>{r.id}</td>
            <td>{r.event.to_string()}</td>
            <td>{published}</td>
            <td class="num">{r.urinishlar}</td>
            <td>{state.join(" · ")}</td>
        </tr>
    }
}
