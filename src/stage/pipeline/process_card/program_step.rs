//! One step of a process card's program: its name, lit when it runs next, and the kill
//! it can be armed with (under the card's rule) or disarmed.

use leptos::prelude::*;
use outbox_model::scenario::Sink;
use outbox_model::view::ProcView;
use outbox_model::{Action, Step};

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::words::step_name;
use crate::i18n::{use_i18n, I18n, Key};
use crate::stage::pipeline::process_card::kill_rule;
use crate::stage::pipeline::process_card::step_id::step_id;

/// A step's label on the card (tracked: it follows the scenario and the language).
fn step_label(ctl: Ctl, i18n: I18n, step: Step) -> String {
    // A relay that feeds a webhook (lesson §4.1) publishes with a POST, not queue.add; the
    // program is the same, so the card stays and its label follows the scenario.
    let webhook = move || {
        step == Step::Publish && {
            ctl.scenario_version.track();
            ctl.with_scenario(|s| s.config.relay.sink != Sink::Queue)
        }
    };
    // A psql statement shows its own SQL (shortened), not "psql statement 3" (#24).
    let script_sql = move || match step {
        Step::Script(i) => {
            ctl.scenario_version.track();
            ctl.with_scenario(|s| {
                s.script
                    .get(i as usize)
                    .map(|&st| shorten(outbox_model::world::script_sql(st)))
            })
        }
        _ => None,
    };
    if let Some(sql) = script_sql() {
        sql
    } else if webhook() {
        i18n.t(Key::StepPublishWebhook).to_string()
    } else {
        step_name(i18n.lang(), step)
    }
}

#[component]
pub fn ProgramStep(
    name: String,
    step: Step,
    /// The step just done when this one is reached, if it is one (`step_before`).
    prev: Option<Step>,
    me: Memo<Option<ProcView>>,
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let id_name = name.clone();
    let sid = step_id(step);
    let current = move || me.with(|p| p.as_ref().is_some_and(|p| p.alive && p.pc == step));
    let armed = move || me.with(|p| p.as_ref().is_some_and(|p| p.armed.contains(&step)));
    let label = move || step_label(ctl, i18n, step);
    // When the kill strikes, in the lesson's words: after the step just done, before this
    // one runs ("Kill after COMMIT, before queue.add").
    let where_label = move || match prev {
        Some(p) => i18n
            .t(Key::ArmKillAfter)
            .replace("{prev}", &step_name(i18n.lang(), p))
            .replace("{step}", &label()),
        None => i18n.t(Key::ArmKill).replace("{step}", &label()),
    };
    // An armed ☠ says it is armed, under which rule, and that pressing it disarms (#42).
    let rule_name = id_name.clone();
    let arm_label = Signal::derive(move || {
        if armed() {
            i18n.t(Key::ArmedKillLabel)
                .replace("{kill}", &where_label())
                .replace("{rule}", i18n.t(kill_rule::key(ctl.kill_rule(&rule_name))))
        } else {
            where_label()
        }
    });
    view! {
        <li
            class="proc__step"
            class:proc__step--current=current
            class:proc__step--armed=armed
            data-testid=format!("step-{id_name}-{sid}")
            aria-current=move || current().then_some("step")
        >
            <span class="proc__label">{label}</span>
            <button
                type="button"
                class="proc__arm"
                data-testid=format!("arm-{id_name}-{sid}")
                aria-pressed=move || if armed() { "true" } else { "false" }
                aria-label=arm_label
                title=arm_label
                on:click=move |_| {
                    let process = name.clone();
                    if armed() {
                        ctl.dispatch(Action::Disarm { process, step: Some(step) });
                    } else {
                        ctl.arm_kill(&process, step);
                    }
                }
            >
                "☠"
            </button>
        </li>
    }
}

/// A statement as a card's step shows it: its first [`SHORT_SQL_CHARS`] characters.
fn shorten(sql: &str) -> String {
    match sql.char_indices().nth(SHORT_SQL_CHARS) {
        Some((at, _)) => format!("{}…", sql[..at].trim_end()),
        None => sql.to_string(),
    }
}

/// Enough for `SET LOCAL ROLE vazifalar_ilova` and the start of every INSERT.
const SHORT_SQL_CHARS: usize = 30;
