//! A process card: the labelled steps of its program with the one it runs next lit, a kill
//! control on every step (arm it under a rule: every time, next time, or the canon's
//! `i % 10 == 3`), and kill now / restart / one step of this process. Which buttons are
//! enabled comes from the model's `enabled()`.

use leptos::prelude::*;
use outbox_model::scenario::When;
use outbox_model::{Action, Step};

use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{tr, use_i18n, Key};
use crate::playground::ctl::use_ctl;

/// A step's id in test ids: its name in the model's JSON (`queue_add`), `script-0` for a
/// psql statement.
pub fn step_id(step: Step) -> String {
    use Step::*;
    let id = match step {
        Script(i) => return format!("script-{i}"),
        Send => "send",
        Await => "await",
        Begin => "begin",
        InsertTask => "insert_task",
        InsertEvent => "insert_event",
        Commit => "commit",
        QueueAdd => "queue_add",
        Respond => "respond",
        SelectBatch => "select_batch",
        Publish => "publish",
        MarkPublished => "mark_published",
        MarkFailed => "mark_failed",
        Rollback => "rollback",
        Fetch => "fetch",
        InboxCheck => "inbox_check",
        InboxInsert => "inbox_insert",
        Action => "action",
        ExternalCall => "external_call",
        BeginSecond => "begin_second",
        CommitSecond => "commit_second",
        Complete => "complete",
        InsertKey => "insert_key",
        DeadLetter => "dead_letter",
        ReadWal => "read_wal",
        SaveOffset => "save_offset",
        CleanOutbox => "clean_outbox",
        CleanInbox => "clean_inbox",
    };
    id.to_string()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    Next,
    Always,
    CanonMod,
}

impl Rule {
    fn when(self) -> (When, Option<u32>) {
        match self {
            Rule::Next => (When::Nth { n: 1 }, Some(1)),
            Rule::Always => (When::Always, None),
            // The lesson's canon: every request whose loop index i has i % 10 == 3.
            Rule::CanonMod => (
                When::TaskIndexMod {
                    modulus: 10,
                    remainder: 3,
                },
                None,
            ),
        }
    }
}

#[component]
pub fn ProcessCard(name: String) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let rule = RwSignal::new(Rule::Next);
    let n = name.clone();
    let me = Memo::new(move |_| {
        ctl.procs
            .with(|ps| ps.iter().find(|p| p.name == n).cloned())
    });
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
    let title = {
        let n = name.clone();
        move || proc_name(i18n.lang(), &n)
    };
    let selected = {
        let n = name.clone();
        Memo::new(move |_| ctl.selected_proc.with(|s| *s == n))
    };
    let status = move || {
        me.with(|p| {
            p.as_ref().map(|p| {
                if !p.alive {
                    i18n.t(Key::ProcDead).to_string()
                } else if let Some(w) = &p.waiting_for {
                    i18n.t(Key::ProcWaiting)
                        .replace("{who}", &proc_name(i18n.lang(), w))
                } else {
                    i18n.t(Key::ProcAlive).to_string()
                }
            })
        })
    };
    let state_class = move || {
        me.with(|p| match p {
            Some(p) if !p.alive => "proc proc--dead",
            Some(p) if p.waiting_for.is_some() => "proc proc--waiting",
            _ => "proc",
        })
    };
    let kills = move || {
        me.with(|p| {
            p.as_ref()
                .filter(|p| p.kills > 0)
                .map(|p| i18n.t(Key::ProcKills).replace("{n}", &p.kills.to_string()))
        })
    };
    let holding = move || {
        me.with(|p| {
            p.as_ref().filter(|p| !p.holding.is_empty()).map(|p| {
                let mut list: Vec<String> =
                    p.holding.iter().take(6).map(|e| e.to_string()).collect();
                if p.holding.len() > 6 {
                    list.push(format!("… +{}", p.holding.len() - 6));
                }
                i18n.t(Key::ProcHolding).replace("{list}", &list.join(", "))
            })
        })
    };
    let program = move || me.with(|p| p.as_ref().map(|p| p.program.clone()).unwrap_or_default());
    let steps = {
        let name = name.clone();
        move || {
            let name = name.clone();
            program()
                .into_iter()
                .map(move |step| {
                    let name = name.clone();
                    let sid = step_id(step);
                    let current = move || me.with(|p| p.as_ref().is_some_and(|p| p.alive && p.pc == step));
                    let armed = move || me.with(|p| p.as_ref().is_some_and(|p| p.armed.contains(&step)));
                    let label = move || step_name(i18n.lang(), step);
                    let arm_label = move || i18n.t(Key::ArmKill).replace("{step}", &step_name(i18n.lang(), step));
                    let n2 = name.clone();
                    view! {
                        <li
                            class="proc__step"
                            class:proc__step--current=current
                            class:proc__step--armed=armed
                            data-testid=format!("step-{name}-{sid}")
                            aria-current=move || current().then_some("step")
                        >
                            <span class="proc__label">{label}</span>
                            <button
                                type="button"
                                class="proc__arm"
                                data-testid=format!("arm-{name}-{sid}")
                                aria-pressed=move || if armed() { "true" } else { "false" }
                                aria-label=arm_label
                                title=arm_label
                                on:click=move |_| {
                                    let process = n2.clone();
                                    if armed() {
                                        ctl.dispatch(Action::Disarm { process, step: Some(step) });
                                    } else {
                                        let (when, times) = rule.get_untracked().when();
                                        ctl.dispatch(Action::ArmKill { process, step, when, times });
                                    }
                                }
                            >
                                "☠"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        }
    };
    let (n_step, n_kill, n_restart, n_sel) =
        (name.clone(), name.clone(), name.clone(), name.clone());
    view! {
        <article
            class=state_class
            class:proc--selected=selected
            data-testid=format!("proc-{name}")
        >
            <header class="proc__head">
                <h4 class="proc__name">
                    <button
                        type="button"
                        class="proc__select"
                        aria-pressed=move || if selected.get() { "true" } else { "false" }
                        title=tr(Key::Select)
                        on:click=move |_| ctl.selected_proc.set(n_sel.clone())
                    >
                        {title}
                    </button>
                </h4>
                <span class="proc__status" data-testid=format!("status-{name}")>{status}</span>
            </header>
            <ol class="proc__steps">{steps}</ol>
            <p class="proc__holding">{holding}</p>
            <p class="proc__kills">{kills}</p>
            <div class="proc__actions">
                <label class="proc__rule">
                    <span class="visually-hidden">{tr(Key::RuleLabel)}</span>
                    <select
                        data-testid=format!("rule-{name}")
                        title=tr(Key::RuleLabel)
                        on:change=move |ev| {
                            rule.set(match event_target_value(&ev).as_str() {
                                "always" => Rule::Always,
                                "mod" => Rule::CanonMod,
                                _ => Rule::Next,
                            })
                        }
                    >
                        <option value="next">{tr(Key::WhenNext)}</option>
                        <option value="always">{tr(Key::WhenAlways)}</option>
                        <option value="mod">{tr(Key::WhenMod)}</option>
                    </select>
                </label>
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
        </article>
    }
}
