//! The live SQL panel: the statements of the selected process, from the model's single SQL
//! source, with the one it runs next highlighted; a tab per process.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{tr, use_i18n, Key};

#[component]
pub fn SqlPanel() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let tabs = move || {
        ctl.procs.with(|ps| {
            ps.iter()
                .map(|p| {
                    let name = p.name.clone();
                    let n2 = name.clone();
                    let n3 = name.clone();
                    view! {
                        <button
                            type="button"
                            class="sql__tab"
                            data-testid=format!("sql-tab-{name}")
                            aria-pressed=move || if ctl.selected_proc.with(|s| *s == n2) { "true" } else { "false" }
                            on:click=move |_| ctl.selected_proc.set(n3.clone())
                        >
                            {proc_name(i18n.lang(), &name)}
                        </button>
                    }
                })
                .collect_view()
        })
    };
    let statements = move || {
        let sel = ctl.selected_proc.get();
        ctl.procs.with(|ps| {
            ps.iter().find(|p| p.name == sel).map(|p| {
                p.program
                    .iter()
                    .zip(&p.sql)
                    .filter(|(_, sql)| !sql.is_empty())
                    .map(|(step, sql)| {
                        let current = p.alive && p.pc == *step;
                        view! {
                            <li class="sql__stmt" class:sql__stmt--current=current aria-current=current.then_some("step")>
                                <span class="sql__step">{step_name(i18n.lang(), *step)}</span>
                                <pre class="sql__text" data-testid=if current { "sql-current" } else { "sql-stmt" }>{*sql}</pre>
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <section class="sql panel" data-testid="sql-panel" aria-labelledby="sql-heading">
            <h2 id="sql-heading" class="panel__heading">{tr(Key::SqlHeading)}</h2>
            <p class="panel__intro">{tr(Key::SqlIntro)}</p>
            <div class="sql__tabs" role="group">{tabs}</div>
            <ol class="sql__list">{statements}</ol>
        </section>
    }
}
