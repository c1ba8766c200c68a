//! A process card's buttons: the rule a kill is armed under, one step of this process,
//! and kill now (or restart, once it is dead). Enabled as the model's `enabled()` says.

use leptos::prelude::*;
use outbox_model::scenario::KillRule;
use outbox_model::Action;

use crate::ctl::use_ctl;
use crate::i18n::{tr, Key};
use crate::stage::pipeline::process_card::kill_rule::{self, CHOICES};

#[component]
pub fn CardActions(name: String) -> impl IntoView {
    let ctl = use_ctl();
    let n = name.clone();
    let can = move |a: fn(String) -> Action| {
        let want = a(n.clone());
        ctl.enabled.with(|e| e.contains(&want))
    };
    let can_step = {
        let can = can.clone();
        move || can(|process| Action::Step { process })
    };
    let can_kill = {
        let can = can.clone();
        move || can(|process| Action::Kill { process })
    };
    let can_restart = move || can(|process| Action::Restart { process });
    let (n_step, n_kill, n_restart) = (name.clone(), name.clone(), name.clone());
    view! {
        <div class="proc__actions">
            <RuleSelect name=name.clone()/>
            <button
                type="button"
                data-testid=format!("stepproc-{name}")
                disabled=move || !can_step()
                on:click=move |_| ctl.dispatch(Action::Step { process: n_step.clone() })
            >
                {tr(Key::StepThis)}
            </button>
            <Show
                when=can_restart
                fallback=move || {
                    let n_kill = n_kill.clone();
                    let can_kill = can_kill.clone();
                    view! {
                        <button
                            type="button"
                            class="proc__kill"
                            data-testid=format!("kill-{n_kill}")
                            disabled=move || !can_kill()
                            on:click=move |_| ctl.dispatch(Action::Kill { process: n_kill.clone() })
                        >
                            {tr(Key::KillNow)}
                        </button>
                    }
                }
            >
                {
                    let n_restart = n_restart.clone();
                    view! {
                        <button
                            type="button"
                            data-testid=format!("restart-{n_restart}")
                            on:click=move |_| ctl.dispatch(Action::Restart { process: n_restart.clone() })
                        >
                            {tr(Key::Restart)}
                        </button>
                    }
                }
            </Show>
        </div>
    }
}

/// The rule the card's kills are armed under: the armed kills' own rule while there are
/// some (a scenario's rule that is none of the three shows as "other"), else the choice
/// for the next ☠. Choosing re-arms the armed ones (`Ctl::set_kill_rule`).
#[component]
fn RuleSelect(name: String) -> impl IntoView {
    let ctl = use_ctl();
    let n = name.clone();
    let current = Memo::new(move |_| ctl.kill_rule(&n));
    let n_set = name.clone();
    view! {
        <label class="proc__rule">
            <span class="visually-hidden">{tr(Key::RuleLabel)}</span>
            <select
                data-testid=format!("rule-{name}")
                data-rule=move || kill_rule::value(current.get())
                title=tr(Key::RuleLabel)
                prop:value=move || kill_rule::value(current.get())
                on:change=move |ev| ctl.set_kill_rule(&n_set, kill_rule::parse(&event_target_value(&ev)))
            >
                {CHOICES.into_iter().map(|r| view! {
                    <option value=kill_rule::value(r) selected=move || current.get() == r>{tr(kill_rule::key(r))}</option>
                }).collect_view()}
                <Show when=move || current.get() == KillRule::Other>
                    <option value="other" disabled=true selected=true>{tr(Key::WhenOther)}</option>
                </Show>
            </select>
        </label>
    }
}
